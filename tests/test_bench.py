"""scripts/bench.py --against REV: its plumbing (which tree is built, how, which commands are
timed against which), without building anything or timing anything."""
import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("bench_script", ROOT / "scripts" / "bench.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def _git_checkout() -> bool:
    return shutil.which("git") is not None and subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True).returncode == 0


@pytest.mark.skipif(not _git_checkout(), reason="not a git checkout")
def test_export_writes_the_revisions_tree_and_leaves_the_repository_alone(bench, tmp_path):
    worktrees = subprocess.run(["git", "-C", str(ROOT), "worktree", "list"],
                               capture_output=True, text=True).stdout
    commit = bench.export_revision("HEAD", str(tmp_path / "src"))
    head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
                          capture_output=True, text=True).stdout.strip()
    assert commit == head
    # the committed tree, as git holds it (not the working files)
    assert (tmp_path / "src" / "pyproject.toml").read_bytes() == subprocess.run(
        ["git", "-C", str(ROOT), "show", "HEAD:pyproject.toml"], capture_output=True).stdout
    assert (tmp_path / "src" / "src" / "revoke_audit" / "core" / "_speedups.c").exists()
    assert subprocess.run(["git", "-C", str(ROOT), "worktree", "list"],
                          capture_output=True, text=True).stdout == worktrees


def test_install_is_a_plain_install_into_its_own_venv(bench, tmp_path):
    venv, src = str(tmp_path / "venv"), str(tmp_path / "src")
    make, install = bench.install_commands(src, venv, python="/usr/bin/python3")
    assert make == ["/usr/bin/python3", "-m", "venv", venv]
    assert install[0] == os.path.join(venv, "bin", "python")
    assert install[-1] == src and "-e" not in install  # built as a user gets it: C included


@pytest.mark.skipif(not _git_checkout(), reason="not a git checkout")
def test_build_runs_the_install_and_returns_the_revisions_command(bench, tmp_path, capsys):
    calls = []

    class Done:
        stdout = "False\n"

    def runner(argv, **kw):
        calls.append(argv)
        return Done()

    commit, command = bench.build_revision("HEAD", str(tmp_path), runner=runner)
    assert command == [str(tmp_path / "venv" / "bin" / "revoke-audit")]
    assert calls[0][-2:] == ["venv", str(tmp_path / "venv")]
    assert calls[1][-1] == str(tmp_path / "src")
    assert "speedups" in calls[2][-1]  # the accelerators are checked, and said when missing
    assert "C accelerators are not in use" in capsys.readouterr().err


def test_pairs_time_the_same_input_and_jobs_with_each_revision(bench, tmp_path):
    inputs = {"PBN 10": ("a.pbn", 10), "archive": ("arch", 7)}
    pairs = bench.against_pairs(inputs, (1, 2), ["ours"], ["theirs"], str(tmp_path))
    assert [(label, n) for label, n, _, _ in pairs] == [
        ("PBN 10 --jobs 1", 10), ("PBN 10 --jobs 2", 10), ("archive --jobs 1", 7),
        ("archive --jobs 2", 7)]
    for label, _, theirs, ours in pairs:
        assert theirs[0] == "theirs" and ours[0] == "ours"
        assert theirs[1:3] == ours[1:3] and theirs[-1] == ours[-1]  # same input, same jobs
        assert theirs[theirs.index("-o") + 1] != ours[ours.index("-o") + 1]
        assert "--no-equity" not in ours  # the default audit, as a user runs it


def test_against_option_generates_inputs_at_the_realistic_revoke_rate(bench, monkeypatch,
                                                                      capsys):
    seen = {}

    def fake(rev, inputs, jobs, repeat, tmp):
        seen.update(rev=rev, jobs=jobs, inputs=inputs)
        for path, _ in inputs.values():
            assert os.path.exists(path)

    monkeypatch.setattr(bench, "bench_against", fake)
    monkeypatch.setattr(bench, "compile_package", lambda: None)
    monkeypatch.setattr(sys, "argv", ["bench.py", "--against", "HEAD~1", "--boards", "12",
                                      "--folder", str(ROOT / "fixtures" / "cli")])
    bench.main()
    assert seen["rev"] == "HEAD~1" and seen["jobs"] == (1, 2)
    assert [label for label in seen["inputs"]] == ["PBN 12", "LIN 12", "cli"]
    assert seen["inputs"]["cli"][1] > 0
    assert bench.REVOKE_EVERY == 400
    assert "one in 400 with a revoke" in capsys.readouterr().out
