"""``fix`` and ``repairs()`` read as ``audit`` reads (``formats.read_texts``): damaged archives,
undecodable UTF-16, a zip end record or ``ustar`` inside a PBN comment, archive bombs - each
source gets a plan or a reason, never an exception, and the files after it are still mended;
the proof of a repair costs the same in a file of any size.  (The hostile run against 04eb171,
F4, F6, F12 and F17.)"""
import codecs
import gzip
import io
import shutil
import struct
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner

import revoke_audit.ruling.repair as repair
import revoke_audit.ruling.repair_text as repair_text
from revoke_audit.cli.commands import main
from revoke_audit.formats import Limits, read_boards
from revoke_audit.ruling.repair import plan_paths, repairs

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
FIXABLE = (FIXTURES / "pbn" / "fault_time_order.pbn").read_bytes()  # one board, time order
REVOKE = (FIXTURES / "cli" / "revoke.pbn").read_bytes()


def fix(*args: str):
    return CliRunner().invoke(main, ["fix", *args])


def damaged(tmp_path: Path) -> dict[str, bytes]:
    """Sources ``fix`` crashed on (A4 to A7), each named to sort before ``z.pbn``."""
    packed = gzip.compress(FIXABLE)
    bad_crc = bytearray(packed)
    bad_crc[-8] ^= 0xFF
    deflated = io.BytesIO()
    with zipfile.ZipFile(deflated, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("a.pbn", FIXABLE * 20)
    corrupt = bytearray(deflated.getvalue())
    corrupt[60:90] = b"\xff" * 30  # inside the deflated data
    flagged = io.BytesIO()
    with zipfile.ZipFile(flagged, "w") as zf:
        zf.writestr(zipfile.ZipInfo("n\xe9.pbn"), FIXABLE)
    flag = flagged.getvalue().replace("n\xe9".encode("utf-8"), b"n\xff\xfe")  # not UTF-8
    return {
        "a_truncated.pbn.gz": packed[: len(packed) // 2],
        "b_bad_crc.pbn.gz": bytes(bad_crc),
        "c_corrupt.zip": bytes(corrupt),
        "d_flag.zip": flag,
        "e_surrogate.pbn": codecs.BOM_UTF16_LE + FIXABLE.decode().encode("utf-16-le")
        + b"\x00\xd8",
        "f_odd.pbn": codecs.BOM_UTF16_LE + FIXABLE.decode().encode("utf-16-le") + b"\x00",
    }


def test_damaged_sources_never_stop_the_folder(tmp_path):
    for name, data in damaged(tmp_path).items():
        (tmp_path / name).write_bytes(data)
    (tmp_path / "z.pbn").write_bytes(FIXABLE)
    found = repairs([tmp_path])  # no exception
    assert [r.mended for r in found if r.file.endswith("z.pbn")] == [True]
    result = fix(str(tmp_path))
    assert result.exit_code == 1 and "internal error" not in result.output
    assert f"--- {tmp_path / 'z.pbn'}" in result.stdout
    # each damaged source is named with the reason audit gives it
    assert "a_truncated.pbn.gz: left untouched: PS001" in result.stderr
    assert "c_corrupt.zip" in result.stderr
    # an undecodable UTF-16 text: its record error is listed, never rewritten
    assert "e_surrogate.pbn:" in result.stderr and "not valid UTF-16" in result.stderr
    # the member whose name breaks its UTF-8 flag is read, and its repair shown (never written)
    assert "d_flag.zip!n\\xff\\xfe.pbn: inside an archive" in fix("--write", str(tmp_path / "d_flag.zip")).stderr
    written = fix("--write", str(tmp_path))
    assert written.exit_code == 1, written.output  # the zip's member: never rewritten
    assert "1 file mended" in written.stderr
    assert (tmp_path / "z.pbn").read_bytes() != FIXABLE
    assert (tmp_path / "e_surrogate.pbn").read_bytes() == damaged(tmp_path)["e_surrogate.pbn"]


def test_a_zip_end_record_in_a_pbn_comment_is_still_text(tmp_path):
    """``zipfile.is_zipfile`` finds an end record anywhere in the last 64 KiB; ``audit`` and
    now ``fix`` look at the magic bytes at offset 0."""
    for i, tail in enumerate((b"\x00" * 18, b"\x01" * 18)):
        path = tmp_path / f"c{i}.pbn"
        path.write_bytes(FIXABLE + b"{PK\x05\x06" + tail + b"}\n")
        (plan,) = plan_paths([path])
        assert not plan.archive and plan.mended is not None


def test_ustar_at_byte_257_of_a_pbn_is_text(tmp_path):
    """A comment puts ``ustar`` at byte 257: without a valid tar header checksum it is not a
    tar, so its revoke is found and its record error mended."""
    pad = b"% " + b"x" * 253 + b"\n%ustar\n"
    assert pad[257:262] == b"ustar"
    revoke = tmp_path / "r.pbn"
    revoke.write_bytes(pad + REVOKE)
    statuses = {r.format for r in read_boards([revoke])}
    assert statuses == {"pbn"}
    result = CliRunner().invoke(main, ["audit", str(tmp_path), "-q", "-o", str(tmp_path / "b.csv")])
    assert result.exit_code == 1
    fixable = tmp_path / "f.pbn"
    fixable.write_bytes(pad + FIXABLE)
    (plan,) = plan_paths([fixable])
    assert plan.mended is not None


def test_a_real_tar_is_still_a_tar(tmp_path):
    import tarfile

    path = tmp_path / "t.pbn"  # a tar under a hand record's name: told by its valid header
    with tarfile.open(path, "w") as tf:
        info = tarfile.TarInfo("in.pbn")
        info.size = len(FIXABLE)
        tf.addfile(info, io.BytesIO(FIXABLE))
    (plan,) = plan_paths([path])
    assert plan.file.endswith("t.pbn!in.pbn") and plan.archive and plan.mended is not None


def test_a_gzip_bomb_stops_at_audits_limit(tmp_path):
    """A gzip of blank space named ``bomb.pbn``: stopped at the ratio limit (PS014) as
    ``audit`` stops it, never expanded whole."""
    bomb = tmp_path / "bomb.pbn"
    with gzip.open(bomb, "wb", compresslevel=9) as fh:
        fh.write(FIXABLE)
        for _ in range(64):
            fh.write(b" " * (1 << 20))
    (plan,) = plan_paths([bomb])
    assert plan.left.startswith("PS014") and plan.mended is None
    result = fix(str(bomb))
    assert "bomb.pbn: left untouched: PS014" in result.stderr


@pytest.mark.parametrize("bom, codec", [(codecs.BOM_UTF16_BE, "utf-16-be"),
                                        (codecs.BOM_UTF32_BE, "utf-32-be"),
                                        (codecs.BOM_UTF16_LE, "utf-16-le")])
def test_a_utf16_or_32_file_keeps_its_byte_order(tmp_path, bom, codec):
    path = tmp_path / "e.pbn"
    path.write_bytes(bom + FIXABLE.decode().encode(codec))
    assert fix("--write", str(path)).exit_code == 0
    data = path.read_bytes()
    assert data.startswith(bom)
    text = data[len(bom):].decode(codec)
    assert text != FIXABLE.decode() and len(text) == len(FIXABLE.decode())


def _rotated_every_tenth(fmt: str, boards: int) -> list[str]:
    """bench's random boards 1..``boards`` as PBN or LIN texts, every 10th with its hands
    moved a seat (a rotated deal, which ``fix`` mends by moving each hand back)."""
    import dataclasses
    import random
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
    from bench import random_record
    from revoke_audit.formats.lin.write import format_lin
    from revoke_audit.formats.pbn.write import format_pbn

    write = format_pbn if fmt == "pbn" else format_lin
    rnd = random.Random(1)
    texts = []
    for i in range(1, boards + 1):
        r = random_record(rnd, i)
        if i % 10 == 0:
            h = r.hands
            r = dataclasses.replace(r, hands=(h[3], h[0], h[1], h[2]))
        texts.append(write(r))
    return texts


def _count_boards_read(monkeypatch) -> list:
    """A list that gets one item per board ``fix``'s planning reads (``repair.read_stream``)."""
    read = []
    real = repair.read_stream

    def counted(*args, **kwargs):
        for r in real(*args, **kwargs):
            read.append(1)
            yield r

    monkeypatch.setattr(repair, "read_stream", counted)
    return read


def test_a_proof_reads_a_window_not_the_whole_file(tmp_path, monkeypatch):
    """Every 10th board of 300 has its hands rotated (bench's boards): each proof reads its
    ``WINDOW`` boards either side, not the file, so the boards read grow linearly with the
    file (the whole file is read twice: once planned, once proved all at once)."""
    texts = _rotated_every_tenth("pbn", 300)
    path = tmp_path / "rot.pbn"
    path.write_text("% PBN 2.1\n% EXPORT\n\n" + "\n".join(texts) + "\n")
    read = _count_boards_read(monkeypatch)
    (plan,) = plan_paths([path])
    assert plan.mended is not None
    with monkeypatch.context() as whole:  # a window as large as the file: the same repairs
        whole.setattr(repair_text, "WINDOW", 10 ** 6)
        (alike,) = plan_paths([path])
    assert plan.repairs == alike.repairs and plan.mended == alike.mended
    assert sum(r.mended for r in plan.repairs) >= 25
    read.clear()
    plan_paths_again = list(plan_paths([path]))
    assert plan_paths_again[0].mended == plan.mended
    window = 2 * repair_text.WINDOW + 1
    assert len(read) <= 2 * 300 + len(plan.repairs) * window * 2
    assert len(read) < 300 * len(plan.repairs) / 2  # the whole file per proof was 300 each


def test_a_lin_file_on_one_line_is_mended_board_by_board_in_windows(tmp_path, monkeypatch):
    """120 LIN boards written on one line (bench's boards, every 10th with its hands rotated:
    the ``md`` of board 10 is the deal moved a seat, so moving each hand back fits its play):
    each board's part of the line is found at its ``md`` (with the ``pn`` and ``st`` before
    it), so each proof reads its window, not the line, and the boards' changes of the one line
    are made together - before, the line's edits replaced each other and every repair was
    left "not holding with the others"."""
    texts = [t.strip() for t in _rotated_every_tenth("lin", 120)]
    path = tmp_path / "one.lin"
    path.write_text("".join(texts) + "\n")
    read = _count_boards_read(monkeypatch)
    (plan,) = plan_paths([path])
    mended = [r for r in plan.repairs if r.mended]
    assert len(plan.repairs) == 12 and len(mended) >= 10
    assert plan.mended is not None and plan.mended.count(b"\n") == 1
    assert {r.what for r in mended} == {"rotated"}
    assert all(len(r.before) < 1000 for r in mended)  # the board's part of the line, not it
    # the whole line read: once surveyed, once for all repairs together; each proof a window
    assert len(read) <= 2 * 120 + len(plan.repairs) * (2 * repair_text.WINDOW + 1 + 3) * 2
    monkeypatch.undo()
    fixed = tmp_path / "fixed.lin"
    fixed.write_bytes(plan.mended)
    assert sum(r.mended for r in repairs([fixed])) == 0  # nothing left to mend in the mended
    assert [r.game for r in repairs([fixed])] == [r.game for r in plan.repairs if not r.mended]
