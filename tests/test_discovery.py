"""Which ruling applies (``discovery``): the time of discovery (Law 64B4/B5), the table's own
ruling already in the stated result, and ``ruling_basis`` for each case under 2017, 1997 and
1932.  The plays are those of ``deals.py`` (worked out by hand there); the expectations here
follow from them with the Law text quoted in each test."""
from pathlib import Path

import pytest
from builders import board
from deals import (BASE2, BOTH_SIDES, D1, D2, DECLARER_RUFFS_10, DUMMY_REVOKES_1, TWELFTH_REVOKE,
                   WEST_OMITS_2_PBN, WEST_REVOKES_3, WEST_REVOKES_4, WEST_REVOKES_HEARTS_TWICE)

from revoke_audit.ruling.audit import audit_board
from revoke_audit.formats import read_boards
from revoke_audit.ruling.options import AuditOptions
from revoke_audit.reports.corrections import correction
from revoke_audit.reports.explain import ruling_steps
from revoke_audit.reports.report import director_line
from revoke_audit.reports.rows import board_row, render
from revoke_audit.ruling.director import ruling_text

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def ruled(tricks, laws="2017", discovered="after-round", deal=D2, contract="3NT", **kw):
    a = audit_board(board(deal, contract, "S", tricks, **kw), AuditOptions(laws, discovered))
    return a.ruling


def test_after_the_round_no_transfer_but_what_the_table_would_have_done_is_kept():
    """D2, W discards on trick 3, partner E wins it: at the table 64A2 moves one trick (10 ->
    11).  Found by the audit, after the round: 64B5, no transfer; tricks_automatic 11."""
    r = ruled(WEST_REVOKES_3)
    assert (r.tricks_played, r.tricks_adjusted, r.tricks_automatic, r.basis) == (10, 10, 11, "64B5")
    assert [(f.code, f.law, f.transferred) for f in r.findings] == [("RV002", "64B5", 0)]
    assert "had attention been drawn in time, 1 trick would have been transferred" in \
        r.findings[0].message
    t = ruled(WEST_REVOKES_3, discovered="table")
    assert (t.tricks_adjusted, t.tricks_automatic, t.basis) == (11, 11, "64A")


def test_a_revoke_marked_in_the_record_is_not_the_tables_knowledge():
    """The same play with West's D5 marked ^R.  Producers compute the mark from the play, so it
    is no sign that the table knew (LAWS 64B4/B5): after the round it is 64B5 as unmarked, the
    would-be 64A2 trick (East won trick 3: 10 -> 11) kept as information; the mark is still
    reported (``marked``).  Told the table knew (--discovered table): 64A2, 11 tricks."""
    play = list(WEST_REVOKES_3)
    play[2] = play[2].replace("W:D5", "W:^RD5")
    r = ruled(play)
    assert (r.tricks_adjusted, r.tricks_automatic, r.basis) == (10, 11, "64B5")
    assert [(f.code, f.law, f.transferred, f.marked) for f in r.findings] == [
        ("RV002", "64B5", 0, True)]
    assert "had attention been drawn in time, 1 trick would have been transferred" in \
        r.findings[0].message
    t = ruled(play, discovered="table")
    assert (t.tricks_adjusted, t.basis) == (11, "64A")


