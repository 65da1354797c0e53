"""Many boards: read every source, audit each board, and render its report rows, in input
order - in this process, or with ``jobs`` > 1 in worker processes (a batch of files of about
the same size is the unit of work; a large file is a unit alone).

Signals belong to the parent: workers start with SIGINT blocked and leave SIGTERM at its
default, so Ctrl-C or a ``kill`` stops the run through the parent, which terminates the pool."""
from __future__ import annotations

import multiprocessing
import os
import signal
from contextlib import ExitStack, contextmanager
from typing import Callable, Iterable, Iterator

from .audit import audit_board, audit_records
from .formats import Limits, RunBudget, iter_sources, read_file
from .formats.parts import Part, plan, read_part
from .options import AuditOptions
from .replay.coherence import with_neighbours
from .report import deferred_signals
from .rows import Rendered, log_findings, render
from .workers import resolve_jobs, worker_pool


def render_sources(paths: Iterable[str], options: AuditOptions = AuditOptions(), jobs: int = 1,
                   on_file: Callable[[str], None] | None = None,
                   limits: Limits | None = None, engine: str = "local",
                   client: object = None, scheduler: str | None = None) -> Iterator[Rendered]:
    """Audit and render every board under ``paths``, in input order.  With ``jobs`` > 1 the
    files are audited in that many processes (0: one per core), in batches of about the same
    size (``batches``), which share the run's limit on decompressed bytes (``limits``, against
    archive bombs).  ``on_file(source)`` is called as each file is done (for a progress bar).
    With a director's log, a last item without a board row carries the findings for the rows
    no board matched.  ``engine="dask"``: the batches are Dask tasks (``dask_engine``), on
    ``client``, or a cluster at ``scheduler``, or a local cluster; ``jobs`` is then unused."""
    matched: set[int] = set()
    if engine == "dask":
        from .dask_engine import render_on_dask

        boards = render_on_dask(paths, options, limits or Limits(), client=client,
                                scheduler=scheduler, on_file=on_file)
    elif engine == "local":
        boards = _render_boards(paths, options, jobs, on_file, limits or Limits())
    else:
        raise ValueError(f"unknown engine={engine!r}; choose one of 'local', 'dask'")
    for r in boards:
        matched |= r.log_lines
        yield r
    if options.table_facts is not None:
        rows = log_findings(options.table_facts, matched)
        if rows:
            yield Rendered(None, rows)


def _render_boards(paths: Iterable[str], options: AuditOptions, jobs: int,
                   on_file: Callable[[str], None] | None, limits: Limits) -> Iterator[Rendered]:
    jobs = resolve_jobs(jobs)
    done_file = on_file or (lambda source: None)
    if jobs <= 1:
        run = RunBudget(limits.run_bytes)
        for src in iter_sources(paths):
            for a in audit_records(read_file(src, limits, run), options):
                yield render(a)
            done_file(src)
        return
    sources = list(iter_sources(paths))
    units = work_units(sources, jobs, limits)
    work = [(unit, options, limits) for unit in units if unit != STDIN]
    run = RunBudget(limits.run_bytes, multiprocessing.get_context("spawn").Value("q", 0))
    with ExitStack() as stack:
        with _pool_starting():
            pool = stack.enter_context(worker_pool(jobs, initializer=_start_worker,
                                                   initargs=(run,)))
        done = pool.imap(_render_unit, work, chunksize=1)
        for unit in units:
            if unit == STDIN:  # standard input is the parent's
                for a in audit_records(read_file("-", limits, run), options):
                    yield render(a)
                done_file("-")
                continue
            for src, rows, last in next(done):
                yield from rows
                if last:
                    done_file(src)


STDIN = ("stdin",)
PART_GAMES = 5000  # games of a large file in one unit of work
PART_MIN_BYTES = 4 << 20  # smaller files are not worth splitting


