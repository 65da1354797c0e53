"""``fix --write`` under attack (the hostile run against 04eb171, F1, F3, F10, F21, F22, F25):
a file written to or renamed while its repair was proved is left as it is; the owner, group
and hard links of a file are kept or the file is left; a signal during the write leaves no
temp file; standard input is refused; names and record text are escaped; a stdout that cannot
be written is exit 2 with a message."""
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import revoke_audit.ruling.repair as repair
from revoke_audit.cli.commands import main
from revoke_audit.ruling.repair import plan_paths
from revoke_audit.reports.rewrite import Left, rewrite

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
FIXABLE = FIXTURES / "pbn" / "fault_time_order.pbn"


def fix(*args: str):
    return CliRunner().invoke(main, ["fix", *args])


def fixable(tmp_path: Path, name: str = "live.pbn") -> Path:
    path = tmp_path / name
    shutil.copyfile(FIXABLE, path)
    return path


def meanwhile(monkeypatch, act):
    """``plan_paths`` that calls ``act(plan)`` once a plan is made, before ``fix`` writes."""
    real = repair.plan_paths

    def planned(*args, **kwargs):
        for plan in real(*args, **kwargs):
            act(plan)
            yield plan

    monkeypatch.setattr(repair, "plan_paths", planned)


def test_boards_appended_while_planning_are_kept(tmp_path, monkeypatch):
    path = fixable(tmp_path)
    appended = b'\n[Event "appended during fix"]\n'
    meanwhile(monkeypatch, lambda plan: path.open("ab").write(appended))
    result = fix("--write", str(path))
    assert result.exit_code == 1
    assert f"{path}: not mended: it changed since it was read" in result.stderr
    assert path.read_bytes() == FIXABLE.read_bytes() + appended
    assert "0 files mended, 1 with something to mend" in result.stderr


def test_a_file_renamed_away_is_not_written_again(tmp_path, monkeypatch):
    path = fixable(tmp_path)
    meanwhile(monkeypatch, lambda plan: path.rename(tmp_path / "rotated.pbn"))
    result = fix("--write", str(path))
    assert result.exit_code == 1 and "it is gone since it was read" in result.stderr
    assert not path.exists()
    assert (tmp_path / "rotated.pbn").read_bytes() == FIXABLE.read_bytes()


def test_a_file_replaced_by_another_of_the_same_size_is_left(tmp_path):
    path = fixable(tmp_path)
    (plan,) = plan_paths([path])
    other = bytearray(plan.original)
    other[5] = ord("#") if other[5] != ord("#") else ord("$")
    path.write_bytes(bytes(other))
    with pytest.raises(Left, match="changed since it was read"):
        rewrite(str(path), plan.original, plan.mended)
    assert path.read_bytes() == bytes(other)


def test_hard_links_are_never_parted(tmp_path):
    """A folder holding both names (read once, by inode) and a pair with one name outside:
    the file is left, with the reason, and both names keep the same bytes."""
    path = fixable(tmp_path / "d" if (tmp_path / "d").mkdir() is None else tmp_path)
    os.link(path, tmp_path / "d" / "twin.pbn")
    os.link(path, tmp_path / "outside.pbn")
    for target in (tmp_path / "d", path):
        result = fix("--write", str(target))
        assert result.exit_code == 1
        assert "has 3 names (hard links)" in result.stderr
    assert os.stat(path).st_nlink == 3
    assert (tmp_path / "outside.pbn").read_bytes() == path.read_bytes() == FIXABLE.read_bytes()


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="needs root")
def test_as_root_the_owner_and_mode_are_kept(tmp_path):
    path = fixable(tmp_path)
    os.chown(path, 65534, 65534)
    os.chmod(path, 0o640)
    assert fix("--write", str(path)).exit_code == 0
    st = os.stat(path)
    assert (st.st_uid, st.st_gid, st.st_mode & 0o777) == (65534, 65534, 0o640)
    assert path.read_bytes() != FIXABLE.read_bytes()


