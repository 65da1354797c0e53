"""A large PBN or LIN file in parts, so that worker processes share it (``--jobs``).

A part is read on its own and gives exactly the records the whole file gives for its games:
the same game numbers and line numbers, the same deals of the boards around it (the replay
names a neighbouring board's deal as the repair of a record that carries it).  That holds
only where nothing carries from one game to the next, so a file is split only when, checked on
its bytes:

* its header (before the first game) holds only lines the reader reads without a diagnostic
  (``%`` directives such as a charset or ``%HRTitleDate``, which every part reads again);
* every block between blank lines after it is one game: it starts with a tag, holds one
  ``Deal`` and at most one ``Event`` and ``Board`` (two would be two games, PS120; counted
  wherever they stand, however they are spelled: ``[Event"x"]``, several tags on a line), and
  no game inherits (a value ``#`` or ``##...``, quoted or not) or takes the deal of the one
  before (PS106);
* there is no ``{`` comment (it may hold blank lines), no later ``%`` directive, no tag
  written ``[ Name``, no ``[`` left open at the end of its line (a tag may go on over the
  next lines, blank ones too), no control character (the reader deletes them: a line of
  them is a blank line) and no line the reader decodes by its cp1252 fallback (PS002 is said
  once per file) in the charset the header names, or UTF-8; no line the reader cuts
  (``lines.MAX_LINE``);
* it is plain text (no byte order mark, lines ending in ``\\n`` or ``\\r\\n``, no other CR)
  and below the size a file may expand to.

A LIN file is split only when every line is one whole board and nothing else, as the LIN reader
draws the boundaries between boards (``_LIN_SPLITS`` says exactly what that takes): pairs
``key|value|`` from the start of the line to its end, one ``md``, no vugraph header (``vg``,
``rs``, eight names in a ``pn``) and plain ASCII (a line that is not UTF-8 is reported once per
file).

Anything else is read whole, as one unit of work.  A part carries the games around it as
context (as many each side as the replay's neighbour window), read but not audited."""
from __future__ import annotations

import codecs
import io
import mmap
import operator
import os
import re
from bisect import bisect_right
from dataclasses import dataclass
from functools import lru_cache
from itertools import repeat
from types import SimpleNamespace
from typing import Iterator

from .. import speedups
from ..record import BoardRecord
from .lines import DELETED, MAX_LINE
from .lin import read_lin
from .pbn import read_pbn

_BLANK_RUN = re.compile(rb"\n(?:\r?\n)+")
_BLANK_RUN_LF = re.compile(rb"\n\n+")  # the same in a file without CR
_NEWLINE = re.compile(rb"\n")
# A LIN file that may be split: each line is one board the reader reads the same whether or not
# the line before it was read (formats/lin/board.py: md, qx and pn start a board, a pn only
# after a call, card or claim; a second md, a qx after a deal or a pn after a call starts
# another).  Checked whole by one regular expression (possessive quantifiers: nothing is kept
# for backtracking, so memory stays flat on any size): plain ASCII (tab, CR, printable); each
# line is pairs ``key|value|`` only, from its start to its end: first pn or qx (or the deal),
# then pairs before the deal (no md, mb, pc, mc; one qx at most), the one md, pairs after it
# (no md, pn, qx) among which a call, card or claim (mb, pc, mc), so that the next line's pn
# starts a new board.  No vugraph header (key ``vg`` or ``rs``) and no ``pn`` with names for
# both rooms (four commas).  Keys in any case, as the reader takes them (``MD`` is ``md``);
# ``pc``, most pairs of a line, is tried first.
_LIN_VALUE = rb"[\t\r\x20-\x7b\x7d\x7e]*+"  # any but "|" and newline
_LIN_NAMES = rb"[\t\r\x20-\x2b\x2d-\x7b\x7d\x7e]*+"  # nor ","


def _lin_pair(keys_not: bytes) -> bytes:
    """A pair whose key is none of ``keys_not``, as one group."""
    return rb"(?:(?!(?i:" + keys_not + rb")\|)[a-zA-Z]{2}\|" + _LIN_VALUE + rb"\|)"


