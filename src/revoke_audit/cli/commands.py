"""The ``revoke-audit`` command: a thin click layer over the library.

Exit codes: 0 nothing at or above ``--fail-on``; 1 findings at or above it; 2 usage or I/O
error.  Only this module decides exit codes."""
from __future__ import annotations

import io
import json
import importlib.util
import os
import signal
import sys
from collections import Counter
from concurrent.futures.process import BrokenProcessPool
from contextlib import closing, contextmanager
from typing import Iterator

import click
from click.core import ParameterSource

from ..ruling.audit import audit_board
from ..ruling.options import AuditOptions
from ..reports.baseline import Baseline, BaselineRecorder
from ..core.codes import CODES, FAMILIES, UNSEEN, families_at
from .config import ConfigError, find_config, read_config, shown
from .console import steady_stderr
from ..formats import Limits, iter_sources, missing_paths
from ..laws import AFTER_ROUND, EDITIONS, TABLE
from ..reports.report import (STDOUT, ReportError, Reports, director_line, echo, github_line, json_board, echo_part,
                     silence_stdout, text_line)
from ..reports.field_reports import Deferred
from ..reports.corrections import Corrections
from ..scoring.rescore import METHODS, FieldNotes, Fields
from ..scoring.standings import STANDING_COLUMNS, changes, standings
from ..reports.rows import names_a_board
from ..engine.run import render_sources
from ..reports.sarif import write_sarif
from ..reports.targets import Input, Output, clash, inside
from ..reports.streamed_json import JsonSpools, placeholder, write_document
from ..reports.selection import ALL, Selection, check_prefixes, screen
from ..laws.table_facts import TableFacts, TableFactsError, read_table_facts

class IOFailure(click.ClickException):
    """A report that cannot be written, or a closed stdin: exit code 2, like a usage error."""

    exit_code = 2


class LogFailure(click.ClickException):
    """A director's log (``--table-facts``) that cannot be read or is malformed: exit code 2,
    one line with the file and line."""

    exit_code = 2


def _read_log(path: str | None) -> TableFacts | None:
    if path is None:
        return None
    try:
        return read_table_facts(path)
    except TableFactsError as exc:
        raise LogFailure(str(exc)) from exc


class SettingsError(click.ClickException):
    """A settings or baseline file that cannot be used: exit code 2, one line, no usage text."""

    exit_code = 2


class Interrupted(BaseException):
    """SIGINT or SIGTERM arrived: unwind (temp files removed, workers ended), then exit
    128 + the signal's number, as a shell reports a process a signal stopped.  ``last``: the
    number of the last one (for a wait that turns any signal into ``KeyboardInterrupt``)."""

    last: int | None = None

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum


@contextmanager
def exit_on_signals() -> Iterator[None]:
    """SIGINT exits 130 and SIGTERM 143 (not click's "Aborted!" and 1, the code for findings),
    after every ``finally`` on the way out has run."""
    def stop(signum, _frame):
        for s in (signal.SIGINT, signal.SIGTERM):  # a second signal must not cut the cleanup
            signal.signal(s, signal.SIG_IGN)
        Interrupted.last = signum
        raise Interrupted(signum)

    try:
        old = {s: signal.signal(s, stop) for s in (signal.SIGINT, signal.SIGTERM)}
    except ValueError:  # not the main thread (an embedding application): leave signals alone
        yield
        return
    try:
        yield
    except Interrupted as exc:
        echo(f"revoke-audit: stopped by {signal.Signals(exc.signum).name}; no report written",
             err=True)
        raise SystemExit(128 + exc.signum) from None
    finally:
        for s, handler in old.items():
            signal.signal(s, signal.SIG_DFL if handler is None else handler)


class _Main(click.Group):
    def main(self, *args, **kwargs):
        """The command, with a stderr that cannot fail it (``console.steady_stderr``)."""
        before = steady_stderr()
        try:
            return super().main(*args, **kwargs)
        finally:
            sys.stderr.flush()
            sys.stderr = before

    def invoke(self, ctx: click.Context):
        with exit_on_signals():
            try:
                return super().invoke(ctx)
            except (click.exceptions.ClickException, click.exceptions.Exit,
                    click.exceptions.Abort):
                raise
            except BrokenProcessPool:  # killed from outside (out of memory, a kill -9)
                echo("revoke-audit: a worker process ended abruptly (killed, or out of memory); "
                     "no report written", err=True)
                raise SystemExit(2) from None
            except Exception as exc:  # a bug: one line for the user, never a traceback
                echo(f"revoke-audit: internal error ({type(exc).__name__}: {exc}); please "
                     "report it", err=True)
                raise SystemExit(2) from None


