"""The command as a real process: signals (exit 130/143, no temp file, workers end quietly), a
closed stdin, a failing stdout, and a disk that fills up (a small tmpfs, where one can be
mounted).  Each test starts ``python -m revoke_audit.cli.commands`` and checks its exit code and its
whole stderr, so a traceback or a warning from any process fails it."""
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(os.name != "posix", reason="POSIX signals and file descriptors")

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
REVOKE_PBN = (FIXTURES / "cli" / "revoke.pbn").read_bytes()
CMD = [sys.executable, "-m", "revoke_audit.cli.commands"]


def start(args: list[str], cwd: Path) -> subprocess.Popen:
    """The command in its own process group (as a shell job), stdin a pipe left open."""
    return subprocess.Popen(CMD + args, cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, start_new_session=True)


def wait_for(condition, what: str, timeout: float = 120) -> None:
    end = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


def temp_files(folder: Path) -> list[Path]:
    return list(folder.glob(".revoke-audit-*"))


def deaf_to_sigint(pid: int) -> list[int]:
    """Children of ``pid`` that block or ignore SIGINT (the pool's workers from their start,
    the resource tracker)."""
    try:
        kids = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return []
    ready = []
    for kid in kids:
        try:
            status = Path(f"/proc/{kid}/status").read_text()
        except OSError:
            continue
        masks = [int(l.split()[1], 16) for l in status.splitlines()
                 if l.startswith(("SigIgn:", "SigBlk:"))]
        if any(m & (1 << (signal.SIGINT - 1)) for m in masks):
            ready.append(int(kid))
    return ready


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_exits_128_plus_its_number_and_leaves_the_old_reports(tmp_path, sig):
    out = tmp_path / "out"
    out.mkdir()
    (out / "boards.csv").write_text("old boards\n")
    p = start(["audit", "-", "-o", "out/boards.csv", "--findings", "out/findings.csv"], tmp_path)
    p.stdin.write(REVOKE_PBN)
    p.stdin.flush()  # and no end of file: the run waits for more
    wait_for(lambda: len(temp_files(out)) == 2, "the reports' temp files")
    p.send_signal(sig)
    stdout, stderr = p.communicate(timeout=60)
    assert p.returncode == 128 + sig
    assert stderr.decode() == f"revoke-audit: stopped by {sig.name}; no report written\n"
    assert (out / "boards.csv").read_text() == "old boards\n"
    assert not (out / "findings.csv").exists() and not temp_files(out)


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs /proc to see the workers")
@pytest.mark.parametrize("sig, group", [(signal.SIGTERM, False), (signal.SIGINT, True),
                                        (signal.SIGTERM, True)])
def test_workers_end_quietly(tmp_path, sig, group):
    many = tmp_path / "many"
    many.mkdir()
    session = sorted((FIXTURES / "mixed").iterdir())
    for i in range(60):
        for src in session:
            shutil.copy(src, many / f"{i:03d}-{src.name}")
    out = tmp_path / "out"
    out.mkdir()
    # stdin first: the parent waits on it while the workers audit the folder
    p = start(["audit", "-", "many", "--jobs", "2", "-o", "out/boards.csv"], tmp_path)
    wait_for(lambda: temp_files(out) and len(deaf_to_sigint(p.pid)) >= 2, "the workers")
    if group:  # as Ctrl-C or a service manager does: every process of the job
        os.killpg(p.pid, sig)
    else:
        p.send_signal(sig)
    stdout, stderr = p.communicate(timeout=120)
    assert p.returncode == 128 + sig
    assert stderr.decode() == f"revoke-audit: stopped by {sig.name}; no report written\n"
    assert not (out / "boards.csv").exists() and not temp_files(out)


def workers(pid: int) -> list[int]:
    """The pool's worker processes under ``pid`` (not the resource tracker), forked or spawned."""
    found = []
    for kid in Path(f"/proc/{pid}/task/{pid}/children").read_text().split():
        try:
            if b"resource_tracker" not in Path(f"/proc/{kid}/cmdline").read_bytes():
                found.append(int(kid))
        except OSError:  # it ended meanwhile
            continue
    return found


