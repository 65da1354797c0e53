"""The guard of ``conftest.py``: a test that writes into the working copy fails the run."""
import os

from conftest import changed, snapshot


def test_a_report_replaced_in_out_is_seen(tmp_path):
    # the director's out/boards.csv, replaced by a test's one-row report (same size, new time)
    (tmp_path / "out").mkdir()
    report = tmp_path / "out" / "boards.csv"
    report.write_text("board,room\n2,1\n")
    (tmp_path / ".venv").mkdir()
    before = snapshot(tmp_path)
    report.write_text("board,room\n9,9\n")
    os.utime(report, ns=(1, 1))
    (tmp_path / "new.csv").write_text("x\n")
    (tmp_path / ".venv" / "pip.log").write_text("the tools' own folders are not the copy\n")
    assert changed(before, snapshot(tmp_path)) == ["changed out/boards.csv", "made new.csv"]


def test_nothing_written_is_nothing_changed(tmp_path):
    (tmp_path / "a.pbn").write_text("[Board \"1\"]\n")
    assert changed(snapshot(tmp_path), snapshot(tmp_path)) == []
    before = snapshot(tmp_path)
    (tmp_path / "a.pbn").unlink()
    assert changed(before, snapshot(tmp_path)) == ["removed a.pbn"]
