"""A board's field figures gathered from its row (``reports.gather``): the notes of the fields
that cannot be scored come back from disk a few hundred to an item, in order, the whole run's
summary in the first, each item saying which line of ``--format jsonl`` it goes in (4,096 notes
a line) (the lanes' lines and the rows giving the same fields:
tests/test_rescore.py)."""
from __future__ import annotations

from revoke_audit.reports.gather import FieldNotes, noted
from revoke_audit.reports.rows import FINDING_COLUMNS
from revoke_audit.scoring.rescore import Fields


def test_many_notes_come_in_items_with_the_summary_in_the_first():
    # event "Pairs": board 1 played twice (a field: the event is scored), boards 2..5001 once
    # each: 5,000 boards with no other result to compare with, SC001 each
    boards = ["1", "1"] + [str(b) for b in range(2, 5002)]
    n = len(boards)
    with Fields() as fields:
        fields.add(range(n), [("Pairs", "", "")] * n, boards, [420] * n, [420] * n, range(n),
                   range(n), [("f.pbn", "", "", "", "4H", "S", "None")] * n,
                   [(f"N{i}", "E", "S", "W") for i in range(n)], [None] * n)
        items = list(noted(fields, []))
    # 5,000 notes: 19 items of 256 and one of 136; 16 items (4,096 notes) make the first line
    assert {type(i) for i in items} == {FieldNotes}
    assert [len(i.findings) for i in items] == [256] * 19 + [136]
    assert [i.line for i in items] == [0] * 16 + [1] * 4
    rows = [f for i in items for f in i.findings]
    assert [f["board"] for f in rows] == [str(b) for b in range(2, 5002)]
    assert {f["code"] for f in rows} == {"SC001"}
    assert list(rows[0]) == list(FINDING_COLUMNS)  # every findings column, in order
    assert items[0].summary(str) == [
        "Pairs: 5000 boards: not scored: no other result to compare with (SC001; each board "
        "in the findings report)"]
    assert {tuple(i.summary(str)) for i in items[1:]} == {()}