def cpu_ticks(pid: int) -> int:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])  # utime + stime


def idle(pids: list[int]) -> bool:
    """No CPU used by any of ``pids`` for half a second: they wait for work."""
    before = [cpu_ticks(p) for p in pids]
    time.sleep(0.5)
    return before == [cpu_ticks(p) for p in pids]


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs /proc to see the workers")
@pytest.mark.parametrize("moment", ["idle", "busy"])
def test_a_worker_killed_from_outside_never_hangs_the_run(tmp_path, moment):
    """A worker killed by someone else (the system out of memory, a ``kill -9``).  Idle, it
    dies holding the task queue's lock, which made ``multiprocessing.Pool`` wait for ever on
    the way out (seen in CI as a SIGTERM to the process group): the run now ends with every
    report row, as its work was done.  Busy, its work is lost: one line, exit 2."""
    many = tmp_path / "many"
    many.mkdir()
    copies = 60 if moment == "idle" else 1500  # two batches; many, still at work when killed
    for i in range(copies):
        for src in sorted((FIXTURES / "mixed").iterdir()):
            shutil.copy(src, many / f"{i:03d}-{src.name}")
    out = tmp_path / "out"
    out.mkdir()
    p = start(["audit", "-", "many", "--jobs", "2", "-o", "out/boards.csv"], tmp_path)
    wait_for(lambda: temp_files(out) and len(workers(p.pid)) == 2, "the workers")
    pids = workers(p.pid)
    if moment == "idle":
        wait_for(lambda: idle(pids), "the workers to finish their work")
    os.kill(pids[0], signal.SIGKILL)
    stdout, stderr = p.communicate(REVOKE_PBN, timeout=120)
    if moment == "idle":
        assert (p.returncode, stderr.decode()) == (1, "")
        sources = {line.split(",")[0] for line in (out / "boards.csv").read_text().splitlines()[1:]}
        assert len(sources) == 1 + 2 * copies
    else:
        assert (p.returncode, stderr.decode()) == (
            2, "revoke-audit: a worker process ended abruptly (killed, or out of memory); "
               "no report written\n")
        assert not (out / "boards.csv").exists() and not temp_files(out)


def test_a_closed_stdin_is_a_one_line_error(tmp_path):
    done = subprocess.run(CMD + ["audit", "-"], cwd=tmp_path, capture_output=True,
                          preexec_fn=lambda: os.close(0), timeout=120)
    assert (done.returncode, done.stdout, done.stderr.decode()) == (
        2, b"", "Error: cannot read - (standard input): it is closed\n")


@pytest.mark.parametrize("args", [[], ["-o", "-"]])
def test_a_closed_stdout_is_a_one_line_error(tmp_path, args):
    (tmp_path / "revoke.pbn").write_bytes(REVOKE_PBN)
    done = subprocess.run(CMD + ["audit", "revoke.pbn", *args], cwd=tmp_path, stderr=subprocess.PIPE,
                          preexec_fn=lambda: os.close(1), timeout=120)
    assert (done.returncode, done.stderr.decode()) == (
        2, "Error: cannot write standard output: it is closed\n")


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("fmt", ["text", "csv", "sarif", "github"])
def test_a_failing_stdout_is_a_one_line_error(tmp_path, fmt):
    (tmp_path / "revoke.pbn").write_bytes(REVOKE_PBN)
    with open("/dev/full", "w") as full:
        done = subprocess.run(CMD + ["audit", "revoke.pbn", "--format", fmt], cwd=tmp_path,
                              stdout=full, stderr=subprocess.PIPE, timeout=120)
    summary = ("1 board: 0 clean, 1 irregular, 0 inconsistent, 0 unreadable; 1 revoke finding, "
               "0 defective tricks, 0 record errors, 0 parse problems\n")
    error = "Error: cannot write standard output: No space left on device\n"
    assert done.returncode == 2
    # text: the first finding fails; csv and github stream; sarif is written after the summary
    assert done.stderr.decode() in (error, summary + error)