def work_units(sources: list[str], jobs: int, limits: Limits) -> list[tuple]:
    """The run's units of work, in input order: ``("files", [path, ...])`` a batch of whole
    files (``batches``), ``("part", formats.parts.Part, last)`` a part of a large PBN file
    (``formats.parts``), ``STDIN``, read by the parent."""
    units: list[tuple] = []
    pending: list[str] = []

    def flush() -> None:
        units.extend(("files", batch) for batch in batches(pending, jobs))
        pending.clear()

    for src in sources:
        split = (plan(src, PART_GAMES, limits.member_bytes)
                 if src != "-" and _size(src) >= PART_MIN_BYTES else None)
        if src == "-" or split:
            flush()
            units.extend([STDIN] if src == "-" else
                         [("part", p, i == len(split) - 1) for i, p in enumerate(split)])
        else:
            pending.append(src)
    flush()
    return units


BATCH_BYTES = (256 << 10, 8 << 20)  # the bounds of a unit of work's size, in bytes of files
BATCHES_PER_JOB = 8  # units of work per process, so that one slow unit does not hold the end


def batches(sources: list[str], jobs: int) -> list[list[str]]:
    """Consecutive files grouped into units of work of about the same size in bytes: each
    file costs a round trip to a worker process, so many small files go together (a vugraph
    archive is thousands of files of a few kilobytes), while a large file is a unit alone."""
    sizes = [_size(src) for src in sources]
    low, high = BATCH_BYTES
    target = min(high, max(low, sum(sizes) // (max(jobs, 1) * BATCHES_PER_JOB)))
    out: list[list[str]] = []
    held = 0
    for src, size in zip(sources, sizes):
        if not out or held >= target:
            out.append([])
            held = 0
        out[-1].append(src)
        held += size
    return out


def _size(path: str) -> int:
    if "://" in path:  # a URL (the Dask engine): its size is unknown, it goes alone
        return BATCH_BYTES[1]
    try:
        return os.stat(path).st_size
    except OSError:  # reported when the file is read
        return 0


@contextmanager
def _pool_starting() -> Iterator[None]:
    """Signals wait while the pool starts its workers (``deferred_signals``): one that stopped
    the parent halfway through starting a worker would leave it to die with a traceback.

    SIGINT is also blocked, which the workers inherit: one still importing when Ctrl-C reaches
    the process group cannot print a KeyboardInterrupt traceback."""
    if not hasattr(signal, "pthread_sigmask"):
        with deferred_signals():
            yield
        return
    # multiprocessing's resource tracker, started on the pool's first lock, unblocks SIGINT
    # after starting itself: start it first, so the workers still inherit the block.
    from multiprocessing import resource_tracker

    resource_tracker.ensure_running()
    with deferred_signals():
        mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            yield
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)


def _quiet_worker() -> None:
    """Workers leave signals to the parent: Ctrl-C reaches the whole process group, but only
    the parent stops the run (and terminates the pool, which ends the workers quietly)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


_RUN: RunBudget | None = None  # in a worker: the run's decompressed bytes, shared


def _start_worker(run: RunBudget) -> None:
    global _RUN
    _quiet_worker()
    _RUN = run


def _render_unit(args: tuple[tuple, AuditOptions, Limits]
                 ) -> list[tuple[str, list[Rendered], bool]]:
    """In a worker: a unit of work audited and rendered, as ``(source, rows, last)`` for
    each source it holds (``last``: its last rows)."""
    unit, options, limits = args
    if unit[0] == "part":
        part, last = unit[1], unit[2]
        return [(part.path, render_part(part, options), last)]
    return [(src, render_file(src, options, limits, _RUN), True) for src in unit[1]]


def render_file(src: str, options: AuditOptions, limits: Limits,
                run: RunBudget | None = None) -> list[Rendered]:
    """One source audited and rendered."""
    return [render(a) for a in audit_records(read_file(src, limits, run), options)]


def render_part(part: Part, options: AuditOptions) -> list[Rendered]:
    """The games of a part of a file audited and rendered; its context games (read before and
    after it) serve only as neighbours."""
    keep = range(part.skip, part.skip + part.count)
    return [render(audit_board(record, options, neighbours))
            for i, (record, neighbours) in enumerate(with_neighbours(read_part(part)))
            if i in keep]
