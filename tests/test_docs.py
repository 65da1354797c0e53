"""The documentation site is checked against the code: every finding code, report column,
option of every command and name of the API appears in it, generated from the code; the site
builds with ``mkdocs build --strict`` (no broken link, no missing page, no warning)."""
import importlib.util
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import click
import pytest

import revoke_audit
from revoke_audit.cli.commands import CONFIG_KEYS, main
from revoke_audit.core.codes import CODES
from revoke_audit.reports.rows import BOARD_COLUMNS, FINDING_COLUMNS

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
spec = importlib.util.spec_from_file_location("reference_hook", DOCS / "hooks" / "reference.py")
hook = importlib.util.module_from_spec(spec)
spec.loader.exec_module(hook)


def test_every_code_has_a_row_with_its_example_and_no_other():
    rows = re.findall(r"^\| `([A-Z]{2}\d{3})` \| ([^|]+) \| ([^|]+) \| (.+) \| (.+) \|$",
                      hook.codes_table(), re.M)
    assert sorted(code for code, *_ in rows) == sorted(CODES)
    assert all(example.strip() for *_, example in rows)


def test_a_code_without_an_example_fails_the_build(monkeypatch):
    monkeypatch.setitem(CODES, "ZZ999", "a code the docs do not know")
    with pytest.raises(hook.Undocumented, match="ZZ999"):
        hook.codes_table()


def _columns(table: str) -> list[str]:
    return [name for line in table.splitlines()[2:]
            for name in re.findall(r"`([a-z_0-9]+)`", line.split("|")[1])]


def test_board_and_finding_columns_in_the_codes_order():
    assert _columns(hook.board_columns_table()) == list(BOARD_COLUMNS)
    assert _columns(hook.finding_columns_table()) == list(FINDING_COLUMNS)


def test_a_column_without_a_meaning_fails_the_build():
    with pytest.raises(hook.Undocumented, match="no_such"):
        hook.columns_table(tuple(BOARD_COLUMNS) + ("no_such",), "board-columns.toml")


def test_every_settings_key_is_in_the_settings_table():
    assert re.findall(r"^\| `([a-z-]+)` \|", hook.settings_table(), re.M) == list(CONFIG_KEYS)


def test_the_cli_page_documents_every_command():
    page = (DOCS / "reference" / "cli.md").read_text()
    assert ":command: main" in page and ":depth: 1" in page
    assert set(main.commands) == {"audit", "explain", "fix", "watch"}


def test_the_api_page_lists_every_public_name():
    page = (DOCS / "reference" / "api.md").read_text()
    assert sorted(re.findall(r"^::: revoke_audit\.(\w+)$", page, re.M)) == sorted(revoke_audit.__all__)


def test_the_data_files_are_toml_a_person_can_edit():
    for name in ("code-examples.toml", "board-columns.toml", "finding-columns.toml"):
        with open(DOCS / "data" / name, "rb") as f:
            assert tomllib.load(f)


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The site as `scripts/docs` builds it (strict: any warning fails)."""
    mkdocs = Path(sys.executable).with_name("mkdocs")
    if not mkdocs.exists():
        pytest.skip("mkdocs is not installed (the docs extra)")
    out = tmp_path_factory.mktemp("site")
    done = subprocess.run([str(mkdocs), "build", "--strict", "-d", str(out)], cwd=ROOT,
                          capture_output=True, text=True, timeout=600,
                          env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert done.returncode == 0, done.stdout + done.stderr
    return out


def _text(page: Path) -> str:
    return re.sub(r"<[^>]+>", " ", page.read_text())


@pytest.mark.slow
def test_the_site_builds_strict_and_shows_every_option_code_and_column(site):
    cli = _text(site / "reference" / "cli" / "index.html")
    for name, command in main.commands.items():
        for param in command.params:
            if isinstance(param, click.Option) and not param.hidden:
                for opt in param.opts + param.secondary_opts:
                    assert opt in cli, (name, opt)
    codes = _text(site / "reference" / "codes" / "index.html")
    assert all(code in codes for code in CODES)
    reports = _text(site / "reference" / "reports" / "index.html")
    assert all(column in reports for column in BOARD_COLUMNS + FINDING_COLUMNS)
    api = _text(site / "reference" / "api" / "index.html")
    assert all(name in api for name in revoke_audit.__all__)


@pytest.mark.slow
def test_a_broken_link_fails_the_build(tmp_path):
    """CI fails on a broken link: the same build with one page linking nowhere."""
    mkdocs = Path(sys.executable).with_name("mkdocs")
    if not mkdocs.exists():
        pytest.skip("mkdocs is not installed (the docs extra)")
    copy = tmp_path / "project"
    (copy / "docs").mkdir(parents=True)
    subprocess.run(["cp", "-r", str(DOCS) + "/.", str(copy / "docs")], check=True)
    (copy / "mkdocs.yml").write_text((ROOT / "mkdocs.yml").read_text())
    (copy / "src").symlink_to(ROOT / "src")
    page = copy / "docs" / "guides" / "ci.md"
    page.write_text(page.read_text() + "\nSee [nowhere](no-such-page.md).\n")
    done = subprocess.run([str(mkdocs), "build", "--strict", "-d", str(tmp_path / "s")],
                          cwd=copy, capture_output=True, text=True, timeout=600,
                          env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert done.returncode != 0
    assert "no-such-page.md" in done.stdout + done.stderr


def test_every_choice_in_the_options_table_is_what_the_command_takes():
    """``--discovered after-round|table`` in the CLI page's table is what click accepts, value
    for value (an enum's member names once slipped into the choices), and every option the
    table names is one of audit's."""
    from click.testing import CliRunner
    page = (DOCS / "reference" / "cli.md").read_text()
    documented = {name: values.split("\\|") for name, values in
                  re.findall(r"^\| `(--[a-z-]+) ([a-z0-9-]+(?:\\\|[a-z0-9-]+)+)` \|", page, re.M)}
    params = {p.opts[-1]: p for p in main.commands["audit"].params if isinstance(p, click.Option)}
    assert {"--format", "--laws", "--discovered", "--fail-on", "--engine"} <= set(documented)
    help_text = CliRunner().invoke(main, ["audit", "--help"]).output
    shown = {m.group(1): m.group(2).split("|")
             for m in re.finditer(r"(--[a-z-]+) \[([a-z0-9|-]+)\]", help_text)}
    for name, values in documented.items():
        param = params[name]
        for value in values:
            param.type.convert(value, param, None)  # raises click.BadParameter if refused
        assert sorted(shown[name]) == sorted(values), name
    named = set(re.findall(r"^\| `(?:-\w, )?(--[a-z-]+)", page, re.M))
    every = {o for p in main.commands["audit"].params for o in p.opts + p.secondary_opts}
    every.add("--help")  # click adds it to every command
    assert named <= every, named - every
