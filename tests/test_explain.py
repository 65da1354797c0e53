"""``revoke-audit explain``: one board for a person, with exact text for the sample session."""
from pathlib import Path

import pytest
from click.testing import CliRunner

from revoke_audit.ruling.audit import audit_board
from revoke_audit.cli.commands import main
from revoke_audit.reports.explain import explain_text, find_board

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"

# Checked by hand against fixtures/mixed/thursday-pairs.pbn, board 2 (lines 42-73): the Deal
# tag and the Play lines (columns W N E S) read in time order from each trick's winner.
BOARD_2 = """\
thursday-pairs.pbn:42
Thursday Pairs, board 2; dealer N, vulnerable None
Contract 3NT by South; Laws 2017 (duplicate scoring); status irregular

               North Ed North
               S AK2
               H 432
               D AKQJ
               C 543
West Hal West                 East Flo East
S 543                         S QJT9
H 8765                        H AKQ
D 765                         D 432
C T92                         C 876
               South Gus South
               S 876
               H JT9
               D T98
               C AKQJ

Play: * revoke, ! extra card (back to the hand), (none) no card played
 #  lead cards in time order              won  N-S
 1  W    H8   N H2   E HA   S H9          -> E    0
 2  E    HK   S HT   W H5   N H3          -> E    0
 3  E    HQ   S HJ   W D5*  N H4          -> E    0
 4  E    SQ   S S6   W S3   N SK          -> N    1
 5  N    DA   E D2   S D8   W D6          -> N    2
 6  N    DK   E D3   S D9   W D7          -> N    3
 7  N    DQ   E D4   S DT   W H6          -> N    4
 8  N    DJ   E S9   S S7   W H7          -> N    5
 9  N    SA   E ST   S S8   W S4          -> N    6
10  N    C3   E C6   S CA   W C2          -> S    7
11  S    CK   W C9   N C4   E C7          -> S    8
12  S    CQ   W CT   N C5   E C8          -> S    9
13  S    CJ   W S5   N S2   E SJ          -> S   10

Findings:
  line 63: RV002 [64B5] trick 3: West (defender) played D5 on a heart lead
    holding H7 H6: found after the round ended: no automatic transfer (64B5);
    redress only under 64C (had attention been drawn in time, 1 trick would have
    been transferred)

Discovery: after-round (--discovered, the default); no director's log was given
  (--table-facts). Had the table known (a log row 'discovered table'),
  declarer's tricks would be 11, not 10

Ruling (Laws 2017):
  tricks for declarer, played: 10
  tricks for declarer, adjusted: 10 (basis: 64B5)
  had attention been drawn in time: 11
  Law 64C: double dummy had no revoke happened 10; review: no
  Law 64C decided: no damage, the result stands
  result: 3NT+1 -> 3NT+1
  score N-S: 430 -> 430

Director's ruling:
  Hal West (West, defender), trick 3: played D5 on a heart lead holding H7 H6
    (Law 61A); established when his partner played to trick 4 (63A1); found
    after the round ended: no automatic transfer (64B5); redress only under 64C
    (had attention been drawn in time, 1 trick would have been transferred);
    tricks for declarer: 10 played, 10 adjusted (11 had the table known in
    time); final result 3NT+1 by South: N-S +430, E-W -430; 64C considered: the
    revoke itself cost North-South nothing (double dummy from trick 3, following
    suit against the card played: North-South 0 tricks worse off; 10 for
    declarer had he followed): no damage, the result stands; basis: 64B5.
"""


@pytest.fixture
def cli(monkeypatch):
    monkeypatch.chdir(FIXTURES / "mixed")
    runner = CliRunner()
    return lambda *args: runner.invoke(main, list(args))


def test_board_2_exact_text(cli):
    r = cli("explain", "thursday-pairs.pbn", "--board", "2")
    assert r.exit_code == 0, r.output
    assert r.output == BOARD_2
    assert all(len(line) <= 80 and line.isascii() for line in r.output.splitlines())


