"""``--laws auto`` picks the edition from each record's date, on real corpus files."""
from pathlib import Path

import pytest

from revoke_audit.ruling.audit import audit_board
from revoke_audit.ruling.options import AuditOptions
from revoke_audit.laws.dates import edition_for
from revoke_audit.formats import read_boards
from revoke_audit.core.record import BoardRecord

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus"
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def rec(**kw) -> BoardRecord:
    return BoardRecord(source="x", line=1, game=1, format="pbn", **kw)


def test_date_then_title_date_then_event():
    assert edition_for(rec(date="2003.06.21"), "auto") == ("1997", None)
    assert edition_for(rec(date="2010.01.01"), "auto") == ("2007", None)
    assert edition_for(rec(tags={"HRTitleDate": "2018.03.30"}), "auto") == ("2017", None)
    assert edition_for(rec(event="T4 2015 EOBC-Open Pairs Final"), "auto") == ("2007", None)
    assert edition_for(rec(date="1933.05.01"), "auto") == ("1932", None)
    edition, note = edition_for(rec(), "auto")
    assert edition == "2017" and "no date" in note
    assert edition_for(rec(date="1997.06.24"), "2017") == ("2017", None)


def test_changeover_window_gets_the_newer_code_and_a_note_only_when_it_matters():
    edition, note = edition_for(rec(date="2008.05.02"), "auto")
    assert edition == "2007" and note
    a = audit_board(rec(date="2008.05.02"), AuditOptions("auto", "table"))  # nothing to rule: no note
    assert a.findings == [] and a.ruling.edition == "2007"
    revoke, clean = read_boards([FIXTURES / "selection" / "mixed.pbn"])  # both in the 2017 window
    auto = AuditOptions("auto", "table")
    assert [f.code for f in audit_board(revoke, auto).findings] == ["LW001", "PS103", "RV001"]
    assert [f.code for f in audit_board(clean, auto).findings] == ["RC023"]
    assert [f.code for f in audit_board(revoke, AuditOptions("2017", "table")).findings] == ["PS103", "RV001"]


@pytest.mark.skipif(not CORPUS.exists(), reason="corpus absent")
@pytest.mark.parametrize("path, edition, window", [
    ("ContractBridge__pbn-files/1997-European_Team_Championship/Fnoito25.pbn", "1997", True),
    ("ContractBridge__pbn-files/2001-European_Team_Championships/01denice.pbn", "1997", False),
    ("Rick-Wilson__pbn-to-pdf/tests/fixtures/ABS4-2 Jacoby Transfers practice deals-NS.pbn", "2017", False),
    ("eitazhou__bridge_played_hands/raw_lin_data/154/15474", "2007", False),
])
def test_corpus_files_get_the_code_of_their_date(path, edition, window):
    """June 1997 (the European Team Championship) falls in the 1997 Laws' adoption window: the
    newer code, with a note on the boards with a revoke or defective trick.  2001 events were played under the 1997 Laws, a 2010 vugraph under
    the 2007 Laws, and the 2018 hand records (BridgeComposer title date 2018.03.30) under the
    2017 Laws."""
    boards = list(read_boards([CORPUS / path]))
    assert boards
    for r in boards:
        a = audit_board(r, AuditOptions("auto", "table"))
        assert a.ruling.edition == edition, (r.date, r.event, r.tags.get("HRTitleDate"))
        ruled = any(f.code[:2] in ("RV", "DT") for f in a.findings)
        assert bool([f for f in a.findings if f.code == "LW001"]) == (window and ruled)
