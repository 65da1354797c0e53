"""Opening paths: folders, .gz, .zip, sniffing by content, and files that cannot be read."""
import gzip
import zipfile
from pathlib import Path

import revoke_audit.formats.sources as formats
from revoke_audit.formats import read_boards

SESSION = Path(__file__).resolve().parents[1] / "fixtures" / "session"
PBN = (SESSION / "thursday-pairs.pbn").read_bytes()
LIN = (SESSION / "thursday-pairs-bbo.lin").read_bytes()


def codes(records):
    return [d.code for r in records for d in r.diagnostics]


def test_folder_recursive_in_name_order_skipping_other_files(tmp_path):
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "2.pbn").write_bytes(PBN)
    (tmp_path / "1.lin").write_bytes(LIN)
    (tmp_path / "notes.txt").write_text("not a record")
    (tmp_path / "SOURCES").write_text("repo\tpath\n")  # no extension, not a record: skipped
    (tmp_path / "vugraph").write_bytes(LIN)  # no extension, LIN content: read
    recs = list(read_boards([tmp_path]))
    # a folder's own files in name order, then its subfolders
    assert [Path(r.source).name for r in recs] == ["1.lin"] * 3 + ["vugraph"] * 3 + ["2.pbn"] * 5


def test_format_is_told_by_content_not_name(tmp_path):
    (tmp_path / "really-lin.pbn").write_bytes(LIN)
    (tmp_path / "really-pbn.lin").write_bytes(PBN)
    recs = list(read_boards([tmp_path / "really-lin.pbn", tmp_path / "really-pbn.lin"]))
    assert [r.format for r in recs] == ["lin"] * 3 + ["pbn"] * 5


def test_gzip_and_zip_members(tmp_path):
    gz = tmp_path / "s.pbn.gz"
    gz.write_bytes(gzip.compress(PBN))
    zp = tmp_path / "a.zip"
    with zipfile.ZipFile(zp, "w") as z:
        z.writestr("x/s.pbn", PBN)
        z.writestr("../../escape.lin", LIN)  # a hostile name: read in memory, never extracted
        z.writestr("readme.txt", "ignored")
    recs = list(read_boards([gz, zp]))
    assert [r.source for r in recs] == [str(gz)] * 5 + [f"{zp}!x/s.pbn"] * 5 + [f"{zp}!../../escape.lin"] * 3
    assert not (tmp_path.parent.parent / "escape.lin").exists()


def test_unreadable_inputs_still_give_a_row(tmp_path):
    (tmp_path / "bad.gz").write_bytes(b"not gzip at all")
    (tmp_path / "bad.zip").write_bytes(b"PK not a zip")
    (tmp_path / "empty.pbn").write_bytes(b"")
    (tmp_path / "noise.pbn").write_bytes(bytes(range(256)) * 4)
    names = ["missing.pbn", "bad.gz", "bad.zip", "empty.pbn", "noise.pbn"]
    recs = list(read_boards([tmp_path / n for n in names]))
    assert [r.unreadable for r in recs] == [True] * 5
    assert codes(recs) == ["PS001", "PS001", "PS001", "PS007", "PS003"]


def test_decompressed_size_is_bounded(tmp_path, monkeypatch):
    monkeypatch.setattr(formats, "MAX_MEMBER_BYTES", 2000)
    gz = tmp_path / "big.pbn.gz"
    gz.write_bytes(gzip.compress(PBN * 50))
    recs = list(read_boards([gz]))
    assert recs[-1].unreadable and recs[-1].diagnostics[0].code == "PS008"
    assert len(recs) < 10
