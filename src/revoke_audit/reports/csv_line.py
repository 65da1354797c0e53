"""A clean board's boards.csv line made straight from its cells, without the csv module.

The lane (``engine.lane``) makes thousands of rows a second that differ only in a few cells
(the names, the contract, the score...); every other cell is the same for all of them (no
revoke, no field yet, no rubber bonus).  ``LineTemplate`` turns such a row into the exact text
``csv.writer`` writes for ``report.csv_values`` of it: the constant cells written once, when
the template is made, the others put in by ``%``.  It gives the line only when no cell needs
what the writer would do (a comma or a quote to quote, a control character to escape, a text
cell a spreadsheet would read as a formula: ``visible.safe_cell``); a row it refuses is written
the usual way.  ``tests/test_csv_line.py`` and ``tests/test_lane.py`` check that the line is the
writer's, cell for cell."""
from __future__ import annotations

import csv
import io
import re
from operator import itemgetter
from typing import Sequence

from ..core.visible import safe_cell

# what makes the writer change or quote a text cell: a control character or undecodable
# byte, a comma or quote (``_CHANGED``), or a formula's start at its start (``QUOTED_START``)
_CHANGED = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff,\"]")
_FIRST = frozenset("=+-@'")
_SAFE_MAX = 4096  # the texts a template remembers as safe, at most (a board number each)


class LaneRow(dict):
    """A lane's boards.csv row (a plain dict to every reader) with its CSV line ready
    (``line``: None when it must be written the usual way)."""

    __slots__ = ("line",)


class LineTemplate:
    """The boards.csv lines of rows whose cells outside ``variable`` are those of ``sample``
    (a row of ``columns``, in their order).  ``texts``: the variable cells that hold text (the
    others hold an int or None)."""

    def __init__(self, columns: Sequence[str], sample: dict[str, object],
                 variable: Sequence[str], texts: Sequence[str]) -> None:
        if [c for c in columns if c in variable] != list(variable) or list(sample) != list(
                columns):
            raise ValueError("the sample's cells and the variable cells must be named in the "
                             "columns' order")
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="")
        pieces = []
        for c in columns:
            if c in variable:
                pieces.append("%s")
                continue
            buffer.seek(0)
            buffer.truncate()
            writer.writerow([safe_cell(sample[c]), ""])  # two cells: never a lone "" quoted
            pieces.append(buffer.getvalue()[:-1].replace("%", "%%"))
        self.format = ",".join(pieces) + "\n"
        self.variable = tuple(variable)
        self.texts = _getter([self.variable.index(t) for t in texts])
        self._safe: set[str] = set()  # texts seen that need nothing of the writer

    def line(self, values: tuple) -> str | None:
        """The line of the row whose variable cells are ``values`` (in the order of
        ``variable``), or None when a cell needs the writer (``_CHANGED``, ``_FIRST``)."""
        texts = self.texts(values)
        if not self._safe.issuperset(texts) and not self._plain(texts):
            return None
        if None in values:
            values = tuple(["" if v is None else v for v in values])
        return self.format % values

    def _plain(self, texts: tuple) -> bool:
        """Does no text of ``texts`` need the writer?  Those that need nothing remembered."""
        safe = self._safe
        for text in texts:
            if text not in safe:
                if type(text) is not str or _CHANGED.search(text) or text[:1] in _FIRST:
                    return False
                if len(safe) >= _SAFE_MAX:
                    safe.clear()
                safe.add(text)
        return True


def _getter(keys: Sequence[int]):
    """A function giving the values at ``keys`` as a tuple (``itemgetter``'s, even of one)."""
    if len(keys) == 1:
        return lambda values: (values[keys[0]],)
    return itemgetter(*keys)
