"""Parsers of LIN values: ``md`` (the deal), ``mb`` (calls) and ``pc`` (cards).

``md|3SAKQ..HJT9..D..C..,S..,S..,|``: a dealer digit (1=S 2=W 3=N 4=E), then the hands of
South, West, North and East; a hand left empty is unknown, and East (or any one hand) is filled
in when the other three are complete.  Suits are ``SHDC`` in either case, ranks any order.
``mb`` holds one call or several packed (``1nppp``), ``!`` marking an alert; ``pc`` one card,
suit then rank in either case (``cK``, ``SA``, ``h10``)."""
from __future__ import annotations

import re
from typing import Callable, NamedTuple

from ...core.auction import normalise_call
from ...core.cards import (EAST, FULL_DECK, NORTH, RANKS, SEATS, SOUTH, SUITS, WEST, holding_str,
                     make_card)

Diag = Callable[[str, str, int], None]  # a problem: code, message, line

_DEALER_OF = {"1": SOUTH, "2": WEST, "3": NORTH, "4": EAST}  # LIN dealer digit -> seat
_MD_SEATS = (SOUTH, WEST, NORTH, EAST)  # LIN hand order S, W, N, E -> seats

# md hand characters: suit letters and ranks in either case
_SUIT_CH = {ch: i for i, ch in enumerate(SUITS)}
_SUIT_CH.update({ch.lower(): i for ch, i in list(_SUIT_CH.items())})
_RANK_CH = {ch: i for i, ch in enumerate(RANKS)}
_RANK_CH.update({ch.lower(): i for ch, i in list(_RANK_CH.items())})

_HAND_SHAPE = re.compile(
    r"[Ss]([^SHDCshdc]*)[Hh]([^SHDCshdc]*)[Dd]([^SHDCshdc]*)[Cc]([^SHDCshdc]*)")
_HOLDING: dict[str, int] = {}  # rank text of one suit -> 13-bit mask (only clean holdings)
_RANKS13: tuple[tuple[int, ...], ...] = ()  # 13-bit mask -> its ranks, made on first use

# pc tokens: suit then rank, either case (``cK``, ``SA``, ``h10``)
CARD_OF: dict[str, int] = {}
for _s, _sch in enumerate(SUITS):
    for _r, _rch in enumerate(RANKS):
        for _a in (_sch, _sch.lower()):
            for _b in ({_rch, _rch.lower()} | ({"10"} if _rch == "T" else set())):
                CARD_OF[_a + _b] = make_card(_s, _r)

# mb values: one call, or several packed (``1nppp``); ``!`` = alerted
_CALL_TOKEN = re.compile(r"\s*([1-7]\s*(?:NT|[CDHSN])|P|D|R|XX|X)\s*!?", re.IGNORECASE)
_CALL_CACHE: dict[str, tuple[str, ...] | None] = {}


def parse_calls(value: str) -> tuple[str, ...] | None:
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


class Deal(NamedTuple):
    """What an ``md`` value gives: the dealer and the hands (each None when not readable), and
    the seat of every card (None: not placed, or in two hands)."""

    dealer: int | None
    hands: tuple[int | None, ...] | None
    owner: list[int | None] | None


def read_md(value: str, line: int, diag: Diag) -> Deal:
    """An ``md`` value read; its problems go to ``diag(code, message, line)``."""
    dealer, hands, dup = _read_deal(value, line, diag)
    if hands is None:
        return Deal(dealer, None, None)
    return Deal(dealer, hands, _owners(hands, dup))


def read_md_hands(value: str, line: int, diag: Diag) -> tuple[int | None, tuple | None]:
    """``read_md`` without the seat of every card: (dealer, hands)."""
    return _read_deal(value, line, diag)[:2]


def _read_deal(value: str, line: int, diag: Diag) -> tuple[int | None, tuple | None, int]:
    """(dealer, hands, the cards in two hands) of an ``md`` value, as ``read_md`` reads it."""
    v = value.strip()
    if not v:
        diag("PS203", "empty md: no deal", line)
        return None, None, 0
    dealer, body = _dealer_digit(v, line, diag)
    hands = _hands(body, line, diag)
    known = [(s, m) for s, m in enumerate(hands) if m is not None]
    if not known:
        diag("PS203", "md: no readable hand", line)
        return dealer, None, 0
    dup = _check_deal(hands, known, line, diag)
    return dealer, tuple(hands), dup