def test_library_function_gives_the_same_text(monkeypatch):
    monkeypatch.chdir(FIXTURES / "mixed")
    (record,) = find_board(["thursday-pairs.pbn"], board=2)
    assert explain_text(audit_board(record)) == BOARD_2


def test_extra_card_is_marked_on_a_lin_board(cli):
    r = cli("explain", "thursday-pairs-bbo.lin", "--board", "6")
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert " 4  E    SQ   S S6   W S3   N SK   E S9!  -> N    1" in lines
    assert "  line 1: DT002 [67B2] trick 4: East (defender) played a second card, S9" in lines
    assert "  score N-S: 430 -> 430" in lines


def test_omitted_card_is_shown_in_its_turn(cli):
    r = cli("explain", "thursday-pairs.pbn", "--board", "4")
    assert " 2  E    HK   S HT   W (none)  N H3       -> E    0" in r.output.splitlines()
    assert "  1 trick to N-S: DT001 [67B1], trick 2 (West, defender)" in r.output


def test_no_such_board_is_a_usage_error(cli):
    r = cli("explain", "thursday-pairs.pbn", "--board", "9")
    assert r.exit_code == 2
    assert r.output.splitlines() == [
        "Error: no board in thursday-pairs.pbn matches board 9; the file has:",
        "  game 1: board 1 (line 8)", "  game 2: board 2 (line 42)", "  game 3: board 3 (line 75)",
        "  game 4: board 4 (line 109)", "  game 5: board 5 (line 142)"]


def test_two_rooms_need_room_or_game(cli):
    vugraph = str(FIXTURES / "lin" / "vugraph_two_rooms_claim_mid_trick.lin")
    r = cli("explain", vugraph, "--board", "7")
    assert r.exit_code == 2
    assert r.output.splitlines() == [
        "Error: 2 boards match board 7; choose one with --board, --room, --game, --round, "
        "--table or --teams:",
        "  game 1: board 7 open (line 4)", "  game 2: board 7 closed (line 8)"]
    closed = cli("explain", vugraph, "--board", "7", "--room", "closed")
    assert closed.exit_code == 0
    assert "Fixture Cup, board 7, closed room; dealer S, vulnerable All" in closed.output
    assert "Claim after 2 tricks: 13 tricks in all for declarer" in closed.output
    assert closed.output == cli("explain", vugraph, "--game", "2").output


def test_missing_file_says_why(cli):
    r = cli("explain", "nowhere.pbn", "--board", "1")
    assert r.exit_code == 2 and "PS001 cannot read file" in r.output
    assert "Traceback" not in r.output


def test_laws_1932_shows_rubber_scoring(cli):
    r = cli("explain", "thursday-pairs.pbn", "--board", "2", "--laws", "1932", "--discovered",
            "table")
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert "Contract 3NT by South; Laws 1932 (rubber scoring); status irregular" in lines
    assert "  result: 3NT+1 -> 3NT+2" in lines
    assert "  rubber score (adjusted): N-S 100 below, 70 above; E-W 0 below, 0 above" in lines
    assert any(line.startswith("  note: 1932 Code, rubber scoring") for line in lines)
    assert "score N-S" not in r.output


def test_unknown_hand_is_a_question_mark():
    from dataclasses import replace

    (record,) = find_board([FIXTURES / "mixed" / "thursday-pairs.pbn"], board="2")
    hidden = replace(record, hands=(record.hands[0], None, record.hands[2], None))
    text = explain_text(audit_board(hidden))
    assert "West Hal West                 East Flo East\n?                             ?\n" in text
    assert "Play: none replayed (see the findings)" in text and "RC002" in text


