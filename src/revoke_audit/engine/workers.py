"""Worker processes for ``jobs`` > 1, safe to start from a plain script and safe to kill.

Workers are forked where that is safe (``start_method``): on Linux, from a process with one
thread.  A forked worker has the package imported already; a spawned one imports it again,
which costs each worker a tenth of a second of CPU and holds back the start of the run.
Elsewhere, or when the process has other threads (an application's, a C library's: a lock
one of them holds at the fork would stay held in the child for ever), workers are spawned.

A spawned worker normally re-runs the parent's main script before it takes work; a script that
calls ``audit_paths(..., jobs=2)`` at its top level, without an ``if __name__ == "__main__":``
guard, would then start workers from every worker, and the pool would wait for ever.  The work
functions live in this package, so the workers never need the user's script: while work is
submitted (which is when the processes start), ``__main__`` is shown to ``multiprocessing`` as
an empty module, so the workers do not run the script at all.  Guarded and unguarded scripts,
notebooks and ``python -c`` all work.

The pool is a ``concurrent.futures.ProcessPoolExecutor``, not a ``multiprocessing.Pool``: a
worker killed while it waited for work (``kill`` of the whole process group, the system out of
memory) dies holding the task queue's lock, and ``Pool.terminate`` then waits for that lock for
ever; the executor instead marks itself broken and its waiting callers get
``BrokenProcessPool``.

A worker ends with its parent (``_follow_parent``): a parent killed outright (``kill -9``, the
system out of memory) cannot end its workers, which would otherwise wait for work for ever."""
from __future__ import annotations

import gc
import os
import signal
import sys
import threading
import types
from collections import deque
from contextlib import contextmanager
from typing import TYPE_CHECKING, Callable, Generic, Iterable, Iterator, TypeVar

if TYPE_CHECKING:  # imported where used: a --jobs 1 run never loads them (15 ms of its start)
    import multiprocessing
    from concurrent.futures import Future, ProcessPoolExecutor

T = TypeVar("T")
R = TypeVar("R")


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


SPAWN_ONLY = "REVOKE_AUDIT_SPAWN_WORKERS"  # set to 1: workers are always spawned


def start_method() -> str:
    """``"fork"`` on Linux when this process has one thread (counted by the system, so that a
    C library's threads count too) and ``REVOKE_AUDIT_SPAWN_WORKERS`` is not set; else
    ``"spawn"``.  (Not on macOS: its system libraries are not safe to fork.)"""
    if os.environ.get(SPAWN_ONLY) or not sys.platform.startswith("linux"):
        return "spawn"
    try:
        threads = len(os.listdir("/proc/self/task"))
    except OSError:  # no /proc: the threads cannot be counted
        return "spawn"
    return "fork" if threads == 1 else "spawn"


def worker_context() -> multiprocessing.context.BaseContext:
    """The ``multiprocessing`` context of ``start_method``: the pool's, and its shared values'."""
    import multiprocessing  # here: a --jobs 1 run never loads it (nor concurrent.futures)

    return multiprocessing.get_context(start_method())


@contextmanager
def worker_pool(jobs: int, initializer: Callable[..., None] | None = None,
                initargs: tuple = (), context: multiprocessing.context.BaseContext | None = None
                ) -> Iterator[ProcessPoolExecutor]:
    """A pool of up to ``jobs`` processes started by ``context`` (``worker_context()`` if
    None), each running ``initializer(*initargs)`` first.  Give it work with ``map_in_order``:
    the processes start as work arrives (all at the first work when forked).  Left normally,
    the pool waits for its work; left by an exception (a signal, a closed stdout), its
    processes are ended at once (``stop``)."""
    from concurrent.futures import ProcessPoolExecutor  # here: see worker_context

    pool = ProcessPoolExecutor(jobs, mp_context=context or worker_context(),
                               initializer=_start, initargs=(os.getpid(), initializer, initargs))
    with _quiet_when_broken(pool):
        try:
            yield pool
        except BaseException:
            stop(pool)
            raise
        pool.shutdown()


def _start(parent: int, initializer: Callable[..., None] | None, initargs: tuple) -> None:
    """A worker's start: it ends with its parent (``_follow_parent``), then ``initializer``."""
    _follow_parent(parent)
    if initializer is not None:
        initializer(*initargs)


PR_SET_PDEATHSIG = 1  # linux/prctl.h


