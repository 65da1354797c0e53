"""The table's own ruling found in the stated result (``ruling.table_ruling``: LW002, and RC022
when none is), on deal D2 of ``deals.py`` (3NT by South, 10 tricks in the clean play):

    N AK2.432.AKQJ.543   E QJT9.AKQ.432.876   S 876.JT9.T98.AKQJ   W 543.8765.765.T92
"""
from builders import board
from deals import D2, WEST_REVOKES_3

from revoke_audit.laws import get_edition
from revoke_audit.replay import replay
from revoke_audit.replay.by_cards import at_end
from revoke_audit.ruling.table_ruling import as_held, not_given, table_ruling


def ruled_at_table(result):
    rp = replay(board(D2, "3NT", "S", WEST_REVOKES_3, result=result))
    return rp, table_ruling(rp, get_edition("2017"), result, at_end(rp))


def test_a_result_that_holds_the_automatic_transfer_is_the_tables_ruling():
    """WEST_REVOKES_3: West discards on trick 3 and East wins it; declarer takes 10 by the
    cards (the play is complete).  64A2 at the table moves one trick: 11.  A stated 11 is that
    ruling (Law 64A2, from 10 by the cards); ruled as held, 11 stands with LW002 and no
    further trick moves."""
    rp, held = ruled_at_table(11)
    assert held is not None and held.from_cards == 10 and held.plays == [rp]
    ruling = as_held(rp, held, 11, 10, (10, 10))
    assert (ruling.tricks_played, ruling.tricks_adjusted, ruling.basis) == (
        10, 11, "table ruling in record")
    assert [f.code for f in ruling.findings][-1] == "LW002"


def test_a_result_no_ruling_gives_is_a_record_error():
    """A stated 12: neither the cards (10) nor 64A2 (11) give it; no table's ruling, and the
    RC022 words say what the cards allow."""
    rp, held = ruled_at_table(12)
    assert held is None
    f = not_given(rp, (10, 10), 12)
    assert f.code == "RC022" and "Result of 12 tricks" in f.message and "(10)" in f.message
