"""``revoke-audit fix`` and ``revoke_audit.repairs``: record errors with one proven repair.

Each repair class on its hand-made fixture (the RC016 fixtures of ``test_coherence``): the
exact diff, the mended file audited clean, and the cases left alone (two repairs fit, a
finding remains); the file's bytes outside the change kept (CRLF, cp1252); ``--write``
killed before the rename leaves the original; archives never rewritten."""
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

from click.testing import CliRunner

import revoke_audit
from revoke_audit.ruling.audit import audit_records
from revoke_audit.cli.commands import main
from revoke_audit.formats import read_boards
from revoke_audit.ruling.options import AuditOptions
from revoke_audit.ruling.repair import plan_file

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
CLEAN = AuditOptions(equity=False)


def fixture(tmp_path: Path, name: str) -> Path:
    target = tmp_path / Path(name).name
    shutil.copyfile(FIXTURES / name, target)
    return target


def fix(*args: str):
    return CliRunner().invoke(main, ["fix", *args])


def audited_clean(path: Path) -> list[str]:
    return [a.status for a in audit_records(read_boards([path]), CLEAN)]


def test_rotated_hands_mended_with_the_exact_diff(tmp_path):
    path = fixture(tmp_path, "lin/fault_rotated_hands.lin")
    result = fix(str(path))
    assert result.exit_code == 1
    head = "pn|Sid,Wes,Nat,Eve|st||md|1"
    tail = "|sv|o|ah|Board 1|mb|3N|mb|p|mb|p|mb|p|\n"
    assert result.stdout == (
        f"--- {path}\n+++ {path}\n@@ -1,5 +1,5 @@\n"
        " nt|each md hand is given to the player one seat anticlockwise of its owner: 52 of 52 "
        "cards misplaced; rotating the hands repairs it|\n"
        f"-{head}S543H8765D765CT92,SAK2H432DAKQJC543,SQJT9HAKQD432C876,S876HJT9DT98CAKQJ{tail}"
        f"+{head}S876HJT9DT98CAKQJ,S543H8765D765CT92,SAK2H432DAKQJC543,SQJT9HAKQD432C876{tail}"
        " pc|H8|pc|H2|pc|HA|pc|H9|pg||\n pc|HK|pc|HT|pc|H5|pc|H3|pg||\n"
        " pc|HQ|pc|HJ|pc|H6|pc|H4|pg||\n")
    assert "board 1: rotated: it fits when every hand is moved 1 seat clockwise" in result.stderr
    assert audited_clean(path) == ["inconsistent"]  # the diff alone changes nothing
    assert fix("--write", str(path)).exit_code == 0
    assert audited_clean(path) == ["clean"]
    again = fix(str(path))
    assert (again.exit_code, again.stdout) == (0, "")


def test_another_boards_deal_mended(tmp_path):
    path = fixture(tmp_path, "lin/fault_other_boards_deal.lin")
    [r] = revoke_audit.repairs([path])
    assert (r.board, r.what, r.mended, r.line) == ("1", "deal", True, 2)
    assert r.before.split("|")[5] == "1SA98HAKQJTD54C543,S76H9876DJT32CJT2,S5432H543DAKQCAKQ," \
        "SKQJTH2D9876C9876"
    assert r.after.split("|")[5] == "1S876HJT9DT98CAKQJ,S543H8765D765CT92,SAK2H432DAKQJC543," \
        "SQJT9HAKQD432C876"
    original = path.read_text().splitlines(keepends=True)
    assert fix("--write", str(path)).exit_code == 0
    mended = path.read_text().splitlines(keepends=True)
    assert [i for i, (a, b) in enumerate(zip(original, mended)) if a != b] == [1]
    assert mended[1] == r.after
    assert audited_clean(path) == ["clean", "clean"]


