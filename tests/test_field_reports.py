"""reports.field_reports: a boards.csv line gets its field figures written into the empty field
cells, whatever the cells after them hold (the Law 64C cells and ``confirm_card``, free text
that the CSV writer quotes when it holds a comma or a quote)."""
import csv
import io

from revoke_audit.reports.field_reports import _patched
from revoke_audit.reports.rows import AFTER_FIELD, BOARD_COLUMNS, FIELD_COLUMNS


def _line(after: list[str]) -> str:
    """A boards.csv line as the report's writer makes it: the cells before the field's, the
    field cells empty, then ``after``."""
    before = [f"c{i}" for i in range(BOARD_COLUMNS.index(FIELD_COLUMNS[0]))]
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerow(before + [""] * len(FIELD_COLUMNS) + after)
    return out.getvalue()


def _cells(line: str) -> list[str]:
    return next(csv.reader([line]))


def _patched_by_hand(after: list[str]) -> list[str]:
    figures = tuple(range(1, len(FIELD_COLUMNS) + 1))
    cells = _cells(_line(after))
    start = BOARD_COLUMNS.index(FIELD_COLUMNS[0])
    cells[start:start + len(FIELD_COLUMNS)] = [str(v) for v in figures]
    return cells


def test_plain_cells_after_the_field():
    after = ["10", "4S=", "420", "adjusted", ""][:len(AFTER_FIELD)]
    figures = tuple(range(1, len(FIELD_COLUMNS) + 1))
    assert _cells(_patched(_line(after), figures)) == _patched_by_hand(after)


def test_a_confirm_card_with_commas_and_quotes_after_the_field():
    """The writer quotes a cell with a comma ("trick 4 South C7 (S6?), one slip"): the line is
    not cut at that comma, and the quoted cell comes out as it went in."""
    after = ["", "", "", "none", 'trick 4 South C7 (S6?), one slip; "deal error?"'][-len(AFTER_FIELD):]
    figures = tuple(range(1, len(FIELD_COLUMNS) + 1))
    patched = _patched(_line(after), figures)
    assert _cells(patched) == _patched_by_hand(after)
    assert patched.endswith(_line(after)[-len('"trick 4 South C7 (S6?), one slip; ""deal error?"""\n'):])
