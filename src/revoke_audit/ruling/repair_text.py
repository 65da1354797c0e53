"""The text ``fix`` mends (``ruling.repair``): a file's lines that keep their bytes, one change
of a board's record as edits of those lines, and the diff's hunks.

A UTF-16/32 file is worked on as UTF-8 and written back in its own byte order (its BOM's exact
codec); every line keeps its own line end, so only the changed tags (``md``, ``Deal``, ``pc``) or
play lines differ in the mended bytes.
"""
from __future__ import annotations

import codecs
import re
from array import array
from bisect import bisect_right
from dataclasses import dataclass
from typing import Callable, Iterator, Sequence

from ..core.cards import SEATS, card_str, deal_str, parse_card
from ..core.record import BoardRecord
from ..formats.lin.values import read_md_hands
from ..formats.lin.write import lin_hand
from ..replay import Replay
from ..replay.coherence import Mend, turns

#: The exact codec of each byte order mark: a file is written back in its own byte order.
_BOMS = ((codecs.BOM_UTF32_LE, "utf-32-le"), (codecs.BOM_UTF32_BE, "utf-32-be"),
         (codecs.BOM_UTF16_LE, "utf-16-le"), (codecs.BOM_UTF16_BE, "utf-16-be"))
#: Boards either side of a mended one read and audited again with it, to prove the change
#: (``replay.coherence``'s neighbours are 32 either side; a PBN ``#`` tag copies the previous
#: game's): the proof of one board costs the same in a file of any size.
WINDOW = 33
#: A change of the text: the bytes ``start`` to ``end`` replaced by ``new``, in order (bytes of
#: the text as ``_Text`` holds it: UTF-8 for a UTF-16/32 file).
Edit = list[tuple[int, int, bytes]]


# --- the diff's hunks -------------------------------------------------------------------------

def _hunks(changed: list[int], n: int, context: int = 3) -> Iterator[tuple[int, int]]:
    """(first, end) line ranges around the ``changed`` lines, ``context`` lines either side,
    merged where they touch (as ``diff -u`` does)."""
    lo = hi = None
    for k in changed:
        a, b = max(0, k - context), min(n, k + context + 1)
        if hi is not None and a <= hi:
            hi = b
            continue
        if lo is not None:
            yield lo, hi
        lo, hi = a, b
    if lo is not None:
        yield lo, hi


def _shown(text: "_Text", line: bytes, show: Callable[[str], str]) -> str:
    """A line of the file for the diff: decoded, its line end dropped and shown through
    ``show``, then ending in ``\\n``."""
    s = text.decode(line)
    return show(s[:-2] if s.endswith("\r\n") else s.rstrip("\r\n")) + "\n"


# --- the text, as lines that keep their bytes ------------------------------------------------

class _Lines(Sequence[bytes]):
    """A text's lines, each with its line end, as slices of the text: the text and where each
    line ends (8 bytes a line, not an object each: a 50,000-board file has 1.5 million)."""

    def __init__(self, data: bytes, sep: bytes) -> None:
        self.data = data
        self.ends = ends = array("q")
        pos = data.find(sep)
        while pos != -1:
            ends.append(pos + 1)
            pos = data.find(sep, pos + 1)
        if data and (not ends or ends[-1] != len(data)):
            ends.append(len(data))  # a last line without its line end

    def __len__(self) -> int:
        return len(self.ends)

    def __getitem__(self, i):  # type: ignore[override]
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        if i < 0:
            i += len(self)
        return self.data[self.ends[i - 1] if i > 0 else 0:self.ends[i]]

    def before(self, offset: int) -> int:
        """How many line ends come before byte ``offset``."""
        return bisect_right(self.ends, offset)


