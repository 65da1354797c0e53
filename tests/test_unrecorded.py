"""Cards a PBN play line does not give (``-``): what can still be checked around them.

Deals D1 and D2 of ``deals.py``; each case names the cards that decide it, worked out by hand.
"""
from pathlib import Path

import pytest
from builders import board
from deals import BASE2, D1, D2, TWELFTH_REVOKE, WEST_REVOKES_3, WEST_REVOKES_4

from revoke_audit.ruling.audit import audit_board
from revoke_audit.reports.explain import explain_text, find_board
from revoke_audit.ruling.options import AuditOptions

AT_TABLE = AuditOptions(discovered="table")  # these plays are ruled as found at the table (64A)

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"


def audit(deal, contract, tricks, **kw):
    a = audit_board(board(deal, contract, "S", tricks, **kw), AT_TABLE)
    return a, [(f.code, f.law, f.trick, "NESW"[f.seat] if f.seat is not None else None)
               for f in a.findings]


def messages(a, code):
    return [f.message for f in a.findings if f.code == code]


def test_a_revoke_in_the_trick_of_an_unrecorded_card_is_still_found():
    """Trick 4 of WEST_REVOKES_4 with South's card not recorded: East leads SQ, West discards
    H7 holding S543, North wins with SK.  South's card cannot be S6 for sure (the record stops
    after trick 5 with declarer's claim of 9, so his S8 S7 S6 are all untold), but West's
    holding is exact: a revoke.  Who won trick 4?  South holds spades, so his card is one of
    S8 S7 S6 (a legal card is presumed), all below SK: North.  Declarer has tricks 4-5, claims
    9 of 13: E-W get one of the last eight, so 64A2 moves one trick: 9 -> 10."""
    tricks = WEST_REVOKES_4[:3] + ["E:SQ S:- W:H7 N:SK", "N:DA E:D2 S:D8 W:D5"]
    a, got = audit(D2, "3NT", tricks, result=9, stopped=True)
    assert got == [("RC013", "", 4, "S"), ("RV001", "64A2", 4, "W")]
    assert messages(a, "RC013") == ["trick 4: South's card is not recorded; the other players' "
                                    "cards to the trick are still checked"]
    assert (a.replay.tricks_played, a.ruling.tricks_adjusted) == (9, 10)
    assert a.replay.tricks[3].winner == 0 and a.replay.tricks[3].unknown == [2]


def test_a_card_the_rest_of_the_play_gives_away_is_played_and_judged():
    """West's card to trick 3 of WEST_REVOKES_3 and North's lead to trick 5 are not recorded.
    Every other card of West's is played later, so his can only be D5 - played on East's HQ
    lead while he held H7 H6: the revoke is found and ruled as if recorded (E won trick 3:
    64A2, one trick: 11).  North's lead can only be DA.  (A single '-' in an otherwise full
    record is read as a card omitted, Law 67: see test_law2017.)"""
    tricks = (WEST_REVOKES_3[:2] + ["E:HQ S:HJ W:- N:H4", WEST_REVOKES_3[3]]
              + ["N:- E:D2 S:D8 W:D6"] + WEST_REVOKES_3[5:])
    a, got = audit(D2, "3NT", tricks)
    assert got == [("RC013", "", 3, "W"), ("RV001", "64A2", 3, "W"), ("RC013", "", 5, "N")]
    assert messages(a, "RC013")[0] == ("trick 3: West's card is not recorded; it can only be "
                                       "D5, the one card of his that the rest of the play does "
                                       "not show, so the play is checked with it")
    assert a.ruling.tricks_adjusted == 11


def test_an_unrecorded_lead_given_away_by_the_rest_of_the_play():
    """North's lead to trick 5 is not recorded; his other eight cards all appear later, so it
    was DA: he wins and the play is replayed to the end (10 tricks), nothing else to say."""
    tricks = BASE2[:4] + ["N:- E:D2 S:D8 W:D5"] + BASE2[5:]
    a, got = audit(D2, "3NT", tricks)
    assert got == [("RC013", "", 5, "N")]
    assert a.replay.play_status == "complete" and a.replay.tricks_played == 10


