"""Units of work for worker processes and Dask tasks: batches of whole files of about the
same size, and parts of a large PBN or LIN file (``formats.parts``), in input order; and the audit of
one unit, rendered as report rows."""
from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Callable

from .lane import render_records
from ..formats import Limits, RunBudget, read_file
from ..ruling.options import AuditOptions
from ..core.record import BoardRecord
from ..replay.coherence import NEIGHBOURS
from ..reports.rows import Rendered

if TYPE_CHECKING:
    from ..formats.parts import Part

STDIN = ("stdin",)
PART_GAMES = 5000  # games of a large file in one unit of work (a quarter of that in the
# last ``jobs`` parts' worth of games, so that the processes finish together: ``parts.cut``)
PART_MIN_BYTES = 4 << 20  # smaller files are not worth splitting
# a larger file not split is read by the parent (``work_units(here=True)``): a worker would
# hold all of its rows, and send them at once (8.7 times the file's size, in the parent too)
PARENT_BYTES = 8 << 20


def work_units(sources: list[str], jobs: int, limits: Limits, checked: bool = True,
               whole: frozenset[str] = frozenset(), here: bool = False) -> list[tuple]:
    """The run's units of work, in input order: ``("files", [path, ...])`` a batch of whole
    files (``batches``), ``("part", formats.parts.Part, last)`` a part of a large PBN or LIN file
    (``formats.parts``), ``STDIN``, read by the parent.  ``checked=False``: large files are
    ``cut`` into parts without ``splittable``'s check, which the caller must then make
    (``split_sizes``) before it uses their rows; files in ``whole`` are not split.  ``here``:
    a file of more than ``PARENT_BYTES`` not split is ``("here", path)``, for the parent to
    read (its rows streamed as it reads them)."""
    units: list[tuple] = []
    pending: list[str] = []
    from ..formats.parts import cut, plan  # here: a run of one process never needs its scans

    parts_of = plan if checked else cut

    def flush() -> None:
        units.extend(("files", batch) for batch in batches(pending, jobs))
        pending.clear()

    for src in sources:
        size = _size(src) if src != "-" else 0
        split = (parts_of(src, PART_GAMES, limits.member_bytes, NEIGHBOURS, jobs)
                 if src != "-" and src not in whole and size >= PART_MIN_BYTES else None)
        if src == "-" or split or (here and size > PARENT_BYTES):
            flush()
            units.extend([STDIN] if src == "-" else [("here", src)] if not split else
                         [("part", p, i == len(split) - 1) for i, p in enumerate(split)])
        else:
            pending.append(src)
    flush()
    return units


def first_units(sources: list[str], jobs: int, limits: Limits) -> list[tuple]:
    """The first units of work ``work_units`` is expected to give when the run starts with a
    large file: its first parts, one per process, found from its first bytes alone
    (``parts.head``), so that the processes start on them before the file is cut.  A guess:
    the caller uses them only when ``work_units`` gives the same units first."""
    from ..formats.parts import head

    if not sources or sources[0] == "-" or _size(sources[0]) < PART_MIN_BYTES:
        return []
    parts = head(sources[0], PART_GAMES, limits.member_bytes, NEIGHBOURS, jobs, jobs)
    return [("part", part, False) for part in parts]


def processes_wanted(sources: list[str], jobs: int) -> int:
    """How many of ``jobs`` processes the run can use: one per file at most, unless a file is
    large enough to be split."""
    if len(sources) >= jobs or any(_size(src) >= PART_MIN_BYTES for src in sources if src != "-"):
        return jobs
    return len(sources)


def split_sizes(units: list[tuple]) -> dict[str, int]:
    """The files that ``units`` split into parts, in order, each with its size when it was
    cut (the end of its last part)."""
    sizes: dict[str, int] = {}
    for unit in units:
        if unit[0] == "part":
            sizes[unit[1].path] = max(unit[1].end, sizes.get(unit[1].path, 0))
    return sizes


BATCH_BYTES = (256 << 10, 8 << 20)  # the bounds of a unit of work's size, in bytes of files
# units of work per process, so that the processes finish together (the last unit to start
# holds back the end of the run): 32 on the archive slice's 2,204 files, 4.20 -> 4.08 s
BATCHES_PER_JOB = 32


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


def render_unit(unit: tuple, options: AuditOptions, limits: Limits,
                run: RunBudget | None = None, read: Callable = read_file, runs: bool = False
                ) -> list[tuple[str, list[Rendered], bool]]:
    """A unit of work audited and rendered, as ``(source, rows, last)`` for each source it
    holds (``last``: the source's last rows).  ``read(source, limits, run)`` reads a whole
    file (the Dask engine's also reads URLs).  ``runs``: as for ``lane.render_records``."""
    if unit[0] == "part":
        part, last = unit[1], unit[2]
        return [(part.path, render_part(part, options, runs), last)]
    return [(src, list(render_records(read(src, limits, run, plain=True), options, runs=runs)),
             True) for src in unit[1]]


def render_part(part: Part, options: AuditOptions, runs: bool = False) -> list[Rendered]:
    """The games of a part of a file audited and rendered; its context games (read before and
    after it) serve only as neighbours.  The last part's games go on to the file's end as it
    is when read (``read_part``)."""
    from ..formats.parts import read_part

    keep = range(part.skip, part.skip + part.count if not part.last else sys.maxsize)
    short: list[BoardRecord] = []  # a row for its games not read, if the file is now shorter
    rows = list(render_records(read_part(part, True, short.append), options, keep, runs))
    return rows + list(render_records(short, options))
