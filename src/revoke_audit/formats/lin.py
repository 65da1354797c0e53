"""LIN reader (Bridge Base Online) and a small single-deal LIN writer.

LIN is a flat run of ``key|value|`` pairs with no escapes; newlines mean nothing except that they
may fall inside a value.  Three shapes occur in real files (see FORMATS.md):

* single-deal files (BBO "myhands", tournament hand records): ``pn|S,W,N,E|st||md|...|rh||ah|
  Board n|sv|o|mb|..|pc|..|mc|n|`` - possibly several deals, one per line, each starting ``pn|``;
* vugraph archives: a header ``vg|title,segment,scoring,first,last,team1,score1,team2,score2|``,
  ``rs|`` (one result per board and room), ``pn|`` with 8 names (open S,W,N,E then closed), then
  per board ``qx|o17|`` / ``qx|c17|`` followed by md/sv/mb/pc/mc.  Robot Table Managers write a
  per-board ``pn|`` (4 names) just before each ``qx|``;
* teaching ("movie") files: ``qx|A1|`` boards with partial deals, packed calls ``mb|1nppp|``
  and display commands (``at``, ``ht``, ``cs``, ...) that are skipped.

Board boundaries: ``qx`` when the current board already has content (md, a call, a card, a
claim) or a qx of its own; ``md`` when the current board already has an md; ``pn`` when the
current board has a call/card/claim, or already has its own names and a deal.  Keys read before
the first of these (names, ``qx``) belong to the board that follows, as the robot files need.

The reader streams (``lines.iter_lines``), keeps at most ``MAX_ITEMS`` calls+cards per board
(PS006) and ``MAX_VALUE`` characters per value (PS210), and never raises: every problem becomes a
``Diagnostic`` on the board concerned.
"""
from __future__ import annotations

import re
from typing import BinaryIO, Iterator

from ..auction import derive_contract, normalise_call
from ..cards import (
    EAST,
    FULL_DECK,
    NORTH,
    RANKS,
    SOUTH,
    SUITS,
    WEST,
    holding_str,
    make_card,
)
from ..record import BoardRecord, Diagnostic, Play
from .lines import iter_lines

__all__ = ["read_lin", "format_lin", "MAX_ITEMS", "MAX_VALUE"]

MAX_ITEMS = 5000  # calls + cards kept per board; the rest is skipped (PS006)
MAX_VALUE = 1 << 16  # characters kept of one key or value spanning lines (PS210)

# LIN dealer digit -> seat; LIN hand order S, W, N, E -> seats
_DEALER_OF = {"1": SOUTH, "2": WEST, "3": NORTH, "4": EAST}
_LIN_DEALER = {SOUTH: "1", WEST: "2", NORTH: "3", EAST: "4"}
_MD_SEATS = (SOUTH, WEST, NORTH, EAST)
_VUL_OF = {"o": "None", "0": "None", "-": "None", "n": "NS", "e": "EW", "b": "All"}
_LIN_VUL = {"None": "o", "NS": "n", "EW": "e", "All": "b"}
_SCORING_OF = {"I": "IMP", "P": "MP", "B": "BAM"}

# md hand characters: suit letters and ranks in either case
_SUIT_CH = {ch: i for i, ch in enumerate(SUITS)}
_SUIT_CH.update({ch.lower(): i for ch, i in list(_SUIT_CH.items())})
_RANK_CH = {ch: i for i, ch in enumerate(RANKS)}
_RANK_CH.update({ch.lower(): i for ch, i in list(_RANK_CH.items())})

# pc tokens: suit then rank, either case (``cK``, ``SA``, ``h10``)
_CARD_OF: dict[str, int] = {}
for _s, _sch in enumerate(SUITS):
    for _r, _rch in enumerate(RANKS):
        for _a in (_sch, _sch.lower()):
            for _b in ({_rch, _rch.lower()} | ({"10"} if _rch == "T" else set())):
                _CARD_OF[_a + _b] = make_card(_s, _r)

# mb values: one call, or several packed (``1nppp``); ``!`` = alerted
_CALL_TOKEN = re.compile(r"\s*([1-7]\s*(?:NT|[CDHSN])|P|D|R|XX|X)\s*!?", re.IGNORECASE)
_CALL_CACHE: dict[str, tuple[str, ...] | None] = {}
_QX = re.compile(r"^\s*([ocOC])\s*(\d+)\s*(?:,|$)")
_AH_BOARD = re.compile(r"^\s*board\s*(\S+)", re.IGNORECASE)
_CLAIM = re.compile(r"^\s*(\d{1,2})\s*$")