def test_when_the_unrecorded_card_decides_the_trick_checking_stops_there():
    """North's card to trick 4 (East leads SQ) is not recorded and the record stops after
    trick 5 with a claim, so it is one of his SA SK S2: S2 loses to SQ (East wins), SA or SK
    wins (North).  Who led trick 5 is therefore unknown: nothing after trick 4 is checked."""
    tricks = BASE2[:3] + ["E:SQ S:S6 W:S3 N:-", "N:DA E:D2 S:D8 W:D5"]
    a, got = audit(D2, "3NT", tricks, result=10, stopped=True)
    assert got == [("RC013", "", 4, "N")]
    assert messages(a, "RC013") == [
        "trick 4: North's card is not recorded; the other players' cards to the trick are "
        "still checked; who won trick 4 depends on it, so nothing after it can be checked"]
    assert a.replay.stopped_at == 4 and a.replay.tricks[3].winner is None


def test_a_leader_marked_on_the_next_line_settles_who_won():
    """As above, but North's DA on trick 5 is marked ^L: North led it, so North won trick 4
    (his card was SA or SK) and the play goes on."""
    tricks = BASE2[:3] + ["E:SQ S:S6 W:S3 N:-", "N:^LDA E:D2 S:D8 W:D5"]
    a, got = audit(D2, "3NT", tricks, result=10, stopped=True)
    assert got == [("RC013", "", 4, "N")]
    assert a.replay.stopped_at is None and a.replay.tricks[3].winner == 0
    assert len(a.replay.complete_tricks) == 5


def test_an_unrecorded_lead_hides_the_suit_led():
    """North's lead to trick 2 is not recorded (the record stops after trick 3 with a claim, so
    it could be any of his twelve cards): nobody's card to trick 2 can be judged, and West's
    S6, marked ^R in the record, is answered "could not be checked" with that reason.  South's
    ^L lead to trick 3 says South won trick 2."""
    tricks = ["W:DJ N:DA E:D6 S:D4", "N:- E:ST S:SA W:^RS6", "S:^LHA W:H6 N:H3 E:H2"]
    a, got = audit(D1, "4H", tricks, result=12, stopped=True)
    assert got == [("RC032", "", None, "W"), ("RC013", "", 2, "N")]
    assert messages(a, "RC013") == ["trick 2: North's lead is not recorded, so the other cards "
                                    "of the trick cannot be checked for revokes"]
    assert messages(a, "RC032") == ["S6 is marked ^R but could not be checked: the lead to "
                                    "trick 2 is not recorded, so the suit led is not known"]


def test_his_later_failure_to_follow_is_a_revoke_when_he_certainly_held_the_suit():
    """East's card to trick 1 (West leads DJ) is not recorded: one of his D9 D8 D7 D6.  On
    trick 2 he discards C9 on North's DK.  He had four diamonds and at most one is gone, and
    D8, which he plays on trick 3, he certainly still held: a revoke, holding D8.  South ruffs
    trick 3; E-W win nothing from trick 2 on in the claim of 13: no transfer (64B1)."""
    tricks = ["W:DJ N:DA E:- S:D4", "N:DK E:C9 S:D5 W:D2", "N:DQ E:D8 S:HT W:D3"]
    a, got = audit(D1, "4H", tricks, result=13, stopped=True)
    assert got == [("RC013", "", 1, "E"), ("RV002", "64B1", 2, "E")]
    rv = a.findings[1]
    assert "played C9 on a diamond lead holding D8:" in rv.message


