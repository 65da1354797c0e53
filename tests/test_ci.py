"""The CI conventions: the composite GitHub Action's steps run as a script on a fixture, the
pre-commit hooks through ``pre-commit try-repo``, ``--version`` and shell completion."""
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from revoke_audit.cli.commands import main

ROOT = Path(__file__).resolve().parents[1]
REVOKE = ROOT / "fixtures" / "cli" / "revoke.pbn"
yaml = pytest.importorskip("yaml")


def action() -> dict:
    return yaml.safe_load((ROOT / "action.yml").read_text())


def step(id_: str) -> dict:
    return next(s for s in action()["runs"]["steps"] if s.get("id") == id_)


def run_audit_step(tmp_path: Path, **inputs: str) -> subprocess.CompletedProcess:
    """The action's audit step as GitHub runs it: its script under bash, its env with each
    ``${{ inputs.x }}`` replaced by the input (or its default), revoke-audit on PATH."""
    spec = action()["inputs"]
    values = {k: inputs.get(k.replace("-", "_"), v.get("default", "")) for k, v in spec.items()}
    s = step("audit")
    env = {k: re.sub(r"\$\{\{ inputs\.([a-z-]+) \}\}", lambda m: values[m.group(1)], v)
           for k, v in s["env"].items()}
    env.update(PATH=os.path.dirname(sys.executable) + os.pathsep + os.environ["PATH"],
               GITHUB_OUTPUT=str(tmp_path / "github_output"), GITHUB_ACTION_PATH=str(ROOT))
    assert s["shell"] == "bash"
    return subprocess.run(["bash", "-e", "-c", s["run"]], cwd=tmp_path, env=env,
                          capture_output=True, text=True)


def test_every_input_the_steps_use_is_declared_and_every_input_used():
    text = (ROOT / "action.yml").read_text()
    used = set(re.findall(r"\$\{\{ inputs\.([a-z-]+) \}\}", text))
    assert used == set(action()["inputs"])
    assert action()["runs"]["using"] == "composite"
    assert step("install")["run"] == 'python -m pip install --quiet "$GITHUB_ACTION_PATH"'


def test_action_annotates_a_revoke_and_fails(tmp_path):
    shutil.copy(REVOKE, tmp_path / "revoke.pbn")
    done = run_audit_step(tmp_path, paths="revoke.pbn")
    assert done.returncode == 1
    assert done.stdout.splitlines()[0].startswith(
        "::error file=revoke.pbn,line=25,title=RV002::board 2: RV002 [64B5] trick 3: West")
    passed = run_audit_step(tmp_path, paths="revoke.pbn", fail_on="none")
    assert passed.returncode == 0 and "::error file=revoke.pbn" in passed.stdout


def test_action_with_a_baseline_reports_only_new_findings(tmp_path, monkeypatch):
    shutil.copy(REVOKE, tmp_path / "revoke.pbn")
    monkeypatch.chdir(tmp_path)
    CliRunner().invoke(main, ["audit", "revoke.pbn", "--write-baseline", "known.json"])
    done = run_audit_step(tmp_path, paths="revoke.pbn", baseline="known.json")
    assert (done.returncode, done.stdout) == (0, "")


def test_action_passes_the_laws_on(tmp_path):
    done = run_audit_step(tmp_path, paths="nothing.pbn", laws="1066")
    assert done.returncode == 2 and "'1066' is not one of" in done.stderr


def test_action_writes_sarif_for_code_scanning(tmp_path):
    shutil.copy(REVOKE, tmp_path / "revoke.pbn")
    done = run_audit_step(tmp_path, paths="revoke.pbn\n", format="sarif")
    assert done.returncode == 1 and done.stdout == ""
    log = json.loads((tmp_path / "revoke-audit.sarif").read_text())
    [result] = log["runs"][0]["results"]
    assert (result["ruleId"], result["level"]) == ("RV002", "error")
    assert (tmp_path / "github_output").read_text() == "sarif-file=revoke-audit.sarif\n"


def test_action_refuses_an_unknown_format(tmp_path):
    done = run_audit_step(tmp_path, format="html")
    assert done.returncode == 2
    assert done.stdout == "::error title=revoke-audit::format must be github or sarif, not html\n"


