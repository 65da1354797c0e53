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
