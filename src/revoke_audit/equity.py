"""Double-dummy estimates for Law 64C (redress of damage), with endplay's DDS solver.

Law 64C lets the Director give the non-offending side more than the automatic transfer when
the revoke cost them more.  The tool cannot judge, but it can estimate: from the position just
before the revoke card, the offender is made to follow suit (he picks his best card of the suit
led) and both sides play on double dummy.  Declarer's tricks before the revoke trick count as
played.  Only boards with a revoke reach the solver.

For the board (``board_equity``) the estimate is "as if no revoke had happened" (64C2(b) when
both sides revoked, 64C2(a) for repeated revokes): from the first revoke on, every offender
follows suit with his best card and play goes on double dummy - which is the estimate from the
first revoke, since double-dummy play never revokes.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from endplay.dds import solve_board
from endplay.types import Card, Deal, Denom, Player

from .cards import card_str, count, deal_str, seat_name
from .findings import Finding, tricks as trick_count
from .replay import Replay, RevokeFact
from .replay.model import FOLLOW


def equity_tricks(rp: Replay, fact: RevokeFact) -> int | None:
    """Declarer's double-dummy tricks had the offender followed suit at ``fact.trick``;
    None when the position is not known (a defective trick, a card not recorded, a replay that
    stopped early)."""
    before = _cards_before(rp, fact)
    if before is None:
        return None
    t = fact.trick
    trick = rp.tricks[t - 1]
    deal = Deal(deal_str(rp.hands_at[t - 1]))
    deal.first = Player(trick.leader)
    deal.trump = Denom(rp.strain)
    for card in before:
        deal.play(Card(card_str(card)))
    best = max(tricks for _card, tricks in solve_board(deal))
    remaining = 13 - (t - 1)
    won_before = sum(1 for x in rp.tricks[:t - 1]
                     if x.winner is not None and x.winner % 2 == rp.declarer % 2)
    declarer_side_later = best if fact.seat % 2 == rp.declarer % 2 else remaining - best
    return won_before + declarer_side_later


def _cards_before(rp: Replay, fact: RevokeFact) -> list[int] | None:
    """The cards played to the revoke trick before the offender's, when the position there
    is exactly known: the hands before the trick (each of the right size) and those cards."""
    t = fact.trick
    if rp.strain is None or rp.declarer is None or not rp.hands_known(t) or len(rp.tricks) < t:
        return None
    if any(count(h) != 14 - t for h in rp.hands_at[t - 1]):
        return None  # a card omitted or doubled earlier (Law 67): not a position of play
    trick = rp.tricks[t - 1]
    order = [(trick.leader + i) % 4 for i in range(4)]
    if trick.omitted or fact.seat not in order:
        return None
    before = [trick.card_of(s) for s in order[:order.index(fact.seat)]]
    return None if None in before else before


@dataclass(frozen=True)
class BoardEquity:
    """The board's 64C figures: declarer's double-dummy tricks had no revoke happened, and
    whether that gives the non-offending side more than the automatic adjustment (None when
    the code has no 64C)."""

    tricks: int
    review: bool | None
    first: RevokeFact
    both_sides: bool


def board_equity(rp: Replay, facts: list[RevokeFact], adjusted: int | None,
                 has_64c: bool = True) -> BoardEquity | None:
    """Equity as if none of ``facts`` (the established revokes) had happened: the estimate
    from the first of them.  None when there is none, or its position is not known."""
    if not facts or any(f.kind != FOLLOW for f in facts):
        return None  # a log's duty (61A2, 61A3) has no "card of the suit led" to put back
    first = min(facts, key=lambda f: (f.trick, _position(rp, f)))
    tricks = equity_tricks(rp, first)
    if tricks is None:
        return None
    sides = {f.seat % 2 for f in facts}
    both = len(sides) == 2
    review = None
    if has_64c and adjusted is not None:
        if both:  # 64C2(b): equity for both sides, whichever way it goes
            review = tricks != adjusted
        else:
            review = nos_better_off(rp, first, tricks, adjusted)
    return BoardEquity(tricks, review, first, both)


def _position(rp: Replay, fact: RevokeFact) -> int:
    """Where in its trick the revoke was played (0 = the lead)."""
    return (fact.seat - rp.tricks[fact.trick - 1].leader) % 4


def nos_better_off(rp: Replay, fact: RevokeFact, equity: int, adjusted: int) -> bool:
    """Would the non-offending side do better with the equity result than the adjusted one?"""
    offender_is_declarer_side = fact.seat % 2 == rp.declarer % 2
    return equity < adjusted if offender_is_declarer_side else equity > adjusted


# --- a board's findings with their figures ---------------------------------------------------

@dataclass(frozen=True)
class Assessment:
    """The ruled findings with each revoke's ``equity_tricks`` filled in (and EQ001 added when
    a Law 64C review is due), and the board's figures for boards.csv."""

    findings: list[Finding]
    tricks: int | None = None
    review: bool | None = None


def assess(rp: Replay, findings: list[Finding], adjusted: int | None,
           has_64c: bool) -> Assessment:
    """Each revoke finding gets its own estimate (double dummy had that offender followed
    suit); the board gets one as if no revoke had happened, and EQ001 when that gives the
    non-offending side more than the automatic result (Law 64C; with both sides revoked, any
    difference: 64C2(b))."""
    facts = {(f.trick, f.seat, f.card): f for f in rp.revokes}
    established, out = [], []
    for finding in findings:
        fact = facts.get((finding.trick, finding.seat, finding.card))
        if finding.code.startswith("RV") and fact is not None:
            if finding.established:
                established.append(fact)
            if fact.kind == FOLLOW:  # a log's duty (61A2, 61A3) is no failure to follow
                eq = equity_tricks(rp, fact)
                if eq is not None:
                    finding = replace(finding, equity_tricks=eq)
        out.append(finding)
    board = board_equity(rp, established, adjusted, has_64c)
    if board is None:
        return Assessment(out)
    if board.review:
        out.append(_review_finding(rp, board, adjusted))
    return Assessment(out, board.tricks, board.review)


def _review_finding(rp: Replay, board: BoardEquity, adjusted: int | None) -> Finding:
    """EQ001: the figures a Director needs for Law 64C, in one sentence."""
    first = board.first
    revokes = [f for f in rp.revokes if f.trick >= first.trick]
    if len(revokes) == 1:
        had = f"had {seat_name(first.seat)} followed suit on trick {first.trick}"
    else:
        who = ", ".join(f"{seat_name(f.seat)} on trick {f.trick}" for f in revokes)
        had = f"had none of the revokes happened ({who})"
    if board.both_sides:
        due = "both sides revoked, so the Director assigns an adjusted score (64C2(b))"
    else:
        due = "the non-offending side may be due more (Law 64C)"
    return Finding("EQ001", f"{had}, double-dummy play gives declarer {trick_count(board.tricks)} "
                   f"against {adjusted} after the automatic adjustment: {due}", first.line,
                   law="64C", trick=first.trick, seat=first.seat, equity_tricks=board.tricks)
