"""Hand records followed as they are written (``revoke-audit watch``): each board audited again
when its record changes, each finding announced once when it first appears and withdrawn when a
corrected record no longer has it.

- **What is read again**: only the file that changed, and of its boards only those whose record
  content changed (a board is known by its identity in the file: board, room, Table and Round
  tags, and which occurrence of them it is; its content is the record without line numbers).
- **What waits**: a board the file ends inside (a save caught half done, a trick of two cards)
  announces only its established revokes; the rest waits for more.  A revoke not yet
  established (``RV004``) is never announced: the next card establishes it or it is corrected.
- **What is forgotten**: a file that vanishes, and a board that leaves its file, are dropped
  without a word; when the same board appears again (the file renamed or rotated, rewritten
  whole, truncated and written again) it keeps what was announced of it.
- **What changes**: a finding's words are kept up to date as its board is audited again; it is
  said again (``"changed"``) only when what its ruling transfers changes (its code, Law or
  tricks transferred: the offending side wins a later trick, and 64A1 transfers its second
  trick or 64A2 its first).
- **The round** (Laws 64A, 64B4, 64B5): a revoke first announced while its board's round is on
  is ruled as found at the table, and that board stays so ruled.  The round of a board is over
  when a later board of the same table has begun in the same file (the same Table tag, or room
  when there is none), or when its record has been complete (13 tricks, a claim, or a stated
  result) for longer than ``round_minutes``, counted from the file's modification time when the
  watch first read it complete.  A finding first read after that is ruled after the round.

- **The page** (``watch --html``, ``watch_page``): the audit that ruled a board is kept while
  what is announced of it makes it irregular (``boards``), so the page shows each board as the
  watch ruled it; other boards keep their status alone, and a board that left its file nothing.

``Watch`` holds that state and says what to announce; ``follow`` drives it from the system's
file events (the ``watchfiles`` library, the ``watch`` extra), polling only when asked to."""
from __future__ import annotations

import hashlib
import io
import json
import os
import stat
import sys
import time
from collections import OrderedDict
from dataclasses import dataclass, field, fields, replace
from datetime import datetime
from typing import Callable, Iterable, Iterator

from ..ruling.audit import BoardAudit, audit_board
from ..core.codes import board_status
from ..core.findings import Finding
from ..formats import Limits, iter_sources, read_stream, recognised
from ..formats.lin.plain import PlainLine
from ..formats.pbn.plain import PlainGame
from ..laws import AFTER_ROUND, TABLE
from ..ruling.options import AuditOptions
from ..core.record import BoardRecord
from ..replay.coherence import with_neighbours
from ..replay.model import CLAIMED, COMPLETE
from ..reports.report import text_line
from ..reports.rows import LeanRow, Rendered, board_row, finding_row

NEW, CHANGED, WITHDRAWN = "new", "changed", "withdrawn"
ROUND_MINUTES = 15.0
#: Codes a board still being played does not announce yet: the next cards settle them (a revoke
#: not yet established; a card missing mid-play, which turns out a defective trick or not).
PROVISIONAL = ("RV004", "RC013")
#: Names a program saves through before it renames the file into place: never followed.
TEMPORARY = (".tmp", ".temp", ".part", ".partial", ".swp", ".swx", "~", ".bak", ".crdownload")
ORPHANS = 10_000  # boards kept after they left their file, to know them when they come back
CLEAN, IRREGULAR = "clean", "irregular"


def _install_hint() -> str:
    """The command that installs the ``watch`` extra where this copy runs: into a copy of the
    project (``scripts/audit`` makes ``.venv`` and installs it editable there), the project's
    own ``.venv/bin/pip``; elsewhere this Python's pip."""
    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # src/revoke_audit
    root = os.path.dirname(os.path.dirname(package))  # -> the project
    pip = os.path.join(os.path.dirname(sys.executable), "pip")
    if os.path.basename(os.path.dirname(package)) == "src" and os.path.isfile(
            os.path.join(root, "pyproject.toml")):
        return f"{pip} install -e '{root}[watch]'"
    return f"{pip} install 'revoke-audit[watch]'"


