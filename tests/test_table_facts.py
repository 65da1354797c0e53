"""The director's log (``--table-facts``): reading and checking it, matching rows to boards, and
the command end to end on the sample session ``fixtures/facts`` (exact text)."""
import json
import tracemalloc
from pathlib import Path

import pytest
from builders import board
from click.testing import CliRunner
from deals import BASE2, D2

from revoke_audit import TableFactsError, audit_paths, read_table_facts
from revoke_audit.cli.commands import main
from revoke_audit.formats.pbn.write import format_pbn
from revoke_audit.reports.rows import log_findings
from revoke_audit.laws.table_facts import FactRow

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
HEADER = "source,event,board,room,trick,seat,fact,value\n"


def write(tmp_path, text, name="log.csv"):
    path = tmp_path / name
    path.write_text(text)
    return path


# --- reading -------------------------------------------------------------------------------

def test_every_fact_is_read(tmp_path):
    """Header in any order and case, a note column ignored, a UTF-8 BOM, blank lines, suit
    words and lower case accepted."""
    path = write(tmp_path, "\ufeffFact,Value,Trick,Seat,Source,Event,Board,Room,note\n"
                 "penalty-card,d8 Major,3,e,club.pbn,,7,,dropped\n\n"
                 "lead-required,hearts,0,W,,Pairs,,,\n"
                 "lead-forbidden,S,2,North,,,,open,\n"
                 "play-highest,C,5,S,,,,,\n"
                 "play-lowest,d,5,S,,,,,\n"
                 "discovered,After-Round,,,,,12,,\n")
    rows = read_table_facts(path).rows
    assert [(r.line, r.fact, r.trick, r.seat, r.value()) for r in rows] == [
        (2, "penalty-card", 3, 1, "D8 major"), (4, "lead-required", 0, 3, "H"),
        (5, "lead-forbidden", 2, 0, "S"), (6, "play-highest", 5, 2, "C"),
        (7, "play-lowest", 5, 2, "D"), (8, "discovered", None, None, "after-round")]
    assert (rows[0].source, rows[0].board, rows[1].event, rows[2].room) == ("club.pbn", "7",
                                                                          "Pairs", "open")
    assert rows[0].describe() == "trick 3, East: penalty-card D8 major"
    assert rows[5].keys() == "board 12"


@pytest.mark.parametrize("text, message", [
    ("source,event,board,trick,seat,fact\n",
     "log.csv:1: missing columns room, value (the header needs source, event, board, room, "
     "trick, seat, fact, value)"),
    (HEADER + ",,1,,3,X,penalty-card,D8 major\n", "log.csv:2: seat 'X' is not N, E, S or W"),
    (HEADER + ",,1,,3,E,penalty-card,Z8 major\n",
     "log.csv:2: penalty-card value 'Z8 major' is not a card and major or minor (e.g. D8 major)"),
    (HEADER + ",,1,,3,E,penalty-card,D8\n",
     "log.csv:2: penalty-card value 'D8' is not a card and major or minor (e.g. D8 major)"),
    (HEADER + "\n,,1,,3,E,penalty,D8 major\n",
     "log.csv:3: unknown fact 'penalty' (one of penalty-card, lead-required, lead-forbidden, "
     "play-highest, play-lowest, discovered)"),
    (HEADER + ",,1,,14,E,lead-required,H\n",
     "log.csv:2: trick '14' is not a number 0-13 (0 = during the auction)"),
    (HEADER + ",,1,," + "9" * 5000 + ",E,lead-required,H\n",  # past int()'s 4,300 digits
     "log.csv:2: trick '99999999999999999999...' is not a number 0-13 (0 = during the "
     "auction)"),
    (HEADER + ",,1,,-1,E,lead-required,H\n",
     "log.csv:2: trick '-1' is not a number 0-13 (0 = during the auction)"),
    (HEADER + ",,1,,,E,lead-required,H\n",
     "log.csv:2: lead-required needs a trick (0-13) and a seat (N, E, S or W)"),
    (HEADER + ",,1,,0,E,play-lowest,H\n",
     "log.csv:2: play-lowest needs a trick 1-13: no card is played during the auction"),
    (HEADER + ",,1,,2,E,lead-forbidden,X\n",
     "log.csv:2: lead-forbidden value 'X' is not a suit (S, H, D or C)"),
    (HEADER + ",,1,,,,discovered,later\n",
     "log.csv:2: discovered value 'later' is not table or after-round"),
    ("", "log.csv: empty: a header row is needed (source, event, board, room, trick, seat, fact, "
     "value)"),
])
def test_a_malformed_log_is_an_error_with_file_and_line(tmp_path, monkeypatch, text, message):
    monkeypatch.chdir(tmp_path)
    write(tmp_path, text)
    with pytest.raises(TableFactsError) as err:
        read_table_facts("log.csv")
    assert str(err.value) == message
    assert isinstance(err.value, ValueError)