def test_three_marks_on_one_trick_are_a_record_note_not_a_ruling():
    """A misrecorded lead, as some exports write it (``S7 ^R HQ ^R HK ^R H8``).  D2 after
    BASE2's tricks 1-7 (N won trick 7): N SA S2 DJ C543, E SJT9 C876, S S87 CAKQJ, W S54 H7
    CT92.  Trick 8 recorded as N C3, E ^R S9, S ^R S7, W ^R H7: three players failing to
    follow one lead, each holding clubs.  That is RC015 (the lead is mis-recorded): no revoke
    is ruled whatever the marks say, under either discovery, and nothing moves."""
    play = BASE2[:7] + ["N:C3 E:^RS9 S:^RS7 W:^RH7"]
    for discovered in ("after-round", "table"):
        a = audit_board(board(D2, "3NT", "S", play), AuditOptions("2017", discovered))
        codes = [f.code for f in a.findings]
        assert "RC015" in codes and not any(c.startswith(("RV", "DT")) for c in codes)
        assert a.ruling.tricks_adjusted == a.ruling.tricks_played
        notes = [f.message for f in a.findings if f.code == "RC032"]
        assert [m.split(" is marked")[0] for m in notes] == ["S9", "S7", "H7"]
        assert all("the lead is probably mis-recorded" in m for m in notes)


@pytest.mark.parametrize("laws, discovered, tricks, basis, expected", [
    # W discards on trick 4, N wins it, E-W won only tricks 1-3: 64B1 whenever found
    ("2017", "table", WEST_REVOKES_4, "64B1", (10, 10)),
    ("2017", "after-round", WEST_REVOKES_4, "64B1", (10, 10)),
    # the same player, same suit, tricks 2 and 3: first 64A2 (one trick), second 64B2
    ("2017", "table", WEST_REVOKES_HEARTS_TWICE, "64A+64B2", (10, 11)),
    ("2017", "after-round", WEST_REVOKES_HEARTS_TWICE, "64B5+64B2", (10, 10)),
    # dummy revokes on trick 1: 64B3, also after the round (no transfer was ever due)
    ("2017", "table", DUMMY_REVOKES_1, "64B3", (10, 10)),
    ("2017", "after-round", DUMMY_REVOKES_1, "64B3", (10, 10)),
    # both sides revoked, both established: 64B7 for each
    ("2017", "table", BOTH_SIDES, "64B7", (10, 10)),
    # 1997: no 64B7, each side's revoke gets its own 64A2; after the round 64B5
    ("1997", "table", BOTH_SIDES, "64A", (10, 10)),
    ("1997", "after-round", BOTH_SIDES, "64B5", (10, 10)),
    # 1932: two tricks for a side's first revoke, from those it won from the revoke on
    # (E-W won only trick 3 from trick 3 on: one trick); after the round, too late
    ("1932", "table", WEST_REVOKES_3, "1932 penalty", (10, 11)),
    ("1932", "after-round", WEST_REVOKES_3, "1932 too late", (10, 10)),
    ("1932", "table", DUMMY_REVOKES_1, "1932 dummy", (10, 10)),
])
def test_ruling_basis_per_edition_and_discovery(laws, discovered, tricks, basis, expected):
    r = ruled(tricks, laws, discovered)
    assert r.basis == basis
    assert (r.tricks_played, r.tricks_adjusted) == expected


def test_twelfth_trick_revoke_is_corrected_at_the_table_only():
    """D1's trick-12 revoke: at the table 62D corrects it (declarer 10 -> 11, 64B6); after the
    round the hands are back in the board: no correction, no transfer (64B5)."""
    t = ruled(TWELFTH_REVOKE, deal=D1, contract="4H", discovered="table")
    assert (t.tricks_played, t.tricks_adjusted, t.basis) == (10, 11, "64B6")
    a = ruled(TWELFTH_REVOKE, deal=D1, contract="4H")
    assert (a.tricks_adjusted, a.tricks_automatic, a.basis) == (10, 11, "64B5")
    assert "too late for the 62D correction" in a.findings[0].message


def test_defective_trick_is_ruled_as_known_to_the_table():
    """West omits a card on trick 2 and ends with one too many: the table sees it at the end
    of play, so 67B1's deemed revoke applies (one trick, 64A2) whatever --discovered says."""
    r = ruled(WEST_OMITS_2_PBN)
    assert (r.tricks_adjusted, r.basis) == (11, "64A")


def test_a_clean_board_has_basis_none():
    from deals import BASE2
    r = ruled(BASE2)
    assert (r.tricks_by_cards, r.tricks_automatic, r.basis) == (10, 10, "none")


