"""``revoke-audit audit``: every board of PATHS audited into the reports (boards.csv,
findings.csv, standings, corrections, the page) and the text, JSON, GitHub or SARIF on stdout.

Exit codes: 0 nothing at or above ``--fail-on``; 1 findings at or above it; 2 usage or I/O
error."""
from __future__ import annotations

import io
import os
import sys
from collections import Counter
from contextlib import closing
from typing import Iterator

import click
from click.core import ParameterSource

from ..ruling.options import AuditOptions
from ..reports.baseline import Baseline, BaselineRecorder
from ..core.codes import CODES, FAMILIES, UNSEEN
from ..formats import Limits, iter_sources, missing_paths
from ..laws import AFTER_ROUND, EDITIONS, TABLE
from ..reports.report import (STDOUT, ReportError, Reports, director_line, echo, github_line,
                              json_board, echo_part, silence_stdout, text_line)
from ..reports.field_reports import Deferred
from ..reports.corrections import Corrections
from ..reports.gather import FieldNotes, noted
from ..scoring.rescore import METHODS, Fields
from ..scoring.standings import STANDING_COLUMNS, changes, standings
from ..reports.rows import names_a_board
from ..engine.run import render_sources
from ..reports.selection import ALL, Selection, screen
from .main import ByteSize, FAIL_LEVELS, IOFailure, LIMITS, SettingsError, _codes, _many, _no_clash, _read_log, config_option, main


@main.command()
@click.argument("paths", nargs=-1, required=True)
@config_option
@click.option("-o", "--output", type=click.Path(dir_okay=False),
              help="boards report to write (CSV; Parquet when it ends in .parquet)")
@click.option("--findings", "findings_path", type=click.Path(dir_okay=False),
              help="findings report to write (CSV; Parquet when it ends in .parquet)")
@click.option("--format", "fmt", type=click.Choice(["text", "csv", "json", "jsonl", "github", "sarif"]),
              default="text", show_default=True, help="what goes to stdout")
@click.option("--laws", type=click.Choice(sorted(EDITIONS) + ["auto"]), default="2017",
              show_default=True, help="edition of the Laws to apply; auto: by each board's date")
@click.option("--discovered", type=click.Choice([TABLE.value, AFTER_ROUND.value]),
              default=AFTER_ROUND.value, show_default=True,
              help="when attention was first drawn to the revokes: after-round (an audit of "
                   "records: no automatic transfer, 64B5; 64C review) or table (64A applies); "
                   "the director's log says table for its board (a ^R mark does not: "
                   "producers compute it from the play)")
@click.option("--equity/--no-equity", default=True, show_default=True,
              help="Law 64C figures for boards with an established revoke: the double-dummy par, "
                   "what the revoke itself cost, and the 64C review flag")
@click.option("--jobs", type=click.IntRange(min=0), default=1, show_default=True,
              help="audit files in this many processes, 0 for one per core (output order is "
                   "unchanged)")
@click.option("--engine", type=click.Choice(["local", "dask"]), default="local",
              show_default=True,
              help="dask: audit batches of files as Dask tasks (needs the dask extra); PATHS "
                   "may then be fsspec URLs (s3://, gs://, file://)")
@click.option("--scoring", type=click.Choice(list(METHODS)), default=None,
              help="how each board's field is scored (default: from the record)")
@click.option("--standings", "standings_path", type=click.Path(dir_okay=False),
              help="write the standings before and after the adjustments (CSV; .parquet: "
                   "Parquet)")
@click.option("--victory-points", is_flag=True,
              help="rank a teams event's named teams by Victory Points (WBF continuous scale, "
                   "2013) instead of IMPs")
@click.option("--corrections", "corrections_path", type=click.Path(dir_okay=False),
              help="write the score corrections to enter in the scoring program, one line per "
                   "board whose result a ruling changes (CSV)")
@click.option("--scheduler", metavar="ADDRESS",
              help="with --engine dask: the Dask scheduler to use (default: a local cluster on "
                   "this machine's cores)")
@click.option("--select", multiple=True, callback=_codes, metavar="CODES",
              help="report only these codes or prefixes (RV, RC015, ...; repeat or separate "
                   "with commas); default: all")
@click.option("--extend-select", multiple=True, callback=_codes, metavar="CODES",
              help="codes or prefixes to report in addition to --select")
