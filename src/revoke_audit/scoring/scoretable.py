"""A PBN ``ScoreTable`` (PBN 2.1, section 3.6.1: a table tag) read as a field, and the check of
the scoring program's own figures against ours.

The tag's value names the columns, each with its width and alignment (``Rank\\3R;Score_NS\\5R;
IMP_NS\\6R;Multiplicity``); each data line after it is one result, its cells separated by
spaces.  ``Multiplicity`` says how many tables had that result.  The program's figure column
is ``IMP_NS`` (cross-IMPs: the mean against every other result), ``MP_NS`` or
``Percentage_NS`` (matchpoint percentages).  ``check`` scores the table's results as
``field`` does and compares, each figure rounded as the table writes it (its decimals, on the
exact value; an exact half either way)."""
from __future__ import annotations

from bisect import bisect_left, bisect_right
from math import ceil, floor
from typing import TYPE_CHECKING, Iterable, NamedTuple

if TYPE_CHECKING:  # imported where a table's figures are checked: most runs have none
    from fractions import Fraction

from .field import IMP_STEPS

FIGURE_COLUMNS = ("IMP_NS", "MP_NS", "Percentage_NS")


class ScoreTable(NamedTuple):
    columns: tuple[str, ...]
    rows: tuple[dict[str, str], ...]  # one per line, by column name


class Check(NamedTuple):
    """The program's figures against ours: ``agree``, or the first row that does not (its
    score, the program's figure, ours as the table would write it) and why (``reason``)."""

    agree: bool
    column: str
    score: int | None = None
    theirs: str = ""
    ours: str = ""
    reason: str = ""


def parse_table(header: str, lines: Iterable[str]) -> ScoreTable | None:
    """The table of a ``ScoreTable`` tag's value and its data lines; None when a line's cells
    are not the columns' number (a table we cannot read is not guessed at)."""
    columns = tuple(c.split("\\")[0].lstrip("+-") for c in header.split(";") if c)
    rows = []
    for line in lines:
        cells = line.split()
        if not cells:
            continue
        if len(cells) != len(columns):
            return None
        rows.append(dict(zip(columns, cells)))
    return ScoreTable(columns, tuple(rows))


#: The most tables a ScoreTable's rows may stand for together: beyond it (or a Multiplicity
#: that is not a whole number from 1) the table is not read (SC004), never expanded.
MAX_TABLES = 1_000_000_000


def counts(table: ScoreTable) -> list[tuple[int, int]] | None:
    """Each row's N-S score and the tables it stands for (its ``Multiplicity``, 1 without
    one), in the rows' order; None when a row has no readable ``Score_NS``, a Multiplicity
    that is not a whole number from 1, or the rows stand for more than ``MAX_TABLES``."""
    out: list[tuple[int, int]] = []
    total = 0
    for row in table.rows:
        try:
            score, times = int(row["Score_NS"]), int(row.get("Multiplicity", "1"))
        except (KeyError, ValueError):
            return None
        total += times
        if times < 1 or total > MAX_TABLES:
            return None
        out.append((score, times))
    return out


def scores(table: ScoreTable) -> list[int] | None:
    """N-S's score at every table the rows stand for (``Multiplicity`` each), None when the
    rows cannot be read (``counts``).  Written out: for a small table; the figures are
    weighed by ``counts`` instead."""
    got = counts(table)
    if got is None:
        return None
    return [score for score, times in got for _ in range(times)]


def own_row(table: ScoreTable, score: int, contract: str, declarer: str) -> dict | None:
    """The row of a record whose N-S score is ``score`` (and, where the table has those
    columns, its contract and declarer); rows alike stand for the same result, so the first
    is taken.  None when no row is the record's."""
    for row in table.rows:
        if row.get("Score_NS") != str(score):
            continue
        if "Contract" in row and not _same_contract(row["Contract"], contract):
            continue
        if "Declarer" in row and _no_dash(row["Declarer"]) != _no_dash(declarer):
            continue
        return row
    return None


