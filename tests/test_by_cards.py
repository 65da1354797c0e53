"""What the recorded cards settle (``replay.by_cards``): the winner of a trick the record does
not finish, and the exact range of the remaining play on a board with a revoke - worked out by
hand below, and the search checked against plain enumeration on random small positions."""
import random

import pytest
from builders import board
from deals import D1

from revoke_audit.ruling.audit import audit_board
from revoke_audit.core.cards import SUIT_MASKS
from revoke_audit.ruling.options import AuditOptions
from revoke_audit.replay import replay
from revoke_audit.replay import by_cards
from revoke_audit.replay.by_cards import (RangeUnknown, Search, every_line_range, exact_range,
                                         settled_winner)


def _audit(deal, tricks, result, discovered="table"):
    return audit_board(board(deal, "4H", "S", tricks, result=result),
                       AuditOptions("2017", discovered, equity=False))


# --- the winner of an unfinished trick -------------------------------------------------------

# D1, 4H by South.  Trick 1 N (DA), trick 2 S (SA).  Trick 3: South leads HA, West throws C2
# holding H9876 (a revoke) and the record stops (Result 10: a claim).  North (H543) and East
# (H2) must follow with a lower heart: South wins trick 3 whatever they play.  West did not win
# it, so 64A2 gives one trick (E-W take tricks of the claim), and no "had West won it" hedge.
WEST_THROWS_ON_TRUMP = ["W:DJ N:DA E:D6 S:D4", "N:S2 E:ST S:SA W:S6", "S:HA W:C2"]

# D1 again: trick 3 S (HA), trick 4 N (CA).  Trick 5: North leads S3, East SJ, South ruffs with
# HK holding S98 (a revoke); the record stops (Result 12).  West must follow with S7 or S6 (no
# trump can be played): South wins trick 5 whatever.  He won the revoke trick and his side wins
# tricks of the claim: 64A1, 2 tricks to E-W: 12 - 2 = 10.
SOUTH_RUFFS_LAST = ["W:DJ N:DA E:D6 S:D4", "N:S2 E:ST S:SA W:S6", "S:HA W:H6 N:H3 E:H2",
                    "S:C3 W:C2 N:CA E:C6", "N:S3 E:SJ S:HK"]


def test_an_unfinished_trick_every_finish_of_which_goes_to_one_seat_is_his():
    rp = replay(board(D1, "4H", "S", WEST_THROWS_ON_TRUMP, result=10))
    assert settled_winner(rp, 3) == 2  # South
    rp = replay(board(D1, "4H", "S", SOUTH_RUFFS_LAST, result=12))
    assert settled_winner(rp, 5) == 2
    # trick 2 stopped after N:S2 E:ST: South's SA wins it, his S9 or S8 lets East's ST win
    rp = replay(board(D1, "4H", "S", ["W:DJ N:DA E:D6 S:D4", "N:S2 E:ST"], result=12))
    assert settled_winner(rp, 2) is None


def test_no_hedge_when_the_cards_show_the_offender_did_not_win_the_trick():
    a = _audit(D1, WEST_THROWS_ON_TRUMP, 10)
    rv = [f for f in a.findings if f.code == "RV001"]
    assert [(f.law, f.transferred) for f in rv] == [("64A2", 1)]
    assert "does not show who won" not in rv[0].message
    assert a.ruling.tricks_adjusted == 11


def test_the_offender_who_wins_the_unfinished_trick_by_the_cards_gives_64a1():
    a = _audit(D1, SOUTH_RUFFS_LAST, 12)
    rv = [f for f in a.findings if f.code == "RV001"]
    assert [(f.law, f.transferred) for f in rv] == [("64A1", 2)]
    assert "does not show who won" not in rv[0].message
    assert (a.ruling.tricks_played, a.ruling.tricks_adjusted) == (12, 10)


# --- the range of the remaining play, exact on a revoke board --------------------------------