@click.option("--ignore", multiple=True, callback=_codes, metavar="CODES",
              help="codes or prefixes not to report")
@click.option("--baseline", type=click.Path(dir_okay=False),
              help="report (and fail on) only findings not in this baseline file")
@click.option("--write-baseline", type=click.Path(dir_okay=False),
              help="record the findings of this run in a baseline file (exit code 0)")
@click.option("--statistics", is_flag=True, help="print a count per code instead of each finding")
@click.option("--html", "html_path", type=click.Path(dir_okay=False),
              help="write a page for the director (HTML, self-contained, printable): the "
                   "summary, each irregular board with its deal, play and ruling, the record "
                   "errors")
@click.option("--fail-on", type=click.Choice(list(FAIL_LEVELS)), default="irregular",
              show_default=True, help="which findings make the exit code 1")
@click.option("--exit-zero", is_flag=True, help="exit 0 even when findings are present")
@click.option("-q", "--quiet", is_flag=True, help="no per-finding lines, only the summary")
@click.option("--table-facts", "table_facts", type=click.Path(dir_okay=False),
              help="a director's log (CSV): penalty cards, lead and play restrictions, "
                   "discovery per board")
@click.option("--progress/--no-progress", default=None,
              help="progress bar on stderr (default: when stderr is a terminal)")
@click.option("--max-archive-bytes", type=ByteSize(), default=LIMITS.archive_bytes,
              show_default="2G", help="bytes one archive may expand to (PS012)")
@click.option("--max-run-bytes", type=ByteSize(), default=LIMITS.run_bytes, show_default="32G",
              help="bytes the archives of the whole run may expand to (PS013)")
@click.option("--max-ratio", type=click.IntRange(min=1), default=LIMITS.ratio, show_default=True,
              help="how many times its compressed size a stream may expand (PS014)")
@click.option("--max-archive-boards", type=click.IntRange(min=1), default=LIMITS.archive_boards,
              show_default=True, help="rows read from one archive (PS015)")
