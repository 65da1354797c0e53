"""Many boards: read every source, audit each board, and render its report rows, in input
order - in this process, or with ``jobs`` > 1 in worker processes (a file is the unit of work).

Signals belong to the parent: workers start with SIGINT blocked and leave SIGTERM at its
default, so Ctrl-C or a ``kill`` stops the run through the parent, which terminates the pool."""
from __future__ import annotations

import multiprocessing
import signal
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from typing import Callable, Iterable, Iterator

from .audit import BoardAudit, audit_records, board_row, check_options
from .formats import Limits, RunBudget, iter_sources, read_file
from .report import deferred_signals, finding_row, log_findings
from .table_facts import TableFacts
from .workers import resolve_jobs, worker_pool


@dataclass
class Rendered:
    """One audited board reduced to its report rows: all the writers need, and cheap to send
    back from a worker process."""

    row: dict[str, object] | None  # None for the director's log's own findings
    findings: list[dict[str, object]]
    log_lines: frozenset[int] = frozenset()  # the director's log rows that matched this board

    @property
    def status(self) -> str:
        return str(self.row["status"]) if self.row is not None else ""


def render(a: BoardAudit) -> Rendered:
    """The report rows of one audited board."""
    lines = frozenset(a.table_facts.lines) if a.table_facts is not None else frozenset()
    return Rendered(board_row(a), [finding_row(a, f) for f in a.findings], lines)


def render_sources(paths: Iterable[str], laws: str = "2017", discovered: str = "table",
                   equity: bool = False, jobs: int = 1,
                   on_file: Callable[[str], None] | None = None,
                   table_facts: TableFacts | None = None,
                   limits: Limits | None = None) -> Iterator[Rendered]:
    """Audit and render every board under ``paths``, in input order.  With ``jobs`` > 1 the
    files are audited in that many processes (a file is the unit of work; 0: one per core),
    which share the run's limit on decompressed bytes (``limits``, against archive bombs).
    ``on_file(source)`` is called as each file is done (for a progress bar).  With a director's
    log, a last item without a board row carries the findings for the rows no board matched."""
    matched: set[int] = set()
    for r in _render_boards(paths, laws, discovered, equity, jobs, on_file, table_facts,
                            limits or Limits()):
        matched |= r.log_lines
        yield r
    if table_facts is not None:
        rows = log_findings(table_facts, matched)
        if rows:
            yield Rendered(None, rows)


def _render_boards(paths, laws, discovered, equity, jobs, on_file, table_facts, limits
                   ) -> Iterator[Rendered]:
    check_options(laws, discovered)
    jobs = resolve_jobs(jobs)
    done_file = on_file or (lambda source: None)
    if jobs <= 1:
        run = RunBudget(limits.run_bytes)
        for src in iter_sources(paths):
            for a in audit_records(read_file(src, limits, run), laws, discovered, equity,
                                   table_facts):
                yield render(a)
            done_file(src)
        return
    sources = list(iter_sources(paths))
    work = [(src, laws, discovered, equity, table_facts, limits) for src in sources if src != "-"]
    run = RunBudget(limits.run_bytes, multiprocessing.get_context("spawn").Value("q", 0))
    with ExitStack() as stack:
        with _pool_starting():
            pool = stack.enter_context(worker_pool(jobs, initializer=_start_worker,
                                                   initargs=(run,)))
        done = pool.imap(_render_file, work, chunksize=1)
        for src in sources:
            if src == "-":  # standard input is the parent's
                for a in audit_records(read_file(src, limits, run), laws, discovered, equity,
                                       table_facts):
                    yield render(a)
            else:
                yield from next(done)
            done_file(src)


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


def _render_file(args: tuple[str, str, str, bool, TableFacts | None, Limits]) -> list[Rendered]:
    src, laws, discovered, equity, table_facts, limits = args
    return [render(a) for a in audit_records(read_file(src, limits, _RUN), laws, discovered,
                                             equity, table_facts)]