MISSING = ("revoke-audit watch needs the watchfiles library (the watch extra); install it with: "
           + _install_hint())


@dataclass(frozen=True)
class Announcement:
    """One thing to say: ``kind`` ``"new"``, ``"changed"`` (what its ruling transfers) or
    ``"withdrawn"``, at ``time`` (seconds since the epoch), of ``finding`` (its findings.csv
    row, as it is now; a withdrawn one as it last was)."""

    time: float
    kind: str
    finding: dict[str, object]


@dataclass
class _Board:
    """What the watch knows of one board of one file."""

    signature: bytes  # a digest of the record's content (``_signature``)
    announced: dict[tuple, dict[str, object]] = field(default_factory=dict)  # identity -> row
    complete_since: float | None = None
    table: bool = False  # a revoke of it was announced during its round: found at the table
    over: bool = False  # its table has begun another board
    status: str = CLEAN  # by what is announced of it (``codes.board_status``)
    audit: BoardAudit | None = None  # the audit that ruled it, kept while it is irregular


@dataclass
class _File:
    stamp: tuple[int, int, int] | None = None  # size, mtime_ns, inode when last read
    boards: dict[tuple, _Board] = field(default_factory=dict)


class Watch:
    """The state of a watch over hand records; ``read(path)`` after each change of ``path``
    returns what to announce.  ``clock``: the time now (tests give their own)."""

    def __init__(self, options: AuditOptions | None = None,
                 round_minutes: float = ROUND_MINUTES,
                 clock: Callable[[], float] = time.time) -> None:
        self.options = options or AuditOptions()
        self.limits = Limits()
        self.round_seconds = round_minutes * 60
        self.clock = clock
        self.files: dict[str, _File] = {}
        self._orphans: OrderedDict[tuple, _Board] = OrderedDict()
        self.new = self.changed = self.withdrawn = 0  # as read (``told``: as said)
        self.told: dict[str, int] = {NEW: 0, CHANGED: 0, WITHDRAWN: 0}
        self.unsaid: list[Announcement] = []  # read, not yet said (a stop came between)

    def start(self, paths: Iterable[str], announce: bool = True) -> list[Announcement]:
        """Read every hand record under ``paths`` as the audit command would find them;
        ``announce=False`` (``--since-start``): take what they hold as known, say nothing."""
        said = [a for source in iter_sources(list(paths)) for a in self.read(source)]
        if announce:
            return said
        self.new -= sum(1 for a in said if a.kind == NEW)
        return []

    def tell(self, announcements: Iterable[Announcement],
             say: Callable[[Announcement], None]) -> bool:
        """Say each of ``announcements`` through ``say``, counting it in ``told`` once said;
        whether any was.  Those a stop leaves unsaid stay in ``unsaid``."""
        self.unsaid = list(announcements)
        spoke = bool(self.unsaid)
        while self.unsaid:
            say(self.unsaid[0])
            self.told[self.unsaid.pop(0).kind] += 1
        return spoke

    @property
    def standing_said(self) -> int:
        """Findings said and not said withdrawn, of the boards followed now (``standing``
        without what a stop left unsaid)."""
        kinds = [a.kind for a in self.unsaid]
        return self.standing - kinds.count(NEW) + kinds.count(WITHDRAWN)

    @property
    def standing(self) -> int:
        """Findings announced and not withdrawn."""
        return sum(len(b.announced) for f in self.files.values() for b in f.boards.values())

    def boards(self) -> Iterator[tuple[Rendered, BoardAudit | None]]:
        """Each board followed (files by name, boards in file order) as the director's page
        takes it: its rows, with the findings as last announced and its status by them, and
        the audit that ruled it when it is irregular (else its status alone, and None)."""
        for path in sorted(self.files):
            for board in self.files[path].boards.values():
                findings = list(board.announced.values())
                if board.audit is None:
                    yield Rendered(LeanRow(status=board.status), findings), None
                else:
                    row = {**board_row(board.audit), "status": board.status}
                    yield Rendered(row, findings), board.audit

    def read(self, path: str) -> list[Announcement]:
        """``path`` changed (or appeared, or vanished): what to announce.  Only a regular file
        is read (a FIFO would block the watch for good, a device feed it without end): what
        else stands at a followed name is taken as gone.  Its bytes are read once, so what
        ends mid-line is told from the very bytes the boards were read from."""
        try:
            st = os.stat(path)
        except OSError:
            self.forget(path)
            return []
        if stat.S_ISDIR(st.st_mode):  # a folder moved in: what it holds
            return [a for source in iter_sources([path]) if source != path
                    for a in self.read(source)]
        if not stat.S_ISREG(st.st_mode):
            self.forget(path)
            return []
        known = self.files.setdefault(path, _File())
        if known.stamp == _stamp(st):
            return []
        data, st = _snapshot(path, self.limits)
        if st is None:  # replaced by something else than a file since: gone
            self.forget(path)
            return []
        known.stamp = _stamp(st)
        later, count = _later_boards(_records(path, data))
        cut = data[-1:] not in (b"\n", b"\r", b"")
        said: list[Announcement] = []
        boards: dict[tuple, _Board] = {}
        for i, ((item, neighbours), key) in enumerate(_keyed(with_neighbours(
                _records(path, data)))):
            signature = _signature(item)
            old = known.boards.get(key) or self._adopt(path, key, signature)
            unfinished = getattr(item, "truncated", False) or (cut and i == count - 1)
            boards[key], out = self._board(item, neighbours, signature, old, key in later,
                                           st.st_mtime, unfinished)
            said += out
        del data
        for key, board in known.boards.items():  # left the file: kept a while, unsaid
            if key not in boards:
                self._orphan((path, key), board)
        known.boards = boards
        return said

    def forget(self, path: str) -> None:
        """``path`` vanished (a file, or a folder with the files under it): their boards
        are kept a while, in case they come back renamed."""
        below = path.rstrip(os.sep) + os.sep
        for name in [p for p in self.files if p == path or p.startswith(below)]:
            for key, board in self.files.pop(name).boards.items():
                self._orphan((name, key), board)

    def _board(self, item: BoardRecord | PlainGame, neighbours, signature: bytes,
               old: _Board | None, over: bool, mtime: float, unfinished: bool
               ) -> tuple[_Board, list[Announcement]]:
        if old is not None and old.signature == signature and old.over == over and (
                old.audit is not None or old.status != IRREGULAR):  # else back from orphans
            return old, []  # unchanged: a plain game is not even built into its record
        record = item.record() if isinstance(item, PlainGame) else item
        board = old or _Board(signature)
        board.signature, board.over = signature, over
        audit = self._audit(record, neighbours, board, over, mtime)
        now = self.clock()
        in_play = board.complete_since is None and not over  # a table that began its next
        # board has finished this one, whatever its record shows
        found = {_identity(f): f for f in _settled(audit.findings, unfinished, in_play)}
        said = [Announcement(now, WITHDRAWN, row) for k, row in board.announced.items()
                if k not in found]
        before = board.announced
        board.announced = {}
        for k, f in found.items():  # each kept in its words now
            board.announced[k] = row = finding_row(audit, f)
            if k not in before:
                said.append(Announcement(now, NEW, row))
                board.table = board.table or (audit.round_on and f.code.startswith("RV"))
            elif _transfer(row) != _transfer(before[k]):
                said.append(Announcement(now, CHANGED, row))
        board.status = board_status(str(row["code"]) for row in board.announced.values())
        board.audit = audit if board.status == IRREGULAR else None
        kinds = [a.kind for a in said]
        self.new += kinds.count(NEW)
        self.changed += kinds.count(CHANGED)
        self.withdrawn += kinds.count(WITHDRAWN)
        return board, said

    def _audit(self, record: BoardRecord, neighbours, board: _Board, over: bool,
               mtime: float) -> BoardAudit:
        """``record`` audited as found at the table while its round is on (or when a revoke of
        it was announced then), else as found after the round; ``round_on`` says which."""
        for _ in range(2):  # a second time when the record shows the round has ended
            round_on = not over and not (board.complete_since is not None and self.clock()
                                         - board.complete_since > self.round_seconds)
            discovered = TABLE if board.table or round_on else AFTER_ROUND
            audit = audit_board(record, replace(self.options, discovered=discovered), neighbours)
            done = (record.result_stated is not None or audit.replay.play_status == CLAIMED
                    or (audit.replay.play_status == COMPLETE and not _last_trick_open(record)))
            first = board.complete_since is None
            board.complete_since = (board.complete_since or min(mtime, self.clock())) \
                if done else None
            if not (done and first and discovered == TABLE and not board.table):
                break
        audit.round_on = round_on  # type: ignore[attr-defined]
        return audit

    def _orphan(self, where: tuple, board: _Board) -> None:
        board.audit = None  # audited again if it comes back
        self._orphans[where] = board
        while len(self._orphans) > ORPHANS:
            self._orphans.popitem(last=False)

    def _adopt(self, path: str, key: tuple, signature: bytes) -> _Board | None:
        """A board that left a file and is back: the same place in the same file (a save
        caught half done), else the same content anywhere (a file renamed or rotated)."""
        board = self._orphans.pop((path, key), None)
        if board is not None:
            return board
        for where, board in self._orphans.items():
            if board.signature == signature:
                return self._orphans.pop(where)
        return None