def test_unreadable_log(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(TableFactsError, match=r"^nowhere.csv: cannot read the director's log: "
                                              r"No such file or directory$"):
        read_table_facts("nowhere.csv")
    (tmp_path / "latin.csv").write_bytes(HEADER.encode() + b",,1,,1,E,penalty-card,D8 major,\xe9\n")
    with pytest.raises(TableFactsError, match=r"^latin.csv: not UTF-8 text"):
        read_table_facts("latin.csv")


def test_rows_match_boards_on_every_key_given():
    """Source on its base name (inside an archive too), event ignoring case, board numbers as
    numbers, room ignoring case; an empty key matches anything."""
    rec = board(D2, "3NT", "S", BASE2, source="club/tue.pbn")
    rec = rec.__class__(**{**rec.__dict__, "event": "Tuesday Pairs", "board": "07",
                           "room": "Open"})
    row = FactRow(2, "discovered", discovered="table")
    assert row.matches(rec)
    for keys, expected in [({"source": "tue.pbn"}, True), ({"source": "other/tue.pbn"}, True),
                           ({"source": "tue.lin"}, False), ({"event": "tuesday pairs"}, True),
                           ({"event": "Monday"}, False), ({"board": "7"}, True),
                           ({"board": "17"}, False), ({"room": "open"}, True),
                           ({"room": "closed"}, False)]:
        assert FactRow(2, "discovered", discovered="table", **keys).matches(rec) is expected
    zipped = rec.__class__(**{**rec.__dict__, "source": "archive.zip!2026/tue.pbn"})
    assert FactRow(2, "discovered", source="tue.pbn", discovered="table").matches(zipped)


def big_log(tmp_path, rows: int, name="big.csv"):
    """``rows`` rows naming 36 boards of 100 files the audit is not given."""
    lines = [HEADER] + [f"s{i % 100}.pbn,,{i % 36 + 1},,{i % 13 + 1},{'NESW'[i % 4]},"
                        f"penalty-card,{'SHDC'[i % 4]}{i % 9 + 2} major\n" for i in range(rows)]
    return write(tmp_path, "".join(lines), name)


def test_a_board_finds_its_rows_by_their_keys_alone(tmp_path, monkeypatch):
    """The log is indexed by its key columns once: a board looks up the rows naming it, and
    never sees (builds, or compares with) the others, however many there are."""
    log = read_table_facts(big_log(tmp_path, 5000))
    built: list = []
    real = FactRow.__init__
    monkeypatch.setattr(FactRow, "__init__", lambda self, *a, **k: built.append(a[0]) or real(self, *a, **k))
    rec = board(D2, "3NT", "S", BASE2, source="club/s7.pbn")
    rec = rec.__class__(**{**rec.__dict__, "board": "08"})
    facts = log.for_board(rec)
    assert [r.line for r in facts.rows] == built == [i + 2 for i in range(5000)
                                                      if i % 100 == 7 and i % 36 == 7]
    assert log.for_board(rec.__class__(**{**rec.__dict__, "source": "x.pbn"})).rows == []
    assert len(built) == len(facts.rows)


def test_a_log_is_held_in_a_few_bytes_a_row(tmp_path):
    """Memory in proportion to the rows, and little of it: rows naming the same board share
    its keys (a million-row log once took 1.33 GB, then its RC040 rows as much again)."""
    path = big_log(tmp_path, 50_000)
    tracemalloc.start()
    try:
        log = read_table_facts(path)
        held = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert log.count == 50_000 and held / 50_000 < 60  # bytes a row, keys included (it was 410)


def test_rows_no_board_matched_come_in_batches(tmp_path):
    """The RC040 rows of a large log that names no board in the input are made a batch at a
    time, never all at once."""
    log = read_table_facts(big_log(tmp_path, 2500))
    batches = list(log_findings(log, {2, 3}))
    assert [len(b) for b in batches] == [1000, 1000, 498]
    assert [r["line"] for b in batches for r in b] == list(range(4, 2502))


# --- the command on the sample session -------------------------------------------------------

SESSION_FINDINGS = """\
source,line,game,board,room,code,law,trick,seat,role,suit_led,card,held,established,transferred,equity_tricks,message,player,marked,log_line,ruling
tuesday-pairs.pbn,36,1,1,,RV002,64B3,2,E,defender,H,HK,C6,true,0,,trick 2: East (defender) did not play the major penalty card C6 (Law 50D1; log line 2) but led HK: a failure to play a penalty card: no automatic transfer (64B3); redress only under 64C,Bob East,false,2,"Bob East (East, defender), trick 2: did not play the major penalty card C6 (Law 50D1; log line 2) but led HK; established when he played to trick 3 (63A1); a failure to play a penalty card: no automatic transfer (64B3); redress only under 64C; tricks for declarer: 10 played, 10 adjusted; final result 3NT+1 by South: N-S +430, E-W -430; 64C considered: not assessed (no double-dummy figure for this revoke); basis: 64B3."
tuesday-pairs.pbn,69,2,2,,RV001,64A1,2,E,defender,H,HK,SQ SJ ST S9,true,2,,trick 2: East (defender) did not lead a spade as required (Law 61A; log line 3) but led HK holding SQ SJ ST S9: East won the revoke trick and his side won a later one: 2 tricks transferred to North-South (64A1),Bob East,false,3,"Bob East (East, defender), trick 2: did not lead a spade as required (Law 61A; log line 3) but led HK holding SQ SJ ST S9; established when he played to trick 3 (63A1); East won the revoke trick and his side won a later one: 2 tricks transferred to North-South (64A1); tricks for declarer: 10 played, 12 adjusted; final result 3NT+3 by South: N-S +490, E-W -490; 64C considered: not assessed (no double-dummy figure for this revoke); basis: 64A."
tuesday-pairs.pbn,103,3,3,,RV001,64A2,3,E,defender,S,SQ,HQ D4 D3 D2 C8 C7 C6,true,1,,"trick 3: East (defender) led SQ when a spade lead was forbidden (Law 61A; log line 4), holding HQ D4 D3 D2 C8 C7 C6: one trick transferred to North-South (64A2)",Bob East,false,4,"Bob East (East, defender), trick 3: led SQ when a spade lead was forbidden (Law 61A; log line 4), holding HQ D4 D3 D2 C8 C7 C6; established when he played to trick 4 (63A1); one trick transferred to North-South (64A2); tricks for declarer: 10 played, 11 adjusted; final result 3NT+2 by South: N-S +460, E-W -460; 64C considered: not assessed (no double-dummy figure for this revoke); basis: 64A."
tuesday-pairs.pbn,136,4,4,,RV002,64B5,2,W,defender,S,H6,S7 S6,true,0,12,"trick 2: West (defender) played H6 on a spade lead holding S7 S6: found after the round ended: no automatic transfer (64B5); redress only under 64C (had attention been drawn in time, 1 trick would have been transferred); he held S6, of the same rank: possibly a recording slip: confirm the card with the record's source before signing",Di West,false,5,"Di West (West, defender), trick 2: played H6 on a spade lead holding S7 S6 (Law 61A); established when he played to trick 3 (63A1); found after the round ended: no automatic transfer (64B5); redress only under 64C (had attention been drawn in time, 1 trick would have been transferred); tricks for declarer: 12 played, 12 adjusted (13 had the table known in time); final result 4H+2 by South: N-S +480, E-W -480; 64C considered: the revoke itself cost North-South nothing (double dummy from trick 2, following suit against the card played: North-South 2 tricks worse off; 12 for declarer had he followed; the record shows North-South losing 0 tricks against that (declarer 12), so 0 tricks counted): no damage, the result stands; possibly a recording slip (he held S6, of the same rank): confirm the card with the record's source before signing; read as S6, South would have won trick 2 and led trick 3; the record's trick 3 fits either lead; there is no revoke: no ruling, declarer keeps 13 tricks; basis: 64B5."
tuesday-pairs.pbn,205,6,6,,RV002,64B3,5,W,defender,D,D6,D5,true,0,,trick 5: West (defender) played D6 before the minor penalty card D5 (Law 50C; log line 7): a failure to play a penalty card: no automatic transfer (64B3); redress only under 64C,Di West,false,7,"Di West (West, defender), trick 5: played D6 before the minor penalty card D5 (Law 50C; log line 7); established when his partner played to trick 6 (63A1); a failure to play a penalty card: no automatic transfer (64B3); redress only under 64C; tricks for declarer: 10 played, 10 adjusted; final result 3NT+1 by South: N-S +430, E-W -430; 64C considered: not assessed (no double-dummy figure for this revoke); basis: 64B3."
"""


@pytest.fixture
def cli(monkeypatch):
    monkeypatch.chdir(FIXTURES / "facts")
    runner = CliRunner()
    # the log's fixtures are worked out as ruled at the table (their header says so)
    table = lambda args: [*args, "--discovered", "table"] if args[:1] == ("audit",) else list(args)
    return lambda *args, **kw: runner.invoke(main, table(args), **kw)


def test_the_sample_session_with_its_log(cli, tmp_path):
    """Worked out in fixtures/facts/tuesday-pairs.pbn's header: boards 1-4 and 6 irregular,
    board 5 clean; 3NT+1 becomes 3NT+3 on board 2 and 3NT+2 on board 3."""
    boards, findings = tmp_path / "b.csv", tmp_path / "f.csv"
    r = cli("audit", "tuesday-pairs.pbn", "--table-facts", "tuesday-pairs-log.csv",
            "-o", str(boards), "--findings", str(findings))
    assert r.exit_code == 1
    assert findings.read_text() == SESSION_FINDINGS
    rows = [line.split(",") for line in boards.read_text().splitlines()[1:]]
    assert [(b[5], b[14], b[15], b[22]) for b in rows] == [
        ("1", "10", "3NT+1", "irregular"), ("2", "12", "3NT+3", "irregular"),
        ("3", "11", "3NT+2", "irregular"), ("4", "12", "4H+2", "irregular"),
        ("5", "10", "3NT+1", "clean"), ("6", "10", "3NT+1", "irregular")]
    # without the log only board 4's revoke on the cards is seen, and ruled at the table
    r = cli("audit", "tuesday-pairs.pbn", "-q")
    assert r.output.startswith("6 boards: 5 clean, 1 irregular,")


def test_the_same_reports_with_jobs(cli, tmp_path):
    outs = []
    for jobs in ("1", "2"):
        f = tmp_path / f"f{jobs}.csv"
        r = cli("audit", "tuesday-pairs.pbn", "--table-facts", "tuesday-pairs-log.csv",
                "--jobs", jobs, "--findings", str(f))
        outs.append((r.output, f.read_text()))
    assert outs[0] == outs[1] and outs[0][1] == SESSION_FINDINGS


def _clean_board(tmp_path) -> str:
    """One board of D2, BASE2, no revoke (3NT+1)."""
    (tmp_path / "clean.pbn").write_text(format_pbn(board(D2, "3NT", "S", BASE2)))
    return str(tmp_path / "clean.pbn")


def test_a_row_that_matches_no_board(cli, tmp_path):
    """Board 9 is not in the input: RC040, with the log's own file and line; no board row.
    RC040 is a record-consistency finding: it fails --fail-on inconsistent, not the default."""
    clean = _clean_board(tmp_path)
    log = write(tmp_path, HEADER + ",,1,,2,E,lead-required,S\n,,9,,3,E,penalty-card,D8 major\n")
    findings, boards = tmp_path / "f.csv", tmp_path / "b.csv"
    r = cli("audit", clean, "--table-facts", str(log), "--findings", str(findings),
            "-o", str(boards))
    line = (f"{log}:3: board 9: RC040 director's log {log} line 3: no board in the input "
            "matches (board 9); the row (trick 3, East: penalty-card D8 major) is ignored")
    assert r.output.splitlines()[-4:-2] == [
        line, "1 board: 0 clean, 1 irregular, 0 inconsistent, 0 unreadable; 1 revoke finding, "
              "0 defective tricks, 1 record error, 0 parse problems"]
    assert r.output.splitlines()[-2] == "score corrections to enter (1 board):"  # board 1
    assert r.exit_code == 1  # board 1's lead-required revoke
    assert findings.read_text().splitlines()[-1] == (
        f"{log},3,,9,,RC040,,,E,,,D8,,,,,\"director's log {log} line 3: no board in the input "
        "matches (board 9); the row (trick 3, East: penalty-card D8 major) is ignored\",,,3,")
    assert boards.read_text().count("\n") == 2  # the header and board 1 only
    log.write_text(HEADER + ",,9,,3,E,penalty-card,D8 major\n")
    assert cli("audit", clean, "--table-facts", str(log)).exit_code == 0
    assert cli("audit", clean, "--table-facts", str(log), "--fail-on", "inconsistent").exit_code == 1


def test_log_findings_in_the_json_formats(cli, tmp_path):
    clean = _clean_board(tmp_path)
    log = write(tmp_path, HEADER + ",,9,,3,E,penalty-card,D8 major\n")
    doc = json.loads(cli("audit", clean, "--table-facts", str(log), "--format", "json").stdout)
    assert len(doc["boards"]) == 1 and doc["findings"][0]["code"] == "RC040"
    lines = cli("audit", clean, "--table-facts", str(log), "--format", "jsonl").stdout.splitlines()
    last = json.loads(lines[1])
    assert last["log"] == str(log) and last["findings"][0]["log_line"] == 2
    assert json.loads(lines[0])["board"] == "1"


@pytest.mark.parametrize("text, message", [
    (HEADER + ",,1,,3,X,penalty-card,D8 major\n", "Error: {log}:2: seat 'X' is not N, E, S or W"),
    (HEADER + ",,1,,3,E,penalty-card,Q8 major\n",
     "Error: {log}:2: penalty-card value 'Q8 major' is not a card and major or minor (e.g. D8 major)"),
    ("source,board,trick,seat,fact,value\n",
     "Error: {log}:1: missing columns event, room (the header needs source, event, board, room, "
     "trick, seat, fact, value)"),
    (HEADER[:-1] + ",note " + "x" * (128 << 10) + "\n",  # a header cell over 128 KiB
     "Error: {log}:1: unreadable CSV: field larger than field limit (131072)"),
])
def test_a_malformed_log_stops_the_command(cli, tmp_path, text, message):
    """One line with the file and line, exit code 2, no report written, for audit and explain."""
    log = write(tmp_path, text)
    boards = tmp_path / "b.csv"
    r = cli("audit", "tuesday-pairs.pbn", "--table-facts", str(log), "-o", str(boards))
    assert (r.exit_code, r.output) == (2, message.format(log=log) + "\n")
    assert not boards.exists()
    r = cli("explain", "tuesday-pairs.pbn", "--board", "1", "--table-facts", str(log))
    assert (r.exit_code, r.output) == (2, message.format(log=log) + "\n")


def test_a_card_the_player_never_held(cli, tmp_path):
    """East never held S2 on board 1 (North does): RC040 on that board, naming the log's line."""
    log = write(tmp_path, HEADER + ",,1,,2,E,penalty-card,S2 major\n")
    r = cli("audit", "tuesday-pairs.pbn", "--table-facts", str(log), "--fail-on", "inconsistent")
    assert r.exit_code == 1
    assert r.output.splitlines()[0] == (
        f"tuesday-pairs.pbn:26: board 1: RC040 director's log {log} line 2: East never held S2 "
        "on this board; the row (trick 2, East: penalty-card S2 major) is ignored")


def test_explain_shows_what_bound_each_player(cli):
    r = cli("explain", "tuesday-pairs.pbn", "--board", "1", "--table-facts",
            "tuesday-pairs-log.csv")
    assert r.exit_code == 0
    text = r.output
    assert ("Director's log tuesday-pairs-log.csv:\n"
            "  line 2: trick 1, East: penalty-card C6 major\n") in text
    assert """\
 1  W    H8   N H2   E HA   S H9          -> E    0
      E: major penalty card C6 (Law 50D1; log line 2): not a legal play to this
        trick (he must follow in hearts, Law 44C), so not due: no revoke
 2  E    HK*  S HT   W H5   N H3          -> E    0
      E: did not play the major penalty card C6 (Law 50D1; log line 2) but led
        HK: a revoke (Law 61A)
 3  E    C6   S CA   W C2   N C3          -> S    1
      E: major penalty card C6 (Law 50D1; log line 2): played it
 4  S    CK   W C9   N C4   E C7          -> S    2
""" in text
    r = cli("explain", "tuesday-pairs.pbn", "--board", "4", "--table-facts",
            "tuesday-pairs-log.csv")
    assert "  line 5: discovered after-round (overrides --discovered)\n" in r.output
    assert "RV002 [64B5]" in r.output


def test_library_takes_a_path_or_a_read_log(tmp_path):
    pbn = str(FIXTURES / "facts" / "tuesday-pairs.pbn")
    log = FIXTURES / "facts" / "tuesday-pairs-log.csv"
    for facts in (str(log), read_table_facts(log)):
        result = audit_paths([pbn], table_facts=facts, discovered="table")
        assert len(result.boards) == 6
        assert list(result.findings["log_line"]) == [2, 3, 4, 5, 7]
        assert list(result.boards["tricks_adjusted"]) == [10, 12, 11, 12, 10, 10]
    bad = write(tmp_path, HEADER + ",,1,,3,E,penalty-card,D8 huge\n")
    with pytest.raises(ValueError, match="log.csv:2: penalty-card value 'D8 huge'"):
        audit_paths([pbn], table_facts=str(bad))


def test_equity_is_estimated_for_failures_to_follow_only():
    """--equity solves "had he followed suit"; a broken duty of the log is not that question,
    so only board 4's ruff (the revoke on the cards) gets an estimate."""
    result = audit_paths([str(FIXTURES / "facts" / "tuesday-pairs.pbn")], equity=True,
                         table_facts=str(FIXTURES / "facts" / "tuesday-pairs-log.csv"))
    rv = result.findings[result.findings["code"].str.startswith("RV")]
    assert list(rv["board"]) == ["1", "2", "3", "4", "6"]
    assert list(rv["equity_tricks"].notna()) == [False, False, False, True, False]


def test_the_log_from_pyproject_settings(tmp_path, monkeypatch):
    """``table-facts = "..."`` in [tool.revoke-audit] is the default for audit and explain."""
    for name in ("tuesday-pairs.pbn", "tuesday-pairs-log.csv"):
        (tmp_path / name).write_bytes((FIXTURES / "facts" / name).read_bytes())
    (tmp_path / "pyproject.toml").write_text(
        '[tool.revoke-audit]\ntable-facts = "tuesday-pairs-log.csv"\n')
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    r = runner.invoke(main, ["audit", "tuesday-pairs.pbn", "-q"])
    assert r.output.startswith("6 boards: 1 clean, 5 irregular,")
    r = runner.invoke(main, ["explain", "tuesday-pairs.pbn", "--board", "2"])
    assert "did not lead a spade as required" in r.output


def test_a_row_naming_only_a_file_that_is_not_in_the_input(cli, tmp_path):
    """No board number to name: the text line says it is the director's log's."""
    clean = _clean_board(tmp_path)
    log = write(tmp_path, HEADER + "monday.pbn,,,,,,discovered,table\n")
    r = cli("audit", clean, "--table-facts", str(log))
    assert r.output.splitlines()[0] == (
        f"{log}:2: director's log: RC040 director's log {log} line 2: no board in the input "
        "matches (source monday.pbn); the row (discovered table) is ignored")


# --- the log's own findings (no board row) through selection, baseline and every output -------

def _unmatched(tmp_path):
    """A clean board and a log with one row (line 2) for board 9, which is not in the input."""
    return _clean_board(tmp_path), write(tmp_path, HEADER + ",,9,,3,E,penalty-card,D8 major\n")


def test_an_ignored_or_unselected_rc040_leaves_nothing_behind(cli, tmp_path):
    """--ignore RC040 / --select RV drop the log's own findings: no text line, no findings row,
    no empty jsonl item, counted nowhere."""
    clean, log = _unmatched(tmp_path)
    for chosen in (["--ignore", "RC040"], ["--select", "RV"]):
        findings = tmp_path / "f.csv"
        r = cli("audit", clean, "--table-facts", str(log), "--findings", str(findings),
                "--fail-on", "inconsistent", *chosen)
        assert (r.exit_code, r.output) == (0, "1 board: 1 clean, 0 irregular, 0 inconsistent, "
                                              "0 unreadable; 0 revoke findings, 0 defective "
                                              "tricks, 0 record errors, 0 parse problems\n")
        assert findings.read_text().count("\n") == 1  # the header only
        r = cli("audit", clean, "--table-facts", str(log), "--format", "jsonl", *chosen)
        assert [json.loads(line)["board"] for line in r.stdout.splitlines()] == ["1"]
    r = cli("audit", clean, "--table-facts", str(log), "--select", "RC040", "--format", "jsonl")
    assert json.loads(r.stdout.splitlines()[1])["findings"][0]["code"] == "RC040"


def test_rc040_in_a_baseline(cli, tmp_path):
    """--write-baseline records it under the log's file; --baseline then leaves it out."""
    clean, log = _unmatched(tmp_path)
    baseline = tmp_path / "baseline.json"
    assert cli("audit", clean, "--table-facts", str(log), "-q",
               "--write-baseline", str(baseline)).exit_code == 0
    entries = json.loads(baseline.read_text())["findings"]
    assert [(e["source"], e["board"], e["code"], e["seat"]) for e in entries] == [
        (str(log), "9", "RC040", "E")]
    r = cli("audit", clean, "--table-facts", str(log), "--baseline", str(baseline),
            "--fail-on", "inconsistent")
    assert r.exit_code == 0
    assert r.output.endswith("0 record errors, 0 parse problems; 1 finding in the baseline "
                             "not shown\n")


def test_rc040_in_github_sarif_and_findings_on_stdout(cli, tmp_path):
    """The log's file and line are the finding's location in every output."""
    clean, log = _unmatched(tmp_path)
    message = (f"board 9: RC040 director's log {log} line 2: no board in the input matches "
               "(board 9); the row (trick 3, East: penalty-card D8 major) is ignored")
    r = cli("audit", clean, "--table-facts", str(log), "--format", "github")
    assert r.stdout.splitlines()[0] == f"::warning file={log},line=2,title=RC040::{message}"
    doc = json.loads(cli("audit", clean, "--table-facts", str(log), "--format", "sarif").stdout)
    [result] = doc["runs"][0]["results"]
    location = result["locations"][0]["physicalLocation"]
    assert (result["ruleId"], result["message"]["text"], location["region"]["startLine"]) == (
        "RC040", message, 2)
    assert location["artifactLocation"]["uri"].endswith("/log.csv")
    assert result["properties"] == {"board": "9", "seat": "E"}
    r = cli("audit", clean, "--table-facts", str(log), "--findings", "-")
    assert r.stdout.splitlines()[1:] == [
        f"{log},2,,9,,RC040,,,E,,,D8,,,,,\"director's log {log} line 2: no board in the input "
        "matches (board 9); the row (trick 3, East: penalty-card D8 major) is ignored\",,,2,"]


def test_typed_frames_and_parquet_carry_log_line(tmp_path):
    """audit_paths: log_line is Int64 (empty for findings not from the log), with select too."""
    clean, log = _unmatched(tmp_path)
    facts = FIXTURES / "facts"
    result = audit_paths([str(facts / "tuesday-pairs.pbn"), clean], table_facts=str(log),
                         select=["RC"])
    assert str(result.findings["log_line"].dtype) == "Int64"
    assert list(result.findings["code"]) == ["RC040"]
    assert result.findings["log_line"].tolist() == [2]
    result = audit_paths([facts / "tuesday-pairs.pbn"], table_facts=facts / "tuesday-pairs-log.csv")
    assert result.findings["log_line"].tolist() == [2, 3, 4, 5, 7]
    pytest.importorskip("pyarrow")
    from revoke_audit import load_report
    runner = CliRunner()
    out = tmp_path / "f.parquet"
    runner.invoke(main, ["audit", clean, "--table-facts", str(log), "--findings", str(out)])
    frame = load_report(out)
    assert str(frame["log_line"].dtype) == "Int64" and frame["log_line"].tolist() == [2]


def test_a_log_in_the_settings_is_relative_to_the_settings_file(tmp_path, monkeypatch):
    """As ``baseline``: run from a folder below the pyproject.toml."""
    (tmp_path / "logs").mkdir()
    (tmp_path / "logs" / "log.csv").write_bytes(
        (FIXTURES / "facts" / "tuesday-pairs-log.csv").read_bytes())
    (tmp_path / "pyproject.toml").write_text('[tool.revoke-audit]\ntable-facts = "logs/log.csv"\n')
    (tmp_path / "sub").mkdir()
    monkeypatch.chdir(tmp_path / "sub")
    r = CliRunner().invoke(main, ["audit", str(FIXTURES / "facts" / "tuesday-pairs.pbn"), "-q"])
    assert (r.exit_code, r.output.split(";")[0]) == (
        1, "6 boards: 1 clean, 5 irregular, 0 inconsistent, 0 unreadable")


def test_a_malformed_log_echoes_no_terminal_control_sequence(cli, tmp_path):
    """A cell with ``ESC ] 0 ; title BEL`` (it would set the terminal's title) quoted in the
    error: escaped as the reports escape it, the message still one line."""
    log = write(tmp_path, HEADER + ",,1,,3,E,\x1b]0;pwned\x07\u2028x,D8 major\n")
    r = cli("audit", "tuesday-pairs.pbn", "--table-facts", str(log))
    assert r.exit_code == 2
    assert r.output == (f"Error: {log}:2: unknown fact '\\x1b]0;pwned\\x07\\u2028x' (one of "
                        "penalty-card, lead-required, lead-forbidden, play-highest, play-lowest, "
                        "discovered)\n")


def test_a_board_cell_of_thousands_of_digits_matches_no_board(tmp_path):
    """Issue 35 F21: a board cell of 5,000 digits went to ``int()``, past its 4,300-digit
    limit: an internal error.  It is a board number no record has (RC040, the row ignored)."""
    from click.testing import CliRunner

    from revoke_audit.cli.commands import main
    log = tmp_path / "log.csv"
    log.write_text(HEADER + ",," + "9" * 5000 + ",,,,discovered,table\n")
    revoke = Path(__file__).resolve().parents[1] / "fixtures" / "cli" / "revoke.pbn"
    r = CliRunner().invoke(main, ["audit", str(revoke), "--table-facts", str(log), "-q",
                                  "--findings", str(tmp_path / "f.csv"),
                                  "-o", str(tmp_path / "b.csv")])
    assert r.exit_code == 1 and "internal error" not in r.output, r.output
    assert "RC040" in (tmp_path / "f.csv").read_text()
