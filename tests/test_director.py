"""The Director's words (``director``): what he must confirm before signing - a revoke card
that may be the recorder's slip, and any revoke by dummy - and whether the ruling depends on
it.  The plays are those of ``deals.py``; each other reading is worked out by hand below."""
from builders import board
from deals import (BASE2, D1, D2, DECLARER_REVOKES_5, DUMMY_REVOKES_1, WEST_REVOKES_4,
                   WEST_RUFFS_2)

from revoke_audit.ruling.audit import audit_board
from revoke_audit.ruling.director import CONFIRM, ruling_text
from revoke_audit.ruling.options import AuditOptions
from revoke_audit.reports.report import director_line
from revoke_audit.reports.rows import board_row


def _audit(deal, contract, tricks, discovered="after-round"):
    return audit_board(board(deal, contract, "S", tricks),
                       AuditOptions(discovered=discovered, equity=False))


def _words(a):
    return [ruling_text(a, f) for f in a.findings if f.code.startswith("RV")]


def test_a_slip_whose_other_reading_rules_the_same():
    """DUMMY_REVOKES_1 (D2, 3NT by South): dummy's C3 on trick 1's heart lead, holding H4 H3
    H2; the record has his H3 on trick 2.  Read the other way - H3 to trick 1, C3 to trick 2 on
    East's HK, holding H4 H2 - the revoke moves to trick 2, still dummy's (64B3, no transfer),
    and East wins both tricks either way: 10 tricks for declarer either way."""
    a = _audit(D2, "3NT", DUMMY_REVOKES_1)
    (words,) = _words(a)
    assert (f"possibly a recording slip (he held H3, of the same rank): {CONFIRM}; read as H3, "
            "his C3 on trick 2 becomes the revoke (holding H4 H2) and the ruling is the same "
            "either way (10 "
            "tricks for declarer)") in words
    row = board_row(a)
    assert row["confirm_card"] == "trick 1 North C3 (H3?)"
    assert f"{CONFIRM}: trick 1 North C3 (H3?)" in director_line(row)


def test_a_slip_whose_other_reading_rules_otherwise():
    """WEST_RUFFS_2 (D1, 4H by South): West's H6 on trick 2's spade lead, holding S7 S6, wins
    the trick; the record has his S6 on trick 11 (South's HJ lead).  Read the other way, West
    follows with S6 to trick 2 (South's SA wins it, so South leads trick 3: D5, then W D2, N DK,
    E D7 - diamonds all, as under West's lead) and with H6 to trick 11: no revoke, and
    declarer wins all 13 - not the 12 of the ruling as recorded (found after the round); nor
    is there a revoke for Law 64C to weigh."""
    a = _audit(D1, "4H", WEST_RUFFS_2)
    (words,) = _words(a)
    assert ("read as S6, South would have won trick 2 and led trick 3; the record's trick 3 "
            "fits either lead; there is no revoke: no ruling, declarer keeps 13 tricks") in words
    assert board_row(a)["confirm_card"] == "trick 2 West H6 (S6?)"


def test_no_confirmation_asked_for_a_card_of_another_rank():
    """WEST_REVOKES_4: H7 on a spade lead holding S5 S4 S3 - no spade of that rank."""
    a = _audit(D2, "3NT", WEST_REVOKES_4)
    assert all(CONFIRM not in w for w in _words(a))
    assert board_row(a)["confirm_card"] is None


def test_dummy_revokes_are_confirmed_like_slips():
    """Dummy's C3 on trick 1 again, but with the H3 moved out of his hand (D2 with North's H3
    and West's H5 exchanged, the plays alike): no card of the same rank, still dummy's - on
    view, at championship level usually the operator's slip."""
    deal = "N:AK2.542.AKQJ.543 QJT9.AKQ.432.876 876.JT9.T98.AKQJ 543.8763.765.T92"
    play = ["W:H8 N:C3 E:HA S:H9", "E:HK S:HT W:H3 N:H5", "E:HQ S:HJ W:H6 N:H4"] + \
        DUMMY_REVOKES_1[3:]
    a = _audit(deal, "3NT", play)
    (words,) = _words(a)
    assert f"a revoke by dummy, whose cards are on view: at championship level usually the " \
        f"operator's slip - {CONFIRM}" in words
    assert board_row(a)["confirm_card"] == "trick 1 North C3 (dummy)"


