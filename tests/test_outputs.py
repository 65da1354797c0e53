"""What the command writes, and where: stdout reports, the Director's line, player names,
hostile names and cells, GitHub and SARIF output, reports replaced together or not at all, their
permissions, and the usage errors found before anything is read."""
import csv
import errno
import io
import json
import os
import stat
import threading
from importlib.metadata import version
from pathlib import Path

import pytest
from click.testing import CliRunner

import revoke_audit.cli.audit
import revoke_audit.cli.commands
import revoke_audit.cli.main
import revoke_audit.reports.report
import revoke_audit.reports.streamed_json
from revoke_audit.cli.commands import main
from revoke_audit.reports.report import director_line

from sarif_schema import validate

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
REVOKE_PBN = (FIXTURES / "cli" / "revoke.pbn").read_bytes()
REVOKE_LIN = (FIXTURES / "cli" / "revoke.lin").read_bytes()
# The LIN board with hostile player names: a newline, a NUL, a tab, formula starts.
HOSTILE_LIN = REVOKE_LIN.replace(b"pn|Cy South,Di West,Ann North,Bob East|",
                                 b"pn|Cy\n=South,=Di West\x00,+Ann North,Bob\tEast|")


@pytest.fixture
def cli(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "revoke.pbn").write_bytes(REVOKE_PBN)
    (tmp_path / "revoke.lin").write_bytes(REVOKE_LIN)
    runner = CliRunner()
    # these tests are about the formats: the revokes are ruled as found at the table (64A)
    table = lambda args: [*args, "--discovered", "table"] if args[:1] == ("audit",) else list(args)
    return lambda *args, **kw: runner.invoke(main, table(args), **kw)


def no_temp_files(folder: Path) -> bool:
    return not list(folder.glob(".revoke-audit-*"))


# --- -o - and --format csv ------------------------------------------------------------------

def test_dash_output_writes_the_boards_csv_to_stdout_byte_for_byte(cli, tmp_path):
    r = cli("audit", "revoke.pbn", "revoke.lin", "-o", "boards.csv")
    on_stdout = cli("audit", "revoke.pbn", "revoke.lin", "-o", "-")
    assert on_stdout.exit_code == r.exit_code == 1
    assert on_stdout.stdout == (tmp_path / "boards.csv").read_text()
    assert on_stdout.stderr == ("2 boards: 0 clean, 2 irregular, 0 inconsistent, 0 unreadable; "
                                "2 revoke findings, 0 defective tricks, 0 record errors, "
                                "0 parse problems\n")
    assert cli("audit", "revoke.pbn", "revoke.lin", "-o", "-", "--format", "csv").stdout == on_stdout.stdout


def test_dash_findings_writes_the_findings_csv_to_stdout(cli, tmp_path):
    cli("audit", "revoke.pbn", "--findings", "findings.csv", "-o", "boards.csv")
    r = cli("audit", "revoke.pbn", "--findings", "-", "-o", "b2.csv")
    assert r.stdout == (tmp_path / "findings.csv").read_text()
    assert (tmp_path / "b2.csv").read_text() == (tmp_path / "boards.csv").read_text()


def test_stdout_csv_is_written_exactly_like_the_file_with_hostile_cells(cli, tmp_path):
    (tmp_path / "hostile.lin").write_bytes(HOSTILE_LIN)
    cli("audit", "hostile.lin", "-o", "boards.csv", "--findings", "findings.csv")
    text = (tmp_path / "boards.csv").read_text()
    assert cli("audit", "hostile.lin", "--format", "csv").stdout == text
    assert cli("audit", "hostile.lin", "-o", "-").stdout == text
    assert cli("audit", "hostile.lin", "--findings", "-").stdout == (tmp_path / "findings.csv").read_text()
    header, row = text.splitlines()  # the newline inside a name does not split the row
    cells = dict(zip(header.split(","), next(csv.reader(io.StringIO(row)))))
    # the NUL is dropped as the file is read; the tab and the newline are escaped in the cell
    assert [cells[s] for s in ("north", "east", "south", "west")] == [
        "'+Ann North", "Bob\\x09East", "Cy\\x0a=South", "'=Di West"]
    assert "\x00" not in text and "\t" not in text
    finding = next(csv.DictReader(io.StringIO((tmp_path / "findings.csv").read_text())))
    assert finding["player"] == "'=Di West" and finding["seat"] == "W"