def _rows(name, **options):
    return {rec.board: audit_board(rec, AuditOptions(**options))
            for rec in read_boards([FIXTURES / "rulings" / name])}


@pytest.mark.parametrize("discovered", ["after-round", "table"])
def test_the_tables_ruling_in_the_result_is_not_applied_twice(discovered):
    """fixtures/rulings/table-ruling-in-result.pbn (worked out in its comment).  Board 5: the
    cards give 7, Result 6 = 7 - 1 (64A2): the table ruled; 2H-2, N-S -200.  Board 3: the cards
    give 7, Result 9 = 7 + 2 (64A2 of the 1997 Laws, in force on the record's date; the 2017
    Laws give 8): the table ruled; 3NT=, N-S -600.  Either way nothing more moves, and the
    score as the table scored it (``score_ns``) is the stated result's, never the score of the
    cards' 7 that nobody had (2H-1 +100 and 3NT-2 +200 are nobody's)."""
    audits = _rows("table-ruling-in-result.pbn", discovered=discovered)
    want = {"5": (6, 7, 7, 6, 6, "2H-2", -200, -200), "3": (9, 7, 7, 9, 9, "3NT=", -600, -600)}
    for number, expected in want.items():
        row = board_row(audits[number])
        assert tuple(row[c] for c in (
            "tricks_stated", "tricks_played", "tricks_by_cards", "tricks_adjusted",
            "tricks_automatic", "result_adjusted", "score_ns", "score_ns_adjusted")) == expected
        assert row["ruling_basis"] == "table ruling in record"
        notes = [f for f in audits[number].findings if f.code == "LW002"]
        assert len(notes) == 1
    assert ("every legal way of playing tricks 12-13 gives declarer 7, by the cards (the "
            "record stops after trick 11); only 7 with 64A2's 1 trick (the 2017 Laws) gives the "
            "stated 6") in _note(audits["5"])
    assert ("every legal way of playing tricks 11-13 gives declarer 7, by the cards (the "
            "record stops in trick 11)") in _note(audits["3"])
    assert "7 with 64A2's 2 tricks (the 1997 Laws) gives the stated 9" in _note(audits["3"])


def _note(audit):
    return next(f.message for f in audit.findings if f.code == "LW002")


def test_a_result_the_cards_cannot_give_and_no_ruling_explains_is_a_record_error(tmp_path):
    """Board 5 of the fixture with Result 5, dated 2020: after 11 tricks declarer has 5 with 2
    to play, so 5 is possible by the count, but the cards give 7 and the 2017 Laws' ruling 6
    (dated 1997, the 1997 Laws' second trick would explain 5: South wins trick 9 with H4,
    which he could have played to trick 8); 5 is neither: RC022.  The
    agreed total is kept (Laws 69, 71): played 5, adjusted 5 (64B5), and had the table known,
    64A2 would take one of N-S's later tricks (trick 9): 4."""
    text = (FIXTURES / "rulings" / "table-ruling-in-result.pbn").read_text()
    text = text.replace('[Result "6"]', '[Result "5"]').replace("1997.06.20", "2020.06.20")
    (tmp_path / "x.pbn").write_text(text)
    (tmp_path / "y.pbn").write_text(text.replace("2020.06.20", "1997.06.20"))
    dated_1997 = [r for r in read_boards([tmp_path / "y.pbn"]) if r.board == "5"]
    assert "64A2's 2 tricks (the 1997 Laws) gives the stated 5" in _note(
        audit_board(dated_1997[0]))
    records = [r for r in read_boards([tmp_path / "x.pbn"]) if r.board == "5"]
    a = audit_board(records[0])
    codes = [f.code for f in a.findings]
    assert "RC022" in codes and "LW002" not in codes
    assert (a.ruling.tricks_played, a.ruling.tricks_adjusted, a.ruling.tricks_automatic,
            a.ruling.basis) == (5, 5, 4, "64B5")