# D2 with South's HT9 and West's D76 exchanged: South holds a singleton HJ, West H T98765.
#     N AK2.432.AKQJ.543   E QJT9.AKQ.432.876   S 876.J.T9876.AKQJ   W 543.T98765.5.T92
D2_SOUTH_HJ = "N:AK2.432.AKQJ.543 QJT9.AKQ.432.876 876.J.T9876.AKQJ 543.T98765.5.T92"
# 3NT by South.  1: W H8, N H2, E HA, S D6 (South keeps HJ) -> E.  2: E HK, S D7 (keeps HJ
# again), W H5, N H3 -> E.  3: E SQ, S S6, W S3, N SK -> N.  4: N DA, E D2, S D8, W D5 -> N.
# Then the record stops; its Result gives declarer 10 (N-S won 2 of 4; SA, DKQJ and CAKQJ
# make 8 of the 9 left).  South never plays the HJ.
SOUTH_KEEPS_HJ = ["W:H8 N:H2 E:HA S:D6", "E:HK S:D7 W:H5 N:H3", "E:SQ S:S6 W:S3 N:SK",
                  "N:DA E:D2 S:D8 W:D5"]


def test_two_revokes_keeping_the_same_card_ask_for_the_deal_to_be_confirmed():
    """South fails twice to follow hearts (D6 on trick 1, D7 on trick 2) while keeping the HJ,
    which he never plays: far likelier the deal misplaces his HJ than two revokes.  The ruling
    as recorded stands (after the round: 64B5 for the first, 64B2 for the second, 10 tricks;
    had the table known, 64A2 moves one trick, as East won trick 1 and N-S won tricks 3-4: 9),
    and every place the Director reads says what to confirm: the paragraph of each revoke, the
    confirm_card column (so the page and the summary line)."""
    a = audit_board(board(D2_SOUTH_HJ, "3NT", "S", SOUTH_KEEPS_HJ, result=10),
                    AuditOptions(equity=False))
    assert [(f.code, f.trick) for f in a.findings if f.code.startswith("RV")] == \
        [("RV002", 1), ("RV002", 2)]
    assert (a.ruling.tricks_adjusted, a.ruling.tricks_automatic) == (10, 9)
    for words in _words(a):
        assert ("likely a deal error, not 2 revokes: he failed to follow a heart lead on tricks "
                "1 and 2 while keeping HJ, which the record never shows him playing: the deal "
                f"probably misplaces his HJ - {CONFIRM}") in words
    row = board_row(a)
    assert row["confirm_card"] == ("trick 1 South D6 (kept HJ: deal error?); "
                                   "trick 2 South D7 (kept HJ: deal error?)")
    assert f"{CONFIRM}: trick 1 South D6 (kept HJ: deal error?)" in director_line(row)


def test_one_revoke_keeping_a_card_is_no_deal_error():
    """The same deal, South following with the HJ on trick 2 (E HK, S HJ, W H5, N H3 -> E):
    only trick 1's D6 is a revoke, and one failure to follow is no sign of a misplaced card
    (the D6 has no heart twin: the H6 is West's)."""
    play = ["W:H8 N:H2 E:HA S:D6", "E:HK S:HJ W:H5 N:H3", "E:SQ S:S6 W:S3 N:SK",
            "N:DA E:D2 S:D8 W:D5"]
    a = audit_board(board(D2_SOUTH_HJ, "3NT", "S", play, result=10), AuditOptions(equity=False))
    assert [f.trick for f in a.findings if f.code.startswith("RV")] == [1]
    assert board_row(a)["confirm_card"] is None


