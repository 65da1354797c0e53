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


class _Texts:
    """Figures' stand-in: the cells of the boards at some places, as ``Figures.texts``."""

    def __init__(self, texts: dict[int, str]) -> None:
        self._texts = texts

    def texts(self, start: int, stop: int) -> list[tuple[int, str]]:
        return [(o, t) for o, t in sorted(self._texts.items()) if start <= o < stop]


def _by_csv(line: str, figures: tuple) -> str:
    """``line`` read as CSV, its field cells given ``figures``, written back as CSV."""
    cells = _cells(line)
    start = BOARD_COLUMNS.index(FIELD_COLUMNS[0])
    cells[start:start + len(FIELD_COLUMNS)] = [str(v) for v in figures]
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerow(cells)
    return out.getvalue()


def test_a_file_filled_is_each_line_patched_alone():
    # ``filled`` patches a line that ends as the last one patched by that end alone: lines
    # whose ends repeat, change, hold only empty cells (the empty field cells then run into
    # them), hold a quoted cell or a letter outside ASCII (bytes in the file); lines without
    # figures between; several chunks
    from revoke_audit.reports.field_reports import filled

    n = len(AFTER_FIELD)
    afters = [["", "", "", "none", ""], ["", "", "", "none", ""], ["10", "4S=", "420", "é", ""],
              ["", "", "", "", ""], ["", "", "", "", ""], ["", "", "", "none", 'a, "b"'],
              ["", "", "", "none", ""], ["", "", "", "none", ""]]
    lines = [_line(after[-n:]) for after in afters * 3000]
    figures = tuple(range(1, len(FIELD_COLUMNS) + 1))
    text = ",".join(str(v) for v in figures)
    places = {i: text for i in range(len(lines)) if i % 7 != 3}
    got = b"".join(filled(io.BytesIO("".join(lines).encode()), _Texts(places))).decode()
    want = [_by_csv(line, figures) if i in places else line for i, line in enumerate(lines)]
    assert got == "".join(want)
    assert len(got) > 1 << 21  # three chunks of a megabyte
