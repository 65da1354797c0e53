"""The last parts of a large file are smaller (``formats.parts._spans``), so that the processes
that share it finish together: the run ends when its last part does."""
from __future__ import annotations

from pathlib import Path

import pytest
from test_parts import games

import revoke_audit.engine.units as run
from revoke_audit.formats import Limits, read_file
from revoke_audit.formats.parts import _spans, plan, read_part


@pytest.mark.parametrize("n, per_part, tail, spans", [
    # no tail: parts of 5 games, the last one shorter (as ever)
    (23, 5, 0, [(0, 5), (5, 5), (10, 5), (15, 5), (20, 3)]),
    # tail 2: 23 - 2 * 8 = 7 games, whole parts of 8 in it: none; all 23 in parts of 8 // 4
    (23, 8, 2, [(k, 2) for k in range(0, 22, 2)] + [(22, 1)]),
    # tail 2: 40 - 2 * 8 = 24, three parts of 8; the last 16 games in parts of 2
    (40, 8, 2, [(0, 8), (8, 8), (16, 8)] + [(k, 2) for k in range(24, 40, 2)]),
    # tail 1: 43 - 8 = 35, four parts of 8 (32); the last 11 games in parts of 2, then 1
    (43, 8, 1, [(0, 8), (8, 8), (16, 8), (24, 8), (32, 2), (34, 2), (36, 2), (38, 2), (40, 2),
                (42, 1)]),
    # a part of fewer than 4 games: its quarter is one game
    (10, 3, 1, [(0, 3), (3, 3), (6, 1), (7, 1), (8, 1), (9, 1)]),
])
def test_the_spans_of_the_parts_worked_out_by_hand(n, per_part, tail, spans):
    got = list(_spans(n, per_part, tail))
    assert got == spans
    assert [f for f, _ in got] == [sum(c for _, c in got[:k]) for k in range(len(got))]
    assert sum(c for _, c in got) == n  # every game in one part, in order


def test_the_smaller_last_parts_give_the_records_of_the_whole_file(tmp_path):
    path = tmp_path / "big.pbn"
    path.write_text(games(50))
    parts = plan(str(path), 8, 1 << 30, 3, tail=2)
    assert [p.count for p in parts] == [8, 8, 8, 8] + [2] * 9  # 50 - 16 = 34: 32 in parts of 8
    assert [p.last for p in parts] == [False] * 12 + [True]
    got = [rec for p in parts for rec in list(read_part(p))[p.skip:p.skip + p.count]]
    assert got == list(read_file(str(path)))


def test_a_run_with_jobs_cuts_the_last_parts_smaller(tmp_path, monkeypatch):
    """``--jobs 2`` on a file of 60 games in parts of 4: the last 2 * 4 games in parts of 1."""
    monkeypatch.setattr(run, "PART_GAMES", 4)
    monkeypatch.setattr(run, "PART_MIN_BYTES", 1)
    path = Path(tmp_path / "big.pbn")
    path.write_text(games(60))
    units = run.work_units([str(path)], 2, Limits())
    assert [u[1].count for u in units] == [4] * 13 + [1] * 8
    assert [u[2] for u in units] == [False] * 20 + [True]  # the file's last unit
