"""Opening sources: one path as a string, folders (hidden ones and non-regular files skipped,
each file read once), UTF-16 with a byte-order mark, and bare-CR line ends."""
import os
from pathlib import Path

from revoke_audit import audit_paths
from revoke_audit.formats import iter_sources, read_boards

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
REVOKE = FIXTURES / "cli" / "revoke.pbn"


def boards_of(path) -> list[tuple[str, str]]:
    return [(r.board, r.contract) for r in read_boards(path)]


def test_one_string_is_one_path_not_its_characters():
    expected = boards_of([str(REVOKE)])
    assert expected and boards_of(str(REVOKE)) == expected == boards_of(REVOKE)
    assert len(audit_paths(str(REVOKE)).boards) == len(expected)


def test_walk_skips_hidden_folders_and_fifos_and_reads_a_file_once(tmp_path):
    (tmp_path / ".git").mkdir()
    (tmp_path / ".git" / "old.pbn").write_bytes(REVOKE.read_bytes())
    (tmp_path / "a.pbn").write_bytes(REVOKE.read_bytes())
    os.mkfifo(tmp_path / "pipe.pbn")  # reading it would block the run for ever
    got = list(iter_sources([tmp_path, tmp_path / "a.pbn", str(tmp_path) + "/./a.pbn"]))
    assert got == [str(tmp_path / "a.pbn")]


def test_utf16_with_a_bom_reads_like_utf8(tmp_path):
    text = REVOKE.read_text(encoding="utf-8")
    for encoding in ("utf-16", "utf-16-be"):
        path = tmp_path / f"{encoding}.pbn"
        data = text.encode(encoding)
        if encoding == "utf-16-be":
            data = b"\xfe\xff" + data
        path.write_bytes(data)
        assert boards_of(path) == boards_of(REVOKE)


def test_bare_cr_line_ends_read_like_lf(tmp_path):
    for fixture in (REVOKE, FIXTURES / "cli" / "revoke.lin"):
        path = tmp_path / ("cr" + fixture.suffix)
        path.write_bytes(fixture.read_bytes().replace(b"\r\n", b"\n").replace(b"\n", b"\r"))
        got = [(r.board, r.contract, len(r.play)) for r in read_boards(path)]
        assert got == [(r.board, r.contract, len(r.play)) for r in read_boards(fixture)]
        assert got
