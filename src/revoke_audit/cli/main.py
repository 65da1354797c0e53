"""The command group and what its commands share: the settings file as the options' defaults
(``--config``, ``[tool.revoke-audit]``), the exit-code policy (usage and I/O errors exit 2,
``Interrupted`` 130 or 143 after a signal), the director's log read once, the size and code
options, and the check that no output overwrites an input.  Only ``cli/`` decides exit codes."""
from __future__ import annotations

import json
import os
import signal
import sys
from contextlib import contextmanager
from typing import Iterator

import click

from ..core.codes import families_at
from .config import ConfigError, find_config, read_config, shown
from .console import steady_stderr
from ..formats import Limits
from ..reports.report import echo
from ..reports.targets import Input, Output, clash
from ..reports.selection import check_prefixes
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
            except Exception as exc:
                if _broken_pool(exc):  # killed from outside (out of memory, a kill -9)
                    echo("revoke-audit: a worker process ended abruptly (killed, or out of "
                         "memory); no report written", err=True)
                    raise SystemExit(2) from None
                # a bug: one line for the user, never a traceback
                echo(f"revoke-audit: internal error ({type(exc).__name__}: {exc}); please "
                     "report it", err=True)
                raise SystemExit(2) from None


def _broken_pool(exc: Exception) -> bool:
    """A pool of worker processes broken from outside.  Its module is looked up, not imported:
    a run that started no pool (``--jobs 1``) never loads ``concurrent.futures`` and its
    ``multiprocessing`` (about 15 ms of a process's start), and cannot have broken one."""
    pool = sys.modules.get("concurrent.futures.process")
    return pool is not None and isinstance(exc, pool.BrokenProcessPool)


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


def _many(n: int, thing: str) -> str:
    """``1 board``, ``2 boards``: a count as a sentence says it."""
    return f"{n} {thing}" if n == 1 else f"{n} {thing}s"
