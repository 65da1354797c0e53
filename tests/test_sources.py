"""Opening sources (``formats.sources``): folders, archives, standard input, encodings, line
ends, and the limits against archive bombs.  A hand record reads the same whichever way it
comes; every source gets at least one row; nothing hangs."""
import gzip
import io
import os
import tarfile
import threading
import time
import zipfile
from dataclasses import replace
from pathlib import Path

import pytest

from revoke_audit import audit_paths
from revoke_audit.formats import Limits, iter_sources, read_boards, read_file, read_stream
from revoke_audit.formats import sources as sources_mod

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
SESSION = FIXTURES / "mixed"
PBN = (SESSION / "thursday-pairs.pbn").read_bytes()
LIN = (SESSION / "thursday-pairs-bbo.lin").read_bytes()
REVOKE_PBN = (FIXTURES / "cli" / "revoke.pbn").read_bytes()


def codes(records):
    return [d.code for r in records for d in r.diagnostics]


def sourceless(records):
    """The records with the source left out."""
    return [replace(r, source="") for r in records]


def zip_bytes(members: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in members.items():
            z.writestr(name, data)
    return buf.getvalue()


def tar_bytes(members: dict[str, bytes], mode: str = "w") -> bytes:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode=mode) as t:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            t.addfile(info, io.BytesIO(data))
    return buf.getvalue()


# --- folders ---------------------------------------------------------------------------------

def test_folder_recursive_in_name_order_recognising_content(tmp_path):
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "2.pbn").write_bytes(PBN)
    (tmp_path / "1.lin").write_bytes(LIN)
    (tmp_path / "notes.txt").write_text("not a record")  # skipped: neither by name nor content
    (tmp_path / "SOURCES").write_text("repo\tpath\n")  # no extension, not a record: skipped
    (tmp_path / "vugraph").write_bytes(LIN)  # no extension, LIN content: read
    (tmp_path / "hands.txt").write_bytes(PBN)  # .txt holding PBN: read
    recs = list(read_boards([tmp_path]))
    # a folder's own files in name order, then its subfolders
    assert [Path(r.source).name for r in recs] == (["1.lin"] * 3 + ["hands.txt"] * 5
                                                  + ["vugraph"] * 3 + ["2.pbn"] * 5)


NOT_RECORDS = {
    "pyproject.toml": b'[tool.revoke-audit]\nlaws = "2017"\n',  # starts like a PBN tag
    "data.json": b'[{"board": 1}]\n',
    "setup.cfg": b"[metadata]\nname = x\n",
    "notes.md": b"% not a PBN header\n",
}


def test_a_folder_reads_no_config_or_data_file_that_only_starts_like_pbn(tmp_path):
    """A project folder audited as ``.``: a TOML, JSON or INI file opens with ``[`` like a PBN
    tag but has no ``[Name "value"]``; a .txt of PBN with a long ``%`` header is still read."""
    for name, data in NOT_RECORDS.items():
        (tmp_path / name).write_bytes(data)
    (tmp_path / "hands.txt").write_bytes(b"% exported by a scorer\n" * 20 + PBN)
    assert {Path(r.source).name for r in read_boards(tmp_path)} == {"hands.txt"}
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for name, data in NOT_RECORDS.items():
            zf.writestr(name, data)
    (tmp_path / "more.zip").write_bytes(buf.getvalue())
    skipped = [r for r in read_boards(tmp_path / "more.zip")]
    assert sorted(r.source.split("!")[1] for r in skipped) == sorted(NOT_RECORDS)
    assert {d.code for r in skipped for d in r.diagnostics} == {"PS010"}
    # named on the command line, such a file gets its row and says what it is: not PBN (it
    # once read as a PBN file "with no board in it")
    for name in NOT_RECORDS:
        (row,) = read_boards(tmp_path / name)
        assert [d.code for d in row.diagnostics] == ["PS003"], name
        assert row.diagnostics[0].message.startswith("content is neither PBN nor LIN"), name