def _last_trick_open(record: BoardRecord) -> bool:
    """The last trick of the play still holds a ``-``: a program that saves the whole file on
    every card writes so the cards not yet played, so the board is still in play (a ``-`` the
    finished record keeps is judged once the Result is stated or the trick is filled)."""
    tricks = [p.trick for p in record.play if p.trick is not None]  # LIN's plays have none
    if not tricks:
        return False
    last = max(tricks)
    return any(p.card is None and p.trick == last for p in record.play)


def _stamp(st: os.stat_result) -> tuple[int, int, int]:
    return st.st_size, st.st_mtime_ns, st.st_ino


def _snapshot(path: str, limits: Limits) -> tuple[bytes, os.stat_result | None]:
    """The bytes of the regular file at ``path`` as they are now (up to the reader's own
    limit and a byte, so that the reader says PS008 beyond it), with its status; None for
    the status when it is no longer a regular file.  Opened without blocking: a FIFO put in
    its place between the ``stat`` and the ``open`` does not hold the watch."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError:
        return b"", None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            return b"", None
        with os.fdopen(os.dup(fd), "rb") as fh:
            return fh.read(limits.member_bytes + 1), st
    except OSError:
        return b"", st
    finally:
        os.close(fd)


def _records(path: str, data: bytes) -> Iterator[BoardRecord | PlainGame]:
    """The boards ``data`` (the file at ``path``) holds, as ``audit`` reads them; a file's
    own unreadable row (no deal) is no board.  The plainest PBN games come as their text
    (``PlainGame``), built into records only when they changed."""
    for r in read_stream(io.BytesIO(data), path, path, plain=True):
        if isinstance(r, PlainGame):
            yield r
            continue
        if isinstance(r, PlainLine):
            r = r.record()
        if not r.unreadable or r.hands is not None:
            yield r


def _settled(findings: list[Finding], unfinished: bool, in_play: bool) -> Iterator[Finding]:
    """What may be announced of a board now: on a board its file ends inside (the file
    ends in it without a line end, or within a tag or the play: PS004), only its established
    revokes; on a board still in play, no provisional code."""
    for f in findings:
        if in_play and f.code in PROVISIONAL:
            continue
        if unfinished and not (f.code.startswith("RV") and f.established):
            continue
        yield f


def _identity(f: Finding) -> tuple:
    """What makes a finding the same one after its board changed: a revoke is the same
    revoke whatever the ruling made of it (``RV001`` during the round, ``RV002`` after)."""
    if f.code.startswith("RV"):
        return ("RV", f.trick, f.seat, f.card)
    return (f.code, f.trick, f.seat, f.card, f.message)


def _transfer(row: dict[str, object]) -> tuple:
    """What a finding's ruling transfers: its code, Law and tricks transferred (64A1 gives
    its second trick, 64A2 its first, once the offending side wins a later trick)."""
    return row["code"], row["law"], row["transferred"]


def _key(r: BoardRecord, seen: dict[tuple, int]) -> tuple:
    """A board's identity in its file: board, room, Table and Round tags, occurrence
    (``seen``: how often each came before it)."""
    base = (r.board, r.room, r.tags.get("Table", ""), r.tags.get("Round", ""))
    seen[base] = seen.get(base, 0) + 1
    return base + (seen[base],)


def _keyed(items: Iterable[tuple[BoardRecord, object]]
           ) -> Iterator[tuple[tuple[BoardRecord, object], tuple]]:
    """Each (record, neighbours) with its board's identity (``_key``)."""
    seen: dict[tuple, int] = {}
    for item in items:
        yield item, _key(item[0], seen)


