"""``revoke-audit fix``: mend the record errors that have exactly one proven repair
(``ruling.repair``); a unified diff, or with ``--write`` each file replaced whole if it is
still the one read (``reports.rewrite``)."""
from __future__ import annotations

import sys

import click

from ..formats import missing_paths
from ..reports.report import STDOUT, ReportError, echo, echo_part
from .main import IOFailure, main


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
