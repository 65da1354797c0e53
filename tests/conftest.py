"""The suite's guard: tests never write into the working copy.

A test once wrote ``out/boards.csv`` in the project's folder and replaced the director's own
report.  Every file of the working copy (``out/`` included; the virtualenv, git's folder and
the caches aside) is noted when the session starts and compared when it ends: a file made,
changed or removed fails the run, naming it.  Tests write under ``tmp_path``."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
#: Folders the suite may write: the tools' own (pytest's and hypothesis's caches, bytecode).
SKIPPED = frozenset((".git", ".venv", ".pytest_cache", ".hypothesis", "__pycache__", "build"))


def snapshot(root: Path) -> dict[str, tuple[int, int]]:
    """Every file under ``root`` (``SKIPPED`` folders and ``*.egg-info`` aside) with its size
    and modification time."""
    found: dict[str, tuple[int, int]] = {}
    stack = [str(root)]
    while stack:
        with os.scandir(stack.pop()) as entries:
            for entry in entries:
                if entry.is_dir(follow_symlinks=False):
                    if entry.name not in SKIPPED and not entry.name.endswith(".egg-info"):
                        stack.append(entry.path)
                    continue
                st = entry.stat(follow_symlinks=False)
                found[os.path.relpath(entry.path, root)] = (st.st_size, st.st_mtime_ns)
    return found


def changed(before: dict[str, tuple[int, int]], after: dict[str, tuple[int, int]]
            ) -> list[str]:
    """The files made, changed or removed between two snapshots, in words."""
    return sorted([f"made {p}" for p in after.keys() - before.keys()]
                  + [f"removed {p}" for p in before.keys() - after.keys()]
                  + [f"changed {p}" for p in before.keys() & after.keys()
                     if before[p] != after[p]])


_KEY = pytest.StashKey[dict]()


def pytest_sessionstart(session: pytest.Session) -> None:
    session.stash[_KEY] = snapshot(ROOT)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    before = session.stash.get(_KEY, None)
    if before is None:
        return
    writes = changed(before, snapshot(ROOT))
    if not writes:
        return
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    message = ("the test run wrote into the working copy (tests must write under tmp_path): "
               + "; ".join(writes[:20]) + (f"; and {len(writes) - 20} more" if len(writes) > 20
                                            else ""))
    if reporter is not None:
        reporter.ensure_newline()
        reporter.write_line(message, red=True)
    session.exitstatus = pytest.ExitCode.TESTS_FAILED
