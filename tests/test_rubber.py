"""Tests for revoke_audit.scoring.rubber: hand-computed scores for the 1932 code and bridge-whist."""
import pytest

from revoke_audit.scoring.rubber import (
    BRIDGE_WHIST_VALUES, CLUBS, DIAMONDS, HEARTS, NOTRUMP, SPADES, RubberScore,
    score_1932, score_bridge_whist, trick_value_1932, undertricks_1932)


# --- 1932: trick score -----------------------------------------------------------------------

@pytest.mark.parametrize("strain, level, below", [
    (CLUBS, 1, 20), (DIAMONDS, 5, 100), (HEARTS, 4, 120), (SPADES, 3, 90),
    (NOTRUMP, 1, 30), (NOTRUMP, 2, 70), (NOTRUMP, 3, 100), (NOTRUMP, 7, 240),
])
def test_1932_trick_score_made_exactly(strain, level, below):
    s = score_1932(level, strain, "", False, 6 + level)
    assert (s.below_declarer, s.above_defenders) == (below, 0)
    assert s.above_declarer == (1500 if level == 7 else 0)


def test_1932_no_trump_alternates_30_40():
    assert [trick_value_1932(NOTRUMP, n) for n in range(1, 6)] == [30, 40, 30, 40, 30]
    assert "alternately" in " ".join(score_1932(1, NOTRUMP, "", False, 7).notes)


@pytest.mark.parametrize("level, strain, game", [
    (3, NOTRUMP, True), (4, HEARTS, True), (3, SPADES, False), (5, CLUBS, True),
    (4, DIAMONDS, False), (2, NOTRUMP, False),
])
def test_1932_game_is_100_below(level, strain, game):
    assert score_1932(level, strain, "", False, 6 + level).game is game


def test_1932_doubled_and_redoubled_trick_score():
    assert score_1932(2, HEARTS, "X", False, 8).below_declarer == 120
    assert score_1932(1, NOTRUMP, "XX", False, 7).below_declarer == 120
    assert score_1932(2, HEARTS, "X", False, 8).game is True


def test_1932_overtricks_undoubled_at_trick_value():
    s = score_1932(2, SPADES, "", False, 10)
    assert (s.below_declarer, s.above_declarer, s.game) == (60, 60, False)


def test_1932_no_trump_overtricks_keep_their_place():
    # 1NT making 9: odd tricks 30 below; overtricks are the 2nd (40) and 3rd (30)
    s = score_1932(1, NOTRUMP, "", False, 9)
    assert (s.below_declarer, s.above_declarer) == (30, 70)


@pytest.mark.parametrize("vul, doubled, above", [
    (False, "X", 200), (True, "X", 400), (False, "XX", 400), (True, "XX", 800),
])
def test_1932_doubled_overtricks(vul, doubled, above):
    assert score_1932(2, HEARTS, doubled, vul, 10).above_declarer == above


def test_1932_no_insult_bonus_and_note():
    s = score_1932(2, HEARTS, "X", False, 8)
    assert s.above_declarer == 0
    assert any("doubled contract" in n for n in s.notes)


# --- 1932: undertricks -----------------------------------------------------------------------

@pytest.mark.parametrize("down, vul, doubled, penalty", [
    (1, False, "", 50), (3, False, "", 150),
    (1, True, "", 100), (2, True, "", 250), (3, True, "", 450),
    (1, False, "X", 100), (3, False, "X", 300), (2, False, "XX", 400),
    (1, True, "X", 200), (3, True, "X", 900), (2, True, "XX", 1000),
])
def test_1932_undertricks(down, vul, doubled, penalty):
    assert undertricks_1932(down, vul, doubled) == penalty


def test_1932_maximum_penalty_matches_time_1935():
    # Time, 25 Mar 1935: 13 down, vulnerable, redoubled was 20,800 under the 1932 laws
    assert undertricks_1932(13, True, "XX") == 20800


def test_1932_doubled_contract_defeated_vulnerable_and_not():
    vul = score_1932(4, SPADES, "X", True, 7)      # 3 down: (100 + 150 + 200) x 2
    nonvul = score_1932(4, SPADES, "X", False, 7)  # 3 down: 3 x 50 x 2
    assert (vul.above_defenders, vul.below_declarer, vul.game) == (900, 0, False)
    assert (nonvul.above_defenders, nonvul.above_declarer) == (300, 0)


