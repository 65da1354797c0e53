"""A board's field in figures (``scoring.field``), every number worked out by hand."""
import pytest
from hypothesis import given
from hypothesis import strategies as st

from revoke_audit.scoring.field import (butler, cross_imps, datum, imps, matchpoints,
                                        mp_percentages, neuberg, ordinal, ranks, teams,
                                        weighted_datum, weighted_figures)


@pytest.mark.parametrize("difference, expected", [
    (0, 0), (10, 0), (20, 1), (40, 1), (50, 2), (80, 2), (90, 3), (420, 9), (430, 10),
    (620, 12), (-620, -12), (750, 13), (1990, 18), (3990, 23), (4000, 24), (7600, 24),
])
def test_the_wbf_imp_scale(difference, expected):
    assert imps(difference) == expected


def test_matchpoints_two_per_score_beaten_one_per_tie():
    # 450 beats all four (8); each 420 beats 170 and -50 (4) and ties the other (1): 5;
    # 170 beats -50 (2); -50 beats none.  Top 2 x (5 - 1) = 8.
    scores = [420, 420, 450, -50, 170]
    assert matchpoints(scores) == [5, 5, 8, 0, 2]
    assert mp_percentages(scores) == [62.5, 62.5, 100.0, 0.0, 25.0]


def test_neuberg_on_a_board_played_fewer_times():
    # four results in an event whose other boards were played five times: 450 has 6 of 6,
    # 420 has 3, -50 none; (MP + 1) x 5 / 4 - 1 gives 7.75, 4 and 0.25 of a top of 8.
    scores = [420, 420, 450, -50]
    assert neuberg(6, 4, 5) == 7.75
    assert mp_percentages(scores, largest=5) == [50.0, 50.0, 96.875, 3.125]
    assert mp_percentages(scores, largest=4) == [50.0, 50.0, 100.0, 0.0]  # no smaller field


def test_a_single_result_has_no_figures():
    assert mp_percentages([420]) is None
    assert cross_imps([420]) is None
    assert butler([420]) is None


def test_cross_imps_are_the_mean_against_every_other_result():
    # 420: -30 vs 450 (-1), +470 vs -50 (+10): 9 / 2; 450: +1 +11 = 12 / 2;
    # -50: -10 -11 = -21 / 2.  They sum to nothing.
    assert cross_imps([420, 450, -50]) == [4.5, 6.0, -10.5]


def test_butler_against_the_trimmed_mean_rounded_to_ten():
    # sorted -50 170 420 420 450; without top and bottom: 170 420 420, mean 336.67 -> 340.
    scores = [420, 450, -50, 170, 420]
    assert datum(scores) == 340
    assert butler(scores) == [2, 3, -9, -5, 2]  # +80, +110, -390, -170, +80
    # untrimmed: 1410 / 5 = 282 -> 280; 420 is +140: 4 IMPs
    assert datum(scores, trim=0) == 280
    assert butler(scores, trim=0)[0] == 4


def test_the_datum_rounds_a_half_up_and_trims_only_what_leaves_a_result():
    assert datum([330, 340]) == 340  # two results: nothing trimmed, 335 -> 340
    assert datum([-330, -340]) == -330  # -335 -> -330: a half up, towards N-S
    assert datum([100, 200, 900]) == 200  # the median of three


def test_teams_imps_both_rooms():
    # 4S vulnerable made in the open room (+620), one down in the closed (-100 for N-S):
    # 720 points, 12 IMPs to the open room's N-S (and so to their team, E-W in the closed).
    assert teams(620, -100) == (12, -12)
    assert teams(420, 420) == (0, 0)


def test_ranks_share_equal_scores():
    assert ranks([55.0, 60.0, 55.0, 40.0]) == [2, 1, 2, 4]
    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 102)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "102nd"]


@given(st.lists(st.integers(-7600, 7600).map(lambda x: x // 10 * 10), min_size=1, max_size=40))
def test_matchpoints_by_counting_every_pair(scores):
    # the definition, one pair at a time: 2 per score beaten, 1 per other score tied
    assert matchpoints(scores) == [sum(2 if s > t else 1 if s == t else 0 for t in scores) - 1
                                   for s in scores]


SCORES = st.lists(st.integers(-7600, 7600).map(lambda x: x // 10 * 10), min_size=2, max_size=40)


@given(SCORES)
def test_cross_imps_by_counting_every_pair(scores):
    # the definition, one pair at a time (what cross_imps did before it counted by bisection:
    # n squared, 22 s for one board at 10,000 tables)
    n = len(scores)
    assert cross_imps(scores) == [sum(imps(s - t) for t in scores) / (n - 1) for s in scores]


@given(st.lists(st.floats(-100, 100, allow_nan=False), max_size=40))
def test_ranks_by_counting_every_pair(scores):
    assert ranks(scores) == [1 + sum(1 for t in scores if t > s) for s in scores]


@given(SCORES, st.integers(0, 3), st.data())
def test_weighed_figures_are_those_of_the_field_written_out(scores, trim, data):
    # each distinct score with its count, as a ScoreTable's Multiplicity gives it: the figures
    # of the field with every table written out, without writing it out
    values = sorted(set(scores))
    counts = [scores.count(v) for v in values]
    field = [v for v, c in zip(values, counts) for _ in range(c)]
    of = dict(zip(field, mp_percentages(field)))
    assert weighted_figures("mp", values, counts) == [of[v] for v in values]
    of = dict(zip(field, cross_imps(field)))
    assert weighted_figures("cross-imp", values, counts) == [of[v] for v in values]
    of = dict(zip(field, butler(field, trim)))
    assert weighted_figures("butler", values, counts, trim) == [of[v] for v in values]
    assert weighted_datum(values, counts, trim) == datum(field, trim)


def test_a_count_of_fifty_million_is_weighed_not_written_out():
    # +430 once against +400 at 50,000,000 tables: 30 points, 1 IMP against each, 5 x 10^7 /
    # (5 x 10^7 + 1 - 1) = 1.00; each +400: -1 against the +430, 0 against the others: -1 / 5 x 10^7
    assert weighted_figures("cross-imp", [430, 400], [1, 50_000_000]) == [1.0, -2e-08]
    # matchpoints: +430 beats all 5 x 10^7: 10^8 of a top of 10^8 = 100%
    assert weighted_figures("mp", [430, 400], [1, 50_000_000])[0] == 100.0