def _follow_parent(parent: int) -> None:
    """This worker gets SIGKILL when its parent dies (Linux's parent-death signal), however the
    parent dies; if it died already, before the signal was asked for, the worker ends now.
    (Not elsewhere: there is no such signal on other systems.)  The signal follows the thread
    that started the worker, which is the thread that gives the pool its work
    (``map_in_order``, ``start_workers``)."""
    if not sys.platform.startswith("linux"):
        return
    import ctypes  # here: only a worker needs it

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):  # no prctl to call: the pool's pipes remain
        return
    if os.getppid() != parent:  # the parent died before the call: adopted already
        os._exit(1)


@contextmanager
def _quiet_when_broken(pool: ProcessPoolExecutor) -> Iterator[None]:
    """No traceback from the pool's manager thread once the pool is broken.  When a signal
    to the whole process group kills the workers while this process still submits work
    (signals wait until it is submitted, ``run._pool_starting``), the executor's thread that
    fails the pending work (Python 3.11's ``terminate_broken``) can meet the main thread's
    ``submit`` on the same dict and die of "dictionary changed size during iteration"; the
    run is being stopped anyway (``stop``), so the user sees only the stop message."""
    previous = threading.excepthook

    def hook(args) -> None:
        manager = type(args.thread).__name__ == "_ExecutorManagerThread"
        if not (manager and getattr(pool, "_broken", False)):
            previous(args)

    threading.excepthook = hook
    try:
        yield
    finally:
        threading.excepthook = previous


def map_in_order(pool: ProcessPoolExecutor, fn: Callable[[T], R], items: Iterable[T]
                 ) -> "InOrder[R]":
    """Submit ``fn(item)`` for every item now (which starts the processes, with ``__main__``
    hidden from them) and give the results in the items' order as they come."""
    with _launching():
        return InOrder([pool.submit(fn, item) for item in items])


class InOrder(Generic[R]):
    """The results of submitted work, in the order it was submitted; each is let go as it is
    given.  ``cancel()``: the work not started is dropped (what runs ends unused)."""

    def __init__(self, futures: list[Future]) -> None:
        self._futures = deque(futures)

    def __iter__(self) -> "InOrder[R]":
        return self

    def __next__(self) -> R:
        if not self._futures:
            raise StopIteration
        return self._futures.popleft().result()

    def then(self, more: "InOrder[R]") -> "InOrder[R]":
        """These results, then ``more``'s (its work submitted after this one's)."""
        self._futures.extend(more._futures)
        more._futures.clear()
        return self

    def cancel(self) -> None:
        for future in self._futures:
            future.cancel()
        self._futures.clear()


def start_workers(pool: ProcessPoolExecutor, count: int) -> None:
    """Start ``count`` processes now (each takes a task that does nothing), so that they are
    ready (spawned: have imported the package) when the parent has planned the work; forked,
    the pool starts all of its processes at the first task.  ``__main__`` hidden as in
    ``map_in_order``."""
    with _launching():
        for _ in range(count):
            pool.submit(_nothing)


def _nothing() -> None:
    """The task that starts a process (``start_workers``)."""


@contextmanager
def _launching() -> Iterator[None]:
    """While work is submitted, which is when processes start: ``__main__`` hidden from them
    (``_hidden_main``), and this process's objects frozen (``_frozen``)."""
    with _hidden_main(), _frozen():
        yield


@contextmanager
def _frozen() -> Iterator[None]:
    """This process's objects left out of garbage collections (``gc.freeze``) while it forks
    workers: a forked worker then never collects any of them.  Garbage of the parent's that no
    collection has found yet (a file with text in its buffer, say) would otherwise be
    finalized in the worker too, and that file written twice.  Not done when something here
    froze objects already: ``gc.unfreeze`` would thaw those as well."""
    if gc.get_freeze_count():
        yield
        return
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


@contextmanager
def _hidden_main() -> Iterator[None]:
    """``__main__`` is an empty module while processes start, so they do not re-run it."""
    main = sys.modules.get("__main__")
    sys.modules["__main__"] = types.ModuleType("__main__")
    try:
        yield
    finally:
        if main is None:
            del sys.modules["__main__"]
        else:
            sys.modules["__main__"] = main


def stop(pool: ProcessPoolExecutor) -> None:
    """Cancel the work not started and end the processes now (SIGTERM, which workers leave at
    its default: they die without a word), instead of waiting for the work they hold.  The
    executor has no public call for this before Python 3.14 (``terminate_workers``)."""
    processes = list((getattr(pool, "_processes", None) or {}).values())  # shutdown drops it
    manager = getattr(pool, "_executor_manager_thread", None)
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        if process.exitcode is None:
            process.terminate()
    if manager is not None:  # it closes its wake-up pipe as the workers die: let it finish
        manager.join(timeout=30)  # now, not while the interpreter's exit writes to that pipe
        # (Python 3.11's concurrent.futures._python_exit: "Bad file descriptor" on stderr)
