"""The scored fields' figures, read back from the run's database (``store``): each board's
values of boards.csv's field columns (``Figures``, by the board's place among the run's board
rows) and each table's figures for the standings (``Results``)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Iterator, NamedTuple

from .store import ENTRY, Store

if TYPE_CHECKING:
    from .rescore import Entry

#: A board's figures by method: the names ``scoring_method`` takes, by their number in the
#: database; Butler's and teams' IMPs are whole numbers (``Results`` gives them so).
METHOD_NAMES = ("mp", "mp-neuberg", "cross-imp", "butler", "teams")
METHOD_NUMBERS = {name: i for i, name in enumerate(METHOD_NAMES)}
_WHOLE = frozenset(("butler", "teams"))


class Figures:
    """Every scored board's figures (the values of ``FIELD_COLUMNS``), rows of the database.
    ``get(ordinal)``: a board's values by its place among the run's board rows, or None;
    ``within``, ``texts``: those of a range of places, read forward from where the last read
    stopped (a report's rows go by in order: one pass over the figures, not a query a row);
    ``items()``: (ordinal, values) of every board with figures."""

    def __init__(self, store: Store) -> None:
        self._store = store
        self.count = 0  # boards with figures
        self._rows: Iterator[tuple] | None = None  # the forward read, and where it stands
        self._next: tuple | None = None
        self._at = 0
        self._matched = 1 << 40  # the first result (``seq``) not yet given its teams figures

    def put(self, ordinal: int, values: tuple) -> None:
        """The board at ``ordinal`` gets ``values`` (``by_entries._cells``)."""
        n, *numbers, method = values
        self._store.put_figures([(ordinal, n, *numbers, METHOD_NUMBERS[method])])
        self.count += 1

    def put_field(self, ordinals: list[int], n: int, method: str, before: list,
                  after: list) -> None:
        """A field's boards at ``ordinals`` get their figures by ``method``, rounded to two
        decimals: percentages for matchpoints, else IMPs."""
        number = METHOD_NUMBERS[method]
        pairs = [(round(float(b), 2), round(float(a), 2)) for b, a in zip(before, after)]
        if method.startswith("mp"):
            rows = [(o, n, b, a, None, None, number) for o, (b, a) in zip(ordinals, pairs)]
        else:
            rows = [(o, n, None, None, b, a, number) for o, (b, a) in zip(ordinals, pairs)]
        self._store.put_figures(rows)
        self.count += len(rows)

    def put_teams(self, stop: int) -> None:
        """The boards of the teams results (``Results``, added ``late``) numbered up to
        ``stop`` get their figures, each its result's IMPs (whole numbers: no rounding), by
        the database: a teams match's figures are not written twice.  Before any figure is
        read (``copy``), and once every field is scored."""
        if stop > self._matched:
            self.count += self._store.put_figures_of(METHOD_NUMBERS["teams"], self._matched,
                                                     stop)
            self._matched = stop

    def copy(self, ordinal: int, first: int) -> None:
        """The board at ``ordinal`` gets the figures of the board at ``first``, if any."""
        got = self.get(first)
        if got is not None:
            self.put(ordinal, got)

    def get(self, ordinal: int) -> tuple | None:
        """The values of the board at ``ordinal``, or None."""
        if not self.count:
            return None
        for row in self._store.figures("WHERE ordinal = ?", ordinal):
            return _values(row)
        return None

    def within(self, start: int, stop: int) -> Iterator[tuple[int, tuple]]:
        """(ordinal, values) of the boards with figures at ``start`` up to ``stop``."""
        return ((row[0], _values(row)) for row in self._read(start, stop))

    def texts(self, start: int, stop: int) -> Iterator[tuple[int, str]]:
        """(ordinal, the values as boards.csv cells) of the boards with figures at ``start``
        up to ``stop``: ``within`` written out."""
        said: dict[float, str] = {}  # each figure's text, made once
        for ordinal, n, *numbers, method in self._read(start, stop):
            cells = []
            for x in numbers:
                if x is None:
                    cells.append("")
                    continue
                text = said.get(x)
                if text is None:
                    text = said[x] = str(x)
                cells.append(text)
            yield ordinal, f"{n},{','.join(cells)},{METHOD_NAMES[method]}"

    def _read(self, start: int, stop: int) -> Iterator[tuple]:
        """The rows at ``start`` up to ``stop``, from the forward read when ``start`` is not
        behind it."""
        if not self.count:
            return
        if self._rows is None or start < self._at:
            self._rows = iter(self._store.figures("WHERE ordinal >= ?", start))
            self._next = next(self._rows, None)
        self._at = stop
        row = self._next
        while row is not None and row[0] < stop:
            if row[0] >= start:
                yield row
            row = self._next = next(self._rows, None)

    def items(self) -> Iterator[tuple[int, tuple]]:
        if not self.count:
            return iter(())
        return ((row[0], _values(row)) for row in self._store.figures(""))

    def __bool__(self) -> bool:
        return self.count > 0


def _values(row: tuple) -> tuple:
    """A row of ``figure`` as the values of ``FIELD_COLUMNS``."""
    _ordinal, n, mp, mp_after, imps, imps_after, method = row
    return (n, mp, mp_after, imps, imps_after, METHOD_NAMES[method])


class Result(NamedTuple):
    """One table's figures for N-S, unrounded, as the standings add them up."""

    key: tuple[str, str, str, str]  # event, section, date, board
    entry: "Entry"
    method: str
    before: float
    after: float


#: ``Results.rows``: the results of the tables whose N-S score the adjustments change.
CHANGED = "WHERE e.before != e.after"
#: ``Results.rows``: every result of a board (field) that has one of ``CHANGED``.
OF_CHANGED = ("WHERE e.field IN (SELECT e.field FROM result r JOIN entry e ON e.idx = r.idx "
              f"{CHANGED})")


class Results:
    """Every scored table's ``Result``, in the order the fields were scored, rows of the
    database made ``Result``s only when read (the standings, the text output's changes), one
    at a time.  ``entry``: an entry's ``Entry`` from its row."""

    def __init__(self, store: Store, entry: Callable[[tuple], "Entry"]) -> None:
        self._store, self._entry = store, entry
        self._count = 0

    def add(self, entry: "Entry", method: str, before: float, after: float, late: bool) -> None:
        """``entry``'s figures by ``method``; ``late``: read after every result added
        without (the fields scored on a ScoreTable come first)."""
        self.extend([entry.index], method, [before], [after], late)

    def extend(self, indexes: list[int], method: str, before: list, after: list,
               late: bool = True) -> None:
        """Entries ``indexes``' figures by ``method`` (``add``, a field at once)."""
        number, base = METHOD_NUMBERS[method], (1 << 40 if late else 0) + self._count
        self._store.put_results((base + i, index, number, float(b), float(a))
                                for i, (index, b, a) in enumerate(zip(indexes, before, after)))
        self._count += len(indexes)

    def next_late(self) -> int:
        """The number (``seq``) the next result added ``late`` takes (``put_rows``)."""
        return (1 << 40) + self._count

    def put_rows(self, rows: list[tuple]) -> None:
        """Rows of ``result`` as they are, numbered from ``next_late`` on (a field's, made by
        ``field_rows``)."""
        self._store.put_results(rows)
        self._count += len(rows)

    def __len__(self) -> int:
        return self._count

    def rows(self, where: str = "") -> Iterator[tuple]:
        """(method's number, before, after, the entry's row) of every result, in order; of
        those ``where`` (an SQL condition on ``r`` and ``e``: ``CHANGED``, ``OF_CHANGED``)
        picks, when given."""
        if not self._count:
            return iter(())
        return self._store.query(f"SELECT r.method, r.before, r.after, {ENTRY} FROM result r "
                                 f"JOIN entry e ON e.idx = r.idx {where} ORDER BY r.seq")

    def result(self, row: tuple) -> Result:
        """A row of ``rows`` as a ``Result``."""
        method, b, a, *entry = row
        name = METHOD_NAMES[method]
        if name in _WHOLE:
            b, a = int(b), int(a)
        return Result(self._store.key(entry[2]), self._entry(entry), name, b, a)

    def __iter__(self) -> Iterator[Result]:
        """Every ``Result``, made as it is read and not kept (a run's standings stream them:
        a few numbers a table stay, never an object a table)."""
        return map(self.result, self.rows())