def test_control_characters_in_any_cell_are_escaped(cli, tmp_path):
    (tmp_path / "nul.pbn").write_bytes(REVOKE_PBN.replace(b'[Event "=Thursday Pairs"]',
                                                          b'[Event "Thu\x00rs\x1bday\xc2\x85\tx"]'))
    r = cli("audit", "nul.pbn", "--format", "csv")
    row = next(csv.DictReader(io.StringIO(r.stdout)))
    # NUL, escape and C1 controls are dropped as the file is read; a tab is escaped in the cell
    assert row["event"] == "Thursday\\x09x"


# --- the text output: findings and the Director's line ------------------------------------

def test_text_output_ends_each_irregular_board_with_the_directors_line(cli, tmp_path):
    (tmp_path / "table.pbn").write_bytes(REVOKE_PBN.replace(b'[Board "2"]', b'[Board "2"]\n[Table "5"]'))
    (tmp_path / "clean.pbn").write_bytes((FIXTURES / "mixed" / "thursday-pairs.pbn").read_bytes())
    r = cli("audit", "table.pbn", "revoke.lin", "-q")
    assert "->" not in r.output  # --quiet: only the summary
    r = cli("audit", "table.pbn", "revoke.lin")
    assert r.output.splitlines()[:4] == [
        "table.pbn:26: board 2 table 5: RV001 [64A2] trick 3: West (defender) played D5 on a heart lead "
        "holding H7 H6: one trick transferred to North-South (64A2)",
        "table.pbn:4: board 2 (table 5, N-S Ed North-Gus South, E-W Flo East-=1+2): "
        "3NT+1 430 -> 3NT+2 460 (64A: tricks transferred)",
        "revoke.lin:1: board 7: RV001 [64A1] trick 2: West (defender) played H6 on a spade lead "
        "holding S7 S6: West won the revoke trick: 1 trick transferred to North-South (64A1); he "
        "held S6, of the same rank: possibly a recording slip: confirm the card with the record's source before signing",
        "revoke.lin:1: board 7 (N-S Ann North-Cy South, E-W Bob East-Di West): 4H+2 480 -> 4H+3 510"
        " (64A: tricks transferred; confirm the card with the record's source before signing: "
        "trick 2 West H6 (S6?))",
    ]


def row(**kw):
    base = {"source": "s.pbn", "line": 4, "game": 1, "board": "3", "room": "", "north": "",
            "east": "", "south": "", "west": "", "contract": "4H", "tricks_played": 13,
            "result_adjusted": "4H+1", "score_ns": 510, "score_ns_adjusted": 450}
    return {**base, **kw}


@pytest.mark.parametrize("fields, line", [
    ({}, "s.pbn:4: board 3: 4H+3 510 -> 4H+1 450"),
    ({"room": "2", "north": "Smith", "south": "Jones"},
     "s.pbn:4: board 3 (table 2, N-S Smith-Jones): 4H+3 510 -> 4H+1 450"),
    ({"room": "closed", "east": "Ross"}, "s.pbn:4: board 3 (closed room, E-W Ross-?): 4H+3 510 -> 4H+1 450"),
    ({"board": "", "game": 4, "score_ns": None, "score_ns_adjusted": None},
     "s.pbn:4: game 4: 4H+3 -> 4H+1"),  # a rubber code: no duplicate score
    ({"tricks_played": None, "score_ns": None}, "s.pbn:4: board 3: ? -> 4H+1 450"),
    ({"north": "Ed\nNorth"}, "s.pbn:4: board 3 (N-S Ed\\x0aNorth-?): 4H+3 510 -> 4H+1 450"),
    ({"ruling_basis": "64A"}, "s.pbn:4: board 3: 4H+3 510 -> 4H+1 450 (64A: tricks transferred)"),
    ({"ruling_basis": "64B5", "review_64c": True, "result_adjusted": "4H+3",
      "score_ns_adjusted": 510},
     "s.pbn:4: board 3: 4H+3 510 -> 4H+3 510 (64B5: found after the round, no automatic "
     "transfer; 64C review)"),
    ({"ruling_basis": "none"}, "s.pbn:4: board 3: 4H+3 510 -> 4H+1 450"),
])
def test_directors_line(fields, line):
    assert director_line(row(**fields)) == line


