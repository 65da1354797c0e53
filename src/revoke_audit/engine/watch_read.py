"""Reading a followed file's boards for the watch (``engine.watch``): its bytes as they are now,
its boards as ``audit`` reads them (the plainest PBN games as their text), each board's identity
in the file and a digest of its content, and which boards their table has left."""
from __future__ import annotations

import hashlib
import io
import os
import stat
from dataclasses import fields
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
    for r in read_stream(io.BytesIO(data), path, path, plain=True):
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
