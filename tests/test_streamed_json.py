"""``--format json`` and ``--format sarif`` are written piece by piece from rows spooled to
disk, byte for byte as the whole document would be dumped - so memory stays flat."""
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import revoke_audit.cli.audit
from revoke_audit.cli.commands import main
from revoke_audit.reports.sarif import sarif_document, write_sarif
from revoke_audit.reports import gather
from revoke_audit.reports.gather import FieldNotes
from revoke_audit.reports.report import json_board
from revoke_audit.reports.rows import Rendered
from revoke_audit.reports.streamed_json import (JsonLines, JsonSpools, Spool, log_line,
                                               placeholder, write_document)

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
ROWS = [{"board": "1", "name": "Ann \u00e9\n=x", "n": 3, "ok": True, "none": None},
        {"board": "2", "nested": {"a": [1, 2]}, "empty": [], "n": -1}]


def streamed(template, lists, ensure_ascii=True):
    parts = []
    write_document(parts.append, template, lists, ensure_ascii)
    return "".join(parts)


@pytest.mark.parametrize("ensure_ascii", [True, False])
@pytest.mark.parametrize("first,second", [(ROWS, ROWS[:1]), ([], ROWS), (ROWS, []), ([], [])])
def test_a_streamed_document_is_the_dumped_document(first, second, ensure_ascii):
    whole = {"head": {"x": [1]}, "boards": first, "mid": "m", "findings": second, "tail": []}
    template = dict(whole, boards=placeholder("boards"), findings=placeholder("findings"))
    got = streamed(template, {"boards": iter(first), "findings": iter(second)}, ensure_ascii)
    assert got == json.dumps(whole, indent=1, ensure_ascii=ensure_ascii)


def test_a_spool_gives_its_rows_back_in_order_as_often_as_asked():
    spool = Spool()
    for row in ROWS:
        spool.add(row)
    assert list(spool) == ROWS and list(spool) == ROWS and spool.count == 2
    spool.close()


def test_streamed_sarif_is_the_sarif_document(tmp_path):
    findings = [{"source": "a b.pbn", "line": 3, "game": 1, "board": "2", "room": "", "code": c,
                 "trick": 4, "seat": "E", "card": "H5", "player": "", "message": "m",
                 "law": "64A2"}
                for c in ("RV001", "PS103", "RV001")]
    parts = []
    write_sarif(parts.append, findings, root=str(tmp_path))
    assert "".join(parts) == json.dumps(sarif_document(findings, str(tmp_path)), indent=1)


@pytest.mark.parametrize("fmt", ["json", "sarif"])
def test_the_command_streams_the_same_document_it_used_to_build(fmt, tmp_path, monkeypatch):
    """The whole fixtures folder (boards with and without findings, the director's log's own
    rows aside): the streamed document parses, and its rows are the reports' rows."""
    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(main, ["audit", str(FIXTURES / "mixed"), "--format", fmt,
                                  "-o", "b.csv", "--findings", "f.csv"])
    doc = json.loads(r.stdout)
    if fmt == "json":
        assert [b["board"] for b in doc["boards"]] == [
            line.split(",")[5] for line in Path("b.csv").read_text().splitlines()[1:]]
        assert len(doc["findings"]) == len(Path("f.csv").read_text().splitlines()) - 1
        assert r.stdout == json.dumps(doc, indent=1, ensure_ascii=False) + "\n"
    else:
        assert r.stdout == json.dumps(doc, indent=1) + "\n"


def test_spools_leave_no_rows_in_memory():
    with JsonSpools() as spools:
        spools.add({"board": "1"}, [{"code": "RV001"}, {"code": "PS103"}])
        spools.add(None, [{"code": "RC040"}])  # the log's own rows: findings only
        assert (spools.boards.count, spools.findings.count) == (1, 3)
        assert [f["code"] for f in spools.findings] == ["RV001", "PS103", "RC040"]


def test_a_bug_outside_any_board_is_one_line_and_exit_2(monkeypatch, tmp_path):
    """An exception the run does not expect (a bug) reaches the user as one line, not a
    traceback; boards keep their own RC099 for bugs inside a board."""
    def broken(*args, **kw):
        raise KeyError("boom")
    monkeypatch.setattr(revoke_audit.cli.audit, "render_sources", broken)
    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(main, ["audit", str(FIXTURES / "cli" / "revoke.pbn"), "-q"])
    assert r.exit_code == 2
    assert r.stderr == "revoke-audit: internal error (KeyError: 'boom'); please report it\n"


