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
draws the boundaries between boards (``scans._LIN_SPLITS`` says exactly what that takes): pairs
``key|value|`` from the start of the line to its end, one ``md``, no vugraph header (``vg``,
``rs``, eight names in a ``pn``) and plain ASCII (a line that is not UTF-8 is reported once per
file).

Anything else is read whole, as one unit of work.  A part carries the games around it as
context (as many each side as the replay's neighbour window), read but not audited.

The file is read with ordinary reads, a few megabytes at a time, never mapped: another program
may truncate it meanwhile, and a mapped page past the new end kills the process (SIGBUS).  A
file that changes while it is checked, or since it was cut, is not split; a part that finds the
file shorter than when it was planned says which of its games it could not read (PS004), as
the part's row; the last part of a file that grew since reads on to its new end."""
from __future__ import annotations

import codecs
import io
import operator
import os
import re
from bisect import bisect_right
from dataclasses import dataclass
from functools import lru_cache
from typing import BinaryIO, Callable, Iterator

from ..core import speedups
from ..core.record import BoardRecord
from .lines import MAX_LINE
from .lin import read_lin
from .pbn import read_pbn
from . import scans
from .sources import unreadable

_NEWLINE = re.compile(rb"\n")
_CHUNK = 1 << 22  # bytes of the file read at a time
_INHERITS = re.compile(rb'\[\s*[A-Za-z_]\w*\s*"?#')  # a value "#" or "##...", quoted or not
# a charset named in the header, as the PBN lexer finds it
_NAMED_CHARSET = re.compile(rb'(?i)charset\s*[=:]?\s*"?([A-Za-z0-9._:-]+)')


class Changed(ValueError):
    """The file is not as it was: shorter than its plan, or changed while it was checked."""


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
    last: bool = False  # the file's last part: read on to the file's end (``read_part``)


def plan(path: str, games_per_part: int, max_bytes: int, context: int, tail: int = 0
         ) -> list[Part] | None:
    """The parts of a PBN or LIN file of more than two parts' worth of games, each with up to
    ``context`` games either side, or None when it is not safe to split (see the module) or
    not worth it: ``cut``, then ``splittable``.  ``tail``: as for ``cut``."""
    parts = cut(path, games_per_part, max_bytes, context, tail)
    return parts if parts is not None and splittable(path) else None


def cut(path: str, games_per_part: int, max_bytes: int, context: int, tail: int = 0
        ) -> list[Part] | None:
    """The parts ``plan`` gives when the file turns out ``splittable``, found from its blank
    lines (PBN) or line ends (LIN) alone: a fifth of ``plan``'s time, so that the processes
    may start on the parts while ``splittable`` reads the whole file.  None when the file is
    too small or too large to split, or unreadable.  ``tail``: the last ``tail`` parts' worth
    of games go in parts a quarter the size (``_spans``), so that the processes that share
    the file finish together: the run waits for the last part to end."""
    try:
        if not 0 < os.path.getsize(path) <= max_bytes:
            return None
        kind, first, starts, size = _games_of(path)
        if size > max_bytes or len(starts) <= 2 * games_per_part:
            return None
        return _parts(path, kind, size, first, starts, games_per_part, context, tail)
    except (OSError, ValueError):  # Changed too: the file is read whole
        return None


_HEAD = 16 << 20  # the bytes ``head`` reads at most


def head(path: str, games_per_part: int, max_bytes: int, context: int, count: int,
         tail: int = 0) -> list[Part]:
    """The first ``count`` parts ``cut`` is expected to give the file, found from its first
    bytes alone (no more than ``_HEAD``), so that the processes start on them while the rest
    is cut: cutting a 100 MB file takes a tenth of a second, with nothing else to do.  Only
    a guess, which the caller checks against ``cut``'s parts: none when the file seems too
    small to be cut into ``count`` whole parts before its ``tail`` (the bytes of its first
    games times its size), is not a PBN or LIN file of games, or is unreadable."""
    try:
        size = os.path.getsize(path)
        with open(path, "rb") as fh:
            data = fh.read(min(size, _HEAD))
    except OSError:
        return []
    if not 0 < size <= max_bytes:
        return []
    kind, first, starts, _ = _games_scan(io.BytesIO(data))
    wanted = count * games_per_part + context  # the games (and context after) to be read
    if len(starts) <= wanted + 1:  # the last start found may be cut by the end of ``data``
        return []
    if (size * wanted) // max(1, starts[wanted] - starts[0]) < (count + tail + 3) * games_per_part:
        return []  # by the bytes of its first games, it may be split otherwise, or not at all
    parts = []
    for k in range(count):
        at = k * games_per_part
        lo, hi = max(0, at - context), at + games_per_part + context
        line = 1 + _scans.newlines(data, 0, starts[lo])
        parts.append(Part(path, kind, first, starts[lo], starts[hi], line, lo, at - lo,
                          games_per_part))
    return parts


def splittable(path: str, planned: int | None = None) -> bool:
    """Nothing carries from one game of the file to the next (the module says what that takes),
    so that its parts read alone give the records the whole file gives.  False also when
    the file changes while it is checked (``Changed``), or is no longer the ``planned`` bytes
    its parts were cut from (``cut``: another program still writing it)."""
    try:
        with open(path, "rb") as fh:
            before = os.fstat(fh.fileno())
            if planned is not None and before.st_size != planned:
                raise Changed(path)
            kind, first, starts, size = _games_of(path)
            if size != before.st_size:  # it grew (or shrank) since it was opened
                raise Changed(path)
            if not starts or _longest(starts, size) > MAX_LINE:
                return False  # a line the reader cuts (PS005): what follows it may carry on
            pieces = _game_pieces(fh, starts, size)
            if kind == "lin":
                fits = all(_scans.lin_splits(data) for _, data, _ in pieces)
            else:
                fits = _pbn_splits(path, fh, first, pieces)
            return fits and _unchanged(fh, before)
    except (OSError, ValueError):  # Changed too
        return False


def _pbn_splits(path: str, fh: BinaryIO, first: int,
                pieces: Iterator[tuple[int, bytes, list[int]]]) -> bool:
    """The checks of a PBN file (the module's list) on its header, then on each piece of its
    games (``_game_pieces``).  Each check on the whole file is the sum of its checks on the
    pieces, but for a ``%`` directive at the very start of a piece (no newline before it
    there), which ``one_game_each`` refuses anyway: a game starts with a tag."""
    fh.seek(0)
    header = fh.read(first)
    if len(header) != first:
        raise Changed(path)
    if _byte_order_mark(header) or not (_scans.plain_bytes(header, first)
                                        and _plain_header(path, header)):
        return False
    decoder = _decoder(header)
    for start, data, starts in pieces:
        if start == 0 and _byte_order_mark(data):  # no header: the first game's start
            return False
        if not (_plain_text(data) and _decodes(decoder, data)
                and _scans.one_game_each(data, 0, [s - start for s in starts])):
            return False
    return decoder is None or _decodes(decoder, b"", final=True)


def _byte_order_mark(data: bytes) -> bool:
    """The file starts with a byte order mark (UTF-8, UTF-16)."""
    return data[:3] == b"\xef\xbb\xbf" or data[:2] in (b"\xff\xfe", b"\xfe\xff")


def _game_pieces(fh: BinaryIO, starts: list[int], size: int
                 ) -> Iterator[tuple[int, bytes, list[int]]]:
    """The file from ``starts[0]`` to ``size`` in pieces of whole games, each about
    ``_CHUNK`` bytes (more when a game is larger): its first byte, its bytes and the starts of
    its games.  ``Changed`` when the file is shorter."""
    i = 0
    while i < len(starts):
        j = bisect_right(starts, starts[i] + _CHUNK, i + 1)
        end = starts[j] if j < len(starts) else size
        if starts[j - 1] >= end:  # a game found past the end: the file is not as scanned
            raise Changed(fh.name)
        fh.seek(starts[i])
        data = fh.read(end - starts[i])
        if len(data) != end - starts[i]:
            raise Changed(fh.name)
        yield starts[i], data, starts[i:j]
        i = j


def _unchanged(fh: BinaryIO, before: os.stat_result) -> bool:
    """The open file still has the size and time of change it had (``before``)."""
    now = os.fstat(fh.fileno())
    return (now.st_size, now.st_mtime_ns) == (before.st_size, before.st_mtime_ns)


def _plain_text(data: bytes) -> bool:
    """Games of a PBN file (after its header) that carry nothing from line to line or game to
    game: no ``{`` comment, ``%`` directive, inherited value, CR that ends no line or control
    character (the module's list)."""
    if not _scans.plain_bytes(data, 0):
        return False
    return not (data.find(b"#") >= 0 and _INHERITS.search(data))


def _longest(starts: list[int], size: int) -> int:
    """The largest game (a LIN line, a PBN block), in bytes: no line of it is longer."""
    return max(max(map(operator.sub, starts[1:], starts), default=0), size - starts[-1])


def _decoder(header: bytes) -> codecs.IncrementalDecoder | None:
    """The decoder of the games after ``header``: the charset the header names (the reader's
    pattern), else UTF-8 (``UTF8``); None for a charset unknown (the header's PS122 keeps the
    file whole already).  The games must decode without the reader's cp1252 fallback, whose
    PS002 is said once per file (a part would say it again)."""
    named = _NAMED_CHARSET.search(header)
    if named is None:
        return _UTF8()
    try:
        return codecs.getincrementaldecoder(named.group(1).decode())()
    except LookupError:
        return None


class _UTF8(codecs.getincrementaldecoder("utf-8")):
    """UTF-8 when no charset is named: pieces of ASCII need no decoding (a piece ends with a
    newline, where the decoder holds nothing back)."""


def _decodes(decoder: codecs.IncrementalDecoder | None, data: bytes, final: bool = False
             ) -> bool:
    """``data``, the next bytes of the games, decode."""
    if decoder is None:
        return False
    if type(decoder) is _UTF8 and _scans.ascii_from(data, 0):
        return True  # ASCII is UTF-8: nothing to decode
    try:
        decoder.decode(data, final)
    except UnicodeDecodeError:
        return False
    return True


def _games_of(path: str) -> tuple[str, int, list[int], int]:
    """``_games`` of the file at ``path`` and its size as read; the last file's answer is kept
    while the file is unchanged (``cut`` and then ``splittable`` both need it).  ``Changed``
    when the file grew or shrank while it was read (another program still writing it): its
    games would then be those of a size no ``stat`` gave, and a game could seem to start past
    the end that ``splittable`` checks."""
    st = os.stat(path)
    return _games_cached(path, st.st_size, st.st_mtime_ns)


@lru_cache(maxsize=1)
def _games_cached(path: str, size: int, mtime_ns: int) -> tuple[str, int, list[int], int]:
    with open(path, "rb") as fh:
        kind, first, starts, read = _games_scan(fh)
    if read != size:  # not kept: an exception is never cached
        raise Changed(path)
    return kind, first, starts, size


def _games(data: bytes) -> tuple[str, int, list[int]]:
    """``_games_read`` of bytes in memory."""
    return _games_read(io.BytesIO(data))


def _games_read(fh: BinaryIO) -> tuple[str, int, list[int]]:
    """The file's kind, the end of its header and where each game starts (``_games_scan``)."""
    return _games_scan(fh)[:3]


def _games_scan(fh: BinaryIO) -> tuple[str, int, list[int], int]:
    """The file's kind, the end of its header, where each game starts and the bytes read:
    each line of a LIN file, each block after a run of blank lines of a PBN file (the header
    ends before the first line that starts with ``[``; none: at 0).  Read in pieces
    (``_content_pieces``)."""
    head = fh.read(3)
    lin = head in (b"pn|", b"qx|", b"md|")
    first = 0 if lin or head[:1] == b"[" else None
    starts, size = [0] if lin else [], 0
    for offset, data in _content_pieces(fh):
        size = offset + len(data)
        if lin:
            starts.extend(offset + m.end() for m in _NEWLINE.finditer(data))
            continue
        if first is None and (found := data.find(b"\n[")) >= 0:
            first = offset + found + 1
        starts.extend(offset + end for end in _scans.blank_runs(data, 0))
    if not lin:
        first = first or 0
        starts = [first] + [s for s in starts if s > first]  # the runs from the header's end
    if starts and starts[-1] >= size:
        starts.pop()  # the file ends with a newline (LIN), with blank lines (PBN)
    return "lin" if lin else "pbn", first, starts, size


def _content_pieces(fh: BinaryIO) -> Iterator[tuple[int, bytes]]:
    """The file from its start in pieces of about ``_CHUNK`` bytes, each with its offset, each
    cut after a byte that ends no line: no run of line ends, nor a newline and the byte after
    it, is split between two pieces.  But for a run of line ends longer than ``_CHUNK``
    (hostile: held whole, it would cost memory and time as the square of its size), cut where
    the piece is full: a game then seems to start inside the run, with a blank line, which
    ``splittable`` refuses, so the file is read whole."""
    fh.seek(0)
    offset, held = 0, b""
    while chunk := fh.read(_CHUNK):
        data = held + chunk
        cut = len(data.rstrip(b"\r\n"))
        if not cut and len(data) >= _CHUNK:
            cut = len(data)
        if cut:
            yield offset, data[:cut]
        offset, held = offset + cut, data[cut:]
    if held:
        yield offset, held


def _plain_header(path: str, header: bytes) -> bool:
    """The header gives no record and no diagnostic: each part may read it again."""
    diagnostics: list = []
    records = list(read_pbn(io.BytesIO(header), path, diagnostics=diagnostics))
    return not records and not diagnostics and b"\r" not in header


def _parts(path: str, kind: str, size: int, header: int, starts: list[int],
           games_per_part: int, context: int, tail: int = 0) -> list[Part]:
    n = len(starts)
    spans = []
    for first, count in _spans(n, games_per_part, tail):
        lo, hi = max(0, first - context), min(n, first + count + context)
        spans.append((starts[lo], starts[hi] if hi < n else size, lo, first - lo, count))
    lines = _lines_at(path, [span[0] for span in spans])
    return [Part(path, kind, header, start, end, line, lo, skip, count, k == len(spans) - 1)
            for k, ((start, end, lo, skip, count), line) in enumerate(zip(spans, lines))]


def _spans(n: int, per_part: int, tail: int) -> Iterator[tuple[int, int]]:
    """The first game and the number of games of each part of ``n`` games: parts of
    ``per_part`` games, but for the last ``tail`` parts' worth (whole parts of the end),
    which go in parts of a quarter of that."""
    large = max(0, n - tail * per_part) // per_part * per_part if tail else n
    small = max(1, per_part // 4)
    for first in range(0, large, per_part):
        yield first, min(per_part, large - first)
    for first in range(large, n, small):
        yield first, min(small, n - first)


def _lines_at(path: str, positions: list[int]) -> list[int]:
    """The line number of each byte of ``positions`` (in order), counting the newlines before
    it.  ``Changed`` when the file ends before the last."""
    out, line, at = [], 1, 0
    with open(path, "rb") as fh:
        for position in positions:
            while at < position:
                data = fh.read(min(_CHUNK, position - at))
                if not data:
                    raise Changed(path)
                line += _scans.newlines(data, 0, len(data))
                at += len(data)
            out.append(line)
    return out


def read_part(part: Part, plain: bool = False,
              short: Callable[[BoardRecord], None] | None = None) -> Iterator[BoardRecord]:
    """The records of a part, context included, numbered as in the whole file: the header
    (PBN), a blank line standing for the lines skipped, then the part's bytes from line
    ``part.line`` on.  The header's lines are numbered to end just before that blank line, not
    from 1: they give no record or diagnostic (``splittable``), so their numbers are never
    seen, and the reader need not read millions of blank lines to reach a part at the end of
    a large file.  ``plain``: as for ``read_pbn`` and ``read_lin``.

    A file now shorter than its plan (truncated since) may leave games of the part unread:
    then a last record says which (``shortfall``), given to ``short`` if given, else yielded.
    A file now longer (another program still writing it): the last part reads on to its end,
    as the whole file would be read now, so that no game written before it was read is left
    out of the report (a game cut off by the end is reported as such, PS004)."""
    with open(part.path, "rb") as fh:
        header = fh.read(part.header)
        fh.seek(part.start)
        body = fh.read(part.end - part.start if not part.last else -1)
        size = os.fstat(fh.fileno()).st_size
    gap = part.line - 1 - header.count(b"\n")  # lines between the header and the part
    if gap > 0:
        header += b"\n"  # a run of blank lines reads as one
        gap -= 1
    stream = io.BytesIO(header + body)
    read = read_lin if part.kind == "lin" else read_pbn
    records = read(stream, part.path, games_before=part.games_before, plain=plain,
                   first_line=1 + gap)
    if len(header) == part.header and len(body) >= part.end - part.start:
        yield from records
        return
    games = 0
    for games, record in enumerate(records, 1):
        yield record
    missing = shortfall(part, games, size, part.line + body.count(b"\n"))
    if missing is not None:
        if short is None:
            yield missing
        else:
            short(missing)


def shortfall(part: Part, games: int, size: int, line: int) -> BoardRecord | None:
    """The row of the games of ``part`` not read, the file now ``size`` bytes, when it gave
    ``games`` of the part's games, context included (the last read on line ``line``), or None
    when all were."""
    first = part.games_before + max(games, part.skip) + 1  # game numbers count from 1
    last = part.games_before + part.skip + part.count
    if first > last:
        return None
    return unreadable(part.path, "PS004", f"the file is now {size} bytes, shorter than when it "
                      f"was split for --jobs (changed while it was read): games {first} to "
                      f"{last} were not read", line, first)


# The scans, in C when built (``speedups``), else their Python twins (``scans``).
_scans = speedups.wanted() or scans