def test_records_that_cannot_bear_a_ruling_are_not_ruled():
    """fixtures/rulings/record-problems.pbn: each board gets one RC017 naming its screen, no
    revoke finding, and the stated result stands."""
    audits = _rows("record-problems.pbn", discovered="table")
    why = {"8": "does not fit its auction", "9": "4 revokes or defective tricks by 3 players",
           "5": "only 0 whole tricks", "4": "trick 4 is recorded with a card of each suit"}
    for number, words in why.items():
        a = audits[number]
        screens = [f.message for f in a.findings if f.code == "RC017"]
        assert len(screens) == 1 and words in screens[0], (number, screens)
        assert not [f for f in a.findings if f.code[:2] in ("RV", "DT")]
        assert a.ruling.tricks_adjusted == a.tricks_stated
        assert a.status == "inconsistent"
    assert "moved 1 seat clockwise" in next(f.message for f in audits["8"].findings
                                            if f.code == "RC017")


def test_a_record_that_stops_without_a_claim_gives_both_outcomes():
    """D2, W discards on trick 3 and E wins it; the record stops after trick 6 (no claim, no
    Result).  E-W won trick 3 itself, so 64A2's one trick is due whatever came later - no
    doubt.  W discarding on trick 4 (N wins it) and the record stopping after trick 6: E-W won
    nothing recorded from trick 4 on, but tricks 7-13 are not known - one trick if they won
    one of them, none if not."""
    sure = ruled(WEST_REVOKES_3[:6], discovered="table").findings
    assert [f.transferred for f in sure] == [1] and "not known" not in sure[0].message
    unsure = ruled(WEST_REVOKES_4[:6], discovered="table").findings
    assert [(f.code, f.transferred) for f in unsure] == [("RV002", 0)]
    assert "won neither that trick nor a later recorded one" in unsure[0].message
    assert ("not known from the record: if it did, 1 trick would be transferred, if not, 0 "
            "tricks") in unsure[0].message


@pytest.mark.parametrize("laws", ["2017", "2007", "1997"])
def test_after_the_round_a_stopping_record_gives_the_would_be_transfer_as_information(laws):
    """WEST_REVOKES_4 cut after trick 6: trick 4 E SQ, S S6, W H7 (West holds S543: a revoke,
    established when he plays to trick 5), N SK -> N; tricks 5-6 N (DA, DK).  E-W won neither
    trick 4 nor 5-6; tricks 7-13 are not recorded.  At the table: 64A2 would move 1 trick had
    E-W won one of them, none (64B1) if not.  Found after the round (the default), nothing
    moves either way (64B5): the finding is 64B5 and the 1 trick is information only."""
    after = ruled(WEST_REVOKES_4[:6], laws=laws).findings
    assert [(f.code, f.law, f.transferred) for f in after] == [("RV002", "64B5", 0)]
    assert ("found after the round ended: no automatic transfer (64B5); redress only under 64C "
            "(had attention been drawn in time: 1 trick if East-West won a later trick, none if "
            "not (64B1); the record stops after trick 6, so which is not known from the record)"
            ) in after[0].message
    assert "would be transferred" not in after[0].message
    assert ruled(WEST_REVOKES_4[:6], laws=laws).basis == "64B5"
    table = ruled(WEST_REVOKES_4[:6], laws=laws, discovered="table").findings
    assert [(f.code, f.law) for f in table] == [("RV002", "64B1")]
    assert "if it did, 1 trick would be transferred, if not, 0 tricks" in table[0].message


def test_a_card_of_the_rank_held_in_the_suit_led_may_be_a_recording_slip():
    """Dummy plays C3 on trick 1's heart lead holding H4 H3 H2: H3 is of the same rank, so the
    message asks the Director to confirm the card with the record's source."""
    slip = ruled(DUMMY_REVOKES_1).findings[0].message
    assert "he held H3, of the same rank: possibly a recording slip" in slip
    other = ruled(WEST_REVOKES_4).findings[0].message  # H7 on spades holding S5 S4 S3
    assert "recording slip" not in other


