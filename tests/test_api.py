"""The library as data people and script writers use it: checked arguments, typed DataFrames,
load_report, Parquet, jobs from a plain script, and the Python guide's examples (docs/guides/python.md)."""
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner

from revoke_audit import audit_paths, load_report
from revoke_audit.ruling.options import AuditOptions
from revoke_audit.cli.commands import main

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "fixtures"
SAMPLE = [str(FIXTURES / p) for p in ("mixed", "cli/revoke.pbn", "cli/revoke.lin",
                                      "selection/mixed.pbn", "pbn/results.pbn")]

SEATS = ["N", "E", "S", "W"]
BOARD_DTYPES = {
    "source": "string", "line": "Int64", "game": "Int64", "event": "string", "date": "string",
    "board": "string", "room": "string", "dealer": SEATS, "vul": ["None", "NS", "EW", "All"],
    "declarer": SEATS, "contract": "string", "play": ["complete", "claimed", "partial", "none"],
    "tricks_stated": "Int64", "tricks_played": "Int64", "tricks_adjusted": "Int64",
    "result_adjusted": "string", "score_ns": "Int64", "score_ns_adjusted": "Int64",
    "revokes": "Int64", "defective_tricks": "Int64", "record_errors": "Int64",
    "laws": ["2017", "2007", "1997", "1932", "bridge-whist"],
    "status": ["clean", "irregular", "inconsistent", "unreadable", "unchecked"],
    "scoring": ["duplicate", "rubber"], "parse_problems": "Int64", "below_ns": "Int64",
    "above_ns": "Int64", "below_ew": "Int64", "above_ew": "Int64", "scoring_notes": "string",
}
FINDING_DTYPES = {
    "source": "string", "line": "Int64", "game": "Int64", "board": "string", "room": "string",
    "code": "category", "law": "string", "trick": "Int64", "seat": SEATS,
    "role": ["declarer", "dummy", "defender"], "suit_led": ["S", "H", "D", "C"], "card": "string",
    "held": "string", "established": "boolean", "transferred": "Int64", "equity_tricks": "Int64",
    "message": "string",
}


def check_dtypes(frame, expected):
    assert list(frame.columns)[:len(expected)] == list(expected)
    for column, want in expected.items():
        got = frame[column].dtype
        if isinstance(want, list):
            assert isinstance(got, pd.CategoricalDtype), column
            assert list(got.categories) == want, column
        else:
            assert str(got) == want, (column, got)


# --- arguments ---------------------------------------------------------------------------

def test_unknown_laws_or_discovered_raise_naming_the_allowed_values():
    with pytest.raises(ValueError, match=r"unknown laws='1066'; choose one of '2017', '2007', "
                                         r"'1997', '1932', 'bridge-whist', 'auto'"):
        audit_paths([str(FIXTURES / "cli" / "revoke.pbn")], laws="1066")
    with pytest.raises(ValueError, match=r"unknown discovered='later'; choose one of 'table', "
                                         r"'after-round'"):
        audit_paths([str(FIXTURES / "cli" / "revoke.pbn")], discovered="later")
    with pytest.raises(ValueError, match="unknown laws='2016'"):
        AuditOptions(laws="2016")
    with pytest.raises(ValueError, match="jobs=-2"):
        audit_paths([str(FIXTURES / "cli" / "revoke.pbn")], jobs=-2)


def test_jobs_in_a_script_without_a_main_guard(tmp_path):
    """Worker processes must not re-run the script (which would start workers from workers and
    wait for ever): it finishes, with the same result as one process."""
    script = tmp_path / "plain.py"
    script.write_text(textwrap.dedent(f"""\
        from revoke_audit import audit_paths
        print("script body runs")
        paths = {SAMPLE!r}
        many = audit_paths(paths, jobs=2)
        one = audit_paths(paths, jobs=1)
        assert many.boards.equals(one.boards) and many.findings.equals(one.findings)
        print(len(many.boards), "boards")
        """))
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          timeout=60, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["script body runs", "17 boards"]  # the body ran once
    assert done.stderr == ""


# --- dtypes ------------------------------------------------------------------------------

