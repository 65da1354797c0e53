"""The whole command over a few hundred damaged copies of the fixtures (fixed seed), in every
output format: no traceback, exit codes only 0, 1, 2, 130, 143, a row for every input file, and
stdout CSV identical to boards.csv.  ``scripts/fuzz_cli.py --files 3000`` runs the long variant."""
import importlib.util
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "fuzz_cli.py"
spec = importlib.util.spec_from_file_location("fuzz_cli", SCRIPT)
fuzz_cli = sys.modules["fuzz_cli"] = importlib.util.module_from_spec(spec)
spec.loader.exec_module(fuzz_cli)


def test_damaged_inputs_through_the_whole_command(tmp_path):
    files = fuzz_cli.make_inputs(tmp_path / "in", 300, seed=20261122)
    assert len(files) == 300 and len({f.name for f in files}) == 300
    outcome = fuzz_cli.check(tmp_path / "in", files)
    assert outcome.failures == []
    assert outcome.runs == 6 and outcome.boards >= 300


def test_the_inputs_are_the_same_for_a_seed(tmp_path, monkeypatch):
    """Whenever they are made: the clock (a zip member's time) moves between the two."""
    import time
    now = time.time()
    monkeypatch.setattr(time, "time", lambda: now)
    a = fuzz_cli.make_inputs(tmp_path / "a", 20, seed=5)
    monkeypatch.setattr(time, "time", lambda: now + 3600)
    b = fuzz_cli.make_inputs(tmp_path / "b", 20, seed=5)
    assert [(p.name, p.read_bytes()) for p in a] == [(p.name, p.read_bytes()) for p in b]
    c = fuzz_cli.make_inputs(tmp_path / "c", 20, seed=6)
    assert [p.read_bytes() for p in a] != [p.read_bytes() for p in c]


def test_the_other_commands_over_hostile_inputs(tmp_path):
    """``check_commands`` over a few dozen damaged and hostile files (UTF-16/32, ScoreTables,
    thousands of digits, games past the line limit, bombs; a FIFO and /dev/zero beside them):
    audit with the page, standings, scorings, logs and settings, fix, explain and watch - no
    internal error, no stale report.  ``fix`` of a broken UTF-16 file is issue 35's F6, mended
    on its own branch: until then that failure alone is expected."""
    import pytest

    kinds: dict[str, str] = {}
    files = fuzz_cli.make_inputs(tmp_path / "in", 40, seed=20261128, kinds=kinds)
    assert set(kinds.values()) == set(fuzz_cli.HOSTILE)  # each kind at least once
    outcome = fuzz_cli.check_commands(tmp_path / "in", files, explain=6, kinds=kinds)
    assert outcome.runs == 3 + 2 + 6 + 1
    others = [f for f in outcome.failures if not f.startswith("fix")]
    assert others == []
    if outcome.failures:
        pytest.xfail(f"issue 35 F6 (fix): {outcome.failures[0][:200]}")