def test_pbn_with_carriage_return_line_ends_under_another_name_is_recognised(tmp_path):
    """A PBN tag is found after a lone CR as after LF: a .txt of PBN with old Mac line ends
    is read in a folder and named alone."""
    (tmp_path / "hands.txt").write_bytes(PBN.replace(b"\r\n", b"\n").replace(b"\n", b"\r"))
    want = [(r.board, r.contract_stated) for r in read_stream(io.BytesIO(PBN), "x", "x")]
    for source in (tmp_path, tmp_path / "hands.txt"):
        assert [(r.board, r.contract_stated) for r in read_boards(source)] == want


def test_hidden_folders_and_files_are_skipped_but_named_ones_are_read(tmp_path):
    (tmp_path / ".git").mkdir()
    (tmp_path / ".git" / "x.pbn").write_bytes(PBN)
    (tmp_path / "._mac.pbn").write_bytes(b"\x00\x05\x16\x07 resource fork")
    (tmp_path / "a.lin").write_bytes(LIN)
    assert [Path(r.source).name for r in read_boards(tmp_path)] == ["a.lin"] * 3
    assert len(list(read_boards(tmp_path / ".git"))) == 5  # a hidden folder named is read


def test_the_same_file_named_twice_is_read_once(tmp_path):
    (tmp_path / "sub").mkdir()
    one = tmp_path / "sub" / "one.pbn"
    one.write_bytes(PBN)
    (tmp_path / "link.pbn").symlink_to(one)
    sources = list(iter_sources([one, tmp_path, str(one), tmp_path / "sub" / ".." / "sub",
                                 tmp_path / "link.pbn", "-", "-"]))
    assert sources == [str(one), "-"]


def test_a_fifo_in_a_folder_is_skipped_and_one_named_is_read_as_a_stream(tmp_path):
    (tmp_path / "pipe.pbn").parent.mkdir(exist_ok=True)
    os.mkfifo(tmp_path / "pipe.pbn")
    (tmp_path / "real.lin").write_bytes(LIN)
    done = []
    walker = threading.Thread(target=lambda: done.append(list(read_boards(tmp_path))))
    walker.start()
    walker.join(10)
    assert done and [Path(r.source).name for r in done[0]] == ["real.lin"] * 3

    def write():
        with open(tmp_path / "pipe.pbn", "wb") as fh:
            fh.write(REVOKE_PBN)

    writer = threading.Thread(target=write)
    writer.start()
    recs = list(read_boards(tmp_path / "pipe.pbn"))
    writer.join(10)
    assert [r.board for r in recs] == ["2"] and not codes(recs)


def test_a_folder_that_cannot_be_listed_gets_a_row(tmp_path, monkeypatch):
    (tmp_path / "a.lin").write_bytes(LIN)
    (tmp_path / "locked").mkdir()
    (tmp_path / "locked" / "x.pbn").write_bytes(PBN)
    real = os.scandir

    def scandir(path="."):
        if str(path).endswith("locked"):
            raise PermissionError(13, "Permission denied", str(path))
        return real(path)

    monkeypatch.setattr(sources_mod.os, "scandir", scandir)
    recs = list(read_boards(tmp_path))
    assert [(Path(r.source).name, r.unreadable) for r in recs] == [("a.lin", False)] * 3 + [
        ("locked", True)]
    assert recs[-1].diagnostics[0].code == "PS001"
    assert "cannot read folder" in recs[-1].diagnostics[0].message


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads any folder")
def test_a_folder_without_read_permission_gets_a_row(tmp_path):
    (tmp_path / "locked").mkdir()
    (tmp_path / "locked" / "x.pbn").write_bytes(PBN)
    (tmp_path / "locked").chmod(0)
    try:
        recs = list(read_boards(tmp_path))
    finally:
        (tmp_path / "locked").chmod(0o755)
    assert codes(recs) == ["PS001"] and recs[0].source == str(tmp_path / "locked")


def test_an_empty_folder_gets_its_row(tmp_path):
    (tmp_path / "empty").mkdir()
    (tmp_path / "only-notes").mkdir()
    (tmp_path / "only-notes" / "readme.md").write_text("# results\n")
    recs = list(read_boards([tmp_path / "empty", tmp_path / "only-notes"]))
    assert [(Path(r.source).name, d.code) for r in recs for d in r.diagnostics] == [
        ("empty", "PS011"), ("only-notes", "PS011")]


