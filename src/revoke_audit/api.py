"""The library's API over the run: ``audit_paths`` and its ``AuditResult`` (exported by the
package, ``revoke_audit.audit_paths``)."""
from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Iterable, Sequence

from .reports.baseline import Baseline
from .formats import Limits, as_paths, iter_sources
from .ruling.options import AuditOptions
from .reports.selection import Selection
from .laws.table_facts import TableFacts, read_table_facts


@dataclass
class AuditResult:
    boards: "object"  # pandas.DataFrame
    findings: "object"  # pandas.DataFrame
    standings: "object" = None  # pandas.DataFrame: each event's pairs before and after


def audit_paths(paths: Iterable[str | os.PathLike], laws: str = "2017",
                discovered: str = "after-round", equity: bool = True, jobs: int = 1, *,
                select: Sequence[str] | None = None,
                ignore: Sequence[str] | None = None, extend_select: Sequence[str] | None = None,
                baseline: str | os.PathLike | None = None,
                table_facts: "str | os.PathLike | TableFacts | None" = None,
                limits: Limits | None = None, engine: str = "local",
                client: object = None, html: str | os.PathLike | None = None,
                scoring: str | None = None) -> AuditResult:
    """Audit every board under ``paths``; typed DataFrames with the report columns.

    ``jobs``: processes (0: one per core).  ``select`` / ``ignore`` / ``extend_select``: codes
    or prefixes (``"RV"``, ``"RC015"``), as ``--select`` on the command line.  ``baseline``: a
    file written by ``--write-baseline``; findings in it are left out.  ValueError for an
    unknown ``laws``, ``discovered``, code or prefix, or an unreadable baseline.  ``table_facts``:
    a director's log (a path, or ``read_table_facts``' result); a malformed one raises
    ``TableFactsError`` (a ``ValueError``) before anything is audited.  ``limits``:
    ``formats.Limits``, the limits against archive bombs (``--max-ratio`` and the like).
    ``engine="dask"``: audit on a Dask cluster (the ``dask`` extra): ``client``, a
    ``distributed.Client``, or a local cluster started for the run; paths may be fsspec URLs.
    ``html``: also write the director's page there (``revoke-audit audit --html``); ValueError
    when it names an input or the baseline.  ``scoring``: how every board's field is scored
    (``mp``, ``cross-imp``, ``butler``, ``teams``), as ``--scoring``; default: from each
    board's record."""
    from .reports.frames import frame_of
    from .reports.rows import BOARD_COLUMNS, FIELD_COLUMNS, FINDING_COLUMNS
    from .reports.gather import noted
    from .scoring.rescore import Fields
    from .scoring.standings import STANDING_COLUMNS, standings
    from .engine.run import render_sources
    from .reports.selection import screen

    select, ignore, extend_select = (_codes(name, value) for name, value in (
        ("select", select), ("ignore", ignore), ("extend_select", extend_select)))
    _jobs(jobs)
    options = AuditOptions(laws, discovered, equity, _log(table_facts))
    selection = Selection.of(select, ignore, extend_select)
    known = Baseline.load(baseline) if baseline is not None else None
    fields = Fields(scoring)  # before anything is audited: an unknown method is a ValueError
    boards, findings = [], []
    paths = as_paths(paths)
    page = _page(html, paths, options, limits, engine, select, ignore, baseline)
    if page is not None:
        page.fields = fields  # scored by the time the page is written
    rendered = render_sources(paths, options, jobs, limits=limits, engine=engine, client=client)
    for r in screen(noted(fields, rendered), selection, known):
        if r.row is not None:
            boards.append(r.row)
        findings.extend(r.findings)
        if page is not None:
            page.add(r)
    if page is not None:
        from .reports.html_page import write_page

        write_page(os.fspath(html), page.pieces())
    with fields:  # what waited on disk removed once read
        for ordinal, cells in fields.score().figures.items():
            boards[ordinal].update(zip(FIELD_COLUMNS, cells))
        return AuditResult(frame_of(boards, BOARD_COLUMNS), frame_of(findings, FINDING_COLUMNS),
                           frame_of(standings(fields.score()), STANDING_COLUMNS))


def _page(html, paths: list[str], options: AuditOptions, limits: Limits | None, engine: str,
          select, ignore, baseline):
    """The director's page of the run (``html=``), or None; ValueError when its file is one
    the run reads."""
    if html is None:
        return None
    from .reports.html_page import Page, run_settings
    from .reports.targets import Input, Output, clash

    sources = list(iter_sources(paths)) if engine == "local" else paths
    inputs = [Input("an input", s) for s in sources if s != "-" and "://" not in s]
    inputs += [Input(role, os.fspath(p)) for role, p in (
        ("the baseline", baseline), ("the director's log", options.table_facts
                                     and options.table_facts.path)) if p]
    message = clash([Output("html=", "page", os.fspath(html))], inputs)
    if message:
        raise ValueError(message)
    settings = run_settings(options, select=list(select or ()), ignore=list(ignore or ()),
                            baseline=os.fspath(baseline) if baseline is not None else None)
    return Page(sources, options, settings, limits)


def _log(table_facts: "str | os.PathLike | TableFacts | None") -> TableFacts | None:
    if table_facts is None or isinstance(table_facts, TableFacts):
        return table_facts
    return read_table_facts(table_facts)


def _codes(name: str, value: "str | Sequence[str] | None") -> tuple[str, ...] | None:
    """Codes or prefixes as a tuple: one string is one code or prefix (``"RV"``), never its
    letters; anything that is not text is a ValueError naming the argument."""
    if value is None:
        return None
    items = (value,) if isinstance(value, str) else value
    try:
        items = tuple(items)
    except TypeError:
        raise ValueError(f"{name}: expected codes or prefixes (a string or a list of them), "
                         f"not {value!r}") from None
    wrong = [v for v in items if not isinstance(v, str)]
    if wrong:
        raise ValueError(f"{name}: {wrong[0]!r} is not a code or prefix (a string)")
    return items


def _jobs(jobs: object) -> None:
    """``jobs`` must be a whole number, 0 (one per core) or more: a ValueError naming it."""
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 0:
        raise ValueError(f"jobs={jobs!r}: expected a whole number of processes, 0 (one per "
                         "core) or more")