def test_his_later_failure_to_follow_is_not_judged_when_it_hangs_on_the_unrecorded_card():
    """East's card to trick 3 (South leads HA) is not recorded.  He held one heart, H2, and
    had to follow with it, but the record does not say so.  On trick 4 he discards SJ on
    South's HK (marked ^R): a revoke only if the unrecorded card was not H2 - not judged, and
    the mark is answered with the reason."""
    tricks = ["W:DJ N:DA E:D6 S:D4", "N:S2 E:ST S:SA W:S6", "S:HA W:H6 N:H3 E:-",
              "S:HK W:H7 N:H4 E:^RSJ"]
    a, got = audit(D1, "4H", tricks, result=12, stopped=True)
    assert got == [("RC013", "", 3, "E"), ("RC032", "", None, "E")]
    assert messages(a, "RC032") == [
        "SJ is marked ^R but could not be checked: trick 4: East played SJ, but whether he "
        "still held the suit led depends on his earlier card that is not recorded"]


def test_unrecorded_cards_after_the_last_card_in_time_order_only_end_the_record():
    """The line of trick 5 in seat columns from West: '- DA - -'.  North leads DA; the three
    cards after it in time order are not given, and no trick follows: the record just stops
    there (as after a claim at the lead), which is no unrecorded card."""
    tricks = BASE2[:4] + ["W:- N:DA E:- S:-"]
    a, got = audit(D2, "3NT", tricks)
    assert got == [] and a.replay.play_status == "partial"


def test_62d_correction_needs_the_hands_at_trick_12():
    """TWELFTH_REVOKE with East's cards to tricks 1 and 13 not recorded: his card to trick 1
    is D8 or his last card, C7, and the record never tells which, so the hands before trick 12
    are not known and the correction cannot be worked out - the finding says exactly that."""
    tricks = ["W:DJ N:DK E:- S:D4"] + TWELFTH_REVOKE[1:12] + ["S:C3 W:H8 N:S5 E:-"]
    a, got = audit(D1, "4H", tricks)
    assert ("RV003", "62D", 12, "W") in got
    (rv,) = [f for f in a.findings if f.code == "RV003"]
    assert rv.message.endswith("the correction cannot be worked out: cards not recorded earlier "
                               "in the play leave the hands at trick 12 unknown")


def test_explain_shows_the_unrecorded_card():
    tricks = WEST_REVOKES_4[:3] + ["E:SQ S:- W:H7 N:SK", "N:DA E:D2 S:D8 W:D5"]
    text = explain_text(audit_board(board(D2, "3NT", "S", tricks, result=9, stopped=True), AT_TABLE))
    assert "      ? a card played that the record does not give\n" in text
    assert " 4  E    SQ   S ?   W H7*  N SK" in text


@pytest.mark.skipif(not CORPUS.is_dir(), reason="the shared corpus is not present")
def test_1997_european_team_championship_board_7_open_room():
    """North leads S7 against 3H by West; East's card is not recorded; South plays H5, marked
    ^R in the file, holding SA SQ S4; West's card is not given and the record ends there with
    Result 8.  Two cards of one trick establish nothing (no trick whole, no claim recorded):
    the board cannot bear a ruling (RC017), the mark is answered with that reason (RC032), and
    the stated 8 tricks stand - no "claim after 0 tricks" transfer, whatever the discovery."""
    path = next(CORPUS.rglob("O1o11212.pbn"))
    (rec,) = find_board([path], board=7, room="open")
    for options in (AT_TABLE, AuditOptions()):
        a = audit_board(rec, options)
        got = [(f.code, f.trick) for f in a.findings]
        assert got == [("RC017", None), ("RC032", None), ("RC013", 1)]
        assert "only 0 whole tricks recorded" in messages(a, "RC017")[0]
        assert messages(a, "RC032")[0].startswith("H5 is marked ^R but could not be checked: "
                                                  "the record cannot bear a ruling")
        assert (a.ruling.tricks_played, a.ruling.tricks_adjusted) == (8, 8)


