"""The revokes a Director confirms with the record's source (``ruling.slips``), on deal D2 of
``deals.py`` (3NT by South; North is dummy):

    N AK2.432.AKQJ.543   E QJT9.AKQ.432.876   S 876.JT9.T98.AKQJ   W 543.8765.765.T92
"""
from builders import board
from deals import D2, DUMMY_REVOKES_1, WEST_REVOKES_4

from revoke_audit.core.cards import parse_card
from revoke_audit.laws import get_edition
from revoke_audit.replay import replay
from revoke_audit.ruling.discovery import decide
from revoke_audit.ruling.slips import OtherReading, rereads, slip_readings

N = 0


def readings(tricks, discovered="after-round"):
    rp = replay(board(D2, "3NT", "S", tricks))
    edition = get_edition("2017")
    read = {key: (other, decide(other, edition, discovered))
            for key, other in ((k, replay(r)) for k, r in rereads(rp).items())}
    return slip_readings(rp, read)


def test_a_card_of_the_rank_he_held_in_the_suit_led_is_read_again_with_it():
    """DUMMY_REVOKES_1: dummy (North) throws C3 on trick 1's heart lead holding H432; East's
    HA wins.  H3 is the twin (the suit led, the same rank): read with C3 and H3 exchanged in
    North's plays, trick 1 is North's H3 (East's HA still wins it: the next lead is the
    same) and trick 2's card becomes C3 on East's HK while North still holds H4 H2 - a
    revoke at trick 2 (``later``).  After the round (Law 64B5) nothing is transferred: N-S
    take tricks 4-13 either way, 10 tricks."""
    got = readings(DUMMY_REVOKES_1)
    (key, reading), = got.items()
    assert key == (1, N)
    assert reading.twin == parse_card("H3") and reading.later == 2
    assert reading.later_fact.card == parse_card("C3") and reading.tricks_adjusted == 10
    assert reading.winner is None  # the same winner of trick 1: nothing told apart


def test_a_defenders_card_of_another_rank_is_no_slip_to_confirm():
    """WEST_REVOKES_4: West throws H7 on trick 4's spade lead holding S543: he held no S7 and
    is no dummy, and trick 4 is not the record's last: a revoke as recorded, nothing to
    confirm."""
    assert readings(WEST_REVOKES_4) == {}


def test_dummys_card_with_no_twin_is_confirmed_without_another_reading():
    """DUMMY_REVOKES_1 with North's C5 thrown on trick 1 (and his C3 played on trick 11 in its
    place): he holds H432, no H5, so there is no other card to read, but a dummy's revoke -
    his cards are on view - is confirmed with the source all the same (``OtherReading(None)``).
    West's revoke on trick 4 of WEST_REVOKES_4 is no dummy's: nothing."""
    tricks = ["W:H8 N:C5 E:HA S:H9"] + DUMMY_REVOKES_1[1:]
    assert tricks[10] == "S:CK W:C9 N:C5 E:C7"
    tricks[10] = "S:CK W:C9 N:C3 E:C7"
    assert readings(tricks) == {(1, N): OtherReading(None)}
