"""The run: files in batches of about the same size for the worker processes, and the same
reports, in the same order, whatever the number of processes or the batching."""
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

import revoke_audit.engine.units as run
from revoke_audit.cli.commands import main

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
ARCHIVE = Path(__file__).resolve().parents[2] / "shared" / "archive"


def sized(tmp_path, sizes):
    paths = []
    for i, n in enumerate(sizes):
        p = tmp_path / f"{i:02}.pbn"
        p.write_bytes(b"x" * n)
        paths.append(str(p))
    return paths


def test_small_files_go_together_and_a_large_file_alone(tmp_path, monkeypatch):
    """Target: total / (jobs * BATCHES_PER_JOB) bytes, within BATCH_BYTES.  With bounds (100, 1000), 8 and 2
    jobs, 16 files totalling 3,200 bytes target 200 bytes: a batch closes once it holds 200."""
    monkeypatch.setattr(run, "BATCH_BYTES", (100, 1000))
    monkeypatch.setattr(run, "BATCHES_PER_JOB", 8)
    paths = sized(tmp_path, [50] * 4 + [2400] + [50] * 11)
    got = run.batches(paths, 2)
    assert [len(b) for b in got] == [4, 1, 4, 4, 3]
    assert [p for b in got for p in b] == paths  # input order, every file once


def test_a_missing_file_still_has_its_place(tmp_path):
    paths = sized(tmp_path, [10]) + [str(tmp_path / "gone.pbn")]
    assert run.batches(paths, 2) == [paths]


def audit(args, tmp_path, tag):
    b, f = tmp_path / f"b{tag}.csv", tmp_path / f"f{tag}.csv"
    r = CliRunner().invoke(main, ["audit", *args, "-o", str(b), "--findings", str(f)])
    return r.output, b.read_bytes(), f.read_bytes()


@pytest.mark.parametrize("bounds", [(1, 1), (1 << 20, 1 << 20)])
def test_jobs_2_gives_jobs_1_byte_for_byte_however_files_are_batched(tmp_path, monkeypatch,
                                                                      bounds):
    """Every fixture (71 boards in 50-odd files: damaged, archives, both formats), one file
    per batch and all files in one batch."""
    monkeypatch.setattr(run, "BATCH_BYTES", bounds)
    one = audit([str(FIXTURES), "--exit-zero"], tmp_path, 1)
    two = audit([str(FIXTURES), "--exit-zero", "--jobs", "2"], tmp_path, 2)
    assert one == two and one[1].count(b"\n") > 60


@pytest.mark.skipif(not ARCHIVE.is_dir(), reason="the archive slice is not beside the project")
def test_jobs_2_on_a_slice_of_the_vugraph_archive(tmp_path):
    """Five folders of the slice (about 100 files, 2,000 boards): real faults included."""
    folders = sorted(p for p in ARCHIVE.rglob("raw_lin_data/*") if p.is_dir())[:5]
    args = [str(p) for p in folders] + ["--exit-zero"]
    one = audit(args, tmp_path, 1)
    two = audit(args + ["--jobs", "2"], tmp_path, 2)
    assert one == two and one[1].count(b"\n") > 40


@pytest.mark.parametrize("screen", [["--select", "RV"], ["--ignore", "RC,PS"]])
def test_jobs_2_with_findings_screened_out_gives_jobs_1_byte_for_byte(tmp_path, screen):
    """Workers send each board's CSV lines with its rows; when --select or --ignore drops
    findings, the parent restates the rows and must not copy the worker's old lines."""
    one = audit([str(FIXTURES), "--exit-zero", *screen], tmp_path, 1)
    two = audit([str(FIXTURES), "--exit-zero", "--jobs", "2", *screen], tmp_path, 2)
    everything = audit([str(FIXTURES), "--exit-zero"], tmp_path, 3)
    assert one == two and one[2] != everything[2]


