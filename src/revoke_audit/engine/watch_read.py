"""Reading a followed file's boards for the watch (``engine.watch``): its bytes as they are now,
its boards as ``audit`` reads them (the plainest PBN games as their text), each board's identity
in the file and a digest of its content, and which boards their table has left."""
from __future__ import annotations

import hashlib
import io
import os
import stat
from dataclasses import dataclass, field, fields
from typing import Iterable, Iterator

from ..core.record import BoardRecord
from ..formats import Limits, read_stream
from ..formats.lin.plain import PlainLine
from ..formats.pbn.plain import PlainGame


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
    return _kept(read_stream(io.BytesIO(data), path, path, plain=True))


def _kept(records: Iterable) -> Iterator[BoardRecord | PlainGame]:
    """The records the watch follows: a plain LIN line built into its record, a row with no
    deal (a file's own unreadable row) left out."""
    for r in records:
        if isinstance(r, PlainGame):
            yield r
            continue
        if isinstance(r, PlainLine):
            r = r.record()
        if not r.unreadable or r.hands is not None:
            yield r


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


# --- a file that only grew: read on from near its end ----------------------------------------

#: Boards read again before the last board of the previous read: the neighbours of a board
#: audited again are the 32 either side (``replay.coherence``), and a board whose table has
#: begun another board is audited again with its own.
BACK = 64


@dataclass
class Resume:
    """Where a followed file is read on from when it only grew: the file was read whole (or
    so) before and nothing carries from one of its games to the next (``formats.parts
    .splittable``), so its boards from board ``index`` on (``games_before`` games before it,
    starting at byte ``offset``, line ``line``), read after its ``header``, are the boards the
    whole file gives.  ``size`` bytes were read, of which ``digest`` is the digest: the bytes
    before are checked to be the same (hashed, not parsed) before anything is read on."""

    kind: str  # "pbn" or "lin"
    header: bytes
    index: int
    games_before: int
    offset: int
    line: int
    size: int
    digest: bytes
    seen: dict = field(default_factory=dict)  # of the boards before ``index``: as ``_key``'s
    tables: dict = field(default_factory=dict)  # each table's last board before ``index``


def advance(resume: Resume, keys: Iterable[tuple]) -> None:
    """``resume``'s state of the boards before it (copied) carried over the boards ``keys``,
    those from its old index to its new one."""
    resume.seen, resume.tables = dict(resume.seen), dict(resume.tables)
    for key in keys:
        resume.seen[key[:-1]] = key[-1]
        resume.tables[key[2] or key[1]] = key


def resume_at(kind: str, header: bytes, data: bytes, base: int, base_line: int,
              starts: list[int], games: list[int], size: int, hasher) -> Resume | None:
    """The ``Resume`` after a read that ended at byte ``size`` (``hasher``: the digest of every
    byte up to it), from the boards' first lines (``starts``) and game numbers: ``BACK``
    boards before the last one.  ``data``: the bytes read from byte ``base`` (line
    ``base_line``) on, in which that board must start; None when it does not."""
    if not starts:
        return None
    index = max(0, len(starts) - 1 - BACK)
    offset = line_offset(data, starts[index], base_line)
    if offset is None or starts[index] < base_line:
        return None
    return Resume(kind, header, index, games[index] - 1, base + offset, starts[index], size,
                  hasher.digest())


def line_offset(data: bytes, line: int, base_line: int = 1) -> int | None:
    """Where line ``line`` starts in ``data`` (whose first byte is on line ``base_line``),
    counting its newlines from whichever end is nearer; None when ``data`` has fewer."""
    n = line - base_line  # newlines to pass
    if n <= 0:
        return 0
    total = data.count(b"\n")
    if n > total:
        return None
    if n <= total // 2:
        pos = -1
        for _ in range(n):
            pos = data.find(b"\n", pos + 1)
        return pos + 1
    pos = len(data)
    for _ in range(total - n + 1):
        pos = data.rfind(b"\n", 0, pos)
    return pos + 1


def new_hasher():
    return hashlib.blake2b(digest_size=16)


def read_grown(path: str, resume: Resume, limit: int
               ) -> tuple[bytes, os.stat_result, "hashlib._Hash"] | None:
    """The bytes of ``path`` from ``resume``'s offset on (``window`` reads its boards), the
    file's status and the digest of all its bytes; None when the
    file is not the one read before with bytes added (its first ``resume.size`` bytes differ),
    is no longer a regular file, or is over ``limit``: then it is read whole.  The bytes before
    the offset are hashed a megabyte at a time, never held."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_size > limit:
            return None
        with os.fdopen(os.dup(fd), "rb") as fh:
            hasher, left = new_hasher(), resume.offset
            while left > 0:
                chunk = fh.read(min(left, 1 << 20))
                if not chunk:
                    return None
                hasher.update(chunk)
                left -= len(chunk)
            body = fh.read(limit + 1 - resume.offset)
    except OSError:
        return None
    finally:
        os.close(fd)
    old = hasher.copy()
    old.update(body[:resume.size - resume.offset])
    if resume.offset + len(body) <= resume.size or old.digest() != resume.digest:
        return None
    hasher.update(body)
    return body, st, hasher


def window(path: str, resume: Resume, body: bytes) -> Iterator[BoardRecord | PlainGame]:
    """The boards of ``body`` read after the file's header, numbered as in the whole file (as
    ``formats.parts.read_part`` reads a part of a file)."""
    from ..formats.lin import read_lin
    from ..formats.pbn import read_pbn

    header = resume.header
    gap = resume.line - 1 - header.count(b"\n")  # lines between the header and the body
    if gap > 0:
        header += b"\n"  # a run of blank lines reads as one
        gap -= 1
    read = read_lin if resume.kind == "lin" else read_pbn
    return _kept(read(io.BytesIO(header + body), path, games_before=resume.games_before,
                      plain=True, first_line=1 + gap))
