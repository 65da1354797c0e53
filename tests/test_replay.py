"""The replay: trick order, winners, and every record-consistency (RC) finding, on the
hand-built deals of ``deals.py``."""
from dataclasses import replace

from builders import board
from deals import BASE1, BASE2, D1, D2, WEST_REVOKES_3

from revoke_audit.ruling.audit import audit_board
from revoke_audit.core.cards import parse_card
from revoke_audit.replay import replay
from revoke_audit.ruling.options import AuditOptions

AT_TABLE = AuditOptions(discovered="table")  # these plays are ruled as found at the table (64A)


def codes(record):
    return [f.code for f in audit_board(record, AT_TABLE).findings]


def test_pbn_columns_and_lin_sequence_replay_alike():
    """E wins tricks 1-3 and leads 4; N wins 4-9 and leads 10; S wins 10-13."""
    for lin in (False, True):
        rp = replay(board(D2, "3NT", "S", BASE2, lin=lin))
        assert ["NESW"[t.winner] for t in rp.tricks] == list("EEENNNNNNSSSS")
        assert [t.leader for t in rp.tricks][:5] == [3, 1, 1, 1, 0]
        assert rp.play_status == "complete" and rp.tricks_played == 10


def test_revoke_fact_names_the_cards_held():
    rp = replay(board(D2, "3NT", "S", WEST_REVOKES_3))
    (fact,) = rp.revokes
    assert (fact.trick, fact.seat, fact.card) == (3, 3, parse_card("D5"))
    assert fact.held == (1 << parse_card("H7")) | (1 << parse_card("H6"))


def test_invalid_deal_is_not_audited():
    rec = board(D2, "3NT", "S", BASE2)
    hands = list(rec.hands)
    hands[0] |= 1 << parse_card("HA")  # East's HA also in North's hand: 14 cards, a duplicate
    a = audit_board(replace(rec, hands=tuple(hands)), AT_TABLE)
    assert [f.code for f in a.findings] == ["RC001"]
    assert "N has 14 cards" in a.findings[0].message and "HA in two hands" in a.findings[0].message
    assert a.status == "inconsistent" and a.replay.play_status == "partial"


def test_unknown_hand_and_missing_contract():
    rec = board(D2, "3NT", "S", BASE2)
    assert codes(replace(rec, hands=(rec.hands[0], None, rec.hands[2], rec.hands[3]))) == ["RC002"]
    assert codes(replace(rec, contract_stated=None, declarer_stated=None)) == ["RC003"]


def test_card_not_held_by_player_on_turn_stops_the_audit():
    """PBN: North's column shows HK on trick 1 but HK is East's card: the board's one finding
    counts it (1 of the 52 cards is in the wrong column) and names it."""
    tricks = ["W:H8 N:HK E:HA S:H9"] + BASE2[1:]
    a = audit_board(board(D2, "3NT", "S", tricks), AT_TABLE)
    assert [f.code for f in a.findings] == ["RC016"]
    assert a.findings[0].trick == 1 and a.findings[0].seat == 0
    assert a.findings[0].message.startswith(
        "1 of 52 cards were played in the column of a player who does not hold them in the "
        "recorded deal (first: trick 1, North plays HK, which is in East's hand)")
    assert a.replay.stopped_at == 1 and not a.replay.coherent


def test_card_played_twice():
    tricks = BASE2[:1] + ["E:HK S:HT W:H8 N:H3"] + BASE2[2:]  # H8 again
    assert codes(board(D2, "3NT", "S", tricks)) == ["RC011"]


def test_opening_lead_from_the_wrong_side():
    """3NT by South: West must lead.  With declarer North, East should have led."""
    rec = board(D2, "3NT", "S", BASE2)
    assert codes(replace(rec, declarer_stated=0)) == ["RC012"]
    a = audit_board(replace(rec, declarer_stated=0, declarer_swapped=True), AT_TABLE)
    assert "swapped" in a.findings[0].message


def test_unknown_lead_that_decides_the_trick_stops_checking():
    """West's opening lead is not recorded and the record stops after trick 2 (no claim): a
    heart loses to East's HA, any other card wins, so who leads trick 2 is not known and
    nothing after trick 1 is checked (see test_unrecorded.py for what is still checked)."""
    tricks = ["W:- N:H2 E:HA S:H9", BASE2[1]]
    a = audit_board(board(D2, "3NT", "S", tricks), AT_TABLE)
    assert [f.code for f in a.findings] == ["RC013"]
    assert a.replay.stopped_at == 1 and a.replay.tricks_played is None


def test_unknown_cards_after_the_last_known_one_just_end_the_record():
    tricks = BASE2[:4] + ["N:DA E:- S:- W:-"]
    a = audit_board(board(D2, "3NT", "S", tricks), AT_TABLE)
    assert a.findings == [] and a.replay.play_status == "partial"


def test_trick_13_failure_to_follow_explained_by_the_omission():
    """LIN: West plays no card to trick 10 (S wins it with CA) and keeps C2; on trick 13 he
    plays S5 to a club lead while holding C2.  The one omission explains it: rectified under
    67B1, C2 goes into trick 10 and West has only S5 left for trick 13.  So: DT001, and the
    trick-13 "failure" is no record error."""
    tricks = BASE2[:9] + ["N:C3 E:C6 S:CA", "S:CK W:C9 N:C4 E:C7", "S:CQ W:CT N:C5 E:C8",
                          "S:CJ W:S5 N:S2 E:SJ"]
    a = audit_board(board(D2, "3NT", "S", tricks, lin=True), AT_TABLE)
    assert sorted(f.code for f in a.findings) == ["DT001"]


