"""The 2017 Laws, one test per clause, on the hand-built deals of ``deals.py``.

Each docstring gives the arithmetic: who won the revoke trick, what the offending side (OS)
won from then on, and so what moves."""
from builders import board
from deals import (BASE1, BASE2, BOTH_SIDES, D1, D2, DECLARER_REVOKES_1, DECLARER_REVOKES_5,
                   DECLARER_RUFFS_10, DECLARER_TWO_SUITS, DUMMY_REVOKES_1, EAST_EXTRA_CARD_4,
                   TWELFTH_REVOKE, TWO_REVOKES_ONE_LATER_TRICK, WEST_OMITS_2_LIN, WEST_OMITS_2_PBN, WEST_REVOKES_3,
                   WEST_REVOKES_4, WEST_REVOKES_11, WEST_REVOKES_HEARTS_TWICE, WEST_RUFFS_2)

from revoke_audit.ruling.audit import audit_board
from revoke_audit.ruling.options import AuditOptions
from revoke_audit.reports.rows import board_row
from revoke_audit.laws import AFTER_ROUND


def rule(deal, contract, tricks, **kw):
    discovered = kw.pop("discovered", "table")
    a = audit_board(board(deal, contract, "S", tricks, **kw), AuditOptions("2017", discovered))
    law = [(f.code, f.law, f.trick, "NESW"[f.seat], f.transferred)
           for f in a.findings if f.code[:2] in ("RV", "DT")]
    return a, law


def test_clean_plays_have_no_findings():
    for deal, contract, play, tricks in ((D1, "4H", BASE1, 13), (D2, "3NT", BASE2, 10)):
        a, law = rule(deal, contract, play)
        assert law == [] and a.findings == []
        assert a.replay.tricks_played == a.ruling.tricks_adjusted == tricks
        assert a.status == "clean"


def test_64a1_offender_wins_trick_and_a_later_one():
    """S ruffs trick 10 holding D5 and wins it; N-S win 11-13: trick 10 + one more = 2.
    13 - 2 = 11 tricks: 4H+1."""
    a, law = rule(D1, "4H", DECLARER_RUFFS_10)
    assert law == [("RV001", "64A1", 10, "S", 2)]
    assert a.ruling.tricks_adjusted == 11
    row = board_row(a)
    assert row["result_adjusted"] == "4H+1" and row["score_ns"] == 510 and row["score_ns_adjusted"] == 450


def test_64a1_offender_wins_trick_but_nothing_later():
    """W ruffs trick 2 holding S76 and wins it; E-W win nothing after: only trick 2 moves.
    Declarer 12 + 1 = 13."""
    a, law = rule(D1, "4H", WEST_RUFFS_2)
    assert law == [("RV001", "64A1", 2, "W", 1)]
    assert (a.replay.tricks_played, a.ruling.tricks_adjusted) == (12, 13)


def test_64a2_partner_wins_revoke_trick():
    """W discards on trick 3 holding hearts; E wins it; E-W win nothing later: one trick (A2)."""
    a, law = rule(D2, "3NT", WEST_REVOKES_3)
    assert law == [("RV001", "64A2", 3, "W", 1)]
    assert a.ruling.tricks_adjusted == 11


def test_64a2_non_offenders_win_trick_offenders_win_later():
    """S discards on trick 1 holding hearts; E wins it; N-S win tricks 4-13: one trick."""
    a, law = rule(D2, "3NT", DECLARER_REVOKES_1)
    assert law == [("RV001", "64A2", 1, "S", 1)]
    assert (a.replay.tricks_played, a.ruling.tricks_adjusted) == (10, 9)


def test_64b1_offenders_win_nothing_from_the_revoke_on():
    """W revokes on trick 4, won by N; E-W won only tricks 1-3, before it: nothing moves."""
    a, law = rule(D2, "3NT", WEST_REVOKES_4)
    assert law == [("RV002", "64B1", 4, "W", 0)]
    assert a.ruling.tricks_adjusted == 10


def test_64a1_footnote_dummy_wins_declarers_revoke_trick():
    """S revokes on trick 5 and dummy's DA wins it: not won by the offender himself, so 64A2,
    one trick, though N-S win plenty later."""
    a, law = rule(D2, "3NT", DECLARER_REVOKES_5)
    assert law == [("RV001", "64A2", 5, "S", 1)]
    assert a.ruling.tricks_adjusted == 9


def test_64b3_dummy_revoke():
    a, law = rule(D2, "3NT", DUMMY_REVOKES_1)
    assert law == [("RV002", "64B3", 1, "N", 0)]
    assert a.ruling.tricks_adjusted == 10


def test_64b2_same_player_same_suit_twice():
    """W revokes in hearts on tricks 2 and 3: the first moves one trick (E won trick 2), the
    second is a repeat in the same suit: no transfer, 64C."""
    a, law = rule(D2, "3NT", WEST_REVOKES_HEARTS_TWICE)
    assert law == [("RV001", "64A2", 2, "W", 1), ("RV002", "64B2", 3, "W", 0)]
    assert a.ruling.tricks_adjusted == 11
    assert "64C" in a.findings[-1].message


def test_same_player_two_suits_each_rectified():
    """S revokes in clubs on trick 8 (N wins: A2, takes trick 8) and in diamonds on trick 10
    (S ruffs and wins: A1, takes trick 10 and trick 11).  12 - 3 = 9: 4H-1."""
    a, law = rule(D1, "4H", DECLARER_TWO_SUITS)
    assert law == [("RV001", "64A2", 8, "S", 1), ("RV001", "64A1", 10, "S", 2)]
    assert (a.replay.tricks_played, a.ruling.tricks_adjusted) == (12, 9)
    assert board_row(a)["result_adjusted"] == "4H-1"


