"""The README's quick-start commands, run as a user types them (with paths and options), from
the folder that holds the records: never from the project's own folder, whose out/ is the
director's."""
import csv
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_scripts_audit_takes_paths_and_options_from_the_folder_it_runs_in(tmp_path):
    # The README's own example, run where the file is: `scripts/audit revoke.pbn --laws 1997`
    # (it once changed folder first: "cannot read revoke.pbn: no such file or folder").
    shutil.copy(ROOT / "fixtures/cli/revoke.pbn", tmp_path)
    done = subprocess.run([str(ROOT / "scripts/audit"), "revoke.pbn", "--laws", "1997"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    rows = list(csv.DictReader((tmp_path / "out/boards.csv").open()))
    assert rows and {r["laws"] for r in rows} == {"1997"}
    assert {r["source"] for r in rows} == {"revoke.pbn"}
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == [
        "boards.csv", "corrections.csv", "findings.csv", "standings.csv"]


def test_python_dash_m_runs_the_command_line(tmp_path):
    # `python -m revoke_audit` is the console script under another name (for a venv without
    # its bin/ on PATH): same options, same exit code (1: the fixture has a revoke).
    done = subprocess.run([sys.executable, "-m", "revoke_audit", "audit",
                           str(ROOT / "fixtures/cli/revoke.pbn"), "-q"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 1, done.stderr
    assert "1 irregular" in done.stdout + done.stderr