def test_audit_paths_gives_typed_columns():
    result = audit_paths(SAMPLE)
    check_dtypes(result.boards, BOARD_DTYPES)
    check_dtypes(result.findings, FINDING_DTYPES)
    b = result.boards.set_index(["source", "game"])
    row = b.loc[(str(FIXTURES / "cli" / "revoke.pbn"), 1)]
    assert row["score_ns"] == 430 and str(row["score_ns"]) == "430"  # not 430.0
    assert row["vul"] == "None" and pd.isna(row["room"])
    established = result.findings.set_index("code")["established"]
    assert established.loc["RV002"].all() and established.loc[["PS103", "DT001"]].isna().all()
    unreadable = result.boards[result.boards["status"] == "unreadable"]
    assert unreadable.empty or unreadable["tricks_played"].isna().all()


def test_load_report_reads_back_the_same_frames(tmp_path):
    boards, findings = tmp_path / "boards.csv", tmp_path / "findings.csv"
    CliRunner().invoke(main, ["audit", *SAMPLE, "-o", str(boards), "--findings", str(findings)])
    result = audit_paths(SAMPLE)
    assert pd.read_csv(boards)["vul"].isna().any()  # the trap load_report avoids
    pd.testing.assert_frame_equal(load_report(boards), result.boards)
    pd.testing.assert_frame_equal(load_report(findings), result.findings)
    # a text cell neutralised for spreadsheets ('=Thursday Pairs) comes back as it was
    assert "=Thursday Pairs" in set(load_report(boards)["event"].dropna())


def test_load_report_rejects_other_files(tmp_path):
    other = tmp_path / "other.csv"
    other.write_text("a,b\n1,2\n")
    with pytest.raises(ValueError, match="other.csv is not a revoke-audit report"):
        load_report(other)


def test_parquet_reports_are_typed(tmp_path):
    pytest.importorskip("pyarrow")
    boards, findings = tmp_path / "boards.parquet", tmp_path / "findings.parquet"
    r = CliRunner().invoke(main, ["audit", *SAMPLE, "-o", str(boards), "--findings", str(findings)])
    assert r.exit_code == 1, r.output
    result = audit_paths(SAMPLE)
    raw = pd.read_parquet(boards)  # typed without load_report
    check_dtypes(raw, BOARD_DTYPES)
    pd.testing.assert_frame_equal(raw, result.boards)
    pd.testing.assert_frame_equal(load_report(findings), result.findings)
    assert not list(tmp_path.glob(".revoke-audit-*"))


def test_parquet_reports_are_written_in_row_groups_as_the_rows_come(tmp_path, monkeypatch):
    """A Parquet report holds one row group in memory, never the run: with groups of 2 rows,
    the file has many, and reads back as the run's frame."""
    pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq
    import revoke_audit.reports.frames

    held = []
    write_rows = revoke_audit.reports.frames.ParquetReport.write_rows

    def watched(self, rows, text=None):
        write_rows(self, rows, text)
        held.append(len(self.rows))

    monkeypatch.setattr(revoke_audit.reports.frames, "ROW_GROUP", 2)
    monkeypatch.setattr(revoke_audit.reports.frames.ParquetReport, "write_rows", watched)
    boards, findings = tmp_path / "boards.parquet", tmp_path / "findings.parquet"
    CliRunner().invoke(main, ["audit", *SAMPLE, "-o", str(boards), "--findings", str(findings)])
    result = audit_paths(SAMPLE)
    assert len(result.boards) > 4 and max(held) < 2
    assert pq.ParquetFile(boards).num_row_groups == (len(result.boards) + 1) // 2
    pd.testing.assert_frame_equal(pd.read_parquet(boards), result.boards)
    pd.testing.assert_frame_equal(load_report(findings), result.findings)


