"""The byte scans that decide whether a large file may be split (``parts``), in Python: the
twins of the C kernel's (``core.speedups``), used when that was not built and held equal to it
by the tests.  Each works on bytes in memory from a position on, and none reads a file.

Its layer: formats; it may import core."""
from __future__ import annotations

import operator
import re
from bisect import bisect_right
from itertools import repeat

from .lines import DELETED

_BLANK_RUN = re.compile(rb"\n(?:\r?\n)+")
_BLANK_RUN_LF = re.compile(rb"\n\n+")  # the same in a file without CR
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
# a CR not ending a line: the line reader takes a line of nothing but CRs for a blank line,
# which ends a game, and the blank runs above do not (such files are read whole)
_LONE_CR = re.compile(rb"\r(?!\n)")
_PIECE = 1 << 22  # bytes searched at a time by ``has_deleted``


def lin_splits(data: bytes) -> bool:
    """Every line of a LIN file one whole board (``_LIN_SPLITS``).  The twin of
    ``_speedups.lin_splits``, used when that was not built."""
    return bool(_LIN_SPLITS.fullmatch(data))


def plain_bytes(data: bytes, first: int) -> bool:
    """No control character the line reader deletes (``has_deleted``), and from ``first``
    on no ``{``, no ``%`` after a newline and no CR that ends no line.  The twin of
    ``_speedups.plain_bytes``, used when that was not built."""
    if data.find(b"{", first) >= 0 or data.find(b"\n%", first) >= 0:
        return False
    if data.find(b"\r", first) >= 0 and _LONE_CR.search(data, first):
        return False
    return not has_deleted(data)


def has_deleted(data: bytes) -> bool:
    """Does the file hold a control character that the line reader deletes (so that a line
    of them reads as a blank line, which ends a game)?  Read in chunks: ``translate`` is four
    times faster than a regular expression's search."""
    for start in range(0, len(data), _PIECE):
        chunk = data[start:start + _PIECE]
        if len(chunk.translate(None, DELETED)) != len(chunk):
            return True
    return False


def ascii_from(data: bytes, first: int) -> bool:
    """Every byte from ``first`` on below 0x80.  The twin of ``_speedups.ascii_from``, used
    when that was not built."""
    return data[first:].isascii()


def blank_runs(data: bytes, first: int) -> list[int]:
    """The end of each run of blank lines from ``first`` on.  The twin of
    ``_speedups.blank_runs``, used when that was not built."""
    blank_run = _BLANK_RUN if data.find(b"\r") >= 0 else _BLANK_RUN_LF  # the latter: faster
    return [m.end() for m in blank_run.finditer(data, first)]


def newlines(data: bytes, start: int, end: int) -> int:
    """The newlines in ``data[start:end]`` (positions from 0).  The twin of
    ``_speedups.newlines``, used when that was not built."""
    return data[start:end].count(b"\n")


def one_game_each(data: bytes, first: int, starts: list[int]) -> bool:
    """Every block (from each of ``starts`` to the next) starts with a tag and holds one
    ``Deal`` tag and at most one ``Event`` and one ``Board``, and no ``[`` keeps the file whole
    (``_TAG_SCAN``); worked out from the tags' positions in the whole file (a block's index:
    ``bisect``), not block by block.  The twin of ``_speedups.one_game_each``, which ``splittable``
    uses when it was built (a tenth of the time: the check runs while the workers work, on the
    same cores)."""
    firsts = bytes(map(data.__getitem__, starts))  # each block's first byte
    if firsts.count(b"[") != len(firsts):
        return False
    tags = tags_at(data, first)
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


def tags_at(data: bytes, first: int) -> tuple[list[int], list[int], list[int]] | None:
    """Where the Event, Board and Deal tags are, from byte ``first`` on (``_TAG_SCAN``); None
    at a ``[`` that keeps the file whole."""
    found: dict[bytes, list[int]] = {b"Event": [], b"Board": [], b"Deal": []}
    for m in _TAG_SCAN.finditer(data, first):
        name = m.group(1)
        if name is None:
            return None
        found[name].append(m.start())
    return found[b"Event"], found[b"Board"], found[b"Deal"]