@dataclass
class _Text:
    """A file's lines as the readers number them, each with its own line end, in a form the
    edits can work on (UTF-8 for a UTF-16/32 file, else the file's own bytes)."""

    lines: "_Lines"
    encoding: str | None  # a BOM's exact codec (byte order): the file is re-encoded with it
    bom: bytes
    cr: bool  # lines end in a lone CR
    name: str = ""  # the name the readers tell PBN from LIN by
    starts: Sequence[int] = ()  # each board's first line (1-based), in order

    offsets: array | None = None  # each board's first byte, when known (``locate``)

    @property
    def boards(self) -> int:
        return len(self.starts)

    @classmethod
    def of(cls, data: bytes) -> "_Text":
        """``data`` as lines; a ``UnicodeDecodeError`` when a UTF-16/32 text does not decode
        exactly (a lone surrogate, an odd length): it could not be written back as it was."""
        encoding, bom = None, b""
        for mark, name in _BOMS:
            if data.startswith(mark):
                encoding, bom = name, mark
                data = data[len(mark):].decode(name).encode("utf-8")
                break
        cr = b"\r" in data and b"\n" not in data
        return cls(_Lines(data, b"\r" if cr else b"\n"), encoding, bom, cr)

    def join(self, lines: Sequence[bytes]) -> bytes:
        data = b"".join(lines)
        if self.encoding:
            return self.bom + data.decode("utf-8").encode(self.encoding)
        return data

    def locate(self, kind: str) -> None:
        """Where each board starts, as a byte of the text (``offsets``): the start of its first
        line when every board starts on a line of its own; in a LIN text whose boards share
        lines, at its ``md`` with the ``pn``, ``st`` and ``qx`` just before it (as the LIN
        reader draws the boundaries), when each shared line has as many ``md`` as boards.
        Left None otherwise: each proof then reads the whole text."""
        starts, lines = self.starts, self.lines
        if not starts:
            return
        if all(a < b for a, b in zip(starts, starts[1:])):
            self.offsets = array("q", (lines.ends[k - 2] if k > 1 else 0 for k in starts))
            return
        if kind != "lin" or any(a > b for a, b in zip(starts, starts[1:])):
            return
        offsets = array("q")
        k = 0
        while k < len(starts):
            n = starts.count(starts[k]) if k + 1 < len(starts) and starts[k + 1] == starts[k] \
                else 1
            line = starts[k]
            base = lines.ends[line - 2] if line > 1 else 0
            found = _board_starts(lines[line - 1], n)
            if found is None:
                return
            offsets.extend(base + f for f in found)
            k += n
        if all(a < b for a, b in zip(offsets, offsets[1:])):
            self.offsets = offsets

    def segment(self, game: int) -> tuple[int, int]:
        """The bytes of board ``game`` (from its start to the next board's), or the whole text
        when where the boards start is not known."""
        offsets, i = self.offsets, game - 1
        if offsets is None or not 0 <= i < len(offsets):
            return 0, len(self.lines.data)
        return offsets[i], offsets[i + 1] if i + 1 < len(offsets) else len(self.lines.data)

    def window(self, game: int, edit: Edit, width: int | None = None
               ) -> tuple[bytes, int, int, int] | None:
        """The text of board ``game``'s window with ``edit`` made: the text before the first
        board, then ``width`` boards either side (``WINDOW``).  With it, how far its lines
        moved, the window's first game and its number of boards; None when where the boards
        start is not known (``locate``) or the edit falls outside the window."""
        offsets, i = self.offsets, game - 1
        if offsets is None or not 0 <= i < len(offsets):
            return None
        width = WINDOW if width is None else width
        lo, hi = max(0, i - width), min(len(offsets), i + width + 1)
        top = offsets[lo] if lo else 0
        bottom = offsets[hi] if hi < len(offsets) else len(self.lines.data)
        head = offsets[0] if lo else 0
        if any(not (top <= a and b <= bottom or b <= head) for a, b, _ in edit):
            return None
        data = self.lines.data
        pieces = [_applied(data, 0, head, edit), _applied(data, top, bottom, edit)]
        shift = self.lines.before(head) - self.lines.before(top)  # lines moved up
        return self.join(pieces), shift, lo + 1, hi - lo

    def merged(self, edits: list[Edit]) -> tuple[Edit, list[int]]:
        """Several boards' edits as one, however many boards share a line; with the indices
        of the edits left out because they change bytes one before them changes."""
        taken: Edit = []
        left = []
        for i, edit in enumerate(edits):
            if any(a < d and c < b or a == b == c == d for a, b, _ in edit
                   for c, d, _ in taken):
                left.append(i)
                continue
            taken += edit
        return sorted(taken), left

    def with_edit(self, edit: Edit) -> bytes:
        """The whole text with ``edit`` made."""
        return self.join([_applied(self.lines.data, 0, len(self.lines.data), edit)])

    def changed_lines(self, edit: Edit) -> dict[int, bytes]:
        """The lines ``edit`` changes (0-based) -> each one's new bytes."""
        ends, out = self.lines.ends, {}
        for a, b, _ in edit:
            for k in range(bisect_right(ends, a), bisect_right(ends, max(a, b - 1)) + 1):
                if k not in out and k < len(ends):
                    start = ends[k - 1] if k else 0
                    out[k] = _applied(self.lines.data, start, ends[k], edit)
        return out

    def shown(self, game: int, edit: Edit) -> tuple[str, str]:
        """What ``edit`` changes of board ``game``, before and after, as text: the lines it
        changes, as far as they are the board's own."""
        first, last = self.segment(game)
        before, after = [], []
        ends, data = self.lines.ends, self.lines.data
        for k in sorted(self.changed_lines(edit)):
            lo = max(ends[k - 1] if k else 0, first)
            hi = min(ends[k], last)
            before.append(self.decode(data[lo:hi]))
            after.append(self.decode(_applied(data, lo, hi, edit)))
        return "".join(before), "".join(after)

    def decode(self, line: bytes) -> str:
        try:
            return line.decode("utf-8")
        except UnicodeDecodeError:
            return line.decode("cp1252", errors="replace")

    def lines_as_text(self, lines: Sequence[bytes]) -> list[str]:
        """Lines for a diff: decoded, each ending in ``\\n`` (a CR kept as it is shown)."""
        out = []
        for line in lines:
            s = self.decode(line)
            out.append(s if s.endswith("\n") else (s[:-1] if s.endswith("\r") else s) + "\n")
        return out


