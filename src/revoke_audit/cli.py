"""The ``revoke-audit`` command: a thin click layer over the library.

Exit codes: 0 nothing at or above ``--fail-on``; 1 findings at or above it; 2 usage or I/O
error.  Only this module decides exit codes."""
from __future__ import annotations

import json
import sys
from collections import Counter

import click

from .audit import audit_board
from .laws import AFTER_ROUND, EDITIONS, TABLE
from .report import (BOARD_COLUMNS, FINDING_COLUMNS, CsvSink, github_line, json_board,
                     render_sources, safe_cell, text_line)
from .sarif import sarif_document
from .table_facts import TableFacts, TableFactsError, read_table_facts



class IOFailure(click.ClickException):
    """A report that cannot be written: exit code 2, like a usage error."""

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


FAIL_LEVELS = {"irregular": ("RV", "DT"), "inconsistent": ("RV", "DT", "RC"),
               "any": ("RV", "DT", "RC", "PS"), "none": ()}


@click.group()
@click.version_option(package_name="revoke-audit")
@click.pass_context
def main(ctx: click.Context) -> None:
    """Find uncaught revokes and defective tricks in PBN/LIN hand records and apply the Laws.

    Option defaults may be set in ``[tool.revoke-audit]`` of a pyproject.toml in the current
    folder (e.g. ``laws = "1997"``, ``fail-on = "inconsistent"``); the command line wins."""
    settings = _project_settings()
    if settings:
        ctx.default_map = {"audit": settings,
                           "explain": {k: v for k, v in settings.items()
                                       if k in ("laws", "discovered", "table_facts")}}


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
@click.option("--table-facts", "table_facts", type=click.Path(dir_okay=False),
              help="a director's log (CSV): penalty cards, lead and play restrictions, "
                   "discovery per board")
def audit(paths, output, findings_path, fmt, laws, discovered, equity, jobs, fail_on, exit_zero,
          quiet, table_facts) -> None:
    """Audit every board in PATHS (files, folders, .gz, .zip; - for stdin)."""
    log = _read_log(table_facts)
    sinks = _open_sinks(output, findings_path)
    tally: Counter[str] = Counter()
    families: Counter[str] = Counter()
    collected: list = []
    try:
        for r in _progress(render_sources(paths, laws, discovered, equity, jobs, log), quiet):
            if r.row is not None:  # else the director's log's own findings (no board)
                tally[r.status] += 1
            for f in r.findings:
                families[str(f["code"])[:2]] += 1
            _emit(r, sinks, fmt, quiet, collected)
    except OSError as exc:
        for sink in sinks.values():
            sink.abort()
        raise IOFailure(f"cannot write report: {exc}") from exc
    for sink in sinks.values():
        sink.close()
    _finish_stdout(fmt, collected)
    _summary(tally, families, fmt)
    fail = any(families[f] for f in FAIL_LEVELS[fail_on])
    sys.exit(1 if fail and not exit_zero else 0)


def _open_sinks(output, findings_path) -> dict[str, CsvSink]:
    sinks = {}
    try:
        if output:
            sinks["boards"] = CsvSink(output, BOARD_COLUMNS)
        if findings_path:
            sinks["findings"] = CsvSink(findings_path, FINDING_COLUMNS)
    except OSError as exc:
        for sink in sinks.values():
            sink.abort()
        raise IOFailure(f"cannot write report: {exc}") from exc
    return sinks


def _progress(records, quiet):
    if quiet or not sys.stderr.isatty():
        return records
    from tqdm import tqdm
    return tqdm(records, unit=" boards", file=sys.stderr, leave=False)


def _emit(r, sinks, fmt, quiet, collected) -> None:
    if "boards" in sinks and r.row is not None:
        sinks["boards"].write(r.row)
    if "findings" in sinks:
        for f in r.findings:
            sinks["findings"].write(f)
    if fmt == "text" and not quiet:
        for f in r.findings:
            click.echo(text_line(f))
    elif fmt == "github":
        for f in r.findings:
            click.echo(github_line(f))
    elif fmt == "jsonl":
        click.echo(json_board(r))
    elif fmt == "csv" and r.row is not None:
        if not collected:
            collected.append(True)
            click.echo(",".join(BOARD_COLUMNS))
        click.echo(_csv_line([r.row[c] for c in BOARD_COLUMNS]))
    elif fmt in ("json", "sarif"):
        collected.append((r.row, r.findings))


def _csv_line(values) -> str:
    import csv
    import io
    buf = io.StringIO()
    csv.writer(buf, lineterminator="").writerow([safe_cell(v) for v in values])
    return buf.getvalue()


def _finish_stdout(fmt, collected) -> None:
    if fmt == "json":
        doc = {"boards": [r for r, _ in collected if r is not None],
               "findings": [f for _, fs in collected for f in fs]}
        click.echo(json.dumps(doc, ensure_ascii=False, indent=1))
    elif fmt == "sarif":
        click.echo(json.dumps(sarif_document([f for _, fs in collected for f in fs]), indent=1))


def _summary(tally, families, fmt) -> None:
    boards = sum(tally.values())
    text = (f"{boards} boards: {tally['clean']} clean, {tally['irregular']} irregular, "
            f"{tally['inconsistent']} inconsistent, {tally['unreadable']} unreadable; "
            f"{families['RV']} revoke findings, {families['DT']} defective tricks, "
            f"{families['RC']} record errors, {families['PS']} parse problems")
    click.echo(text, err=fmt != "text")


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
@click.option("--table-facts", "table_facts", type=click.Path(dir_okay=False),
              help="a director's log (CSV): what bound each player, trick by trick")
def explain(file, board, room, game, laws, discovered, table_facts) -> None:
    """Explain one board of FILE: the deal, the play trick by trick, the ruling."""
    from .explain import describe, explain_text, find_board

    log = _read_log(table_facts)

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
    click.echo(explain_text(audit_board(matches[0], laws, discovered, table_facts=log)), nl=False)


if __name__ == "__main__":  # pragma: no cover
    main()
