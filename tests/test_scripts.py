"""The README's quick-start commands, run as a user types them (with paths and options)."""
import csv
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_scripts_audit_takes_paths_and_options(tmp_path):
    # The README's own example: arguments must reach revoke-audit, not the install step.
    done = subprocess.run([str(ROOT / "scripts/audit"), "fixtures/cli/revoke.pbn", "--laws", "1997"],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    rows = list(csv.DictReader((ROOT / "out/boards.csv").open()))
    assert rows and {r["laws"] for r in rows} == {"1997"}
    assert {r["source"] for r in rows} == {"fixtures/cli/revoke.pbn"}


def test_python_dash_m_runs_the_command_line(tmp_path):
    # `python -m revoke_audit` is the console script under another name (for a venv without
    # its bin/ on PATH): same options, same exit code (1: the fixture has a revoke).
    import sys

    done = subprocess.run([sys.executable, "-m", "revoke_audit", "audit",
                           str(ROOT / "fixtures/cli/revoke.pbn"), "-q"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 1, done.stderr
    assert "1 irregular" in done.stdout + done.stderr
