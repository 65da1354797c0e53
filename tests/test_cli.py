"""The ``revoke-audit`` command end to end, through click's runner, with exact CSV text."""
import csv
import io
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from revoke_audit.cli.commands import main

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"

BOARDS = """\
source,line,game,event,date,board,room,dealer,vul,declarer,contract,play,tricks_stated,tricks_played,tricks_adjusted,result_adjusted,score_ns,score_ns_adjusted,revokes,defective_tricks,record_errors,laws,status,scoring,parse_problems,below_ns,above_ns,below_ew,above_ew,scoring_notes,north,east,south,west,tricks_equity,review_64c,tricks_by_cards,tricks_automatic,ruling_basis,field,mp_pct_ns,mp_pct_ns_adjusted,imps_ns,imps_ns_adjusted,scoring_method,tricks_64c,result_64c,score_ns_64c,ruling_64c,confirm_card
revoke.pbn,4,1,'=Thursday Pairs,2026.11.20,2,,N,None,S,3NT,complete,10,10,10,3NT+1,430,430,1,0,0,2017,irregular,duplicate,0,,,,,,Ed North,Flo East,Gus South,'=1+2,10,false,10,11,64B5,,,,,,,10,3NT+1,430,no damage,
revoke.lin,1,1,,,7,,N,None,S,4H,complete,,12,12,4H+2,480,480,1,0,0,2017,irregular,duplicate,0,,,,,,Ann North,Bob East,Cy South,Di West,12,false,12,13,64B5,,,,,,,12,4H+2,480,no damage,trick 2 West H6 (S6?)
"""
FINDINGS = """\
source,line,game,board,room,code,law,trick,seat,role,suit_led,card,held,established,transferred,equity_tricks,message,player,marked,log_line,ruling
revoke.pbn,25,1,2,,RV002,64B5,3,W,defender,H,D5,H7 H6,true,0,10,"trick 3: West (defender) played D5 on a heart lead holding H7 H6: found after the round ended: no automatic transfer (64B5); redress only under 64C (had attention been drawn in time, 1 trick would have been transferred)",'=1+2,false,,"'=1+2 (West, defender), trick 3: played D5 on a heart lead holding H7 H6 (Law 61A); established when his partner played to trick 4 (63A1); found after the round ended: no automatic transfer (64B5); redress only under 64C (had attention been drawn in time, 1 trick would have been transferred); tricks for declarer: 10 played, 10 adjusted (11 had the table known in time); final result 3NT+1 by South: N-S +430, E-W -430; 64C considered: the revoke itself cost North-South nothing (double dummy from trick 3, following suit against the card played: North-South 0 tricks worse off; 10 for declarer had he followed): no damage, the result stands; basis: 64B5."
revoke.lin,1,1,7,,RV002,64B5,2,W,defender,S,H6,S7 S6,true,0,12,"trick 2: West (defender) played H6 on a spade lead holding S7 S6: found after the round ended: no automatic transfer (64B5); redress only under 64C (had attention been drawn in time, 1 trick would have been transferred); he held S6, of the same rank: possibly a recording slip: confirm the card with the record's source before signing",Di West,false,,"Di West (West, defender), trick 2: played H6 on a spade lead holding S7 S6 (Law 61A); established when he played to trick 3 (63A1); found after the round ended: no automatic transfer (64B5); redress only under 64C (had attention been drawn in time, 1 trick would have been transferred); tricks for declarer: 12 played, 12 adjusted (13 had the table known in time); final result 4H+2 by South: N-S +480, E-W -480; 64C considered: the revoke itself cost North-South nothing (double dummy from trick 2, following suit against the card played: North-South 2 tricks worse off; 12 for declarer had he followed; the record shows North-South losing 0 tricks against that (declarer 12), so 0 tricks counted): no damage, the result stands; possibly a recording slip (he held S6, of the same rank): confirm the card with the record's source before signing; read as S6, the rest of the record no longer fits the deal (the card as recorded is the likelier); basis: 64B5."
"""


