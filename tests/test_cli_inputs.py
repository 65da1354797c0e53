"""The command line's inputs: paths that cannot be read and runs with no hand record exit 2,
archives read like folders, the limits against archive bombs and their options."""
import gzip
import io
import json
import os
import tarfile
import zipfile
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner

from revoke_audit.cli import audit as cli_mod
from revoke_audit.cli.commands import main

from test_sources import BAD, bad_zip

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
SUMMARY_NONE = ("0 clean, 0 irregular, 0 inconsistent, 0 unreadable; 0 revoke findings, "
                "0 defective tricks, 0 record errors, 1 parse problem")


@pytest.fixture
def cli(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    return lambda *args, **kw: runner.invoke(main, list(map(str, args)), **kw)


def copy_fixtures(folder: Path) -> Path:
    """The fixtures a club would keep, under the names hand records turn up with."""
    (folder / "sub").mkdir(parents=True)
    (folder / "session.PBN").write_bytes((FIXTURES / "mixed" / "thursday-pairs.pbn").read_bytes())
    (folder / "bbo").write_bytes((FIXTURES / "mixed" / "thursday-pairs-bbo.lin").read_bytes())
    (folder / "revoke.txt").write_bytes((FIXTURES / "cli" / "revoke.pbn").read_bytes())
    (folder / "sub" / "revoke.lin.gz").write_bytes(
        gzip.compress((FIXTURES / "cli" / "revoke.lin").read_bytes()))
    (folder / "sub" / "truncated.pbn").write_bytes((FIXTURES / "pbn" / "truncated.pbn").read_bytes())
    return folder


def test_an_unreadable_file_is_an_error_before_anything_is_written(cli, monkeypatch):
    Path("secret.pbn").write_bytes(b"[Board \"1\"]\n")
    real = os.access
    monkeypatch.setattr(cli_mod.os, "access",
                        lambda path, mode: not str(path).endswith("secret.pbn") and real(path, mode))
    r = cli("audit", "secret.pbn", "-o", "boards.csv")
    assert (r.exit_code, r.output) == (2, "Error: cannot read secret.pbn: permission denied\n")
    assert not Path("boards.csv").exists()


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads any file")
def test_a_file_without_read_permission_is_an_error(cli):
    Path("secret.pbn").write_bytes(b"[Board \"1\"]\n")
    Path("secret.pbn").chmod(0)
    r = cli("audit", "secret.pbn")
    assert (r.exit_code, r.output) == (2, "Error: cannot read secret.pbn: permission denied\n")


@pytest.mark.parametrize("make, code, message", [
    (lambda: Path("notes.txt").write_text("minutes of the meeting\n"), "PS003",
     "content is neither PBN nor LIN"),
    (lambda: Path("empty").mkdir(), "PS011", "no PBN or LIN file in this folder"),
    (lambda: Path("empty.zip").write_bytes(zipfile_bytes({})), "PS011",
     "no file in this archive (hidden ones aside)"),
    (lambda: Path("blank.pbn").write_bytes(b"\n\n"), "PS007", "the file holds only blank lines"),
    (lambda: Path("empty.pbn").write_bytes(b""), "PS007", "the file is empty"),
    (lambda: Path("results.json").write_text('{"boards": [{"board": 1}]}\n'), "PS003",
     "content is neither PBN nor LIN (it looks like JSON)"),
])
def test_a_run_with_no_hand_record_exits_2_and_keeps_its_row(cli, make, code, message):
    make()
    name = next(p.name for p in Path(".").iterdir())
    r = cli("audit", name, "-o", "boards.csv")
    assert r.exit_code == 2
    # its row is kept, but the summary counts boards: none here ("1 board" misled a director)
    assert r.stdout == (f"{name}:1: game 1: {code} {message}\n0 boards: {SUMMARY_NONE}; "
                        f"1 file without a board ({code})\n")
    assert r.stderr == f"Error: no hand record found in {name}\n"
    assert Path("boards.csv").read_text().splitlines()[1].startswith(f"{name},1,1,")


def test_a_damaged_file_is_findings_not_an_error(cli):
    truncated = FIXTURES / "pbn" / "cut_in_play.pbn"
    r = cli("audit", truncated, "-q")
    assert r.exit_code == 0
    assert r.output == ("2 boards: 1 clean, 0 irregular, 0 inconsistent, 1 unreadable; "
                        "0 revoke findings, 0 defective tricks, 0 record errors, 1 parse problem\n")
    assert cli("audit", truncated, "-q", "--fail-on", "any").exit_code == 1


def zipfile_bytes(members: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in members.items():
            z.writestr(name, data)
    return buf.getvalue()


def test_a_zip_gives_the_same_reports_as_the_folder(cli, tmp_path):
    folder = copy_fixtures(tmp_path / "club")
    members = {p.relative_to(folder).as_posix(): p.read_bytes()
               for p in sorted(folder.rglob("*"), reverse=True) if p.is_file()}
    Path("club.zip").write_bytes(zipfile_bytes(members))
    outs = []
    for path in ("club", "club.zip"):
        r = cli("audit", path, "-o", f"{path}-boards.csv", "--findings", f"{path}-findings.csv")
        assert r.exit_code == 1
        outs.append([r.output.replace("club.zip!", "club/")] + [
            Path(f"{path}-{kind}.csv").read_text().replace("club.zip!", "club/")
            for kind in ("boards", "findings")])
    assert outs[0] == outs[1]
    boards = outs[0][1].splitlines()
    assert len(boards) == 1 + 5 + 3 + 1 + 1 + 2
    assert [row.split(",")[0] for row in boards[1:]] == (
        ["club/bbo"] * 3 + ["club/revoke.txt"] + ["club/session.PBN"] * 5
        + ["club/sub/revoke.lin.gz"] + ["club/sub/truncated.pbn"] * 2)


def test_a_zip_of_a_session_and_a_text_file_counts_the_sessions_boards(cli):
    """A director zipped the evening's file with the scorer's notes: the summary said 19 boards.
    The notes keep their row (nothing lost) but are no board, in the summary and on the page."""
    pbn = (FIXTURES / "session" / "thursday-pairs.pbn").read_bytes()
    Path("evening.zip").write_bytes(zipfile_bytes({"thursday-pairs.pbn": pbn,
                                                   "notes.txt": b"the scorer's notes\n"}))
    r = cli("audit", "evening.zip", "-q", "-o", "boards.csv", "--html", "page.html")
    summary = r.stdout.rstrip("\n")
    assert summary.startswith("18 boards: 16 clean, 2 irregular, 0 inconsistent, 0 unreadable;")
    assert summary.endswith("; 1 file without a board (PS010)")
    rows = Path("boards.csv").read_text().splitlines()
    assert len(rows) == 1 + 1 + 18 and rows[1].startswith("evening.zip!notes.txt,")  # name order
    assert "<strong>18</strong> boards" in Path("page.html").read_text()


def test_archive_limits_have_options(cli, tmp_path):
    pbn = (FIXTURES / "mixed" / "thursday-pairs.pbn").read_bytes()
    Path("season.zip").write_bytes(zipfile_bytes({f"week{i}.pbn": pbn for i in range(3)}))
    r = cli("audit", "season.zip", "--max-archive-boards", "7", "-o", "boards.csv")
    rows = Path("boards.csv").read_text().splitlines()
    assert len(rows) == 1 + 7 + 1 and rows[-1].startswith("season.zip!week1.pbn,1,3,")
    assert ("season.zip!week1.pbn:1: game 3: PS015 more than 7 "
                                         "boards in one archive (--max-archive-boards); the rest "
                                         "of it was not read") in r.output.splitlines()
    r = cli("audit", "season.zip", "--max-archive-bytes", "4K", "--max-run-bytes", "1G")
    # the boards read, then the limit's row: a row, not a board
    assert "; 1 file not read to the end (PS012)" in r.output
    assert ("season.zip!week1.pbn:1: game 2: PS012 archive larger "
                                         "than 4 KiB decompressed (--max-archive-bytes); the rest "
                                         "of it was not read") in r.output.splitlines()
    assert cli("audit", "season.zip", "--max-archive-bytes", "1M", "-q").output.startswith(
        "15 boards: ")
    r = cli("audit", "season.zip", "--max-archive-bytes", "lots")
    assert r.exit_code == 2 and "'lots' is not a size" in r.output
    assert cli("audit", "season.zip", "--max-ratio", "0").exit_code == 2


def test_the_run_limit_is_shared_by_worker_processes(cli):
    pbn = (FIXTURES / "mixed" / "thursday-pairs.pbn").read_bytes()
    for name in "abcd":
        Path(f"{name}.pbn.gz").write_bytes(gzip.compress(pbn))
    r = cli("audit", ".", "--jobs", "2", "--max-run-bytes", str(len(pbn) * 2), "--format", "csv")
    rows = r.stdout.splitlines()[1:]
    read = [row for row in rows if ",unreadable," not in row]
    assert len(read) == 10 and sum(",PS013" in row or "unreadable" in row for row in rows) >= 2


NOT_UTF8 = BAD.removesuffix(b".pbn")  # Latin-1: not UTF-8
SHOWN = "\\xe9t\\xe9\\xff"  # as every report shows it


def test_a_name_that_is_not_utf8_never_ends_the_run(cli, tmp_path):
    """Named on the command line, found in a folder, a tar or zip member: the run goes on and
    every report (CSV, JSON, SARIF, text, GitHub, Parquet, baseline) shows the name with its
    undecodable bytes escaped; the baseline written matches the next run's findings."""
    revoke = (FIXTURES / "cli" / "revoke.pbn").read_bytes()
    os.mkdir(b"club")
    try:
        for raw in (NOT_UTF8 + b".pbn", b"club/" + NOT_UTF8 + b".pbn"):
            with open(raw, "wb") as fh:
                fh.write(revoke)
    except OSError:
        pytest.skip("this file system takes only UTF-8 names")
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.GNU_FORMAT) as t:
        info = tarfile.TarInfo(os.fsdecode(NOT_UTF8 + b".pbn"))
        info.size = len(revoke)
        t.addfile(info, io.BytesIO(revoke))
    Path("t.tar").write_bytes(buf.getvalue())
    Path("z.zip").write_bytes(bad_zip(True))  # the member's name breaks its UTF-8 flag
    args = [os.fsdecode(NOT_UTF8 + b".pbn"), "club", "t.tar", "z.zip"]
    names = [f"{SHOWN}.pbn", f"club/{SHOWN}.pbn", f"t.tar!{SHOWN}.pbn", f"z.zip!{SHOWN}.pbn"]
    for fmt in ("text", "csv", "json", "jsonl", "github", "sarif"):
        r = cli("audit", *args, "--format", fmt)
        assert r.exit_code == 1 and "internal error" not in r.output, fmt
        for name in names:
            if fmt in ("json", "jsonl", "sarif"):
                name = json.dumps(name)[1:-1]
            assert name in r.output or fmt == "sarif", (fmt, name)
        if fmt == "sarif":
            uris = {loc["physicalLocation"]["artifactLocation"]["uri"]
                    for run in json.JSONDecoder().raw_decode(r.output)[0]["runs"]
                    for res in run["results"]
                    for loc in res["locations"]}
            assert uris >= {"%5Cxe9t%5Cxe9%5Cxff.pbn", "club/%5Cxe9t%5Cxe9%5Cxff.pbn",
                            "t.tar%21%5Cxe9t%5Cxe9%5Cxff.pbn", "z.zip%21%5Cxe9t%5Cxe9%5Cxff.pbn"}
    r = cli("audit", *args, "-o", "b.csv", "--findings", "f.parquet", "--write-baseline", "bl.json")
    assert r.exit_code == 0, r.output
    rows = [row.split(",")[0] for row in Path("b.csv").read_text().splitlines()[1:]]
    assert rows == names[:3] + ["z.zip!a.pbn"] * 5 + names[3:]
    assert set(pd.read_parquet("f.parquet")["source"]) == {*names, "z.zip!a.pbn"}
    assert {e["source"] for e in json.loads(Path("bl.json").read_text())["findings"]} == {
        *names, "z.zip!a.pbn"}
    r = cli("audit", *args, "--baseline", "bl.json")
    assert r.exit_code == 0 and "internal error" not in r.output, r.output