def test_a_signal_during_the_write_leaves_no_temp_file(tmp_path):
    """SIGTERM while the mended copy is synced: exit 143, the original intact, and no
    ``.revoke-audit-*.tmp`` beside it."""
    path = fixable(tmp_path)
    script = ("import os, signal, sys\n"
              "os.fsync = lambda fd: os.kill(os.getpid(), signal.SIGTERM)\n"
              "from revoke_audit.cli.commands import main\n"
              "main(['fix', '--write', sys.argv[1]])\n")
    done = subprocess.run([sys.executable, "-c", script, str(path)], capture_output=True)
    assert done.returncode == 143, done.stderr
    assert path.read_bytes() == FIXABLE.read_bytes()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["live.pbn"]


@pytest.mark.parametrize("args", [["-"], ["--write", "-"]])
def test_standard_input_cannot_be_mended(args):
    result = CliRunner().invoke(main, ["fix", *args], input=FIXABLE.read_text())
    assert result.exit_code == 2
    assert "standard input (-) cannot be mended" in result.output


def test_names_and_record_text_are_escaped(tmp_path):
    """A name that would set the terminal's title or start a GitHub ``::error`` line, and an
    escape sequence in a comment beside the change: shown as escapes (``visible``)."""
    folder = tmp_path / "d"
    folder.mkdir()
    text = FIXABLE.read_text().replace("[Play", "{note \x1b]0;TITLE\x07}\n[Play", 1)
    for name in ("\x1b]0;PWNED\x07 evil.pbn", "a\n::error file=a.pbn::injected\n.pbn"):
        (folder / name).write_text(text)
    result = fix(str(folder))
    assert result.exit_code == 1
    for stream in (result.stdout, result.stderr):
        assert "\x1b" not in stream and "\x07" not in stream
        assert not any(line.startswith("::") for line in stream.splitlines())
    assert "\\x1b]0;PWNED\\x07 evil.pbn" in result.stderr
    assert "a\\x0a::error file=a.pbn::injected\\x0a.pbn" in result.stdout
    assert "{note \\x1b]0;TITLE\\x07}" in result.stdout


def test_a_full_stdout_is_an_io_error(tmp_path):
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full")
    path = fixable(tmp_path)
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "revoke_audit", "fix", str(path)],
                              stdout=full, stderr=subprocess.PIPE, text=True)
    assert done.returncode == 2
    assert "internal error" not in done.stderr and "cannot write standard output" in done.stderr


def test_a_closed_stdout_is_an_io_error(tmp_path):
    path = fixable(tmp_path)
    done = subprocess.run([sys.executable, "-m", "revoke_audit", "fix", str(path)],
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                          preexec_fn=lambda: os.close(1))
    assert done.returncode == 2, done.stderr
    assert "cannot write standard output" in done.stderr


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0,
                    reason="root writes any folder")
def test_a_folder_that_cannot_be_written(tmp_path):
    folder = tmp_path / "ro"
    folder.mkdir()
    path = fixable(folder)
    folder.chmod(0o555)
    try:
        result = fix("--write", str(path))
    finally:
        folder.chmod(0o755)
    assert result.exit_code == 2
    assert "internal error" not in result.output and f"cannot write {path}" in result.output


def test_repairs_refuses_standard_input():
    import revoke_audit

    with pytest.raises(ValueError, match="standard input"):
        revoke_audit.repairs(["-"])


def test_a_temp_file_that_cannot_be_made_is_a_message(tmp_path, monkeypatch):
    """The folder cannot be written (as root it always can: the refusal is made by hand): exit
    2 with ``cannot write``, not an internal error, and the file as it was."""
    import revoke_audit.reports.rewrite as rewrite_module
    from revoke_audit.reports.targets import ReportError

    def refused(path, binary=False):
        raise ReportError(path, PermissionError(13, "Permission denied"))

    monkeypatch.setattr(rewrite_module, "file_target", refused)
    path = fixable(tmp_path)
    result = fix("--write", str(path))
    assert result.exit_code == 2
    assert f"cannot write {path}: Permission denied" in result.output
    assert "internal error" not in result.output and path.read_bytes() == FIXABLE.read_bytes()
