"""The reports as typed pandas DataFrames: ``typed`` for rows, ``load_report`` for files, and
the Parquet writer (``-o boards.parquet``).

Every column has one dtype, whichever way the data comes: pandas' nullable ``Int64`` for counts,
tricks and scores (an unknown one is ``<NA>``, never a float), ``boolean`` for ``established``,
``category`` for the closed sets (seats, vulnerability, play, status, laws, code, ...) and
``string`` for the rest.  An empty cell is ``<NA>`` in every column, so a frame from
``audit_paths`` and the same report read back with ``load_report`` are equal."""
from __future__ import annotations

import os
from typing import Iterable, Sequence

from .cards import SEATS, SUITS
from .codes import CODES
from .laws import EDITIONS
from .targets import ReportError, file_target


#: Closed sets, in their natural order; a value outside one is kept (added after them).
CATEGORIES: dict[str, tuple[str, ...]] = {
    "dealer": tuple(SEATS), "declarer": tuple(SEATS), "seat": tuple(SEATS),
    "vul": ("None", "NS", "EW", "All"),
    "play": ("complete", "claimed", "partial", "none"),
    "status": ("clean", "irregular", "inconsistent", "unreadable"),
    "laws": tuple(EDITIONS),
    "scoring": ("duplicate", "rubber"),
    "code": tuple(sorted(CODES)),
    "role": ("declarer", "dummy", "defender"),
    "suit_led": tuple(SUITS),
}
INTEGERS = frozenset((
    "line", "game", "tricks_stated", "tricks_played", "tricks_adjusted", "score_ns",
    "score_ns_adjusted", "revokes", "defective_tricks", "record_errors", "parse_problems",
    "below_ns", "above_ns", "below_ew", "above_ew", "trick", "transferred", "equity_tricks",
    "log_line", "tricks_equity"))
BOOLEANS = frozenset(("established", "marked", "review_64c"))
# every other column (source, event, date, board, room, contract, law, card, message, ...) is
# ``string``

_FORMULA = ("=", "+", "-", "@", "\t", "\r")
_TRUTH = {"true": True, "false": False, True: True, False: False}


def dtype_of(column: str) -> str:
    """``Int64``, ``boolean``, ``category`` or ``string``."""
    if column in INTEGERS:
        return "Int64"
    if column in BOOLEANS:
        return "boolean"
    return "category" if column in CATEGORIES else "string"


def typed(frame, from_csv: bool = False):
    """``frame`` with every report column in its dtype; empty cells become ``<NA>``.
    ``from_csv``: undo the leading ``'`` that neutralised a formula-like text cell."""
    import pandas as pd

    out = {}
    for column in frame.columns:
        values = frame[column].astype(object).where(frame[column].notna(), None)
        values = values.where(values != "", None)
        out[column] = _convert(column, values, from_csv)
    return pd.DataFrame(out, index=frame.index)


def _convert(column: str, values, from_csv: bool):
    import pandas as pd

    kind = dtype_of(column)
    try:
        if kind == "Int64":
            return pd.to_numeric(values).astype("Int64")
        if kind == "boolean":
            return values.map(lambda v: None if v is None else _TRUTH[v]).astype("boolean")
        if kind == "category":
            known = CATEGORIES[column]
            extra = sorted(set(values.dropna()) - set(known))
            return pd.Series(pd.Categorical(values, categories=known + tuple(extra)),
                             index=values.index)
    except (ValueError, TypeError, KeyError) as exc:
        raise ValueError(f"column {column}: not {kind} values ({exc})") from exc
    text = values.astype("string")
    if from_csv:
        quoted = text.str.startswith("'") & text.str[1:2].isin(_FORMULA)
        text = text.mask(quoted.fillna(False), text.str[1:])
    return text


def frame_of(rows: list[dict[str, object]], columns: Iterable[str]):
    """A typed DataFrame of report rows (dicts), in ``columns`` order."""
    import pandas as pd

    return typed(pd.DataFrame(rows, columns=list(columns)))


_BOARDS_CORE = {"source", "line", "game", "status"}
_FINDINGS_CORE = {"source", "line", "code", "message"}


def load_report(path: str | os.PathLike):
    """A boards or findings report (CSV, or Parquet when the name ends in ``.parquet``) as a
    DataFrame with the report's dtypes.  ValueError naming the file when it is neither."""
    import pandas as pd

    name = os.fspath(path)
    if name.lower().endswith(".parquet"):
        frame, from_csv = pd.read_parquet(name), False
    else:
        frame = pd.read_csv(name, dtype=str, keep_default_na=False, encoding="utf-8")
        from_csv = True
    columns = set(frame.columns)
    if not (_BOARDS_CORE <= columns or _FINDINGS_CORE <= columns):
        raise ValueError(f"{name} is not a revoke-audit report (no boards or findings columns)")
    try:
        return typed(frame, from_csv)
    except ValueError as exc:
        raise ValueError(f"{name}: {exc}") from exc


def parquet_available() -> bool:
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        return False
    return True


PARQUET_HINT = "writing Parquet needs pyarrow: pip install 'revoke-audit[parquet]'"


class ParquetReport:
    """A Parquet report (typed columns), written to a temporary file beside ``path`` (made at
    once, as ``report.CsvReport`` does) and renamed with the other outputs of the run; a device
    or FIFO is written in place (``report.file_target``).  Rows are kept in memory and written
    when the run's reports are finished."""

    def __init__(self, path: str, columns: tuple[str, ...]):
        if not parquet_available():
            raise ImportError(PARQUET_HINT)
        self.name, self.columns = path, tuple(columns)
        self.rows: list[dict[str, object]] = []
        self.target = file_target(path, binary=True)

    def flush(self) -> None:
        """Nothing held back: the rows are written at ``finish``."""

    def write_rows(self, rows: Sequence[dict[str, object]], text: str | None = None) -> None:
        """Rows (``text``, their CSV lines, is for ``CsvReport``: not needed here)."""
        self.rows.extend(rows)

    def finish(self) -> None:
        """The whole report written and on disk (``Reports.commit`` then renames it)."""
        frame, self.rows = frame_of(self.rows, self.columns), []
        try:
            frame.to_parquet(self.target.fh, index=False)
            self.target.finish()
        except OSError as exc:
            raise ReportError(self.name, exc) from exc