def test_pbn_play_in_time_order_rewritten_in_seat_columns(tmp_path):
    path = fixture(tmp_path, "pbn/fault_time_order.pbn")
    result = fix(str(path))
    assert result.exit_code == 1
    minus = ["HK HT H5 H3", "HQ HJ H6 H4", "SQ S6 S3 SK", "DA D2 D8 D5", "DK D3 D9 D6",
             "DQ D4 DT D7", "DJ S9 S7 H7", "SA ST S8 S4", "C3 C6 CA C2", "CK C9 C4 C7",
             "CQ CT C5 C8", "CJ S5 S2 SJ"]
    plus = ["H5 H3 HK HT", "H6 H4 HQ HJ", "S3 SK SQ S6", "D5 DA D2 D8", "D6 DK D3 D9",
            "D7 DQ D4 DT", "H7 DJ S9 S7", "S4 SA ST S8", "C2 C3 C6 CA", "C9 C4 C7 CK",
            "CT C5 C8 CQ", "S5 S2 SJ CJ"]
    assert result.stdout == (
        f"--- {path}\n+++ {path}\n@@ -12,15 +12,15 @@\n 3NT Pass Pass Pass\n [Play \"W\"]\n"
        " H8 H2 HA H9\n" + "".join(f"-{m}\n" for m in minus) + "".join(f"+{p}\n" for p in plus))
    assert fix("--write", str(path)).exit_code == 0
    assert audited_clean(path) == ["clean"]


def test_a_missing_lin_card_is_written_back(tmp_path):
    path = fixture(tmp_path, "lin/fault_card_missing_early.lin")
    result = fix(str(path))
    assert result.exit_code == 1
    assert result.stdout == (
        f"--- {path}\n+++ {path}\n@@ -3,7 +3,7 @@\n"
        " pc|H8|pc|H2|pc|HA|pc|H9|pg||\n pc|HK|pc|HT|pc|H5|pc|H3|pg||\n"
        " pc|HQ|pc|HJ|pc|H6|pc|H4|pg||\n"
        "-pc|S6|pc|S3|pc|SK|pc|DA|pg||\n+pc|SQ|pc|S6|pc|S3|pc|SK|pc|DA|pg||\n"
        " pc|D2|pc|D8|pc|D5|pc|DK|pg||\n pc|D3|pc|D9|pc|D6|pc|DQ|pg||\n"
        " pc|D4|pc|DT|pc|D7|pc|DJ|pg||\n")
    assert "(the card missing: SQ)" in result.stderr
    assert fix("--write", str(path)).exit_code == 0
    assert audited_clean(path) == ["clean"]


def test_a_doubled_lin_card_is_taken_out(tmp_path):
    """East's S6 entered twice at trick 4: taking the second one out mends the record."""
    text = (FIXTURES / "lin/fault_card_missing_early.lin").read_text()
    path = tmp_path / "doubled.lin"
    path.write_text(text.replace("pc|S6|pc|S3|pc|SK|pc|DA|",
                                 "pc|SQ|pc|S6|pc|S6|pc|S3|pc|SK|pc|DA|"))
    [r] = revoke_audit.repairs([path])
    assert (r.what, r.mended) == ("doubled", True)
    assert fix("--write", str(path)).exit_code == 0
    assert audited_clean(path) == ["clean"]
    assert path.read_text() == text.replace("pc|S6|pc|S3|pc|SK|pc|DA|",
                                            "pc|SQ|pc|S6|pc|S3|pc|SK|pc|DA|")


def test_two_cards_that_may_be_missing_leave_the_board_untouched(tmp_path):
    """The play stops after trick 5: any of East's spades may be the missing lead."""
    lines = (FIXTURES / "lin/fault_card_missing_early.lin").read_text().splitlines(True)
    path = tmp_path / "partial.lin"
    path.write_text("".join(lines[:8]))
    [r] = revoke_audit.repairs([path])
    assert not r.mended
    assert r.reason == ("4 different repairs fit (missing S9, missing ST, missing SJ, "
                        "missing SQ): not proven")
    result = fix("--write", str(path))
    assert (result.exit_code, result.stdout) == (0, "")
    assert "board 1: left untouched: 4 different repairs fit" in result.stderr
    assert path.read_text() == "".join(lines[:8])