def _later_boards(records: Iterable[BoardRecord]) -> tuple[set[tuple], int]:
    """Keys of the boards after which the same table has begun another board, and how many
    boards there are (one pass, keeping keys only)."""
    seen: dict[tuple, int] = {}
    tables: dict[str, tuple] = {}
    over = set()
    count = 0
    for r in records:
        key = _key(r, seen)
        count += 1
        table = r.tags.get("Table") or r.room
        if table in tables:
            over.add(tables[table])
        tables[table] = key
    return over, count


_SKIP = {"source", "line", "game", "tags", "play", "diagnostics"}


def _signature(r: BoardRecord | PlainGame) -> bytes:
    """A digest of the record's content without where it sits in the file (line numbers,
    game index): 16 bytes kept per board followed, not the record.  A plain game's is of its
    text and its tags (``#`` resolved), which make its record."""
    if isinstance(r, PlainGame):
        return hashlib.blake2b(repr(("plain", tuple(sorted(r.tags.items())), r.text)).encode(
            "utf-8", "surrogatepass"), digest_size=16).digest()
    plain = tuple(getattr(r, f.name) for f in fields(r)
                  if f.name not in _SKIP and not f.name.endswith("_line"))
    whole = plain + (tuple(sorted(r.tags.items())),
                     tuple((p.seat, p.card, p.marks, p.trick) for p in r.play),
                     tuple((d.code, d.message) for d in r.diagnostics))
    return hashlib.blake2b(repr(whole).encode("utf-8", "surrogatepass"),
                           digest_size=16).digest()