def test_a_transfer_from_declarers_side_is_never_negative():
    """South (declarer) ruffs trick 10 with HT holding D5 and wins it; N-S win later tricks:
    64A1, two tricks to E-W - said as "2 tricks to E-W", not "-2"."""
    from builders import board
    from deals import D1, DECLARER_RUFFS_10

    from revoke_audit.ruling.audit import audit_board
    from revoke_audit.reports.explain import explain_text
    from revoke_audit.ruling.options import AuditOptions

    text = explain_text(audit_board(board(D1, "4H", "S", DECLARER_RUFFS_10),
                                    AuditOptions(discovered="table")))
    assert "  2 tricks to E-W: RV001 [64A1], trick 10 (South, declarer)" in text
    assert "-2" not in text and "+" not in text.split("Ruling")[1].split("result")[0]


def test_a_board_chosen_by_round_table_or_teams(tmp_path, monkeypatch):
    """A file with board 1 of two matches (rounds 1 and 2): --board alone lists both with
    their round, table and teams; --round, --table or --teams picks one."""
    monkeypatch.chdir(tmp_path)
    text = (FIXTURES / "mixed" / "thursday-pairs.pbn").read_text()
    game = text[text.index("[Event"):]
    game = game[:game.index("\n\n") + 1]
    one = game.replace("[Event", '[Round "1"]\n[Table "3"]\n[HomeTeam "Lions"]\n'
                       '[VisitTeam "Bears"]\n[Event', 1)
    two = game.replace("[Event", '[Round "2"]\n[Table "5"]\n[HomeTeam "Wolves"]\n'
                       '[VisitTeam "Lions"]\n[Event', 1)
    (tmp_path / "two.pbn").write_text(one + "\n" + two)
    board = find_board(["two.pbn"])[0].board
    runner = CliRunner()
    r = runner.invoke(main, ["explain", "two.pbn", "--board", board])
    assert r.exit_code == 2
    assert "round 1, table 3, Lions v Bears" in r.output and "round 2, table 5" in r.output
    (second,) = find_board(["two.pbn"], board=board, round_="2")
    for pick in (["--round", "2"], ["--table", "5"], ["--teams", "wolves"]):
        r = runner.invoke(main, ["explain", "two.pbn", "--board", board, *pick])
        assert r.exit_code == 0, (pick, r.output)
        assert r.output.startswith(f"two.pbn:{second.line}\n")
    assert [rec.tags["Round"] for rec in find_board(["two.pbn"], teams="LIONS")] == ["1", "2"]


SESSION = FIXTURES / "session"


def _discovery(text: str) -> str:
    """The Discovery paragraph of an explanation, joined into one line."""
    para = next(p for p in text.split("\n\n") if p.startswith("Discovery:"))
    return " ".join(line.strip() for line in para.splitlines())


def test_explain_says_which_discovery_it_used_and_that_no_log_was_given(monkeypatch):
    """fixtures/session board 2 (round 1, table 1): West ruffs trick 4 holding a heart, 8
    tricks to declarer as played; the log (director-log.csv line 2) says the table knew, and
    the automatic transfer gives declarer 10 (basis 64A).  Without the log the same board is
    ruled after the round (8 tricks), and explain must say so: which discovery, that no log
    was given, and what the table's knowledge would have given (10)."""
    monkeypatch.chdir(SESSION)
    runner = CliRunner()
    where = ["thursday-pairs.pbn", "--board", "2", "--round", "1", "--table", "1"]
    with_log = runner.invoke(main, ["explain", *where, "--table-facts", "director-log.csv"])
    assert _discovery(with_log.output) == "Discovery: table, as the director's log says (line 2)"
    assert "tricks for declarer, adjusted: 10 (basis: 64A)" in with_log.output
    bare = runner.invoke(main, ["explain", *where])
    assert _discovery(bare.output) == (
        "Discovery: after-round (--discovered, the default); no director's log was given "
        "(--table-facts). Had the table known (a log row 'discovered table'), declarer's tricks "
        "would be 10, not 8")
    told = runner.invoke(main, ["explain", *where, "--discovered", "table"])
    assert _discovery(told.output) == ("Discovery: table (--discovered, as the run was told); "
                                       "no director's log was given (--table-facts)")


