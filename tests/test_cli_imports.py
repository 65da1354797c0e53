"""What the default audit's process loads (issue 34: its start is paid by every run): a plain
``audit FILE -o boards.csv --findings findings.csv`` of a PBN file with a revoke loads none of
the modules only other runs need - worker processes (--jobs > 1), archives, spools, settings
files, JSON documents, endplay's Python modules (the solver is its DDS library alone) - and
still gives the revoke its Law 64C figure.  Counted by module names, never by time."""
import csv
import subprocess
import sys
from pathlib import Path

FIXTURE = Path(__file__).parent.parent / "fixtures" / "pbn" / "play_columns.pbn"

#: Modules a --jobs 1 audit of plain text files, writing CSV, with no settings file, must not
#: load (each is imported where the run that needs it uses it).
NOT_LOADED = ("concurrent.futures", "multiprocessing", "tarfile", "zipfile", "tempfile",
              "pathlib", "tomllib", "secrets", "fractions", "endplay",
              "revoke_audit.engine.dask_engine", "revoke_audit.reports.streamed_json",
              "revoke_audit.reports.sarif", "revoke_audit.reports.html_page")

SCRIPT = """
import atexit, sys
def said(path=sys.argv[1]):
    with open(path, "w") as out:
        out.write("\\n".join(sorted(sys.modules)))
atexit.register(said)
sys.argv = ["revoke-audit", "audit", sys.argv[2], "-o", sys.argv[3], "--findings", sys.argv[4]]
from revoke_audit.__main__ import main
main()
"""


def test_the_default_audit_loads_only_what_it_uses(tmp_path):
    loaded, boards = tmp_path / "modules.txt", tmp_path / "boards.csv"
    done = subprocess.run([sys.executable, "-c", SCRIPT, str(loaded), str(FIXTURE), str(boards),
                           str(tmp_path / "findings.csv")], capture_output=True, text=True,
                          cwd=tmp_path, timeout=120)
    assert done.returncode == 1, done.stderr  # findings: exit 1
    modules = set(loaded.read_text().split("\n"))
    assert [m for m in modules if m.split(".")[0] in NOT_LOADED or m in NOT_LOADED] == []
    # the revoke was ruled, and its 64C figure came from the solver (DDS through ctypes)
    assert {"revoke_audit.ruling.law64c", "ctypes"} <= modules
    rows = list(csv.DictReader(boards.open()))
    assert [r["tricks_equity"] for r in rows] == ["", "11", "", "", ""]
