"""A run that starts with a large file gives its processes the file's first parts before the
file is cut (``formats.parts.head``, ``engine.units.first_units``): a guess from its first
bytes, used only when cutting the file gives the same parts first."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from builders import revoking_board
from test_parts import audit_with_jobs, games, lin_lines

import revoke_audit.engine.units as run
from revoke_audit.formats import Limits
from revoke_audit.formats.parts import cut, head
from revoke_audit.formats.pbn import format_pbn


@pytest.mark.parametrize("name", ["big.pbn", "big.lin"])
@pytest.mark.parametrize("count, tail", [(1, 0), (2, 2), (3, 1)])
def test_the_first_parts_are_those_of_the_cut(tmp_path, name, count, tail):
    path = tmp_path / name
    path.write_text(games(80) if name.endswith(".pbn") else lin_lines(80))
    first = head(str(path), 4, 1 << 30, 3, count, tail)
    assert len(first) == count and first == cut(str(path), 4, 1 << 30, 3, tail)[:count]
    assert [p.skip for p in first] == [0, 3, 3][:count]  # context games before, but the first


def test_no_guess_for_a_file_too_small_to_cut_into_those_parts(tmp_path):
    """80 games: 2 parts of 4 and the context after them (3 games) are there, but not
    (2 + 2 + 3) parts of 40 games by the bytes of the first games; nor for a file of too few
    games to find them, or one beyond the limit."""
    path = tmp_path / "big.pbn"
    path.write_text(games(80))
    assert head(str(path), 40, 1 << 30, 3, 2, 2) == []
    assert head(str(path), 4, 100, 3, 2, 2) == []  # larger than the limit
    path.write_text(games(10))
    assert head(str(path), 4, 1 << 30, 3, 2, 0) == []  # 11 games wanted, the last found uncertain


def _heavy(i: int) -> str:
    """A game with a long note: a few of them make the file far larger than its first
    games say."""
    record, _ = revoking_board(i, set(), i % 5, i % 4)
    record = replace(record, event="parts", board=str(i + 1), dealer=0)
    return format_pbn(record).replace('[Board "', '[Note "' + "x" * 3000 + '"]\n[Board "', 1)


def test_jobs_2_when_the_guess_is_wrong_gives_jobs_1_byte_for_byte(tmp_path, monkeypatch):
    """12 games, the last 3 with notes of 3,000 bytes: by its first games the file would hold
    some 80, and the guess is 2 parts of 4; cut, it gives a part of 4 and 8 of 1 (its last
    2 * 4 games in parts of 1).  The guessed parts run, unused; the reports are --jobs 1's."""
    monkeypatch.setattr(run, "PART_GAMES", 4)
    monkeypatch.setattr(run, "PART_MIN_BYTES", 1)
    monkeypatch.setattr(run, "NEIGHBOURS", 1)
    monkeypatch.chdir(tmp_path)
    text = games(9, revoke_every=4) + "\n\n" + "\n".join(_heavy(i) for i in range(9, 12))
    Path("big.pbn").write_text(text)
    guessed = run.first_units(["big.pbn"], 2, Limits())
    units = run.work_units(["big.pbn"], 2, Limits(), checked=False)
    assert [u[1].count for u in guessed] == [4, 4] and [u[1].count for u in units] == [4] + [1] * 8
    assert units[:2] != guessed
    one, two = audit_with_jobs("big.pbn", "1"), audit_with_jobs("big.pbn", "2")
    assert one == two and one[1].count(b"\n") == 13


def test_jobs_2_on_a_file_guessed_right_gives_jobs_1_byte_for_byte(tmp_path, monkeypatch):
    monkeypatch.setattr(run, "PART_GAMES", 4)
    monkeypatch.setattr(run, "PART_MIN_BYTES", 1)
    monkeypatch.chdir(tmp_path)
    Path("big.lin").write_text(lin_lines(90))
    guessed = run.first_units(["big.lin"], 2, Limits())
    assert len(guessed) == 2 and run.work_units(["big.lin"], 2, Limits())[:2] == guessed
    one, two = audit_with_jobs("big.lin", "1"), audit_with_jobs("big.lin", "2")
    assert one == two and one[1].count(b"\n") == 91