def test_explain_names_a_mark_as_the_producers_reading(monkeypatch):
    """fixtures/pbn/play_columns.pbn game 2: South's DA on a heart lead marked ^R: ruled after
    the round all the same, and explain says the mark is no sign the table knew."""
    monkeypatch.chdir(FIXTURES / "pbn")
    r = CliRunner().invoke(main, ["explain", "play_columns.pbn", "--game", "2"])
    assert "a ^R mark is the record producer's reading, not the table's knowledge" in \
        _discovery(r.output)


@pytest.mark.parametrize("stdout", ["full", "closed"])
def test_a_stdout_that_cannot_be_written_is_a_one_line_error(stdout):
    """Issue 35 F21: ``explain ... > /dev/full`` was an internal error (``OSError``); with
    stdout closed, as ``audit`` says: cannot write, exit 2."""
    import os
    import subprocess
    import sys
    if stdout == "full" and not Path("/dev/full").exists():
        pytest.skip("no /dev/full")
    revoke = Path(__file__).resolve().parents[1] / "fixtures" / "cli" / "revoke.pbn"
    target = open("/dev/full", "w") if stdout == "full" else None
    try:
        done = subprocess.run([sys.executable, "-m", "revoke_audit", "explain", str(revoke)],
                              stdout=target if target else subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True, timeout=300,
                              preexec_fn=None if target else (lambda: os.close(1)))
    finally:
        if target:
            target.close()
    assert done.returncode == 2, done.stderr
    assert "cannot write" in done.stderr and "internal error" not in done.stderr
    assert len(done.stderr.splitlines()) == 1, done.stderr


def test_first_boards_keeps_only_what_it_lists_and_counts_the_rest():
    # F16: `explain --board nope` lists 20 boards of the file and says how many more; the
    # records past the 20th are counted as they are read, never held.
    from revoke_audit.reports.explain import first_boards

    path = FIXTURES / "mixed" / "thursday-pairs.pbn"
    every = find_board([path])
    kept, count, first, total = first_boards([path], 2)
    assert count == total == len(every) > 2
    assert [(r.line, r.board) for r in kept] == [(r.line, r.board) for r in every[:2]]
    assert first == kept
    kept, count, first, total = first_boards([path], 2, board="2")
    assert count == len(find_board([path], board="2")) and total == len(every)
    # nothing matches: the file's first boards for the choice, from the same one reading
    kept, count, first, total = first_boards([path], 5, board="no such board")
    assert (kept, count, total) == ([], 0, len(every))
    assert [r.line for r in first] == [r.line for r in every[:5]]


def test_64c_not_assessed_says_the_true_reason_and_no_code_without_64c():
    """D2, 3NT by South; WEST_REVOKES_4 cut after trick 6, no claim, no Result: West's H7 on
    trick 4 (holding S543, established on trick 5).  Every card before the revoke and the deal
    are recorded (double dummy gives a figure), but declarer's total is not known: 64C cannot
    weigh the damage against a result.  The 2017 Laws have 64C, so the review line says "not
    assessed", never "not under this code", and the paragraph gives that reason, never "the
    position at the revoke is not known"."""
    from builders import board
    from deals import D2, WEST_REVOKES_4

    from revoke_audit.ruling.options import AuditOptions

    a = audit_board(board(D2, "3NT", "S", WEST_REVOKES_4[:6], stopped=True), AuditOptions())
    assert a.ruling.tricks_adjusted is None and a.tricks_equity is not None
    text = explain_text(a)
    assert "review: not assessed" in text and "not under this code" not in text
    assert "position at the revoke is not known" not in text
    assert ("64C: not assessed (the result is not known from the record: it stops after trick 6 "
            "with no claim, and no Result the cards allow") in a.words_64c