# A deal built for the next trick's lead (Law 44G), hearts trumps, 4H by South, West leads.
#     N KQJ2.T982.98764.   E .AKQJ5.T5.765432   S T9876543.763.32.   W A.4.AKQJ.AKQJT98
# North and South hold no club; East no spade.
LEAD_DEAL = "N:KQJ2.T982.98764. .AKQJ5.T5.765432 T9876543.763.32. A.4.AKQJ.AKQJT98"


def test_a_slip_read_the_other_way_must_fit_the_next_lead():
    """Trick 1: W H4, N H2, E D5 (holding H AKQJ5), S H3 - West's H4, the only trump, wins.
    Trick 2: W SA, N S2, E C3 (no spade), S S4 -> W.  Trick 3: W CA, N D4, E C2, S D2 -> W.
    Read as H5 (his H5 for the D5), East's H5 beats the H4: East wins trick 1 and leads trick 2
    with the C3, and West's SA would then fail to follow clubs holding seven of them; as
    recorded, West's lead of the SA is followed by all.  So the D5 is the likelier card - not
    "there is no revoke" (that way West revokes on trick 2)."""
    play = ["W:H4 N:H2 E:D5 S:H3", "W:SA N:S2 E:C3 S:S4", "W:CA N:D4 E:C2 S:D2"]
    a = audit_board(board(LEAD_DEAL, "4H", "S", play, result=4), AuditOptions(equity=False))
    (words,) = _words(a)
    assert ("read as H5, East would have won trick 1 and led trick 2, where West's SA would "
            "fail to follow a club lead, holding") in words
    assert ("the record's trick 2 fits West's lead, as the D5 makes West the winner of the "
            "trick: the card as recorded is the likelier") in words
    assert "there is no revoke" not in words
    assert board_row(a)["confirm_card"] == "trick 1 East D5 (H5?)"


def test_a_slip_whose_other_reading_the_next_lead_confirms():
    """The same trick 1; then the record has E HA, S H6, W CA, N H8 and E C3, S S4, W C8, N S2.
    As recorded West won trick 1 and leads the CA: North ruffs with the H8 and East's HA - a
    trump, holding six clubs - fails to follow: a second revoke of East's.  Read as H5, East
    wins trick 1 and leads the HA: South and North follow, West (no heart left) discards the CA,
    East wins; East leads trick 3 either way (C3, S4, C8, S2 -> W).  The next lead confirms
    the H5, and that way there is no revoke at all: declarer keeps the Result's 4."""
    play = ["W:H4 N:H2 E:D5 S:H3", "E:HA S:H6 W:CA N:H8", "E:C3 S:S4 W:C8 N:S2"]
    a = audit_board(board(LEAD_DEAL, "4H", "S", play, result=4), AuditOptions(equity=False))
    first = next(w for w in _words(a) if "trick 1:" in w)
    assert ("read as H5, East would have won trick 1 and led trick 2, and the record's trick 2 "
            "fits that lead: as recorded, West wins trick 1, leads, and East's HA fails to "
            "follow a club lead, holding C7 C6 C5 C4 C3 C2, which East's lead explains: the "
            "reading H5 is the likelier: read that way, there is no revoke: no ruling, "
            "declarer keeps 4 tricks") in first


# D2 (3NT by South), West's S5 written at trick 5 where he held D765: a possible slip for D5.
# 1-4 as BASE2 (E, E, E, N).  5: N DA, E D2, S D8, W S5 (revoke, holding D765) -> N.
# 6: N SA, E ST, S S8, W S4 -> N.  7: N S2, E SJ, S S7, W H7 (no spade left as recorded) -> E.
# 8: E C6, S CA, W C2, N C3 -> S.  9-11: S CK, CQ, CJ (W C9, CT, then D5) -> S.
# 12: S D9, W D6, N DK, E D3 -> N.  13: N DQ, E D4, S DT, W D7 -> N.  Declarer 9.
WEST_S5_FOR_D5 = BASE2[:4] + [
    "N:DA E:D2 S:D8 W:S5", "N:SA E:ST S:S8 W:S4", "N:S2 E:SJ S:S7 W:H7",
    "E:C6 S:CA W:C2 N:C3", "S:CK W:C9 N:C4 E:C7", "S:CQ W:CT N:C5 E:C8",
    "S:CJ W:D5 N:DJ E:S9", "S:D9 W:D6 N:DK E:D3", "N:DQ E:D4 S:DT W:D7"]


