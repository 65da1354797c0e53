"""Small promises of the command line: -h, help text without markup, --jobs 0, the progress
bar (files known up front, an ETA) and --no-progress."""
from pathlib import Path

import pytest
from click.testing import CliRunner

from revoke_audit.cli.commands import main

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def run(*args):
    return CliRunner().invoke(main, list(args), prog_name="revoke-audit")


@pytest.mark.parametrize("command", [[], ["audit"], ["explain"]])
def test_dash_h_is_help_and_has_no_markup(command):
    short, long = run(*command, "-h"), run(*command, "--help")
    assert short.exit_code == 0 and short.output == long.output
    assert short.output.startswith("Usage: revoke-audit")
    for markup in ("``", "\b", ":func:", "**"):
        assert markup not in short.output


def test_jobs_zero_means_every_core(tmp_path):
    outs = []
    for jobs in ("0", "1"):
        r = run("audit", str(FIXTURES / "mixed"), "--jobs", jobs, "-o", str(tmp_path / "b.csv"))
        outs.append((r.exit_code, r.output, (tmp_path / "b.csv").read_text()))
    assert outs[0] == outs[1] and outs[0][0] == 1
    assert run("audit", str(FIXTURES / "mixed"), "--jobs", "-1").exit_code == 2


def test_progress_bar_counts_files_with_an_eta():
    r = run("audit", str(FIXTURES / "mixed"), str(FIXTURES / "cli" / "revoke.pbn"),
            "--progress", "-q")
    bar = r.stderr
    assert "| 0/3 [00:00<?, ? files/s]" in bar  # 3 files known before the first is read
    assert "<?" in bar  # tqdm's remaining-time field (unknown until the first file is done)
    assert run("audit", str(FIXTURES / "mixed"), "--no-progress", "-q").stderr == ""


def test_no_progress_wins_over_a_terminal(monkeypatch):
    import io
    import sys

    from revoke_audit.cli import audit as cli

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    monkeypatch.setattr(sys, "stderr", Terminal())
    shown = cli._progress(3, quiet=False, progress=None)
    assert shown.tqdm is not None and shown.tqdm.total == 3
    shown.close()
    assert cli._progress(3, quiet=False, progress=False).tqdm is None
    assert cli._progress(3, quiet=True, progress=None).tqdm is None


@pytest.mark.parametrize("command", [["audit"], ["explain", "--board", "7"]])
def test_choices_are_written_as_the_readme_writes_them(command):
    """--discovered takes table and after-round (the README's spelling), in help and on the
    command line; an enum's member names (TABLE, AFTER_ROUND) are no option values."""
    assert "[table|after-round]" in run(*command[:1], "--help").output
    path = str(FIXTURES / "mixed" / "thursday-pairs-bbo.lin")
    table = run(*command, path, "--discovered", "table")
    after = run(*command, path, "--discovered", "after-round")
    assert "64B5" in after.output and "64B5" not in table.output
    assert run(*command, path, "--discovered", "AFTER_ROUND").exit_code == 2
