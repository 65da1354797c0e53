"""The ``revoke-audit`` command: a thin click layer over the library.

Exit codes: 0 nothing at or above ``--fail-on``; 1 findings at or above it; 2 usage or I/O
error.  Only this module decides exit codes."""
from __future__ import annotations

import io
import json
import os
import signal
import sys
from collections import Counter
from contextlib import closing, contextmanager
from typing import Iterator

import click
from click.core import ParameterSource

from .audit import audit_board
from .laws import AFTER_ROUND, EDITIONS, TABLE
from .report import (STDOUT, ReportError, Reports, director_line, echo, github_line, json_board,
                     silence_stdout, text_line)
from .run import render_sources
from .sarif import sarif_document


class IOFailure(click.ClickException):
    """A report that cannot be written, or a closed stdin: exit code 2, like a usage error."""

    exit_code = 2


FAIL_LEVELS = {"irregular": ("RV", "DT"), "inconsistent": ("RV", "DT", "RC"),
               "any": ("RV", "DT", "RC", "PS"), "none": ()}


class Interrupted(BaseException):
    """SIGINT or SIGTERM arrived: unwind (temp files removed, workers ended), then exit
    128 + the signal's number, as a shell reports a process a signal stopped."""

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
    def invoke(self, ctx: click.Context):
        with exit_on_signals():
            return super().invoke(ctx)


@click.group(cls=_Main)
@click.version_option(package_name="revoke-audit")
@click.pass_context
def main(ctx: click.Context) -> None:
    """Find uncaught revokes and defective tricks in PBN/LIN hand records and apply the Laws.

    Option defaults may be set in ``[tool.revoke-audit]`` of a pyproject.toml in the current
    folder (e.g. ``laws = "1997"``, ``fail-on = "inconsistent"``); the command line wins."""
    settings = _project_settings()
    if settings:
        ctx.default_map = {"audit": settings,
                           "explain": {k: v for k, v in settings.items() if k in ("laws", "discovered")}}


def _project_settings(path: str = "pyproject.toml") -> dict[str, object]:
    """``[tool.revoke-audit]`` from ``path``, keys as click parameter names (``fail_on``)."""
    import tomllib

    try:
        with open(path, "rb") as fh:
            table = tomllib.load(fh).get("tool", {}).get("revoke-audit", {})
    except FileNotFoundError:
        return {}
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise click.UsageError(f"cannot read settings from {path}: {exc}") from exc
    if not isinstance(table, dict):
        raise click.UsageError(f"[tool.revoke-audit] in {path} is not a table")
    return {str(k).replace("-", "_"): v for k, v in table.items()}


@main.command()
@click.argument("paths", nargs=-1, required=True)
@click.option("-o", "--output", type=click.Path(dir_okay=False), help="boards CSV to write")
@click.option("--findings", "findings_path", type=click.Path(dir_okay=False),
              help="findings CSV to write")
@click.option("--format", "fmt", type=click.Choice(["text", "csv", "json", "jsonl", "github", "sarif"]),
              default="text", show_default=True, help="what goes to stdout")
@click.option("--laws", type=click.Choice(sorted(EDITIONS) + ["auto"]), default="2017",
              show_default=True, help="edition of the Laws to apply; auto: by each board's date")
@click.option("--discovered", type=click.Choice([TABLE, AFTER_ROUND]), default=TABLE,
              show_default=True,
              help="after-round: revokes found now were noticed after the round (64B5): no "
                   "automatic transfer, 64C review")
@click.option("--equity", is_flag=True,
              help="double-dummy estimate for each revoke; flag boards for a 64C review")
@click.option("--jobs", type=click.IntRange(1, 64), default=1, show_default=True,
              help="audit files in this many processes (output order is unchanged)")
@click.option("--fail-on", type=click.Choice(list(FAIL_LEVELS)), default="irregular",
              show_default=True, help="which findings make the exit code 1")
@click.option("--exit-zero", is_flag=True, help="exit 0 even when findings are present")
@click.option("-q", "--quiet", is_flag=True, help="no per-finding lines, only the summary")
def audit(paths, output, findings_path, fmt, laws, discovered, equity, jobs, fail_on, exit_zero,
          quiet) -> None:
    """Audit every board in PATHS (files, folders, .gz, .zip; - for stdin)."""
    explicit = click.get_current_context().get_parameter_source("fmt") == ParameterSource.COMMANDLINE
    boards, findings, fmt = _targets(paths, output, findings_path, fmt, explicit)
    tally: Counter[str] = Counter()
    families: Counter[str] = Counter()
    collected: list = []
    try:
        with Reports(boards, findings) as reports, \
                closing(render_sources(paths, laws, discovered, equity, jobs)) as rendered:
            for r in _progress(rendered, quiet):
                tally[r.status] += 1
                for f in r.findings:
                    families[str(f["code"])[:2]] += 1
                reports.write(r)
                _emit(r, fmt, quiet, collected)
            _finish_stdout(fmt, collected)
            _summary(tally, families, fmt)
            reports.commit()
    except ReportError as exc:
        if exc.target == STDOUT:
            silence_stdout()
        raise IOFailure(str(exc)) from exc
    fail = any(families[f] for f in FAIL_LEVELS[fail_on])
    sys.exit(1 if fail and not exit_zero else 0)