# --- GitHub annotations -----------------------------------------------------------------------

def test_github_escapes_properties_and_messages_as_the_actions_toolkit(cli, tmp_path):
    name = "a,b:c%d\n::error file=README.md,line=1::pwned.pbn"
    (tmp_path / name).write_bytes(REVOKE_PBN)
    r = cli("audit", name, "--format", "github")
    assert r.stdout.splitlines() == [
        "::error file=a%2Cb%3Ac%25d%0A%3A%3Aerror file=README.md%2Cline=1%3A%3Apwned.pbn,"
        "line=25,title=RV001::board 2: RV001 [64A2] trick 3: West (defender) played D5 on a "
        "heart lead holding H7 H6: one trick transferred to North-South (64A2)"]


def test_github_levels_follow_the_codes(cli, tmp_path):
    (tmp_path / "bad.pbn").write_bytes(REVOKE_PBN.replace(b'[Dealer "N"]', b'[Dealer "Q"]'))
    r = cli("audit", "bad.pbn", "--laws", "auto", "--format", "github")
    levels = [(line.split(" ")[0], line.split("title=")[1].split("::")[0]) for line in r.stdout.splitlines()]
    assert sorted(levels) == [("::error", "RV001"), ("::warning", "PS109")]
    (tmp_path / "undated.pbn").write_bytes(REVOKE_PBN.replace(b'[Date "2026.11.20"]\n', b""))
    r = cli("audit", "undated.pbn", "--laws", "auto", "--format", "github")
    assert [line.split(" ")[0] for line in r.stdout.splitlines()] == ["::notice", "::error"]


# --- SARIF ------------------------------------------------------------------------------------

def sarif(cli, *args):
    r = cli("audit", *args, "--format", "sarif")
    log = json.loads(r.stdout)
    validate(log)
    return log


def test_sarif_is_valid_and_carries_version_levels_board_and_relative_uris(cli, tmp_path):
    log = sarif(cli, "revoke.pbn", str(tmp_path / "revoke.lin"))
    run = log["runs"][0]
    assert run["tool"]["driver"]["version"] == version("revoke-audit")
    assert run["originalUriBaseIds"] == {"SRCROOT": {"uri": tmp_path.as_uri() + "/"}}
    first = run["results"][0]
    assert first["message"]["text"].startswith("board 2: RV001 [64A2] trick 3: West")
    assert first["level"] == "error" and first["properties"]["player"] == "=1+2"
    assert [r["locations"][0]["physicalLocation"]["artifactLocation"] for r in run["results"]] == [
        {"uri": "revoke.pbn", "uriBaseId": "SRCROOT"},
        {"uri": "revoke.lin", "uriBaseId": "SRCROOT"}]  # an absolute path made relative


def test_sarif_levels_are_githubs(cli, tmp_path):
    (tmp_path / "bad.pbn").write_bytes(REVOKE_PBN.replace(b'[Dealer "N"]', b'[Dealer "Q"]'))
    gh = cli("audit", "bad.pbn", "--format", "github").stdout.splitlines()
    results = sarif(cli, "bad.pbn")["runs"][0]["results"]
    as_github = {"error": "::error", "warning": "::warning", "note": "::notice"}
    assert [as_github[r["level"]] for r in results] == [line.split(" ")[0] for line in gh]
    rules = sarif(cli, "bad.pbn")["runs"][0]["tool"]["driver"]["rules"]
    assert {r["id"]: r["defaultConfiguration"]["level"] for r in rules} == {"PS109": "warning", "RV001": "error"}


def test_sarif_uris_are_percent_encoded(cli, tmp_path):
    name = "my file,x:1%\n#?.pbn"
    (tmp_path / name).write_bytes(REVOKE_PBN)
    log = sarif(cli, name)
    loc = log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]
    assert loc == {"uri": "my%20file%2Cx%3A1%25%0A%23%3F.pbn", "uriBaseId": "SRCROOT"}


