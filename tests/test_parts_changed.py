"""A large file for --jobs that grows while it is split or read (another program still writing
it: the bench's writer was, when ``--jobs 2`` ended in ``IndexError: mmap index out of range``):
no internal error, and every board read in the report."""
from __future__ import annotations

from pathlib import Path

import pytest
from test_parts import audit_with_jobs, games, lin_lines

import revoke_audit.engine.units as run
from revoke_audit.core import speedups
from revoke_audit.formats import read_file
from revoke_audit.formats.parts import cut, plan, read_part, splittable


KERNELS = [pytest.param(speedups.wanted(), id="C"), pytest.param(None, id="twin")]


@pytest.mark.parametrize("kernel", KERNELS)
@pytest.mark.parametrize("name", ["big.pbn", "big.lin"])
def test_a_file_that_grows_while_it_is_checked_is_not_split(tmp_path, monkeypatch, kernel, name):
    """Found when the bench's writer was still appending to the file that ``--jobs 2`` read:
    the check opened the file at one size, then found its games on the larger file, and a
    game starting past the size it checked ended the run with an internal error
    (``IndexError: mmap index out of range`` from the scan of the C kernel, an IndexError from
    its twin).  Here 30 games more are appended between the two: the check says the file is
    not to be split (it is then read whole, as it is when read)."""
    from revoke_audit.formats import parts

    if kernel is None:
        monkeypatch.setattr(parts, "_scans", __import__("revoke_audit.formats.scans").formats.scans)
    elif not kernel:
        pytest.skip("the C kernel is not built")
    path = tmp_path / name
    text = games(60) + "\n" if name.endswith(".pbn") else lin_lines(60)
    more = "\n" + games(30) + "\n" if name.endswith(".pbn") else lin_lines(30)
    path.write_text(text)
    assert cut(str(path), 4, 1 << 30, 2) and splittable(str(path))
    real = parts._games_of

    def grown(p: str):
        with open(p, "a") as fh:
            fh.write(more)
        return real(p)

    monkeypatch.setattr(parts, "_games_of", grown)
    assert splittable(str(path)) is False


@pytest.mark.parametrize("name", ["big.pbn", "big.lin"])
def test_the_games_of_a_file_that_grows_while_they_are_found_are_not_kept(tmp_path, monkeypatch,
                                                                           name):
    """The file grows while its games are found (read in pieces): the answer is of no size
    the file ever had, so none is given (``Changed``), nor kept for the next question; once
    the file stands still, its games are those of its bytes."""
    from revoke_audit.formats import parts

    path = tmp_path / name
    text = games(40) + "\n" if name.endswith(".pbn") else lin_lines(40)
    path.write_text(text)
    monkeypatch.setattr(parts, "_CHUNK", 4000)  # several pieces
    real = parts._content_pieces

    def growing(fh):
        for k, piece in enumerate(real(fh)):
            if k == 0:
                with open(path, "a") as out:
                    out.write(text)
            yield piece

    parts._games_cached.cache_clear()
    with pytest.MonkeyPatch.context() as m:
        m.setattr(parts, "_content_pieces", growing)
        with pytest.raises(parts.Changed):
            parts._games_of(str(path))
        assert cut(str(path), 4, 1 << 30, 2) is None  # it grows again: not split
    kind, first, starts, size = parts._games_of(str(path))
    assert size == path.stat().st_size and len(starts) == 120 and kind == name[-3:]


@pytest.mark.parametrize("name", ["big.pbn", "big.lin"])
def test_jobs_2_on_a_file_that_grows_after_it_is_cut_reports_every_board_read(tmp_path,
                                                                              monkeypatch, name):
    """The run cuts the file into parts, then the file grows before the check and the parts
    are read: no internal error; the file is read whole as it then is, and the reports are
    byte for byte those of --jobs 1 on the grown file (all 90 games)."""
    from revoke_audit.formats import parts

    monkeypatch.setattr(run, "PART_GAMES", 4)
    monkeypatch.setattr(run, "PART_MIN_BYTES", 1)
    monkeypatch.chdir(tmp_path)
    pbn = name.endswith(".pbn")
    Path(name).write_text(games(60, revoke_every=5) + "\n" if pbn else lin_lines(60))
    more = "\n" + games(30, revoke_every=5) + "\n" if pbn else lin_lines(30)
    real, grew = parts.cut, []

    def cut_then_grow(*args):
        got = real(*args)
        if not grew:
            grew.append(got)
            with open(name, "a") as fh:
                fh.write(more)
        return got

    monkeypatch.setattr(parts, "cut", cut_then_grow)
    grown = audit_with_jobs(name, "2")
    monkeypatch.setattr(parts, "cut", real)
    assert grew and grew[0]  # it was cut into parts before it grew
    assert "internal error" not in grown[0]
    assert grown == audit_with_jobs(name, "1")
    assert grown[1].count(b"\n") == 91  # the header and the 90 games


@pytest.mark.parametrize("name", ["big.pbn", "big.lin"])
def test_a_file_that_grows_after_it_was_checked_is_read_to_its_new_end(tmp_path, name):
    """Checked and cut at 60 games, then 30 more written before the parts are read: the last
    part reads on to the file's new end, so the parts give the 90 records of the whole file
    as it now is (game and line numbers too), none left out."""
    from revoke_audit.ruling.options import AuditOptions

    path = tmp_path / name
    pbn = name.endswith(".pbn")
    path.write_text(games(60, revoke_every=5) + "\n" if pbn else lin_lines(60))
    parts = plan(str(path), 8, 1 << 30, 2)
    assert parts and [p.last for p in parts] == [False] * (len(parts) - 1) + [True]
    with open(path, "a") as fh:
        fh.write("\n" + games(30, revoke_every=5) + "\n" if pbn else lin_lines(30))
    got = [rec for p in parts for rec in list(read_part(p))[p.skip:]
           if p.last or rec.game <= p.games_before + p.skip + p.count]
    assert got == list(read_file(str(path))) and len(got) == 90
    rows = [r for p in parts for r in run.render_part(p, AuditOptions(equity=False))]
    assert [int(r.row["game"]) for r in rows] == list(range(1, 91))
