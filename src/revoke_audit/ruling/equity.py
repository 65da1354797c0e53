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

import threading
from dataclasses import dataclass
from functools import lru_cache

from ._endplay import solve

from ..core.cards import Card, Hand, Seat, count, winning_index
from ..replay import Replay, RevokeFact
from ..replay.by_cards import RangeUnknown, Search, lines_disagree, played_counts
from ..replay.model import FOLLOW

#: Positions the cards' own measure of a revoke's cost may visit (then double dummy decides).
CARDS_BUDGET = 2_000


#: DDS keeps state between calls: two threads solving at once (a Dask worker runs tasks in
#: threads) get wrong answers or none, so one call at a time per process.
_SOLVER = threading.Lock()


#: A position for the solver: the hands left, the leader of the trick begun, the strain
#: (0 spades .. 3 clubs, 4 notrump) and the cards of that trick (out of the hands).
Position = tuple[tuple[Hand, ...], Seat, int, tuple[Card, ...]]


def solve_board(position: Position) -> list[tuple[Card, int]]:
    """DDS's best card only (one card that takes the most tricks for the side on play, with
    that count: its cheapest mode), one call at a time (``_endplay.solve``), each position
    solved once a process (``_solved``)."""
    return list(_solved(position))


@lru_cache(maxsize=1024)
def _solved(position: Position) -> tuple[tuple[Card, int], ...]:
    """``solve_board`` of one position, kept: a record read twice in a run (the corpus has
    whole files twice: 52 of its 176 solver calls) asks DDS once.  DDS's answer is a function
    of the position (a new deal starts from fresh tables), so the same figures either way."""
    with _SOLVER:
        return tuple(solve(*position))


def follow_options(rp: Replay, fact: RevokeFact) -> list | None:
    """The solver's answer at the offender's turn: each card of the suit led he could have
    played, with the tricks his side then takes; None when the position is not known (a
    defective trick, a card not recorded, a replay that stopped early).  One solver call, which
    ``equity_tricks`` and ``revoke_cost`` share (``assess`` makes it once per revoke)."""
    position = _deal_before(rp, fact)
    return None if position is None else solve_board(position)


def equity_tricks(rp: Replay, fact: RevokeFact, options: list | None = None) -> int | None:
    """Declarer's double-dummy tricks had the offender followed suit at ``fact.trick``;
    None when the position is not known.  ``options``: ``follow_options``, when made already."""
    options = follow_options(rp, fact) if options is None else options
    if not options:
        return None
    t = fact.trick
    best = max(tricks for _card, tricks in options)
    remaining = 13 - (t - 1)
    declarer_side_later = best if fact.seat % 2 == rp.declarer % 2 else remaining - best
    return _won_before(rp, t) + declarer_side_later


def _won_before(rp: Replay, t: int) -> int:
    return sum(1 for x in rp.tricks[:t - 1] if x.winner is not None and x.winner % 2 == rp.declarer % 2)


def _deal_before(rp: Replay, fact: RevokeFact) -> Position | None:
    """The position just before the offender's card, for the solver."""
    before = _cards_before(rp, fact)
    if before is None:
        return None
    hands, leader = tuple(rp.hands_at[fact.trick - 1]), rp.tricks[fact.trick - 1].leader
    position: Position = (hands, leader, rp.strain, ())
    for card in before:
        position = _played(position, card)
    return position


@dataclass(frozen=True)
class RevokeCost:
    """What one revoke itself cost the non-offending side (Law 64C), double dummy from the same
    position: their tricks from the revoke trick on had the offender followed suit (with the
    card best for his side, ``follow``) less their tricks after the card he played.  Both
    figures credit both sides with perfect play from that moment, so a misplay of theirs later
    in the real play - which 64C does not redress - does not count, unlike a par from the
    revoke point (``equity_tricks``)."""

    tricks: int  # > 0: the revoke cost the non-offending side this many; <= 0: nothing
    follow: int  # the card he would have followed with
    winner_then: int | None  # who would have won the revoke trick, the other cards as played


def revoke_cost(rp: Replay, fact: RevokeFact, options: list | None = None
                ) -> RevokeCost | None:
    """Law 64C's measure of one revoke (``RevokeCost``); None when the position is not known.
    ``options``: ``follow_options``, when made already."""
    position = _deal_before(rp, fact)
    if position is None:
        return None
    os_side, left = fact.seat % 2, 14 - fact.trick
    options = solve_board(position) if options is None else options
    if not options:
        return None
    follow, os_follow = max(options, key=lambda o: o[1])
    os_revoke = _side_tricks(_played(position, fact.card), os_side, left)
    return RevokeCost(os_revoke - os_follow, follow, _winner_with(rp, fact, follow))