# --- 1932: slams and revokes -----------------------------------------------------------------

def test_1932_small_slam_bid_and_made():
    s = score_1932(6, HEARTS, "", True, 12)
    assert (s.below_declarer, s.above_declarer, s.game) == (180, 750, True)
    s = score_1932(6, CLUBS, "", False, 13)          # one overtrick
    assert (s.below_declarer, s.above_declarer) == (120, 20 + 500)


def test_1932_grand_slam_bid_and_made():
    s = score_1932(7, NOTRUMP, "", False, 13)
    assert (s.below_declarer, s.above_declarer) == (240, 1500)
    assert score_1932(7, SPADES, "", True, 13).above_declarer == 2250


def test_1932_slam_not_bid_scores_no_bonus():
    s = score_1932(4, SPADES, "", False, 12)
    assert (s.below_declarer, s.above_declarer) == (120, 60)


def test_1932_slam_bid_and_failed():
    s = score_1932(6, SPADES, "", False, 11)
    assert (s.below_declarer, s.above_declarer, s.above_defenders) == (0, 0, 50)


def test_1932_revoking_side_can_still_score_game():
    # "The Revoke", Dominion (Wellington), 2 Sep 1933: 3NT, 11 tricks, two transferred for a revoke -> 9 tricks, game still made
    s = score_1932(3, NOTRUMP, "", False, 9, revoke_by_declarer_side=True)
    assert (s.below_declarer, s.game) == (100, True)
    assert any("no point penalty" in n for n in s.notes)


def test_1932_honours_note_always_present():
    assert any("honours" in n for n in score_1932(1, CLUBS, "", False, 5).notes)


@pytest.mark.parametrize("args", [
    (0, SPADES, "", False, 7), (8, SPADES, "", False, 7), (1, 5, "", False, 7),
    (1, SPADES, "XXX", False, 7), (1, SPADES, "", False, 14), (1, SPADES, "", False, -1),
])
def test_1932_rejects_bad_input(args):
    with pytest.raises(ValueError):
        score_1932(*args)


# --- bridge-whist: trick score ---------------------------------------------------------------

def test_bridge_whist_trick_values():
    assert BRIDGE_WHIST_VALUES == {SPADES: 2, CLUBS: 4, DIAMONDS: 6, HEARTS: 8, NOTRUMP: 12}


@pytest.mark.parametrize("strain, tricks, below, game", [
    (NOTRUMP, 9, 36, True), (NOTRUMP, 8, 24, False), (HEARTS, 10, 32, True),
    (DIAMONDS, 11, 30, True), (CLUBS, 13, 28, False), (SPADES, 12, 12, False),
    (HEARTS, 7, 8, False),
])
def test_bridge_whist_declarer_odd_tricks(strain, tricks, below, game):
    s = score_bridge_whist(strain, "", tricks)
    assert (s.below_declarer, s.game) == (below, game)
    assert s.below_defenders == 0


def test_bridge_whist_defenders_score_their_odd_tricks():
    s = score_bridge_whist(DIAMONDS, "", 3)          # defenders win 10: 4 odd x 6
    assert (s.below_declarer, s.below_defenders) == (0, 24)
    assert (s.game, s.game_defenders) == (False, False)
    s = score_bridge_whist(NOTRUMP, "", 2)           # defenders win 11: 5 x 12 = 60, game
    assert (s.below_defenders, s.game_defenders) == (60, True)


def test_bridge_whist_one_odd_trick_scores_for_whichever_side_wins_it():
    s = score_bridge_whist(HEARTS, "", 6)            # defenders win 7: one odd trick
    assert (s.below_declarer, s.below_defenders) == (0, 8)
    s = score_bridge_whist(HEARTS, "", 7)
    assert (s.below_declarer, s.below_defenders) == (8, 0)


def test_bridge_whist_doubling():
    assert score_bridge_whist(HEARTS, "X", 9).below_declarer == 48
    assert score_bridge_whist(HEARTS, "XX", 8).below_declarer == 64
    assert score_bridge_whist(SPADES, "XXX", 8).below_declarer == 32
    assert score_bridge_whist(NOTRUMP, "X", 4).below_defenders == 72   # 3 odd x 24