# 4H by South, West leads.
#   N AKQ5432.87..T765   E T.AQJT9.98.98432   S .K65432.AKQ7654.   W J9876..JT32.AKQJ
# 1 W:CA N:C5 E:C8 S:D4  West        (E-W 1)
# 2 W:CK N:C6 E:C9 S:H2  South ruffs (N-S 1)
# 3 S:H3 W:CQ N:H7 E:HT  East        (E-W 2)
# 4 E:ST S:D5 W:CJ N:SA  North; West threw CJ holding SJ9876: a revoke; E-W win later -> 64A2
# 5 N:SK E:C2 S:D6 W:S6  North       (N-S 3)
# 6 N:SQ E:C3 S:D7 W:S7  North       (N-S 4)
# 7 N:S2 E:C4 S:H4 W:SJ  South ruffs (N-S 5)
# Left: N S543 H8 CT7, E HAQJ9 D98, S HK65 DAKQ, W S98 DJT32; South leads.  East must play a
# heart to four of the six tricks (he has two other cards); his HA wins its trick, and each of
# HQ HJ H9 loses only to HK (HA is his): N-S can beat at most one of them, so E-W take at least
# 3 of the 6 and declarer at most 5 + 3 = 8 (DA, DK and HK on East's HJ get there).
# The Result says 9: the table gave the 64A2 trick (8 + 1).  Before, the range was not worked
# out with 6 tricks left, and the trick was transferred again at the table (9 -> 10, 4H=).
TABLE_RULED_DEAL = "N:AKQ5432.87..T765 T.AQJT9.98.98432 .K65432.AKQ7654. J9876..JT32.AKQJ"
TABLE_RULED = ["W:CA N:C5 E:C8 S:D4", "W:CK N:C6 E:C9 S:H2", "S:H3 W:CQ N:H7 E:HT",
               "E:ST S:D5 W:CJ N:SA", "N:SK E:C2 S:D6 W:S6", "N:SQ E:C3 S:D7 W:S7",
               "N:S2 E:C4 S:H4 W:SJ"]


def test_the_range_is_exact_with_many_tricks_left_on_a_revoke_board():
    rp = replay(board(TABLE_RULED_DEAL, "4H", "S", TABLE_RULED, result=9))
    assert by_cards.cards_range(rp) is None  # the fast limit: 24 cards left
    low, high = exact_range(rp)
    assert high == 8 and 5 <= low <= high


@pytest.mark.parametrize("discovered", ["table", "after-round"])
def test_a_result_beyond_the_cards_holds_the_tables_ruling_and_is_not_ruled_twice(discovered):
    a = _audit(TABLE_RULED_DEAL, TABLE_RULED, 9, discovered)
    r = a.ruling
    assert (r.tricks_played, r.tricks_adjusted, r.tricks_automatic) == (8, 9, 9)
    assert r.basis == "table ruling in record"
    assert [f.code for f in a.findings if f.code == "LW002"] == ["LW002"]


def test_a_search_that_runs_out_says_so(monkeypatch):
    rp = replay(board(TABLE_RULED_DEAL, "4H", "S", TABLE_RULED, result=9))
    with pytest.raises(RangeUnknown):
        exact_range(rp, budget=3)
    monkeypatch.setattr(by_cards, "NODE_BUDGET", 3)
    a = _audit(TABLE_RULED_DEAL, TABLE_RULED, 9)
    notes = [f.message for f in a.findings if f.code == "LW003"]
    assert len(notes) == 1 and "6 tricks left" in notes[0]
    # no range: the stated 9 is taken as the claim, and 64A2 moves a trick at the table
    assert (a.ruling.tricks_played, a.ruling.tricks_adjusted) == (9, 10)