def test_the_same_record_in_two_files_is_reported_once(tmp_path):
    """One board, one report: the fixture's board 5 copied into a second file under another
    layout (CRLF, tags in another order, an extra tag) keeps its row there, but its findings
    become one DU001 note naming the first; the first is reported as before."""
    from revoke_audit import audit_paths

    text = (FIXTURES / "rulings" / "table-ruling-in-result.pbn").read_text()
    first = tmp_path / "a.pbn"
    first.write_text(text)
    start = text.index('[Event "European Teams"]')
    game = text[start:text.index("\n\n[Event", start)]
    copy = "% another copy\n" + game.replace('[Site "Somewhere"]\n', "").replace(
        '[Room "Closed"]', '[Room "Closed"]\n[Scoring "MP"]') + "\n"
    second = tmp_path / "b.pbn"
    second.write_bytes(copy.replace("\n", "\r\n").encode())
    result = audit_paths([first, second])
    boards = result.boards.set_index("source")
    assert list(result.boards["source"]) == [str(first), str(first), str(second)]
    dup = result.findings[result.findings["source"] == str(second)]
    assert list(dup["code"]) == ["DU001"]
    assert f"the same record as {first}:" in dup["message"].iloc[0]
    assert boards.loc[str(second), "status"] == "clean"
    assert boards.loc[str(second), "tricks_adjusted"] == 6  # the row still says the ruling
    assert sorted(result.findings[result.findings["source"] == str(first)]["code"]) == [
        "LW002", "LW002", "RV001", "RV001"]
    # another table (other names) with the same cards is not the same record
    other = tmp_path / "c.pbn"
    other.write_text(copy.replace("Wolf W", "Fox F"))
    assert "DU001" not in list(audit_paths([first, other]).findings["code"])


def test_the_1997_second_trick_is_not_decided_on_tricks_never_recorded():
    """D2, West discards D5 on trick 3 holding H7 H6, East wins it; the record stops after
    trick 6 with a claim of 9 for declarer (who has 3): E-W take one trick of the claim.  The
    1997 Laws give a second trick if West won a later trick with a heart; West still holds H7
    H6, and who took the claimed trick with what is not recorded: one trick is transferred
    (64A2) and the finding says the second is not known from the record."""
    r = ruled(WEST_REVOKES_3[:6], laws="1997", discovered="table", claim=9, lin=True)
    (f,) = r.findings
    assert (f.code, f.law, f.transferred, r.tricks_adjusted) == ("RV001", "64A2", 1, 10)
    assert ("not known from the record: had West won a trick of the claim with H7, which he "
            "could have played to trick 3, the 1997 Laws would transfer a second trick") in f.message


def test_a_tables_ruling_in_the_result_is_what_the_table_scored():
    """Board 3 of the fixture (worked out in its comment): the Result (9) holds the table's
    64A2 ruling of the 1997 Laws, so the result as scored at the table is the adjusted one -
    no correction to enter, the score before is the stated 3NT= -600 (not the cards' 3NT-2
    +200, a score nobody had).  The record stops in trick 11 (N DT, E D6, S D9): West holds
    HA H6 D2 and must follow with D2, North's DT wins, and North's C9 C5 are the only clubs
    left, so he must win tricks 12 and 13 with them (either order): said as what the cards
    force, never as a trick played."""
    a = _rows("table-ruling-in-result.pbn")["3"]
    revoke = next(f for f in a.findings if f.code == "RV001")
    assert ("plus one because North must win tricks 12 and 13 with C9 and C5, by the cards "
            "(the record stops in trick 11), either of which he could legally have played to "
            "trick 9") in revoke.message
    assert "won trick 12" not in revoke.message
    words = ruling_text(a, revoke)
    assert ("tricks for declarer: 7 by the cards, 9 in the result; as scored at the table: 3NT= "
            "by West, N-S -600, E-W +600 (the table's 64A2 ruling, already in the result); no "
            "change") in words
    assert "final result" not in words
    assert correction(render(a)) is None
    assert ruling_steps(a)[-2:] == [
        "  as scored at the table: 3NT= by West, N-S -600, E-W +600 (the table's 64A2",
        "    ruling, already in the result); no change"]
    assert "3NT= -600 -> 3NT= -600" in director_line(board_row(a))