def test_sarif_fingerprints_are_stable_and_distinct(cli, tmp_path):
    twice = REVOKE_PBN + b"\n" + REVOKE_PBN.split(b"\n\n", 1)[1]  # the same board again
    (tmp_path / "twice.pbn").write_bytes(twice)
    one, two = (sarif(cli, "twice.pbn", "revoke.lin") for _ in range(2))
    prints = [r["partialFingerprints"]["revokeAudit/v1"] for r in one["runs"][0]["results"]]
    assert prints == [r["partialFingerprints"]["revokeAudit/v1"] for r in two["runs"][0]["results"]]
    assert len(prints) == 3 and len(set(prints)) == 3
    # moving the board down the file (its lines change) keeps its fingerprint
    (tmp_path / "twice.pbn").write_bytes(b"% a comment\n\n" + twice)
    moved = sarif(cli, "twice.pbn", "revoke.lin")["runs"][0]["results"]
    assert [r["partialFingerprints"]["revokeAudit/v1"] for r in moved] == prints
    assert moved[0]["locations"][0]["physicalLocation"]["region"]["startLine"] == 27


def test_an_empty_sarif_log_is_valid():
    from revoke_audit.reports.sarif import sarif_document
    log = sarif_document([])
    validate(log)
    assert log["runs"][0]["results"] == [] and log["runs"][0]["tool"]["driver"]["rules"] == []


# --- usage errors, before anything is read --------------------------------------------------

@pytest.fixture
def nothing_read(monkeypatch):
    def fail(*args, **kw):
        raise AssertionError("the input was read")
    monkeypatch.setattr(revoke_audit.cli.audit, "render_sources", fail)
    monkeypatch.setattr(revoke_audit.cli.main, "read_table_facts", fail)
    monkeypatch.setattr(revoke_audit.cli.audit.Baseline, "load", fail)


def test_dash_output_wins_over_a_format_from_the_settings(cli, tmp_path):
    settings = {"default_map": {"audit": {"fmt": "csv"}}}  # as a [tool.revoke-audit] table gives
    cli("audit", "revoke.pbn", "--findings", "findings.csv")
    r = cli("audit", "revoke.pbn", "--findings", "-", **settings)
    assert r.exit_code == 1 and r.stdout == (tmp_path / "findings.csv").read_text()
    r = cli("audit", "revoke.pbn", "-o", "boards.csv", **settings)  # the settings' csv on stdout
    assert r.stdout == (tmp_path / "boards.csv").read_text()


@pytest.mark.parametrize("args, message", [
    (["-o", "same.csv", "--findings", "same.csv"],
     "-o and --findings name the same file (same.csv): each output needs its own"),
    (["-o", "same.csv", "--findings", "./sub/../same.csv"],
     "-o and --findings name the same file (same.csv): each output needs its own"),
    (["-o", "-", "--findings", "-"], "-o - and --findings - both write to standard output"),
    (["-o", "-", "--format", "json"], "-o - and --format json both write to standard output"),
    (["--findings", "-", "--format", "csv"], "--findings - and --format csv both write to standard output"),
    (["-o", "revoke.pbn"], "report revoke.pbn is also an input: it would be overwritten"),
])
def test_usage_errors_before_anything_is_read(cli, tmp_path, nothing_read, args, message):
    (tmp_path / "sub").mkdir()
    before = (tmp_path / "revoke.pbn").read_bytes()
    r = cli("audit", "revoke.pbn", *args)
    assert r.exit_code == 2
    assert r.output.splitlines()[-1] == f"Error: {message}"
    assert not (tmp_path / "same.csv").exists() and no_temp_files(tmp_path)
    assert (tmp_path / "revoke.pbn").read_bytes() == before


LOG = "board,seat,kind,card\n"  # a director's log's header


