"""``report.csv_values`` (plain rows written as they are) writes the same bytes as ``safe_cell``
applied to every cell, whatever the cells."""
from __future__ import annotations

import csv
import io

from hypothesis import given, strategies as st

from revoke_audit.report import csv_values, row_values, safe_cell

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