@pytest.fixture
def cli(monkeypatch):
    monkeypatch.chdir(FIXTURES / "cli")
    runner = CliRunner()
    return lambda *args, **kw: runner.invoke(main, list(args), **kw)


def test_audit_writes_exact_csv_for_pbn_and_lin(cli, tmp_path):
    boards, findings = tmp_path / "boards.csv", tmp_path / "findings.csv"
    r = cli("audit", "revoke.pbn", "revoke.lin", "-o", str(boards), "--findings", str(findings))
    assert r.exit_code == 1  # revokes found: the default --fail-on irregular
    assert boards.read_text() == BOARDS
    assert findings.read_text() == FINDINGS
    assert r.output.splitlines() == [
        "revoke.pbn:25: board 2: RV002 [64B5] trick 3: West (defender) played D5 on a heart lead "
        "holding H7 H6: found after the round ended: no automatic transfer (64B5); redress only "
        "under 64C (had attention been drawn in time, 1 trick would have been "
        "transferred)",
        "revoke.pbn:4: board 2 (N-S Ed North-Gus South, E-W Flo East-=1+2): 3NT+1 430 -> 3NT+1 "
        "430 (64B5: found after the round, no automatic transfer)",
        "revoke.lin:1: board 7: RV002 [64B5] trick 2: West (defender) played H6 on a spade lead "
        "holding S7 S6: found after the round ended: no automatic transfer (64B5); redress only "
        "under 64C (had attention been drawn in time, 1 trick would have been "
        "transferred); he held S6, of the same rank: possibly a recording slip: confirm the "
        "card with the record's source before signing",
        "revoke.lin:1: board 7 (N-S Ann North-Cy South, E-W Bob East-Di West): 4H+2 480 -> 4H+2 "
        "480 (64B5: found after the round, no automatic transfer; confirm the card with the "
        "record's source before signing: trick 2 West H6 (S6?))",
        "2 boards: 0 clean, 2 irregular, 0 inconsistent, 0 unreadable; 2 revoke findings, "
        "0 defective tricks, 0 record errors, 0 parse problems",
    ]
    cli("audit", "revoke.pbn", "--discovered", "table", "-o", str(boards))
    row = boards.read_text().splitlines()[1]
    assert row.split(",")[13:16] == ["10", "11", "3NT+2"]  # 64A2 at the table
    assert row.endswith(",10,false,10,11,64A,,,,,,,11,3NT+2,460,no damage,")
    assert not list(tmp_path.glob(".revoke-audit-*"))  # no temp file left behind


def test_exit_codes(cli, tmp_path):
    assert cli("audit", "revoke.pbn", "--exit-zero").exit_code == 0
    assert cli("audit", "revoke.pbn", "--fail-on", "none").exit_code == 0
    clean = FIXTURES / "mixed" / "thursday-pairs.pbn"
    assert cli("audit", str(clean), "--fail-on", "inconsistent").exit_code == 1
    assert cli("audit", "revoke.pbn", "--laws", "1066").exit_code == 2
    target = tmp_path / "no" / "such" / "dir.csv"
    r = cli("audit", "revoke.pbn", "-o", str(target))
    assert (r.exit_code, r.output) == (2, f"Error: cannot write {target}: No such file or directory\n")
    assert "Traceback" not in r.output


def test_missing_path_is_an_error_before_anything_is_read(cli, tmp_path):
    """A mistyped path must not pass a CI job: exit 2, one line, no report written."""
    boards = tmp_path / "b.csv"
    r = cli("audit", "revoke.pbn", "nowhere.pbn", "-o", str(boards))
    assert (r.exit_code, r.output) == (2, "Error: cannot read nowhere.pbn: no such file or folder\n")
    assert not boards.exists()


def test_a_run_with_no_hand_record_is_an_error_but_keeps_its_rows(cli, tmp_path):
    """A file that exists but holds no board still gets its row (and finding); when no source
    of the run holds a hand record at all, the run exits 2."""
    (tmp_path / "notes.pbn").write_text("just some text, no game\n")
    boards = tmp_path / "b.csv"
    r = cli("audit", str(tmp_path / "notes.pbn"), "-o", str(boards))
    assert r.exit_code == 2
    assert r.output.splitlines()[-1] == f"Error: no hand record found in {tmp_path / 'notes.pbn'}"
    rows = boards.read_text().splitlines()
    assert len(rows) == 2 and rows[1].split(",")[-14] == "unreadable" or "unreadable" in rows[1]


