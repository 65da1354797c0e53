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
from dataclasses import dataclass
from typing import Callable, Iterator, Sequence

from ..core.cards import SEATS, card_str, deal_str, parse_card
from ..core.record import BoardRecord
from ..formats.lin.values import read_md_hands
from ..formats.lin.write import _lin_hand
from ..replay import Replay
from ..replay.coherence import Mend, turns

#: The exact codec of each byte order mark: a file is written back in its own byte order.
_BOMS = ((codecs.BOM_UTF32_LE, "utf-32-le"), (codecs.BOM_UTF32_BE, "utf-32-be"),
         (codecs.BOM_UTF16_LE, "utf-16-le"), (codecs.BOM_UTF16_BE, "utf-16-be"))
#: Boards either side of a mended one read and audited again with it, to prove the change
#: (``replay.coherence``'s neighbours are 32 either side; a PBN ``#`` tag copies the previous
#: game's): the proof of one board costs the same in a file of any size.
WINDOW = 33


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

    def span(self, lo: int, hi: int) -> bytes:
        """Lines ``lo`` to ``hi - 1``, as one run of bytes."""
        start = self.ends[lo - 1] if lo > 0 else 0
        return self.data[start:self.ends[hi - 1] if hi > 0 else 0]


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

    ordered: bool = False  # each board starts on a line after the one before: windows work

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

    def window(self, game: int, changed: dict[int, bytes], width: int | None = None
               ) -> tuple[bytes, int, int, int] | None:
        """The text of board ``game``'s window with ``changed`` applied: the lines before the
        first board, then ``width`` boards either side (``WINDOW``).  With it, how far its
        lines moved, the window's first game and its number of boards; None when the boards do not each start
        on a line of their own or a change falls outside the window."""
        starts, i = self.starts, game - 1
        if not 0 <= i < len(starts) or not self.ordered:
            return None
        width = WINDOW if width is None else width
        lo, hi = max(0, i - width), min(len(starts), i + width + 1)
        head_end, top = starts[0] - 1, starts[lo] - 1 if lo else 0
        bottom = starts[hi] - 1 if hi < len(starts) else len(self.lines)
        if any(not (top <= k < bottom or k < head_end) for k in changed):
            return None
        picked = range(head_end) if lo else range(0)
        order = list(picked) + list(range(top, bottom))
        data = self.join([changed.get(k, self.lines[k]) for k in order])
        return data, len(picked) - top, lo + 1, hi - lo

    def with_lines(self, changed: dict[int, bytes]) -> bytes:
        """The file with line ``i`` (0-based) replaced by ``changed[i]``: the unchanged runs
        of lines taken as slices of the text."""
        out, prev = [], 0
        for k in sorted(changed):
            out += [self.lines.span(prev, k), changed[k]]
            prev = k + 1
        out.append(self.lines.span(prev, len(self.lines)))
        return self.join(out)

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


# --- one change as edits of the file's lines ---------------------------------------------------

_MD = re.compile(rb"(?i)(?<![a-z])md\|([^|]*)\|")
_DEAL = re.compile(rb'(\[\s*Deal\s+")([^"]*)("\s*\])')
_PC = re.compile(rb"(?i)(?<![a-z])pc\|([^|]*)\|")
_UNIT = re.compile(rb"(?:\^\S+\s+)*[^\s^]+")


def _edits(text: _Text, r: Replay, mend: Mend) -> Iterator[tuple[str, dict[int, bytes] | None]]:
    """The line edits (0-based line -> new bytes) that make ``mend``, each with what it
    chooses (" SQ": the card written); None when the text is not laid out as the change
    needs.  A missing LIN card gives one edit per card that may be it."""
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


def _line(text: _Text, number: int | None) -> tuple[int, bytes] | None:
    if number is None or not 1 <= number <= len(text.lines):
        return None
    return number - 1, text.lines[number - 1]


def _deal_edit(text: _Text, rec: BoardRecord, hands: tuple[int, ...]) -> dict[int, bytes] | None:
    found = _line(text, rec.deal_line)
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
        return {i: line[:m.start(2)] + new + line[m.end(2):]}
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
    written = ",".join(_lin_hand(hands[s]) for s in seats[:max(3, body.count(",") + 1)])
    return {i: line[:m.start(1)] + (dealer + written).encode("ascii") + line[m.end(1):]}


def _pc_spans(text: _Text, line: int, card: int) -> tuple[int, bytes, list[re.Match]] | None:
    found = _line(text, line)
    if found is None:
        return None
    i, raw = found
    spans = [m for m in _PC.finditer(raw)
             if parse_card(m.group(1).decode("latin-1")) == card]
    return i, raw, spans


def _pc_edit(text: _Text, rec: BoardRecord, at: int, missing: int | None
             ) -> dict[int, bytes] | None:
    """``missing`` None: remove the ``pc`` of ``rec.play[at]``; else write ``pc|missing|``
    just before it (in the case the record writes its cards)."""
    p = rec.play[at]
    same = [k for k, q in enumerate(rec.play) if (q.line, q.card) == (p.line, p.card)]
    found = _pc_spans(text, p.line, p.card)
    if found is None or len(found[2]) != len(same):
        return None  # the line's pc tokens are not the record's cards (one each, in order)
    i, raw, spans = found
    m = spans[same.index(at)]
    if missing is None:
        return {i: raw[:m.start()] + raw[m.end():]}
    token = card_str(missing)
    if m.group(1).islower():
        token = token.lower()
    key = m.group(0)[:3].decode("ascii")
    return {i: raw[:m.start()] + f"{key}{token}|".encode("ascii") + raw[m.start():]}


def _time_order_edit(text: _Text, r: Replay) -> dict[int, bytes] | None:
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
    out: dict[int, bytes] = {}
    for number, plays in by_line.items():
        found = _line(text, number)
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
            out[i] = b"".join(pieces) + raw[end:]
        else:
            out[i] = raw[:units[0].start()] + b" ".join(slots) + raw[units[-1].end():]
    return out