def test_one_string_or_pathlike_is_one_path(monkeypatch):
    from revoke_audit import audit_paths

    monkeypatch.chdir(FIXTURES / "cli")
    assert [r.source for r in read_boards("revoke.pbn")] == ["revoke.pbn"]
    assert [r.source for r in read_boards(Path("revoke.lin"))] == ["revoke.lin"]
    assert list(audit_paths("revoke.pbn").boards["source"]) == ["revoke.pbn"]


# --- archives --------------------------------------------------------------------------------

def corpus_like_folder(root: Path) -> Path:
    """Fixtures under every name a hand record is found by: no extension, upper case, .txt,
    gzip, a subfolder."""
    folder = root / "folder"
    (folder / "sub").mkdir(parents=True)
    (folder / "HANDS.PBN").write_bytes(PBN)
    (folder / "vugraph").write_bytes(LIN)
    (folder / "results.txt").write_bytes(REVOKE_PBN)
    (folder / "old.pbn.gz").write_bytes(gzip.compress((FIXTURES / "pbn" / "results.pbn").read_bytes()))
    (folder / "sub" / "bbo.lin").write_bytes((FIXTURES / "cli" / "revoke.lin").read_bytes())
    (folder / "sub" / "cut.pbn").write_bytes((FIXTURES / "pbn" / "cut_in_play.pbn").read_bytes())
    return folder


def members_of(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob("*"), reverse=True) if p.is_file()}


def test_a_zip_gives_the_same_boards_as_the_folder(tmp_path):
    folder = corpus_like_folder(tmp_path)
    archive = tmp_path / "folder.zip"
    archive.write_bytes(zip_bytes(members_of(folder)))  # members in another order than the folder's
    from_folder, from_zip = list(read_boards(folder)), list(read_boards(archive))
    assert len(from_folder) == 17 and not [r for r in from_folder if r.format == ""]
    assert sourceless(from_zip) == sourceless(from_folder)
    assert [r.source.split("!")[1] for r in from_zip] == [
        os.path.relpath(r.source, folder) for r in from_folder]


CORPUS_FOLDER = FIXTURES.parents[1] / "shared" / "corpus" / "eitazhou__bridge_played_hands"


@pytest.mark.skipif(not CORPUS_FOLDER.is_dir(), reason="corpus absent")
def test_a_real_folder_of_files_without_extension_zipped(tmp_path):
    """101 boards in LIN files named by number only: zipped, they gave no row at all."""
    archive = tmp_path / "corpus.zip"
    archive.write_bytes(zip_bytes(members_of(CORPUS_FOLDER)))
    from_folder = list(read_boards(CORPUS_FOLDER))
    assert len(from_folder) == 101
    assert sourceless(read_boards(archive)) == sourceless(from_folder)


def test_tar_and_tar_gz_give_the_same_boards_as_the_folder(tmp_path):
    folder = corpus_like_folder(tmp_path)
    members = members_of(folder)
    want = sorted(map(repr, sourceless(read_boards(folder))))
    for name, mode in (("a.tar", "w"), ("a.tar.gz", "w:gz"), ("a.tgz", "w:gz")):
        (tmp_path / name).write_bytes(tar_bytes(members, mode))
        recs = list(read_boards(tmp_path / name))
        assert sorted(map(repr, sourceless(recs))) == want, name  # tar: archive order


def test_archives_are_told_by_magic_bytes_on_stdin_and_under_a_wrong_name(tmp_path, monkeypatch):
    plain = sourceless(read_stream(io.BytesIO(PBN), "x", "x"))
    for blob in (gzip.compress(PBN), zip_bytes({"s.pbn": PBN}), tar_bytes({"s.pbn": PBN}),
                 gzip.compress(tar_bytes({"s.pbn": PBN}))):
        (tmp_path / "hands.pbn").write_bytes(blob)
        assert sourceless(read_boards(tmp_path / "hands.pbn")) == plain
        monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(blob)))
        recs = list(read_boards("-"))
        assert sourceless(recs) == plain and recs[0].source.startswith("<stdin>")