_BOARD_KEYS = frozenset(("pn", "qx", "md", "mb", "pc", "mc", "sv", "ah"))
_HANDLED = _BOARD_KEYS | {"vg", "rs"}  # every other key is display or commentary: skipped
# the keys of real files, as written -> lower case (anything else takes the slow path)
_KEY_OF = {k: k for k in ("pc", "pg", "mb", "md", "st", "ah", "sv", "rh", "pn", "nt", "mc", "an",
                          "qx", "at", "ht", "pf", "sa", "cs", "vg", "rs", "va", "bt", "mn", "sk")}
_KEY_OF.update({k.upper(): k for k in list(_KEY_OF)})


def _parse_calls(value: str) -> tuple[str, ...] | None:
    """``1C!`` -> ("1C",), ``1nppp`` -> ("1NT", "P", "P", "P"); None when unreadable."""
    got = _CALL_CACHE.get(value)
    if got is not None or value in _CALL_CACHE:
        return got
    text = value.strip()
    calls: list[str] = []
    pos = 0
    while pos < len(text):
        m = _CALL_TOKEN.match(text, pos)
        if not m:
            calls = []
            break
        call = normalise_call(m.group(1).replace(" ", ""))
        if call is None:
            calls = []
            break
        calls.append(call)
        pos = m.end()
    result = tuple(calls) if calls else None
    if len(_CALL_CACHE) < 4096:
        _CALL_CACHE[value] = result
    return result


_HAND_SHAPE = re.compile(r"[Ss]([^SHDCshdc]*)[Hh]([^SHDCshdc]*)[Dd]([^SHDCshdc]*)[Cc]([^SHDCshdc]*)")
_HOLDING: dict[str, int] = {}  # rank text of one suit -> 13-bit mask (only clean holdings)
_RANKS13 = tuple(tuple(r for r in range(13) if v >> r & 1) for v in range(1 << 13))


def _holding(text: str) -> int:
    """Rank text of one suit (``AKQ``, ``2469``) -> 13-bit mask; -1 if not plain distinct ranks."""
    mask = 0
    for ch in text:
        r = _RANK_CH.get(ch, -1)
        if r < 0 or mask >> r & 1:
            return -1
        mask |= 1 << r
    if len(_HOLDING) < 50_000:
        _HOLDING[text] = mask
    return mask


def _parse_lin_hand(text: str) -> tuple[int, str | None]:
    """One md hand (``SAKQHJT9D876C5432``, any rank order or case) -> (mask, problem)."""
    m = _HAND_SHAPE.fullmatch(text)
    if m is not None:  # the usual shape: S..H..D..C.., each suit's ranks distinct
        g = _HOLDING
        s, h, d, c = m.groups()
        ms = g.get(s)
        if ms is None:
            ms = _holding(s)
        mh = g.get(h)
        if mh is None:
            mh = _holding(h)
        md = g.get(d)
        if md is None:
            md = _holding(d)
        mc = g.get(c)
        if mc is None:
            mc = _holding(c)
        if ms >= 0 and mh >= 0 and md >= 0 and mc >= 0:
            return ms | mh << 13 | md << 26 | mc << 39, None
    return _parse_lin_hand_slow(text)


def _parse_lin_hand_slow(text: str) -> tuple[int, str | None]:
    mask = 0
    suit = -1
    dups: list[str] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        i += 1
        s = _SUIT_CH.get(ch)
        if s is not None:
            suit = s
            continue
        if ch == "1" and i < n and text[i] == "0":
            i += 1
            r = 8
        else:
            r = _RANK_CH.get(ch, -1)
        if r < 0:
            if ch.isspace():
                continue
            return 0, f"unexpected character {ch!r}"
        if suit < 0:
            return 0, f"rank {ch!r} before any suit letter"
        bit = 1 << (suit * 13 + r)
        if mask & bit:
            dups.append(SUITS[suit] + RANKS[r])
        mask |= bit
    if dups:
        return mask, f"{' '.join(dups)} twice in one hand"
    return mask, None


