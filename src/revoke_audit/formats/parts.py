"""A large PBN or LIN file in parts, so that worker processes share it (``--jobs``).

A part is read on its own and gives exactly the records the whole file gives for its games:
the same game numbers and line numbers, the same deals of the boards around it (the replay
names a neighbouring board's deal as the repair of a record that carries it).  That holds
only where nothing carries from one game to the next, so a file is split only when, checked on
its bytes:

* its header (before the first game) holds only lines the reader reads without a diagnostic
  (``%`` directives such as a charset or ``%HRTitleDate``, which every part reads again);
* every block between blank lines after it is one game: it starts with a tag, holds one
  ``Deal`` and at most one ``Event`` and ``Board`` (two would be two games, PS120), and no game
  inherits (``#``) or takes the deal of the one before (PS106);
* there is no ``{`` comment (it may hold blank lines) and no later ``%`` directive;
* it is plain text (no byte order mark, lines ending in ``\\n``) and below the size a file may
  expand to.

A LIN file is split only when every line is one whole board and nothing else: pairs
``key|value|`` from the start of the line to its end, the first a ``pn``, ``qx`` or ``md``, one
``md`` per line, no vugraph header (``vg``, ``rs``, eight names in a ``pn``) and plain ASCII (a
line that is not UTF-8 is reported once per file).

Anything else is read whole, as one unit of work.  A part carries the games around it as
context (as many each side as the replay's neighbour window), read but not audited."""
from __future__ import annotations

import io
import mmap
import os
import re
from dataclasses import dataclass
from typing import Iterator

from ..record import BoardRecord
from .lin import read_lin
from .pbn import read_pbn

_BLANK_RUN = re.compile(rb"\n(?:\r?\n)+")
_NEWLINE = re.compile(rb"\n")
# a LIN line that is one board: pairs only, from a board-starting key, ending the line
_LIN_BOARD = re.compile(rb"(?:pn|qx|md)\|[^|\n]*\|(?:[a-zA-Z]{2}\|[^|\n]*\|)*\r?\n?")
_NOT_PLAIN_LIN = re.compile(rb"[^\x09\x0a\x0d\x20-\x7e]|(?:^|\|)(?:vg|rs)\|", re.M)
_WIDE_PN = re.compile(rb"(?:^|\|)pn\|(?:[^|,\n]*,){4}", re.M)
_PAIR_KEY = re.compile(rb"([a-zA-Z]{2})\|[^|\n]*\|")
_TAG_LINE = re.compile(rb"(?m)^\[(Event|Board|Deal) ")


@dataclass(frozen=True)
class Part:
    """Games ``first`` to ``first + count - 1`` (0-based) of a PBN file, read from bytes
    ``start`` to ``end`` (the games before and after as context) after the file's header."""

    path: str
    kind: str  # "pbn" or "lin"
    header: int  # bytes of the header, read by every part (PBN)
    start: int  # where the read begins: the first context game before ``first``
    end: int
    line: int  # the line number of byte ``start``
    games_before: int  # games of the file before byte ``start``
    skip: int  # context games read before the first one to audit
    count: int  # games to audit


def plan(path: str, games_per_part: int, max_bytes: int, context: int) -> list[Part] | None:
    """The parts of a PBN or LIN file of more than two parts' worth of games, each with up to
    ``context`` games either side, or None when it is not safe to split (see the module) or
    not worth it."""
    try:
        size = os.path.getsize(path)
        if size == 0 or size > max_bytes:
            return None
        with open(path, "rb") as fh, mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ) as data:
            if data[:3] == b"pn|" or data[:3] == b"qx|" or data[:3] == b"md|":
                return _plan_lin(path, data, games_per_part, context)
            return _plan(path, data, games_per_part, context)
    except (OSError, ValueError):
        return None


def _plan(path: str, data: mmap.mmap, games_per_part: int, context: int) -> list[Part] | None:
    if data[:3] == b"\xef\xbb\xbf" or data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        return None
    first = data.find(b"\n[") + 1 if not data[:1] == b"[" else 0
    if first < 0 or data.find(b"{", first) >= 0 or data.find(b'"#', first) >= 0 \
            or data.find(b"\n%", first) >= 0:
        return None
    starts = [first] + [m.end() for m in _BLANK_RUN.finditer(data, first)]
    if starts[-1] >= len(data):
        starts.pop()  # the file ends with blank lines
    if len(starts) <= 2 * games_per_part or not _plain_header(path, data[:first]):
        return None
    ends = starts[1:] + [len(data)]
    for a, b in zip(starts, ends):
        if data[a:a + 1] != b"[" or not _one_game(data[a:b]):
            return None
    return _parts(path, "pbn", data, first, starts, games_per_part, context)


def _plan_lin(path: str, data: mmap.mmap, games_per_part: int, context: int
              ) -> list[Part] | None:
    if _NOT_PLAIN_LIN.search(data) or _WIDE_PN.search(data):
        return None
    starts = [0] + [m.end() for m in _NEWLINE.finditer(data)]
    if starts[-1] >= len(data):
        starts.pop()  # the file ends with a newline
    if len(starts) <= 2 * games_per_part:
        return None
    ends = starts[1:] + [len(data)]
    for a, b in zip(starts, ends):
        line = data[a:b]
        if not _LIN_BOARD.fullmatch(line) or _PAIR_KEY.findall(line).count(b"md") != 1:
            return None
    return _parts(path, "lin", data, 0, starts, games_per_part, context)


def _one_game(block: bytes) -> bool:
    names = [m.group(1) for m in _TAG_LINE.finditer(block)]
    return names.count(b"Deal") == 1 and names.count(b"Event") <= 1 and names.count(b"Board") <= 1


def _plain_header(path: str, header: bytes) -> bool:
    """The header gives no record and no diagnostic: each part may read it again."""
    diagnostics: list = []
    records = list(read_pbn(io.BytesIO(header), path, diagnostics=diagnostics))
    return not records and not diagnostics and b"\r" not in header


def _parts(path: str, kind: str, data: mmap.mmap, header: int, starts: list[int],
           games_per_part: int, context: int) -> list[Part]:
    n = len(starts)
    out = []
    line, counted = 1, 0  # the line number at byte ``counted``
    for first in range(0, n, games_per_part):
        count = min(games_per_part, n - first)
        lo, hi = max(0, first - context), min(n, first + count + context)
        start = starts[lo]
        end = starts[hi] if hi < n else len(data)
        line += data[counted:start].count(b"\n")
        counted = start
        out.append(Part(path, kind, header, start, end, line, lo, first - lo, count))
    return out


def read_part(part: Part) -> Iterator[BoardRecord]:
    """The records of a part, context included, numbered as in the whole file: the header,
    blank lines standing for the lines skipped, then the part's bytes."""
    with open(part.path, "rb") as fh:
        header = fh.read(part.header)
        fh.seek(part.start)
        body = fh.read(part.end - part.start)
    gap = part.line - 1 - header.count(b"\n")
    stream = io.BytesIO(header + b"\n" * gap + body)
    if part.kind == "lin":
        yield from read_lin(stream, part.path, games_before=part.games_before)
    else:
        yield from read_pbn(stream, part.path, games_before=part.games_before)