def test_skipped_members_get_a_finding_and_nested_archives_are_read(tmp_path):
    inner = zip_bytes({"deep/b.lin": LIN})
    archive = tmp_path / "a.zip"
    archive.write_bytes(zip_bytes({
        "notes.txt": b"results follow", "logo.png": b"\x89PNG\r\n\x1a\n....",
        "s.pbn.gz": gzip.compress(PBN), "inner.zip": inner, "empty.pbn": b"",
        ".hidden/x.pbn": PBN, "__MACOSX/._s.pbn.gz": b"\x00\x05\x16\x07", "dir/": b""}))
    recs = list(read_boards(archive))
    got = [(r.source.split("!", 1)[1], r.format, codes([r])) for r in recs]
    assert got == [("empty.pbn", "", ["PS007"]), ("inner.zip!deep/b.lin", "lin", [])] + [
        ("inner.zip!deep/b.lin", "lin", [])] * 2 + [
        ("logo.png", "", ["PS010"]), ("notes.txt", "", ["PS010"])] + [
        ("s.pbn.gz", "pbn", [])] * 5


def test_an_archive_that_yields_nothing_still_gets_its_row(tmp_path):
    (tmp_path / "empty.zip").write_bytes(zip_bytes({}))
    (tmp_path / "hidden.zip").write_bytes(zip_bytes({".DS_Store": b"x"}))
    (tmp_path / "empty.tar").write_bytes(tar_bytes({}))
    recs = list(read_boards([tmp_path / n for n in ("empty.zip", "hidden.zip", "empty.tar")]))
    assert [(Path(r.source).name, codes([r])) for r in recs] == [
        ("empty.zip", ["PS011"]), ("hidden.zip", ["PS011"]), ("empty.tar", ["PS011"])]


def test_unreadable_inputs_still_give_a_row(tmp_path):
    (tmp_path / "bad.gz").write_bytes(b"not gzip at all")
    (tmp_path / "bad.zip").write_bytes(b"PK not a zip")
    (tmp_path / "empty.pbn").write_bytes(b"")
    (tmp_path / "blank.pbn").write_bytes(b"\r\n" * 10000)
    (tmp_path / "noise.pbn").write_bytes(bytes(range(256)) * 4)
    (tmp_path / "cut.gz").write_bytes(gzip.compress(PBN)[:-6])  # its check sum cut off
    names = ["missing.pbn", "bad.gz", "bad.zip", "empty.pbn", "blank.pbn", "noise.pbn", "cut.gz"]
    recs = list(read_boards([tmp_path / n for n in names]))
    assert [(Path(r.source).name, r.unreadable, codes([r])) for r in recs] == [
        ("missing.pbn", True, ["PS001"]), ("bad.gz", True, ["PS001"]), ("bad.zip", True, ["PS001"]),
        ("empty.pbn", True, ["PS007"]), ("blank.pbn", True, ["PS007"]),
        ("noise.pbn", True, ["PS003"])] + [("cut.gz", False, [])] * 5 + [
        ("cut.gz", True, ["PS001"])]
    assert recs[-1].diagnostics[0].message.startswith("cannot read to the end: ")


# --- encodings, line ends, control characters ------------------------------------------------

@pytest.mark.parametrize("data", [PBN, LIN], ids=["pbn", "lin"])
def test_utf16_utf32_and_cr_line_ends_read_like_the_original(data):
    want = sourceless(read_stream(io.BytesIO(data), "x", "x"))
    text = data.decode("utf-8")
    for variant in (text.encode("utf-16"), b"\xfe\xff" + text.encode("utf-16-be"),
                    text.encode("utf-32"), b"\xef\xbb\xbf" + data,
                    data.replace(b"\r\n", b"\n").replace(b"\n", b"\r"),
                    text.replace("\r\n", "\n").replace("\n", "\r").encode("utf-16")):
        assert sourceless(read_stream(io.BytesIO(variant), "x", "x")) == want


def test_a_utf16_file_declaring_its_charset_is_still_read():
    text = "%Content-type: text/plain; charset=UTF-16\n" + PBN.decode()
    recs = list(read_stream(io.BytesIO(text.encode("utf-16")), "x", "x"))
    assert [r.board for r in recs] == ["1", "2", "3", "4", "5"] and not codes(recs)