class ByteSize(click.ParamType):
    """A size in bytes: ``1048576``, ``512M``, ``2G`` (binary units; ``K`` and ``KiB`` alike)."""

    name = "size"
    _SHIFT = {"": 0, "K": 10, "M": 20, "G": 30, "T": 40}

    def convert(self, value, param, ctx) -> int:
        if isinstance(value, int) and not isinstance(value, bool):
            text = str(value)
        else:
            text = str(value).strip().upper().removesuffix("B").removesuffix("I")
        unit = text[-1:] if text[-1:] in self._SHIFT else ""
        number = text[:len(text) - len(unit)]
        if not number.isdigit() or int(number) < 1:
            self.fail(f"{value!r} is not a size (like 2G, 512M or a number of bytes)", param, ctx)
        return int(number) << self._SHIFT[unit]


LIMITS = Limits()
FAIL_LEVELS = {"irregular": families_at("irregular"), "unmarked": families_at("irregular"),
               "inconsistent": families_at("inconsistent"), "any": families_at("parse"),
               "none": ()}
#: Options a settings file may set (as ``fail-on = "inconsistent"``); the rest are per run.
CONFIG_KEYS = ("laws", "discovered", "equity", "jobs", "engine", "scheduler", "fail-on",
               "exit-zero", "format", "quiet", "select", "ignore", "extend-select", "statistics", "baseline", "progress",
               "table-facts", "max-archive-bytes", "max-run-bytes", "max-ratio",
               "max-archive-boards")


@click.group(cls=_Main, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="revoke-audit")
def main() -> None:
    """Find uncaught revokes and defective tricks in PBN/LIN hand records and apply the Laws.

    Option defaults may be set in a [tool.revoke-audit] table of the nearest pyproject.toml
    (this folder or one above it), or in a file given with --config; the command line wins."""


_CONFIG = "revoke_audit.cli.config"