def _applied(data: bytes, start: int, end: int, edit: Edit) -> bytes:
    """``data[start:end]`` with the changes of ``edit`` inside it made."""
    out, at = [], start
    for a, b, new in edit:
        if start <= a and b <= end:
            out += [data[at:a], new]
            at = b
    out.append(data[at:end])
    return b"".join(out)


_LIN_PAIR = re.compile(rb"([A-Za-z]{2})\|[^|]*\|")
_BEFORE_MD = (b"pn", b"st", b"qx")


def _board_starts(line: bytes, n: int) -> list[int] | None:
    """Where the ``n`` boards of one LIN line start: at each ``md``, moved back over the
    ``pn``, ``st`` and ``qx`` pairs just before it (the first board: the line's start); None
    when the line has not ``n`` of them."""
    pairs = list(_LIN_PAIR.finditer(line))
    mds = [j for j, m in enumerate(pairs) if m.group(1).lower() == b"md"]
    if len(mds) != n:
        return None
    out = []
    for j in mds:
        k = j
        while k > 0 and pairs[k - 1].group(1).lower() in _BEFORE_MD \
                and pairs[k - 1].end() == pairs[k].start():
            k -= 1
        out.append(pairs[k].start())
    return out


# --- one change as edits of the file's lines ---------------------------------------------------

_MD = re.compile(rb"(?i)(?<![a-z])md\|([^|]*)\|")
_DEAL = re.compile(rb'(\[\s*Deal\s+")([^"]*)("\s*\])')
_PC = re.compile(rb"(?i)(?<![a-z])pc\|([^|]*)\|")
_UNIT = re.compile(rb"(?:\^\S+\s+)*[^\s^]+")


def _edits(text: _Text, r: Replay, mend: Mend) -> Iterator[tuple[str, Edit | None]]:
    """The edits (``Edit``: the bytes of the text each replaces) that make ``mend``, each with
    what it chooses (" SQ": the card written); None when the text is not laid out as the
    change needs.  A missing LIN card gives one edit per card that may be it."""
    rec = r.record
    if mend.kind in ("rotated", "deal"):
        yield "", _deal_edit(text, rec, mend.hands)
    elif mend.kind == "time-order":
        yield "", _time_order_edit(text, r)
    elif mend.kind == "doubled":
        yield "", _pc_edit(text, rec, mend.at, None)
    elif mend.kind == "missing":
        seat = next(s for p, s, _ in turns(r, rec.play, skip=mend.at) if p is None)
        played = {p.card for p in rec.play if p.card is not None}
        hand = rec.hands[seat] or 0
        for card in range(52):
            if hand >> card & 1 and card not in played:
                yield f" {card_str(card)}", _pc_edit(text, rec, mend.at, card)


def _line(text: _Text, number: int | None, game: int) -> tuple[int, bytes] | None:
    """Line ``number`` (1-based) of board ``game``, as far as it is the board's own (a LIN line
    that holds several boards: the board's part of it), with the text's byte it starts at."""
    if number is None or not 1 <= number <= len(text.lines):
        return None
    ends = text.lines.ends
    first, last = text.segment(game)
    lo = max(ends[number - 2] if number > 1 else 0, first)
    hi = min(ends[number - 1], last)
    if lo >= hi:
        return None
    return lo, text.lines.data[lo:hi]


