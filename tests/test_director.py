"""The Director's words (``director``): what he must confirm before signing - a revoke card
that may be the recorder's slip, and any revoke by dummy - and whether the ruling depends on
it.  The plays are those of ``deals.py``; each other reading is worked out by hand below."""
from builders import board
from deals import D1, D2, DUMMY_REVOKES_1, WEST_REVOKES_4, WEST_RUFFS_2

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
            "his C3 on trick 2 becomes the revoke and the ruling is the same either way (10 "
            "tricks for declarer)") in words
    row = board_row(a)
    assert row["confirm_card"] == "trick 1 North C3 (H3?)"
    assert f"{CONFIRM}: trick 1 North C3 (H3?)" in director_line(row)


def test_a_slip_whose_other_reading_rules_otherwise():
    """WEST_RUFFS_2 (D1, 4H by South): West's H6 on trick 2's spade lead, holding S7 S6, wins
    the trick; the record has his S6 on trick 11 (South's HJ lead).  Read the other way, West
    follows with S6 to trick 2 (South's SA wins it) and with H6 to trick 11: no revoke, and
    declarer wins all 13 - not the 12 of the ruling as recorded (found after the round); nor
    is there a revoke for Law 64C to weigh."""
    a = _audit(D1, "4H", WEST_RUFFS_2)
    (words,) = _words(a)
    assert "read as S6, there is no revoke: no ruling, declarer keeps 13 tricks" in words
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
