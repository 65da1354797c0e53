"""What a stream holds, told by its first bytes, then by its name (``formats.kinds``); and the
folder walk's test of a file (``formats.paths.recognised``), which leans on it."""
import gzip
import io
import tarfile
import zipfile

import pytest

from revoke_audit.formats.kinds import kind_of, looks_like, sniff, text_head, unnamed_text_not_pbn
from revoke_audit.formats.paths import recognised

PBN = b'[Event "club"]\n[Board "1"]\n'
LIN = b"pn|a,b,c,d|md|1SAKQ,,,|\n"


def _tar() -> bytes:
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w") as tf:
        info = tarfile.TarInfo("a.pbn")
        info.size = len(PBN)
        tf.addfile(info, io.BytesIO(PBN))
    return out.getvalue()


def _zip() -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as zf:
        zf.writestr("a.pbn", PBN)
    return out.getvalue()


@pytest.mark.parametrize("head, name, kind", [
    (gzip.compress(PBN), "x.txt", "gzip"),       # magic 1f 8b, whatever the name
    (_zip(), "x.txt", "zip"),                    # PK 03 04
    (_tar(), "x.txt", "tar"),                    # ustar at 257 and a checksum that holds
    (PBN, "x.txt", "pbn"),                       # a tag first
    (LIN, "x.txt", "lin"),                       # two letters and a bar first
    (b"\xef\xbb\xbf" + PBN, "x", "pbn"),         # a UTF-8 byte order mark passed over
    ("\ufeff".encode("utf-16-le") + PBN.decode().encode("utf-16-le"), "x",
     "pbn"),                                     # UTF-16 decoded by its byte order mark
    (b"hello", "board.lin", "lin"),              # content says nothing: the name
    (b"hello", "board.tgz", "gzip"),
    (b"hello", "notes.txt", None),               # neither
])
def test_the_content_first_then_the_name(head, name, kind):
    assert kind_of(head, name) == kind


def test_ustar_in_a_text_without_a_tar_checksum_stays_text():
    """A PBN comment with ``ustar`` at byte 257: no tar header checksum holds, so it is text."""
    head = (b"% " + b"x" * 255 + b"ustar" + b"y" * 300 + b"\n" + PBN)[:600]
    assert head[257:262] == b"ustar"
    assert kind_of(head, "") == "pbn"


def test_a_byte_order_mark_gives_the_encoding_and_the_head_as_utf8():
    assert text_head(b"\xff\xfe" + "[E".encode("utf-16-le")) == ("utf-16", b"[E")
    assert text_head(PBN) == (None, PBN)


def test_a_file_that_looks_like_pbn_only_by_its_first_character_is_none():
    """A JSON array or an INI section starts with ``[`` too; without a tag ``[Name "value"]``
    an unnamed text is no hand record, and the message says what it seems to be."""
    assert unnamed_text_not_pbn(b'[1, 2, 3]', "")
    assert unnamed_text_not_pbn(b"[tool.x]\nname = 1\n", "")
    assert not unnamed_text_not_pbn(PBN, "")
    assert not unnamed_text_not_pbn(b"[tool.x]\n", "hands.pbn")  # the name says PBN
    assert looks_like(b'{"a": 1}') == " (it looks like JSON)"
    assert "no PBN tag" in looks_like(b"[tool.x]\n")
    assert looks_like(b"hello") == ""


def test_sniff_reads_lin_keys_further_in():
    """A LIN text that starts with something else is still LIN when an ``md|`` or ``pn|`` key
    stands in its first 200 bytes."""
    assert sniff(b"  junk\nmd|1SAKQ,,,|", "") == "lin"
    assert sniff(b"junk", "") is None


def test_a_folder_takes_a_file_by_its_name_or_its_content(tmp_path):
    (tmp_path / "a.pbn").write_bytes(b"anything")
    (tmp_path / "b.txt").write_bytes(PBN)
    (tmp_path / "c.toml").write_bytes(b"[tool.x]\nname = 1\n")
    assert recognised(str(tmp_path / "a.pbn"), "a.pbn")
    assert recognised(str(tmp_path / "b.txt"), "b.txt")
    assert not recognised(str(tmp_path / "c.toml"), "c.toml")
