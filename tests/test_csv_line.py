"""A lane row's boards.csv line made from its cells (``reports.csv_line``) is the line the csv
writer makes of the row (``report.CsvText``), cell for cell; a row with a cell the writer would
quote or change gets no line and is written the usual way."""
from __future__ import annotations

import pytest

from revoke_audit.engine.lane.common import board_row
from revoke_audit.reports.csv_line import LaneRow, LineTemplate
from revoke_audit.reports.report import CsvText
from revoke_audit.reports.rows import BOARD_COLUMNS, CleanRun, Rendered


def _row(**change):
    args = dict(source="/data/club.pbn", line=4, game=1, event="Club pairs", date="2024.01.01",
                board="1", room="", dealer=1, vul="All", declarer=2, contract="6S",
                tricks=(7, "complete"), stated=7, laws="2017",
                names=("anna", "hal", "fay", "jon"))
    args.update(change)
    return board_row(**args)


def _written(row) -> str:
    return CsvText().lines(Rendered(dict(row), []))[0]


@pytest.mark.parametrize("change", [
    {}, {"stated": None}, {"tricks": (9, "claimed")}, {"dealer": None, "vul": None},
    {"room": "Open", "board": "17", "contract": "3NTX", "declarer": 0},
    {"names": ("", "", "", "")}, {"event": "50% game", "date": ""},
    {"source": "a\udcffb.pbn"},  # an undecodable byte of the name: escaped by ``decodable``
])
def test_the_line_is_the_writers(change):
    row = _row(**change)
    assert type(row) is LaneRow and row.line is not None
    assert row.line == _written(row)


@pytest.mark.parametrize("change", [
    {"event": "Pairs, final"}, {"event": 'The "A" final'}, {"names": ("=cmd", "", "", "")},
    {"names": ("", "+1", "", "")}, {"room": "@x"}, {"event": "-x"}, {"date": "'1"},
    {"source": "=x.pbn"}, {"source": "-x.pbn"}, {"event": "a\tb"}, {"event": "a\nb"},
    {"board": "\x1b[31m"}, {"names": ("", "", "", "a\u2028")},
])
def test_a_cell_the_writer_changes_gets_no_line_and_is_written_the_usual_way(change):
    row = _row(**change)
    assert row.line is None
    text = CsvText().lines(CleanRun(2, rows=[_row(), row]))[0]
    assert text == _written(_row()) + _written(row)  # the usual way for that one only


def test_a_clean_run_of_lines_is_the_writers_text():
    rows = [_row(board=str(n), stated=n % 14 or None) for n in range(1, 40)]
    want = "".join(_written(r) for r in rows)
    assert CsvText().lines(CleanRun(len(rows), rows=rows))[0] == want


def test_a_template_takes_its_cells_in_the_columns_order():
    sample = dict.fromkeys(BOARD_COLUMNS, 0)
    with pytest.raises(ValueError):
        LineTemplate(BOARD_COLUMNS, sample, ("line", "source"), ("source",))
    with pytest.raises(ValueError):
        LineTemplate(BOARD_COLUMNS, {"line": 0, **sample}, ("source",), ("source",))
    t = LineTemplate(BOARD_COLUMNS, {**sample, "event": "100%"}, ("source",), ("source",))
    assert t.line(("x",)) == "x,0,0,100%," + ",".join(["0"] * 46) + "\n"
    assert t.line(("=x",)) is None and t.line((None,)) is None


def test_a_text_remembered_as_safe_is_still_checked_where_it_is_not():
    """The texts a template remembers are safe anywhere: a cell's check never depends on
    the cells beside it."""
    assert _row(event="x", names=("x", "x", "x", "x")).line is not None
    assert _row(event="x", names=("x", "x", "x", "x,")).line is None