def test_the_other_reading_names_the_card_played_at_the_later_trick():
    """WEST_S5_FOR_D5: read as D5 at trick 5 (West follows; North's DA still wins it), West
    keeps S5, and at trick 7 (North's S2 lead) his H7 fails to follow holding S5: that card,
    not the S5 of trick 5, becomes the revoke.  It is found after the round (64B5) either way,
    and East-West win trick 7 either way, so declarer keeps the 9 played either way."""
    a = _audit(D2, "3NT", WEST_S5_FOR_D5)
    (words,) = _words(a)
    assert ("read as D5, his H7 on trick 7 becomes the revoke (holding S5) and the ruling is "
            "the same either way (9 tricks for declarer)") in words
    assert board_row(a)["confirm_card"] == "trick 5 West S5 (D5?)"


# D2 (3NT by South), tricks 1-4 as BASE2 (E, E, E, N); the record's last line is trick 5,
# unfinished: N DA, E D2, S S7 (South, declarer, holds DT D9 D8), West's card not recorded;
# then the Result, 10 tricks (the claim).  North's DA wins trick 5 whatever West plays (the top diamond, no
# trump).  The revoke is established by the claim (63A3); had the table known, 64A2 takes one
# trick (North, of the offending side, won the revoke trick): 9.
DECLARER_LAST_LINE = BASE2[:4] + ["N:DA E:D2 S:S7 W:-"]


def test_declarers_revoke_on_the_records_unfinished_last_line_is_confirmed():
    """Declarer failing to follow his own side's lead on the record's unfinished last trick
    is far likelier the operator's slip: confirmed like dummy's.  After the round (64B5) the
    result stands (10) and without the revoke there is no ruling either: the same either way.
    At the table 64A2 gives 9: without the revoke declarer keeps 10, so it matters."""
    rec = board(D2, "3NT", "S", DECLARER_LAST_LINE, result=10)
    a = audit_board(rec, AuditOptions(equity=False))
    (words,) = _words(a)
    assert (f"declarer's card on his own side's lead, on the record's unfinished last trick "
            f"before it ends: very likely the operator's slip - {CONFIRM}; without the revoke "
            "there is no ruling and the result stands: the ruling is the same either way (10 "
            "tricks for declarer)") in words
    assert board_row(a)["confirm_card"] == "trick 5 South S7 (declarer: last line)"
    a = audit_board(rec, AuditOptions(equity=False, discovered="table"))
    assert a.ruling.tricks_adjusted == 9
    (words,) = _words(a)
    assert "without the revoke there is no ruling: declarer would keep 10 tricks, not the " \
        "ruling's" in words


def test_declarers_revoke_on_a_finished_trick_is_not_asked_to_be_confirmed():
    """DECLARER_REVOKES_5 (D2): South's S7 on North's DA lead holding DT98, a complete trick
    with play going on: a revoke as recorded, no slip to confirm."""
    a = _audit(D2, "3NT", DECLARER_REVOKES_5)
    assert all(CONFIRM not in w for w in _words(a))


def test_a_confirm_cell_has_no_comma():
    """boards.csv's cells after the field's are patched as plain text (``field_reports``):
    confirm_card must hold no comma, whatever its kind."""
    rec = board(D2, "3NT", "S", DECLARER_LAST_LINE, result=10)
    cells = [board_row(audit_board(rec, AuditOptions(equity=False)))["confirm_card"],
             board_row(_audit(D2, "3NT", DUMMY_REVOKES_1))["confirm_card"]]
    assert all(c and "," not in c for c in cells)