def _played(position: Position, card: Card) -> Position:
    """``position`` after ``card`` (the player on turn's): added to the trick, or, when it ends
    the trick, the trick's winner (Law 44) on lead to the next, none of it begun."""
    hands, leader, strain, trick = position
    seat = (leader + len(trick)) % 4
    if not hands[seat] >> card & 1:  # refused as endplay's ``Deal.play`` refused it (EQ002)
        raise RuntimeError("Trying to play card not in hand")
    hands = hands[:seat] + (hands[seat] & ~(1 << card),) + hands[seat + 1:]
    trick += (card,)
    if len(trick) < 4:
        return hands, leader, strain, trick
    trump = None if strain == 4 else strain
    return hands, (leader + winning_index(list(trick), trump)) % 4, strain, ()


def _side_tricks(position: Position, side: int, left: int) -> int:
    """Tricks ``side`` takes, double dummy, of the ``left`` tricks from the current one (the
    current one already complete when no card of the next has been played)."""
    _hands, leader, _strain, trick = position
    if not trick:  # the revoke card ended the trick: its winner leads
        done = 1 if leader % 2 == side else 0
        best = max(t for _c, t in solve_board(position))
        mine = best if leader % 2 == side else left - 1 - best
        return done + mine
    best = max(t for _c, t in solve_board(position))
    return best if (leader + len(trick)) % 2 == side else left - best


def _winner_with(rp: Replay, fact: RevokeFact, card: int) -> int | None:
    """Who wins the revoke trick with ``card`` in place of the revoke card, the other cards as
    recorded; None when a card of it is not recorded."""
    trick = rp.tricks[fact.trick - 1]
    order = [(trick.leader + i) % 4 for i in range(4)]
    cards = [card if s == fact.seat else trick.card_of(s) for s in order]
    if None in cards:
        return None
    return order[winning_index(cards, rp.trump)]


def exchanged_cost(rp: Replay, fact: RevokeFact, follow: int) -> int | None:
    """The other measure tried for Law 64C (not used for ``review_64c``; see docs/guides/revoke-explained.md): the
    revoke trick decided again with ``follow`` in place of the revoke card, and the trick where
    the offender played ``follow`` given the revoke card instead, every recorded trick keeping
    its leader and its other cards; the non-offending side's tricks lost, counted over the
    recorded tricks.  It keeps the real play, but once a trick's winner changes the recorded
    leads no longer follow from the play."""
    if any(t.winner is None or t.unknown or t.omitted for t in rp.tricks[fact.trick - 1:]):
        return None
    nos = 1 - fact.seat % 2
    lost = 0
    for t in rp.tricks[fact.trick - 1:]:
        order = [(t.leader + i) % 4 for i in range(4)]
        cards = [t.card_of(s) for s in order]
        if None in cards:
            return None
        swapped = [follow if (c == fact.card and s == fact.seat) else
                   fact.card if (c == follow and s == fact.seat) else c
                   for s, c in zip(order, cards)]
        now = order[winning_index(swapped, rp.trump)] % 2 == nos
        was = t.winner % 2 == nos
        lost += now - was
    return lost


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
class OwnCost:
    """One established revoke's own figures, from its own position: declarer's double-dummy
    tricks had that offender followed suit (``tricks``), the double-dummy cost against the card
    played (``cost``) and that cost bounded by what the record shows lost against ``tricks``
    (``damage``); None where the position is not known."""

    fact: RevokeFact
    tricks: int | None
    cost: RevokeCost | None
    damage: int | None


@dataclass(frozen=True)
class BoardEquity:
    """The board's 64C figures: declarer's double-dummy tricks had no revoke happened (the par,
    ``tricks_equity``), what the revokes themselves cost the non-offending side (``damage``),
    and whether that is more than the rectification gives back (None when the code has no 64C
    or the figures are not known).  ``own``: each established revoke's own figures, in order
    of play; ``cost`` is the first's."""

    tricks: int
    review: bool | None
    first: RevokeFact
    both_sides: bool
    damage: int | None = None
    cost: RevokeCost | None = None
    given: int = 0
    own: tuple[OwnCost, ...] = ()


def board_equity(rp: Replay, facts: list[RevokeFact], played: int | None,
                 adjusted: int | None, given: int = 0, has_64c: bool = True,
                 solved: dict | None = None) -> BoardEquity | None:
    """Equity as if none of ``facts`` (the established revokes) had happened - the par from the
    first of them - and Law 64C's review.  Each revoke's own cost to the non-offending side is
    measured from its own position, the smaller of two estimates, so that neither side's later
    play is credited to it: double dummy following suit against the card played
    (``revoke_cost``: no credit for a misplay by either side afterwards), and the par from that
    revoke against the tricks the record gives (no credit for a trick the offenders failed to
    take).  Several revokes by one side (Law 64C2(a): the Director redresses the damage of
    each, a repeat under 64B2 included): the damage is the sum of their own costs, never more
    than the record shows lost against a par from one of the revokes (``_several_cap``).
    Review when the damage
    exceeds ``given``, the tricks the rectification applied gives back (none after the round);
    with both sides revoked, whenever the par differs from the adjusted result (64C2(b))."""
    if not facts or any(f.kind != FOLLOW for f in facts):
        return None  # a log's duty (61A2, 61A3) has no "card of the suit led" to put back
    ordered = sorted(facts, key=lambda f: (f.trick, _position(rp, f)))
    first = ordered[0]
    solved = solved or {}
    own = tuple(_own_cost(rp, f, played, solved.get(f)) for f in ordered)
    tricks = own[0].tricks
    if tricks is None:
        return None
    both = len({f.seat % 2 for f in facts}) == 2
    damage = own[0].damage
    if len(own) > 1 and damage is not None:
        damage = min(sum(o.damage or 0 for o in own), _several_cap(rp, own, played))
    review = None
    if has_64c and adjusted is not None:
        review = tricks != adjusted if both else (damage is not None and damage > given)
    return BoardEquity(tricks, review, first, both, damage, own[0].cost, given, own)