_LIN_PN = rb"(?i:pn)\|" + _LIN_NAMES + rb"(?:," + _LIN_NAMES + rb"){0,3}\|"
_LIN_QX = rb"(?i:qx)\|" + _LIN_VALUE + rb"\|"
_LIN_MD = rb"(?i:md)\|" + _LIN_VALUE + rb"\|"
_LIN_ACTION = rb"(?i:mb|pc|mc)\|" + _LIN_VALUE + rb"\|"
_LIN_BEFORE = rb"(?:" + _LIN_PN + rb"|" + _lin_pair(rb"md|pn|qx|vg|rs|mb|pc|mc") + rb")"
_LIN_AFTER = rb"(?:pc\|" + _LIN_VALUE + rb"\||" + _lin_pair(rb"md|pn|qx|vg|rs") + rb")"
_LIN_AFTER_QUIET = _lin_pair(rb"md|pn|qx|vg|rs|mb|pc|mc")
_LIN_LINE = (rb"(?:" + _LIN_PN + _LIN_BEFORE + rb"*+(?:" + _LIN_QX + _LIN_BEFORE + rb"*+)?+"
             rb"|" + _LIN_QX + _LIN_BEFORE + rb"*+)?+"
             + _LIN_MD + _LIN_AFTER_QUIET + rb"*+" + _LIN_ACTION + _LIN_AFTER + rb"*+\r?")