def _targets(paths, output, findings_path, fmt, explicit) -> tuple[list[str], list[str], str]:
    """Where the reports go, checked before anything is read: (boards targets, findings
    targets, what else goes to stdout).  ``-o -`` (or ``--findings -``) puts that CSV on stdout,
    as ``--format csv`` does for boards; stdout holds one document, so a second is an error, and
    two reports on one file, or a report over an input file, are errors too."""
    boards = [output] if output else []
    findings = [findings_path] if findings_path else []
    on_stdout = [o for o, p in (("-o -", output), ("--findings -", findings_path)) if p == "-"]
    if on_stdout and explicit and not (fmt == "csv" and on_stdout == ["-o -"]):
        on_stdout.append(f"--format {fmt}")
    if len(on_stdout) > 1:
        raise click.UsageError(f"{' and '.join(on_stdout)} both write to standard output")
    if fmt == "csv" and not on_stdout:
        boards.append("-")
    files = [p for p in boards + findings if p != "-"]
    real = [os.path.realpath(p) for p in files]
    if len(set(real)) < len(real):
        raise click.UsageError(f"-o and --findings name the same file ({files[0]}): each report "
                               "needs its own")
    inputs = {os.path.realpath(p) for p in paths if p != "-" and os.path.isfile(p)}
    for path, where in zip(files, real):
        if where in inputs:
            raise click.UsageError(f"report {path} is also an input: it would be overwritten")
    if "-" in paths and not _stdin_open():
        raise IOFailure("cannot read - (standard input): it is closed")
    return boards, findings, "none" if on_stdout or fmt == "csv" else fmt


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


def _progress(records, quiet):
    if quiet or not sys.stderr.isatty():
        return records
    from tqdm import tqdm
    return tqdm(records, unit=" boards", file=sys.stderr, leave=False)


def _emit(r, fmt, quiet, collected) -> None:
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
        collected.append((r.row, r.findings))


def _finish_stdout(fmt, collected) -> None:
    if fmt == "json":
        doc = {"boards": [r for r, _ in collected], "findings": [f for _, fs in collected for f in fs]}
        echo(json.dumps(doc, ensure_ascii=False, indent=1))
    elif fmt == "sarif":
        echo(json.dumps(sarif_document([f for _, fs in collected for f in fs]), indent=1))


def _summary(tally, families, fmt) -> None:
    boards = sum(tally.values())
    text = (f"{boards} boards: {tally['clean']} clean, {tally['irregular']} irregular, "
            f"{tally['inconsistent']} inconsistent, {tally['unreadable']} unreadable; "
            f"{families['RV']} revoke findings, {families['DT']} defective tricks, "
            f"{families['RC']} record errors, {families['PS']} parse problems")
    echo(text, err=fmt != "text")


class SelectionError(click.ClickException):
    """No board, or several, match the selection given to ``explain``: exit code 2."""

    exit_code = 2


@main.command()
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--board", help="board number, as the record gives it")
@click.option("--room", type=click.Choice(["open", "closed"], case_sensitive=False),
              help="vugraph room, when the file has both")
@click.option("--game", type=click.IntRange(min=1), help="1-based index of the board in FILE")
@click.option("--laws", type=click.Choice(sorted(EDITIONS) + ["auto"]), default="2017",
              show_default=True, help="edition of the Laws to apply; auto: by the board's date")
@click.option("--discovered", type=click.Choice([TABLE, AFTER_ROUND]), default=TABLE,
              show_default=True, help="after-round: the revoke was noticed after the round (64B5)")
def explain(file, board, room, game, laws, discovered) -> None:
    """Explain one board of FILE: the deal, the play trick by trick, the ruling."""
    from .explain import describe, explain_text, find_board

    matches = find_board([file], board, room, game)
    if len(matches) != 1:
        wanted = ", ".join(f"{k} {v}" for k, v in (("board", board), ("room", room),
                                                   ("game", game)) if v is not None)
        if matches:
            found = f"{len(matches)} boards match {wanted}" if wanted else \
                f"{file} has {len(matches)} boards"
            head = f"{found}; choose one with --board, --room or --game:"
        else:
            head = f"no board in {file} matches {wanted}; the file has:"
            matches = find_board([file])
        listed = [describe(r) for r in matches[:20]] or ["no board"]
        more = [f"... and {len(matches) - 20} more"] if len(matches) > 20 else []
        raise SelectionError("\n  ".join([head] + listed + more))
    click.echo(explain_text(audit_board(matches[0], laws, discovered)), nl=False)


if __name__ == "__main__":  # pragma: no cover
    main()