def _dealer_digit(v: str, line: int, diag: Diag) -> tuple[int | None, str]:
    """The dealer from the leading digit (PS202 when missing or unknown), and the rest."""
    ch = v[0]
    if not ch.isdigit():
        diag("PS202", "md: no dealer digit (1=S 2=W 3=N 4=E)", line)
        return None, v
    dealer = _DEALER_OF.get(ch)
    if dealer is None:
        diag("PS202", f"md: unknown dealer digit {ch!r} (1=S 2=W 3=N 4=E)", line)
    return dealer, v[1:]


def _hands(body: str, line: int, diag: Diag) -> list[int | None]:
    """The hands given (by seat; None when empty or unreadable, PS203; PS204 duplicates)."""
    parts = body.split(",")
    if len(parts) > 4:
        if any(p.strip() for p in parts[4:]):
            diag("PS203", "md: more than four hands; extra text "
                   f"{','.join(parts[4:])[:40]!r} ignored", line)
        parts = parts[:4]
    hands: list[int | None] = [None, None, None, None]
    for pos, text in enumerate(parts):
        text = text.strip()
        if not text:
            continue
        mask, problem = _parse_lin_hand(text)
        if problem is not None and mask == 0:
            diag("PS203", f"md: hand {SEATS[_MD_SEATS[pos]]} {text[:30]!r} unreadable ({problem}); "
                   "left unknown", line)
            continue
        if problem is not None:
            diag("PS204", f"md: hand {SEATS[_MD_SEATS[pos]]}: {problem}", line)
        hands[_MD_SEATS[pos]] = mask
    return hands


def _check_deal(hands: list[int | None], known: list[tuple[int, int]], line: int,
                diag: Diag) -> int:
    """Cards in two hands and hands over 13 (PS204), an incomplete deal (PS205); fills in the
    fourth hand when three are complete.  Returns the mask of the cards in two hands."""
    seen = 0
    dup = 0
    counts = {}
    for s, m in known:
        dup |= seen & m
        seen |= m
        counts[s] = m.bit_count()
    if dup:
        diag("PS204", f"md: {holding_str(dup)} in two hands", line)
    over = [s for s, c in counts.items() if c > 13]
    if over:
        diag("PS204", "md: " + ", ".join(f"{SEATS[s]} has {counts[s]} cards" for s in over),
               line)
    if len(known) == 3 and not dup and all(c == 13 for c in counts.values()):
        missing = next(s for s in range(4) if hands[s] is None)
        hands[missing] = FULL_DECK ^ seen
    elif len(known) == 4:
        if not dup and not over and seen != FULL_DECK:
            diag("PS205", "md: incomplete deal (" + ", ".join(
                f"{SEATS[s]} {counts[s]}" for s in range(4)) + " cards); recorded as given", line)
    elif not dup and not over:
        diag("PS205", "md: incomplete deal (" + ", ".join(
            f"{SEATS[s]} {counts[s]}" for s in counts) + " cards; "
            f"{4 - len(known)} hand{'' if 4 - len(known) == 1 else 's'} not given); recorded as "
            "given", line)
    return dup


def _owners(hands: list[int | None], dup: int) -> list[int | None]:
    """Seat of every card (None: not placed, or in two hands)."""
    global _RANKS13
    owner: list[int | None] = [None] * 52
    r13 = _RANKS13
    if not r13:  # made here, not at import: a run of plain boards never needs it
        r13 = _RANKS13 = tuple(tuple(r for r in range(13) if v >> r & 1) for v in range(1 << 13))
    for s in range(4):
        m = hands[s]
        if m is None:
            continue
        m &= ~dup
        for base in (0, 13, 26, 39):
            for r in r13[m >> base & 0x1FFF]:
                owner[base + r] = s
    return owner


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
    """Any other hand text: ``10`` for T, spaces, suits in any order; problems reported."""
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