_LIN_SPLITS = re.compile(rb"(?:" + _LIN_LINE + rb"\n)*+(?:" + _LIN_LINE + rb")?+")
# At every "[": first, one that keeps the file whole: a "[" not closed on its line (a tag may
# go on over the next lines, blank ones too), or ``[ Name`` (the lexer reads it, the names
# below would not); else an Event, Board or Deal tag as the PBN lexer reads it (anywhere on a
# line, several tags may share one, with or without a space before its value, quoted or not:
# the name not followed by a name character).  One pass over the file.
_TAG_SCAN = re.compile(rb"\[(?:[^\]\n]*+(?:\n|\Z)|\s|(Event|Board|Deal)(?!\w))")
_INHERITS = re.compile(rb'\[\s*[A-Za-z_]\w*\s*"?#')  # a value "#" or "##...", quoted or not
# a CR not ending a line: the line reader takes a line of nothing but CRs for a blank line,
# which ends a game, and the blank runs above do not (such files are read whole)
_LONE_CR = re.compile(rb"\r(?!\n)")
_CHUNK = 1 << 22
# a charset named in the header, as the PBN lexer finds it
_NAMED_CHARSET = re.compile(rb'(?i)charset\s*[=:]?\s*"?([A-Za-z0-9._:-]+)')


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
    not worth it: ``cut``, then ``splittable``."""
    parts = cut(path, games_per_part, max_bytes, context)
    return parts if parts is not None and splittable(path) else None


def cut(path: str, games_per_part: int, max_bytes: int, context: int) -> list[Part] | None:
    """The parts ``plan`` gives when the file turns out ``splittable``, found from its blank
    lines (PBN) or line ends (LIN) alone: a fifth of ``plan``'s time, so that the processes
    may start on the parts while ``splittable`` reads the whole file.  None when the file is
    too small or too large to split, or unreadable."""
    try:
        size = os.path.getsize(path)
        if size == 0 or size > max_bytes:
            return None
        kind, first, starts = _games_of(path)
        if len(starts) <= 2 * games_per_part:
            return None
        with _mapped(path) as data:
            return _parts(path, kind, data, first, starts, games_per_part, context)
    except (OSError, ValueError):
        return None


def splittable(path: str) -> bool:
    """Nothing carries from one game of the file to the next (the module says what that takes),
    so that its parts read alone give the records the whole file gives."""
    try:
        kind, first, starts = _games_of(path)
        with _mapped(path) as data:
            if _longest(starts, len(data)) > MAX_LINE:
                return False  # a line the reader cuts (PS005): what follows it may carry on
            if kind == "lin":
                return _scans.lin_splits(data)
            return (_plain_text(data, first) and _plain_header(path, data[:first])
                    and _scans.one_game_each(data, first, starts))
    except (OSError, ValueError):
        return False


def _lin_splits(data: mmap.mmap) -> bool:
    """Every line of a LIN file one whole board (``_LIN_SPLITS``).  The twin of
    ``_speedups.lin_splits``, used when that was not built."""
    return bool(_LIN_SPLITS.fullmatch(data))


def _plain_text(data: mmap.mmap, first: int) -> bool:
    """A PBN file's text after its header carries nothing from line to line or game to game:
    no byte order mark, ``{`` comment, ``%`` directive, inherited value, CR that ends no line,
    control character, or line the reader decodes by its fallback (the module's list)."""
    if data[:3] == b"\xef\xbb\xbf" or data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        return False
    if not _scans.plain_bytes(data, first):
        return False
    if data.find(b"#", first) >= 0 and _INHERITS.search(data, first):
        return False
    return _decodes_alike(data, first)


def _plain_bytes(data: mmap.mmap, first: int) -> bool:
    """No control character the line reader deletes (``_has_deleted``), and from ``first``
    on no ``{``, no ``%`` after a newline and no CR that ends no line.  The twin of
    ``_speedups.plain_bytes``, used when that was not built."""
    if data.find(b"{", first) >= 0 or data.find(b"\n%", first) >= 0:
        return False
    if data.find(b"\r", first) >= 0 and _LONE_CR.search(data, first):
        return False
    return not _has_deleted(data)


def _longest(starts: list[int], size: int) -> int:
    """The largest game (a LIN line, a PBN block), in bytes: no line of it is longer."""
    return max(max(map(operator.sub, starts[1:], starts), default=0), size - starts[-1])


def _has_deleted(data: mmap.mmap) -> bool:
    """Does the file hold a control character that the line reader deletes (so that a line
    of them reads as a blank line, which ends a game)?  Read in chunks: ``translate`` is four
    times faster than a regular expression's search."""
    for start in range(0, len(data), _CHUNK):
        chunk = data[start:start + _CHUNK]
        if len(chunk.translate(None, DELETED)) != len(chunk):
            return True
    return False


def _decodes_alike(data: mmap.mmap, first: int) -> bool:
    """Does every line after the header decode without the reader's cp1252 fallback?  Its
    PS002 is said once per file, so a part would say it again.  In the charset the header
    names (the reader's pattern), else UTF-8."""
    named = _NAMED_CHARSET.search(data[:first])
    if named is None and _scans.ascii_from(data, first):
        return True  # ASCII is UTF-8: nothing to decode
    try:
        decoder = codecs.getincrementaldecoder(named.group(1).decode() if named else "utf-8")()
    except LookupError:  # the header's PS122 keeps the file whole already
        return False
    try:
        for start in range(first, len(data), _CHUNK):
            decoder.decode(data[start:start + _CHUNK])
        decoder.decode(b"", final=True)
    except UnicodeDecodeError:
        return False
    return True


def _ascii_from(data: mmap.mmap, first: int) -> bool:
    """Every byte from ``first`` on below 0x80.  The twin of ``_speedups.ascii_from``, used
    when that was not built."""
    return data[first:].isascii()


def _mapped(path: str) -> mmap.mmap:
    """The file's bytes, mapped (not read: a large file costs no memory of its own)."""
    with open(path, "rb") as fh:
        return mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ)


def _games_of(path: str) -> tuple[str, int, list[int]]:
    """``_games`` of the file at ``path``; the last file's answer is kept while the file is
    unchanged (``cut`` and then ``splittable`` both need it)."""
    st = os.stat(path)
    return _games_cached(path, st.st_size, st.st_mtime_ns)


@lru_cache(maxsize=1)
def _games_cached(path: str, size: int, mtime_ns: int) -> tuple[str, int, list[int]]:
    with _mapped(path) as data:
        return _games(data)


def _games(data: mmap.mmap) -> tuple[str, int, list[int]]:
    """The file's kind, the end of its header and where each game starts: each line of a LIN
    file, each block after a run of blank lines of a PBN file."""
    if data[:3] in (b"pn|", b"qx|", b"md|"):
        starts = [0] + [m.end() for m in _NEWLINE.finditer(data)]
        if starts[-1] >= len(data):
            starts.pop()  # the file ends with a newline
        return "lin", 0, starts
    first = data.find(b"\n[") + 1 if not data[:1] == b"[" else 0
    starts = [first] + _scans.blank_runs(data, first)
    if starts[-1] >= len(data):
        starts.pop()  # the file ends with blank lines
    return "pbn", first, starts


def _blank_runs(data: mmap.mmap, first: int) -> list[int]:
    """The end of each run of blank lines from ``first`` on.  The twin of
    ``_speedups.blank_runs``, used when that was not built."""
    blank_run = _BLANK_RUN if data.find(b"\r") >= 0 else _BLANK_RUN_LF  # the latter: faster
    return [m.end() for m in blank_run.finditer(data, first)]


def _newlines(data: mmap.mmap, start: int, end: int) -> int:
    """The newlines in ``data[start:end]`` (positions from 0).  The twin of
    ``_speedups.newlines``, used when that was not built."""
    return data[start:end].count(b"\n")


def _one_game_each(data: mmap.mmap, first: int, starts: list[int]) -> bool:
    """Every block (from each of ``starts`` to the next) starts with a tag and holds one
    ``Deal`` tag and at most one ``Event`` and one ``Board``, and no ``[`` keeps the file whole
    (``_TAG_SCAN``); worked out from the tags' positions in the whole file (a block's index:
    ``bisect``), not block by block.  The twin of ``_speedups.one_game_each``, which ``splittable``
    uses when it was built (a tenth of the time: the check runs while the workers work, on the
    same cores)."""
    firsts = bytes(map(data.__getitem__, starts))  # each block's first byte
    if firsts.count(b"[") != len(firsts):
        return False
    tags = _tags(data, first)
    if tags is None:
        return False
    events, boards, deals = tags
    # one Deal per block: as many as blocks, the i-th inside the i-th block
    if len(deals) != len(starts) or not (all(map(operator.le, starts, deals))
                                         and all(map(operator.lt, deals, starts[1:]))):
        return False
    for found in (events, boards):
        blocks = list(map(bisect_right, repeat(starts), found))
        if not all(map(operator.lt, blocks, blocks[1:])):
            return False  # two in one block
    return True


def _tags(data: mmap.mmap, first: int) -> tuple[list[int], list[int], list[int]] | None:
    """Where the Event, Board and Deal tags are, from byte ``first`` on (``_TAG_SCAN``); None
    at a ``[`` that keeps the file whole."""
    found: dict[bytes, list[int]] = {b"Event": [], b"Board": [], b"Deal": []}
    for m in _TAG_SCAN.finditer(data, first):
        name = m.group(1)
        if name is None:
            return None
        found[name].append(m.start())
    return found[b"Event"], found[b"Board"], found[b"Deal"]


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
        line += _scans.newlines(data, counted, start)
        counted = start
        out.append(Part(path, kind, header, start, end, line, lo, first - lo, count))
    return out


def read_part(part: Part, plain: bool = False) -> Iterator[BoardRecord]:
    """The records of a part, context included, numbered as in the whole file: the header
    (PBN), a blank line standing for the lines skipped, then the part's bytes from line
    ``part.line`` on.  The header's lines are numbered to end just before that blank line, not
    from 1: they give no record or diagnostic (``splittable``), so their numbers are never
    seen, and the reader need not read millions of blank lines to reach a part at the end of
    a large file.  ``plain``: as for ``read_pbn`` and ``read_lin``."""
    with open(part.path, "rb") as fh:
        header = fh.read(part.header)
        fh.seek(part.start)
        body = fh.read(part.end - part.start)
    gap = part.line - 1 - header.count(b"\n")  # lines between the header and the part
    if gap > 0:
        header += b"\n"  # a run of blank lines reads as one
        gap -= 1
    stream = io.BytesIO(header + body)
    read = read_lin if part.kind == "lin" else read_pbn
    yield from read(stream, part.path, games_before=part.games_before, plain=plain,
                    first_line=1 + gap)


# The scans above, in C when built (``speedups``), else their Python twins.
_scans = speedups.wanted() or SimpleNamespace(
    blank_runs=_blank_runs, newlines=_newlines, plain_bytes=_plain_bytes, ascii_from=_ascii_from,
    one_game_each=_one_game_each, lin_splits=_lin_splits)