@pytest.mark.parametrize("setup, args, message", [
    ([], ["d", "-o", "d/a.pbn"], "report d/a.pbn is also an input: it would be overwritten"),
    ([], ["d", "--findings", "d/sub/../a.pbn"],
     "report d/sub/../a.pbn is also an input: it would be overwritten"),
    ([], ["revoke.pbn", "--write-baseline", "revoke.pbn"],
     "baseline revoke.pbn is also an input: it would be overwritten"),
    ([], ["revoke.pbn", "-o", "log.csv", "--table-facts", "log.csv"],
     "report log.csv is also the director's log (--table-facts): it would be overwritten"),
    ([], ["revoke.pbn", "--baseline", "bl.json", "--findings", "bl.json"],
     "report bl.json is also the baseline (--baseline): it would be overwritten"),
    ([], ["revoke.pbn", "-o", "x.csv", "--write-baseline", "x.csv"],
     "-o and --write-baseline name the same file (x.csv): each output needs its own"),
    ([], ["revoke.pbn", "-o", "new.csv", "--write-baseline", "alias/new.csv"],
     "-o and --write-baseline name the same file (new.csv): each output needs its own"),
    (["symlink"], ["revoke.pbn", "-o", "link.csv"],
     "report link.csv is also an input: it would be overwritten"),
    (["hardlink"], ["d", "--write-baseline", "hard.json"],
     "baseline hard.json is also an input: it would be overwritten"),
    ([], ["revoke.pbn", "--config", "settings.toml", "-o", "settings.toml"],
     "report settings.toml is also the settings file: it would be overwritten"),
    (["pyproject"], ["revoke.pbn", "--findings", "pyproject.toml"],
     "report pyproject.toml is also the settings file: it would be overwritten"),
])
def test_an_output_over_any_input_or_another_output_is_a_usage_error(
        cli, tmp_path, nothing_read, setup, args, message):
    """Reports and the baseline are checked against every path, every file found in a folder,
    the director's log, the baseline and the settings, by device and inode, before anything is
    read or written."""
    (tmp_path / "d" / "sub").mkdir(parents=True)
    (tmp_path / "d" / "a.pbn").write_bytes(REVOKE_PBN)
    (tmp_path / "alias").symlink_to(tmp_path)
    (tmp_path / "log.csv").write_text(LOG)
    (tmp_path / "bl.json").write_text('{"findings": []}')
    (tmp_path / "x.csv").write_text("x")
    (tmp_path / "settings.toml").write_text('quiet = true\n')
    if "symlink" in setup:
        (tmp_path / "link.csv").symlink_to(tmp_path / "revoke.pbn")
    if "hardlink" in setup:
        os.link(tmp_path / "d" / "a.pbn", tmp_path / "hard.json")
    if "pyproject" in setup:
        (tmp_path / "pyproject.toml").write_text('[tool.revoke-audit]\nquiet = true\n')
    before = {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()}
    r = cli("audit", *args)
    assert (r.exit_code, r.output.splitlines()[-1]) == (2, f"Error: {message}")
    assert {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()} == before
    assert no_temp_files(tmp_path) and not (tmp_path / "new.csv").exists()


def test_write_baseline_may_replace_the_baseline_it_reads(cli, tmp_path):
    """Accepting today's state with a baseline from the settings (the README's way): the
    baseline is read whole before anything is written, and the new one records every finding."""
    cli("audit", "revoke.pbn", "--write-baseline", "bl.json")
    first = (tmp_path / "bl.json").read_text()
    r = cli("audit", "revoke.pbn", "--baseline", "bl.json", "--write-baseline", "bl.json")
    assert r.exit_code == 0, r.output
    assert (tmp_path / "bl.json").read_text() == first


# --- both reports or neither ------------------------------------------------------------------

def test_disk_full_when_closing_leaves_both_old_reports_and_no_temp_file(cli, tmp_path, monkeypatch):
    (tmp_path / "boards.csv").write_text("old boards\n")
    (tmp_path / "findings.csv").write_text("old findings\n")
    real_fsync = os.fsync
    synced = []

    def fsync(fd):
        synced.append(fd)
        if len(synced) == 2:  # the second report, after boards.csv is complete
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        real_fsync(fd)

    monkeypatch.setattr(revoke_audit.reports.report.os, "fsync", fsync)
    r = cli("audit", "revoke.pbn", "-o", "boards.csv", "--findings", "findings.csv")
    assert (r.exit_code, r.output) == (2, "revoke.pbn:25: board 2: RV001 [64A2] trick 3: West "
                                          "(defender) played D5 on a heart lead holding H7 H6: one "
                                          "trick transferred to North-South (64A2)\n"
                                          "revoke.pbn:4: board 2 (N-S Ed North-Gus South, E-W Flo "
                                          "East-=1+2): 3NT+1 430 -> 3NT+2 460 (64A: tricks "
                                          "transferred)\n"
                                          "1 board: 0 clean, 1 irregular, 0 inconsistent, 0 "
                                          "unreadable; 1 revoke finding, 0 defective tricks, 0 "
                                          "record errors, 0 parse problems\n"
                                          "score corrections to enter (1 board):\n"
                                          "  =Thursday Pairs, board 2: N-S Ed North & Gus South, "
                                          "E-W Flo East & =1+2: 3NT+1 by S (N-S +430) -> 3NT+2 "
                                          "(N-S +460); 64A2\n"
                                          "Error: cannot write findings.csv: No space left on device\n")
    assert (tmp_path / "boards.csv").read_text() == "old boards\n"
    assert (tmp_path / "findings.csv").read_text() == "old findings\n"
    assert no_temp_files(tmp_path)


