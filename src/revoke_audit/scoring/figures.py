"""The scored fields' figures, read back from the run's database (``store``): each board's
values of boards.csv's field columns (``Figures``, by the board's place among the run's board
rows) and each table's figures for the standings (``Results``)."""
from __future__ import annotations

from bisect import bisect_left
from itertools import islice
from typing import TYPE_CHECKING, Callable, Iterator, NamedTuple

from .store import ENTRY, Store

if TYPE_CHECKING:
    from .rescore import Entry

#: A board's figures by method: the names ``scoring_method`` takes, by their number in the
#: database; Butler's and teams' IMPs are whole numbers (``Results`` gives them so).
METHOD_NAMES = ("mp", "mp-neuberg", "cross-imp", "butler", "teams")
METHOD_NUMBERS = {name: i for i, name in enumerate(METHOD_NAMES)}
_WHOLE = frozenset(("butler", "teams"))
_BLOCK = 4096  # the figures' rows fetched at once (``Figures._read``)


class Figures:
    """Every scored board's figures (the values of ``FIELD_COLUMNS``), rows of the database.
    ``within``, ``texts``: the values of the boards at a range of places among the run's
    board rows, read forward from where the last read stopped (a report's rows go by in
    order: one pass over the figures, not a query a row); ``items()``: (ordinal, values) of
    every board with figures."""

    def __init__(self, store: Store) -> None:
        self._store = store
        self.count = 0  # boards with figures
        self._rows: Iterator[tuple] | None = None  # the forward read, and where it stands:
        self._block: list[tuple] = []  # its rows fetched, from ``_in`` on not yet read
        self._in = 0
        self._done = False  # every row fetched
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
        """The board at ``ordinal`` gets the figures of the board at ``first``, if it has
        any once every field is scored (``copied``)."""
        self._store.put_copies([(ordinal, first)])

    def copied(self) -> None:
        """Every board of ``copy`` given its first's figures: once every figure is in."""
        self.count += self._store.copy_figures()

    def within(self, start: int, stop: int) -> Iterator[tuple[int, tuple]]:
        """(ordinal, values) of the boards with figures at ``start`` up to ``stop``."""
        return ((row[0], _values(row)) for row in self._read(start, stop))

    def texts(self, start: int, stop: int) -> list[tuple[int, str]]:
        """(ordinal, the values as boards.csv cells) of the boards with figures at ``start``
        up to ``stop``: ``within`` written out."""
        said: dict[tuple, str] = {}  # each row's text, made once (a teams match: a few)
        got = []
        for row in self._read(start, stop):
            values = row[1:]
            text = said.get(values)
            if text is None:
                n, mp, mp_after, imps, imps_after, method = values
                text = said[values] = (f"{n},{_cell(mp)},{_cell(mp_after)},{_cell(imps)},"
                                       f"{_cell(imps_after)},{METHOD_NAMES[method]}")
            got.append((row[0], text))
        return got

    def _read(self, start: int, stop: int) -> list[tuple]:
        """The rows at ``start`` up to ``stop``, from the forward read when ``start`` is not
        behind it: rows fetched a block at a time, a range of them cut from the block by
        their places (a report's rows go by a range at a time, a whole chunk of a boards.csv
        file mostly: no Python step a row; ``_gallop``)."""
        if not self.count:
            return []
        if self._rows is None or start < self._at:
            self._rows = self._store.figures("WHERE ordinal >= ?", start)
            self._block, self._in, self._done = [], 0, False
        self._at = stop
        block, at = self._block, self._in
        if at < len(block) and block[at][0] >= start and block[-1][0] >= stop:
            # in the block, nothing to skip: a report's item of a board or a few, mostly
            end = at
            while end < at + 4 and block[end][0] < stop:  # block[-1] is at ``stop`` or on
                end += 1
            self._in = end if block[end][0] >= stop else _gallop(block, (stop,), end)
            return block[at:self._in]
        got: list[tuple] = []
        while True:
            block = self._block
            first = _gallop(block, (start,), self._in)  # (17,) sorts before (17, ...)
            self._in = _gallop(block, (stop,), first)
            got += block[first:self._in]
            if self._in < len(block) or self._done:  # a row at ``stop`` or on, or no more
                return got
            self._block, self._in = list(islice(self._rows, _BLOCK)), 0
            self._done = not self._block

    def items(self) -> Iterator[tuple[int, tuple]]:
        if not self.count:
            return iter(())
        return ((row[0], _values(row)) for row in self._store.figures(""))

    def __bool__(self) -> bool:
        return self.count > 0