# --- following the files ---------------------------------------------------------------------

def followed(path: str, named: dict[str, str], folders: dict[str, str]) -> str | None:
    """The name to read ``path`` (absolute, from an event) by: as a named file was given, or
    below a named folder when it is a hand record there (not hidden, not a temporary file);
    None when it is not followed."""
    if path in named:
        return named[path]
    name = os.path.basename(path)
    if name.startswith(".") or name.lower().endswith(TEMPORARY):
        return None
    for folder, given in folders.items():
        if path.startswith(folder.rstrip(os.sep) + os.sep):
            rest = os.path.relpath(path, folder)
            if any(part.startswith(".") for part in rest.split(os.sep)):
                return None
            shown = os.path.join(given, rest)
            if not os.path.isfile(path) or recognised(path, name):
                return shown
    return None


def follow(watch: Watch, paths: list[str], say: Callable[[Announcement], None],
           idle: float | None = None, poll: float | None = None,
           ready: Callable[[], None] | None = None,
           settled: Callable[[bool], None] | None = None) -> None:
    """Announce changes under ``paths`` (files or folders, read once by ``Watch.start``)
    through ``say`` (by ``Watch.tell``) until ``idle`` seconds pass without a change to a
    file followed (forever when None).  File events come from the system; ``poll`` seconds:
    poll instead (network filesystems, where events do not arrive).  A named folder is watched
    with all below it, a named file's folder alone.  A folder (or a named file's folder) that
    vanishes is watched again, and read whole, once it is back.  ``ready``: called once the
    events are watched and what changed before that has been read.  ``settled(said)``: called
    after each batch of events has been read (and each wait without one, at most a second
    apart), ``said`` whether it announced anything or a file followed changed."""
    try:
        import watchfiles
    except ImportError as exc:
        raise ImportError(MISSING) from exc
    named = {os.path.abspath(p): p for p in paths if not os.path.isdir(p)}
    folders = {os.path.abspath(p): p for p in paths if os.path.isdir(p)}
    wanted = sorted(set(folders) | {os.path.dirname(p) for p in named})
    timeout = 1000 if idle is None else max(20, int(min(idle, 1) * 1000))
    if poll is not None:  # the poller misses a file rewritten at the same size within its
        timeout = min(timeout, max(10, int(poll * 1000)))  # clock's tick: stat those known
    last, started = time.monotonic(), False
    while True:
        roots = _present(wanted)
        changes = _events(watchfiles, sorted(roots), bool(folders), timeout, poll)
        try:
            for again, batch in changes:
                shown = {followed(p, named, folders) for _change, p in batch} - {None}
                heard = bool(shown)
                if again:  # the events are watched now: read what changed while they were not
                    shown |= set(iter_sources(list(paths))) | set(watch.files)
                elif poll is not None:
                    shown |= set(watch.files)
                spoke = False
                for path in _in_order(shown):
                    spoke = watch.tell(watch.read(path), say) or spoke
                if settled is not None:
                    settled(spoke or heard)
                if not started:
                    started = True
                    if ready is not None:
                        ready()
                elif heard or spoke:
                    last = time.monotonic()
                elif idle is not None and time.monotonic() - last >= idle:
                    return
                if _present(wanted) != roots or any(p in roots for _change, p in batch):
                    break  # a folder vanished, is back, or was made anew: watched again
        finally:
            close = getattr(changes, "close", None)
            if close is not None:
                close()


