"""Bounded line reading and text decoding shared by the readers.

Untrusted files may be one enormous line (binary garbage, a LIN file with no newline): lines are
read in chunks and cut at ``MAX_LINE`` bytes so memory stays bounded whatever the input."""
from __future__ import annotations

from typing import BinaryIO, Iterator

MAX_LINE = 1 << 20  # 1 MiB; longer lines are cut (PS005)
_CHUNK = 1 << 16


def iter_lines(stream: BinaryIO, max_line: int = MAX_LINE) -> Iterator[tuple[bytes, bool]]:
    """Yield ``(line, was_cut)`` for each line of a binary stream, without its ``\\n``/``\\r\\n``.

    A line longer than ``max_line`` is yielded once, cut, with ``was_cut`` True; the rest of it is
    skipped.  A trailing Ctrl-Z (DOS end of file) is dropped."""
    buf = b""
    cut = False
    while True:
        chunk = stream.read(_CHUNK)
        if not chunk:
            break
        buf += chunk
        while True:
            nl = buf.find(b"\n")
            if nl < 0:
                break
            line, buf = buf[:nl], buf[nl + 1:]
            if cut:
                cut = False
                continue
            yield _clean(line), False
        if len(buf) > max_line and not cut:
            yield _clean(buf[:max_line]), True
            buf, cut = b"", True
        elif cut:
            buf = b""
    if buf and not cut:
        yield _clean(buf), False


def _clean(line: bytes) -> bytes:
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
