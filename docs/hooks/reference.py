"""MkDocs hook: the references generated from the code, so the site cannot drift from it.

A page asks for a generated part with a marker on a line of its own:

- ``<!-- codes -->``: every finding code of ``revoke_audit.core.codes.CODES`` with its family, level
  and meaning, and its example message from ``docs/data/code-examples.toml``;
- ``<!-- board-columns -->`` and ``<!-- finding-columns -->``: the report columns in the order
  of ``BOARD_COLUMNS`` and ``FINDING_COLUMNS``, with their meaning from
  ``docs/data/board-columns.toml`` and ``docs/data/finding-columns.toml``;
- ``<!-- settings -->``: the keys a ``[tool.revoke-audit]`` table takes, from the commands'
  own options.

A code or column the data files do not describe, or a description of one the code does not
have, is an error: ``mkdocs build --strict`` (``scripts/docs``) fails on it.  The functions are
plain so that ``tests/test_docs.py`` can call them too.
"""
from __future__ import annotations

import logging
import tomllib
from pathlib import Path

DATA = Path(__file__).resolve().parents[1] / "data"
log = logging.getLogger("mkdocs.plugins.revoke_audit")


class Undocumented(Exception):
    """The code has something the docs' data files do not describe, or the other way round."""


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _load(name: str) -> dict[str, str]:
    with open(DATA / name, "rb") as f:
        return tomllib.load(f)


def codes_table() -> str:
    """Every finding code: code, family, level, meaning, example."""
    from revoke_audit.core.codes import CODES, FAMILIES, family, level
    examples = _load("code-examples.toml")
    missing = sorted(set(CODES) - set(examples))
    extra = sorted(set(examples) - set(CODES))
    if missing or extra:
        raise Undocumented(f"code-examples.toml: no example for {missing}; no such code {extra}")
    lines = ["| code | family | level | meaning | example message |", "|---|---|---|---|---|"]
    for code in sorted(CODES, key=lambda c: (list(FAMILIES).index(family(c)), c)):
        lines.append(f"| `{code}` | {FAMILIES[family(code)].name} | {level(code)} | "
                     f"{_cell(CODES[code])} | {_cell(examples[code])} |")
    return "\n".join(lines)


def columns_table(columns: tuple[str, ...], data: str) -> str:
    """The columns in the code's order; a key of the data file may name several columns."""
    described = _load(data)
    meaning = {name: (key, text) for key, text in described.items() for name in key.split()}
    missing = [c for c in columns if c not in meaning]
    extra = sorted(set(meaning) - set(columns))
    if missing or extra:
        raise Undocumented(f"{data}: no meaning for {missing}; no such column {extra}")
    lines = ["| column | meaning |", "|---|---|"]
    done = set()
    for column in columns:
        key, text = meaning[column]
        if key in done:
            continue
        done.add(key)
        names = ", ".join(f"`{n}`" for n in key.split())
        lines.append(f"| {names} | {_cell(text)} |")
    return "\n".join(lines)


def board_columns_table() -> str:
    from revoke_audit.reports.rows import BOARD_COLUMNS
    return columns_table(tuple(BOARD_COLUMNS), "board-columns.toml")


def finding_columns_table() -> str:
    from revoke_audit.reports.rows import FINDING_COLUMNS
    return columns_table(tuple(FINDING_COLUMNS), "finding-columns.toml")


def settings_table() -> str:
    """The keys of ``[tool.revoke-audit]`` (``CONFIG_KEYS``), each with the help of the option
    it sets and the commands that take it."""
    import click
    from revoke_audit.cli.commands import main
    from revoke_audit.cli.commands import CONFIG_KEYS
    lines = ["| key | commands | meaning |", "|---|---|---|"]
    for key in CONFIG_KEYS:
        takers, text = [], ""
        for name, command in main.commands.items():
            option = next((p for p in command.params if isinstance(p, click.Option)
                           and f"--{key}" in p.opts + p.secondary_opts), None)
            if option is not None:
                takers.append(name)
                text = text or option.help or ""
        if not takers:
            raise Undocumented(f"settings key {key!r} sets no option of any command")
        lines.append(f"| `{key}` | {', '.join(takers)} | {_cell(text)} |")
    return "\n".join(lines)


GENERATED = {
    "<!-- codes -->": codes_table,
    "<!-- board-columns -->": board_columns_table,
    "<!-- finding-columns -->": finding_columns_table,
    "<!-- settings -->": settings_table,
}


def on_page_markdown(markdown: str, page, config, files) -> str:
    """Replace each marker by its generated table; an undocumented code or column fails the
    build (as an error, which --strict also counts)."""
    for marker, make in GENERATED.items():
        if marker in markdown:
            try:
                markdown = markdown.replace(marker, make())
            except Undocumented as e:
                log.error("%s: %s", page.file.src_path, e)
                raise SystemExit(1) from e
    return markdown
