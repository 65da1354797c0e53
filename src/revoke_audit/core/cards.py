"""Seats, suits, ranks and cards as small ints; hands as 52-bit masks.

A card is ``suit * 13 + rank`` where ``suit`` indexes ``SUITS`` ("SHDC") and ``rank`` runs
0 (the two) .. 12 (the ace).  A hand is an int with bit ``card`` set for every card held, so
"does West still hold a heart" is ``hand & SUIT_MASKS[HEARTS]`` - no per-card objects on the
hot path.  Seats are 0..3 clockwise from North (``SEATS`` = "NESW").
"""
from __future__ import annotations

from typing import Iterable, Iterator, TypeAlias

#: What an int stands for, in signatures: ``Seat`` 0..3 (N, E, S, W), ``Suit`` 0..3 (S, H, D,
#: C; a strain adds 4 = notrump), ``Card`` 0..51 (``suit * 13 + rank``), ``Hand`` a 52-bit mask.
Seat: TypeAlias = int
Suit: TypeAlias = int
Card: TypeAlias = int
Hand: TypeAlias = int

SEATS = "NESW"
SEAT_NAMES = ("North", "East", "South", "West")
NORTH, EAST, SOUTH, WEST = range(4)
SUITS = "SHDC"
SPADES, HEARTS, DIAMONDS, CLUBS = range(4)
STRAINS = ("S", "H", "D", "C", "NT")
NOTRUMP = 4
RANKS = "23456789TJQKA"
FULL_DECK = (1 << 52) - 1
SUIT_MASKS = tuple(0x1FFF << (13 * s) for s in range(4))

_RANK_OF = {ch: i for i, ch in enumerate(RANKS)}
_RANK_OF.update({ch.lower(): i for ch, i in list(_RANK_OF.items())})
_RANK_OF["10"] = _RANK_OF["T"]
_RANK_OF["1"] = _RANK_OF["T"]  # some writers drop the 0 of "10" inside a hand
_SUIT_OF = {ch: i for i, ch in enumerate(SUITS)}
_SUIT_OF.update({ch.lower(): i for ch, i in list(_SUIT_OF.items())})
_SEAT_OF = {ch: i for i, ch in enumerate(SEATS)}
_SEAT_OF.update({ch.lower(): i for ch, i in list(_SEAT_OF.items())})


def make_card(suit: Suit, rank: int) -> Card:
    """Card int from a suit index (0=S..3=C) and a rank index (0=two..12=ace)."""
    return suit * 13 + rank