def test_parquet_rows_are_typed_as_frames_are_without_pandas(tmp_path):
    """Cells as ``typed`` makes them (empty ones null, numbers given as text, a value outside
    a closed set, text that is not ASCII), written without importing pandas."""
    pytest.importorskip("pyarrow")
    code = textwrap.dedent("""
        import sys
        from revoke_audit.reports.frames import ParquetReport
        from revoke_audit.reports.rows import BOARD_COLUMNS
        report = ParquetReport(sys.argv[1], BOARD_COLUMNS)
        report.write_rows([dict.fromkeys(BOARD_COLUMNS) | {"source": "a", "status": "odd",
                                                           "line": 3, "board": 7, "dealer": "N"},
                           dict.fromkeys(BOARD_COLUMNS, "") | {"status": "clean", "line": "4",
                                                               "source": "é=x", "vul": "All"}])
        report.finish()
        report.replace()
        assert "pandas" not in sys.modules
    """)
    out = tmp_path / "b.parquet"
    subprocess.run([sys.executable, "-c", code, str(out)], check=True)
    from revoke_audit.reports.frames import frame_of
    from revoke_audit.reports.rows import BOARD_COLUMNS
    rows = [dict.fromkeys(BOARD_COLUMNS) | {"source": "a", "status": "odd", "line": 3,
                                            "board": 7, "dealer": "N"},
            dict.fromkeys(BOARD_COLUMNS, "") | {"status": "clean", "line": "4", "source": "é=x",
                                                "vul": "All"}]
    pd.testing.assert_frame_equal(pd.read_parquet(out), frame_of(rows, BOARD_COLUMNS))


def test_parquet_without_pyarrow_is_a_one_line_error(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "pyarrow", None)  # import pyarrow now fails
    r = CliRunner().invoke(main, ["audit", SAMPLE[1], "-o", str(tmp_path / "b.parquet")])
    assert (r.exit_code, r.output) == (
        2, "Error: writing Parquet needs pyarrow: pip install 'revoke-audit[parquet]'\n")


# --- the docs' Python guide ----------------------------------------------------------------

def readme_python_blocks():
    text = (ROOT / "docs" / "guides" / "python.md").read_text()
    return re.findall(r"```python\n(.*?)```", text, re.S)


def test_readme_python_examples_run(tmp_path, monkeypatch):
    """Each Python block of the docs' Python guide runs as written, from a folder after the quick start
    (fixtures/ present, out/boards.csv and out/findings.csv written by scripts/audit)."""
    (tmp_path / "fixtures").symlink_to(FIXTURES)
    (tmp_path / "out").mkdir()
    monkeypatch.chdir(tmp_path)
    CliRunner().invoke(main, ["audit", "fixtures/mixed", "-o", "out/boards.csv",
                              "--findings", "out/findings.csv"])
    blocks = readme_python_blocks()
    assert len(blocks) >= 2
    for block in blocks:
        exec(compile(block, "docs/guides/python.md", "exec"), {"__name__": "readme"})


@pytest.mark.parametrize("name", ["'-Ann", "''=x", "'Ann", "=x"])
def test_load_report_keeps_a_name_that_starts_with_a_quote(tmp_path, name):
    """A player really named ``'-Ann`` is written ``''-Ann`` (a quote is added before any cell
    starting with a quote too), so taking one quote away on reading is always the inverse."""
    record = tmp_path / "q.pbn"
    record.write_text((FIXTURES / "cli" / "revoke.pbn").read_text().replace("Ed North", name))
    boards = tmp_path / "b.csv"
    CliRunner().invoke(main, ["audit", str(record), "-o", str(boards)])
    assert list(audit_paths([record]).boards["north"]) == [name]
    assert list(load_report(boards)["north"]) == [name]


def test_select_as_one_string_is_one_prefix():
    """``select="RV"`` is the prefix RV, not the letters R and V (F23)."""
    one = audit_paths(SAMPLE, select="RV")
    listed = audit_paths(SAMPLE, select=["RV"])
    pd.testing.assert_frame_equal(one.findings, listed.findings)
    assert set(one.findings["code"].str[:2]) == {"RV"}


@pytest.mark.parametrize("kwargs, message", [
    ({"jobs": "2"}, "jobs='2': expected a whole number"), ({"jobs": -1}, "jobs=-1: expected"),
    ({"jobs": 1.5}, "jobs=1.5: expected"), ({"select": ["RV", 1]}, "select: 1 is not a code"),
    ({"ignore": 3}, "ignore: expected codes or prefixes")])
def test_wrong_arguments_are_value_errors_naming_them(kwargs, message):
    with pytest.raises(ValueError, match=message):
        audit_paths(SAMPLE, **kwargs)
