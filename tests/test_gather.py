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


# --- a board alone in its field: deferred as its line, read back only for a field ----------

def _run(rows: list[dict], tagged: bool = False):
    """A ``CleanRun`` of ``rows`` as the lane sends it; ``tagged``: with (empty) Field tags,
    which the gathering reads at once instead of deferring the lines."""
    from revoke_audit.reports.rows import FieldTags
    from test_rescore import clean_run

    run = clean_run(rows)
    if tagged:
        run.tags = {i: FieldTags("", "", "", None) for i in range(len(rows))}
    return run


def _rows(boards: list[tuple[str, int, int]]) -> list[dict]:
    """Clean boards.csv rows (event, board number, N-S score as played and adjusted)."""
    from test_rescore import board_rows

    rows = []
    for event, board, score in boards:
        (row,) = board_rows(range(board, board + 1), event)
        row.update(score_ns=score, score_ns_adjusted=score, north=f"N{len(rows)}")
        rows.append(row)
    return rows


def test_deferred_lines_are_scored_as_gathered_ones_and_a_lone_board_is_never_read_back():
    # Pairs board 1 at two tables: N-S 420 and 450.  Matchpoints, one comparison: 450 beats
    # 420, so 450 scores 1 of 1 (100%) and 420 scores 0 of 1 (0%), before and after (no
    # adjustment).  Pairs board 2 has one result (SC001: a board of a scored event alone in
    # its field); the hand record's board 1 is an event with no field: neither a figure nor a
    # note, and its line is never read back into an entry.
    from revoke_audit.reports.gather import add

    rows = _rows([("Pairs", 1, 420), ("Pairs", 2, 420), ("Hand record", 1, 420),
                  ("Pairs", 1, 450)])
    for tagged in (False, True):  # deferred lines, then the same gathered at once
        with Fields() as fields:
            add(fields, _run(rows, tagged))
            scored = fields.score()
            figures = {o: (f[0], f[1], f[2], f[-1]) for o, f in scored.figures.items()}
            assert figures == {0: (2, 0.0, 0.0, "mp"), 3: (2, 100.0, 100.0, "mp")}, tagged
            assert [(n.event[0], n["code"], n["board"]) for n in scored.notes] == [
                ("Pairs", "SC001", "2")]
            # deferred: the Pairs boards only read back; gathered at once: every board
            assert fields._store.entries == (4 if tagged else 3)


def test_a_deferred_line_joins_a_field_gathered_at_once():
    # board 7 of "Cup": N-S 100 deferred (first), N-S -50 gathered from a tagged run (second):
    # one field of two, 100 beats -50 - 100% and 0%, in the order the boards came
    from revoke_audit.reports.gather import add

    first, second = _rows([("Cup", 7, 100), ("Cup", 7, -50)])
    with Fields() as fields:
        add(fields, _run([first]))
        add(fields, _run([second], tagged=True))
        figures = {o: f[1] for o, f in fields.score().figures.items()}
        (field,) = [[e.ordinal for e in entries] for _, entries in fields.fields()]
    assert figures == {0: 100.0, 1: 0.0}
    assert field == [0, 1]