#: Each card's name (``SA``, ``HT``, ``C2``), by card int: made once, read where names are many.
CARD_NAMES = tuple(SUITS[card // 13] + RANKS[card % 13] for card in range(52))


def card_str(card: Card | None) -> str:
    """``SA``, ``HT``, ``C2``; ``-`` for an unknown card."""
    if card is None:
        return "-"
    return CARD_NAMES[card]


def parse_seat(text: str) -> Seat | None:
    """``N``/``E``/``S``/``W`` in either case (also the full word), else None."""
    text = text.strip()
    if not text:
        return None
    seat = _SEAT_OF.get(text[0])
    if seat is None or (len(text) > 1 and text.lower() not in ("north", "east", "south", "west")):
        return None
    return seat


def parse_card(token: str) -> Card | None:
    """One card token in any spelling real files use, else None.

    Suit first (``SA``, ``sa``, ``S10``, LIN ``cK``) or rank first (``AS``, ``10h``).
    """
    t = token.strip()
    if len(t) < 2 or len(t) > 3:
        return None
    if t[0] in _SUIT_OF:
        suit, rank = _SUIT_OF[t[0]], t[1:]
        if rank in _RANK_OF and rank != "1":
            return make_card(suit, _RANK_OF[rank])
    if t[-1] in _SUIT_OF:
        suit, rank = _SUIT_OF[t[-1]], t[:-1]
        if rank in _RANK_OF and rank != "1":
            return make_card(suit, _RANK_OF[rank])
    return None


def parse_suit_holding(suit: Suit, text: str) -> tuple[Hand, list[str]] | None:
    """Ranks of one suit (``AKQ``, ``a10 9``, ``kq1032`` ...) as a mask; None if unreadable.

    Returns the mask and a list of complaints (duplicate ranks)."""
    mask = 0
    problems: list[str] = []
    i, t = 0, text.replace(" ", "")
    while i < len(t):
        if t.startswith("10", i):
            rank, i = _RANK_OF["T"], i + 2
        elif t[i] in _RANK_OF and t[i] != "1":
            rank, i = _RANK_OF[t[i]], i + 1
        else:
            return None
        bit = 1 << make_card(suit, rank)
        if mask & bit:
            problems.append(f"{SUITS[suit]}{RANKS[rank]} twice in one hand")
        mask |= bit
    return mask, problems


def parse_hand(text: str) -> tuple[Hand, list[str]] | None:
    """A PBN hand ``AKQ.JT9.876.5432`` (suits S.H.D.C; empty suits allowed) as a mask.

    Extra dots beyond the fourth are tolerated when the extra parts are empty."""
    parts = text.strip().split(".")
    while len(parts) > 4 and parts[-1] == "":
        parts.pop()
    if len(parts) != 4:
        return None
    mask, problems = 0, []
    for suit, part in enumerate(parts):
        got = parse_suit_holding(suit, part)
        if got is None:
            return None
        mask |= got[0]
        problems += got[1]
    return mask, problems


def hand_str(mask: Hand) -> str:
    """Mask -> ``AKQ.JT9.876.5432`` (ranks high to low)."""
    return ".".join(
        "".join(RANKS[r] for r in range(12, -1, -1) if mask >> make_card(s, r) & 1)
        for s in range(4)
    )


def cards_in(mask: Hand) -> Iterator[Card]:
    """The cards of a mask, lowest int first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def mask_of(cards: Iterable[Card]) -> Hand:
    mask = 0
    for c in cards:
        mask |= 1 << c
    return mask


def count(mask: Hand) -> int:
    return bin(mask).count("1")


def holding_str(mask: Hand) -> str:
    """The cards of a mask as ``SK S7`` (high first within each suit)."""
    return " ".join(card_str(c) for c in sorted(cards_in(mask), key=lambda c: (c // 13, -c)))


def trick_winner(leader: Seat, cards: tuple[Card, ...] | list[Card], trump: Suit | None) -> Seat:
    """Seat winning a trick of four known cards played by ``leader``, ``leader+1``, ... in order.

    ``trump`` is a suit index or None for no trump (Law 44D/E)."""
    return (leader + winning_index(cards, trump)) % 4


def winning_index(cards: list[Card], trump: Suit | None) -> int:
    """Index in ``cards`` (time order, first = lead) of the winning card."""
    best_i, best = 0, cards[0]
    for i in range(1, len(cards)):
        c = cards[i]
        if c // 13 == best // 13:
            if c > best:
                best_i, best = i, c
        elif c // 13 == trump:
            best_i, best = i, c
    return best_i


def parse_deal(text: str) -> tuple[tuple[Hand | None, ...], list[str]] | None:
    """A PBN Deal value ``N:hand hand hand hand`` -> masks indexed by seat (None = unknown).

    Hands run clockwise from the named seat; ``-`` is an unknown hand.  Returns None when the
    value cannot be read at all; otherwise the hands and complaints (wrong counts, duplicates)."""
    text = text.strip()
    first = NORTH
    if len(text) >= 2 and text[1] == ":":
        seat = parse_seat(text[0])
        if seat is None:
            return None
        first, text = seat, text[2:]
    parts = text.split()
    if len(parts) != 4:
        return None
    hands: list[int | None] = [None] * 4
    problems: list[str] = []
    for i, part in enumerate(parts):
        seat = (first + i) % 4
        if part == "-":
            continue
        got = parse_hand(part)
        if got is None:
            return None
        hands[seat] = got[0]
        problems += [f"{SEATS[seat]}: {p}" for p in got[1]]
    problems += deal_problems(tuple(hands))
    return tuple(hands), problems


def deal_problems(hands: tuple[Hand | None, ...]) -> list[str]:
    """Complaints about a deal: hands not of 13 cards, cards in two hands."""
    problems = []
    seen = 0
    for seat, mask in enumerate(hands):
        if mask is None:
            continue
        n = count(mask)
        if n != 13:
            problems.append(f"{SEATS[seat]} has {n} cards")
        dup = seen & mask
        if dup:
            problems.append(f"{holding_str(dup)} in two hands")
        seen |= mask
    return problems


def deal_str(hands: tuple[Hand | None, ...], first: Seat = NORTH) -> str:
    """Masks -> PBN Deal value starting at ``first``."""
    parts = []
    for i in range(4):
        h = hands[(first + i) % 4]
        parts.append("-" if h is None else hand_str(h))
    return SEATS[first] + ":" + " ".join(parts)


def seat_name(seat: Seat | None) -> str:
    """``North`` .. ``West``; ``?`` when the seat is unknown."""
    return SEAT_NAMES[seat] if seat is not None else "?"


def side_name(seat: Seat) -> str:
    """``North-South`` or ``East-West``: the side ``seat`` belongs to."""
    return "North-South" if seat % 2 == 0 else "East-West"