def audit(paths, output, findings_path, fmt, laws, discovered, equity, jobs, engine, scoring,
          standings_path, scheduler, select,
          extend_select, ignore, baseline, write_baseline, statistics, fail_on, exit_zero, quiet,
          progress, table_facts, max_archive_bytes, max_run_bytes, max_ratio,
          max_archive_boards, html_path, victory_points, corrections_path) -> None:
    """Audit every board in PATHS (files, folders, .zip, .tar, .gz; - for stdin)."""
    limits = Limits(archive_bytes=max_archive_bytes, run_bytes=max_run_bytes, ratio=max_ratio,
                    archive_boards=max_archive_boards)
    explicit = click.get_current_context().get_parameter_source("fmt") == ParameterSource.COMMANDLINE
    if standings_path == "-":  # stdout holds one document: the summary, JSON or boards.csv
        raise click.UsageError("--standings - would mix the standings into standard output's "
                               "other document: name a file (.csv or .parquet)")
    boards, findings, fmt = _targets(paths, output, findings_path, fmt, explicit)
    if scheduler and engine != "dask":
        raise click.UsageError("--scheduler goes with --engine dask")
    sources = list(_sources(paths, engine))
    _no_clash((("-o", "report", output), ("--findings", "report", findings_path),
               ("--write-baseline", "baseline", write_baseline), ("--html", "page", html_path),
               ("--standings", "report", standings_path),
               ("--corrections", "report", corrections_path)), sources, table_facts, baseline)
    log = _read_log(table_facts)
    options = AuditOptions(laws, discovered, equity, log)
    page = _page(html_path, sources, options, limits, select, ignore, baseline)
    selection = Selection(select or (ALL,), ignore, extend_select)
    known = _load_baseline(baseline)
    recorder = BaselineRecorder() if write_baseline else None
    tally: Counter[str] = Counter()
    codes: Counter[str] = Counter()
    marked = 0  # revokes the record already marks ^R (--fail-on unmarked)
    collected = None
    read = Counter()  # hand records read, before --select and the baseline
    corrections = Corrections()
    # the corrections are listed by the text output, --corrections and the page only: for
    # any other run, gathering them would only hold one item a revoke until the end
    listed = bool(corrections_path or page is not None
                  or (fmt == "text" and not (quiet or statistics)))
    no_board: list[object] = []  # the codes of the rows of sources that gave no board
    bar = _progress(len(sources), quiet, progress)
    try:
        collected = _collector(fmt)
        documents = ([write_baseline] if recorder else []) + ([html_path] if page else [])
        documents += [corrections_path] if corrections_path else []
        fields = Fields(scoring)
        if page is not None:
            page.fields = fields  # scored by the time the page is written
            page.corrections = corrections  # complete by then too
        with Reports(boards, findings, documents,
                     [(standings_path, STANDING_COLUMNS)] if standings_path else []) as reports, \
                closing(fields), closing(render_sources(
                sources, options, jobs, bar.update_file,
                limits, engine, scheduler=scheduler,
                rows=_rows_needed(fmt, boards + findings))) as rendered:
            held = _HELD.get(fmt)  # boards.csv (and a JSON output) wait for their figures
            deferred = Deferred(reports, fields, held)
            for r in screen(noted(fields, _counted(rendered, read)), selection, known, recorder):
                if r.row is not None:  # else the director's log's own findings (no board)
                    if names_a_board(r.row):
                        tally[r.status] += r.boards  # many for a run of clean boards
                    else:  # an empty or skipped file: its row, but no board
                        no_board.append(r.findings[0]["code"] if r.findings else "")
                if r.findings:  # most boards have none: no generators made for them
                    codes.update(str(f["code"]) for f in r.findings)
                    marked += sum(1 for f in r.findings if f.get("marked") is True)
                bar.boards += r.boards
                if listed:
                    corrections.add(r)
                if page is not None:
                    page.add(r)
                if not held:
                    _emit(r, fmt, quiet or statistics, collected)
                deferred.write(r)
            for r in deferred.replay():
                if held:
                    _emit(r, fmt, quiet or statistics, collected)
            _finish_stdout(fmt, collected)
            if statistics and codes:
                echo(statistics_text(codes).rstrip("\n"), err=fmt != "text")
            _summary(tally, codes, fmt, known, no_board)
            _rescored(fields, reports, fmt == "text" and not (quiet or statistics),
                      victory_points)
            if fmt == "text" and not (quiet or statistics) and corrections:
                echo("\n".join(corrections.lines()))
            deferred.commit(([recorder.text()] if recorder else [])
                            + ([page.pieces()] if page is not None else [])
                            + ([corrections.csv_text()] if corrections_path else []))
            if recorder is not None:  # said once it is true
                echo(f"baseline: {_many(recorder.count, 'finding')} written to {write_baseline}",
                     err=fmt != "text")
    except ImportError as exc:  # a .parquet report without pyarrow, the dask engine without Dask
        raise SettingsError(str(exc)) from exc
    except ReportError as exc:
        if exc.target == STDOUT:
            silence_stdout()
        raise IOFailure(str(exc)) from exc
    finally:
        bar.close()
    if not read["records"]:
        raise IOFailure(f"no hand record found in {', '.join(paths)}")
    counted = sum(n for code, n in codes.items() if code[:2] in FAIL_LEVELS[fail_on])
    fail = counted > (marked if fail_on == "unmarked" else 0)
    sys.exit(1 if fail and not exit_zero and not write_baseline else 0)


def _page(path: str | None, sources: list[str], options: AuditOptions, limits: Limits,
          select, ignore, baseline):
    """The director's page of the run (``--html``), or None."""
    if not path:
        return None
    from ..reports.html_page import Page, run_settings

    wanted = [] if select == (ALL,) or not select else list(select)
    return Page(sources, options, run_settings(options, select=wanted, ignore=list(ignore),
                                               baseline=baseline), limits)


def _rows_needed(fmt: str, reports: list[str]) -> bool:
    """Does the run need every cell of a board without findings?  Not when the reports are
    CSV (written from each board's CSV lines) and stdout gets text or annotations, which
    speak only of findings: worker processes then send such boards lean (``run``)."""
    return fmt in ("json", "jsonl", "sarif") or any(
        p.lower().endswith(".parquet") for p in reports)