def _events(watchfiles, roots: list[str], recursive: bool, timeout: int,
            poll: float | None) -> Iterator[tuple[bool, set]]:
    """(again, batch): batches of (change, path) under ``roots``, one at least every
    ``timeout`` ms (empty when nothing happened); ``again`` for the first, which comes once
    the roots are watched.  With no root to watch (every one has vanished), empty batches
    only, until the watch is made again."""
    if not roots:
        again = True
        while True:
            yield again, set()
            again = False
            time.sleep(timeout / 1000)
    again = True
    for batch in watchfiles.watch(
            *roots, watch_filter=None, debounce=100, step=20, rust_timeout=timeout,
            yield_on_timeout=True, force_polling=True if poll is not None else None,
            poll_delay_ms=int((poll or 0.3) * 1000), raise_interrupt=True,
            ignore_permission_denied=True, recursive=recursive):
        yield again, batch
        again = False


def _present(folders: list[str]) -> dict[str, int]:
    """Those of ``folders`` that are there, each with its inode (a folder deleted and made
    again is a new one: the system's watch of the old one ended with it)."""
    there = {}
    for folder in folders:
        try:
            st = os.stat(folder)
        except OSError:
            continue
        if stat.S_ISDIR(st.st_mode):
            there[folder] = st.st_ino
    return there


def _in_order(paths: Iterable[str]) -> list[str]:
    """The paths of a batch, those gone first: a file renamed is forgotten under its old
    name before it is read under its new one, so its boards are known again there, whatever
    the names' order."""
    return sorted(paths, key=lambda p: (os.path.lexists(p), p))


# --- what is said ----------------------------------------------------------------------------

def announcement_line(a: Announcement) -> str:
    """``21:04:07 path:line: board 2: RV001 [64A2] ...`` as the text report says the finding,
    after the time; a changed or withdrawn one says so first."""
    when = time.strftime("%H:%M:%S", time.localtime(a.time))
    kind = "" if a.kind == NEW else f"{a.kind}: "
    return f"{when} {kind}{text_line(a.finding)}"


def announcement_json(a: Announcement) -> str:
    """One JSON object: ``time`` (ISO 8601, local time with its offset), ``kind``, and the
    finding's fields (the columns of findings.csv)."""
    when = datetime.fromtimestamp(a.time).astimezone().isoformat(timespec="milliseconds")
    return json.dumps({"time": when, "kind": a.kind, **a.finding}, ensure_ascii=False)
