"""``revoke-audit watch``: follow hand records as they are written and announce each finding
once (``engine.watch``), the page kept up to date."""
from __future__ import annotations

import importlib.util
import os
import signal
import sys

import click

from ..ruling.options import AuditOptions
from ..formats import missing_paths
from ..laws import EDITIONS
from ..reports.report import STDOUT, ReportError, echo, silence_stdout
from ..reports.targets import inside
from .main import IOFailure, Interrupted, SettingsError, _many, _no_clash, _read_log, config_option, main


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
