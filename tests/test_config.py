"""Settings: [tool.revoke-audit] in the nearest pyproject.toml upwards, or --config FILE; an
unknown key or a bad value is an error naming the file and the key (exit 2)."""
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from revoke_audit.cli.commands import main

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
FAIL = "revoke.pbn:25: board 2: RV002 [1932 too late] trick 3"


@pytest.fixture
def tree(tmp_path, monkeypatch):
    """tmp/pyproject.toml (the settings), tmp/a/pyproject.toml (no table), cwd tmp/a/b."""
    (tmp_path / "a" / "b").mkdir(parents=True)
    (tmp_path / "a" / "pyproject.toml").write_text('[project]\nname = "club"\n')
    shutil.copy(FIXTURES / "cli" / "revoke.pbn", tmp_path / "a" / "b" / "revoke.pbn")
    monkeypatch.chdir(tmp_path / "a" / "b")
    return tmp_path


def run(*args):
    return CliRunner().invoke(main, list(args))


def settings(tree, text, name="pyproject.toml"):
    (tree / name).write_text(text)


def test_nearest_pyproject_with_the_table_upwards(tree):
    settings(tree, '[tool.revoke-audit]\nlaws = "1997"\nfail-on = "none"\n')
    r = run("audit", "revoke.pbn", "--format", "csv")
    assert r.exit_code == 0 and ",1997,irregular," in r.stdout
    r = run("audit", "revoke.pbn", "--format", "csv", "--laws", "2007", "--fail-on", "irregular")
    assert r.exit_code == 1 and ",2007,irregular," in r.stdout  # the command line wins


def test_config_file_given(tree):
    settings(tree, 'laws = "1932"\nselect = ["RC"]\n', "club.toml")
    r = run("audit", "--config", str(tree / "club.toml"), "revoke.pbn", "--format", "csv")
    assert r.exit_code == 0  # the revoke is not selected
    assert ",1932,clean,rubber," in r.stdout
    r = run("audit", "--config", str(tree / "club.toml"), "revoke.pbn", "--select", "RV")
    assert r.exit_code == 1 and r.output.startswith(FAIL)


def test_unknown_key_names_the_file_and_key(tree):
    settings(tree, '[tool.revoke-audit]\nlaws = "1997"\nfail_on = "none"\n')
    r = run("audit", "revoke.pbn")
    assert r.exit_code == 2
    assert r.output == (
        "Error: ../../pyproject.toml: unknown key 'fail_on' in the settings; known keys: laws, "
        "discovered, equity, jobs, engine, scheduler, fail-on, exit-zero, format, quiet, select, "
        "ignore, extend-select, statistics, baseline, progress, table-facts, max-archive-bytes, "
        "max-run-bytes, max-ratio, max-archive-boards\n")


@pytest.mark.parametrize("line, message", [
    ('laws = "1066"', "bad value for 'laws': '1066' is not one of '1932', '1997', '2007', "
                      "'2017', 'bridge-whist', 'auto'."),
    ("jobs = -1", "bad value for 'jobs': -1 is not in the range x>=0."),
    ('select = "RV"', "bad value for 'select': expected a list, like select = [\"RV\", \"RC015\"]"),
    ('ignore = ["RV9"]', "bad value for 'ignore': unknown code or prefix 'RV9': no finding code "
                         "starts with it (families: RV, DT, RC, PS, LW, EQ, DU, SC; codes like RV001)"),
    # of the wrong TOML type: never an internal error
    ("quiet = 2", "bad value for 'quiet': 2 is not true or false"),
    ("exit-zero = 1", "bad value for 'exit-zero': 1 is not true or false"),
    ("progress = 1", "bad value for 'progress': 1 is not true or false"),
    ("statistics = []", "bad value for 'statistics': [] is not true or false"),
    ("equity = {}", "bad value for 'equity': {} is not true or false"),
    ('baseline = ["a"]', "bad value for 'baseline': [\"a\"] is not a file name in quotes"),
    ('table-facts = 3', "bad value for 'table-facts': 3 is not a file name in quotes"),
    ("max-ratio = inf", "bad value for 'max-ratio': inf is not a whole number"),
    ("max-ratio = 1e400", "bad value for 'max-ratio': inf is not a whole number"),
    ("max-ratio = 2.5", "bad value for 'max-ratio': 2.5 is not a whole number"),
    ("jobs = true", "bad value for 'jobs': true is not a whole number"),
    ('laws = ["2017"]', "bad value for 'laws': [\"2017\"] is not a single value"),
    ("select = [[1]]", "bad value for 'select': [[1]] is not a list of codes in quotes"),
])
def test_bad_value_names_the_file_and_key(tree, line, message):
    settings(tree, f"[tool.revoke-audit]\n{line}\n")
    r = run("audit", "revoke.pbn")
    assert (r.exit_code, r.output) == (2, f"Error: ../../pyproject.toml: {message}\n")


@pytest.mark.parametrize("text, message", [
    ('tool = "revoke-audit"\n', "'tool' is not a table"),
    ("[tool]\nrevoke-audit = 3\n", "[tool.revoke-audit] is not a table"),
    ("a = " + "[" * 100_000 + "]" * 100_000 + "\n", "is not valid TOML: nested too deep"),
])
def test_a_pyproject_found_upwards_that_cannot_be_read_names_the_file(tree, text, message):
    settings(tree, text)
    r = run("audit", "revoke.pbn")
    assert r.exit_code == 2 and r.output.startswith("Error: ../../pyproject.toml")
    assert r.output.endswith(f"{message}\n") and r.output.count("\n") == 1


def test_unreadable_settings(tree):
    settings(tree, "[tool.revoke-audit]\nlaws = \n")
    r = run("audit", "revoke.pbn")
    assert r.exit_code == 2
    assert r.output.startswith("Error: ../../pyproject.toml is not valid TOML: ")
    r = run("audit", "--config", "nowhere.toml", "revoke.pbn")
    assert (r.exit_code, r.output) == (2, "Error: cannot read settings from nowhere.toml: No such "
                                          "file or directory\n")


def test_baseline_in_the_settings_is_relative_to_that_file(tree):
    run("audit", "revoke.pbn", "--write-baseline", str(tree / "known.json"))
    settings(tree, '[tool.revoke-audit]\nbaseline = "known.json"\n')
    r = run("audit", "revoke.pbn")
    assert r.exit_code == 0 and r.output.endswith("; 1 finding in the baseline not shown\n")


def test_explain_takes_its_own_keys_only(tree):
    settings(tree, '[tool.revoke-audit]\nlaws = "1997"\nselect = ["RV"]\n')
    r = run("explain", "revoke.pbn")
    assert r.exit_code == 0 and "Laws 1997" in r.output
