"""A new user's path, from another folder: `scripts/audit` (the sample session), then the
README's commands as written - `scripts/audit FILE` where the file is, and the "Using it"
command once the README's way of reaching it is followed (`source .venv/bin/activate`, or
`.venv/bin/revoke-audit`).  Nothing is run in the project's folder."""
import csv
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()
pytestmark = pytest.mark.slow  # five runs of the command, each loading the solver: 10-20 s


def _run(command: list[str], cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=300)


def _block(after: str, kind: str) -> str:
    """The first ```kind block after the text ``after`` in the README."""
    return README.split(after, 1)[1].split(f"```{kind}\n", 1)[1].split("\n```", 1)[0]


@pytest.fixture
def club(tmp_path) -> Path:
    """The director's own folder, with the evening's file in it."""
    folder = tmp_path / "club"
    folder.mkdir()
    shutil.copy(ROOT / "fixtures/session/thursday-pairs.pbn", folder)
    return folder


def test_scripts_audit_from_another_folder_prints_the_quick_start(club):
    done = _run([str(ROOT / "scripts/audit")], club)
    assert done.returncode == 0, done.stderr
    # the Quick start's block, word for word, with the sample named from here
    shown = _block("first command prints:", "text").replace(
        "fixtures/session/", f"{ROOT}/fixtures/session/")
    assert done.stdout + done.stderr.splitlines()[-1] == shown
    # its reports went to out/ here, the project's folder untouched
    assert sorted(p.name for p in (club / "out").iterdir()) == [
        "boards.csv", "corrections.csv", "findings.csv", "standings.csv"]
    corrections = list(csv.DictReader((club / "out/corrections.csv").open()))
    assert [(c["board"], c["table"], c["result_after"]) for c in corrections] == [
        ("2", "1", "3S+1")]


def test_scripts_audit_reads_the_file_where_it_is(club):
    done = _run([str(ROOT / "scripts/audit"), "thursday-pairs.pbn"], club)
    assert done.returncode == 0, done.stderr
    assert "cannot read" not in done.stderr
    rows = list(csv.DictReader((club / "out/boards.csv").open()))
    assert len(rows) == 18 and {r["source"] for r in rows} == {"thursday-pairs.pbn"}


def test_the_using_it_command_runs_as_the_readme_says(club):
    command = _block("## Using it", "sh")
    assert command == "revoke-audit audit PATH... -o boards.csv --findings findings.csv"
    typed = command.replace("PATH...", "thursday-pairs.pbn")
    # as typed with nothing done first: the shell does not know it (the exit 127)
    assert "source .venv/bin/activate" in README and ".venv/bin/revoke-audit" in README
    # the README's two ways: activate the project's .venv, or name the command in it
    for shell in (f"source {ROOT}/.venv/bin/activate && {typed}", f"{ROOT}/.venv/bin/{typed}"):
        done = _run(["bash", "-c", shell], club)
        assert done.returncode == 1, done.stderr  # revokes found (no log: both 64B5)
        assert "18 boards: 16 clean, 2 irregular" in done.stdout
        rows = list(csv.DictReader((club / "boards.csv").open()))
        assert len(rows) == 18
        (club / "boards.csv").unlink()