# Dummy ruffing a suit twice while keeping his one card of it.  4S by South, West leads.
#     N AKQ2.AKQJ2.K32.7   E 543.543.QJT94.43   S JT9876.76.876.62   W .T98.A5.AKQJT985
DUMMY_C7 = "N:AKQ2.AKQJ2.K32.7 543.543.QJT94.43 JT9876.76.876.62 .T98.A5.AKQJT985"
# 1: W C5, N S2 (dummy holds C7: a revoke, established when he plays to trick 2), E C3, S C2
#    -> N (the only trump).  2: N DK, E D4, S D6, W DA -> W.  3: W C8, N SQ (still holding
#    C7: a second revoke, established on trick 4), E C4, S C6 -> N.  4: N SA, E S3, S S6, W H8
#    -> N.  The record stops there; its Result gives declarer 10 (4S=, N-S +420).
# Read with the C7 at trick 1 (one slip for the S2): W C5, N C7, E C3, S C2 -> N still (C7 is
# the highest club), so N leads trick 2 as recorded; dummy is then void of clubs and his SQ on
# trick 3 a legal ruff: no revoke at all, no 64C, and the Result's 4S= +420 stands.
DUMMY_RUFFS_TWICE = ["W:C5 N:S2 E:C3 S:C2", "N:DK E:D4 S:D6 W:DA", "W:C8 N:SQ E:C4 S:C6",
                     "N:SA E:S3 S:S6 W:H8"]


def test_dummy_failing_twice_keeping_one_card_is_one_slip_that_removes_both():
    rec = board(DUMMY_C7, "4S", "S", DUMMY_RUFFS_TWICE, result=10)
    for equity in (False, True):
        a = audit_board(rec, AuditOptions(equity=equity))
        assert [(f.code, f.law, f.trick) for f in a.findings if f.code.startswith("RV")] == \
            [("RV002", "64B3", 1), ("RV002", "64B3", 3)]
        for words in _words(a):
            assert ("dummy failed to follow a club lead on tricks 1 and 3 while keeping C7: "
                    "likely one recording slip, C7 at trick 1 (the trick's winner and the next "
                    "lead are unchanged), or a misplaced C7 in the deal, not 2 revokes; read "
                    "that way, there is no revoke and no 64C: 4S= by South, N-S +420 stands; "
                    "confirm trick 1 with the record's source before signing") in words
            adjusted = a.ruling_64c == "adjusted"
            assert ("the 64C adjustment, which rests on it" in words) == adjusted
        cell = board_row(a)["confirm_card"]
        assert cell.startswith("trick 1 North S2 (C7 at trick 1? one slip: no revoke")
        assert "trick 3 North SQ (C7 at trick 1?" in cell and "," not in cell  # a plain cell


def test_dummy_keeping_one_card_whose_slip_would_change_the_lead_is_a_likely_deal_error():
    """DUMMY_C7 with West leading the C8 to trick 1 (and the C9 to trick 3): 1: W C8, N S2, E
    C3, S C2 -> N; 2: N DK, E D4, S D6, W DA -> W; 3: W C9, N SQ, E C4, S C6 -> N; 4 as above.
    Read with the C7 at trick 1, West's C8 beats it: West would win trick 1 and lead trick 2,
    which the record has North leading - no single slip explains both revokes, so dummy's
    double failure keeping the C7 is flagged as a likely deal error, as any player's is."""
    play = ["W:C8 N:S2 E:C3 S:C2"] + DUMMY_RUFFS_TWICE[1:2] + ["W:C9 N:SQ E:C4 S:C6"] + \
        DUMMY_RUFFS_TWICE[3:]
    a = audit_board(board(DUMMY_C7, "4S", "S", play, result=10), AuditOptions(equity=False))
    for words in _words(a):
        assert ("likely a deal error, not 2 revokes: he failed to follow a club lead on tricks 1 "
                "and 3 while keeping C7, which the record never shows him playing") in words
        assert "one recording slip" not in words
    assert board_row(a)["confirm_card"] == ("trick 1 North S2 (kept C7: deal error?); "
                                            "trick 3 North SQ (kept C7: deal error?)")
