"""Double-dummy estimates for Law 64C (redress of damage), with endplay's DDS solver.

Law 64C lets the Director give the non-offending side more than the automatic transfer when
the revoke cost them more.  The tool cannot judge, but it can estimate: from the position just
before the revoke card, the offender is made to follow suit (he picks his best card of the suit
led) and both sides play on double dummy.  Declarer's tricks before the revoke trick count as
played.  Only boards with a revoke reach the solver.
"""
from __future__ import annotations

from endplay.dds import solve_board
from endplay.types import Card, Deal, Denom, Player

from .cards import card_str, deal_str
from .replay import Replay, RevokeFact


def equity_tricks(rp: Replay, fact: RevokeFact) -> int | None:
    """Declarer's double-dummy tricks had the offender followed suit at ``fact.trick``;
    None when the position is not known (a defective trick, a replay that stopped early)."""
    t = fact.trick
    if rp.strain is None or rp.declarer is None or len(rp.hands_at) < t:
        return None
    trick = rp.tricks[t - 1]
    if trick.omitted:
        return None
    before = []
    for seat, card, _ in trick.plays:
        if seat == fact.seat:
            break
        before.append(card)
    deal = Deal(deal_str(rp.hands_at[t - 1]))
    deal.first = Player(trick.leader)
    deal.trump = Denom(rp.strain)
    for card in before:
        deal.play(Card(card_str(card)))
    best = max(tricks for _card, tricks in solve_board(deal))
    side = fact.seat % 2
    remaining = 13 - (t - 1)
    won_before = sum(1 for x in rp.tricks[:t - 1] if x.winner is not None and x.winner % 2 == rp.declarer % 2)
    declarer_side_later = best if side == rp.declarer % 2 else remaining - best
    return won_before + declarer_side_later


def nos_better_off(rp: Replay, fact: RevokeFact, equity: int, adjusted: int) -> bool:
    """Would the non-offending side do better with the equity result than the adjusted one?"""
    offender_is_declarer_side = fact.seat % 2 == rp.declarer % 2
    return equity < adjusted if offender_is_declarer_side else equity > adjusted