def _counted(rendered, read: Counter) -> Iterator:
    """``rendered`` as it is, counting the hand records in ``read``: not the placeholder row
    of a source with no board, but a board cut off by the end of its file (PS004) is one."""
    for r in rendered:
        if r.row is not None and (r.status != "unreadable"
                                  or any(f["code"] in UNSEEN for f in r.findings)):
            read["records"] += r.boards
        yield r


def _load_baseline(path: str | None) -> Baseline | None:
    if not path:
        return None
    try:
        return Baseline.load(path)
    except ValueError as exc:
        raise SettingsError(str(exc)) from exc


def _targets(paths, output, findings_path, fmt, explicit) -> tuple[list[str], list[str], str]:
    """Where the reports go, checked before anything is read: (boards targets, findings
    targets, what else goes to stdout).  ``-o -`` (or ``--findings -``) puts that CSV on stdout,
    as ``--format csv`` does for boards; stdout holds one document, so a second is an error."""
    boards = [output] if output else []
    findings = [findings_path] if findings_path else []
    on_stdout = [o for o, p in (("-o -", output), ("--findings -", findings_path)) if p == "-"]
    if on_stdout and explicit and not (fmt == "csv" and on_stdout == ["-o -"]):
        on_stdout.append(f"--format {fmt}")
    if len(on_stdout) > 1:
        raise click.UsageError(f"{' and '.join(on_stdout)} both write to standard output")
    if fmt == "csv" and not on_stdout:
        boards.append("-")
    if "-" in paths and not _stdin_open():
        raise IOFailure("cannot read - (standard input): it is closed")
    for path in missing_paths(p for p in paths if "://" not in p):  # URLs: the Dask engine's
        raise IOFailure(f"cannot read {path}: no such file or folder")
    for path in paths:
        if path != "-" and os.path.isfile(path) and not os.access(path, os.R_OK):
            raise IOFailure(f"cannot read {path}: permission denied")
    return boards, findings, "none" if on_stdout or fmt == "csv" else fmt


def _sources(paths, engine: str) -> list[str]:
    """The files to read, for the progress bar's total; URLs with the Dask engine only."""
    if engine != "dask":
        urls = [p for p in paths if "://" in p]
        if urls:
            raise click.UsageError(f"{urls[0]} is a URL: URLs are read with --engine dask")
        return list(iter_sources(paths))
    from ..engine.dask_engine import MISSING, expand

    try:
        return list(expand(paths))
    except ImportError as exc:  # fsspec, for a URL
        raise SettingsError(MISSING) from exc


def _stdin_open() -> bool:
    """False when the process was started with its standard input closed (``<&-``)."""
    if sys.stdin is None:
        return False
    try:
        fd = sys.stdin.fileno()
    except (AttributeError, ValueError, io.UnsupportedOperation):
        return True  # not a real file (a test runner's buffer): open
    try:
        os.fstat(fd)
    except OSError:
        return False
    return True


class _Bar:
    """The progress bar over files (the total is known up front), with an ETA; or nothing."""

    def __init__(self, total: int, enabled: bool):
        self.boards = 0
        self.tqdm = None
        if enabled:
            from tqdm import tqdm
            self.tqdm = tqdm(total=total, unit=" files", file=sys.stderr, leave=False,
                             dynamic_ncols=True)

    def update_file(self, source: str) -> None:
        if self.tqdm is not None:
            self.tqdm.set_postfix_str(f"{self.boards} boards", refresh=False)
            self.tqdm.update(1)

    def close(self) -> None:
        if self.tqdm is not None:
            self.tqdm.close()


def _progress(total: int, quiet: bool, progress: bool | None) -> _Bar:
    """A bar when asked for (--progress), else when stderr is a terminal and not --quiet."""
    enabled = progress if progress is not None else (not quiet and sys.stderr.isatty())
    return _Bar(total, bool(enabled))


def _emit(r, fmt, quiet, collected) -> None:
    if fmt == "text" and not quiet and isinstance(r, FieldNotes):
        lines = r.summary(text_line)  # one line per event and cause; each board's in findings
        if lines:  # all in the first of these items
            echo("\n".join(lines))
        return
    if fmt == "text" and not quiet:
        for f in r.findings:
            echo(text_line(f))
        if r.status == "irregular":
            echo(director_line(r.row))
    elif fmt == "github":
        for f in r.findings:
            echo(github_line(f))
    elif fmt == "jsonl":
        collected.add(r)
    elif fmt in ("json", "sarif"):
        collected.add(r.row, r.findings)


