"""How worker processes start (``workers.start_method``): forked from a process with one thread
on Linux, else spawned; a forked worker never collects its parent's objects; and both ways
give the reports of one process."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

from revoke_audit.engine import workers

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
linux = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="fork is used on Linux")

THREADS = """
import threading, time
from revoke_audit.engine.workers import start_method
first = start_method()
print(first)
stop = threading.Event()
other = threading.Thread(target=stop.wait)
other.start()
print(start_method())
stop.set()
other.join()
end = time.monotonic() + 5
while first == "fork" and start_method() == "spawn" and time.monotonic() < end:
    time.sleep(0.01)  # the system lets the thread go a moment after join
print(start_method())
"""


def methods(env: dict[str, str]) -> list[str]:
    """``start_method()`` in a fresh process: alone, beside a second thread, alone again."""
    done = subprocess.run([sys.executable, "-c", THREADS], capture_output=True, text=True,
                          env={**os.environ, **env}, check=True)
    return done.stdout.split()


@linux
def test_workers_are_forked_only_while_the_process_has_one_thread():
    assert methods({workers.SPAWN_ONLY: ""}) == ["fork", "spawn", "fork"]


def test_workers_are_spawned_when_asked_or_off_linux(monkeypatch):
    assert methods({workers.SPAWN_ONLY: "1"}) == ["spawn"] * 3
    monkeypatch.delenv(workers.SPAWN_ONLY, raising=False)
    monkeypatch.setattr(sys, "platform", "darwin")  # its system libraries are not fork-safe
    assert workers.start_method() == "spawn"


GARBAGE = """
import gc, os, sys
from revoke_audit.engine import workers
assert workers.start_method() == "fork"

class Noted:
    # in a reference cycle: only a collection ends it, and its end is noted with the process
    def __init__(self, path):
        self.me, self.path = self, path

    def __del__(self):
        with open(self.path, "a") as fh:
            fh.write(f"{os.getpid()}\\n")

gc.collect()
gc.disable()  # nothing collects the garbage in this process before the workers start
Noted(sys.argv[1])  # garbage at once
with workers.worker_pool(2) as pool:
    workers.start_workers(pool, 2)
    list(workers.map_in_order(pool, gc.collect, [2] * 8))  # full collections in the workers
gc.enable()
gc.collect()
print(os.getpid())
"""


@linux
def test_a_forked_worker_never_collects_its_parents_garbage(tmp_path):
    """Garbage of the parent's still uncollected when workers are forked (here an object whose
    end writes a line) is inherited by them; were it not frozen at the fork, each worker's
    collection would end it a second time, in the worker (think of a file flushed twice).
    In a fresh process: one with one thread, so that it forks."""
    notes = tmp_path / "notes"
    done = subprocess.run([sys.executable, "-c", GARBAGE, str(notes)], capture_output=True,
                          text=True, env={**os.environ, workers.SPAWN_ONLY: ""})
    assert done.returncode == 0, done.stderr
    assert notes.read_text() == done.stdout  # the parent's process id, once


@pytest.mark.parametrize("spawn_only", ["", "1"])
def test_forked_and_spawned_workers_give_the_reports_of_one_process(tmp_path, spawn_only):
    """The command in a fresh process (one thread: its workers are forked, unless asked)."""
    reports = []
    for jobs in ("1", "2"):
        b, f = tmp_path / f"b{jobs}.csv", tmp_path / f"f{jobs}.csv"
        done = subprocess.run([sys.executable, "-m", "revoke_audit.cli.commands", "audit", str(FIXTURES),
                               "--exit-zero", "--jobs", jobs, "-o", str(b), "--findings", str(f)],
                              capture_output=True, env={**os.environ, workers.SPAWN_ONLY: spawn_only})
        reports.append((done.returncode, done.stdout, done.stderr, b.read_bytes(), f.read_bytes()))
    assert reports[0] == reports[1] and reports[0][3].count(b"\n") > 60