class _Board:
    """Mutable state of the board being read; turned into a frozen ``BoardRecord`` at the end."""

    __slots__ = (
        "line", "first_line", "names", "room", "board", "qx_board", "ah_board", "dealer", "vul",
        "hands", "owner", "deal_line", "calls", "auction_line", "auction_bad", "plays",
        "play_line", "claim", "claim_line", "diags", "tags", "has_md", "has_qx", "has_pn",
        "has_action", "items", "overflow", "seen_codes",
    )

    def __init__(self, line: int) -> None:
        self.line = 0  # set by the first board-level key
        self.first_line = line
        self.names: tuple[str, str, str, str] | None = None
        self.room = ""
        self.board = ""
        self.qx_board = ""
        self.ah_board = ""
        self.dealer: int | None = None
        self.vul: str | None = None
        self.hands: tuple | None = None
        self.owner: list | None = None
        self.deal_line: int | None = None
        self.calls: list[str] = []
        self.auction_line: int | None = None
        self.auction_bad = False
        self.plays: list[Play] = []
        self.play_line: int | None = None
        self.claim: int | None = None
        self.claim_line: int | None = None
        self.diags: list[tuple[str, str, int | None]] = []
        self.tags: dict[str, str] = {}
        self.has_md = False
        self.has_qx = False
        self.has_pn = False
        self.has_action = False  # a call, card or claim
        self.items = 0
        self.overflow = False
        self.seen_codes: set[str] = set()

    def diag(self, code: str, message: str, line: int | None, once: bool = False) -> None:
        if once:
            if code in self.seen_codes:
                return
            self.seen_codes.add(code)
        if len(self.diags) < 100:
            self.diags.append((code, message, line))
        elif len(self.diags) == 100:
            self.diags.append(("PS009", "more than 100 problems in this board; the rest are not listed", line))

    @property
    def has_content(self) -> bool:
        return self.has_md or self.has_action


class _Header:
    """Vugraph header: ``vg`` fields, ``rs`` results, ``pn`` with 8 names."""

    __slots__ = ("event", "segment", "scoring", "first", "teams", "results", "names")

    def __init__(self) -> None:
        self.event = ""
        self.segment = ""
        self.scoring = ""
        self.first: int | None = None
        self.teams = ""
        self.results: list[str] | None = None
        self.names: list[str] | None = None


def _names_nesw(swne: list[str]) -> tuple[str, str, str, str]:
    s, w, n, e = (swne + ["", "", "", ""])[:4]
    return (n, e, s, w)


