"""Double-dummy estimates for Law 64C (``--equity``), on positions worked out by hand."""
from builders import board
from deals import BASE2, D2, WEST_REVOKES_3, WEST_REVOKES_9

from revoke_audit.audit import audit_board


def equity_findings(tricks):
    a = audit_board(board(D2, "3NT", "S", tricks), equity=True)
    return a, [(f.code, f.trick, f.equity_tricks) for f in a.findings]


def test_no_review_when_the_transfer_covers_the_damage():
    """W revokes on trick 3.  Had he followed (H6/H7), E still wins trick 3 and N-S take the
    other ten (W's last heart has no entry): 10 tricks.  The automatic result is 11: no 64C."""
    a, got = equity_findings(WEST_REVOKES_3)
    assert got == [("RV001", 3, 10)]
    assert a.ruling.tricks_adjusted == 11


def test_review_when_following_would_have_given_more():
    """W revokes on trick 9 (see deals.WEST_REVOKES_9): 8 played, 9 after 64A2, but had he
    followed, N-S take all of the last five tricks: 10.  EQ001 asks for a 64C review."""
    a, got = equity_findings(WEST_REVOKES_9)
    assert got == [("RV001", 9, 10), ("EQ001", 9, 10)]
    assert (a.replay.tricks_played, a.ruling.tricks_adjusted) == (8, 9)
    assert "64C" in a.findings[-1].message and a.findings[-1].law == "64C"


def test_no_equity_without_the_option_or_without_a_revoke():
    a = audit_board(board(D2, "3NT", "S", WEST_REVOKES_9))
    assert [f.equity_tricks for f in a.findings] == [None]
    assert audit_board(board(D2, "3NT", "S", BASE2), equity=True).findings == []