def test_a_tables_ruling_over_a_range_names_the_range(tmp_path):
    """Board 5 of the fixture cut after trick 8 (the revoke trick; West won it).  Declarer's
    side has 4 (tricks 2, 3, 4, 6).  Left: N DT D9 C9 C7 C5, E SQ CQ CJ CT C6, S H9 H4 H3 CK
    C4, W S8 S5 S4 CA C8; West to lead.  South's H9 H4 H3 are the only trumps left, so each
    wins a trick: at least 3 more (7); with the defenders' help all 5 (9): West leads S4,
    South ruffs with H3 and leads C4, East ducks North's C9, North's DT and D9 win (nobody
    else holds a diamond) while West throws his CA, and South's last trumps take the rest.
    The cards allow 7 to 9.  64A2 (West won the revoke trick, N-S a later one) takes 1: only 7 - 1 gives
    the stated 6 (8 and 9 give 7 and 8).  The tool's pick of 7 is the one the ruling fits,
    never said as what the cards give."""
    text = (FIXTURES / "rulings" / "table-ruling-in-result.pbn").read_text()
    text = text.replace("S5 C5 SQ H4\nC8 C7 CQ C4\nCA C9 CJ CK\n", "")
    (tmp_path / "cut.pbn").write_text(text)
    a = next(audit_board(r) for r in read_boards([tmp_path / "cut.pbn"]) if r.board == "5")
    assert a.ruling.basis == "table ruling in record"
    assert ("the cards allow declarer 7 to 9 over tricks 9-13 (the record stops after trick "
            "8); only 7 with 64A2's 1 trick (the 2017 Laws) gives the stated 6") in _note(a)
    assert "the cards give" not in _note(a)
    revoke = next(f for f in a.findings if f.code == "RV001")
    assert ("tricks for declarer: 7 to 9 by the cards (7 the one the table's ruling fits), 6 "
            "in the result") in ruling_text(a, revoke)
    assert ruling_steps(a)[1] == ("  tricks for declarer: 7 to 9 by the cards (7 the one the "
                                  "table's ruling fits)")
    assert board_row(a)["score_ns"] == -200 and correction(render(a)) is None


def test_a_revoke_ruled_under_the_logs_discovered_row_names_that_row():
    """D2, WEST_REVOKES_3 (West discards on trick 3, East wins it: 64A2, one trick, as in the
    first test) ruled as the log's ``discovered table`` row on line 7 says: the RV finding
    names line 7; ruled without a log row it names none.  A finding that already names its
    duty's row keeps it (``log_line`` set before)."""
    from dataclasses import replace as with_line

    from revoke_audit.laws import get_edition
    from revoke_audit.replay import replay
    from revoke_audit.ruling.discovery import decide

    rp = replay(board(D2, "3NT", "S", WEST_REVOKES_3))
    edition = get_edition("2017")
    r = decide(rp, edition, "table", log_line=7)
    assert [(f.code, f.law, f.transferred, f.log_line) for f in r.findings] == [
        ("RV001", "64A2", 1, 7)]
    assert [f.log_line for f in decide(rp, edition, "table").findings] == [None]
    rp.revokes[0] = with_line(rp.revokes[0], log_line=3)  # as a log's duty row would set it
    assert [f.log_line for f in decide(rp, edition, "table", log_line=7).findings] == [3]