class _Reader:
    def __init__(self, source: str) -> None:
        self.source = source
        self.header = _Header()
        self.cur = _Board(1)
        self.out: list[BoardRecord] = []
        self.game = 0

    # -- board boundaries ---------------------------------------------------------------------
    def flush(self, line: int, final: bool = False) -> None:
        """Finish the current board and start a new one at ``line``.

        Mid-file this is only called when the board holds content (md, call, card, claim) or a
        qx.  At the end of the file a board with nothing but names (the trailing ``pn`` of robot
        files) is dropped, but one that carries problems is kept, as an unreadable board, so the
        problems are reported (binary garbage, a truncated tail)."""
        b = self.cur
        if b.has_content or b.has_qx or (final and b.diags):
            self.out.append(self.finish(b))
        self.cur = _Board(line)

    def finish(self, b: _Board) -> BoardRecord:
        self.game += 1
        try:
            return self._record(b)
        except Exception as exc:  # an internal error must not lose the board or stop the file
            return BoardRecord(
                source=self.source, line=b.line or b.first_line, game=self.game, format="lin",
                diagnostics=tuple(self._diags(b)) + (
                    Diagnostic("PS211", f"internal error while finishing the board: {exc!r}",
                               self.source, b.line or b.first_line),),
                unreadable=True,
            )

    def _diags(self, b: _Board) -> list[Diagnostic]:
        src = self.source
        return [Diagnostic(c, m, src, ln) for c, m, ln in b.diags]

    def _record(self, b: _Board) -> BoardRecord:
        h = self.header
        tags = dict(b.tags)
        if h.event:
            tags.setdefault("event", h.event)
        if h.segment:
            tags["segment"] = h.segment
        if h.scoring:
            tags["scoring"] = h.scoring
        if h.teams:
            tags["teams"] = h.teams
        names = b.names
        if names is None and h.names is not None:
            off = 4 if b.room == "closed" and len(h.names) >= 8 else 0
            names = _names_nesw(h.names[off:off + 4])
        lin_result = None
        if h.results is not None and b.room and h.first is not None and b.board.isdigit():
            idx = 2 * (int(b.board) - h.first) + (1 if b.room == "closed" else 0)
            if 0 <= idx < len(h.results):
                lin_result = h.results[idx] or None
        if lin_result is not None:
            tags["rs"] = lin_result
        contract = declarer = None
        if b.calls and not b.auction_bad:
            contract, declarer = derive_contract(b.calls, b.dealer)
        hands = b.hands
        unreadable = hands is None and not b.calls and not b.plays and b.claim is None
        return BoardRecord(
            source=self.source,
            line=b.line or b.first_line,
            game=self.game,
            format="lin",
            room=b.room,
            event=h.event,
            board=b.board,
            dealer=b.dealer,
            vul=b.vul,
            names=names if names is not None else ("", "", "", ""),
            scoring=_SCORING_OF.get(h.scoring.upper(), h.scoring),
            tags=tags,
            hands=hands,
            deal_line=b.deal_line,
            auction=tuple(b.calls),
            auction_line=b.auction_line,
            contract_derived=contract,
            declarer_derived=declarer,
            play_line=b.play_line,
            play=tuple(b.plays),
            claim=b.claim,
            claim_line=b.claim_line,
            lin_result=lin_result,
            diagnostics=tuple(self._diags(b)),
            unreadable=unreadable,
        )

    # -- one key|value pair -------------------------------------------------------------------
    def pair(self, key: str, value: str, line: int) -> None:
        b = self.cur
        if key == "pc":
            if b.overflow or self._count(b, line):
                return
            card = _CARD_OF.get(value)
            if card is None:
                card = _CARD_OF.get(value.strip())
            if b.line == 0:
                b.line = line
            b.has_action = True
            if b.play_line is None:
                b.play_line = line
            if card is None:
                b.diag("PS207", f"unreadable card {value.strip()[:20]!r} in pc; recorded as unknown", line)
                b.plays.append(Play(None, None, (), line, None))
                return
            owner = b.owner
            b.plays.append(Play(owner[card] if owner is not None else None, card, (), line, None))
            return
        if key == "mb":
            if b.overflow or self._count(b, line):
                return
            if b.line == 0:
                b.line = line
            b.has_action = True
            if b.auction_line is None:
                b.auction_line = line
            calls = _parse_calls(value)
            if calls is None:
                b.diag("PS206", f"unreadable call {value.strip()[:20]!r} in mb; no contract derived", line)
                b.auction_bad = True
                return
            b.calls.extend(calls)
            return
        if key == "md":
            if b.has_md:
                self.flush(line)
                b = self.cur
            if b.overflow:
                return
            if b.line == 0:
                b.line = line
            b.has_md = True
            self._deal(b, value, line)
            return
        if key == "pn":
            names = [n.strip() for n in value.split(",")]
            if len(names) > 4:  # vugraph header: open S,W,N,E then closed S,W,N,E
                if b.has_content:
                    self.flush(line)
                self.header.names = names
                return
            if b.has_action or (b.has_md and b.has_pn):
                self.flush(line)
                b = self.cur
            if b.line == 0:
                b.line = line
            b.has_pn = True
            b.names = _names_nesw(names)
            b.tags["pn"] = value.strip()[:200]
            return
        if key == "qx":
            if b.has_content or b.has_qx:
                self.flush(line)
                b = self.cur
            if b.line == 0:
                b.line = line
            b.has_qx = True
            v = value.strip()
            b.tags["qx"] = v[:100]
            m = _QX.match(v)
            if m:
                b.room = "open" if m.group(1) in "oO" else "closed"
                b.qx_board = m.group(2).lstrip("0") or "0"
            else:
                b.qx_board = v.split(",")[0].strip()[:50]
            b.board = b.qx_board
            return
        if b.overflow and key in _BOARD_KEYS:
            return
        if key == "mc":
            if b.line == 0:
                b.line = line
            b.has_action = True
            m = _CLAIM.match(value)
            if m and int(m.group(1)) <= 13:
                b.claim = int(m.group(1))
                b.claim_line = line
            else:
                b.diag("PS208", f"unreadable claim {value.strip()[:20]!r} in mc (not 0-13 tricks)", line)
            return
        if key == "sv":
            if b.line == 0:
                b.line = line
            v = value.strip().lower()
            vul = _VUL_OF.get(v)
            if vul is None:
                b.diag("PS209", f"unreadable vulnerability {value.strip()[:20]!r} in sv", line)
            b.vul = vul
            b.tags["sv"] = value.strip()[:20]
            return
        if key == "ah":
            if b.line == 0:
                b.line = line
            v = value.strip()
            if "ah" not in b.tags:
                b.tags["ah"] = v[:100]
            m = _AH_BOARD.match(v)
            if m and not b.ah_board:
                b.ah_board = m.group(1)
                if not b.qx_board:
                    b.board = b.ah_board
            return
        if key == "vg":
            if b.has_content:
                self.flush(line)
            self._vg(value, line)
            return
        if key == "rs":
            self.header.results = [r.strip() for r in value.split(",")]
            return
        # everything else (pg, nt, an, st, rh, at, ht, cs, ...) is display or commentary

    def _count(self, b: _Board, line: int) -> bool:
        """Count one stored item; True (and PS006 once) when the board is over the limit."""
        b.items += 1
        if b.items > MAX_ITEMS:
            b.overflow = True
            b.diag("PS006", f"more than {MAX_ITEMS} calls and cards in one board; the rest of the "
                   "board was skipped", line, once=True)
            return True
        return False

    def _vg(self, value: str, line: int) -> None:
        h = _Header()
        h.names = self.header.names
        h.results = self.header.results
        fields = [f.strip() for f in value.split(",")]
        if len(fields) > 9:  # a comma inside the title
            fields = [",".join(fields[:len(fields) - 8])] + fields[len(fields) - 8:]
        fields += [""] * (9 - len(fields))
        h.event = fields[0]
        h.segment = fields[1]
        h.scoring = fields[2]
        try:
            h.first = int(fields[3])
        except ValueError:
            h.first = None
            self.cur.diag("PS212", f"vugraph header: unreadable first board {fields[3][:20]!r}; "
                          "rs results cannot be matched to boards", line)
        h.teams = f"{fields[5]} - {fields[7]}" if fields[5] or fields[7] else ""
        self.header = h

    def _deal(self, b: _Board, value: str, line: int) -> None:
        v = value.strip()
        b.deal_line = line
        b.tags["md"] = v[:200]
        if not v:
            b.diag("PS203", "empty md: no deal", line)
            return
        body = v
        ch = v[0]
        if ch.isdigit():
            body = v[1:]
            b.dealer = _DEALER_OF.get(ch)
            if b.dealer is None:
                b.diag("PS202", f"md: unknown dealer digit {ch!r} (1=S 2=W 3=N 4=E)", line)
        else:
            b.diag("PS202", "md: no dealer digit (1=S 2=W 3=N 4=E)", line)
        parts = body.split(",")
        if len(parts) > 4:
            if any(p.strip() for p in parts[4:]):
                b.diag("PS203", f"md: more than four hands; extra text {','.join(parts[4:])[:40]!r} ignored", line)
            parts = parts[:4]
        hands: list[int | None] = [None, None, None, None]
        for pos, text in enumerate(parts):
            text = text.strip()
            if not text:
                continue
            seat = _MD_SEATS[pos]
            mask, problem = _parse_lin_hand(text)
            if problem is not None and mask == 0:
                b.diag("PS203", f"md: hand {'SWNE'[pos]} {text[:30]!r} unreadable ({problem}); left unknown", line)
                continue
            if problem is not None:
                b.diag("PS204", f"md: hand {'SWNE'[pos]}: {problem}", line)
            hands[seat] = mask
        known = [(s, m) for s, m in enumerate(hands) if m is not None]
        if not known:
            b.diag("PS203", "md: no readable hand", line)
            return
        seen = 0
        dup = 0
        counts = {}
        for s, m in known:
            dup |= seen & m
            seen |= m
            counts[s] = m.bit_count()
        if dup:
            b.diag("PS204", f"md: {holding_str(dup)} in two hands", line)
        over = [s for s, c in counts.items() if c > 13]
        if over:
            b.diag("PS204", "md: " + ", ".join(f"{'NESW'[s]} has {counts[s]} cards" for s in over), line)
        if len(known) == 3 and not dup and all(c == 13 for c in counts.values()):
            missing = next(s for s in range(4) if hands[s] is None)
            hands[missing] = FULL_DECK ^ seen
        elif len(known) == 4:
            if not dup and not over and seen != FULL_DECK:
                b.diag("PS205", "md: incomplete deal (" + ", ".join(
                    f"{'NESW'[s]} {counts[s]}" for s in range(4)) + " cards); recorded as given", line)
        elif not dup and not over:
            b.diag("PS205", "md: incomplete deal (" + ", ".join(
                f"{'NESW'[s]} {counts[s]}" for s in counts) + " cards; "
                f"{4 - len(known)} hand(s) not given); recorded as given", line)
        b.hands = tuple(hands)
        # seat of every card (None: not placed, or in two hands)
        owner: list[int | None] = [None] * 52
        r13 = _RANKS13
        for s in range(4):
            m = hands[s]
            if m is None:
                continue
            m &= ~dup
            for base in (0, 13, 26, 39):
                for r in r13[m >> base & 0x1FFF]:
                    owner[base + r] = s
        b.owner = owner


