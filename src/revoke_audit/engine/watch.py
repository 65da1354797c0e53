"""Hand records followed as they are written (``revoke-audit watch``): each board audited again
when its record changes, each finding announced once when it first appears and withdrawn when a
corrected record no longer has it.

- **What is read again**: only the file that changed, and of its boards only those whose record
  content changed (a board is known by its identity in the file: board, room, Table and Round
  tags, and which occurrence of them it is; its content is the record without line numbers).
  A file that only grew is read on from ``watch_read.BACK`` boards before its last one
  (``watch_read.Resume``: its bytes before checked by a digest, not read as boards).
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

import json
import os
import stat
import time
from array import array
from collections import OrderedDict
from itertools import islice
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Callable, Iterable, Iterator

from ..ruling.audit import BoardAudit, audit_board
from ..core.codes import board_status
from ..core.findings import Finding
from ..formats import Limits, iter_sources
from ..formats.parts import splittable
from ..formats.pbn.plain import PlainGame
from ..laws import AFTER_ROUND, TABLE
from ..ruling.options import AuditOptions
from ..core.record import BoardRecord
from ..replay.coherence import with_neighbours
from ..replay.model import CLAIMED, COMPLETE
from ..reports.report import text_line
from ..reports.rows import LeanRow, Rendered, board_row, finding_row
from .watch_follow import MISSING, TEMPORARY, follow, followed  # noqa: F401 (the watch's names)
from .watch_read import (Resume, _key, _keyed, _last_trick_open, _later_boards, _records,
                         _signature, _snapshot, _stamp, advance, line_offset, new_hasher,
                         read_grown, resume_at, window)

NEW, CHANGED, WITHDRAWN = "new", "changed", "withdrawn"
ROUND_MINUTES = 15.0
#: Codes a board still being played does not announce yet: the next cards settle them (a revoke
#: not yet established; a card missing mid-play, which turns out a defective trick or not).
PROVISIONAL = ("RV004", "RC013")
ORPHANS = 10_000  # boards kept after they left their file, to know them when they come back
CLEAN, IRREGULAR = "clean", "irregular"


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
    boards: dict[tuple, _Board] = field(default_factory=dict)  # in file order
    starts: array = field(default_factory=lambda: array("q"))  # each board's first line
    games: array = field(default_factory=lambda: array("q"))  # each board's game number
    resume: Resume | None = None  # where to read on from when the file only grew


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
        if known.resume is not None and known.stamp is not None \
                and st.st_ino == known.stamp[2] and st.st_size > known.resume.size:
            said = self._read_on(path, known)
            if said is not None:
                return said
        return self._read_whole(path, known)

    def _read_whole(self, path: str, known: _File) -> list[Announcement]:
        """Every board of ``path`` read, those whose record changed audited again."""
        data, st = _snapshot(path, self.limits)
        if st is None:  # replaced by something else than a file since: gone
            self.forget(path)
            return []
        known.stamp = _stamp(st)
        later, count = _later_boards(_records(path, data))
        cut = data[-1:] not in (b"\n", b"\r", b"")
        items = (((item, neighbours), key, _signature(item)) for (item, neighbours), key
                 in _keyed(with_neighbours(_records(path, data))))
        previous = known.boards
        said, boards, starts, games, kind = self._boards(path, previous, {}, items, later,
                                                         count, cut, st.st_mtime)
        known.starts, known.games = array("q", starts), array("q", games)
        known.resume = None
        if kind is not None and len(data) <= self.limits.member_bytes and splittable(path):
            hasher = new_hasher()
            hasher.update(data)
            known.resume = resume_at(kind, data[:line_offset(data, starts[0]) or 0], data, 0, 1,
                                     starts, games, len(data), hasher)
            if known.resume is not None:
                advance(known.resume, list(islice(boards, known.resume.index)))
        self._settle(path, known, previous, boards)
        return said

    def _read_on(self, path: str, known: _File) -> list[Announcement] | None:
        """A file that only grew (the same file, its bytes read before unchanged: ``Resume``)
        read on from ``watch_read.BACK`` boards before its last board: the boards before keep
        what is known of them.  None when that cannot be done exactly (a board before the
        last one reads differently there, or a board before the window is now over): then
        the file is read whole."""
        resume = known.resume
        got = read_grown(path, resume, self.limits.member_bytes)
        if got is None or resume.index > len(known.boards):
            return None
        body, st, hasher = got
        again = list(islice(known.boards, resume.index, None))  # the boards read again
        seen, tables = dict(resume.seen), dict(resume.tables)
        keys, signatures = [], []
        for j, item in enumerate(window(path, resume, body)):
            keys.append(_key(item, seen))
            signatures.append(_signature(item))
            if j < len(again) - 1 and (again[j] != keys[-1] or
                                       known.boards[again[j]].signature != signatures[-1]):
                return None
        later = set()
        for key in keys:
            later.add(tables.get(key[2] or key[1]))
            tables[key[2] or key[1]] = key
        fresh = set(keys)
        if any(k is not None and k not in fresh and not known.boards[k].over for k in later):
            return None  # a board before the window that its table has left: read whole
        cut = body[-1:] not in (b"\n", b"\r", b"")
        items = ((pair, keys[j], signatures[j]) for j, pair
                 in enumerate(with_neighbours(window(path, resume, body))))
        previous = {k: known.boards.pop(k) for k in again}
        said, boards, starts, games, _ = self._boards(path, previous, known.boards, items,
                                                      later, len(keys), cut, st.st_mtime)
        known.stamp = _stamp(st)
        del known.starts[resume.index:], known.games[resume.index:]
        known.starts.extend(starts)
        known.games.extend(games)
        known.resume = resume_at(resume.kind, resume.header, body, resume.offset, resume.line,
                                 known.starts, known.games, resume.offset + len(body), hasher)
        if known.resume is not None:
            known.resume.seen, known.resume.tables = resume.seen, resume.tables
            advance(known.resume, keys[:known.resume.index - resume.index])
        self._settle(path, known, previous, boards)
        return said

    def _boards(self, path: str, previous: dict[tuple, _Board], boards: dict[tuple, _Board],
                items, later, count: int, cut: bool, mtime: float):
        """Each ((record, neighbours), key, signature) of ``items`` ruled into ``boards``
        (``count`` of them, the last unfinished when ``cut``; ``previous``: what was known of
        them): what to announce, the boards, their first lines and game numbers, and the
        file's kind (``pbn``, ``lin``)."""
        said: list[Announcement] = []
        starts, games, kind = [], [], None
        for i, ((item, neighbours), key, signature) in enumerate(items):
            old = previous.get(key) or self._adopt(path, key, signature)
            unfinished = getattr(item, "truncated", False) or (cut and i == count - 1)
            boards[key], out = self._board(item, neighbours, signature, old, key in later,
                                           mtime, unfinished)
            said += out
            starts.append(item.line)
            games.append(item.game)
            kind = kind or item.format
        return said, boards, starts, games, kind

    def _settle(self, path: str, known: _File, previous: dict[tuple, _Board],
                boards: dict[tuple, _Board]) -> None:
        """``boards`` are the file's now: those of ``previous`` that left it are kept a
        while, unsaid."""
        for key, board in previous.items():
            if key not in boards:
                self._orphan((path, key), board)
        known.boards = boards

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
