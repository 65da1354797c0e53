"""The boards waiting for their fields on disk (``scoring.store``): a temporary SQLite database
in the run's temporary directory, gone when the run ends however it ends; the fields read back
in the order of their first board; the figures read forward (``scoring.figures``)."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from revoke_audit.scoring.figures import Figures
from revoke_audit.scoring.rescore import Fields
from revoke_audit.scoring.store import Store

#: A process that puts 20,000 boards in fields on disk (a small page cache, so that SQLite
#: writes its file), prints the files it holds open in the temporary directory, then ends as
#: argv[1] says: ``close`` (and prints them again), ``interrupt`` (an uncaught Ctrl-C) or
#: ``kill`` (SIGKILL: no clean-up of ours at all).
HOLDER = r"""
import os, signal, sys, tempfile
from revoke_audit.scoring import store
from revoke_audit.scoring.rescore import Fields
store._CACHE_KB = 64
n = 20000
fields = Fields()
fields.add(range(n), [("Pairs", "", "2026.11.20")] * n, [str(1 + i % 20) for i in range(n)],
           [420] * n, [420] * n, range(n), range(n), [("f.pbn", "", "", "", "4H", "S", "None")] * n,
           [("N%d" % i, "E", "S", "W") for i in range(n)], [None] * n)
assert fields.score().figures  # every board scored: figures on disk too
def held():
    folder = os.path.realpath(tempfile.gettempdir())
    out = []
    for fd in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            continue
        if target.startswith(folder):
            out.append(target)
    return out
print(len(held()), all(t.endswith("(deleted)") for t in held()), flush=True)
if sys.argv[1] == "close":
    fields.close()
    print(len(held()), flush=True)
elif sys.argv[1] == "interrupt":
    raise KeyboardInterrupt
else:
    os.kill(os.getpid(), signal.SIGKILL)