def test_64b7_both_sides_revoked():
    a, law = rule(D2, "3NT", BOTH_SIDES)
    assert law == [("RV002", "64B7", 3, "W", 0), ("RV002", "64B7", 5, "S", 0)]
    assert a.ruling.tricks_adjusted == 10
    assert all("64C" in f.message for f in a.findings)


def test_62d_twelfth_trick_revoke_corrected():
    """W revokes on trick 12; corrected, N-S win tricks 12 and 13: 10 played -> 11."""
    a, law = rule(D1, "4H", TWELFTH_REVOKE)
    assert law == [("RV003", "62D", 12, "W", 0)]
    assert (a.replay.tricks_played, a.ruling.tricks_adjusted) == (10, 11)


def test_67b1_omitted_card_pbn_and_lin():
    """W plays no card to trick 2 (E wins it) and keeps a heart: deemed revoke, 64A2: E-W won
    trick 2, so one trick: 10 -> 11.  The same in PBN and LIN shape."""
    for tricks, lin in ((WEST_OMITS_2_PBN, False), (WEST_OMITS_2_LIN, True)):
        a, law = rule(D2, "3NT", tricks, lin=lin)
        assert law == [("DT001", "67B1", 2, "W", 1)], lin
        assert a.ruling.tricks_adjusted == 11
        assert [f.code for f in a.findings if f.code.startswith("RC")] == []


def test_67b2_extra_card_goes_back():
    """E faces S9 with his lead to trick 4 (LIN: E plays twice).  The trick keeps its winner; the
    restored S9 is his card to trick 13.  No transfer: 10 tricks."""
    a, law = rule(D2, "3NT", EAST_EXTRA_CARD_4, lin=True)
    assert law == [("DT002", "67B2", 4, "E", 0)]
    assert a.replay.play_status == "complete"
    assert (a.replay.tricks_played, a.ruling.tricks_adjusted) == (10, 10)


def test_claim_after_revoke():
    """W revokes on trick 3, the record stops after trick 9 with declarer's claim of 10 (PBN
    '*' + Result; LIN mc): established by the claim; E won trick 3: one trick: 11."""
    short = WEST_REVOKES_3[:9]
    for a, _ in (rule(D2, "3NT", short, result=10, stopped=True), rule(D2, "3NT", short, claim=10, lin=True)):
        assert [(f.code, f.law, f.transferred) for f in a.findings] == [("RV001", "64A2", 1)]
        assert a.replay.play_status == "claimed"
        assert (a.replay.tricks_played, a.ruling.tricks_adjusted) == (10, 11)


def test_revoke_on_trick_11_then_claim_conceding_one():
    """W revokes on trick 11 (S wins it); declarer, with 8 tricks, claims 9 of the last 2, so
    E-W win one later trick by the claim: one trick moves: 10."""
    a, law = rule(D2, "3NT", WEST_REVOKES_11, claim=9, lin=True)
    assert law == [("RV001", "64A2", 11, "W", 1)]
    assert (a.replay.tricks_played, a.ruling.tricks_adjusted) == (9, 10)


def test_record_stopping_after_revoke_is_not_established():
    a, law = rule(D2, "3NT", WEST_REVOKES_3[:3])
    assert law == [("RV004", "63A", 3, "W", 0)]
    assert a.findings[0].established is False
    assert a.replay.play_status == "partial" and a.ruling.tricks_adjusted is None
    assert a.status == "irregular"


def test_after_round_gives_no_automatic_transfer():
    a, law = rule(D2, "3NT", WEST_REVOKES_3, discovered=AFTER_ROUND)
    assert law == [("RV002", "64B5", 3, "W", 0)]
    assert "64C" in a.findings[0].message and "1 trick would have been transferred" in a.findings[0].message
    assert a.ruling.tricks_adjusted == 10


def test_two_revokes_share_the_offending_sides_later_tricks():
    """At the table: West won trick 2 (his revoke) and E-W won trick 10, so 64A1 moves tricks
    2 and 10; East's revoke on trick 4 finds no E-W trick left from 4 on (64B1).  11 + 2 = 13."""
    a, law = rule(D1, "4H", TWO_REVOKES_ONE_LATER_TRICK)
    assert law == [("RV001", "64A1", 2, "W", 2), ("RV002", "64B1", 4, "E", 0)]
    assert (a.replay.tricks_played, a.ruling.tricks_adjusted) == (11, 13)


def test_after_the_round_what_would_have_moved_counts_each_trick_once():
    """After the round neither moves (64B5); what the table would have moved is said as the
    table would have ruled: 2 tricks for West's, none left for East's (not 1 more: trick 10
    goes to West's revoke)."""
    a, law = rule(D1, "4H", TWO_REVOKES_ONE_LATER_TRICK, discovered=AFTER_ROUND)
    assert law == [("RV002", "64B5", 2, "W", 0), ("RV002", "64B5", 4, "E", 0)]
    west, east = (f.message for f in a.findings if f.code == "RV002")
    assert "2 tricks would have been transferred" in west
    assert "would have been transferred)" not in east
    assert "no trick would have been transferred for it" in east
    assert a.ruling.tricks_adjusted == 11