def test_control_characters_never_reach_the_record():
    pbn = REVOKE_PBN.replace(b"Thursday", b"Thurs\x00day\x1b[2J").replace(b"Ed North",
                                                                          b"Ed\x07 North\x7f")
    (rec,) = read_stream(io.BytesIO(pbn), "x", "x")
    assert rec.event == "=Thursday[2J Pairs" and rec.names[0] == "Ed North"
    lin = (FIXTURES / "cli" / "revoke.lin").read_bytes().replace(b"Ann North", b"Ann\x00\x08 No\xc2\x85rth")
    (rec,) = read_stream(io.BytesIO(lin), "x", "x")
    assert rec.names[0] == "Ann North"


def test_leading_blank_lines_keep_their_line_numbers():
    recs = list(read_stream(io.BytesIO(b"\n" * 100000 + PBN), "x", "x"))
    plain = list(read_stream(io.BytesIO(PBN), "x", "x"))
    assert [r.line for r in recs] == [r.line + 100000 for r in plain]


# --- limits against archive bombs ------------------------------------------------------------

def test_decompressed_size_per_file_is_bounded(tmp_path):
    gz = tmp_path / "big.pbn.gz"
    gz.write_bytes(gzip.compress(PBN * 50))
    recs = list(read_boards([gz], Limits(member_bytes=2000)))
    assert recs[-1].unreadable and recs[-1].diagnostics[0].code == "PS008"
    assert len(recs) < 10


def test_the_ratio_limit_stops_a_stream_of_blank_lines_at_once():
    bomb = gzip.compress(b"\n" * (64 << 20), 9)  # 64 MiB in 64 KB
    start = time.perf_counter()
    recs = list(read_stream(io.BytesIO(bomb), "bomb.gz", "bomb.gz"))
    assert time.perf_counter() - start < 5  # about 0.5 s
    assert codes(recs) == ["PS014"] and "--max-ratio" in recs[0].diagnostics[0].message
    # raised, the same stream is read to its end: blank lines cost no work each
    recs = list(read_stream(io.BytesIO(bomb), "bomb.gz", "bomb.gz", Limits(ratio=10000)))
    assert codes(recs) == ["PS007"] and recs[0].diagnostics[0].message == \
        "the file holds only blank lines"
    # real files are far below the limit (at most 27 times in the corpus)
    assert codes(read_stream(io.BytesIO(gzip.compress(PBN * 200, 9)), "x.gz", "x.gz")) == []


def test_the_archive_limits_each_give_a_finding(tmp_path):
    members = {f"m{i}.pbn": PBN for i in range(4)}
    archive = tmp_path / "a.zip"
    archive.write_bytes(zip_bytes(members))
    recs = list(read_boards(archive, Limits(archive_bytes=len(PBN) * 2 + 10)))
    assert [r.source[-6:] for r in recs if not r.unreadable] == ["m0.pbn"] * 5 + ["m1.pbn"] * 5
    assert codes(recs)[-1] == "PS012" and "--max-archive-bytes" in recs[-1].diagnostics[0].message
    recs = list(read_boards(archive, Limits(archive_boards=7)))
    assert len(recs) == 8 and codes(recs) == ["PS015"]
    assert recs[-1].source.endswith("m1.pbn") and "--max-archive-boards" in \
        recs[-1].diagnostics[0].message
    # rows that are not boards count too: a zip of many empty members is bounded
    archive.write_bytes(zip_bytes({f"e{i}.pbn": b"" for i in range(50)}))
    recs = list(read_boards(archive, Limits(archive_boards=10)))
    assert codes(recs) == ["PS007"] * 10 + ["PS015"]


def test_the_run_limit_spans_archives(tmp_path):
    for name in ("a.pbn.gz", "b.pbn.gz", "c.pbn.gz"):
        (tmp_path / name).write_bytes(gzip.compress(PBN))
    recs = list(read_boards(tmp_path, Limits(run_bytes=len(PBN) * 2)))
    assert [Path(r.source).name for r in recs if not r.unreadable] == ["a.pbn.gz"] * 5 + [
        "b.pbn.gz"] * 5
    assert [(Path(r.source).name, codes([r])) for r in recs if r.unreadable] == [
        ("c.pbn.gz", ["PS013"])]


def test_the_library_takes_the_limits(tmp_path):
    (tmp_path / "a.zip").write_bytes(zip_bytes({"a.pbn": PBN, "b.pbn": PBN}))
    result = audit_paths(tmp_path / "a.zip", limits=Limits(archive_boards=6))
    assert len(result.boards) == 7
    assert list(result.findings["code"])[-1] == "PS015"


