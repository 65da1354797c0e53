"""One card on the table, one trick won: the steps every shape of record takes (``tricks``,
``unrecorded``).

``play_card`` puts a card on the table from its player's hand (a bitmask), records a failure to
follow suit while holding the suit led (Law 61A / 44C) and stops the replay at a card its player
does not hold (RC010/RC011); ``close_trick`` finds the winner (Law 44); the opening lead comes
from declarer's left-hand opponent (Law 41A, RC012).  Its layer: replay; it imports core and
``model``."""
from __future__ import annotations

from ..core.cards import SUIT_MASKS, SUITS, card_str, seat_name, winning_index
from ..core.findings import role_of
from ..core.record import Play
from .model import Replay, RevokeFact, Trick


def play_card(r: Replay, hands: list[int], trick: Trick, seat: int, p: Play,
              judge: bool = True) -> bool:
    """Play ``p`` for ``seat``; record a failure to follow suit (unless ``judge`` is False: the
    lead is not recorded).  False when the replay must stop."""
    bit = 1 << p.card
    if not hands[seat] & bit:
        holder = next((s for s in range(4) if hands[s] & bit), None)
        if holder is None:
            r.add("RC011", f"trick {trick.number}: {card_str(p.card)} is played twice", p.line,
                  trick=trick.number, seat=seat, card=p.card)
        else:
            r.add("RC010", f"trick {trick.number}: {seat_name(seat)} plays {card_str(p.card)}, "
                  f"which is in {seat_name(holder)}'s hand", p.line, trick=trick.number,
                  seat=seat, card=p.card, role=role_of(seat, r.declarer))
        r.stopped_at = trick.number
        return False
    if not judge:
        pass
    elif trick.plays:
        led = trick.suit_led
        held = hands[seat] & SUIT_MASKS[led]
        if p.card // 13 != led and held:
            r.revokes.append(RevokeFact(trick.number, seat, p.card, led, held, p.line, "R" in p.marks))
        elif "R" in p.marks:
            _unsupported_mark(r, trick, seat, p, led)
    elif "R" in p.marks:
        _unsupported_mark(r, trick, seat, p, None)
    hands[seat] &= ~bit
    trick.plays.append((seat, p.card, p.line))
    return True


def _unsupported_mark(r: Replay, trick: Trick, seat: int, p: Play, led: int | None) -> None:
    why = ("it is the lead" if led is None else
           "it follows suit" if p.card // 13 == led else
           f"{seat_name(seat)} held no {SUITS[led]} card")
    r.add("RC030", f"trick {trick.number}: {card_str(p.card)} is marked ^R but is no revoke: {why}",
          p.line, trick=trick.number, seat=seat, card=p.card, role=role_of(seat, r.declarer))


def close_trick(r: Replay, trick: Trick) -> None:
    """Find the trick's winner among the cards played to it (Law 44)."""
    trick.winner = trick.plays[winning_index([c for _, c, _ in trick.plays], r.trump)][0]


def _check_opening_leader(r: Replay, leader: int | None, line: int) -> None:
    """The opening lead is made by the player on declarer's left (Law 41A) - RC012."""
    if leader is None or r.declarer is None:
        return
    proper = (r.declarer + 1) % 4
    if leader != proper:
        why = " (the record marks declarer and dummy as swapped, ^N)" if r.record.declarer_swapped else ""
        r.add("RC012", f"opening lead from {seat_name(leader)}, but declarer {seat_name(r.declarer)}'s "
              f"left-hand opponent is {seat_name(proper)}{why}", line, trick=1, seat=leader)
