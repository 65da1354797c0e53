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


def test_the_1997_second_trick_the_cards_force_finds_the_tables_ruling(tmp_path):
    """fixtures/rulings/1997-second-trick-by-the-cards.pbn, board 1 with South winning trick 5
    (DA, West DT) and Result 12: declarer has 5 after trick 5 and the cards allow 7 to 11.
    West revoked on trick 2 and still holds SJ, the top trump left: he must win a trick of
    the rest with it, and E-W take another (at least 2 of tricks 6-13 in every total the cards
    allow), so 64A2 (1997) moves 2 tricks from each: 7 -> 9, ..., 10 -> 12, 11 -> 13.  Only 10
    gives the stated 12: the table's ruling under the 1997 Laws applied (the 2017 Laws, tried
    first when applied, find 11 + 1)."""
    from pathlib import Path

    from revoke_audit.formats import read_boards

    text = (Path(__file__).resolve().parents[1] / "fixtures" / "rulings"
            / "1997-second-trick-by-the-cards.pbn").read_text()
    start = text.index("[Event")
    path = tmp_path / "x.pbn"
    path.write_text(text[start:text.index("\n\n[Event", start)].replace(
        "DQ D3 D6 D2", "DT D3 D6 DA").replace('[Result "10"]', '[Result "12"]') + "\n")
    rp = replay(next(iter(read_boards([path]))))
    cards = at_end(rp)
    assert cards.span == (7, 11)
    held = table_ruling(rp, get_edition("1997"), 12, cards)
    assert held is not None and (held.from_cards, held.title) == (10, "the 1997 Laws")
    assert table_ruling(rp, get_edition("2017"), 12, cards).from_cards == 11  # 2017: one trick
    ruling = as_held(rp, held, 12, None, cards.span)
    (revoke,) = [f for f in ruling.findings if f.code == "RV001"]
    assert revoke.transferred == 2 and "West must win a trick of the claim with SJ" in revoke.message
    assert ("the cards allow declarer 7 to 11 over tricks 6-13 (the record stops after trick 5);"
            " only 10 with 64A2's 2 tricks (the 1997 Laws) gives the stated 12") in \
        ruling.findings[-1].message


def test_in_stated_asks_the_editions_once_and_says_what_the_stated_result_holds():
    """WEST_REVOKES_3 (a complete play, 10 tricks by the cards; 64A2 at the table gives 11):
    a stated 10 lies within what the cards allow - nothing to say; a stated 11 holds the
    table's ruling (LW002, the only total that gives it: the play is the record's own); a
    stated 12 is given by no ruling, but a complete play's Result is RC023's to check, so no
    RC022 here."""
    from revoke_audit.ruling.table_ruling import AtTable, in_stated

    def at_table(result):
        rp = replay(board(D2, "3NT", "S", WEST_REVOKES_3, result=result))
        cards = at_end(rp)
        assert cards.span == (10, 10)
        return in_stated(rp, get_edition("2017"), result, cards)

    assert at_table(10) == AtTable()
    held = at_table(11).held
    assert held.tricks_adjusted == 11 and held.findings[-1].code == "LW002"
    assert "only 10 with 64A2's 1 trick" in held.findings[-1].message
    assert at_table(12) == AtTable()