def _collector(fmt: str):
    """What holds the rows of a JSON document (``--format json``, ``sarif``) or streams JSON
    lines (``jsonl``); None for any other output.  Imported here: a run with another output
    never loads the JSON writers (nor their spools' ``tempfile``)."""
    if fmt not in ("json", "sarif", "jsonl"):
        return None
    from ..reports.streamed_json import JsonLines, JsonSpools

    if fmt == "jsonl":
        return JsonLines(echo_part, echo, json_board)
    return JsonSpools(f"the --format {fmt} document")


def _finish_stdout(fmt, collected: "JsonSpools | JsonLines | None") -> None:
    """The one document of ``--format json`` or ``sarif``, streamed from the spools; the
    last line of ``--format jsonl`` ended."""
    if collected is None:
        return
    if fmt == "jsonl":
        collected.close()
        return
    with collected:
        if fmt == "json":
            from ..reports.streamed_json import placeholder, write_document

            doc = {"boards": placeholder("boards"), "findings": placeholder("findings")}
            write_document(echo_part, doc, {"boards": collected.boards,
                                            "findings": collected.findings}, ensure_ascii=False)
        else:
            from ..reports.sarif import write_sarif  # only for --format sarif

            write_sarif(echo_part, collected.findings)
        echo("")


def statistics_text(codes: Counter[str]) -> str:
    """One line per code found: count, code, title; most frequent first."""
    if not codes:
        return ""
    width = len(str(max(codes.values())))
    ranked = sorted(codes.items(), key=lambda kv: (-kv[1], kv[0]))
    return "".join(f"{n:>{width}}  {code}  {CODES.get(code, '')}\n" for code, n in ranked)


def _summary(tally, codes, fmt, known, no_board: list[object] | None = None) -> None:
    boards = sum(tally.values())
    families = Counter()
    for code, n in codes.items():
        families[FAMILIES[code[:2]].name] += n
    text = (f"{_many(boards, 'board')}: {tally['clean']} clean, {tally['irregular']} irregular, "
            f"{tally['inconsistent']} inconsistent, {tally['unreadable']} unreadable; "
            + ", ".join(_many(families[name], name[:-1]) for name in (
                "revoke findings", "defective tricks", "record errors", "parse problems")))
    if families["notes"]:
        text += f", {_many(families['notes'], 'note')}"
    if tally["unchecked"]:  # nothing found because there was nothing to check: not clean
        text += f"; {_many(tally['unchecked'], 'board')} without play: not checked"
    if no_board:  # rows of files that gave no board: not boards, but not lost either
        text += _no_board_text(no_board)
    if known is not None:
        text += f"; {_many(known.matched, 'finding')} in the baseline not shown"
    echo(text, err=fmt != "text")


#: What the row of a source that gave no board says of it, by its code (else: no board).
_NO_BOARD_WORDS = {"PS001": "that cannot be read", **dict.fromkeys(
    ("PS008", "PS012", "PS013", "PS014", "PS015"), "not read to the end")}


def _no_board_text(no_board: list[object]) -> str:
    """``; 1 file without a board (PS010)``: the rows of sources that gave no board (one code a
    row, empty when --select left it out), by what they say of the source."""
    kinds: dict[str, list[str]] = {}
    for code in no_board:
        kinds.setdefault(_NO_BOARD_WORDS.get(str(code), "without a board"), []).append(str(code))
    text = ""
    for what, codes in kinds.items():
        known = ", ".join(sorted({c for c in codes if c}))
        text += f"; {_many(len(codes), 'file')} {what}" + (f" ({known})" if known else "")
    return text


_HELD = {"json": "the --format json document", "jsonl": "the --format jsonl output"}


def _rescored(fields: Fields, reports: Reports, say: bool, victory_points: bool = False) -> None:
    """The standings to their report; with ``say``, what the adjustments changed (the text
    output ends with it)."""
    if not (reports.tables or say):
        return
    scored = fields.score()
    table = standings(scored, victory_points)
    for report in reports.tables:
        report.write_rows(table)
    lines = list(changes(scored, table)) if say else []
    if lines:
        echo("what the adjustments change:")
        echo("\n".join(lines))