def _random_position(rnd, tricks, started):
    deck = list(range(52))
    rnd.shuffle(deck)
    hands = [0, 0, 0, 0]
    for i in range(4 * tricks):
        hands[i % 4] |= 1 << deck[i]
    leader = rnd.randrange(4)
    played = []
    for i in range(started):
        seat = (leader + i) % 4
        legal = hands[seat] & SUIT_MASKS[played[0] // 13] if played else hands[seat]
        legal = legal or hands[seat]
        cards = [c for c in range(52) if legal >> c & 1]
        card = rnd.choice(cards)
        hands[seat] &= ~(1 << card)
        played.append(card)
    return tuple(hands), leader, tuple(played)


@pytest.mark.parametrize("seed", range(40))
def test_the_search_agrees_with_trying_every_line(seed):
    """Equivalent cards played once, the sure trump tricks, the remembered positions: none
    changes the range that trying every line gives (``every_line_range``)."""
    rnd = random.Random(seed)
    hands, leader, started = _random_position(rnd, rnd.choice((2, 3, 4)), rnd.randrange(3))
    trump = rnd.choice((None, 0, 1, 2, 3))
    side = rnd.randrange(2)
    assert Search(trump, side).range(hands, leader, started) == every_line_range(
        hands, leader, started, trump, side)


@pytest.mark.parametrize("seed", range(40))
def test_differs_says_whether_the_range_is_one_number(seed):
    """``Search.differs(value)``: some line gives another count than ``value`` - exactly when
    the range (every line tried, ``every_line_range``) is not ``(value, value)``, for values
    inside the range and one either side of it."""
    rnd = random.Random(2000 + seed)
    hands, leader, started = _random_position(rnd, rnd.choice((2, 3, 4)), rnd.randrange(3))
    trump = rnd.choice((None, 0, 1, 2, 3))
    side = rnd.randrange(2)
    low, high = every_line_range(hands, leader, started, trump, side)
    for value in range(low - 1, high + 2):
        assert Search(trump, side).differs(hands, leader, started, value) == (
            (low, high) != (value, value))


def _settled_position(seed):
    """A random position of 4 or 5 tricks whose range is one number (every line agrees)."""
    rnd = random.Random(seed)
    while True:
        hands, leader, started = _random_position(rnd, rnd.choice((4, 5)), rnd.randrange(3))
        trump, side = rnd.choice((None, 0, 1, 2, 3)), rnd.randrange(2)
        low, high = Search(trump, side).range(hands, leader, started)
        if low == high:
            return hands, leader, started, trump, side, low


@pytest.mark.parametrize("seed", range(10))
def test_where_every_line_agrees_differs_visits_what_the_range_visits(seed):
    """No line gives another count, so ``differs`` never stops early: it visits the positions
    ``range`` visits, so it runs out of a budget exactly when ``range`` does - the cards' own
    measure of a revoke's cost (``equity._settled_cost``) decides as before."""
    hands, leader, started, trump, side, value = _settled_position(3000 + seed)
    whole, asked = Search(trump, side), Search(trump, side)
    whole.range(hands, leader, started)
    assert not asked.differs(hands, leader, started, value)
    assert asked.nodes == whole.nodes
    for budget in (whole.nodes - 1, whole.nodes):
        ran_out = []
        for search in (lambda s: s.range(hands, leader, started),
                       lambda s: s.differs(hands, leader, started, value)):
            try:
                search(Search(trump, side, budget))
                ran_out.append(False)
            except RangeUnknown:
                ran_out.append(True)
        assert ran_out == [budget < whole.nodes] * 2


# --- plain lines of play: a witness that the cards do not settle a result --------------------

def _hands(**seats):
    """Masks by seat (N, E, S, W) from card lists, e.g. N="SA SQ"."""
    from revoke_audit.core.cards import parse_card
    return tuple(sum(1 << parse_card(c) for c in seats[s].split()) for s in "NESW")


# Notrump, North leads, two tricks left: N SA SQ, E SK S2, S H3 H2, W D3 D2.  North-South's
# tricks (side 0) on the four plain lines:
#   all high:  SA SK H3 D3 (N), SQ S2 H2 D2 (N)          -> 2
#   all low:   SQ S2 H2 D2 (N), SA SK H3 D3 (N)          -> 2
#   N-S high, E-W low: SA S2 (N), SQ SK (E)              -> 1
#   N-S low, E-W high: SQ SK (E), E leads S2, SA wins    -> 1
# Two different counts: the cards do not settle it (East covers the queen or not): range 1..2.
COVER_OR_NOT = _hands(N="SA SQ", E="SK S2", S="H3 H2", W="D3 D2")
# North SA S2, East SK S3 (South and West no spade, notrump): SA wins one trick, and East's
# spade beats North's S2 on the other, whatever is played: N-S take exactly 1.
#   all high:  SA SK (N), S2 S3 (E)        all low:  S2 S3 (E), SK SA (N)
#   N-S high, E-W low: SA S3 (N), S2 SK (E)    N-S low, E-W high: S2 SK (E), S3 SA (N)
ACE_AND_KING = _hands(N="SA S2", E="SK S3", S="H3 H2", W="D3 D2")


def test_two_plain_lines_that_differ_prove_the_cards_do_not_settle_it():
    assert by_cards.played_counts(COVER_OR_NOT, 0, (), None, 0) == {1, 2}
    assert Search(None, 0).range(COVER_OR_NOT, 0, ()) == (1, 2)
    # East covers or not: lines give N-S 1 and 2, so either count is "differs"
    assert Search(None, 0).differs(COVER_OR_NOT, 0, (), 2)
    assert Search(None, 0).differs(COVER_OR_NOT, 0, (), 1)
    # North's two spades as the cards a revoker might have followed with (North on lead,
    # started by nobody): one group, so the plain lines disagree
    north_plays = [c for c in range(52) if COVER_OR_NOT[0] >> c & 1]
    assert by_cards.lines_disagree(None, 0, 0, COVER_OR_NOT, 0, (), (north_plays,))


def test_plain_lines_that_agree_leave_it_to_the_search():
    assert by_cards.played_counts(ACE_AND_KING, 0, (), None, 0) == {1}
    assert Search(None, 0).range(ACE_AND_KING, 0, ()) == (1, 1)
    assert not Search(None, 0).differs(ACE_AND_KING, 0, (), 1)  # every line: N-S 1
    assert Search(None, 0).differs(ACE_AND_KING, 0, (), 2)
    north_plays = [c for c in range(52) if ACE_AND_KING[0] >> c & 1]
    # after SA (East's S3 or SK under it, his other spade beats S2) or S2 (East wins it, SA
    # wins the last): 1 either way
    assert not by_cards.lines_disagree(None, 0, 0, ACE_AND_KING, 0, (), (north_plays,))


@pytest.mark.parametrize("seed", range(40))
def test_every_plain_line_lies_in_the_searched_range(seed):
    """Each plain line is a legal line of play: its count is inside the exact range, so two
    different counts mean the range is not one number (the witness never claims too much)."""
    rnd = random.Random(1000 + seed)
    hands, leader, started = _random_position(rnd, rnd.choice((2, 3, 4, 5)), rnd.randrange(4))
    trump = rnd.choice((None, 0, 1, 2, 3))
    side = rnd.randrange(2)
    low, high = Search(trump, side).range(hands, leader, started)
    counts = by_cards.played_counts(hands, leader, started, trump, side)
    assert all(low <= n <= high for n in counts)
    if len(counts) > 1:
        assert low < high


# --- a claim without a revoke: one number or none, never the range ----------------------------

# 6NT by South, West leads.  North holds the top cards of every filler suit, so North wins
# tricks 1-11 with everyone following suit (N-S 11), and leads trick 12 from SA SQ; East holds
# SK S2, South S3 H2, West D2 C2.  Plain lines: N-S high, E-W low: SA S2 S3 D2 (N), SQ SK H2
# C2 (E): N-S 1; all high: SA SK S3 C2 (N), SQ S2 H2 D2 (N): N-S 2.  East covers the queen or
# not: declarer 12 or 13, so the cards settle no number.
COVER_DEAL = "N:AQJT.AKQ.AKQ.AKQ K982.JT9.JT9.JT9 763.8762.876.876 54.543.5432.5432"
COVER_PLAY = ["W:H3 N:HA E:H9 S:H6", "N:HK E:HT S:H7 W:H4", "N:HQ E:HJ S:H8 W:H5",
              "N:DA E:D9 S:D6 W:D3", "N:DK E:DT S:D7 W:D4", "N:DQ E:DJ S:D8 W:D5",
              "N:CA E:C9 S:C6 W:C3", "N:CK E:CT S:C7 W:C4", "N:CQ E:CJ S:C8 W:C5",
              "N:SJ E:S8 S:S6 W:S4", "N:ST E:S9 S:S7 W:S5"]


def test_a_claim_the_cards_do_not_settle_is_not_searched(monkeypatch):
    rp = replay(board(COVER_DEAL, "6NT", "S", COVER_PLAY, claim=12))
    assert by_cards.cards_range(rp) == (12, 13)  # the search's own answer

    def no_search(*args):
        raise AssertionError("searched a claim two plain lines settle")

    monkeypatch.setattr(by_cards, "every_line_range", no_search)
    assert by_cards.settled_tricks(rp) is None


def test_a_claim_the_cards_settle_is_worked_out():
    """D1, 4H by South, the record stops after BASE1's eleven tricks with a claim of 13: South
    S98, West S7 DT, North S54, East D9 C9 are left (no heart), South leads: his S9 and S8 are
    the highest spades left and win both tricks whatever is played: 11 + 2 = 13."""
    from deals import BASE1, D1
    rp = replay(board(D1, "4H", "S", BASE1[:11], claim=13))
    assert by_cards.settled_tricks(rp) == 13
    assert _audit(D1, BASE1[:11], 13).ruling.tricks_by_cards == 13


# --- what the cards allow at the record's end, asked once (``at_end``) -----------------------

def test_at_end_gives_a_revoke_boards_range_and_plays_it_out_only_when_asked(monkeypatch):
    """TABLE_RULED (above): West's revoke at trick 4, 6 tricks left, declarer 5 to 8 (high 8
    worked out by hand above).  No single total: nothing settled.  The ways to play it out
    (more than 3 tricks left: the record as claimed for each total, 5..8 -> at most 4) are
    not built until asked."""
    rp = replay(board(TABLE_RULED_DEAL, "4H", "S", TABLE_RULED, result=9))
    calls = []
    real = by_cards.played_out
    monkeypatch.setattr(by_cards, "played_out", lambda *a: calls.append(a) or real(*a))
    cards = by_cards.at_end(rp)
    assert cards.span == exact_range(rp) and cards.span[1] == 8
    assert cards.settled is None and cards.unknown is None and calls == []
    claims = [w.claim for w in cards.ways]
    assert claims == list(range(cards.span[0], 9)) and len(calls) == 1
    assert cards.ways is cards.ways and len(calls) == 1  # worked out once


def test_at_end_of_a_search_out_of_budget_keeps_no_range(monkeypatch):
    monkeypatch.setattr(by_cards, "NODE_BUDGET", 3)
    rp = replay(board(TABLE_RULED_DEAL, "4H", "S", TABLE_RULED, result=9))
    by_cards.searched_range.cache_clear()
    cards = by_cards.at_end(rp)
    assert cards.span is None and cards.unknown.tricks_left == 6 and cards.ways == []


def test_at_end_of_a_clean_board_never_searches(monkeypatch):
    """COVER_PLAY: no revoke, two plain lines give 12 and 13 (above): not settled, and the
    search is never called; D1's BASE1[:11] claim of 13 is settled (worked out above)."""
    from deals import BASE1, D1

    def no_search(*args):
        raise AssertionError("searched a clean board")

    monkeypatch.setattr(by_cards, "every_line_range", no_search)
    monkeypatch.setattr(by_cards, "searched_range", no_search)
    cards = by_cards.at_end(replay(board(COVER_DEAL, "6NT", "S", COVER_PLAY, claim=12)))
    assert cards.span is None and cards.settled is None
    monkeypatch.undo()
    cards = by_cards.at_end(replay(board(D1, "4H", "S", BASE1[:11], claim=13)))
    assert cards.span == (13, 13) and cards.settled == 13
