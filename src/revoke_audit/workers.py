"""Worker processes for ``jobs`` > 1, safe to start from a plain script.

Workers are started with ``spawn`` (no fork of a parent that may hold threads or solver state).
A spawned worker normally re-runs the parent's main script before it takes work; a script that
calls ``audit_paths(..., jobs=2)`` at its top level, without an ``if __name__ == "__main__":``
guard, would then start workers from every worker, and the pool would wait for ever.  The work
functions live in this package, so the workers never need the user's script: while the pool
starts, ``__main__`` is shown to ``multiprocessing`` as an empty module, so the workers do not
run the script at all.  Guarded and unguarded scripts, notebooks and ``python -c`` all work."""
from __future__ import annotations

import multiprocessing
import multiprocessing.pool
import os
import sys
import types
from typing import Callable


def resolve_jobs(jobs: int) -> int:
    """The number of processes for ``jobs``: 0 means one per core this process may use."""
    if jobs < 0:
        raise ValueError(f"jobs={jobs}: use 0 (all cores), 1 (no worker processes) or more")
    if jobs == 0:
        try:
            return max(1, len(os.sched_getaffinity(0)))
        except AttributeError:  # not on Linux
            return os.cpu_count() or 1
    return jobs


def worker_pool(jobs: int, initializer: Callable[..., None] | None = None,
                initargs: tuple = ()) -> multiprocessing.pool.Pool:
    """A pool of ``jobs`` spawned processes that do not re-run the main script; each runs
    ``initializer(*initargs)`` first."""
    context = multiprocessing.get_context("spawn")
    main = sys.modules.get("__main__")
    sys.modules["__main__"] = types.ModuleType("__main__")
    try:
        return context.Pool(jobs, initializer=initializer, initargs=initargs)  # the workers start here, with the empty __main__
    finally:
        if main is None:
            del sys.modules["__main__"]
        else:
            sys.modules["__main__"] = main