def test_a_repair_that_leaves_a_finding_is_not_made(tmp_path):
    """A play table in time order, but the Result says 7 where the mended play gives 10."""
    text = (FIXTURES / "pbn/fault_time_order.pbn").read_text()
    path = tmp_path / "result.pbn"
    path.write_text(text.replace('[Result "10"]', '[Result "7"]'))
    [r] = revoke_audit.repairs([path])
    assert not r.mended and r.what == "time-order"
    assert r.reason == ("no repair leaves the record clean (time-order: it leaves RC023: Result "
                        "says 7 tricks for declarer but the play gives 10)")
    result = fix("--write", str(path))
    assert (result.exit_code, result.stdout) == (0, "")
    assert path.read_text() == text.replace('[Result "10"]', '[Result "7"]')


def crlf_cp1252(text: str) -> bytes:
    body = text.replace('[Event "Fault fixture"]', '[Event "Øresund Café"]')
    return body.replace("\n", "\r\n").encode("cp1252")


def test_crlf_and_cp1252_kept_byte_for_byte_outside_the_change(tmp_path):
    original = crlf_cp1252((FIXTURES / "pbn/fault_time_order.pbn").read_text())
    path = tmp_path / "cp1252.pbn"
    path.write_bytes(original)
    assert fix("--write", str(path)).exit_code == 0
    mended = path.read_bytes()
    before, after = original.split(b"\r\n"), mended.split(b"\r\n")
    assert len(before) == len(after)
    changed = [i for i, (a, b) in enumerate(zip(before, after)) if a != b]
    assert changed == list(range(14, 26))  # the play lines after trick 1, nothing else
    assert after[14] == b"H5 H3 HK HT" and after[2] == b'[Event "\xd8resund Caf\xe9"]'
    assert audited_clean(path) == ["clean"]


def test_killed_before_the_rename_leaves_the_original(tmp_path):
    """The process dies once the mended copy is written and synced, before it replaces the
    file (SIGKILL from inside ``fsync``): the file is still the original."""
    path = fixture(tmp_path, "lin/fault_rotated_hands.lin")
    original = path.read_bytes()
    script = ("import os, signal, sys\n"
              "os.fsync = lambda fd: os.kill(os.getpid(), signal.SIGKILL)\n"
              "from revoke_audit.cli.commands import main\n"
              "main(['fix', '--write', sys.argv[1]])\n")
    done = subprocess.run([sys.executable, "-c", script, str(path)], capture_output=True)
    assert done.returncode == -9
    assert path.read_bytes() == original
    assert fix("--write", str(path)).exit_code == 0 and path.read_bytes() != original


def test_archives_are_never_rewritten(tmp_path):
    member = (FIXTURES / "lin/fault_rotated_hands.lin").read_bytes()
    path = tmp_path / "event.zip"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("event/board.lin", member)
    original = path.read_bytes()
    result = fix("--write", str(path))
    assert result.exit_code == 1
    assert f"{path}!event/board.lin: inside an archive, never rewritten" in result.stderr
    assert result.stdout.startswith(f"--- {path}!event/board.lin\n")
    assert path.read_bytes() == original


def test_nothing_to_mend_exits_zero(tmp_path):
    result = fix(str(FIXTURES / "lin/coherent_revoke.lin"))
    assert (result.exit_code, result.stdout) == (0, "")


def test_plan_of_a_utf16_text_is_encoded_back():
    """A UTF-16 file (byte order mark) is mended as text and written back in UTF-16."""
    data = (FIXTURES / "pbn/fault_time_order.pbn").read_text().encode("utf-16")
    plan = plan_file("x.pbn", data)
    assert plan.mended is not None and plan.mended[:2] == data[:2]
    text = plan.mended.decode("utf-16")
    assert "\nH5 H3 HK HT\n" in text
    assert text.count("\n") == data.decode("utf-16").count("\n")