def test_rendered_rows_come_back_from_a_worker_as_they_were():
    """Rows travel as their values alone (``Rendered.__reduce__``); keys, order and values
    come back the same, and a row of other keys travels as it is."""
    import pickle

    from revoke_audit.reports.rows import BOARD_COLUMNS, FINDING_COLUMNS, Rendered

    board = {c: i for i, c in enumerate(BOARD_COLUMNS)}
    finding = {c: str(i) for i, c in enumerate(FINDING_COLUMNS)}
    odd = {"code": "RC040", "source": "log.csv"}
    for r in (Rendered(board, [finding, odd], frozenset({3}), ("b\n", "f\n")),
              Rendered(None, [odd])):
        back = pickle.loads(pickle.dumps(r))
        assert back == r and [list(f) for f in back.findings] == [list(f) for f in r.findings]
        assert back.row is None or list(back.row) == list(BOARD_COLUMNS)


def test_processes_are_started_only_for_work_that_can_use_them(tmp_path, monkeypatch):
    """Workers start before the work is planned; no more of them than files, unless a file is
    large enough to be split between them."""
    small = sized(tmp_path, [10, 10])
    assert run.processes_wanted(small, 4) == 2 and run.processes_wanted(small, 2) == 2
    monkeypatch.setattr(run, "PART_MIN_BYTES", 5)
    assert run.processes_wanted(small[:1], 4) == 4


@pytest.mark.parametrize("fmt", ["jsonl", "json", "sarif", "github", "csv"])
def test_jobs_2_gives_jobs_1_on_stdout_in_every_format(tmp_path, fmt):
    """Boards without findings come back from the workers lean (status and CSV lines) only
    when nothing on stdout needs their cells; JSON needs them, text and annotations do not."""
    args = [str(FIXTURES / "mixed"), "--exit-zero", "--format", fmt]
    one = CliRunner().invoke(main, ["audit", *args])
    two = CliRunner().invoke(main, ["audit", *args, "--jobs", "2"])
    assert one.exit_code == two.exit_code == 0 and one.stdout == two.stdout and one.stdout
    assert one.stderr == two.stderr


def test_a_lean_row_says_what_it_lacks():
    from revoke_audit.reports.rows import BOARD_COLUMNS, Rendered

    full = Rendered({c: "" for c in BOARD_COLUMNS} | {"status": "clean"}, [], csv=("b\n", ""))
    lean = full.lean()
    assert lean.status == "clean" and lean.csv == full.csv
    with pytest.raises(KeyError, match="sent back lean"):
        lean.row["source"]
    with_finding = Rendered(full.row, [{"code": "RV001"}], csv=("b\n", "f\n"))
    assert with_finding.lean() is with_finding  # a board with findings keeps its row


def test_consecutive_clean_boards_travel_as_one_run():
    """A worker sends each run of clean lean boards as one item with their boards.csv text and
    number; a board with findings, or not clean, stays itself, in its place."""
    import pickle

    from revoke_audit.reports.rows import BOARD_COLUMNS, CleanRun, Rendered, clean_runs

    def board(i, status="clean", findings=()):
        row = {c: "" for c in BOARD_COLUMNS} | {"status": status}
        return Rendered(row, list(findings), csv=(f"b{i}\n", "f\n" if findings else "")).lean()

    rows = [board(0), board(1), board(2, "irregular", [{"code": "RV001"}]), board(3),
            board(4, "unreadable"), board(5), board(6)]
    got = clean_runs(rows)
    assert [type(r).__name__ for r in got] == ["CleanRun", "Rendered", "CleanRun", "Rendered",
                                               "CleanRun"]
    assert [r.boards for r in got] == [2, 1, 1, 1, 2]
    assert [r.csv[0] for r in got] == ["b0\nb1\n", "b2\n", "b3\n", "b4\n", "b5\nb6\n"]
    assert got[1] is rows[2] and got[3] is rows[4]
    back = pickle.loads(pickle.dumps(got[0]))
    assert type(back) is CleanRun and back.boards == 2 and back.csv == ("b0\nb1\n", "")
    assert back.status == "clean" and back.lean() is back and not back.findings


