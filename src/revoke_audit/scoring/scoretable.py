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

from fractions import Fraction
from math import ceil, floor
from typing import Iterable, NamedTuple

from .field import imps

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


def scores(table: ScoreTable) -> list[int] | None:
    """N-S's score at every table the rows stand for (``Multiplicity`` each), None when a row
    has no readable ``Score_NS``."""
    out: list[int] = []
    for row in table.rows:
        try:
            score, times = int(row["Score_NS"]), int(row.get("Multiplicity", "1"))
        except (KeyError, ValueError):
            return None
        out.extend([score] * times)
    return out


def own_row(table: ScoreTable, score: int, contract: str, declarer: str) -> dict | None:
    """The row of a record whose N-S score is ``score`` (and, where the table has those
    columns, its contract and declarer); rows alike stand for the same result, so the first
    is taken.  None when no row is the record's."""
    for row in table.rows:
        if row.get("Score_NS") != str(score):
            continue
        if "Contract" in row and row["Contract"].upper() != contract.upper():
            continue
        if "Declarer" in row and row["Declarer"] != declarer:
            continue
        return row
    return None


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
    field = scores(table)
    if column is None or not field or len(field) < 2:
        return None
    n = len(field)
    for row in table.rows:
        score, theirs = int(row["Score_NS"]), row[column]
        if column == "IMP_NS":
            exact = Fraction(sum(imps(score - t) for t in field), n - 1)
        else:
            beaten = sum(2 if score > t else 1 if score == t else 0 for t in field) - 1
            exact = Fraction(100 * beaten, 2 * (n - 1))
        decimals = len(theirs.partition(".")[2])
        ours = _rounded(exact, decimals)
        if theirs.lstrip("+") not in (ours, _rounded(exact, decimals, down=True)):
            return Check(False, column, score, theirs, ours,
                         _reason(field, exact, theirs, column))
    return Check(True, column)


def _rounded(x: Fraction, decimals: int, down: bool = False) -> str:
    """``x`` to ``decimals`` places, a half up (towards plus infinity; ``down``: a half
    down), as text.  A program rounding its floating-point value may go either way at an
    exact half (0.075 is a little less than 0.075 as a float): both are its figure."""
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
