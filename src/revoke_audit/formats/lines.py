"""Bounded line reading and text decoding shared by the readers.

Untrusted files may be one enormous line (binary garbage, a LIN file with no newline): lines are
read in chunks and cut at ``MAX_LINE`` bytes so memory stays bounded whatever the input."""
from __future__ import annotations

from typing import BinaryIO, Iterator

MAX_LINE = 1 << 20  # 1 MiB; longer lines are cut (PS005)
_CHUNK = 1 << 16


def iter_lines(stream: BinaryIO, max_line: int = MAX_LINE,
               chunk_size: int | None = None) -> Iterator[tuple[bytes, bool]]:
    """Yield ``(line, was_cut)`` for each line of a binary stream, without its ``\\n``/``\\r\\n``.

    A line longer than ``max_line`` bytes is yielded once, cut to ``max_line``, with ``was_cut``
    True; the rest of it is skipped.  Trailing Ctrl-Z (DOS end of file) is dropped.  The stream
    is read ``chunk_size`` bytes at a time (default ``_CHUNK``); each chunk is split once, so the
    cost is linear, and at most ``max_line`` bytes of an unfinished line are held between chunks."""
    size = _CHUNK if chunk_size is None else chunk_size
    pieces: list[bytes] = []  # the unfinished line's bytes from earlier chunks
    held = 0  # their total length, never more than max_line
    skipping = False  # the current line was cut: drop the rest of it, up to its newline
    while True:
        chunk = stream.read(size)
        if not chunk:
            break
        lines = chunk.split(b"\n")
        last = lines.pop()  # the start of a line that ends in a later chunk (maybe b"")
        if lines:
            start = 0
            if skipping:  # the first line is the end of the cut one
                skipping, start = False, 1
            elif pieces:
                pieces.append(lines[0])
                lines[0] = b"".join(pieces)
                pieces, held = [], 0
            for i in range(start, len(lines)):
                line = lines[i]
                if len(line) > max_line:
                    yield _clean(line[:max_line]), True
                else:
                    yield _clean(line), False
        if skipping or not last:
            continue
        pieces.append(last)
        held += len(last)
        if held > max_line:
            yield _clean(b"".join(pieces)[:max_line]), True
            pieces, held, skipping = [], 0, True
    if pieces:
        yield _clean(b"".join(pieces)), False


def _clean(line: bytes) -> bytes:
    """Drop one trailing ``\\r`` (CRLF files), then any trailing Ctrl-Z."""
    if line.endswith(b"\r"):
        line = line[:-1]
    return line.rstrip(b"\x1a")


def decode(line: bytes, charset: str | None = None) -> tuple[str, bool]:
    """Decode one line: the declared charset, else UTF-8, else cp1252 (never fails).

    Returns the text and whether a fallback was needed."""
    if charset:
        try:
            return line.decode(charset), False
        except (UnicodeDecodeError, LookupError):
            pass
    try:
        return line.decode("utf-8"), charset is not None
    except UnicodeDecodeError:
        return line.decode("cp1252", errors="replace"), True
