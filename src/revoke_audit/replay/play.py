"""One card on the table, one trick won: the steps every shape of record takes (``tricks``,
``unrecorded``).

``play_card`` puts a card on the table from its player's hand (a bitmask), stops the replay at a
card its player does not hold (RC010/RC011) and says whether the card fails to follow suit while
its player holds the suit led (Law 61A / 44C): the caller records that fact, once, as what it
knows of the player's hand allows; ``close_trick`` finds the winner (Law 44).  Its layer: replay; it
imports core and ``model``."""
from __future__ import annotations

from ..core.cards import SUIT_MASKS, SUITS, card_str, seat_name, winning_index
from ..core.record import Play
from .model import Replay, RevokeFact, Trick


def play_card(r: Replay, hands: list[int], trick: Trick, seat: int, p: Play,
              judge: bool = True) -> bool | RevokeFact:
    """Play ``p`` for ``seat``: False when the replay must stop; the ``RevokeFact`` when it
    fails to follow suit while ``seat`` holds the suit led (Law 61A1 / 44C), for the caller to
    record; else True.  ``judge`` False: the lead is not recorded, nothing is judged."""
    bit = 1 << p.card
    if not hands[seat] & bit:
        holder = next((s for s in range(4) if hands[s] & bit), None)
        if holder is None:
            r.add("RC011", f"trick {trick.number}: {card_str(p.card)} is played twice", p.line,
                  trick=trick.number, seat=seat, card=p.card)
        else:
            r.add("RC010", f"trick {trick.number}: {seat_name(seat)} plays {card_str(p.card)}, "
                  f"which is in {seat_name(holder)}'s hand", p.line, trick=trick.number,
                  seat=seat, card=p.card, role=r.roles[seat])
        r.stopped_at = trick.number
        return False
    fact: bool | RevokeFact = True
    if judge:
        led = trick.suit_led if trick.plays else None
        held = hands[seat] & SUIT_MASKS[led] if led is not None else 0
        if held and p.card // 13 != led:
            fact = RevokeFact(trick.number, seat, p.card, led, held, p.line, "R" in p.marks)
        elif "R" in p.marks:  # on the lead, a card that follows, or with no card of the suit led
            _unsupported_mark(r, trick, seat, p, led)
    hands[seat] &= ~bit
    trick.plays.append((seat, p.card, p.line))
    return fact


def _unsupported_mark(r: Replay, trick: Trick, seat: int, p: Play, led: int | None) -> None:
    why = ("it is the lead" if led is None else
           "it follows suit" if p.card // 13 == led else
           f"{seat_name(seat)} held no {SUITS[led]} card")
    r.add("RC030", f"trick {trick.number}: {card_str(p.card)} is marked ^R but is no revoke: {why}",
          p.line, trick=trick.number, seat=seat, card=p.card, role=r.roles[seat])


def close_trick(r: Replay, trick: Trick) -> None:
    """Find the trick's winner among the cards played to it (Law 44)."""
    trick.winner = trick.plays[winning_index([c for _, c, _ in trick.plays], r.trump)][0]

