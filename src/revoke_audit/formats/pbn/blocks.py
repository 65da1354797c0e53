"""A PBN stream as blank-line blocks, a megabyte at a time, for the reader's fast path.

``Pieces`` gives what ``lines.LineReader`` would give - ``(line number, line, was_cut)`` -
except that a block of lines between blank lines which the line reader would pass on unchanged
but for the CR that ends a line in a CRLF file (no other carriage return, no control character
but tab, no more lines or bytes than a game may have) comes whole, as one ``Block``: its bytes, its first line's number and the number of
the blank line after it.  The reader then reads a plain game from the bytes without a Python
step per line.  Everything else - text around a carriage return or a control character, the
file's start when it opens with blank lines, its last block, a block longer than ``_HOLD`` -
goes through a ``LineReader`` over exactly those bytes, numbered on from where they start, so
each of its lines comes as the line reader alone would give it.

Why that is the same: a block is split off only at a run of blank lines (empty, or a lone CR)
that is followed by another line, so every stretch handed to a line reader starts at the start of a
line and ends with a whole run of blank lines; the line reader gives a run of blank lines as one
blank line (or, by where its chunks fall, two: the PBN reader reads both the same), and gives
the same lines whatever its chunks (``tests/test_lines.py``).  ``tests/test_pbn_blocks.py``
checks the reader both ways on generated and corpus files."""
from __future__ import annotations

import io
import re
from typing import BinaryIO, Iterator

from ..lines import LineReader
from .game import MAX_GAME_BYTES, MAX_GAME_LINES

_CHUNK = 1 << 20
_HOLD = 4 << 20  # bytes held without a blank line before the rest is read line by line
# a run of blank lines: empty, or a lone CR (the line reader's blank lines)
_SEPARATOR = re.compile(rb"\n(?:\r?\n)++")  # possessive: no backtracking stack over a long run
# what the line reader changes: a CR, the control characters it deletes
_CHANGED = re.compile(rb"[\x00-\x08\x0b-\x1f\x7f]")
_DELETED = re.compile(rb"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_CHANGED_BYTES = bytes([*range(0x00, 0x09), *range(0x0b, 0x20), 0x7f])  # ``_CHANGED``'s


class Block:
    """Lines ``first`` .. between blank lines, as bytes without the final newline; ``blank``
    is the number of the blank line after them."""

    __slots__ = ("data", "first", "nlines", "blank")

    def __init__(self, data: bytes, first: int, nlines: int, blank: int) -> None:
        self.data = data
        self.first = first
        self.nlines = nlines
        self.blank = blank

    def lines(self) -> list[bytes]:
        return self.data.split(b"\n")


class Pieces:
    """Blocks and lines of a binary stream (see the module docstring); iterate once.  After
    the iteration ``unterminated`` says whether the last line had no newline."""

    def __init__(self, stream: BinaryIO, chunk_size: int | None = None,
                 hold: int | None = None, first_line: int = 1) -> None:
        self.stream = stream
        self.first_line = first_line  # the number of the stream's first line
        self.size = _CHUNK if chunk_size is None else chunk_size
        self.hold = _HOLD if hold is None else hold
        self.unterminated = False

    def __iter__(self) -> Iterator[Block | tuple[int, bytes, bool]]:
        read = self.stream.read
        line, held = self.first_line, b""
        while True:
            data = read(self.size)
            if not data:
                break
            held += data
            end = _end_of_last_run(held)
            if end < 0:
                if len(held) > self.hold:
                    break  # no blank line for megabytes: the rest line by line
                continue
            line = yield from _stretch(held[:end], line)
            held = held[end:]
        rest = LineReader(_Chain(held, read), first_line=line)
        yield from rest
        self.unterminated = rest.unterminated


def _end_of_last_run(data: bytes) -> int:
    """The end of the last run of blank lines that has a line after it; -1 if none."""
    body = len(data.rstrip(b"\r\n"))
    start = max(data.rfind(b"\n\n", 0, body), data.rfind(b"\n\r\n", 0, body))
    if start < 0:
        return -1
    return _SEPARATOR.match(data, start).end()


def _stretch(data: bytes, line: int) -> Iterator[Block | tuple[int, bytes, bool]]:
    """``data``, which ends with a run of blank lines, as blocks and lines numbered from
    ``line``; returns the number of the line after it."""
    plain = len(data.translate(None, _CHANGED_BYTES)) == len(data)  # no _CHANGED byte
    pos, odd = 0, -1  # odd: where the bytes start that a line reader must read, if any
    for start, end in _separators(data, plain):
        block = data[pos:start] if plain else _unchanged(data[pos:start])
        nlines = block.count(b"\n") + 1 if block else 0
        # a block: not empty, not opening with a blank line (the file's start), within a
        # game's limits, and with nothing the line reader would change
        if (block and block[0] != 10 and nlines <= MAX_GAME_LINES
                and len(block) <= MAX_GAME_BYTES):
            if odd >= 0:
                line = yield from _by_line(data[odd:pos], line)
                odd = -1
            yield Block(block, line, nlines, line + nlines)
            line += nlines + data.count(b"\n", start, end) - 1
        elif odd < 0:
            odd = pos
        pos = end
    if odd >= 0:
        line = yield from _by_line(data[odd:pos], line)
    return line


def _separators(data: bytes, plain: bool) -> Iterator[tuple[int, int]]:
    """The spans of ``_SEPARATOR``'s matches in ``data``, in order.  ``plain``: no carriage
    return in ``data``, so a run of blank lines is two newlines or more, found by ``find``
    (the regex tries a match at every newline)."""
    if not plain:
        for m in _SEPARATOR.finditer(data):
            yield m.span()
        return
    find = data.find
    start = find(b"\n\n")
    while start >= 0:
        end = start + 2
        while data[end:end + 1] == b"\n":
            end += 1
        yield start, end
        start = find(b"\n\n", end)


def _unchanged(block: bytes) -> bytes:
    """The block's lines as the line reader gives them, joined by newlines, when all it would
    change is the CR that ends a line (CRLF files); else empty."""
    if _DELETED.search(block) is not None:
        return b""
    block = block.replace(b"\r\n", b"\n")
    if block.endswith(b"\r"):
        block = block[:-1]  # the last line's, before the blank line
    return b"" if b"\r" in block else block


def _by_line(data: bytes, line: int) -> Iterator[tuple[int, bytes, bool]]:
    """The lines of ``data`` (whole lines) as the line reader gives them, numbered from
    ``line``; returns the number of the line after them."""
    yield from LineReader(io.BytesIO(data), first_line=line)
    return line + data.count(b"\n")


class _Chain(io.RawIOBase):
    """``head``, then what ``read`` gives: the rest of a stream after bytes already read."""

    def __init__(self, head: bytes, read) -> None:
        self.head = head
        self.more = read

    def read(self, size: int = -1) -> bytes:
        if self.head:
            out, self.head = self.head, b""
            return out
        return self.more(size)
