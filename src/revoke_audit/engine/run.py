"""Many boards: read every source, audit each board, and render its report rows, in input
order - in this process, or with ``jobs`` > 1 in worker processes (a batch of files of about
the same size is the unit of work; a large file is a unit alone).

Signals belong to the parent: workers start with SIGINT blocked and leave SIGTERM at its
default, so Ctrl-C or a ``kill`` stops the run through the parent, which ends the workers
(``workers.stop``)."""
from __future__ import annotations

import gc
import signal
from contextlib import contextmanager
from typing import Callable, Iterable, Iterator

from .lane import render_records
from ..formats import Limits, RunBudget, iter_sources, read_file
from ..ruling.options import AuditOptions
from ..reports.report import CsvText, deferred_signals
from ..reports.rows import CleanRun, Rendered, clean_runs, duplicate_finding, log_findings
from ..reports.selection import restate
from .units import (STDIN, first_units, processes_wanted, render_unit, split_sizes,
                    work_units)
from .workers import (InOrder, map_in_order, resolve_jobs, start_workers, worker_context,
                      worker_pool)


def render_sources(paths: Iterable[str], options: AuditOptions = AuditOptions(), jobs: int = 1,
                   on_file: Callable[[str], None] | None = None,
                   limits: Limits | None = None, engine: str = "local",
                   client: object = None, scheduler: str | None = None,
                   rows: bool = True) -> Iterator[Rendered]:
    """Audit and render every board under ``paths``, in input order.  With ``jobs`` > 1 the
    files are audited in that many processes (0: one per core), in batches of about the same
    size (``batches``), which share the run's limit on decompressed bytes (``limits``, against
    archive bombs).  ``on_file(source)`` is called as each file is done (for a progress bar).
    With a director's log, last items without a board row carry the findings for the rows
    no board matched.  ``engine="dask"``: the batches are Dask tasks (``dask_engine``), on
    ``client``, or a cluster at ``scheduler``, or a local cluster; ``jobs`` is then unused.
    ``rows=False``: the caller writes CSV from each board's ``csv`` lines and needs only the
    status of a board without findings, so such boards come ``lean`` from worker processes,
    and consecutive clean ones as one ``rows.CleanRun`` with their CSV lines (its ``boards``
    says how many), in this process too."""
    matched: set[int] = set()
    if engine == "dask":
        from .dask_engine import render_on_dask

        boards = render_on_dask(paths, options, limits or Limits(), client=client,
                                scheduler=scheduler, on_file=on_file)
    elif engine == "local":
        boards = _render_boards(paths, options, jobs, on_file, limits or Limits(), rows)
    else:
        raise ValueError(f"unknown engine={engine!r}; choose one of 'local', 'dask'")
    for r in reported_once(boards):
        matched |= r.log_lines
        yield r
    if options.table_facts is not None:
        for batch in log_findings(options.table_facts, matched):
            yield Rendered(None, batch)


def reported_once(rendered: Iterable[Rendered]) -> Iterator[Rendered]:
    """One board, one report: a board with findings whose record was read before in the run
    (``rows.record_key``) keeps its row, but its findings become one DU001 note naming the
    first, so nothing is counted or ruled twice.  Memory: one key per board with findings."""
    first: dict[str, tuple[object, object]] = {}
    for r in rendered:
        if r.key is None or r.row is None:
            yield r
            continue
        seen = first.setdefault(r.key, (r.row["source"], r.row["line"]))
        if seen == (r.row["source"], r.row["line"]):
            yield r
            continue
        note = [duplicate_finding(r.row, seen)]
        yield r.restated(note, restate(r.row, note))


def _render_boards(paths: Iterable[str], options: AuditOptions, jobs: int,
                   on_file: Callable[[str], None] | None, limits: Limits,
                   rows: bool = True) -> Iterator[Rendered]:
    jobs = resolve_jobs(jobs)
    done_file = on_file or (lambda source: None)
    csv = None if rows else CsvText()

    def here(src: str) -> Iterator[Rendered]:
        """A source read by this process, its rows as they come."""
        rendered = render_records(read_file(src, limits, run, plain=True), options,
                                  runs=not rows)
        yield from rendered if rows else _with_lines(rendered, csv)
        done_file(src)

    if jobs <= 1:
        run = RunBudget(limits.run_bytes)
        for src in iter_sources(paths):
            yield from here(src)
        return
    sources = list(iter_sources(paths))
    context = worker_context()
    run = RunBudget(limits.run_bytes, context.Value("q", 0))
    wanted = processes_wanted(sources, jobs)
    with worker_pool(max(1, wanted), _start_worker, (run,), context) as pool:
        with _pool_starting():  # the processes start (spawned: and import) while work is planned
            start_workers(pool, wanted)
        units, done = _submit(pool, sources, jobs, (options, limits, not rows))
        for unit in units:
            if unit[0] in _HERE:  # standard input, a large file not split: the parent's
                yield from here("-" if unit == STDIN else unit[1])
                continue
            for src, rendered, last in next(done):
                yield from rendered
                if last:
                    done_file(src)


