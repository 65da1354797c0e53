"""Law 64C decided for a board (``decide_64c``) and a board's findings with their figures
(``assess``): the revoke's own cost, by the cards where they settle it, else double dummy
(``equity``'s measures), against what the rectification gives back."""
from __future__ import annotations

from dataclasses import dataclass, field, replace

from ..core.cards import card_str, seat_name, side_name
from ..core.findings import Finding, tricks as trick_count
from ..laws.common import ADJUSTED_64C, NO_DAMAGE, NOT_ASSESSED
from ..replay import Replay, RevokeFact
from ..replay.model import FOLLOW
from .equity import (BoardEquity, OwnCost, _position, _several_cap, board_equity,
                     cost_by_cards, equity_tricks, follow_options)

@dataclass(frozen=True)
class Decision:
    """Law 64C decided for a board: ``ruling`` (``laws.common``'s NO_DAMAGE, ADJUSTED_64C or
    NOT_ASSESSED), declarer's tricks under it (the automatic result when there is no damage;
    the result the Director assigns when there is), and the words that say why - the
    revoke's own cost and how it was measured.  ``by_revoke``: the words for each established
    revoke's paragraph, keyed by (trick, seat, card), each quoting that revoke's own figures;
    ``words`` are the first revoke's."""

    ruling: str
    tricks: int | None
    words: str
    by_revoke: dict = field(default_factory=dict)


def decide_64c(rp: Replay, board: BoardEquity | None, played: int | None,
               adjusted: int | None) -> Decision:
    """Law 64C for a board whose established revokes ``board`` measures: each revoke's own
    cost to the non-offending side, from its own position - by the cards where they settle it
    (``cost_by_cards``), else double dummy following suit against the card played, no more
    than the record shows lost (``OwnCost.damage``: said when that is less) - against what the
    rectification gives back; the difference, if any, is the 64C adjustment.  Several revokes
    by one side (64C2(a)): the sum of their own costs, never more than the par from the first
    revoke (or a later one: ``_several_cap``) against the record shows lost.  Both sides
    revoked: the par as though neither had
    (64C2(b)).  64C only adds to the rectification (Law 12B2: never less than the automatic
    result)."""
    if adjusted is None:  # the position is known; the result to weigh the damage against not
        done = len(rp.complete_tricks)
        return Decision(NOT_ASSESSED, None, "64C: not assessed (the result is not known from "
                        f"the record: it stops after trick {done} with no claim, and no Result "
                        "the cards allow, so the damage cannot be weighed against it)")
    if board is None:
        first = min((f.trick for f in rp.revokes), default=0)
        if rp.stopped_at is not None or any(t.unknown for t in rp.tricks[:first]):
            return Decision(NOT_ASSESSED, None, "64C: not assessed (the position at the revoke "
                            "is not known from the record)")
        return Decision(NOT_ASSESSED, None, "64C: not assessed (no double-dummy figure for the "
                        "revoke position)")
    if board.both_sides:
        if board.tricks == adjusted:
            return Decision(NO_DAMAGE, adjusted, "both sides revoked (64C2(b)): as though "
                            f"neither had, double dummy gives declarer {board.tricks}, the "
                            "result as ruled: 64C: no damage, the result stands")
        return Decision(ADJUSTED_64C, board.tricks, "both sides revoked: as though neither "
                        f"had, double dummy gives declarer {board.tricks}: 64C2(b)")
    first, nos = board.first, side_name(board.first.seat + 1)
    several = len(board.own) > 1
    measured = [_own_words(rp, own, played, several) for own in board.own]
    if measured[0][0] is None:
        return Decision(NOT_ASSESSED, None, "64C: not assessed (the solver gave no figure "
                        "for the revoke position)")
    cost, together = measured[0][0], ""
    if several:
        total = sum(c or 0 for c, _w in measured)
        cap = _several_cap(rp, board.own, played)
        cost = min(total, cap)
        capped = (f", no more than the record (declarer {played}) shows lost against the par "
                  f"from any one of them: {trick_count(cap)}" if cap < total else "")
        together = (f"; the {len(measured)} revokes together cost {nos} {trick_count(cost)} "
                    f"(64C2(a): the sum of their own costs{capped})")
    due = cost - board.given
    if due <= 0:
        back = f"; the rectification gives back {trick_count(board.given)}" if board.given else ""
        ruling, tricks, tail = NO_DAMAGE, adjusted, f"{back}: 64C: no damage, the result stands"
    else:
        toward_declarer = first.seat % 2 != rp.declarer % 2
        tricks = max(0, min(13, adjusted + due if toward_declarer else adjusted - due))
        back = (f"the rectification gives back {trick_count(board.given)}" if board.given
                else "no automatic transfer gives any back")
        ruling, tail = ADJUSTED_64C, f"; {back}: 64C: {nos} are due {trick_count(due)} more"
    by_revoke = {(o.fact.trick, o.fact.seat, o.fact.card): f"{w}{together}{tail}"
                 for o, (_c, w) in zip(board.own, measured)}
    return Decision(ruling, tricks, f"{measured[0][1]}{together}{tail}", by_revoke)


