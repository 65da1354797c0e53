"""``--format json`` and ``--format sarif`` are written piece by piece from rows spooled to
disk, byte for byte as the whole document would be dumped - so memory stays flat."""
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import revoke_audit.cli.audit
from revoke_audit.cli.commands import main
from revoke_audit.reports.sarif import sarif_document, write_sarif
from revoke_audit.reports.streamed_json import JsonSpools, Spool, placeholder, write_document

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