def _load_config(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """Eager: read the settings file and make its values the defaults of the other options."""
    try:
        path = value or find_config(os.getcwd())
        if path is None:
            return value
        ctx.meta[_CONFIG] = path  # an input no output may overwrite
        table = read_config(path)
    except ConfigError as exc:
        raise SettingsError(str(exc)) from exc
    defaults = {}
    for key, raw in table.items():
        if key not in CONFIG_KEYS:
            raise SettingsError(f"{shown(path)}: unknown key '{key}' in the settings; known "
                                   f"keys: {', '.join(CONFIG_KEYS)}")
        option = _option_for(ctx.command, key)
        if option is not None and option.name:  # else a key for another command
            defaults[option.name] = _config_value(ctx, option, key, raw, path)
    ctx.default_map = {**defaults, **(ctx.default_map or {})}
    return value


def _option_for(command: click.Command, key: str) -> click.Option | None:
    """The option of ``command`` a settings key names (``fail-on`` is ``--fail-on``)."""
    return next((p for p in command.params if isinstance(p, click.Option)
                 and f"--{key}" in p.opts + p.secondary_opts), None)


def _config_value(ctx: click.Context, option: click.Option, key: str, raw: object, path) -> object:
    """``raw`` checked as the option checks its own values; errors name the file and key."""
    try:
        if option.multiple and not isinstance(raw, list):
            raise click.BadParameter(f"expected a list, like {key} = [\"RV\", \"RC015\"]")
        wrong = _wrong_toml_type(option, raw)
        if wrong:
            shown_raw = repr(raw) if isinstance(raw, float) else json.dumps(raw, default=str)
            raise click.BadParameter(f"{shown_raw} is not {wrong}")
        value = option.type_cast_value(ctx, raw)
        if option.callback is not None:
            value = option.callback(ctx, option, value)
    except click.BadParameter as exc:
        raise SettingsError(f"{shown(path)}: bad value for '{key}': {exc.message}") from exc
    if key in ("baseline", "table-facts") and value:  # a path there is relative to that file
        value = os.path.join(os.path.dirname(os.path.abspath(path)), str(value))
    return value


def _wrong_toml_type(option: click.Option, raw: object) -> str | None:
    """What a settings value of the wrong TOML type should have been (``true or false``),
    or None: click's own checks take strings and numbers, not lists, tables or infinity."""
    kind = option.type
    if option.is_flag or isinstance(kind, click.types.BoolParamType):
        return None if isinstance(raw, (bool, str)) else "true or false"  # click reads "yes"
    if option.multiple:
        ok = all(isinstance(item, str) for item in raw)  # type: ignore[union-attr]
        return None if ok else "a list of codes in quotes"
    if isinstance(kind, click.Path):
        return None if isinstance(raw, str) else "a file name in quotes"
    if isinstance(raw, (list, dict)):
        return "a single value"
    if isinstance(kind, click.types.IntParamType):
        ok = isinstance(raw, str) or isinstance(raw, int) and not isinstance(raw, bool)
        return None if ok else "a whole number"
    return None


config_option = click.option(
    "--config", type=click.Path(dir_okay=False), is_eager=True, expose_value=False,
    callback=_load_config,
    help="settings file (default: [tool.revoke-audit] in the nearest pyproject.toml)")


def _codes(ctx: click.Context, param: click.Parameter, value) -> tuple[str, ...]:
    """Codes or prefixes, repeated or comma-separated, checked against the registry."""
    items = [part for v in value or () for part in str(v).split(",") if part.strip()]
    try:
        return check_prefixes(items)
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from exc


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
    no_board: list[object] = []  # the codes of the rows of sources that gave no board
    bar = _progress(len(sources), quiet, progress)
    try:
        if fmt in ("json", "sarif"):
            collected = JsonSpools(f"the --format {fmt} document")
        documents = ([write_baseline] if recorder else []) + ([html_path] if page else [])
        documents += [corrections_path] if corrections_path else []
        fields = Fields(scoring)
        if page is not None:
            page.fields = fields  # scored by the time the page is written
            page.corrections = corrections  # complete by then too
        with Reports(boards, findings, documents,
                     [(standings_path, STANDING_COLUMNS)] if standings_path else []) as reports, \
                closing(render_sources(
                sources, options, jobs, bar.update_file,
                limits, engine, scheduler=scheduler,
                rows=_rows_needed(fmt, boards + findings))) as rendered:
            held = _HELD.get(fmt)  # boards.csv (and a JSON output) wait for their figures
            deferred = Deferred(reports, fields, held)
            for r in screen(fields.noted(_counted(rendered, read)), selection, known, recorder):
                if r.row is not None:  # else the director's log's own findings (no board)
                    if names_a_board(r.row):
                        tally[r.status] += r.boards  # many for a run of clean boards
                    else:  # an empty or skipped file: its row, but no board
                        no_board.append(r.findings[0]["code"] if r.findings else "")
                if r.findings:  # most boards have none: no generators made for them
                    codes.update(str(f["code"]) for f in r.findings)
                    marked += sum(1 for f in r.findings if f.get("marked") is True)
                bar.boards += r.boards
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


def _no_clash(outputs, sources: list[str], log: str | None, baseline: str | None) -> None:
    """A usage error when an output (option, kind, path) names another or any file the run
    reads: the sources, the director's log, the baseline (``--write-baseline`` may replace
    it: it is read whole first), the settings file."""
    config = click.get_current_context().meta.get(_CONFIG)
    named = [Input("the director's log (--table-facts)", log),
             Input("the baseline (--baseline)", baseline, "--write-baseline"),
             Input("the settings file", config and os.fspath(config))]
    inputs = [i for i in named if i.path] + [Input("an input", s) for s in sources
                                             if s != "-" and "://" not in s]
    message = clash([Output(*o) for o in outputs if o[2] and o[2] != "-"], inputs)
    if message:
        raise click.UsageError(message)


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
        echo("\n".join(r.summary(text_line)))  # one line per event and cause; each board's in findings
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
        echo(json_board(r))
    elif fmt in ("json", "sarif"):
        collected.add(r.row, r.findings)


def _finish_stdout(fmt, collected: "JsonSpools | None") -> None:
    """The one document of ``--format json`` or ``sarif``, streamed from the spools."""
    if collected is None:
        return
    with collected:
        if fmt == "json":
            doc = {"boards": placeholder("boards"), "findings": placeholder("findings")}
            write_document(echo_part, doc, {"boards": collected.boards,
                                            "findings": collected.findings}, ensure_ascii=False)
        else:
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


def _many(n: int, thing: str) -> str:
    """``1 board``, ``2 boards``: a count as a sentence says it."""
    return f"{n} {thing}" if n == 1 else f"{n} {thing}s"


class SelectionError(click.ClickException):
    """No board, or several, match the selection given to ``explain``: exit code 2."""

    exit_code = 2


@main.command()
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@config_option
@click.option("--board", help="board number, as the record gives it")
@click.option("--room", type=click.Choice(["open", "closed"], case_sensitive=False),
              help="vugraph room, when the file has both")
@click.option("--game", type=click.IntRange(min=1), help="1-based index of the board in FILE")
@click.option("--round", "round_", help="the record's Round tag, when a file holds several rounds")
@click.option("--table", help="the record's Table tag")
@click.option("--teams", help="a team in the record's HomeTeam or VisitTeam tag (any case)")
@click.option("--laws", type=click.Choice(sorted(EDITIONS) + ["auto"]), default="2017",
              show_default=True, help="edition of the Laws to apply; auto: by the board's date")
@click.option("--discovered", type=click.Choice([TABLE.value, AFTER_ROUND.value]),
              default=AFTER_ROUND.value, show_default=True,
              help="after-round: the revoke was noticed after the round (64B5); table: 64A")
@click.option("--table-facts", "table_facts", type=click.Path(dir_okay=False),
              help="a director's log (CSV): what bound each player, trick by trick")
@click.option("--html", "html_path", type=click.Path(dir_okay=False),
              help="also write the board as a page for the director (HTML, printable)")
def explain(file, board, room, game, round_, table, teams, laws, discovered, table_facts,
            html_path) -> None:
    """Explain one board of FILE: the deal, the play trick by trick, the ruling, and the
    board's field before and after when FILE holds other tables of it."""
    from ..reports.explain import describe, explain_text, field_of, first_boards

    if html_path:
        _no_clash((("--html", "page", html_path),), [file], table_facts, None)
    log = _read_log(table_facts)

    # 20 listed at most: the records beyond are counted, not kept (a file of any size)
    matches, count, first, total = first_boards([file], 20, board, room, game, round_, table,
                                                teams)
    if count != 1:
        wanted = ", ".join(f"{k} {v}" for k, v in (
            ("board", board), ("room", room), ("game", game), ("round", round_),
            ("table", table), ("teams", teams)) if v is not None)
        if matches:
            found = f"{count} boards match {wanted}" if wanted else \
                f"{file} has {count} boards"
            head = (f"{found}; choose one with --board, --room, --game, --round, --table or "
                    "--teams:")
        else:
            head = f"no board in {file} matches {wanted}; the file has:"
            matches, count = first, total
        listed = [describe(r) for r in matches[:20]] or ["no board"]
        more = [f"... and {count - 20} more"] if count > 20 else []
        raise SelectionError("\n  ".join([head] + listed + more))
    options = AuditOptions(laws, discovered, table_facts=log)
    audited = audit_board(matches[0], options)
    field = field_of(file, audited, options) if file != "-" else None  # stdin is read
    try:
        echo(explain_text(audited, field).removesuffix("\n"))
    except ReportError as exc:  # stdout full or closed: one line, exit 2
        silence_stdout()
        raise IOFailure(str(exc)) from exc
    if html_path:
        from ..reports.html_page import board_page, write_page

        try:
            write_page(html_path, board_page(audited, field))
        except ReportError as exc:
            raise IOFailure(str(exc)) from exc


@main.command()
@click.argument("paths", nargs=-1, required=True)
@click.option("--write", is_flag=True,
              help="change the files in place (each replaced whole); archives are never rewritten")
def fix(paths, write) -> None:
    """Mend record errors that have exactly one proven repair (rotated hands, another board's
    deal, a PBN play table in time order, a LIN card missing or doubled).

    Prints a unified diff and exits 1 when there is something to mend; with --write, changes
    the files (exit 0 once every change is written; a file changed since it was read, or with
    hard links, is left: exit 1).  Boards and files left untouched are listed on stderr with
    the reason."""
    from ..ruling.repair import plan_paths
    from ..core.visible import visible

    if "-" in paths:  # nothing could be written back
        raise click.UsageError("fix mends files: standard input (-) cannot be mended; save the "
                               "record to a file and fix that")
    missing = missing_paths(paths)
    if missing:
        raise IOFailure(f"no such file or folder: {visible(missing[0])}")
    pending = mended = 0
    for plan in plan_paths(paths):
        if plan.left:
            _fix_say(f"{visible(plan.file)}: left untouched: {visible(plan.left)}")
        for r in plan.repairs:
            where = f"{visible(r.file)}:{r.line}: board {visible(r.board) or '?'}" + (
                f" ({visible(r.room)})" if r.room else "")
            if r.mended:
                _fix_say(f"{where}: {r.what}: {visible(r.description)}")
            else:
                _fix_say(f"{where}: left untouched: {visible(r.reason)}")
        if plan.mended is None:
            continue
        if write and not plan.archive:
            if _rewrite(plan.file, plan.original, plan.mended):
                mended += 1
            else:
                pending += 1
            continue
        if write:
            _fix_say(f"{visible(plan.file)}: inside an archive, never rewritten; the change:")
        _fix_out(plan.diff(visible))
        pending += 1
    done = f"{mended} file{'s' if mended != 1 else ''} mended"
    _fix_say(f"{done}, {pending} with something to mend" if write or mended else
             f"{pending} file{'s' if pending != 1 else ''} with something to mend "
             "(--write to mend)")
    sys.exit(1 if pending else 0)


def _fix_say(line: str) -> None:
    """A line of ``fix`` to stderr (already escaped)."""
    echo(line, err=True)


def _fix_out(text: str) -> None:
    """The diff to stdout; a full or closed stdout is an I/O failure (exit 2), never a diff
    lost in silence."""
    try:
        echo_part(text)
        sys.stdout.flush()
    except (ReportError, OSError) as exc:
        raise IOFailure(str(exc) if isinstance(exc, ReportError) else
                        f"cannot write {STDOUT}: {exc.strerror or exc}") from exc


def _rewrite(path: str, original: bytes, data: bytes) -> bool:
    """``path`` replaced by its mended bytes (``rewrite.rewrite``); False, with the reason on
    stderr, when it is left as it is (changed since it was read, hard links, an owner that
    cannot be kept)."""
    from ..reports.rewrite import Left, rewrite
    from ..core.visible import visible

    try:
        rewrite(path, original, data)
    except Left as why:
        _fix_say(f"{visible(path)}: not mended: {why}")
        return False
    except ReportError as exc:
        raise IOFailure(visible(str(exc))) from exc
    except OSError as exc:
        raise IOFailure(f"cannot write {visible(path)}: {exc.strerror or exc}") from exc
    return True


@main.command()
@click.argument("paths", nargs=-1, required=True)
@config_option
@click.option("--jsonl", "jsonl", type=click.Path(dir_okay=False, allow_dash=True),
              help="also write one JSON object per announcement to this file (- for stdout)")
@click.option("--since-start", is_flag=True,
              help="announce only what changes after the watch begins")
@click.option("--idle", type=click.FloatRange(min=0, min_open=True), metavar="SECONDS",
              help="stop after this many seconds without a change (default: run until Ctrl-C)")
@click.option("--poll", type=click.FloatRange(min=0.01), metavar="SECONDS",
              help="poll the files this often instead of waiting for the system's file events "
                   "(network filesystems, where the events do not arrive)")
@click.option("--round-minutes", type=click.FloatRange(min=0), default=15.0, show_default=True,
              help="a board's round ends this long after its record is complete (or when the "
                   "same table begins its next board)")
@click.option("--laws", type=click.Choice(sorted(EDITIONS) + ["auto"]), default="2017",
              show_default=True, help="edition of the Laws to apply; auto: by each board's date")
@click.option("--equity/--no-equity", default=True, show_default=True,
              help="Law 64C figures for boards with an established revoke")
@click.option("--table-facts", "table_facts", type=click.Path(dir_okay=False),
              help="a director's log (CSV), as for audit")
@click.option("--html", "html_path", type=click.Path(dir_okay=False),
              help="keep the director's page (as audit --html writes it) up to date: rewritten "
                   "after each burst of changes that announced something")
def watch(paths, jsonl, since_start, idle, poll, round_minutes, laws, equity, table_facts,
          html_path) -> None:
    """Follow PATHS (files or folders) as they are written and announce each finding once,
    when it first appears, again when what its ruling transfers changes, and when a corrected
    record withdraws it.  A revoke announced while its board's round is on is ruled as found
    at the table (64A)."""
    from ..engine.watch import MISSING, Watch, announcement_json, announcement_line, follow

    if "-" in paths:
        raise click.UsageError("watch cannot follow - (standard input): name the files or "
                               "folders to watch")
    for path in missing_paths(paths):
        raise IOFailure(f"cannot watch {path}: no such file or folder")
    outputs = (("--jsonl", "the --jsonl file", jsonl), ("--html", "page", html_path))
    _no_clash(outputs, [p for p in paths if not os.path.isdir(p)], table_facts, None)
    for option, _kind, path in outputs:
        folder = path and path != "-" and inside(path, [p for p in paths if os.path.isdir(p)])
        if folder:
            raise click.UsageError(f"{option} {path} is inside the watched folder {folder}: "
                                   "the watch would follow its own output")
    if importlib.util.find_spec("watchfiles") is None:
        raise SettingsError(MISSING)
    log = _read_log(table_facts)
    on = Watch(AuditOptions(laws, equity=equity, table_facts=log), round_minutes)
    page = None
    if html_path:
        from ..engine.watch_page import LivePage
        page = LivePage(html_path, on)
    try:
        out = None if jsonl in (None, "-") else open(jsonl, "w", encoding="utf-8")
    except OSError as exc:
        raise IOFailure(f"cannot write {jsonl}: {exc.strerror or exc}") from exc

    def say(a) -> None:
        if jsonl == "-":
            echo(announcement_json(a))
        else:
            echo(announcement_line(a))
        if out is not None:
            try:
                out.write(announcement_json(a) + "\n")
                out.flush()
            except OSError as exc:
                raise ReportError(jsonl, exc) from exc

    code = 0
    try:
        on.tell(on.start(paths, announce=not since_start), say)
        if page is not None:
            page.write()
        follow(on, list(paths), say, idle, poll,
               ready=lambda: echo(_watching(len(on.files)), err=True),
               settled=page.after if page is not None else None)
    except ImportError as exc:
        raise SettingsError(str(exc)) from exc
    except ReportError as exc:
        if exc.target == STDOUT:
            silence_stdout()
        raise IOFailure(str(exc)) from exc
    except Interrupted as exc:  # Ctrl-C: the usual way to end a watch
        code = 128 + exc.signum
    except KeyboardInterrupt:  # the signal as the file events' wait reports it
        code = 128 + (Interrupted.last or signal.SIGINT)
    finally:
        if out is not None:
            try:
                out.close()
            except OSError:
                pass  # said above, or the watch stopped: the summary follows
    try:
        if page is not None:  # what the page lacks when the watch ends (idle, Ctrl-C)
            page.flush()
    except ReportError as exc:
        raise IOFailure(str(exc)) from exc
    told = on.told
    echo(f"watch ended: {_many(told['new'], 'finding')} announced, {told['changed']} changed, "
         f"{told['withdrawn']} withdrawn, {on.standing_said} standing", err=True)
    sys.exit(code)


def _watching(files: int) -> str:
    """What the watch says once it watches: the files it follows, and that more are picked
    up as they appear (an empty folder is no mistake: the session is still to be written)."""
    if files == 0:
        return "watching: no hand record yet; each is picked up as it appears"
    return f"watching {_many(files, 'file')}; new ones are picked up as they appear"


if __name__ == "__main__":  # pragma: no cover
    main()
