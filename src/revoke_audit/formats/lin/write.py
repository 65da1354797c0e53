"""LIN writer: one ``BoardRecord`` -> one single-deal LIN line."""
from __future__ import annotations

from ...core.cards import EAST, FULL_DECK, NORTH, RANKS, SOUTH, SUITS, WEST
from ...core.record import BoardRecord

_LIN_DEALER = {SOUTH: "1", WEST: "2", NORTH: "3", EAST: "4"}
_LIN_VUL = {"None": "o", "NS": "n", "EW": "e", "All": "b"}


def lin_hand(mask: int | None) -> str:
    """A hand as ``S..H..D..C..`` with ranks high to low; "" when unknown."""
    if mask is None:
        return ""
    out = []
    for s in range(4):
        out.append(SUITS[s])
        out.append("".join(RANKS[r] for r in range(12, -1, -1) if mask >> (s * 13 + r) & 1))
    return "".join(out)


def _lin_call(call: str) -> str:
    """A normalised call as ``mb`` writes it (p, d, r, 1N)."""
    if call == "P":
        return "p"
    if call == "X":
        return "d"
    if call == "XX":
        return "r"
    return call.replace("NT", "N")


def _md(record: BoardRecord) -> str:
    """The ``md`` pair: dealer digit, then S, W, N (and E unless it is the rest of the deck)."""
    hands = record.hands
    dealer = _LIN_DEALER.get(record.dealer, "") if record.dealer is not None else ""
    swn = ",".join(lin_hand(hands[seat]) for seat in (SOUTH, WEST, NORTH))
    s, w, n, e = hands[SOUTH], hands[WEST], hands[NORTH], hands[EAST]
    derivable = (None not in (s, w, n, e) and s.bit_count() == w.bit_count() == n.bit_count() == 13
                 and (s | w | n).bit_count() == 39 and e == FULL_DECK ^ (s | w | n))
    east = "" if derivable else lin_hand(e)
    return f"md|{dealer}{swn},{east}|rh||"


def format_lin(record: BoardRecord) -> str:
    """A single-deal LIN line (pn, qx, md, sv, ah, mb, pc, mc) for ``record``; ends with a newline.

    The deal is written as S, W, N hands with East omitted when it is the other 39 cards'
    complement (as BBO does); otherwise every known hand is written and unknown ones are left
    empty.  Alert marks, explanations and commentary are not kept in a ``BoardRecord``, so they
    are not written."""
    parts: list[str] = []
    n, e, s, w = record.names
    parts.append(f"pn|{s},{w},{n},{e}|st||")
    if record.room in ("open", "closed") and record.board:
        parts.append(f"qx|{record.room[0]}{record.board}|")
    if record.hands is not None:
        parts.append(_md(record))
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
