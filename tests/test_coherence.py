"""Record errors against rulings (issue: no false alarms on a real archive).

Each fault class has a hand-written fixture with the exact finding expected, and next to them
the true cases (a real revoke, a real omitted card) so the line is tested from both sides.
The deal is D2 of ``deals.py``: 3NT by South, West leads; in the clean play East wins tricks
1-3, North 4-9 and South 10-13 (declarer 10)."""
from dataclasses import replace
from pathlib import Path

import pytest

from deals import BASE2, D1, D2
from builders import board
from revoke_audit.ruling.audit import audit_board, audit_records
from revoke_audit.replay.coherence import with_neighbours
from revoke_audit.replay.coherence import misfits
from revoke_audit.core.cards import parse_deal
from revoke_audit.formats import read_boards
from revoke_audit.replay import replay
from revoke_audit.ruling.options import AuditOptions

AT_TABLE = AuditOptions(discovered="table")  # these plays are ruled as found at the table (64A)

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def audits(name: str):
    return list(audit_records(read_boards([FIXTURES / name]), AT_TABLE))


def test_real_revoke_on_a_coherent_lin_record_is_ruled():
    """West discards D5 on trick 3 holding H7 H6; East (his partner) wins trick 3, so 64A2: one
    trick.  The play gives declarer 10 (N 4-9, S 10-13): adjusted 11."""
    [a] = audits("lin/coherent_revoke.lin")
    assert [(f.code, f.law, f.trick, f.transferred) for f in a.findings] == [("RV001", "64A2", 3, 1)]
    assert (a.replay.tricks_played, a.ruling.tricks_adjusted, a.status) == (10, 11, "irregular")


def test_real_omitted_card_on_a_coherent_lin_record_is_a_defective_trick():
    """West plays no card to trick 2 (East wins it with HK) and ends the play holding H5: one
    card short at trick 2, every other card held by the player on turn.  67B1: deemed revoke;
    E-W won trick 2, so one trick (64A2): 10 -> 11."""
    [a] = audits("lin/coherent_omitted_card.lin")
    assert [(f.code, f.trick, f.seat, f.transferred) for f in a.findings] == [("DT001", 2, 3, 1)]
    assert (a.replay.tricks_played, a.ruling.tricks_adjusted) == (10, 11)


def test_a_card_missing_early_in_lin_is_one_record_error_not_a_cascade():
    """East's lead to trick 4 (SQ) is missing: S6 is then read as East's card, and so on.
    One finding at that point, with the repair; no revoke or defective trick."""
    [a] = audits("lin/fault_card_missing_early.lin")
    assert [f.code for f in a.findings] == ["RC016"]
    assert a.findings[0].message == (
        "29 of 51 cards were played by a player who does not hold them in the recorded deal "
        "(first: trick 4, East plays S6, which is in South's hand): the record is not the play "
        "of this deal; no revoke or defective trick is ruled; it fits when one card is taken as "
        "missing from the record just before S6 (trick 4)")
    assert a.status == "inconsistent" and a.ruling.tricks_adjusted == a.replay.tricks_played


def test_rotated_hands_are_named_as_the_repair():
    [a] = audits("lin/fault_rotated_hands.lin")
    assert [f.code for f in a.findings] == ["RC016"]
    assert a.findings[0].message.startswith("52 of 52 cards were played by a player who does not")
    assert a.findings[0].message.endswith(
        "it fits when every hand is moved 1 seat clockwise (the hand recorded for North is East's)")


def test_another_boards_deal_is_named_as_the_repair():
    first, second = audits("lin/fault_other_boards_deal.lin")
    assert [f.code for f in first.findings] == ["RC016"]
    assert first.findings[0].message.endswith(
        "it fits the deal recorded for board 2 (line 16): the board carries another board's deal")
    assert second.findings == [] and second.status == "clean"


def test_pbn_lines_in_time_order_are_named_as_the_repair():
    [a] = audits("pbn/fault_time_order.pbn")
    assert [f.code for f in a.findings] == ["RC016"]
    assert a.findings[0].message.startswith(
        "48 of 52 cards were played in the column of a player who does not hold them")
    assert a.findings[0].message.endswith(
        "it fits when each play line is read as the trick in time order (leader first) "
        "instead of seat columns")
    # no ruling on a record error: the stated Result stands
    assert a.ruling.tricks_adjusted == 10


def test_two_defective_tricks_are_not_explained_by_the_deal():
    """LIN: two tricks each with a card from a player who already played (a doubled card read
    as an extra card, twice): more than one defect means a bad record, not two rulings."""
    tricks = BASE2[:1] + ["E:HK S:HT W:H5 N:H3 S:S6"] + BASE2[2:3] + ["E:SQ W:S3 N:SK S:D8"] \
        + BASE2[4:]
    rec = board(D2, "3NT", "S", tricks, lin=True)
    a = audit_board(rec, AT_TABLE)
    assert [f.code for f in a.findings] == ["RC016"]
    assert not a.replay.revokes and not a.replay.defects


def test_misfits_lin_reads_seats_from_the_turn_order():
    rec = board(D2, "3NT", "S", BASE2, lin=True)
    rp = replay(rec)
    assert misfits(rp, rec.hands) == ([], 52)
    other, _ = parse_deal(D1)
    bad, known = misfits(rp, other)
    assert known == 52 and len(bad) == 32
    assert (bad[0].trick, bad[0].seat, bad[0].holder) == (1, 0, 1)  # North's H2 is East's in D1


def test_neighbours_are_the_same_files_boards_within_the_window():
    recs = [replace(board(D2, "3NT", "S", BASE2), board=str(i), line=i,
                    source="a.pbn" if i < 6 else "b.pbn",
                    hands=parse_deal(D1 if i % 2 else D2)[0]) for i in range(1, 9)]
    seen = {rec.board: [label for label, _ in deals()]
            for rec, deals in with_neighbours(recs, window=2)}
    # board 3 (D1): boards 1 and 5 share its deal; 2 and 4 (D2) are within two boards
    assert seen["3"] == ["board 2 (line 2)", "board 4 (line 4)"]
    # board 6 is in b.pbn: a.pbn's boards are never offered
    assert seen["6"] == ["board 7 (line 7)"]


ARCHIVE = Path(__file__).resolve().parents[1].parent / "shared" / "archive"


@pytest.mark.skipif(not (ARCHIVE / "SOURCES.tsv").exists(), reason="archive slice absent")
def test_no_law_finding_on_a_board_with_record_errors_in_the_archive():
    """The BBO vugraph slice: no revoke or defective trick stands on a board whose record is
    not the play of its deal, and irregular boards are far below 0.2% (real revokes are rare)."""
    boards = irregular = 0
    for a in audit_records(read_boards([ARCHIVE])):
        boards += 1
        codes = {f.code for f in a.findings}
        law = {c for c in codes if c[:2] in ("RV", "DT")}
        assert not (law and codes & {"RC010", "RC011", "RC012", "RC014", "RC015", "RC016"}), \
            (a.record.source, a.record.board, a.record.room, sorted(codes))
        irregular += a.status == "irregular"
    assert boards > 40_000 and irregular < boards * 0.002
