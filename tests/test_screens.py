"""Records that cannot bear a ruling (``replay.screens``): each case a deal worked out by hand,
ruled neither after the round nor at the table, the stated result standing."""
from dataclasses import replace

import pytest
from builders import board
from deals import D1, D2, WEST_REVOKES_3

from revoke_audit.ruling.audit import audit_board
from revoke_audit.ruling.options import AuditOptions

# D1 (N 5432.543.AKQ.AKQ, E KQJT.2.9876.9876, S A98.AKQJT.54.543, W 76.9876.JT32.JT2) recorded
# as 4H by EAST, dealer E, "1H P 4H P P P": E-W hold 1 + 4 = 5 hearts, and East opens 1H with
# 6 points (SKQJ).  South, on lead as East's left-hand opponent, draws trumps (tricks 1-4):
#  1 S HA  W H6  N H3  E H2   -> S       5 S C3  W C2  N CA  E C6   -> N
#  2 S HK  W H7  N H4  E SJ   -> S       6 N CK  E C7  S C4  W CT   -> N
#  3 S HQ  W H8  N H5  E SQ   -> S       7 N CQ  E ST  S C5  W CJ   -> N  (E revokes: C98 held)
#  4 S HJ  W H9  N S2  E SK   -> S       8 N DA  E D6  S D4  W D2   -> N
#  9 N DK E D7 S D5 W D3 -> N; 10 N DQ E D8 S HT W DT -> S (ruff, no diamond left);
# 11 S SA W S6 N S3 E D9 -> S; 12 S S9 W S7 N S4 E C9 -> S; 13 S S8 W DJ N S5 E C8 -> S.
# Every card is where the record says, East's revoke is established (he plays to trick 8), but
# the deal fits its auction and play only with every hand moved one seat clockwise (East gets
# South's A98.AKQJT.54.543: 14 points, 5 + 3 hearts with West's, and South's trump leads are
# declarer's): the record is rotated, no revoke is ruled.
ROTATED = ["S:HA W:H6 N:H3 E:H2", "S:HK W:H7 N:H4 E:SJ", "S:HQ W:H8 N:H5 E:SQ",
           "S:HJ W:H9 N:S2 E:SK", "S:C3 W:C2 N:CA E:C6", "N:CK E:C7 S:C4 W:CT",
           "N:CQ E:ST S:C5 W:CJ", "N:DA E:D6 S:D4 W:D2", "N:DK E:D7 S:D5 W:D3",
           "N:DQ E:D8 S:HT W:DT", "S:SA W:S6 N:S3 E:D9", "S:S9 W:S7 N:S4 E:C9",
           "S:S8 W:DJ N:S5 E:C8"]


def audited(record, discovered):
    return audit_board(record, AuditOptions("2017", discovered))


def screened(a) -> list[str]:
    assert not [f for f in a.findings if f.code[:2] in ("RV", "DT")], a.findings
    return [f.message for f in a.findings if f.code == "RC017"]


@pytest.mark.parametrize("discovered", ["after-round", "table"])
@pytest.mark.parametrize("auction, misfits", [
    (("1H", "P", "4H", "P", "P", "P"),
     "declarer's side holds 5 trumps; the defenders lead trumps at 4 tricks; the opener holds "
     "6 points"),
    # no auction recorded: the short trumps and the defenders drawing them are enough
    ((), "declarer's side holds 5 trumps; the defenders lead trumps at 4 tricks)"),
])
def test_a_deal_rotated_against_its_auction_and_play_is_not_ruled(discovered, auction, misfits):
    rec = replace(board(D1, "4H", "E", ROTATED, dealer="E", result=0), auction=auction)
    a = audited(rec, discovered)
    [why] = screened(a)
    assert misfits in why and "moved 1 seat clockwise" in why
    assert a.ruling.tricks_adjusted == 0 and a.status == "inconsistent"