def test_stdin(cli):
    r = cli("audit", "-", "--format", "jsonl", "--discovered", "table", input=(FIXTURES / "cli" / "revoke.lin").read_bytes())
    (line,) = [l for l in r.output.splitlines() if l.startswith("{")]
    row = json.loads(line)
    assert row["source"] == "<stdin>" and row["tricks_adjusted"] == 13
    assert row["findings"][0]["code"] == "RV001"


def test_stdout_formats(cli):
    gh = cli("audit", "revoke.pbn", "--format", "github").output.splitlines()
    assert gh[0].startswith("::error file=revoke.pbn,line=25,title=RV002::board 2: RV002")
    sarif = json.loads(cli("audit", "revoke.pbn", "--format", "sarif").stdout)
    result = sarif["runs"][0]["results"][0]
    assert result["ruleId"] == "RV002" and result["locations"][0]["physicalLocation"]["region"]["startLine"] == 25
    doc = json.loads(cli("audit", "revoke.pbn", "--format", "json").stdout)
    assert doc["boards"][0]["status"] == "irregular" and doc["findings"][0]["law"] == "64B5"
    csv_out = cli("audit", "revoke.pbn", "--format", "csv").stdout.splitlines()
    assert csv_out[:2] == BOARDS.splitlines()[:2]


def test_quiet_prints_only_the_summary(cli):
    r = cli("audit", "revoke.pbn", "-q")
    assert r.output.splitlines() == ["1 board: 0 clean, 1 irregular, 0 inconsistent, 0 unreadable; "
                                     "1 revoke finding, 0 defective tricks, 0 record errors, 0 parse problems"]


def test_equity_option_fills_the_columns(cli, tmp_path):
    """West's revoke on trick 3 of revoke.pbn: had he followed, East still wins it and N-S
    take the rest: 10, one less than the adjusted 11, so no 64C review (see test_equity)."""
    findings, boards = tmp_path / "f.csv", tmp_path / "b.csv"
    r = cli("audit", "revoke.pbn", "--findings", str(findings), "-o", str(boards))
    assert r.exit_code == 1
    header, row = list(csv.reader(io.StringIO(findings.read_text())))
    assert dict(zip(header, row))["equity_tricks"] == "10"
    header, row = boards.read_text().splitlines()
    assert ",tricks_equity,review_64c," in header and row.endswith(
        ",10,false,10,11,64B5,,,,,,,10,3NT+1,430,no damage,")
    cli("audit", "revoke.pbn", "--no-equity", "-o", str(boards))
    # --no-equity: no double-dummy figures, and Law 64C not assessed
    assert boards.read_text().splitlines()[1].endswith(",,,10,11,64B5,,,,,,,,,,not assessed,")


def test_library_api_gives_dataframes():
    from revoke_audit import audit_paths
    result = audit_paths([str(FIXTURES / "cli" / "revoke.pbn")], discovered="table")
    assert list(result.boards.columns)[:3] == ["source", "line", "game"]
    assert result.boards.loc[0, "tricks_adjusted"] == 11
    assert result.findings.loc[0, "code"] == "RV001" and result.findings.loc[0, "equity_tricks"] == 10
    assert result.boards.loc[0, "tricks_equity"] == 10 and not result.boards.loc[0, "review_64c"]


def test_jobs_give_the_same_reports_in_the_same_order(cli, tmp_path):
    outs = []
    for jobs in ("1", "2"):
        b, f = tmp_path / f"b{jobs}.csv", tmp_path / f"f{jobs}.csv"
        r = cli("audit", str(FIXTURES / "mixed"), str(FIXTURES / "cli"), "--jobs", jobs,
                "-o", str(b), "--findings", str(f))
        outs.append((r.output, b.read_text(), f.read_text()))
    assert outs[0] == outs[1]
    assert outs[0][1].count("\n") == 1 + 8 + 2