def _own_words(rp: Replay, own: OwnCost, played: int | None,
               several: bool) -> tuple[int | None, str]:
    """One revoke's own cost to the non-offending side and how it was measured, in words:
    by the cards where they settle it, else double dummy (``OwnCost.damage``); None and
    "not assessed" when neither is known."""
    fact, nos = own.fact, side_name(own.fact.seat + 1)
    which = f"the revoke on trick {fact.trick}" if several else "the revoke"
    settled = cost_by_cards(rp, fact)
    if settled is not None:
        cost = max(0, settled[0] - settled[1])
        how = (f"by the cards: from trick {fact.trick} on, every legal play gives {nos} "
               f"{settled[0]} had he followed suit, {settled[1]} after his {card_str(fact.card)}")
    elif own.damage is not None and own.cost is not None:
        cost = own.damage
        how = f"double dummy from trick {fact.trick}, {_dd_words(own, played)}"
    else:
        return None, (f"{which}'s own cost not assessed (the solver gave no figure for its "
                      "position)")
    said = f"{which} itself cost {nos} {trick_count(cost)}" if cost else \
        f"{which} itself cost {nos} nothing"
    return cost, f"{said} ({how})"


def _dd_words(own: OwnCost, played: int | None) -> str:
    """The double-dummy measure of one revoke in figures, saying when the record caps it."""
    nos = side_name(own.fact.seat + 1)
    dd = max(0, own.cost.tricks)
    words = (f"following suit against the card played: {nos} {trick_count(dd)} worse off; "
             f"{own.tricks} for declarer had he followed")
    if own.damage is not None and own.damage < dd:
        words += (f"; the record shows {nos} losing {trick_count(own.damage)} against that "
                  f"(declarer {played}), so {trick_count(own.damage)} counted")
    return words


# --- a board's findings with their figures ---------------------------------------------------

@dataclass(frozen=True)
class Assessment:
    """The ruled findings with each revoke's ``equity_tricks`` filled in (and EQ001 added when
    a Law 64C review is due), and the board's figures for boards.csv."""

    findings: list[Finding]
    tricks: int | None = None
    review: bool | None = None
    decision: Decision | None = None  # Law 64C decided (None: no established revoke)


