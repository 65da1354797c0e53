"""Bounded line reading and text decoding shared by the readers.

Untrusted files may be one enormous line (binary garbage, a LIN file with no newline): lines are
read in chunks and cut at ``MAX_LINE`` bytes so memory stays bounded whatever the input.  Control
characters (NUL, escape, Ctrl-Z, ...) mean nothing in PBN or LIN and must not reach a report
cell, so they are deleted here, before any reader sees the text; a run of empty lines (a file of
nothing but newlines) is passed on as one empty line, so it costs no work per line."""
from __future__ import annotations

import re
from typing import BinaryIO, Iterator

MAX_LINE = 1 << 20  # 1 MiB; longer lines are cut (PS005)
_CHUNK = 1 << 16
# C0 controls but tab, newline and carriage return; and DEL.  None of them can be part of a
# UTF-8 or cp1252 multi-byte character, so deleting them from the bytes is safe.
DELETED = bytes([*range(0x09), 0x0B, 0x0C, *range(0x0E, 0x20), 0x7F])
# a line end, then blank lines ("\r" alone counts as blank: it is nothing to either reader)
_BLANK_RUN = re.compile(rb"\n([\r\n]*\n)")
_C1 = re.compile("[\x80-\x9f]")  # C1 controls, which only decoded text can hold


class LineReader:
    """The lines of a binary stream as ``(line number, line, was_cut)``; iterate once.

    Lines come without their ``\\n``/``\\r\\n``.  A line longer than ``max_line`` bytes is
    yielded once, cut to ``max_line``, with ``was_cut`` True; the rest of it is skipped.  Control
    characters are deleted.  Of a run of two or more blank lines (empty, or a lone ``\r``) only
    the first is yielded, empty (the next line keeps its true number); a run that spans two
    chunks may come as two.  After the iteration, ``unterminated`` says whether the
    last line had no newline (a file cut off, or written without a final newline).

    The stream is read ``chunk_size`` bytes at a time (default ``_CHUNK``); each chunk is split
    once, so the cost is linear, and at most ``max_line`` bytes of an unfinished line are held
    between chunks.  ``first_line``: the number of the stream's first line (a stream that is
    the rest of a file)."""

    def __init__(self, stream: BinaryIO, max_line: int = MAX_LINE,
                 chunk_size: int | None = None, first_line: int = 1) -> None:
        self.stream = stream
        self.first_line = first_line  # the number of the stream's first line
        self.max_line = max_line
        self.size = _CHUNK if chunk_size is None else chunk_size
        self.unterminated = False

    def __iter__(self) -> Iterator[tuple[int, bytes, bool]]:
        max_line, read, size = self.max_line, self.stream.read, self.size
        nxt = self.first_line  # the number of the next line to yield
        pieces: list[bytes] = []  # the unfinished line's bytes from earlier chunks
        held = 0  # their total length, never more than max_line
        skipping = False  # the current line was cut: drop the rest of it, up to its newline
        while True:
            raw = read(size)
            if not raw:
                break
            lines, gaps = _split(raw.translate(None, DELETED))
            last = lines.pop()  # the start of a line that ends in a later chunk (maybe b"")
            if lines:
                start = 0
                if skipping:  # the first line is the end of the cut one, already yielded
                    skipping, start = False, 1
                elif pieces:
                    pieces.append(lines[0])
                    lines[0] = b"".join(pieces)
                    pieces, held = [], 0
                for i in range(start, len(lines)):
                    line = lines[i]
                    if gaps:
                        nxt += gaps.get(i, 0)
                    if len(line) > max_line:
                        yield nxt, _cut(line, max_line), True
                    else:
                        yield nxt, _clean(line), False
                    nxt += 1
                if gaps:
                    nxt += gaps.get(len(lines), 0)  # empty lines dropped before ``last``
            if skipping or not last:
                continue
            pieces.append(last)
            held += len(last)
            if held > max_line:
                yield nxt, _cut(b"".join(pieces), max_line), True
                nxt += 1
                pieces, held, skipping = [], 0, True
        self.unterminated = bool(pieces) or skipping
        if pieces:
            yield nxt, _clean(b"".join(pieces)), False


def iter_lines(stream: BinaryIO, max_line: int = MAX_LINE, chunk_size: int | None = None,
               first_line: int = 1) -> Iterator[tuple[int, bytes, bool]]:
    """``(line number, line, was_cut)`` for each line of a binary stream (see ``LineReader``)."""
    return iter(LineReader(stream, max_line, chunk_size, first_line))


def _split(chunk: bytes) -> tuple[list[bytes], dict[int, int]]:
    """``chunk.split(b"\\n")``, but each run of two or more empty lines kept as one; ``gaps``
    maps the index of the line after a shortened run to the number of lines dropped."""
    if b"\n\n\n" not in chunk and b"\n\r\n\r\n" not in chunk:
        return chunk.split(b"\n"), {}
    parts = _BLANK_RUN.split(chunk)  # text, blank lines, text, blank lines, ..., text
    lines = parts[0].split(b"\n")
    gaps: dict[int, int] = {}
    for i in range(1, len(parts), 2):
        lines.append(b"")  # the first blank line of the run stands for all of them
        dropped = parts[i].count(b"\n") - 1
        if dropped:
            gaps[len(lines)] = dropped
        lines.extend(parts[i + 1].split(b"\n"))
    return lines, gaps


def _cut(line: bytes, max_line: int) -> bytes:
    """The first ``max_line`` bytes of an over-long line, less one trailing ``\\r``.  The line
    goes on, so it is not blank even when those bytes are all CRs."""
    line = line[:max_line]
    return line[:-1] if line.endswith(b"\r") else line


def _clean(line: bytes) -> bytes:
    """Drop one trailing ``\\r`` (CRLF files); a line of nothing but ``\\r`` is blank, and
    comes empty whatever chunk it was read in (a run of blank lines comes empty too)."""
    if not line.endswith(b"\r"):
        return line
    return b"" if line[:1] == b"\r" and not line.strip(b"\r") else line[:-1]


def decode(line: bytes, charset: str | None = None) -> tuple[str, bool]:
    """Decode one line: the declared charset, else UTF-8, else cp1252 (never fails).

    Returns the text (without C1 control characters) and whether a fallback was needed."""
    text, fell_back = _decode(line, charset)
    if not text.isascii():
        text = strip_c1(text)
    return text, fell_back


def _decode(line: bytes, charset: str | None) -> tuple[str, bool]:
    if charset:
        try:
            return line.decode(charset), False
        except (UnicodeDecodeError, LookupError):
            pass
    try:
        return line.decode("utf-8"), charset is not None
    except UnicodeDecodeError:
        return line.decode("cp1252", errors="replace"), True


def strip_c1(text: str) -> str:
    """``text`` without C1 control characters (U+0080..U+009F), which no record means."""
    return _C1.sub("", text)