def test_settings_from_pyproject(cli, tmp_path, monkeypatch):
    (tmp_path / "pyproject.toml").write_text('[tool.revoke-audit]\nlaws = "1997"\nfail-on = "none"\n')
    (tmp_path / "revoke.pbn").write_bytes((FIXTURES / "cli" / "revoke.pbn").read_bytes())
    monkeypatch.chdir(tmp_path)
    r = cli("audit", "revoke.pbn", "--format", "csv")
    assert r.exit_code == 0  # fail-on none from the settings
    assert ",1997,irregular," in r.stdout
    r = cli("audit", "revoke.pbn", "--format", "csv", "--laws", "2017")  # the command line wins
    assert ",2017,irregular," in r.stdout
    (tmp_path / "pyproject.toml").write_text('[tool.revoke-audit]\nlaws = "1066"\n')
    r = cli("audit", "revoke.pbn")
    assert r.exit_code == 2 and "Traceback" not in r.output


def test_marked_revokes_are_reported_as_marked_not_as_known_to_the_table(tmp_path):
    """South's DA on a heart lead is marked ^R in the file: findings.csv says marked=true and
    the text line says so, but a mark is the producer's reading, not the table's knowledge:
    after the round (the default) it is 64B5 with the would-be 64A2 trick as information; with
    --discovered table, 64A2.  --fail-on unmarked does not fail on it (the default still does)."""
    fixture = str(Path(__file__).resolve().parents[1] / "fixtures" / "pbn" / "play_columns.pbn")
    findings = tmp_path / "f.csv"
    runner = CliRunner()
    r = runner.invoke(main, ["audit", fixture, "--findings", str(findings)])
    assert r.exit_code == 1
    assert ("(had attention been drawn in time, 1 trick would have been transferred) (marked ^R "
            "in the record: the producer's reading of the play, not a sign that the table "
            "knew)") in r.output
    rows = list(csv.DictReader(findings.open()))
    assert [(x["code"], x["marked"]) for x in rows if x["code"].startswith("RV")] == [("RV002", "true")]
    r = runner.invoke(main, ["audit", fixture, "--discovered", "table"])
    assert "one trick transferred to East-West (64A2) (marked ^R in the record" in r.output
    assert runner.invoke(main, ["audit", fixture, "--fail-on", "unmarked"]).exit_code == 0


def test_boards_without_play_are_counted_as_not_checked(tmp_path):
    """fixtures/pbn/unreadable_and_unplayed.pbn: game 3 has a contract and a result and no
    play (a club export): status unchecked, and the summary says so; game 4 was passed out
    (clean); games 1-2 have unreadable cards (record errors, no penalty)."""
    fixture = str(FIXTURES / "pbn" / "unreadable_and_unplayed.pbn")
    boards = tmp_path / "b.csv"
    r = CliRunner().invoke(main, ["audit", fixture, "-o", str(boards)])
    assert r.exit_code == 0, r.output
    assert r.output.splitlines()[-1] == (
        "4 boards: 1 clean, 0 irregular, 2 inconsistent, 0 unreadable; 0 revoke findings, 0 "
        "defective tricks, 3 record errors, 3 parse problems; 1 board without play: not checked")
    rows = list(csv.DictReader(boards.open()))
    assert [(x["game"], x["play"], x["status"]) for x in rows] == [
        ("1", "complete", "inconsistent"), ("2", "complete", "inconsistent"),
        ("3", "none", "unchecked"), ("4", "none", "clean")]


@pytest.mark.parametrize("extra", [["--format", "json"], [], ["-o", "-"]])
def test_standings_to_standard_output_is_refused(tmp_path, extra):
    """``--standings -`` would put a second document (the standings CSV) into stdout beside the
    JSON, the text summary or boards.csv: a usage error before anything is read."""
    result = CliRunner().invoke(main, ["audit", str(FIXTURES / "session"), "--standings", "-",
                                       *extra])
    assert result.exit_code == 2
    assert "--standings -" in result.output and "rank" not in result.stdout
