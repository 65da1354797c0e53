"""Table look-ups for the plain Deal and Play values of the PBN reader's fast path.

``fast_deal`` reads a Deal written the usual way by holding look-ups; ``fast_play`` reads Play
tokens that are all cards written ``SA`` and puts them in time order.  Each returns None the
moment anything is unusual, and ``build`` then uses the lenient readers (``cards.parse_deal``,
``sections.read_play``), which also say what is wrong.  ``ENABLED = False`` turns the whole
fast path off (this module and ``fast``); the tests compare both ways."""
from __future__ import annotations

import re

from ...core.cards import FULL_DECK, RANKS, SEATS, SUITS
from ...core.record import Play

ENABLED = True

_DEAL = re.compile(r'([NESW]):(\S+) (\S+) (\S+) (\S+)\Z')
# a card token written the usual way ("SA", "HT") -> card; nothing else
CARD_OF = {SUITS[s] + RANKS[r]: s * 13 + r for s in range(4) for r in range(13)}
_RANK_BIT = {ch: 1 << i for i, ch in enumerate(RANKS)}
_holdings: dict[str, int] = {"": 0}  # a suit's ranks written high to low -> 13-bit mask
_ROTATIONS = tuple(tuple((first + i) % 4 for i in range(4)) for first in range(4))


# --- Deal ----------------------------------------------------------------------------------------

def fast_deal(value: str) -> tuple[int, int, int, int] | None:
    """``N:AKQ.JT9.876.5432 ...`` -> masks by seat, when it is a valid deal written the usual
    way (upper-case ranks high to low, four known hands); else None."""
    m = _DEAL.match(value) if ENABLED else None
    if m is None:
        return None
    first = SEATS.index(m.group(1))
    hands = [0, 0, 0, 0]
    for i in range(4):
        mask = _hand(m.group(i + 2))
        if mask is None or mask.bit_count() != 13:
            return None
        hands[(first + i) % 4] = mask
    n, e, s, w = hands
    if n | e | s | w != FULL_DECK:
        return None  # a card in two hands (then one is missing)
    return n, e, s, w


def _hand(text: str) -> int | None:
    parts = text.split(".")
    if len(parts) != 4:
        return None
    mask = 0
    for suit, part in enumerate(parts):
        bits = _holdings.get(part)
        if bits is None:
            bits = _holding(part)
            if bits is None:
                return None
        mask |= bits << (13 * suit)
    return mask


def _holding(text: str) -> int | None:
    """Ranks high to low, each once (``AKT2``) -> mask, remembered; None otherwise."""
    bits = 0
    last = 1 << 13
    for ch in text:
        bit = _RANK_BIT.get(ch)
        if bit is None or bit >= last:
            return None
        bits |= bit
        last = bit
    _holdings[text] = bits
    return bits


# --- Play ----------------------------------------------------------------------------------------

def fast_play(tokens: list[tuple[str, int]], leader0: int | None,
              trump: int | None | bool) -> tuple[tuple[Play, ...], bool] | None:
    """Play tokens -> (plays in time order, stopped by ``*``) when every token up to an
    optional ``*`` is a card written ``SA`` or ``-`` (unknown), there are at most 52 and the
    trump and first seat are known; else None."""
    if leader0 is None or trump is False or not ENABLED:
        return None
    if not tokens:
        return (), False
    toks, lines = zip(*tokens)
    cards = list(map(CARD_OF.get, toks))
    stopped = False
    if None in cards:
        for i, c in enumerate(cards):
            if c is None and toks[i] != "-":
                if toks[i] != "*":
                    return None
                cards, stopped = cards[:i], True
                break
    if len(cards) > 52:
        return None
    return _time_order(cards, lines, leader0, trump), stopped


def _time_order(cards: list[int | None], lines: tuple[int, ...], leader0: int,
                trump: int | None) -> tuple[Play, ...]:
    """Seat columns -> time order, each trick led by the winner of the one before (Law 44:
    the highest card of the suit led, or of the trump suit when one was played).  After a
    trick with an unknown card the winner is unknown: later tricks keep column order."""
    out: list[Play] = []
    add, new = out.append, tuple.__new__  # Play(...) without its Python-level __new__
    n = len(cards)
    seat_of = _ROTATIONS[leader0]  # column -> seat
    start = 0  # the column of the trick's leader
    for base in range(0, n, 4):
        width = min(4, n - base)
        trick = base // 4 + 1
        if width < 4 or None in cards[base:base + 4]:
            for col in _ROTATIONS[start]:  # leader first, the columns the trick has
                if col < width:
                    add(new(Play, (seat_of[col], cards[base + col], (), lines[base + col], trick)))
            _column_order(cards, lines, base + 4, seat_of, add)
            break
        win = start
        best = cards[base + start]
        for col in _ROTATIONS[start]:
            k = base + col
            c = cards[k]
            add(new(Play, (seat_of[col], c, (), lines[k], trick)))
            if c // 13 == best // 13:
                if c > best:
                    win, best = col, c
            elif c // 13 == trump:
                win, best = col, c
        start = win
    return tuple(out)


def _column_order(cards: list[int | None], lines: tuple[int, ...], first: int,
                  seat_of: tuple[int, ...], add) -> None:
    """The cards from index ``first`` on, in column order (no leader known)."""
    new = tuple.__new__
    for k in range(first, len(cards)):
        add(new(Play, (seat_of[k % 4], cards[k], (), lines[k], k // 4 + 1)))
