"""The cards' own measure of a revoke's cost (``ruling.equity._settled_cost``): the search
that only looks for a line giving another number (``Search.differs``) against the measure it
replaced, which worked out each card's whole range (``Search.range``), on random revoke
positions and budgets from tiny to the real one - the same answer every time, settled or not,
and the same "not settled" when the budget runs out."""
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from revoke_audit.core.cards import SUIT_MASKS
from revoke_audit.replay.by_cards import RangeUnknown, Search, lines_disagree
from revoke_audit.ruling import equity


def _whole_ranges(trump, seat, suit_led, card, hands, leader, before, budget):
    """The measure as it was: every card's whole range, one search over all of them, None as
    soon as two numbers are seen or the budget runs out."""
    follows = [c for c in range(52) if hands[seat] >> c & 1 and c // 13 == suit_led]
    if lines_disagree(trump, 1 - seat % 2, seat, hands, leader, before, (follows, [card])):
        return None
    search = Search(trump, 1 - seat % 2, budget)
    got = []
    try:
        for cards in (follows, [card]):
            seen = set()
            for played in cards:
                after = list(hands)
                after[seat] &= ~(1 << played)
                seen.update(search.range(tuple(after), leader, before + (played,)))
                if len(seen) > 1:
                    return None
            got.append(seen)
    except RangeUnknown:
        return None
    return next(iter(got[0])), next(iter(got[1]))


def _revoke_position(seed: int):
    """A random position just before a revoke: ``tricks`` cards each, the leader's card and
    any before the offender's played legally, the offender holding the suit led and another
    card (the one he revokes with)."""
    rnd = random.Random(seed)
    while True:
        tricks = rnd.choice((2, 3, 4, 5, 6))
        deck = rnd.sample(range(52), 4 * tricks)
        hands = [sum(1 << c for c in deck[s::4]) for s in range(4)]
        leader, place = rnd.randrange(4), rnd.randrange(1, 4)
        before = []
        for i in range(place):
            seat = (leader + i) % 4
            legal = hands[seat] & SUIT_MASKS[before[0] // 13] if before else hands[seat]
            legal = legal or hands[seat]
            card = rnd.choice([c for c in range(52) if legal >> c & 1])
            hands[seat] &= ~(1 << card)
            before.append(card)
        seat, suit_led = (leader + place) % 4, before[0] // 13
        others = [c for c in range(52) if hands[seat] >> c & 1 and c // 13 != suit_led]
        if hands[seat] & SUIT_MASKS[suit_led] and others:
            return (rnd.choice((None, 0, 1, 2, 3)), seat, suit_led, rnd.choice(others),
                    tuple(hands), leader, tuple(before))


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from((1, 10, 60, 300, equity.CARDS_BUDGET)))
def test_the_cost_by_the_cards_is_what_the_whole_ranges_gave(seed, budget):
    position = _revoke_position(seed)
    saved = equity.CARDS_BUDGET
    equity.CARDS_BUDGET = budget
    try:
        got = equity._settled_cost.__wrapped__(*position)
    finally:
        equity.CARDS_BUDGET = saved
    assert got == _whole_ranges(*position, budget)


def test_the_random_positions_reach_every_outcome():
    """The comparison above is no comparison of Nones: over these positions the measure is
    settled on some, unsettled by two plain lines on others, and unsettled only by the search
    (the plain lines agree, a line found by the search does not) on others."""
    settled = by_lines = by_search = 0
    for seed in range(300):
        position = _revoke_position(seed)
        trump, seat, suit_led, card, hands, leader, before = position
        follows = [c for c in range(52) if hands[seat] >> c & 1 and c // 13 == suit_led]
        plain = lines_disagree(trump, 1 - seat % 2, seat, hands, leader, before,
                               (follows, [card]))
        got = equity._settled_cost.__wrapped__(*position)
        settled += got is not None
        by_lines += plain
        by_search += got is None and not plain
    assert settled and by_lines and by_search
