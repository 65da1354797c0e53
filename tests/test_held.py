"""What a run holds until its end, and only when it must: the memory of a run of a million
boards must not grow with them."""
from pathlib import Path

import pytest
from click.testing import CliRunner

import revoke_audit.cli.audit
from revoke_audit.cli.commands import main

REVOKE_PBN = (Path(__file__).resolve().parents[1] / "fixtures" / "cli" / "revoke.pbn").read_bytes()


@pytest.fixture
def cli(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "revoke.pbn").write_bytes(REVOKE_PBN)
    runner = CliRunner()
    # the revoke ruled as found at the table (64A): one trick transferred, a score changed
    return lambda *args: runner.invoke(main, [*args, "--discovered", "table"])


@pytest.mark.parametrize("args, listed", [
    (("--format", "json"), False), (("--format", "jsonl"), False), (("-q",), False),
    (("--statistics",), False), (("-o", "b.csv", "--format", "github"), False), ((), True),
    (("--format", "json", "--corrections", "c.csv"), True)])
def test_corrections_are_gathered_only_for_a_run_that_lists_them(cli, monkeypatch, args, listed):
    """The score corrections (one a board whose score the ruling changes: revoke.pbn's board
    2, 3NT+1 430 -> 3NT+2 460) wait for the end of the run only when the text output,
    --corrections or the page lists them; a JSON run of a million boards held thousands."""
    gathered = []
    real = revoke_audit.cli.audit.Corrections.add
    monkeypatch.setattr(revoke_audit.cli.audit.Corrections, "add",
                        lambda self, r: (gathered.append(r), real(self, r)))
    r = cli("audit", "revoke.pbn", *args)
    assert r.exit_code == 1, r.output
    assert bool(gathered) == listed
    if "--corrections" in args:
        assert "3NT+2" in Path("c.csv").read_text()