def test_version_and_completion():
    from importlib.metadata import version

    out = CliRunner().invoke(main, ["--version"])
    assert out.exit_code == 0 and out.output.endswith(f"version {version('revoke-audit')}\n")
    script = subprocess.run([sys.executable, "-m", "revoke_audit"], capture_output=True,
                            text=True, env={**os.environ, "_REVOKE_AUDIT_COMPLETE": "bash_source"})
    assert "_revoke_audit_completion" in script.stdout
    words = subprocess.run([sys.executable, "-m", "revoke_audit"], capture_output=True, text=True,
                           env={**os.environ, "_REVOKE_AUDIT_COMPLETE": "bash_complete",
                                "COMP_WORDS": "revoke-audit f", "COMP_CWORD": "1"})
    assert words.stdout.split() == ["plain,fix"]


def test_hooks_cover_pbn_and_lin_files():
    hooks = {h["id"]: h for h in yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())}
    assert hooks["revoke-audit"]["entry"] == "revoke-audit audit"
    assert hooks["revoke-audit"]["args"] == ["--"]
    assert hooks["revoke-audit-fix"]["entry"] == "revoke-audit fix --write --"
    for hook in hooks.values():
        pattern = re.compile(hook["files"])
        assert [bool(pattern.search(n)) for n in ("a.pbn", "b/C.LIN", "c.txt", "d.pbn.bak")] == \
            [True, True, False, False]


@pytest.mark.parametrize("name", ["--write-baseline=keep.pbn", "-okeep.pbn", "--config=keep.pbn"])
def test_a_committed_file_name_is_never_an_option(tmp_path, monkeypatch, name):
    """The command line exactly as pre-commit builds it (entry, args, then the committed names):
    a file named like an option is audited as a file, ``keep.pbn`` (not in the commit) is not
    overwritten, and the revoke in ``new.pbn`` still fails the audit's hook (the fix's has
    nothing to mend: exit 0)."""
    hooks = {h["id"]: h for h in yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())}
    monkeypatch.chdir(tmp_path)
    keep = tmp_path / "keep.pbn"
    shutil.copy(ROOT / "fixtures" / "session" / "thursday-pairs.pbn", keep)
    shutil.copy(REVOKE, tmp_path / "new.pbn")
    shutil.copy(REVOKE, tmp_path / name)
    for hook in hooks.values():
        argv = hook["entry"].split()[1:] + hook.get("args", []) + [name, "new.pbn"]
        result = CliRunner().invoke(main, argv)
        assert result.exit_code == (1 if argv[0] == "audit" else 0), (argv, result.output)
        assert keep.read_bytes() == (ROOT / "fixtures" / "session" / "thursday-pairs.pbn").read_bytes()


@pytest.mark.slow
def test_pre_commit_try_repo_runs_both_hooks(tmp_path):
    """The hooks as pre-commit installs them (their own virtualenv, from this checkout) on a
    repository holding a record with a revoke and one with rotated hands: the audit fails on
    the revoke, the fix mends the other file (and so fails the commit, as pre-commit does)."""
    pre_commit = shutil.which("pre-commit", path=os.path.dirname(sys.executable)) \
        or shutil.which("pre-commit")
    if pre_commit is None:
        pytest.skip("pre-commit is not installed (the test extra installs it)")
    repo = tmp_path / "records"
    repo.mkdir()
    shutil.copy(REVOKE, repo / "revoke.pbn")
    shutil.copy(ROOT / "fixtures" / "lin" / "fault_rotated_hands.lin", repo / "rotated.lin")
    env = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "cache"), "GIT_AUTHOR_NAME": "t",
           "GIT_AUTHOR_EMAIL": "t@example.org", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@example.org"}
    for cmd in (["git", "init", "-q"], ["git", "add", "revoke.pbn", "rotated.lin"]):
        subprocess.run(cmd, cwd=repo, check=True, env=env)
    done = subprocess.run([pre_commit, "try-repo", str(ROOT), "--all-files"],
                          cwd=repo, env=env, capture_output=True, text=True)
    out = done.stdout
    assert done.returncode == 1, out + done.stderr
    assert re.search(r"^revoke-audit\.+Failed$", out, re.M), out
    assert re.search(r"^revoke-audit fix\.+Failed$", out, re.M), out
    assert "files were modified by this hook" in out
    assert "revoke.pbn:25: board 2: RV002" in out
    after = CliRunner().invoke(main, ["fix", str(repo / "rotated.lin")])
    assert (after.exit_code, after.stdout) == (0, "")
    assert (repo / "revoke.pbn").read_bytes() == REVOKE.read_bytes()