_PASSED = frozenset(("PASS", "AP", ""))  # a board passed out, as a table or a record says it


def _same_contract(theirs: str, ours: str) -> bool:
    """Is a ScoreTable row's contract the record's?  A passed-out board is ``Pass`` in the
    table (OKbridge: ``Pass - -  0``, its declarer and result a dash) and ``Pass`` or empty in
    the record (the PBN standard: ``Contract "Pass"``, an empty Declarer and Result)."""
    theirs, ours = _no_dash(theirs).upper(), _no_dash(ours).upper()
    return theirs == ours or (theirs in _PASSED and ours in _PASSED)


def _no_dash(cell: str) -> str:
    """A table's cell with its dash for "none" as empty."""
    return "" if cell.strip() == "-" else cell


def table_method(table: ScoreTable, scoring: str = "") -> str:
    """The method a table's figures say: ``cross-imp`` for ``IMP_NS`` (``butler`` when the
    ``Scoring`` tag says so), else matchpoints."""
    if "IMP_NS" in table.columns:
        return "butler" if "butler" in scoring.lower() else "cross-imp"
    return "mp"


def check(table: ScoreTable) -> Check | None:
    """Our figures for every row against the program's; None when the table has no figure
    column or no readable scores."""
    column = next((c for c in FIGURE_COLUMNS if c in table.columns), None)
    rows = counts(table)
    if column is None or not rows:
        return None
    n = sum(times for _, times in rows)
    if n < 2:
        return None
    from fractions import Fraction  # here: see the imports

    ordered = sorted(rows)
    values = [v for v, _ in ordered]
    below = [0]
    for _, times in ordered:
        below.append(below[-1] + times)
    for row in table.rows:
        score, theirs = int(row["Score_NS"]), row[column]
        if column == "IMP_NS":
            exact = Fraction(_imps_total(score, values, below, n), n - 1)
        else:
            beaten = (2 * below[bisect_left(values, score)]
                      + below[bisect_right(values, score)] - below[bisect_left(values, score)]
                      - 1)
            exact = Fraction(100 * beaten, 2 * (n - 1))
        decimals = len(theirs.partition(".")[2])
        ours = _rounded(exact, decimals)
        if theirs.lstrip("+") not in (ours, _rounded(exact, decimals, down=True)):
            return Check(False, column, score, theirs, ours,
                         _reason(values, exact, theirs, column))
    return Check(True, column)


def _imps_total(score: int, values: list[int], below: list[int], n: int) -> int:
    """The sum of ``imps(score - t)`` over every table of a field of sorted distinct-or-not
    ``values`` with prefix counts ``below``: a bisection a step of the IMP scale."""
    return sum(below[bisect_right(values, score - step)] - n
               + below[bisect_left(values, score + step)] for step in IMP_STEPS)


def _rounded(x: Fraction, decimals: int, down: bool = False) -> str:
    """``x`` to ``decimals`` places, a half up (towards plus infinity; ``down``: a half
    down), as text.  A program rounding its floating-point value may go either way at an
    exact half (0.075 is a little less than 0.075 as a float): both are its figure."""
    from fractions import Fraction  # here: see the imports

    scaled = (ceil(x * 10 ** decimals - Fraction(1, 2)) if down
              else floor(x * 10 ** decimals + Fraction(1, 2)))
    sign = "-" if scaled < 0 else ""
    whole, part = divmod(abs(scaled), 10 ** decimals)
    return f"{sign}{whole}.{part:0{decimals}d}" if decimals else f"{sign}{whole}"


def _reason(field: list[int], exact: Fraction, theirs: str, column: str) -> str:
    """Why a figure may differ: a score no table can make (an adjusted score), or the
    program's percentage agrees at a tenth, else unknown."""
    if any(s % 10 for s in field):
        return "adjusted score"
    if column != "IMP_NS" and _rounded(exact, 1) == theirs[:-1] and theirs.endswith("0"):
        return "tenths"
    return "unexplained"
