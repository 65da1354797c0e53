"""scoring.figures, the read side: the narrow reads the standings make of the results (``tables``,
``rooms``: the database's columns and sums, no ``Result`` a table) give what the ``Result``s
themselves give, read one by one; the forward read of the figures across its blocks."""
from collections import defaultdict
from pathlib import Path

import pytest

from revoke_audit.engine.run import render_sources
from revoke_audit.reports.gather import noted
from revoke_audit.ruling.options import AuditOptions
from revoke_audit.scoring import figures as figures_module
from revoke_audit.scoring.figures import METHOD_NUMBERS, Figures
from revoke_audit.scoring.rescore import Fields
from revoke_audit.scoring.store import Store

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
# the two teams matches (board 2 of Lions v Tigers adjusted: 64A2 at the table) and the club
# session (matchpoints, its revoke board adjusted), scored as recorded, then all as Butler
RUNS = [(None, [FIXTURES / "teams", FIXTURES / "session"]), ("butler", [FIXTURES / "session"])]


def scored(method, paths):
    fields = Fields(method)
    for _ in noted(fields, render_sources([str(p) for p in paths],
                                          AuditOptions(discovered="table"))):
        pass
    return fields


@pytest.mark.parametrize("method, paths", RUNS)
def test_the_tables_read_narrow_are_the_results(method, paths):
    with scored(method, paths) as fields:
        results = fields.score().results
        expected = [(METHOD_NUMBERS[r.method], r.before, r.after, r.key, r.entry.names)
                    for r in results if r.method != "teams"]
        got = [(m, b, a, results.key(field), results.players(names))
               for m, b, a, field, names in results.tables()]
        assert expected and got == expected
        # Butler's IMPs whole (ints), as a Result gives them; matchpoints as percentages
        assert [(type(g[1]), type(g[2])) for g in got] == \
            [(type(e[1]), type(e[2])) for e in expected]


def test_the_rooms_summed_by_the_database_are_the_results_added_up():
    # each (event, source, room, match, Scoring tag): its first Result, its results, and the
    # IMPs won by N-S before, after, by E-W before, after, added up one Result at a time
    with scored(*RUNS[0]) as fields:
        results = fields.score().results
        sums: dict[tuple, list] = defaultdict(lambda: [None, 0, 0, 0, 0, 0])
        for r in results:
            if r.method == "teams":
                e = r.entry
                got = sums[(r.key[:3], e.source, e.room, e.match, e.scoring)]
                if got[0] is None:
                    got[0] = r
                for i, x in enumerate((1, max(r.before, 0), max(r.after, 0),
                                       max(-r.before, 0), max(-r.after, 0)), 1):
                    got[i] += x
        rooms = [tuple(s) for s in sums.values()]
        assert len(rooms) == 4  # two matches, two rooms each
        assert list(results.rooms()) == rooms
        # by hand (test_standings): Lions v Tigers, open room N-S: board 1 +10, board 2 +1
        # (+2 after the revoke's trick); Bears v Wolves, open room: +1, -10; the closed rooms
        # the negatives
        assert {(Path(r[0].entry.source).name, r[0].entry.room): r[1:] for r in rooms} == {
            ("round1-lions-tigers.pbn", "open"): (2, 11, 12, 0, 0),
            ("round1-lions-tigers.pbn", "closed"): (2, 0, 0, 11, 12),
            ("round1-bears-wolves.pbn", "open"): (2, 1, 1, 10, 10),
            ("round1-bears-wolves.pbn", "closed"): (2, 10, 10, 1, 1)}


def test_the_figures_read_forward_across_blocks(monkeypatch):
    # blocks of 3 rows: ranges that end inside a block, at its end, past the last row, one
    # board at a time, and a read back from an earlier place
    monkeypatch.setattr(figures_module, "_BLOCK", 3)
    store = Store()
    try:
        figures = Figures(store)
        places = [1, 2, 4, 5, 6, 9, 10, 11, 15, 16]
        figures.put_field(places, 2, "teams", [float(p) for p in places], places)
        one_by_one = tuple((o, o + 1) for o in range(18))  # a report's items of a board
        for ranges in (((0, 3), (3, 6), (6, 7), (7, 16), (16, 40)), one_by_one,
                       ((0, 11), (12, 13), (13, 17)), ((5, 6), (0, 100)), ((0, 100),),
                       ((1, 2), (2, 9), (9, 10), (10, 17))):
            for start, stop in ranges:
                got = [o for o, _ in figures.within(start, stop)]
                assert got == [p for p in places if start <= p < stop], (start, stop)
        assert figures.texts(9, 11) == [(9, "2,,,9.0,9.0,teams"), (10, "2,,,10.0,10.0,teams")]
    finally:
        store.close()


@pytest.mark.parametrize("lo", [0, 1, 2, 5, 9, 10])
def test_a_gallop_finds_what_bisect_finds(lo):
    from bisect import bisect_left

    from revoke_audit.scoring.figures import _gallop

    block = [(o, "x") for o in (1, 2, 4, 5, 6, 9, 10, 11, 15, 16)]
    for key in range(0, 18):
        assert _gallop(block, (key,), lo) == bisect_left(block, (key,), lo), key
