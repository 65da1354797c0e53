"""Settings from ``[tool.revoke-audit]``: the nearest ``pyproject.toml`` upwards from a folder
(as ruff finds its own), or a file named with ``--config``.

A ``pyproject.toml`` without the table is passed over and the search goes on upwards; a file
named with ``--config`` is read whole when it is not a ``pyproject.toml`` (a ``revoke-audit.toml``
holds the keys at its top level).  Every problem is a ``ConfigError`` naming the file."""
from __future__ import annotations

import os

TABLE = "revoke-audit"


class ConfigError(ValueError):
    """A settings file that cannot be used; the message names the file (and key)."""


def find_config(start: str | os.PathLike) -> str | None:
    """The nearest ``pyproject.toml`` at or above ``start`` with a ``[tool.revoke-audit]``.
    (``os.path``, not ``pathlib``: every run looks, and pathlib's import is 2-3 ms of a run's
    start.)"""
    here = os.path.realpath(start)
    while True:
        candidate = os.path.join(here, "pyproject.toml")
        if os.path.isfile(candidate) and TABLE in _tools(candidate, _load(candidate)):
            return candidate
        up = os.path.dirname(here)
        if up == here:
            return None
        here = up


def read_config(path: str | os.PathLike) -> dict[str, object]:
    """The settings table of ``path`` (empty when a pyproject.toml has none)."""
    doc = _load(path)
    if os.path.basename(path) == "pyproject.toml":
        table = _tools(path, doc).get(TABLE, {})
        if not isinstance(table, dict):
            raise ConfigError(f"{shown(path)}: [tool.{TABLE}] is not a table")
        return table
    return doc


def _tools(path: str | os.PathLike, doc: dict) -> dict:
    """A pyproject.toml's ``[tool]`` table (empty when it has none)."""
    tools = doc.get("tool", {})
    if not isinstance(tools, dict):
        raise ConfigError(f"{shown(path)}: 'tool' is not a table")
    return tools


def _load(path: str | os.PathLike) -> dict:
    import tomllib  # here: a run with no settings file to read never loads it

    try:
        with open(path, "rb") as fh:
            return tomllib.load(fh)
    except OSError as exc:
        raise ConfigError(f"cannot read settings from {shown(path)}: "
                          f"{exc.strerror or exc}") from exc
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{shown(path)} is not valid TOML: {exc}") from exc
    except RecursionError as exc:  # tomllib recurses into nested arrays and tables
        raise ConfigError(f"{shown(path)} is not valid TOML: nested too deep") from exc


def shown(path: str | os.PathLike) -> str:
    """``path`` as a user would name it: relative to the current folder when shorter."""
    absolute = os.path.abspath(path)
    try:
        relative = os.path.relpath(absolute)
    except ValueError:  # another drive
        return absolute
    return relative if len(relative) < len(absolute) else absolute