_HERE = (STDIN[0], "here")  # the units of work this process reads itself


def _with_lines(rendered: Iterable[Rendered], csv: CsvText) -> Iterator[Rendered]:
    """``rendered``, each ``CleanRun`` with its CSV lines (the caller writes those)."""
    for r in rendered:
        if type(r) is CleanRun:
            csv.lines(r)
        yield r


def _submit(pool, sources: list[str], jobs: int, how: tuple[AuditOptions, Limits, bool]
            ) -> tuple[list[tuple], InOrder]:
    """Every unit of work submitted; its results, in order.  A large file's parts are
    submitted as soon as it is cut, and the check that it may be split (``splittable``: a
    second or so on a 100 MB file) is made while the processes work on them; a file that
    fails it (rare: state carried between games; or a file that grew or shrank since it was
    cut, still being written) is read whole after all, and the work is submitted again with
    no use made of what was started.  A run that starts with a large file submits its first
    parts (``first_units``) even before the file is cut."""
    from ..formats.parts import splittable  # here: a run of one process never splits

    limits = how[1]
    early = first_units(sources, jobs, limits)
    started = _submit_units(pool, early, how)
    units = work_units(sources, jobs, limits, checked=False, here=True)
    if units[:len(early)] == early:
        done = started.then(_submit_units(pool, units[len(early):], how))
    else:  # guessed wrong (rare: a file cut otherwise): what runs ends unused
        started.cancel()
        done = _submit_units(pool, units, how)
    unsafe = frozenset(path for path, size in split_sizes(units).items()
                       if not splittable(path, size))
    if not unsafe:
        return units, done
    done.cancel()  # the work not started is dropped; what runs ends unused
    units = work_units(sources, jobs, limits, whole=unsafe, here=True)
    return units, _submit_units(pool, units, how)


def _submit_units(pool, units: list[tuple], how: tuple[AuditOptions, Limits, bool]) -> InOrder:
    """``how``: the options, the limits, and whether boards come back ``lean``."""
    work = [(unit, *how) for unit in units if unit[0] not in _HERE]
    with _pool_starting():
        return map_in_order(pool, _render_unit, work)


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
    the parent stops the run (and ends the workers with SIGTERM, which kills them quietly).
    Set here whichever way the worker started: a forked one comes with the parent's handlers
    of the moment (``deferred_signals``')."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


_RUN: RunBudget | None = None  # in a worker: the run's decompressed bytes, shared
_CSV = CsvText()  # in a worker: the rows' CSV text, made here instead of in the parent


# A worker holds a unit's rows until the unit is done (thousands of boards' objects, all
# alive), so the collector's default thresholds would scan them again and again (3% of a
# worker's time on a part of 5,000 boards); nothing a board makes is cyclic garbage worth
# collecting that often.
WORKER_GC_THRESHOLDS = (50_000, 20, 1_000)


def _start_worker(run: RunBudget) -> None:
    global _RUN
    _quiet_worker()
    gc.set_threshold(*WORKER_GC_THRESHOLDS)
    _RUN = run


def _render_unit(args: tuple[tuple, AuditOptions, Limits, bool]
                 ) -> list[tuple[str, list[Rendered], bool]]:
    """In a worker: a unit of work audited and rendered (``units.render_unit``), each board
    with its CSV lines; when asked, ``lean``, and each run of clean boards one item
    (``rows.clean_runs``)."""
    unit, options, limits, lean = args
    done = render_unit(unit, options, limits, _RUN, runs=lean)
    for k, (src, rows, last) in enumerate(done):
        for i, r in enumerate(rows):
            r.csv = _CSV.lines(r)
            if lean:
                rows[i] = r.lean()
        if lean:
            done[k] = (src, clean_runs(rows), last)
    return done
