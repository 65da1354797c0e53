"""The README is checked against the code: finding codes, report columns, CLI options."""
import re
from pathlib import Path

from click.testing import CliRunner

from revoke_audit.cli import main
from revoke_audit.codes import CODES
from revoke_audit.rows import BOARD_COLUMNS, FINDING_COLUMNS

README = (Path(__file__).resolve().parents[1] / "README.md").read_text()


def test_every_code_is_documented_with_an_example_and_no_other():
    rows = re.findall(r"^\| `([A-Z]{2}\d{3})` \| ([^|]+) \| ([^|]+) \|$", README, re.M)
    assert sorted(code for code, _, _ in rows) == sorted(CODES)
    assert all(example.strip() for _, _, example in rows)


def test_board_columns_in_order():
    section = README.split("**boards.csv**")[1].split("**findings.csv**")[0]
    names = [n for line in section.splitlines() if line.startswith("| `")
             for n in re.findall(r"`([a-z_0-9]+)`", line.split("|")[1])]
    assert names == list(BOARD_COLUMNS)


def test_finding_columns_in_order():
    section = README.split("**findings.csv**")[1].split("- `line`")[0]
    assert [c.strip(" `\n") for c in section.split(":", 1)[1].split(",")] == list(FINDING_COLUMNS)


def test_every_option_of_audit_and_watch_is_documented():
    options = {}
    for command in ("audit", "watch"):
        help_text = CliRunner().invoke(main, [command, "--help"]).output
        options[command] = set(re.findall(r"(--[a-z-]+)", help_text))
    documented = set(re.findall(r"`(?:-\w, )?(--[a-z-]+)", README))
    assert options["audit"] <= documented, options["audit"] - documented
    assert options["watch"] <= documented, options["watch"] - documented
    assert documented <= options["audit"] | options["watch"], \
        documented - options["audit"] - options["watch"]


def test_every_choice_in_the_options_table_is_what_the_command_takes():
    """``--discovered table|after-round`` in the README is what click accepts, value for value
    (an enum's member names once slipped into the choices)."""
    import click
    documented = {name: values.split("\\|") for name, values in
                  re.findall(r"^\| `(--[a-z-]+) ([a-z0-9-]+(?:\\\|[a-z0-9-]+)+)` \|", README, re.M)}
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