def test_a_plain_file_is_not_counted_as_expanded(tmp_path):
    (tmp_path / "a.pbn").write_bytes(PBN * 3)
    assert not codes(read_boards(tmp_path, Limits(run_bytes=10, archive_bytes=10, ratio=1)))


def test_archives_nested_too_deep_are_skipped():
    blob = PBN
    for i in range(6):
        blob = zip_bytes({f"level{i}.zip" if i else "s.pbn": blob})
    recs = list(read_stream(io.BytesIO(blob), "deep.zip", "deep.zip"))
    assert codes(recs) == ["PS010"] and "nested more than 4 deep" in recs[0].diagnostics[0].message


def test_read_file_of_a_folder_source_and_of_stdin_closed(monkeypatch, tmp_path):
    assert codes(read_file(str(tmp_path))) == ["PS011"]
    monkeypatch.setattr("sys.stdin", None)
    assert codes(read_file("-")) == ["PS001"]


# --- from the first round of these fixes (one path, walking, UTF-16, bare CR) ---------------

REVOKE_PATH = FIXTURES / "cli" / "revoke.pbn"


def boards_of(path) -> list[tuple[str, str]]:
    return [(r.board, r.contract) for r in read_boards(path)]


def test_one_string_is_one_path_not_its_characters():
    expected = boards_of([str(REVOKE_PATH)])
    assert expected and boards_of(str(REVOKE_PATH)) == expected == boards_of(REVOKE_PATH)
    assert len(audit_paths(str(REVOKE_PATH)).boards) == len(expected)


def test_walk_skips_hidden_folders_and_fifos_and_reads_a_file_once(tmp_path):
    (tmp_path / ".git").mkdir()
    (tmp_path / ".git" / "old.pbn").write_bytes(REVOKE_PATH.read_bytes())
    (tmp_path / "a.pbn").write_bytes(REVOKE_PATH.read_bytes())
    os.mkfifo(tmp_path / "pipe.pbn")  # reading it would block the run for ever
    got = list(iter_sources([tmp_path, tmp_path / "a.pbn", str(tmp_path) + "/./a.pbn"]))
    assert got == [str(tmp_path / "a.pbn")]


def test_utf16_with_a_bom_reads_like_utf8(tmp_path):
    text = REVOKE_PATH.read_text(encoding="utf-8")
    for encoding in ("utf-16", "utf-16-be"):
        path = tmp_path / f"{encoding}.pbn"
        data = text.encode(encoding)
        if encoding == "utf-16-be":
            data = b"\xfe\xff" + data
        path.write_bytes(data)
        assert boards_of(path) == boards_of(REVOKE_PATH)


def test_bare_cr_line_ends_read_like_lf(tmp_path):
    for fixture in (REVOKE_PATH, FIXTURES / "cli" / "revoke.lin"):
        path = tmp_path / ("cr" + fixture.suffix)
        path.write_bytes(fixture.read_bytes().replace(b"\r\n", b"\n").replace(b"\n", b"\r"))
        got = [(r.board, r.contract, len(r.play)) for r in read_boards(path)]
        assert got == [(r.board, r.contract, len(r.play)) for r in read_boards(fixture)]
        assert got


def test_format_is_told_by_content_not_name(tmp_path):
    (tmp_path / "really-lin.pbn").write_bytes(LIN)
    (tmp_path / "really-pbn.lin").write_bytes(PBN)
    recs = list(read_boards([tmp_path / "really-lin.pbn", tmp_path / "really-pbn.lin"]))
    assert [r.format for r in recs] == ["lin"] * 3 + ["pbn"] * 5