@pytest.fixture
def small_disk(tmp_path):
    """A 64 KiB tmpfs (needs root and mount; skipped otherwise)."""
    mnt = tmp_path / "small"
    mnt.mkdir()
    if os.geteuid() != 0 or not shutil.which("mount"):
        pytest.skip("mounting a tmpfs needs root")
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(mnt)],
                          capture_output=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs: {done.stderr.decode().strip()}")
    try:
        yield mnt
    finally:
        subprocess.run(["umount", str(mnt)], check=True)


def test_a_full_disk_leaves_both_old_reports_and_no_temp_file(tmp_path, small_disk):
    (small_disk / "boards.csv").write_text("old boards\n")
    (small_disk / "findings.csv").write_text("old findings\n")
    many = tmp_path / "many"
    many.mkdir()
    session = (FIXTURES / "mixed" / "thursday-pairs.pbn").read_text()
    for i in range(40):  # about 200 KiB of reports: more than the disk holds
        # other players at each table, so that no copy is the same record as another (DU001)
        (many / f"{i:03d}.pbn").write_text(session.replace("Ed North", f"Ed North {i}"))
    done = subprocess.run(CMD + ["audit", "many", "-q", "-o", str(small_disk / "boards.csv"),
                                 "--findings", str(small_disk / "findings.csv")],
                          cwd=tmp_path, capture_output=True, timeout=300)
    assert done.returncode == 2
    assert done.stderr.decode().splitlines()[-1] in (
        f"Error: cannot write {small_disk / name}: No space left on device"
        for name in ("boards.csv", "findings.csv"))
    assert "Traceback" not in done.stderr.decode()
    assert (small_disk / "boards.csv").read_text() == "old boards\n"
    assert (small_disk / "findings.csv").read_text() == "old findings\n"
    assert not temp_files(small_disk)


def test_the_pools_thread_is_quiet_once_the_pool_is_broken(monkeypatch):
    """A signal to the whole job kills the workers while work is still being submitted: the
    executor's thread may then die of a race inside Python 3.11's pool (a dict changed while
    it fails the pending work).  Once the pool is broken that thread's error is not shown (the
    stop message says it all); before that, or from any other thread, it goes to the hook as
    always."""
    import threading
    from types import SimpleNamespace

    from revoke_audit.engine.workers import worker_pool

    shown = []
    monkeypatch.setattr(threading, "excepthook", lambda args: shown.append(args.thread.name))
    before = threading.excepthook
    manager = type("_ExecutorManagerThread", (), {"name": "manager"})()
    other = type("Thread", (), {"name": "other"})()

    def raised_in(thread):
        threading.excepthook(SimpleNamespace(exc_type=RuntimeError, exc_value=RuntimeError(),
                                             exc_traceback=None, thread=thread))

    with worker_pool(1) as pool:
        raised_in(manager)  # the pool is not broken: a real fault, shown
        pool._broken = "A child process terminated abruptly"
        raised_in(manager)
        raised_in(other)
        pool._broken = False
    assert shown == ["manager", "other"]
    assert threading.excepthook is before