def test_bridge_whist_slams_not_doubled():
    s = score_bridge_whist(CLUBS, "XX", 12)
    assert (s.below_declarer, s.above_declarer) == (6 * 4 * 4, 20)
    assert score_bridge_whist(SPADES, "", 13).above_declarer == 40
    assert score_bridge_whist(SPADES, "", 0).above_defenders == 40
    assert score_bridge_whist(SPADES, "", 1).above_defenders == 20


# --- bridge-whist: revokes -------------------------------------------------------------------

def test_bridge_whist_revoker_capped_at_28():
    # NT, declarer's side revoked yet wins 10 tricks: 4 x 12 = 48, capped at 28, no game
    s = score_bridge_whist(NOTRUMP, "", 10, declarer_side_revoked=True)
    assert (s.below_declarer, s.game) == (28, False)
    assert any("capped at 28" in n for n in s.notes)


def test_bridge_whist_revoke_penalty_transfers_three_tricks():
    # declarer's side won 12 in play and revoked once: 9 tricks, 3 odd x 12 = 36 -> capped 28
    s = score_bridge_whist(NOTRUMP, "", 12, penalty_tricks_to_defenders=3)
    assert (s.below_declarer, s.game) == (28, False)
    s = score_bridge_whist(HEARTS, "", 10, penalty_tricks_to_defenders=3)   # 7 tricks: 8
    assert (s.below_declarer, s.game) == (8, False)


def test_bridge_whist_penalty_tricks_do_not_make_a_slam():
    # 9 tricks in play + 3 for the defenders' revoke = 12, but no little slam
    s = score_bridge_whist(HEARTS, "", 9, penalty_tricks_to_declarer=3)
    assert (s.below_declarer, s.above_declarer, s.game) == (48, 0, True)
    assert any("do not count toward a slam" in n for n in s.notes)


def test_bridge_whist_penalty_cannot_exceed_tricks_held():
    s = score_bridge_whist(SPADES, "", 11, penalty_tricks_to_declarer=6)   # defenders hold 2
    assert s.below_declarer == 7 * 2
    assert any("limited" in n for n in s.notes)


def test_bridge_whist_defenders_revoke_cap():
    s = score_bridge_whist(NOTRUMP, "", 2, defenders_revoked=True)         # defenders 5 odd
    assert (s.below_defenders, s.game_defenders) == (28, False)


def test_bridge_whist_both_sides_revoke_neither_wins_game():
    s = score_bridge_whist(NOTRUMP, "", 11, penalty_tricks_to_declarer=3,
                           penalty_tricks_to_defenders=3)                  # 11 - 3 + 2 = 10
    assert (s.below_declarer, s.game, s.game_defenders) == (28, False, False)
    assert any("both sides revoked" in n for n in s.notes)


def test_bridge_whist_revoking_side_slam_in_play_is_reported():
    s = score_bridge_whist(HEARTS, "", 13, penalty_tricks_to_defenders=3)
    # 13 - 3 = 10 tricks: 4 x 8 = 32, capped at 28; the grand slam was won in play
    assert (s.below_declarer, s.above_declarer, s.game) == (28, 40, False)
    assert any("won 13 tricks in play" in n for n in s.notes)


def test_bridge_whist_honours_note():
    assert any("honours" in n for n in score_bridge_whist(SPADES, "", 7).notes)


@pytest.mark.parametrize("kwargs", [
    dict(strain=5, doubled="", tricks_declarer=7),
    dict(strain=0, doubled="D", tricks_declarer=7),
    dict(strain=0, doubled="", tricks_declarer=14),
    dict(strain=0, doubled="", tricks_declarer=7, penalty_tricks_to_declarer=-3),
])
def test_bridge_whist_rejects_bad_input(kwargs):
    with pytest.raises(ValueError):
        score_bridge_whist(**kwargs)


def test_rubber_score_is_frozen():
    s = score_bridge_whist(SPADES, "", 7)
    assert isinstance(s, RubberScore)
    with pytest.raises(Exception):
        s.game = True