def test_tar_members_that_are_no_file_get_a_skipped_row_as_a_zip_member_does(tmp_path):
    """A symbolic link, a hard link, a device or a FIFO in a tar is never read (no member
    name reaches the disk), but it is not dropped silently: it gets its PS010 row; folders and
    hidden members are passed over as in a zip."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w") as t:
        for name, kind in (("s.pbn", tarfile.REGTYPE), ("dir", tarfile.DIRTYPE),
                           ("link.pbn", tarfile.SYMTYPE), ("hard.pbn", tarfile.LNKTYPE),
                           ("tty", tarfile.CHRTYPE), ("disk", tarfile.BLKTYPE),
                           ("pipe.pbn", tarfile.FIFOTYPE), (".hidden-link", tarfile.SYMTYPE)):
            info = tarfile.TarInfo(name)
            info.type = kind
            if kind in (tarfile.SYMTYPE, tarfile.LNKTYPE):
                info.linkname = "s.pbn"
            data = PBN if kind == tarfile.REGTYPE else b""
            info.size = len(data)
            t.addfile(info, io.BytesIO(data))
    (tmp_path / "a.tar").write_bytes(buf.getvalue())
    recs = list(read_boards(tmp_path / "a.tar"))
    skipped = [(r.source.split("!", 1)[1], codes([r]), r.diagnostics[0].message)
               for r in recs if r.unreadable]
    assert [r.format for r in recs[:5]] == ["pbn"] * 5
    assert skipped == [
        ("link.pbn", ["PS010"], "archive member skipped: a symbolic link"),
        ("hard.pbn", ["PS010"], "archive member skipped: a hard link"),
        ("tty", ["PS010"], "archive member skipped: a device"),
        ("disk", ["PS010"], "archive member skipped: a device"),
        ("pipe.pbn", ["PS010"], "archive member skipped: a FIFO")]


# --- names that are not UTF-8 ----------------------------------------------------------------

BAD = b"\xe9t\xe9\xff.pbn"  # a Latin-1 name: not UTF-8


def bad_zip(flagged: bool) -> bytes:
    """A zip of ``a.pbn`` and a member named ``BAD``'s bytes, under the UTF-8 flag or not."""
    stand_in = "\u00e9\u00e9.pbn" if flagged else "QQQQ.pbn"  # as many bytes as BAD
    data = zip_bytes({"a.pbn": PBN, stand_in: REVOKE_PBN})
    assert len(stand_in.encode()) == len(BAD) and data.count(stand_in.encode()) == 2
    return data.replace(stand_in.encode(), BAD)


def non_utf8_file(folder: Path, data: bytes) -> str:
    """A file named ``BAD`` in ``folder``, as Python names it (``surrogateescape``)."""
    raw = os.path.join(os.fsencode(folder), BAD)
    try:
        with open(raw, "wb") as fh:
            fh.write(data)
    except OSError:
        pytest.skip("this file system takes only UTF-8 names")
    return os.fsdecode(raw)


def test_a_name_that_is_not_utf8_is_read_and_kept_as_it_came(tmp_path):
    """Named, found in a folder, a tar or a zip member (under the UTF-8 flag or not): the
    boards are read, and the source keeps the name's bytes (a lone surrogate each), so that it
    can be opened again and shown escaped."""
    path = non_utf8_file(tmp_path, REVOKE_PBN)
    name = os.fsdecode(BAD)
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.GNU_FORMAT) as t:
        info = tarfile.TarInfo(name)
        info.size = len(REVOKE_PBN)
        t.addfile(info, io.BytesIO(REVOKE_PBN))
    (tmp_path / "t.tar").write_bytes(buf.getvalue())
    (tmp_path / "f.zip").write_bytes(bad_zip(True))
    (tmp_path / "u.zip").write_bytes(bad_zip(False))
    want = [(r.format, codes([r])) for r in read_boards(FIXTURES / "cli" / "revoke.pbn")]
    for arg in (path, os.fsencode(path), tmp_path):
        recs = [r for r in read_boards(arg) if r.source == path]
        assert [(r.format, codes([r])) for r in recs] == want, arg
        assert os.fsencode(recs[0].source).endswith(BAD)
    tar = list(read_boards(tmp_path / "t.tar"))
    assert [(r.source, r.format) for r in tar] == [(f"{tmp_path / 't.tar'}!{name}", "pbn")]
    flagged = list(read_boards(tmp_path / "f.zip"))
    assert [r.source.split("!")[1] for r in flagged] == ["a.pbn"] * 5 + [name]
    assert codes(flagged) == [] and flagged[-1].format == "pbn"
    unflagged = list(read_boards(tmp_path / "u.zip"))  # the historical code page, cp437
    assert unflagged[-1].source.endswith("!" + BAD.decode("cp437")) and codes(unflagged) == []
