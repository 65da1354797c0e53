"""Choosing what counts: --select / --ignore / --extend-select (ruff's rules), --statistics, and
what selection does to status, counts and the exit code."""
from pathlib import Path

import pytest
from click.testing import CliRunner

from revoke_audit.cli.commands import main
from revoke_audit.reports.selection import Selection, check_prefixes

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"

LW = ("mixed.pbn:7: board 2: LW001 date 2017-06-12 falls in the adoption window of the 2017 Laws "
      "(WBF March 2017, EBU 2017-08-01, ACBL 2017-09-25); 2017 applied")
PS = "mixed.pbn:8: board 2: PS103 value of tag Site is not in quotes"
RV = ("mixed.pbn:28: board 2: RV001 [64A2] trick 3: West (defender) played D5 on a heart lead "
      "holding H7 H6: one trick transferred to North-South (64A2)")
DL = ("mixed.pbn:7: board 2 (N-S Ed North-Gus South, E-W Flo East-Di West): 3NT+1 430 -> 3NT+2 460"
      " (64A: tricks transferred)")
RC = "mixed.pbn:55: board 3: RC023 Result says 8 tricks for declarer but the play gives 10"


@pytest.fixture
def cli(monkeypatch):
    monkeypatch.chdir(FIXTURES / "selection")
    runner = CliRunner()
    return lambda *args: runner.invoke(main, ["audit", "mixed.pbn", "--laws", "auto",
                                              "--discovered", "table", *args])


def summary(clean, irregular, inconsistent, rv, rc, ps, notes=0):
    def many(n, thing):
        return f"{n} {thing}" if n == 1 else f"{n} {thing}s"
    text = (f"2 boards: {clean} clean, {irregular} irregular, {inconsistent} inconsistent, "
            f"0 unreadable; {many(rv, 'revoke finding')}, 0 defective tricks, "
            f"{many(rc, 'record error')}, {many(ps, 'parse problem')}")
    return text + (f", {many(notes, 'note')}" if notes else "")


# board 2's revoke, ruled at the table (64A2: one trick), is the one score to correct; a run
# that does not report the revoke (--ignore RV001) lists no correction either
CORRECTIONS = ["score corrections to enter (1 board):",
               "  Spring Pairs, board 2: N-S Ed North & Gus South, E-W Flo East & Di West: "
               "3NT+1 by S (N-S +430) -> 3NT+2 (N-S +460); 64A2"]


def test_every_code_by_default(cli):
    r = cli()
    assert r.output.splitlines() == [LW, PS, RV, DL, RC, summary(0, 1, 1, 1, 1, 1, 1),
                                     *CORRECTIONS]
    assert r.exit_code == 1


def test_select_a_family_drops_the_rest_from_status_and_exit_code(cli):
    r = cli("--select", "RC")
    assert r.output.splitlines() == [RC, summary(1, 0, 1, 0, 1, 0)]
    assert r.exit_code == 0  # the revoke is not selected, so it cannot fail the run
    assert cli("--select", "RC", "--fail-on", "inconsistent").exit_code == 1


def test_ignore_a_code_and_extend_select(cli):
    r = cli("--ignore", "RV001,LW")
    assert r.output.splitlines() == [PS, RC, summary(1, 0, 1, 0, 1, 1)]
    assert r.exit_code == 0
    r = cli("--select", "RC", "--extend-select", "PS1")
    assert r.output.splitlines() == [PS, RC, summary(1, 0, 1, 0, 1, 1)]


def test_the_more_specific_prefix_wins(cli):
    r = cli("--select", "RV001", "--ignore", "RV")
    assert r.output.splitlines() == [RV, DL, summary(1, 1, 0, 1, 0, 0), *CORRECTIONS]
    assert r.exit_code == 1
    r = cli("--select", "RV", "--ignore", "RV001")
    assert r.output.splitlines() == [summary(2, 0, 0, 0, 0, 0)]


def test_selection_rewrites_the_board_row_but_not_the_ruling(cli):
    r = cli("--select", "RC", "--format", "csv")
    header, board2, board3 = r.stdout.splitlines()
    row = dict(zip(header.split(","), board2.split(",")))
    assert (row["status"], row["revokes"], row["parse_problems"]) == ("clean", "0", "0")
    assert (row["tricks_played"], row["tricks_adjusted"]) == ("10", "11")  # still ruled
    assert dict(zip(header.split(","), board3.split(",")))["record_errors"] == "1"


def test_statistics_count_per_code_instead_of_each_finding(cli):
    r = cli("--statistics")
    assert r.output.splitlines() == [
        "1  LW001  --laws auto: on a board with a revoke or defective trick, the edition chosen "
        "from the record's date is uncertain (no date, an adoption window, or a code in force "
        "that is not implemented)",
        "1  PS103  tag value not in quotes; read as is",
        "1  RC023  stated Result disagrees with the play (and with the adjusted result)",
        "1  RV001  established revoke: tricks transferred (64A1 / 64A2)",
        summary(0, 1, 1, 1, 1, 1, 1)]
    r = CliRunner().invoke(main, ["audit", str(FIXTURES / "mixed"), "--statistics",
                                  "--discovered", "table"])
    assert r.output.splitlines()[:3] == [
        "4  RV001  established revoke: tricks transferred (64A1 / 64A2)",
        "1  DT001  defective trick, card omitted: deemed revoke, one trick (67B1)",
        "1  DT002  defective trick, extra card: back to the offender's hand (67B2)"]


def test_unknown_prefix_is_a_usage_error(cli):
    r = cli("--select", "RV,XY1")
    assert r.exit_code == 2
    assert r.output.splitlines()[-1] == (
        "Error: Invalid value for '--select': unknown code or prefix 'XY1': no finding code "
        "starts with it (families: RV, DT, RC, PS, LW, EQ, DU, SC; codes like RV001)")


def test_selection_rules():
    s = Selection.of(select=["rv", "RC015"], ignore=["RV00"], extend_select=["RV001"])
    assert [c for c in s.codes() if c[:2] in ("RV", "RC")] == ["RC015", "RV001"]
    assert Selection().selects("PS101") and Selection.of(ignore=["ALL"]).codes() == []
    assert Selection.of(select=["ALL"], ignore=["PS"]).selects("RV003")
    assert not Selection.of(select=["RV"], ignore=["RV"]).selects("RV001")  # a tie: ignore wins
    with pytest.raises(ValueError, match="'ZZ'"):
        check_prefixes(["ZZ"])


def test_library_selection(tmp_path):
    from revoke_audit import audit_paths
    result = audit_paths([str(FIXTURES / "selection" / "mixed.pbn")], laws="auto", ignore=["PS", "LW"],
                         discovered="table")
    assert list(result.findings["code"]) == ["RV001", "RC023"]
    assert list(result.boards["parse_problems"]) == [0, 0]
    result = audit_paths([str(FIXTURES / "selection" / "mixed.pbn")], select=["RC"], discovered="table")
    assert list(result.boards["status"]) == ["clean", "inconsistent"]
    with pytest.raises(ValueError, match="unknown code or prefix 'Q'"):
        audit_paths([str(FIXTURES / "selection" / "mixed.pbn")], select=["Q"])