def read_lin(stream: BinaryIO, source: str) -> Iterator[BoardRecord]:
    """Read every board of a LIN file; never raises for any bytes (problems become diagnostics).

    Yields one ``BoardRecord`` per board, in file order, as soon as the board is complete."""
    r = _Reader(source)
    lineno = 0
    pending = ""  # the open (not yet |-terminated) segment
    pend_line = 1  # line where the open segment's text starts
    expect_key = True
    key = ""
    key_line = 0
    fallback = False
    seg_cut = False  # the open segment was cut at MAX_VALUE
    # problems found in the text between pairs (stray text, undecodable or over-long lines) go to
    # the board that the next pair belongs to - the one that follows a garbage line, not the one
    # before it
    deferred: list[tuple[str, str, int]] = []
    try:
        for raw, cut in iter_lines(stream):
            lineno += 1
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError:
                text = raw.decode("cp1252", errors="replace")
                if not fallback:
                    fallback = True
                    deferred.append(("PS002", "text is not UTF-8; decoded as cp1252", lineno))
            if cut:
                deferred.append(("PS005", "line too long; cut at the limit (the rest of the line "
                                 "was skipped)", lineno))
            if seg_cut and "|" not in text:
                continue  # still inside an over-long segment: nothing more of it is kept
            segs = text.split("|")
            if seg_cut:
                seg_line = pend_line
                segs[0] = pending  # the kept part of the over-long segment
            elif pending:
                seg_line = pend_line if pending.strip() else lineno
                segs[0] = pending + "\n" + segs[0]
            else:
                seg_line = lineno
            last = segs.pop()
            for seg in segs:
                if expect_key:
                    k = _KEY_OF.get(seg)
                    if k is not None:  # the usual case: a plain two-letter key
                        key = k
                        key_line = seg_line = lineno
                        expect_key = False
                        continue
                    k = seg.strip()
                    if len(k) == 2 and k.isalpha():
                        key = k.lower()
                    elif len(k) > 2 and k[-3] == "\n" and k[-2:].isalpha():
                        # text, then a key at the start of a line (teaching files, a garbage line)
                        key = k[-2:].lower()
                        deferred.append(("PS201", "text outside key|value pairs skipped: "
                                         f"{k[:-2].strip()[:40]!r}", seg_line))
                    else:
                        # not a key: skip this text and take the next segment as the key
                        # (resynchronises after a stray '|', e.g. inside a comment)
                        if k:
                            deferred.append(("PS201", f"text outside key|value pairs skipped: {k[:40]!r}",
                                             seg_line))
                        seg_line = lineno
                        continue
                    key_line = lineno
                    expect_key = False
                else:
                    expect_key = True
                    if key == "pc":
                        # fast path for the commonest pair: a readable card, board under way
                        b = r.cur
                        card = _CARD_OF.get(seg)
                        if card is not None and b.play_line is not None and b.items < MAX_ITEMS:
                            b.items += 1
                            owner = b.owner
                            b.plays.append(Play(None if owner is None else owner[card], card, (),
                                                key_line, None))
                            if deferred:
                                _attach(b, deferred)
                            seg_line = lineno
                            continue
                    elif key not in _HANDLED:
                        if deferred:
                            _attach(r.cur, deferred)
                        seg_line = lineno
                        continue
                    try:
                        r.pair(key, seg, key_line)
                    except Exception as exc:  # never lose the file over one bad pair
                        r.cur.diag("PS211", f"internal error reading {key}|{seg[:20]!r}|: {exc!r}", key_line)
                    if deferred:
                        _attach(r.cur, deferred)
                    if r.out:
                        yield from r.out
                        r.out.clear()
                seg_line = lineno
            seg_cut = False
            if len(last) > MAX_VALUE:
                if expect_key:
                    deferred.append(("PS201", f"text outside key|value pairs skipped: {last.strip()[:40]!r}",
                                     lineno))
                else:
                    deferred.append(("PS210", f"{key} value longer than {MAX_VALUE} characters; cut",
                                     lineno))
                last = last[:MAX_VALUE]
                seg_cut = True
            if segs or not pending.strip():
                pend_line = lineno  # the open segment starts on this line
            pending = last
    except Exception as exc:  # the stream itself failed (I/O error); keep what was read
        deferred.append(("PS001", f"file could not be read to the end: {exc!r}", lineno))
    tail = pending.strip()
    if not expect_key:
        deferred.append(("PS004", f"file ends inside the {key} value (no closing '|'); the pair was "
                         "dropped", lineno))
    elif tail:
        if len(tail) <= 2 and tail.isalpha():
            deferred.append(("PS004", f"file ends inside a key ({tail!r}, no closing '|')", lineno))
        else:
            deferred.append(("PS201", f"text outside key|value pairs skipped: {tail[:40]!r}", pend_line))
    try:
        _attach(r.cur, deferred)
        r.flush(lineno + 1, final=True)
    except Exception as exc:  # pragma: no cover - finish() already guards
        r.out.append(BoardRecord(source=source, line=lineno, game=r.game + 1, format="lin",
                                 diagnostics=(Diagnostic("PS211", f"internal error: {exc!r}", source, lineno),),
                                 unreadable=True))
    yield from r.out