"""

linux = pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="needs /proc (Linux)")


def _hold(tmp_path: Path, how: str) -> subprocess.CompletedProcess:
    folder = tmp_path / "tmp"
    folder.mkdir()
    env = dict(os.environ, TMPDIR=str(folder), SQLITE_TMPDIR=str(folder))
    return subprocess.run([sys.executable, "-c", HOLDER, how], env=env, capture_output=True,
                          text=True, timeout=120)


@linux
def test_the_fields_wait_in_the_temporary_directory_and_are_gone_on_close(tmp_path):
    got = _hold(tmp_path, "close")
    assert got.returncode == 0, got.stderr
    opened, closed = got.stdout.split("\n")[:2]
    # on disk while the fields wait: a file in the temporary directory, its name already gone
    assert opened.split()[0] != "0" and opened.split()[1] == "True"
    assert closed == "0"  # and the file itself gone once closed
    assert os.listdir(tmp_path / "tmp") == []


@linux
@pytest.mark.parametrize("how", ["interrupt", "kill"])
def test_an_interrupted_run_leaves_no_database_behind(tmp_path, how):
    got = _hold(tmp_path, how)
    assert got.returncode == (-signal.SIGKILL if how == "kill" else -signal.SIGINT), got.stderr
    assert got.stdout.split()[0] != "0"  # it was on disk
    assert os.listdir(tmp_path / "tmp") == []


def test_a_run_leaves_nothing_in_the_temporary_directory(tmp_path):
    # the sample session: its fields scored, boards.csv, findings.csv and the standings written
    root = Path(__file__).resolve().parents[1]
    folder = tmp_path / "tmp"
    folder.mkdir()
    env = dict(os.environ, TMPDIR=str(folder), SQLITE_TMPDIR=str(folder))
    got = subprocess.run([sys.executable, "-m", "revoke_audit", "audit",
                          str(root / "fixtures" / "session"), "-o", str(tmp_path / "b.csv"),
                          "--findings", str(tmp_path / "f.csv"), "--standings",
                          str(tmp_path / "s.csv"), "--exit-zero", "-q"],
                         env=env, capture_output=True, text=True, timeout=300)
    assert got.returncode == 0, got.stderr
    assert "," in (tmp_path / "b.csv").read_text().splitlines()[1]
    assert (tmp_path / "s.csv").read_text().count("\n") > 1  # a field was scored
    assert os.listdir(folder) == []


def _add(fields: Fields, boards: list[tuple[str, str]], start: int = 0) -> None:
    """Boards (event, board number), one result each, N-S 420 unless the board says."""
    n = len(boards)
    fields.add(range(start, start + n), [(e, "", "") for e, _ in boards],
               [b for _, b in boards], [100 * (i % 5) for i in range(n)], [420] * n, range(n),
               range(n), [("f.pbn", "", "", "", "4H", "S", "None")] * n,
               [(f"N{i}", f"E{i}", f"S{i}", f"W{i}") for i in range(n)], [None] * n)


def test_only_the_events_with_a_board_played_twice_are_read_back_in_first_board_order():
    # event A: boards 2, 1, 2, 1 (a field each); event B: boards 1, 2 once each (a hand record,
    # not read back); event C: board "017" twice (a board "number" kept as written)
    with Fields() as fields:
        _add(fields, [("A", "2"), ("B", "1"), ("A", "1"), ("C", "017"), ("A", "2"),
                      ("B", "2"), ("A", "1"), ("C", "017")])
        got = [(key, [e.ordinal for e in entries]) for key, entries in fields.fields()]
    assert got == [(("A", "", "", "2"), [0, 4]), (("A", "", "", "1"), [2, 6]),
                   (("C", "", "", "017"), [3, 7])]


def test_the_figures_read_forward_and_back_alike():
    store = Store()
    try:
        figures = Figures(store)
        figures.put_field([2, 5, 9], 3, "mp", [0, 50, 100], [0, 50, 100])
        figures.put(7, (2, None, None, 3.0, 4.0, "teams"))
        whole = dict(figures.items())
        assert list(whole) == [2, 5, 7, 9]
        forward = [list(figures.within(a, b)) for a, b in ((0, 3), (3, 6), (6, 8), (8, 20))]
        assert [o for part in forward for o, _ in part] == [2, 5, 7, 9]
        assert list(figures.within(5, 8)) == [(5, whole[5]), (7, whole[7])]  # back again
        assert dict(figures.texts(0, 10)) == {2: "3,0.0,0.0,,,mp", 5: "3,50.0,50.0,,,mp",
                                              7: "2,,,3.0,4.0,teams", 9: "3,100.0,100.0,,,mp"}
        assert whole[7] == (2, None, None, 3.0, 4.0, "teams") and 8 not in whole
    finally:
        store.close()


def test_a_boards_contract_declarer_and_vulnerability_are_not_kept_in_memory():
    """A vugraph file: each board its own contract, declarer and vulnerability, two rooms of
    one match.  What stays in memory is one set of texts for each room of the file and each
    table of players (four here: two a room), never one a board; every entry reads back with
    its own contract, declarer and vulnerability."""
    contracts = [f"{level}{strain}" for level in "1234567" for strain in ("C", "D", "H", "S", "NT")]
    n = 200
    texts = [("m.lin", ("Open", "Closed")[i % 2], "A|B", "", contracts[i % 35], "NESW"[i % 4],
              ("None", "NS", "EW", "All")[i // 4 % 4]) for i in range(n)]
    players = [("a", "b", "c", "d"), ("e", "f", "g", "h"), ("c", "d", "a", "b"),
               ("g", "h", "e", "f")]
    with Fields() as fields:
        fields.add(range(n), [("Cup", "", "")] * n, [str(1 + i // 2) for i in range(n)],
                   [420] * n, [420] * n, range(n), range(n), texts,
                   [players[i % 4] for i in range(n)], [None] * n)
        assert len(fields._store.shared) == 1 + 2 + 4  # the event, the rooms, the players
        entries = [e for _, field in fields.fields() for e in field]
    assert [(e.contract, e.declarer, e.vul, e.room) for e in entries] == [
        t[4:] + t[1:2] for t in texts]


@pytest.mark.parametrize("boards, table, members", [
    # every board once, no ScoreTable: a hand record; no field read back, and no pass over
    # the entries to find them
    ([("A", "1"), ("A", "2"), ("B", "1")], None, []),
    # the same with a ScoreTable on the second board: its field is read back
    ([("A", "1"), ("A", "2"), ("B", "1")], 1, [("A", "", "", "2")]),
    # board 1 of event A twice: every field of A (not B's)
    ([("A", "1"), ("A", "2"), ("B", "1"), ("A", "1")], None,
     [("A", "", "", "1"), ("A", "", "", "2")]),
])
def test_the_fields_read_back_and_when_the_entries_are_grouped(boards, table, members):
    with Fields() as fields:
        n = len(boards)
        tables = [(("Score", ("x",)) if i == table else None) for i in range(n)]
        fields.add(range(n), [(e, "", "") for e, _ in boards], [b for _, b in boards],
                   [420] * n, [420] * n, range(n), range(n),
                   [("f.pbn", "", "", "", "4H", "S", "None")] * n,
                   [(f"N{i}", f"E{i}", f"S{i}", f"W{i}") for i in range(n)], tables)
        store = fields._store
        said: list[str] = []
        store.db().set_trace_callback(said.append)
        assert [store.key(f) for f, *_ in store.counts()] == members
        grouped = [s for s in said if s.startswith("INSERT INTO member")]
        assert len(grouped) == (1 if members else 0)


def test_deferred_lines_are_read_back_only_for_a_field_that_may_be_scored():
    # deferred: A 1, A 2, B 1, C 5, D 017 (places 0-4); then entries: A 1 without a
    # ScoreTable (A 1 twice: every field of A may be scored, A 2's line too), C 5 with one
    # (its field may be scored), D 17 (the number, not "017": another field, D unplayed).
    # B 1 and D 017 stay lines alone in their fields.
    store = Store()
    try:
        boards = [("A", "1"), ("A", "2"), ("B", "1"), ("C", "5"), ("D", "017")]
        store.defer(range(5), [(e, "", "") for e, _ in boards], [b for _, b in boards],
                    [f"line {e} {b}" for e, b in boards])
        for event, board, table in (("A", "1", None), ("C", "5", ("Score", ("x",))),
                                    ("D", "17", None)):
            store.add([9], [(event, "", "")], [board], [420], [420], [1], [1],
                      [("f.pbn", "", "", "", "4H", "S", "None")], [("N", "E", "S", "W")],
                      [table])
        got = [row for batch in store.waiting() for row in batch]
        assert got == [(0, 0, "line A 1"), (1, 1, "line A 2"), (3, 3, "line C 5")]
        assert store.count == 8 and store.entries == 3 and list(store.waiting()) == []
    finally:
        store.close()


def test_lines_of_a_board_seen_twice_are_read_back_as_they_come_the_rest_at_the_end():
    # a vugraph match: board k's open room, then its closed room (the same field twice), 300
    # boards; then a hand record (event H: each board once), 300 boards.  The open room of
    # board 1 is the first line of M: it waits (nothing yet says M is played); from its closed
    # room on, every line of M is known to be scored and comes back as the lines are deferred,
    # once 512 or more are ready (the sixth run: M's 599 other lines), the first open room at
    # the end (``waiting``); H's lines never come back.  Every line of M comes back once, at
    # the place deferred.
    from revoke_audit.scoring import store as module

    store = Store()
    try:
        match = [("M", str(1 + i // 2)) for i in range(600)]
        hand = [("H", str(1 + i)) for i in range(300)]
        now = []
        for start in range(0, 900, 100):  # deferred a lane run (100 lines) at a time
            part = (match + hand)[start:start + 100]
            now += store.defer(range(start, start + len(part)), [(e, "", "") for e, _ in part],
                               [b for _, b in part], [f"{e} {b}" for e, b in part])
        assert len(now) == 599 and now[0] == (1, 1, "M 1") and now[-1] == (599, 599, "M 300")
        n = len(now)  # read back: entries at their places, as ``gather`` adds them
        store.add([o for _, o, _ in now], [("M", "", "")] * n, [t.split()[1] for *_, t in now],
                  [420] * n, [420] * n, [1] * n, [1] * n,
                  [("m.lin", "open", "", "", "4H", "S", "None")] * n, [("N", "E", "S", "W")] * n,
                  [None] * n, indexes=[i for i, _, _ in now])
        at_end = [row for batch in store.waiting() for row in batch]
        assert at_end == [(0, 0, "M 1")]
        got = sorted(now + at_end)
        assert got == [(i, i, f"M {1 + i // 2}") for i in range(600)]
        assert store.count == 900 and store.deferred == 0
        assert len(store._recent) <= module._RECENT + 100  # memory bounded, whatever the run
    finally:
        store.close()