def test_two_players_failing_to_follow_before_the_replay_stops_are_a_misrecorded_lead():
    """Trick 3 of BASE2 with West discarding D5 (holding H7 H6) and North C3 (holding H4) on
    East's HQ lead, then North's card to trick 4 not recorded: East leads S9, North holds AK2,
    so whether he won decides the next lead and the replay stops there.  The two failures to
    follow on one trick are still a mis-recorded lead (RC015), not two revokes - as they are
    when the play runs to the end (real case: 1998 World Championships, R16FIN2.PBN board 6)."""
    tricks = BASE2[:2] + ["E:HQ S:HJ W:D5 N:C3", "E:S9 S:S6 W:S3 N:-", "N:DA E:D2 S:D8 W:D6"]
    a, got = audit(D2, "3NT", tricks, result=9, stopped=True)
    assert a.replay.stopped_at == 4
    assert got == [("RC015", "", 3, "E"), ("RC013", "", 4, "N")]
    assert a.status == "inconsistent"


FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def _fixture_audits(options=None):
    from revoke_audit.formats import read_boards
    path = FIXTURES / "pbn" / "unreadable_and_unplayed.pbn"
    return {r.board: audit_board(r, options or AuditOptions()) for r in read_boards([path])}


def test_a_card_the_reader_cannot_read_is_unknown_never_omitted():
    """fixtures/pbn/unreadable_and_unplayed.pbn game 1: D1's BASE1 (declarer 13 tricks) with
    North's H5 on trick 5 written "H0".  The record holds a card there, so it is no card
    omitted (no DT001, no 67B1 deemed revoke against North): it is unknown, and North's other
    twelve cards (DA S2 H3 H4 S3 CA CK CQ DK DQ S4 S5) all appear elsewhere, so it can only be
    H5 - which follows the HQ lead (no revoke).  The board is a record problem, not a penalty:
    13 tricks stand."""
    a = _fixture_audits()["1"]
    assert [f.code for f in a.findings] == ["PS116", "RC013"]
    assert messages(a, "RC013") == ["trick 5: North's card cannot be read; it can only be H5, "
                                    "the one card of his that the rest of the play does not "
                                    "show, so the play is checked with it"]
    assert (a.ruling.tricks_played, a.ruling.tricks_adjusted, a.status) == (13, 13, "inconsistent")


def test_two_unreadable_cards_of_one_player_stay_unknown_and_no_penalty():
    """Game 2: as game 1, and North's S3 on trick 6 written "S0" as well.  North's cards not
    shown elsewhere are H5 and S3: neither card is deduced alone, both are unknown (the trick
    winners still follow: South's HQ and HJ are above anything North can hold in hearts).
    Still no DT001, no revoke: 13 tricks stand."""
    a = _fixture_audits(AT_TABLE)["2"]
    assert [f.code for f in a.findings] == ["PS116", "RC013", "PS116", "RC013"]
    assert all("North's card cannot be read" in m for m in messages(a, "RC013"))
    assert (a.ruling.tricks_played, a.ruling.tricks_adjusted) == (13, 13)


def test_a_written_dash_in_a_full_record_is_still_an_omitted_card():
    """The control: game 1 with North's card written "-" (the record says no card there) in a
    record of all 52 places: that is Law 67B's omitted card as before (DT001)."""
    text = (FIXTURES / "pbn" / "unreadable_and_unplayed.pbn").read_text()
    from revoke_audit.formats import read_boards
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "dash.pbn"
        path.write_text(text.replace("H8 H0 SQ HQ", "H8 - SQ HQ", 1))
        records = [r for r in read_boards([path]) if r.board == "1"]
        codes = [f.code for f in audit_board(records[0], AT_TABLE).findings]
    assert "DT001" in codes