def _attach(b: _Board, deferred: list[tuple[str, str, int]]) -> None:
    for code, message, line in deferred:
        b.diag(code, message, line, once=code in ("PS201", "PS210"))
    deferred.clear()


# ---------------------------------------------------------------------------------------------
# writer


def _lin_hand(mask: int | None) -> str:
    if mask is None:
        return ""
    out = []
    for s in range(4):
        out.append(SUITS[s])
        out.append("".join(RANKS[r] for r in range(12, -1, -1) if mask >> (s * 13 + r) & 1))
    return "".join(out)


def _lin_call(call: str) -> str:
    if call == "P":
        return "p"
    if call == "X":
        return "d"
    if call == "XX":
        return "r"
    return call.replace("NT", "N")


def format_lin(record: BoardRecord) -> str:
    """A single-deal LIN line (pn, qx, md, sv, ah, mb, pc, mc) for ``record``; ends with a newline.

    The deal is written as S, W, N hands with East omitted when it is the other 39 cards' complement
    (as BBO does); otherwise every known hand is written and unknown ones are left empty.  Alert
    marks, explanations and commentary are not kept in a ``BoardRecord``, so they are not written."""
    parts: list[str] = []
    n, e, s, w = record.names
    parts.append(f"pn|{s},{w},{n},{e}|st||")
    if record.room in ("open", "closed") and record.board:
        parts.append(f"qx|{record.room[0]}{record.board}|")
    if record.hands is not None:
        hands = record.hands
        dealer = _LIN_DEALER.get(record.dealer, "") if record.dealer is not None else ""
        swn = ",".join(_lin_hand(hands[seat]) for seat in (SOUTH, WEST, NORTH))
        s, w, n, e = hands[SOUTH], hands[WEST], hands[NORTH], hands[EAST]
        derivable = (None not in (s, w, n, e) and s.bit_count() == w.bit_count() == n.bit_count() == 13
                     and (s | w | n).bit_count() == 39 and e == FULL_DECK ^ (s | w | n))
        east = "" if derivable else _lin_hand(e)
        parts.append(f"md|{dealer}{swn},{east}|rh||")
    if record.board:
        parts.append(f"ah|Board {record.board}|")
    if record.vul is not None:
        parts.append(f"sv|{_LIN_VUL.get(record.vul, 'o')}|")
    for call in record.auction:
        parts.append(f"mb|{_lin_call(call)}|")
    if record.play:
        parts.append("pg||")
    for i, p in enumerate(record.play):
        card = "" if p.card is None else SUITS[p.card // 13] + RANKS[p.card % 13]
        parts.append(f"pc|{card}|")
        if i % 4 == 3:
            parts.append("pg||")
    if record.claim is not None:
        parts.append(f"mc|{record.claim}|")
    return "".join(parts) + "\n"
