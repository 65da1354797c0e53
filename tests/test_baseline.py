"""A baseline: --write-baseline records today's findings, --baseline reports and fails only on
new ones; keys are file, board, room, code, trick and seat, never line numbers."""
import json
import shutil
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner

from revoke_audit import audit_paths
from revoke_audit.reports.baseline import Baseline, finding_key
from revoke_audit.cli.commands import main

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


@pytest.fixture
def archive(tmp_path, monkeypatch):
    """A copy of two fixtures in a folder, the current folder."""
    shutil.copy(FIXTURES / "selection" / "mixed.pbn", tmp_path / "mixed.pbn")
    shutil.copy(FIXTURES / "cli" / "revoke.lin", tmp_path / "revoke.lin")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def run(*args):
    # the revokes ruled as found at the table (64A), as the expected lines say
    return CliRunner().invoke(main, ["audit", "mixed.pbn", "revoke.lin", "--discovered", "table",
                                     *args])


def test_round_trip_then_only_new_findings_fail(archive):
    first = run("--write-baseline", "known.json")
    assert first.exit_code == 0  # recording a baseline does not fail
    assert first.output.splitlines()[-1] == "baseline: 4 findings written to known.json"
    assert json.loads((archive / "known.json").read_text())["findings"] == [
        {"source": "mixed.pbn", "board": "2", "room": "", "code": "PS103", "trick": None,
         "seat": "", "count": 1},
        {"source": "mixed.pbn", "board": "2", "room": "", "code": "RV001", "trick": 3,
         "seat": "W", "count": 1},
        {"source": "mixed.pbn", "board": "3", "room": "", "code": "RC023", "trick": None,
         "seat": "", "count": 1},
        {"source": "revoke.lin", "board": "7", "room": "", "code": "RV001", "trick": 2,
         "seat": "W", "count": 1},
    ]
    again = run("--baseline", "known.json")
    assert again.exit_code == 0
    assert again.output.splitlines() == [
        "3 boards: 3 clean, 0 irregular, 0 inconsistent, 0 unreadable; 0 revoke findings, "
        "0 defective tricks, 0 record errors, 0 parse problems; 4 findings in the baseline not shown"]

    # Lines move (a comment added at the top) and a new revoke appears in a new board.
    text = (archive / "mixed.pbn").read_text()
    start = text.index('[Event "Spring Pairs"]')
    board4 = text[start:text.index("\n\n", start)].replace(
        '[Board "2"]', '[Board "4"]')
    (archive / "mixed.pbn").write_text("% edited\n% twice\n" + text.rstrip("\n") + "\n\n" + board4 + "\n")
    new = run("--baseline", "known.json")
    assert new.exit_code == 1
    assert new.output.splitlines() == [
        "mixed.pbn:77: board 4: PS103 value of tag Site is not in quotes",
        "mixed.pbn:97: board 4: RV001 [64A2] trick 3: West (defender) played D5 on a heart lead "
        "holding H7 H6: one trick transferred to North-South (64A2)",
        "mixed.pbn:76: board 4 (N-S Ed North-Gus South, E-W Flo East-Di West): 3NT+1 430 -> "
        "3NT+2 460 (64A: tricks transferred)",
        "4 boards: 3 clean, 1 irregular, 0 inconsistent, 0 unreadable; 1 revoke finding, "
        "0 defective tricks, 0 record errors, 1 parse problem; 4 findings in the baseline not shown",
        # only the new revoke's board: board 2's is in the baseline
        "score corrections to enter (1 board):",
        "  Spring Pairs, board 4: N-S Ed North & Gus South, E-W Flo East & Di West: 3NT+1 by S "
        "(N-S +430) -> 3NT+2 (N-S +460); 64A2"]


def test_keys_are_counted(archive):
    """Two findings with the same key in the baseline cover two now, not three."""
    keys = Counter({("mixed.pbn", "2", "", "PS103", None, ""): 2})
    base = Baseline(keys)
    row = {"source": "./sub/../mixed.pbn", "board": "2", "game": 1, "room": "", "code": "PS103",
           "trick": None, "seat": ""}
    assert finding_key(row) == ("mixed.pbn", "2", "", "PS103", None, "")
    assert [base.known(row) for _ in range(3)] == [True, True, False]
    assert finding_key(dict(row, board="")) == ("mixed.pbn", "#1", "", "PS103", None, "")


def test_library_takes_a_baseline(archive):
    run("--write-baseline", "known.json", "--select", "RV")
    result = audit_paths(["mixed.pbn", "revoke.lin"], discovered="table", baseline="known.json")
    assert list(result.findings["code"]) == ["PS103", "RC023"]
    assert list(result.boards["status"]) == ["clean", "inconsistent", "clean"]


def test_bad_baseline_is_a_one_line_error(archive):
    (archive / "bad.json").write_text('{"findings": [{"source": "x"}]}')
    r = run("--baseline", "bad.json")
    assert r.exit_code == 2
    assert r.output == "Error: bad.json is not a revoke-audit baseline (KeyError: 'board')\n"
    for text, why in (('{"findings": [{"source": "x", "board": "1", "room": "", "code": "RV001", '
                       '"trick": 1, "seat": "W", "count": 1e400}]}', "count Infinity is not a "
                       "number of findings"),
                      ("[" * 100_000 + "]" * 100_000, "nested too deep")):
        (archive / "bad.json").write_text(text)
        r = run("--baseline", "bad.json")
        assert (r.exit_code, r.output) == (2, f"Error: bad.json is not a revoke-audit baseline "
                                              f"({why})\n")
    r = run("--baseline", "missing.json")
    assert (r.exit_code, r.output) == (2, "Error: cannot read baseline missing.json: No such file or directory\n")


def test_a_board_number_of_thousands_of_digits_is_written(tmp_path):
    """Found by the fuzzer (issue 35): the baseline sorted its entries by ``int(board)``, and a
    ``[Board]`` of 5,000 digits (past ``int()``'s 4,300-digit limit) ended ``--write-baseline``
    with an internal error.  Numbers still sort as numbers: 2 before 10 before the long one."""
    from revoke_audit.reports.baseline import baseline_text
    long = "9" * 5000
    keys = Counter({("a.pbn", b, "", "RV002", 3, "W"): 1 for b in (long, "10", "2", "x")})
    boards = [e["board"] for e in json.loads(baseline_text(keys))["findings"]]
    assert boards == ["2", "10", long, "x"]