def alive(pid: int) -> bool:
    """``pid`` still runs (not a zombie: an orphan's zombie is reaped by init soon enough)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the parent-death signal")
@pytest.mark.parametrize("spawn_only", ["", "1"])
def test_workers_end_when_the_parent_is_killed(tmp_path, spawn_only):
    """A ``kill -9`` of the parent (or the system out of memory) gives it no time to end its
    workers: they must notice its death themselves and exit, not wait for work for ever."""
    many = tmp_path / "many"
    many.mkdir()
    for i in range(60):
        for src in sorted((FIXTURES / "mixed").iterdir()):
            shutil.copy(src, many / f"{i:03d}-{src.name}")
    out = tmp_path / "out"
    out.mkdir()
    p = subprocess.Popen(CMD + ["audit", "-", "many", "--jobs", "2", "-o", "out/boards.csv"],
                         cwd=tmp_path, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL, start_new_session=True,
                         env={**os.environ, "REVOKE_AUDIT_SPAWN_WORKERS": spawn_only})
    try:
        wait_for(lambda: temp_files(out) and len(workers(p.pid)) == 2, "the workers")
        pids = workers(p.pid)
        wait_for(lambda: idle(pids), "the workers to finish their work")
        p.kill()
        p.wait(timeout=60)
        wait_for(lambda: not any(map(alive, pids)), "the orphaned workers to exit", timeout=60)
    finally:
        try:
            os.killpg(p.pid, signal.SIGKILL)  # whatever is left of the test's process group
        except ProcessLookupError:
            pass
        p.stdin.close()


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("stderr", ["full", "closed"])
@pytest.mark.parametrize("args, code", [
    (["revoke.pbn"], 1),  # findings
    (["revoke.pbn", "--exit-zero"], 0),
    (["revoke.pbn", "--exit-zero", "--format", "json"], 0),  # the summary goes to stderr
    (["revoke.pbn", "--exit-zero", "--progress"], 0),
    (["missing.pbn", "--exit-zero"], 2),  # an I/O error
    (["revoke.pbn", "--exit-zero", "--no-such-option"], 2),  # a usage error
])
def test_the_exit_code_is_the_runs_whatever_happens_to_stderr(tmp_path, stderr, args, code):
    """A stderr that fails every write (``2>/dev/full``) or is closed (``2>&-``) cannot say
    anything, but it must not change the exit code: not 1 (findings) for an error, not 2 for
    a run that succeeded."""
    (tmp_path / "revoke.pbn").write_bytes(REVOKE_PBN)
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            CMD + ["audit", *args], cwd=tmp_path, stdout=subprocess.DEVNULL, timeout=120,
            **({"stderr": full} if stderr == "full" else {"preexec_fn": lambda: os.close(2)}))
    assert done.returncode == code


# ``python -m revoke_audit audit -`` once Python itself is up (its start, before any module of
# the package, is not ours): the line "up" says when
STARTED = """
import runpy, sys
print("up", flush=True)
sys.argv = ["revoke-audit", "audit", "-"]
runpy.run_module("revoke_audit", run_name="__main__", alter_sys=True)
"""


@pytest.mark.parametrize("delay", [0.05, 0.1, 0.2, 0.3])
def test_ctrl_c_while_the_modules_load_exits_130_quietly(tmp_path, delay):
    """SIGINT at moments of the start, while the package's modules load: exit 130 and no
    KeyboardInterrupt traceback."""
    p = subprocess.Popen([sys.executable, "-c", STARTED], cwd=tmp_path, stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    assert p.stdout.readline() == b"up\n"
    time.sleep(delay)
    p.send_signal(signal.SIGINT)
    stdout, stderr = p.communicate(timeout=60)
    assert p.returncode == 130
    assert stderr.decode() in ("", "revoke-audit: stopped by SIGINT; no report written\n")


LOADING = """
import builtins, os, signal, sys, time
import revoke_audit.__main__ as entry
loaded = sorted(m for m in sys.modules if m.startswith("revoke_audit."))
print(loaded, flush=True)
real = builtins.__import__

def interrupted(name, *args, **kwargs):
    if "cli" in name.split("."):  # the command's modules (cli, cli.commands): Ctrl-C now
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.5)
    return real(name, *args, **kwargs)

builtins.__import__ = interrupted
sys.argv = ["revoke-audit", "audit", "-"]
entry.main()
"""


def test_the_entry_point_loads_little_before_ctrl_c_is_quiet(tmp_path):
    """The console script and ``python -m revoke_audit`` start in ``__main__.main``, which
    makes Ctrl-C quiet before it loads the command's modules; the package itself loads
    lazily, so that only a few small modules come before."""
    done = subprocess.run([sys.executable, "-c", LOADING], cwd=tmp_path, capture_output=True,
                          text=True, timeout=60)
    loaded = eval(done.stdout.splitlines()[0])
    assert "revoke_audit.cli.commands" not in loaded and "revoke_audit.ruling.audit" not in loaded, loaded
    assert (done.returncode, done.stderr) == (130, "")