# D1 played in 4S by South (spades trumps).  1: W DJ, N DA, E D6, S D4 -> N.  2: N DK, E D7,
# S D5, W D2 -> N.  3: N H3, East's card not recorded, South's not recorded, W C2 - West
# fails to follow holding H9876 (a revoke).  4 (in the record, by seat): S HA, W H6, N H4,
# E H2; then the record stops with a Result of 10.  East's only heart, the H2, is on trick 4,
# so his card to trick 3 was no heart: a spade (he holds KQJT) ruffs the H3 and wins; a
# diamond or club does not, and then South's heart (any of AKQJT, over the H3) wins.  So who
# won trick 3 hangs on East's card, never on South's: with East's card fixed, South's changes
# nothing.  The replay stops there; the record goes on, and West himself plays to trick 4
# (63A1).
STOPS_AT_3 = ["W:DJ N:DA E:D6 S:D4", "N:DK E:D7 S:D5 W:D2", "N:H3 E:- S:- W:C2",
              "S:HA W:H6 N:H4 E:H2"]


def _stops_at_3():
    return audit_board(board(D1, "4S", "S", STOPS_AT_3, result=10), AuditOptions())


def test_the_unrecorded_card_that_decides_the_trick_is_the_one_named():
    a = _stops_at_3()
    east, south = messages(a, "RC013")
    assert east.startswith("trick 3: East's card is not recorded")
    assert ("(the record shows his H2 played on another trick, so this card was of another "
            "suit); who won trick 3 depends on it, so nothing after it can be checked") in east
    assert south.startswith("trick 3: South's card is not recorded")
    assert "depends on it" not in south
    assert [(f.code, f.trick, f.seat) for f in a.findings if f.code.startswith("RV")] == \
        [("RV002", 3, 3)]


def test_a_record_that_goes_on_past_the_stop_is_no_claim_and_establishes_by_play():
    """The record's trick 4 has West's H6: the revoke is established by his play to the next
    trick (63A1), not by a claim (63A3); and the play's end says the record goes on to trick 4
    with no claim, its Result the table's total (10, also the ruling after the round: 64B5)."""
    a = _stops_at_3()
    text = " ".join(explain_text(a).split())
    assert ("The replay stops at trick 3 (see the findings); the record's play goes on to trick 4 "
            "and ends there with no claim recorded; its Result, 10 tricks for declarer, is taken "
            "as the table's total") in text
    assert "Claim after" not in text
    assert "tricks for declarer, as the Result states: 10" in text
    assert ("established when he played to trick 4 (63A1: the record goes on past the trick "
            "where the replay had to stop)") in text
    assert "63A3" not in text
    assert "tricks for declarer: 10 by the Result, 10 adjusted" in text


def test_an_unrecorded_lead_and_follower_in_one_trick_each_suit_tried():
    """East's lead to trick 2 and North's card to it are not recorded (South's HT and West's H5
    are; the record stops after trick 3 with a claim).  North's card may be any card of the
    suit East led, and East may have led any suit: a spade (QJT9) lets North's SA or SK win
    and his S2 lose; a heart (KQ) beats North's H4 or H3; a diamond (432) loses to North's
    AKQJ; a club (876) beats his C5 C4 C3.  So East or North won, and North's card alone
    decides it (East's lead alone never does: North's card fixes the suit led); nothing after
    trick 2 is checked.  With North's DA marked ^L on trick 3, North won trick 2 and play goes
    on."""
    tricks = BASE2[:1] + ["E:- S:HT W:H5 N:-", "N:DA E:D2 S:D8 W:D6"]
    a, got = audit(D2, "3NT", tricks, result=10, stopped=True)
    assert got == [("RC013", "", 2, "E"), ("RC013", "", 2, "N")]
    east, north = messages(a, "RC013")
    assert east == ("trick 2: East's lead is not recorded, so the other cards of the trick "
                    "cannot be checked for revokes")
    assert north == ("trick 2: North's card is not recorded; who won trick 2 depends on it, "
                     "so nothing after it can be checked")
    assert a.replay.stopped_at == 2 and a.replay.tricks[1].winner is None
    tricks[2] = "N:^LDA E:D2 S:D8 W:D6"
    a, got = audit(D2, "3NT", tricks, result=10, stopped=True)
    assert a.replay.stopped_at is None and a.replay.tricks[1].winner == 0
    assert len(a.replay.complete_tricks) == 3