def _by_par(rp: Replay, fact: RevokeFact, tricks: int, played: int | None) -> int:
    """Tricks the record shows the non-offending side losing against ``tricks``, declarer's
    par had ``fact``'s offender followed suit (none when the tricks played are not known)."""
    if played is None:
        return 0
    nos_declares = fact.seat % 2 != rp.declarer % 2
    return max(0, tricks - played if nos_declares else played - tricks)


def _several_cap(rp: Replay, own: tuple[OwnCost, ...], played: int | None) -> int:
    """The most several revokes of one side may cost together (Law 64C2(a)): what the record
    shows the non-offending side losing against the par from the first revoke - or from a
    later one, where that par is lower for them: a trick they gained after the first revoke
    (declarer's misplay, their good defence) that a later revoke took back is that later
    revoke's damage, which the par from the first cannot see."""
    return max(_by_par(rp, o.fact, o.tricks, played) for o in own if o.tricks is not None)


def _own_cost(rp: Replay, fact: RevokeFact, played: int | None,
              options: list | None) -> OwnCost:
    """One revoke's own figures (``OwnCost``), from its own position."""
    options = options if options is not None else follow_options(rp, fact)
    tricks = equity_tricks(rp, fact, options)
    if tricks is None:
        return OwnCost(fact, None, None, None)
    cost = revoke_cost(rp, fact, options)
    damage = None
    if cost is not None and played is not None:
        damage = max(0, min(cost.tricks, _by_par(rp, fact, tricks, played)))
    return OwnCost(fact, tricks, cost, damage)


def _position(rp: Replay, fact: RevokeFact) -> int:
    """Where in its trick the revoke was played (0 = the lead)."""
    return (fact.seat - rp.tricks[fact.trick - 1].leader) % 4


def cost_by_cards(rp: Replay, fact: RevokeFact) -> tuple[int, int] | None:
    """(the non-offending side's tricks from the revoke trick on had the offender followed
    suit, and after the card he played) when the cards settle both: every card of the suit led
    he held, and every legal play after it or after his revoke card, gives them the same
    number (Laws 44C, 44G) - no assumption of best play, so no misplay of theirs later is
    counted.  None when they do not, or the position is not known."""
    before = _cards_before(rp, fact)
    if before is None:
        return None
    trick = rp.tricks[fact.trick - 1]
    hands = list(rp.hands_at[fact.trick - 1])
    order = [(trick.leader + i) % 4 for i in range(4)]
    for s, c in zip(order, before):
        hands[s] &= ~(1 << c)
    return _settled_cost(rp.trump, fact.seat, fact.suit_led, fact.card, tuple(hands),
                         trick.leader, tuple(before))


@lru_cache(maxsize=256)
def _settled_cost(trump: int | None, seat: int, suit_led: int, card: int,
                  hands: tuple[int, ...], leader: int, before: tuple[int, ...]
                  ) -> tuple[int, int] | None:
    """``cost_by_cards`` of one position: pure, so a board ruled again (its slip's other
    reading, another edition or discovery) asks the search once; a few hundred kept.  Where
    the plain lines agree, the search looks only for a line that gives another number
    (``Search.differs``): it stops at the first, and decides as the whole range would."""
    side = 1 - seat % 2
    follows = [c for c in range(52) if hands[seat] >> c & 1 and c // 13 == suit_led]
    if lines_disagree(trump, side, seat, hands, leader, before, (follows, [card])):
        return None  # two plain lines prove it unsettled: no search (most revoke boards)
    search = Search(trump, side, CARDS_BUDGET)
    got: list[int] = []
    try:
        for cards in (follows, [card]):
            value = -1
            for played in cards:
                after = hands[:seat] + (hands[seat] & ~(1 << played),) + hands[seat + 1:]
                started = before + (played,)
                if value < 0:  # what every plain line gives (``lines_disagree``: they agree)
                    value = min(played_counts(after, leader, started, trump, side))
                if search.differs(after, leader, started, value):
                    return None  # a line gives another number: stop there, not the whole range
            got.append(value)
    except RangeUnknown:
        return None
    return got[0], got[1]


def __getattr__(name: str):
    """The 64C decision's names, moved to ``law64c``, still found here."""
    if name in ("Assessment", "Decision", "assess", "decide_64c"):
        from . import law64c
        return getattr(law64c, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