def test_trick_13_failure_to_follow_without_a_defect_is_a_record_error():
    """PBN: West's column shows S5 on trick 13 (clubs led) while he still holds C2 - and the
    trick-10 column shows C2 too: the card is played twice, the record is wrong."""
    tricks = BASE2[:12] + ["S:CJ W:C2 N:S2 E:SJ"]
    a = audit_board(board(D2, "3NT", "S", tricks), AT_TABLE)
    assert [f.code for f in a.findings] == ["RC011"]


def test_claim_outside_the_possible():
    """After 9 tricks declarer has 6 (N won 4-9) with 4 to play: a claim of 11 is impossible."""
    a = audit_board(board(D2, "3NT", "S", BASE2[:9], claim=11, lin=True), AT_TABLE)
    assert [f.code for f in a.findings] == ["RC022"]
    assert a.replay.play_status == "claimed"


def test_stated_result_against_the_play():
    """Result 9 for a play giving 10: RC023.  Result 11 after W's revoke is the adjusted
    result (the table's ruling): no error.  ^9 marks a known difference: no error."""
    assert codes(board(D2, "3NT", "S", BASE2, result=9)) == ["RC023"]
    assert codes(board(D2, "3NT", "S", WEST_REVOKES_3, result=11)) == ["LW002", "RV001"]
    assert codes(replace(board(D2, "3NT", "S", BASE2, result=9), result_flagged=True)) == []


def test_vugraph_rs_result_against_the_play():
    rec = board(D2, "3NT", "S", BASE2, lin=True)
    assert codes(replace(rec, lin_result="3NS+1")) == []
    a = audit_board(replace(rec, lin_result="4SN-1"), AT_TABLE)
    assert [f.code for f in a.findings] == ["RC024"]
    assert "contract 4S" in a.findings[0].message and "declarer N" in a.findings[0].message
    assert a.tricks_stated == 9


def test_contract_and_declarer_against_the_auction():
    rec = replace(board(D2, "3NT", "S", BASE2), contract_derived="3NT", declarer_derived=0)
    assert codes(rec) == ["RC021"]
    rec = replace(board(D2, "3NT", "S", BASE2), contract_derived="4NT", declarer_derived=2)
    assert codes(rec) == ["RC020"]


def test_revoke_marks_compared_with_the_play():
    """^R on a card that follows suit: RC030; a real revoke left unmarked on a board whose
    producer marks revokes: RC031."""
    rec = board(D2, "3NT", "S", WEST_REVOKES_3)
    plays = list(rec.play)
    plays[0] = plays[0]._replace(marks=("R",))  # W's opening lead H8 marked ^R
    assert sorted(codes(replace(rec, play=tuple(plays)))) == ["RC030", "RC031", "RV001"]
    marked = [p._replace(marks=("R",)) if p.card == parse_card("D5") and p.trick == 3 else p
              for p in rec.play]
    assert codes(replace(rec, play=tuple(marked))) == ["RV001"]


def test_lead_out_of_turn_mark_sets_the_order():
    """^L: South leads trick 2 out of turn (E won trick 1): S HT, W H5, N H3, E HK.  E still
    wins; nothing else changes."""
    rec = board(D2, "3NT", "S", BASE2)
    plays = [p._replace(marks=("L",)) if p.trick == 2 and p.seat == 2 else p for p in rec.play]
    rp = replay(replace(rec, play=tuple(plays)))
    assert rp.tricks[1].leader == 2 and rp.tricks[1].winner == 1
    assert [s for s, _, _ in rp.tricks[1].plays] == [2, 3, 0, 1]


def test_d1_declarer_makes_all_thirteen():
    rp = replay(board(D1, "4H", "S", BASE1))
    assert rp.tricks_played == 13 and not rp.revokes


def test_play_ending_mid_trick_without_claim_is_partial():
    rec = board(D2, "3NT", "S", BASE2)
    rp = replay(replace(rec, play=rec.play[:30]))
    assert rp.play_status == "partial" and rp.tricks_played is None
    assert len(rp.complete_tricks) == 7


def test_several_players_failing_to_follow_one_trick_flags_the_lead():
    """Trick 1 of D2 with West's lead written as the S3 instead of the H8: North (H2), East
    (HA) and South (H9) all "fail to follow" spades while holding them: RC015 is the board's
    one finding, it lists the would-be revokes, and none of them is ruled; the Result stands."""
    tricks = ["W:S3 N:H2 E:HA S:H9"]
    a = audit_board(board(D2, "3NT", "S", tricks, result=10, stopped=True), AT_TABLE)
    assert [f.code for f in a.findings] == ["RC015"]
    assert a.findings[0].message == (
        "trick 1: North, East and South all fail to follow the S3 lead while holding the suit "
        "(North played H2 holding SA SK S2; East played HA holding SQ SJ ST S9; South played H9 "
        "holding S8 S7 S6): the lead is probably mis-recorded, so none of these is ruled a revoke")
    assert a.status == "inconsistent" and a.ruling.tricks_adjusted == 10


def test_flagged_result_is_not_taken_as_a_claim():
    """PBN ``[Result "^6"]`` after an unfinished play: the ^ says the number differs from the
    tricks won, so the play is partial, not claimed, and no impossible-claim error follows."""
    rec = replace(board(D2, "3NT", "S", BASE2[:9], result=6, stopped=True), result_flagged=True)
    a = audit_board(rec, AT_TABLE)
    assert a.replay.play_status == "partial" and a.findings == []
