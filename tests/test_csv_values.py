"""``report.csv_values`` (plain rows written as they are) writes the same bytes as ``safe_cell``
applied to every cell, whatever the cells."""
from __future__ import annotations

import csv
import io
from dataclasses import replace

from hypothesis import given, strategies as st

from revoke_audit.reports.report import CsvText, Reports, csv_values, row_values, safe_cell
from revoke_audit.reports.rows import BOARD_COLUMNS, FINDING_COLUMNS, Rendered

TEXT = st.text(alphabet=st.sampled_from(list("ab =+-@\t\r\n\x00\x1b\x85\u2028\ue000,\"'é")),
               max_size=6)
CELL = st.one_of(st.none(), st.integers(-2000, 2000), st.booleans(), TEXT)


def written(values) -> str:
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerow(values)
    return buf.getvalue()


@given(st.lists(CELL, min_size=1, max_size=8))
def test_same_bytes_as_cell_by_cell(cells):
    columns = [f"c{i}" for i in range(len(cells))]
    row = dict(zip(columns, cells))
    assert written(csv_values(row, row_values(columns))) == written([safe_cell(v) for v in cells])


def test_plain_rows_are_not_copied_cell_by_cell():
    row = {"a": "x", "b": 3, "c": None, "d": -4}
    assert csv_values(row, row_values(list(row))) == ("x", 3, None, -4)
    assert csv_values({"a": "=1"}, row_values(["a"])) == ["'=1"]


@given(board=st.lists(CELL, min_size=len(BOARD_COLUMNS), max_size=len(BOARD_COLUMNS)),
       findings=st.lists(st.lists(CELL, min_size=len(FINDING_COLUMNS), max_size=len(FINDING_COLUMNS)),
                max_size=3))
def test_a_workers_csv_text_is_what_the_report_writes(board, findings, tmp_path_factory):
    """``--jobs``: a worker makes each board's CSV lines (``CsvText``); the parent copies them.
    They must be the bytes ``CsvReport`` writes for the same rows, cell for cell."""
    r = Rendered(dict(zip(BOARD_COLUMNS, board)),
                 [dict(zip(FINDING_COLUMNS, f)) for f in findings])
    folder = tmp_path_factory.mktemp("reports")
    paths = [str(folder / "b.csv"), str(folder / "f.csv")]
    for text in (None, CsvText().lines(r)):
        with Reports([paths[0]], [paths[1]]) as reports:
            reports.write(replace(r, csv=text))
            reports.commit()
        written_now = [open(p, encoding="utf-8", newline="").read() for p in paths]
        if text is None:
            expected = written_now
    assert written_now == expected and expected[0].count("\n") >= 2
