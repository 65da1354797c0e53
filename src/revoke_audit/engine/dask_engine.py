"""An archive on a cluster: the same run as ``run.render_sources``, with Dask as the engine.

The units of work that worker processes take on one machine (``units.work_units``: batches of
files, parts of a large file) become Dask tasks; their report rows come back in input order, so the reports are the ones a local run
writes.  Sources may be local paths (which the cluster's workers must see at the same place)
or fsspec URLs the workers can read (``file://``, ``s3://``, ``gs://``...): a URL naming a
folder stands for the files in it, walked like a local folder (hidden entries skipped, name
order).  Each task reads its sources under the run's ``Limits``; the limit on the bytes the
whole run may expand (``--max-run-bytes``) applies to each task, not to the run as a whole.

Dask comes with the optional ``dask`` extra (``pip install 'revoke-audit[dask]'``); nothing
here is imported by a local run."""
from __future__ import annotations

import os
import posixpath
from typing import Callable, Iterable, Iterator

from .lane import render_records
from ..formats import (Limits, RunBudget, as_paths, iter_sources, read_file, read_stream,
                      unreadable)
from ..formats.kinds import SUFFIXES
from . import units
from ..ruling.options import AuditOptions
from ..reports.rows import Rendered

MISSING = ("the dask engine needs Dask: install the extra with "
           "pip install 'revoke-audit[dask]'")


def render_on_dask(paths: Iterable[str] | str, options: AuditOptions, limits: Limits, *,
                   client: object = None, scheduler: str | None = None,
                   on_file: Callable[[str], None] | None = None) -> Iterator[Rendered]:
    """Every board under ``paths`` audited as Dask tasks, rendered, in input order.

    ``client``: a ``distributed.Client`` to use; else one connected to ``scheduler`` (an
    address such as ``tcp://10.0.0.5:8786``); else a local cluster on this machine's cores,
    closed at the end.  ImportError (with what to install) when Dask is missing."""

    try:
        from distributed import Client, LocalCluster
    except ImportError as exc:
        raise ImportError(MISSING) from exc
    sources = list(expand(paths))
    owned = None
    if client is None:
        owned = Client(scheduler) if scheduler else Client(LocalCluster(threads_per_worker=1))
        client = owned
    try:
        plan = units.work_units(sources, _cores(client), limits)
        work = [u for u in plan if u != units.STDIN]
        futures = iter(client.map(render_unit, work, options=options, limits=limits,
                                  pure=False))
        for unit in plan:
            if unit == units.STDIN:  # standard input is this process's: read here, in its place
                yield from render_records(read_file("-", limits, plain=True), options)
                if on_file is not None:
                    on_file("-")
                continue
            future = next(futures)
            for source, rows, last in future.result():
                yield from rows
                if last and on_file is not None:
                    on_file(source)
            future.release()
    finally:
        if owned is not None:
            cluster = owned.cluster
            owned.close()
            if cluster is not None:
                cluster.close()


def render_unit(unit: tuple, options: AuditOptions, limits: Limits
                ) -> list[tuple[str, list[Rendered], bool]]:
    """A Dask task: a unit of work of ``run.work_units`` (a batch of files, or a part of a
    large file) audited and rendered, as ``(source, rows, last)`` for each source in it."""
    return units.render_unit(unit, options, limits, RunBudget(limits.run_bytes), read=_read)


def expand(paths: Iterable[str] | str) -> Iterator[str]:
    """The sources ``paths`` stand for: local paths as ``formats.iter_sources`` gives them,
    ``file://`` URLs as their local paths, other URLs as the files under them."""
    local: list[str] = []
    for path in as_paths(paths):
        if path.startswith("file://"):
            local.append(_local_path(path))
        elif _is_url(path):
            yield from iter_sources(local)
            local = []
            yield from _remote_files(path)
        else:
            local.append(path)
    yield from iter_sources(local)


def _remote_files(url: str) -> Iterator[str]:
    """The files under a URL (itself when it names a file), in name order, hidden ones out."""
    import fsspec

    fs, root = fsspec.core.url_to_fs(url)
    if not fs.isdir(root):
        yield url
        return
    protocol = url.split("://", 1)[0]
    found = [f for f in fs.find(root) if not any(part.startswith(".") for part in
                                                 posixpath.relpath(f, root).split("/"))]
    wanted = [f for f in sorted(found) if f.lower().endswith(SUFFIXES)]
    yield from (f"{protocol}://{f}" for f in wanted) if wanted else [url]


def _read(source: str, limits: Limits, run: RunBudget, plain: bool = False):
    if not _is_url(source):
        yield from read_file(source, limits, run, plain)
        return
    import fsspec

    try:
        fh = fsspec.open(source, "rb").open()
    except (OSError, ValueError) as exc:
        yield unreadable(source, "PS001", f"cannot read file: {exc}")
        return
    with fh:
        yield from read_stream(fh, source, posixpath.basename(source), limits, plain)


def _is_url(path: str) -> bool:
    return "://" in path


def _local_path(url: str) -> str:
    from urllib.parse import unquote, urlparse

    return unquote(urlparse(url).path) or os.sep


def _cores(client: object) -> int:
    """The cluster's threads, to size the batches (one machine's worth when unknown)."""
    try:
        return max(1, sum(client.nthreads().values()))  # type: ignore[attr-defined]
    except Exception:  # noqa: BLE001 - only a sizing hint
        return os.cpu_count() or 1