def test_jobs_2_counts_every_board_of_a_clean_run(tmp_path, monkeypatch):
    """The summary counts the boards a clean run stands for, not the items: the same line as
    with one process."""
    from builders import revoking_board

    from revoke_audit.formats.pbn import format_pbn

    monkeypatch.setattr(run, "PART_MIN_BYTES", 5)
    monkeypatch.setattr(run, "PART_GAMES", 4)
    path = tmp_path / "many.pbn"
    path.write_text("\n".join(format_pbn(replace(revoking_board(i, set(), i % 5, i % 4)[0],
                                                  board=str(i + 1)))
                              for i in range(30)))
    args = ["audit", str(path), "-o", str(tmp_path / "b.csv"), "--exit-zero"]
    one = CliRunner().invoke(main, args)
    two = CliRunner().invoke(main, [*args, "--jobs", "2"])
    assert "30 boards: 30 clean" in one.stdout and one.stdout == two.stdout


def test_jobs_2_writes_the_parquet_report_of_jobs_1(tmp_path):
    """A Parquet report takes every cell of every board: no board comes back lean for it."""
    pd = pytest.importorskip("pandas")
    pytest.importorskip("pyarrow")
    frames = []
    for jobs in ("1", "2"):
        out = tmp_path / f"b{jobs}.parquet"
        r = CliRunner().invoke(main, ["audit", str(FIXTURES / "mixed"), "--exit-zero",
                                      "-o", str(out), "--jobs", jobs])
        assert r.exit_code == 0, r.output
        frames.append(pd.read_parquet(out))
    pd.testing.assert_frame_equal(frames[0], frames[1])
    assert (frames[0]["status"] == "clean").any() and frames[0]["source"].notna().all()


def test_a_large_file_that_cannot_be_split_is_audited_by_the_parent(tmp_path, monkeypatch):
    """One worker would hold all of such a file's rows and send them at once (871 MB at 100 MB
    of input): the parent reads it as one process does, streaming its rows, while the workers
    take the rest.  The reports are those of one process."""
    import revoke_audit.engine.run as runner
    from test_parts import games

    monkeypatch.setattr(run, "PART_GAMES", 4)
    monkeypatch.setattr(run, "PART_MIN_BYTES", 1)
    monkeypatch.setattr(run, "PARENT_BYTES", 5_000)
    big = tmp_path / "big.pbn"  # a % directive between games: not split
    big.write_text(games(30, revoke_every=5).replace('\n\n[Event', '\n\n%x\n[Event', 1))
    small = tmp_path / "small.pbn"
    small.write_text(games(3))
    assert big.stat().st_size > 5_000 > small.stat().st_size
    read = []
    real = runner.read_file
    monkeypatch.setattr(runner, "read_file", lambda src, *a, **k: read.append(src) or real(src, *a, **k))
    paths = [str(small), str(big), str(small)]
    one = audit([*paths, "--exit-zero"], tmp_path, 1)
    read.clear()
    two = audit([*paths, "--exit-zero", "--jobs", "2"], tmp_path, 2)
    assert read == [str(big)] and one == two and one[1].count(b"\n") == 34


def test_a_run_of_one_process_writing_csv_imports_only_what_it_uses(tmp_path):
    """A whole one-process audit to CSV never splits a file (``formats.parts`` and its
    scans' regexes), loads no pandas, Jinja2 or endplay's package, and no solver when no board
    has a revoke: each is paid for by a run that uses it."""
    import subprocess
    import sys

    from builders import board
    from deals import BASE1, D1
    from revoke_audit.formats.pbn.write import format_pbn

    clean = tmp_path / "clean.pbn"  # D1's clean play, 4H+3 by South: nothing to find
    clean.write_text(format_pbn(board(D1, "4H", "S", BASE1, result=13)))
    script = (
        "import sys\n"
        "from revoke_audit.cli.commands import main\n"
        "try:\n"
        f"    main(['audit', {str(clean)!r}, '-o', {str(tmp_path / 'b.csv')!r},"
        f" '--findings', {str(tmp_path / 'f.csv')!r}, '-q', '--exit-zero'])\n"
        "except SystemExit:\n"
        "    pass\n"
        "print(sorted(m for m in ('revoke_audit.formats.parts', 'pandas', 'jinja2', 'endplay',"
        " 'revoke_audit.ruling.equity') if m in sys.modules))\n")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip().splitlines()[-1] == "[]"