def test_disk_full_while_writing_names_the_report(cli, tmp_path, monkeypatch):
    class Full(io.StringIO):
        def write(self, s):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(revoke_audit.reports.report.os, "fdopen",
                        lambda fd, *a, **kw: (os.close(fd), Full())[1])
    r = cli("audit", "revoke.pbn", "-o", "boards.csv")
    assert (r.exit_code, r.output) == (2, "Error: cannot write boards.csv: No space left on device\n")
    assert not (tmp_path / "boards.csv").exists() and no_temp_files(tmp_path)


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="names a descriptor's file")
def test_a_baseline_that_cannot_be_written_keeps_every_old_output(cli, tmp_path, monkeypatch):
    """The reports and the baseline are committed together or not at all; the summary does not
    say the baseline was written, and the message names it, never its temp file."""
    for name in ("boards.csv", "findings.csv", "known.json"):
        (tmp_path / name).write_text(f"old {name}\n")
    real_fsync = os.fsync

    def fsync(fd):
        written = Path(os.readlink(f"/proc/self/fd/{fd}")).read_bytes()
        if written.startswith(b'{\n "tool"'):  # the new baseline, complete
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    r = cli("audit", "revoke.pbn", "-o", "boards.csv", "--findings", "findings.csv",
            "--write-baseline", "known.json")
    assert r.exit_code == 2
    assert r.output.splitlines()[-1] == "Error: cannot write known.json: No space left on device"
    assert "baseline:" not in r.output
    for name in ("boards.csv", "findings.csv", "known.json"):
        assert (tmp_path / name).read_text() == f"old {name}\n"
    assert no_temp_files(tmp_path)


@pytest.mark.parametrize("option, name", [("-o", "missing/boards.parquet"),
                                          ("--findings", "missing/findings.parquet"),
                                          ("--write-baseline", "missing/known.json")])
def test_a_missing_output_folder_is_found_before_the_audit(cli, tmp_path, nothing_read, option,
                                                          name):
    """As for a CSV report: before a long run, not after it."""
    if name.endswith(".parquet"):
        pytest.importorskip("pyarrow")
    r = cli("audit", "revoke.pbn", option, name)
    assert (r.exit_code, r.output) == (2, f"Error: cannot write {name}: No such file or directory\n")


@pytest.mark.parametrize("fmt", ["json", "sarif"])
def test_a_full_temporary_folder_names_the_document_it_holds(cli, tmp_path, monkeypatch, fmt):
    """``--format json`` and ``sarif`` spool their rows in TMPDIR: when it is full, the message
    says which output failed and where, and no report is replaced."""
    (tmp_path / "boards.csv").write_text("old boards\n")

    class Full(io.StringIO):
        def write(self, s):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(revoke_audit.reports.streamed_json.tempfile, "TemporaryFile",
                        lambda *a, **kw: Full())
    monkeypatch.setattr(revoke_audit.reports.streamed_json.tempfile, "gettempdir", lambda: "/full")
    r = cli("audit", "revoke.pbn", "--format", fmt, "-o", "boards.csv")
    assert (r.exit_code, r.stdout) == (2, "")
    held = "boards.csv and " if fmt == "json" else ""  # boards wait for their fields' figures
    assert r.output.splitlines()[-1] == (f"Error: cannot write {held}the --format {fmt} "
                                         "document (spooled in /full): No space left on device")
    assert (tmp_path / "boards.csv").read_text() == "old boards\n" and no_temp_files(tmp_path)


# --- permissions ------------------------------------------------------------------------------