def assess(rp: Replay, findings: list[Finding], played: int | None, adjusted: int | None,
           has_64c: bool) -> Assessment:
    """Each revoke finding gets its own estimate (double dummy had that offender followed
    suit); the board gets one as if no revoke had happened, and EQ001 when the revoke cost the
    non-offending side more than the rectification applied gives back (Law 64C; with both
    sides revoked, any difference: 64C2(b)).  ``played``: declarer's tricks the ruling starts
    from; ``adjusted``: after it."""
    facts = {(f.trick, f.seat, f.card): f for f in rp.revokes}
    established, out, solved = [], [], {}
    for finding in findings:
        fact = facts.get((finding.trick, finding.seat, finding.card))
        if finding.code.startswith("RV") and fact is not None:
            if finding.established:
                established.append(fact)
            if fact.kind == FOLLOW:  # a log's duty (61A2, 61A3) is no failure to follow
                solved[fact] = follow_options(rp, fact)
                eq = equity_tricks(rp, fact, solved[fact])
                if eq is not None:
                    finding = replace(finding, equity_tricks=eq)
        out.append(finding)
    given = _given_back(rp, established, played, adjusted)
    board = board_equity(rp, established, played, adjusted, given, has_64c, solved)
    decision = None
    if established and has_64c and any(f.kind == FOLLOW for f in established):
        decision = decide_64c(rp, board, played, adjusted)
    if board is None:
        return Assessment(out, decision=decision)
    if board.review:
        out.append(_review_finding(rp, board, adjusted))
    return Assessment(out, board.tricks, board.review, decision)


def _given_back(rp: Replay, facts: list[RevokeFact], played: int | None,
                adjusted: int | None) -> int:
    """Tricks the ruling applied moves to the side the first revoke wronged (transfers and a
    62D correction alike)."""
    if not facts or played is None or adjusted is None:
        return 0
    first = min(facts, key=lambda f: (f.trick, _position(rp, f)))
    gain = adjusted - played if first.seat % 2 != rp.declarer % 2 else played - adjusted
    return max(0, gain)


def _review_finding(rp: Replay, board: BoardEquity, adjusted: int | None) -> Finding:
    """EQ001: the figures a Director needs for Law 64C, in words."""
    first = board.first
    if board.both_sides:
        revokes = [f for f in rp.revokes if f.trick >= first.trick]
        who = ", ".join(f"{seat_name(f.seat)} on trick {f.trick}" for f in revokes)
        text = (f"had none of the revokes happened ({who}), double-dummy play gives declarer "
                f"{trick_count(board.tricks)} against {adjusted} after the adjustment: both "
                "sides revoked, so the Director assigns an adjusted score (64C2(b))")
    else:
        back = (f"the rectification gives back {trick_count(board.given)}" if board.given
                else "no automatic transfer gives it back")
        text = (f"{_cost_words(rp, board)}; {back}: the non-offending side may be due more "
                "(Law 64C)")
    return Finding("EQ001", text, first.line, law="64C", trick=first.trick, seat=first.seat,
                   equity_tricks=board.tricks)


def _cost_words(rp: Replay, board: BoardEquity) -> str:
    """"following suit with H2, trick 10 would still have been South's; the revoke cost
    North-South 3 tricks (...)"."""
    first, cost = board.first, board.cost
    nos = side_name(first.seat + 1)
    actual = rp.tricks[first.trick - 1].winner
    then = cost.winner_then if cost is not None else None
    if then is None:
        trick = ""
    elif actual is not None and then % 2 != actual % 2:
        trick = (f"following suit with {card_str(cost.follow)}, {seat_name(first.seat)} would "
                 f"have let trick {first.trick} go to {seat_name(then)}: it would have been "
                 f"{nos}'s; ")
    else:
        trick = (f"following suit with {card_str(cost.follow)}, trick {first.trick} would still "
                 f"have been {seat_name(then)}'s; ")
    if len(board.own) > 1:
        each = ", ".join(f"trick {o.fact.trick} {trick_count(o.damage or 0)}" for o in board.own)
        return (f"{trick}the {len(board.own)} revokes cost {nos} "
                f"{trick_count(board.damage or 0)} (64C2(a): each double dummy from its own "
                f"trick, following suit against the card played, no more than the record shows "
                f"lost: {each}; together no more than the record shows lost against the par "
                f"from any one of them)")
    return (f"{trick}the revoke cost {nos} {trick_count(board.damage or 0)} (double dummy from "
            f"trick {first.trick}, following suit against the card played, and no more than the "
            f"record shows lost: {trick_count(board.tricks)} for declarer had he followed)")