def _gallop(block: list[tuple], key: tuple, lo: int) -> int:
    """``bisect_left(block, key, lo)`` by steps that double from ``lo``: a place a row or two
    on (a report's item of one board) is found in a comparison or two, not in log2 of the
    block's."""
    n, step, hi = len(block), 1, lo
    while hi < n and block[hi] < key:
        lo, hi, step = hi + 1, hi + step, step * 2
    return bisect_left(block, key, lo, min(hi, n))


def _cell(x: float | None) -> str:
    return "" if x is None else str(x)


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


_TEAMS = METHOD_NUMBERS["teams"]
#: A figure of ``result`` as ``Result`` gives it, in SQL (Butler's IMPs whole).
_AS_GIVEN = (f"CASE r.method WHEN {METHOD_NUMBERS['butler']} THEN CAST(r.{{0}} AS INTEGER) "
             "ELSE r.{0} END")
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

    def tables(self) -> Iterator[tuple[int, float, float, int, int]]:
        """(method's number, before, after, field's number, players' number) of every result
        not scored as teams, in order, its figures as ``result`` gives them: what a pairs
        event's standings add up, read without an ``Entry`` a table (``key``, ``players``)."""
        if not self._count:
            return iter(())
        return self._store.query(f"SELECT r.method, {_AS_GIVEN.format('before')}, "
                                 f"{_AS_GIVEN.format('after')}, e.field, e.names FROM result r "
                                 f"JOIN entry e ON e.idx = r.idx WHERE r.method != {_TEAMS} "
                                 "ORDER BY r.seq")

    def rooms(self) -> Iterator[tuple["Result", int, int, int, int, int]]:
        """The teams results summed by the database, one sum for each event and shared texts
        (a room of a match in a file), in the order of their first results: (that first
        ``Result``, the results, IMPs won by N-S before, after, by E-W before, after).  The
        IMPs are whole numbers (as ``result`` gives them): their sums are the same in any
        order, and a teams event's standings need no ``Result`` a table."""
        if not self._count:
            return
        won = "sum(max({}CAST(r.{} AS INTEGER), 0))"
        for first in self._store.query(
                "SELECT g.n, g.wb, g.wa, g.lb, g.la, r.method, r.before, r.after, "
                f"{ENTRY} FROM (SELECT min(r.seq) AS seq, count(*) AS n, "
                f"{won.format('', 'before')} AS wb, {won.format('', 'after')} AS wa, "
                f"{won.format('-', 'before')} AS lb, {won.format('-', 'after')} AS la "
                f"FROM result r JOIN entry e ON e.idx = r.idx WHERE r.method = {_TEAMS} "
                "GROUP BY e.field >> 32, e.texts) g JOIN result r ON r.seq = g.seq "
                "JOIN entry e ON e.idx = r.idx ORDER BY g.seq"):
            yield (self.result(first[5:]), *first[:5])

    def key(self, field: int) -> tuple[str, str, str, str]:
        """A field's key (event, section, date, board) from its number."""
        return self._store.key(field)

    def players(self, number: int) -> tuple[str, str, str, str]:
        """The players (N, E, S, W) of their number."""
        return self._store.shared[number]

    def __iter__(self) -> Iterator[Result]:
        """Every ``Result``, made as it is read and not kept (a run's standings stream them:
        a few numbers a table stay, never an object a table)."""
        return map(self.result, self.rows())
