"""Settings from ``[tool.revoke-audit]``: the nearest ``pyproject.toml`` upwards from a folder
(as ruff finds its own), or a file named with ``--config``.

A ``pyproject.toml`` without the table is passed over and the search goes on upwards; a file
named with ``--config`` is read whole when it is not a ``pyproject.toml`` (a ``revoke-audit.toml``
holds the keys at its top level).  Every problem is a ``ConfigError`` naming the file."""
from __future__ import annotations

import os
import tomllib
from pathlib import Path

TABLE = "revoke-audit"


class ConfigError(ValueError):
    """A settings file that cannot be used; the message names the file (and key)."""


def find_config(start: str | os.PathLike) -> Path | None:
    """The nearest ``pyproject.toml`` at or above ``start`` with a ``[tool.revoke-audit]``."""
    folder = Path(start).resolve()
    for here in (folder, *folder.parents):
        candidate = here / "pyproject.toml"
        if candidate.is_file() and TABLE in _tools(candidate, _load(candidate)):
            return candidate
    return None


def read_config(path: str | os.PathLike) -> dict[str, object]:
    """The settings table of ``path`` (empty when a pyproject.toml has none)."""
    path = Path(path)
    doc = _load(path)
    if path.name == "pyproject.toml":
        table = _tools(path, doc).get(TABLE, {})
        if not isinstance(table, dict):
            raise ConfigError(f"{shown(path)}: [tool.{TABLE}] is not a table")
        return table
    return doc


def _tools(path: Path, doc: dict) -> dict:
    """A pyproject.toml's ``[tool]`` table (empty when it has none)."""
    tools = doc.get("tool", {})
    if not isinstance(tools, dict):
        raise ConfigError(f"{shown(path)}: 'tool' is not a table")
    return tools


def _load(path: Path) -> dict:
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