@pytest.mark.skipif(os.name != "posix", reason="POSIX permissions")
def test_reports_follow_the_umask_and_keep_an_existing_mode(cli, tmp_path):
    old = os.umask(0o022)
    try:
        cli("audit", "revoke.pbn", "-o", "boards.csv", "--findings", "findings.csv")
        assert stat.S_IMODE((tmp_path / "boards.csv").stat().st_mode) == 0o644
        assert stat.S_IMODE((tmp_path / "findings.csv").stat().st_mode) == 0o644
        os.chmod(tmp_path / "boards.csv", 0o640)
        os.umask(0o077)
        cli("audit", "revoke.pbn", "-o", "boards.csv", "--findings", "findings.csv")
        assert stat.S_IMODE((tmp_path / "boards.csv").stat().st_mode) == 0o640
        assert stat.S_IMODE((tmp_path / "findings.csv").stat().st_mode) == 0o644
        cli("audit", "revoke.pbn", "-o", "new.csv")
        assert stat.S_IMODE((tmp_path / "new.csv").stat().st_mode) == 0o600
    finally:
        os.umask(old)


@pytest.mark.skipif(os.name != "posix", reason="POSIX permissions")
@pytest.mark.parametrize("option, name", [("-o", "boards.parquet"),
                                          ("--write-baseline", "known.json")])
def test_parquet_and_baseline_follow_the_umask_and_keep_an_existing_mode(cli, tmp_path, option,
                                                                         name):
    """All outputs alike: a new one follows the umask, one written again keeps its mode."""
    if name.endswith(".parquet"):
        pytest.importorskip("pyarrow")
    old = os.umask(0o022)
    try:
        cli("audit", "revoke.pbn", option, name)
        assert stat.S_IMODE((tmp_path / name).stat().st_mode) == 0o644
        os.chmod(tmp_path / name, 0o600)
        cli("audit", "revoke.pbn", option, name)
        assert stat.S_IMODE((tmp_path / name).stat().st_mode) == 0o600
    finally:
        os.umask(old)


@pytest.mark.skipif(not os.path.exists("/dev/null"), reason="needs /dev/null")
def test_a_device_target_is_written_in_place_not_replaced(cli):
    r = cli("audit", "revoke.pbn", "-o", "/dev/null")
    assert r.exit_code == 1
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


def _read_in_thread(fifo: Path) -> tuple[threading.Thread, list[bytes]]:
    """A reader at the other end of ``fifo``, as a pipe into another program."""
    got: list[bytes] = []

    def read():
        with open(fifo, "rb") as fh:
            got.append(fh.read())

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    return reader, got


def _check_sent(option: str, data: bytes) -> None:
    if option == "--write-baseline":
        assert json.loads(data)["findings"][0]["code"] == "RV001"
    else:
        import pyarrow.parquet as pq
        assert pq.read_table(io.BytesIO(data)).column("status").to_pylist() == ["irregular"]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
@pytest.mark.parametrize("option, name", [("--write-baseline", "known.json"),
                                          ("-o", "boards.parquet")])
def test_a_fifo_target_of_the_baseline_or_parquet_is_written_in_place(cli, tmp_path, option,
                                                                      name):
    """As the CSV reports are: renaming a file over a FIFO would replace it."""
    if option == "-o":
        pytest.importorskip("pyarrow")
    fifo = tmp_path / name
    os.mkfifo(fifo)
    reader, got = _read_in_thread(fifo)
    r = cli("audit", "revoke.pbn", option, name)
    reader.join(30)  # a safety net only: the run has ended, so has the writer
    assert r.exit_code in (0, 1), r.output
    assert stat.S_ISFIFO(os.stat(fifo).st_mode) and no_temp_files(tmp_path)
    _check_sent(option, got[0])


@pytest.mark.skipif(not hasattr(os, "mknod") or os.geteuid() != 0,
                    reason="making a device needs root")
@pytest.mark.parametrize("option, name", [("--write-baseline", "null"), ("-o", "null.parquet")])
def test_a_device_target_of_the_baseline_or_parquet_is_written_in_place(cli, tmp_path, option,
                                                                        name):
    """A twin of /dev/null made in the test's folder: as root, a rename would replace it."""
    if option == "-o":
        pytest.importorskip("pyarrow")
    device = tmp_path / name
    try:
        os.mknod(device, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    except PermissionError:
        pytest.skip("no right to make devices here")
    r = cli("audit", "revoke.pbn", option, name)
    assert r.exit_code in (0, 1), r.output
    assert stat.S_ISCHR(os.stat(device).st_mode) and no_temp_files(tmp_path)