# --- --format jsonl: an item without a board (the fields' notes, thousands of them) ------------

NOTES = [{"source": "Salle \u00e9t\u00e9.pbn", "line": 3 + i, "game": i, "board": str(i),
          "code": "SC001", "message": f"board {i} has no other result", "trick": None}
         for i in range(1, 6)]


@pytest.mark.parametrize("size,pieces", [(1, 1), (1, 5), (1 << 16, 1), (1 << 16, 5)])
def test_a_log_line_is_the_dumped_line_in_pieces(size, pieces):
    """Joined, the pieces are ``json_board``'s line for the same item, however small the
    pieces are cut (the head, then ``size`` 1: a piece a finding, the default: one piece for a
    few findings; then the closing brackets)."""
    findings = NOTES[:pieces]
    got = list(log_line(iter(findings), size))
    assert "".join(got) == json_board(Rendered(None, findings))
    assert len(got) == (pieces if size == 1 else 1) + 2


def test_a_log_line_without_a_finding_is_an_error():
    with pytest.raises(ValueError):
        list(log_line([]))


def _table(board: int, tricks: int, names: str) -> str:
    """One table's result of a board of an event in a hall with an accented name."""
    n, e, s, w = names.split(",")
    tags = [("Event", "Pairs d'\u00e9t\u00e9"), ("Date", "2026.07.01"), ("Board", str(board)),
            ("West", w), ("North", n), ("East", e), ("South", s), ("Dealer", "N"),
            ("Vulnerable", "None"),
            ("Deal", "N:5432.543.AKQ.AKQ KQJT.2.9876.9876 A98.AKQJT.54.543 76.9876.JT32.JT2"),
            ("Declarer", "S"), ("Contract", "4H"), ("Result", str(tricks))]
    return "".join(f'[{k} "{v}"]\n' for k, v in tags) + "\n"


def _notes_item(findings, line):
    item = FieldNotes(None, findings)
    item.line = line
    return item


def test_jsonl_writes_the_notes_of_one_line_as_that_line():
    """A board, a director's log item (its own line), then the notes: two items of line 0,
    one of line 1: four lines, each the one ``json_board`` writes of what it holds."""
    board = Rendered({"board": "7", "status": "clean"}, [])
    log = Rendered(None, NOTES[4:])
    items = [board, log, _notes_item(NOTES[:2], 0), _notes_item(NOTES[2:3], 0),
             _notes_item(NOTES[3:], 1)]
    for size in (1, 1 << 16):
        out = []
        lines = JsonLines(out.append, lambda text: out.append(text + "\n"), json_board, size)
        for r in items:
            lines.add(r)
        lines.close()
        assert "".join(out).splitlines() == [json_board(r) for r in (
            board, log, Rendered(None, NOTES[:3]), Rendered(None, NOTES[3:]))]


def test_the_notes_lines_of_jsonl_do_not_depend_on_the_items_that_carry_them(tmp_path,
                                                                            monkeypatch):
    """Board 1 at two tables makes the event a field to score; boards 2 to 6 were played at
    one table each, so each gets SC001 (no other result): five notes.  However many notes an
    item carries (here one), they make the same jsonl lines: one line of the five (as
    ``json.dumps`` writes it, accented text as itself); with lines of four notes, two."""
    path = tmp_path / "\u00e9t\u00e9.pbn"
    path.write_text(_table(1, 10, "A,B,C,D") + _table(1, 11, "E,F,G,H")
                    + "".join(_table(b, 10, "A,B,C,D") for b in range(2, 7)), encoding="utf-8")
    monkeypatch.chdir(tmp_path)

    def notes_lines() -> list[str]:
        out = CliRunner().invoke(main, ["audit", path.name, "--format", "jsonl"]).stdout
        return [line for line in out.splitlines() if line.startswith('{"log"')]

    whole = notes_lines()
    monkeypatch.setattr(gather, "_ITEM", 1)
    assert notes_lines() == whole and len(whole) == 1
    item = json.loads(whole[0])
    assert [(f["code"], f["board"]) for f in item["findings"]] == [
        ("SC001", str(b)) for b in range(2, 7)]
    assert whole[0] == json.dumps(item, ensure_ascii=False) and "\u00e9t\u00e9" in whole[0]
    monkeypatch.setattr(gather, "_NOTES", 4)
    assert [len(json.loads(line)["findings"]) for line in notes_lines()] == [4, 1]