@pytest.mark.parametrize("discovered", ["after-round", "table"])
def test_an_impossible_claim_is_no_ruling_to_correct(discovered):
    """D2, 3NT by South: E wins tricks 1-3 (W discards D5 on trick 3 holding H7 H6, a revoke
    established on trick 4), N wins trick 4; the record stops there with Result 11.  Declarer
    won 1 trick with 9 to play: at most 10, so 11 is impossible (RC022).  Ruling from it would
    cut the claim to 10 ("the play as corrected") and move 64A2's trick on top: a ruling
    nobody agreed to.  Screened: RC017, and 11 stands."""
    a = audited(board(D2, "3NT", "S", WEST_REVOKES_3[:4], result=11, stopped=True), discovered)
    [why] = screened(a)
    assert "claim/result of 11 tricks for declarer is impossible: declarer had won 1 with 9" in why
    assert "RC022" in [f.code for f in a.findings]
    assert (a.ruling.tricks_played, a.ruling.tricks_adjusted) == (11, 11)


@pytest.mark.parametrize("mark", ["", "^R"])
@pytest.mark.parametrize("discovered", ["after-round", "table"])
def test_less_than_one_trick_establishes_nothing(mark, discovered):
    """D2, 3NT by South: W leads H8, N (dummy) H2, E S9 holding HAKQ - then ``*`` and Result 9
    (taken as a claim).  Three cards, no trick complete: nothing can be established on them,
    whether or not the producer marks E's card ^R (a mark is its reading of the play).  No
    ruling, no "claim after 0 tricks" swing: 9 tricks stand."""
    rec = board(D2, "3NT", "S", [f"W:H8 N:H2 E:{mark}S9"], result=9, stopped=True)
    a = audited(rec, discovered)
    [why] = screened(a)
    assert "only 0 whole tricks recorded" in why
    assert (a.ruling.tricks_played, a.ruling.tricks_adjusted) == (9, 9)


# D2, 3NT by South, West leads: E wins trick 1 (HA).  Trick 2 is led out of turn by West (H5,
# marked ^L: East won trick 1), N H3, E HK, S HT -> E wins; trick 3 E HQ, S HJ, W D5 (West holds
# H76: a revoke, established when West plays to trick 4), N H4 -> E.  The rest is
# WEST_REVOKES_3's (N wins 4-9, S 10-13).  Recorded with declarer South while the auction gives
# East (RC021), the record's sides and its order of play are both in doubt: not ruled.  With
# only one of the two (the lead in turn, or the declarer the auction's) it is ruled as ever
# (West's revoke, RV002).
LED_OUT_OF_TURN = WEST_REVOKES_3[:1] + ["W:^LH5 N:H3 E:HK S:HT"] + WEST_REVOKES_3[2:]


@pytest.mark.parametrize("discovered", ["after-round", "table"])
def test_declarer_against_the_auction_and_a_lead_out_of_turn_are_not_ruled(discovered):
    rec = replace(board(D2, "3NT", "S", LED_OUT_OF_TURN, result=10), declarer_derived=1)
    a = audited(rec, discovered)
    [why] = screened(a)
    assert "declarer S disagrees with the auction, which gives E" in why
    assert "trick 2 is led out of turn" in why
    assert a.ruling.tricks_adjusted == a.ruling.tricks_played == 10


@pytest.mark.parametrize("play, derived", [
    (WEST_REVOKES_3, 1),       # declarer against the auction, every lead in turn
    (LED_OUT_OF_TURN, None),   # a lead out of turn, the declarer not in question
])
def test_one_sign_alone_leaves_the_revoke_ruled(play, derived):
    rec = replace(board(D2, "3NT", "S", play, result=10), declarer_derived=derived)
    a = audited(rec, "after-round")
    assert [f.code for f in a.findings if f.code == "RC017"] == []
    assert [(f.code, f.trick) for f in a.findings if f.code.startswith("RV")] == [("RV002", 3)]