def _deal_edit(text: _Text, rec: BoardRecord, hands: tuple[int, ...]) -> Edit | None:
    found = _line(text, rec.deal_line, rec.game)
    if found is None:
        return None
    i, line = found
    if rec.format == "pbn":
        spans = list(_DEAL.finditer(line))
        if len(spans) != 1:
            return None
        m = spans[0]
        value = m.group(2).decode("ascii", "replace").strip()
        first = SEATS.index(value[0].upper()) if value[:1].upper() in SEATS and value[1:2] == ":" \
            else 0
        new = deal_str(hands, first).encode("ascii")
        return [(i + m.start(2), i + m.end(2), new)]
    spans = [m for m in _MD.finditer(line)
             if read_md_hands(m.group(1).decode("latin-1"), 0, lambda *a: None)[1]
             == tuple(rec.hands)] or list(_MD.finditer(line))
    if len(spans) != 1:
        return None
    m = spans[0]
    value = m.group(1).decode("latin-1")
    dealer = value[0] if value[:1].isdigit() else ""
    seats = (2, 3, 0, 1)  # S, W, N, E
    body = value[len(dealer):].rstrip(",")
    written = ",".join(lin_hand(hands[s]) for s in seats[:max(3, body.count(",") + 1)])
    return [(i + m.start(1), i + m.end(1), (dealer + written).encode("ascii"))]


def _pc_spans(text: _Text, line: int, card: int, game: int
              ) -> tuple[int, bytes, list[re.Match]] | None:
    found = _line(text, line, game)
    if found is None:
        return None
    i, raw = found
    spans = [m for m in _PC.finditer(raw)
             if parse_card(m.group(1).decode("latin-1")) == card]
    return i, raw, spans


def _pc_edit(text: _Text, rec: BoardRecord, at: int, missing: int | None) -> Edit | None:
    """``missing`` None: remove the ``pc`` of ``rec.play[at]``; else write ``pc|missing|``
    just before it (in the case the record writes its cards)."""
    p = rec.play[at]
    same = [k for k, q in enumerate(rec.play) if (q.line, q.card) == (p.line, p.card)]
    found = _pc_spans(text, p.line, p.card, rec.game)
    if found is None or len(found[2]) != len(same):
        return None  # the line's pc tokens are not the record's cards (one each, in order)
    i, raw, spans = found
    m = spans[same.index(at)]
    if missing is None:
        return [(i + m.start(), i + m.end(), b"")]
    token = card_str(missing)
    if m.group(1).islower():
        token = token.lower()
    key = m.group(0)[:3].decode("ascii")
    return [(i + m.start(), i + m.start(), f"{key}{token}|".encode("ascii"))]


def _time_order_edit(text: _Text, r: Replay) -> Edit | None:
    """Each play line rewritten in seat columns from ``[Play]``'s seat: every card moves to the
    column of the player who played it in time order."""
    rec = r.record
    leader0 = rec.play_leader
    if any(p.card is None or p.seat is None for p in rec.play):
        return None
    seat_of = {(p.line, p.card): seat for p, seat, _ in turns(r, rec.play, time_order=True)
               if p is not None}
    if len(seat_of) != len(rec.play):
        return None
    by_line: dict[int, list] = {}
    for p in rec.play:
        by_line.setdefault(p.line, []).append(p)
    out: Edit = []
    for number, plays in by_line.items():
        found = _line(text, number, rec.game)
        if found is None:
            return None
        i, raw = found
        units = [m for m in _UNIT.finditer(raw) if m.group(0) != b"*"]
        if len(units) != len(plays):
            return None
        plays = sorted(plays, key=lambda p: (p.seat - leader0) % 4)
        slots = [b"-"] * 4
        for p, m in zip(plays, units):
            slots[(seat_of[(p.line, p.card)] - leader0) % 4] = m.group(0)
        if len(units) == 4:
            pieces, end = [], 0
            for m, new in zip(units, slots):
                pieces += [raw[end:m.start()], new]
                end = m.end()
            out.append((i, i + len(raw), b"".join(pieces) + raw[end:]))
        else:
            out.append((i, i + len(raw), raw[:units[0].start()] + b" ".join(slots)
                        + raw[units[-1].end():]))
    return sorted(out)
