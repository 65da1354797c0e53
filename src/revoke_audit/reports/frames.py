"""The reports as typed pandas DataFrames: ``typed`` for rows, ``load_report`` for files, and
the Parquet writer (``-o boards.parquet``).

Every column has one dtype, whichever way the data comes: pandas' nullable ``Int64`` for counts,
tricks and scores (an unknown one is ``<NA>``, never a float), ``Float64`` for a field's
percentages and IMPs, ``boolean`` for ``established``,
``category`` for the closed sets (seats, vulnerability, play, status, laws, code, ...) and
``string`` for the rest.  An empty cell is ``<NA>`` in every column, so a frame from
``audit_paths`` and the same report read back with ``load_report`` are equal."""
from __future__ import annotations

import os
from typing import Iterable, Sequence

from ..core.cards import SEATS, SUITS
from ..core.codes import CODES
from ..laws import EDITIONS
from .targets import ReportError, file_target


#: Closed sets, in their natural order; a value outside one is kept (added after them).
CATEGORIES: dict[str, tuple[str, ...]] = {
    "dealer": tuple(SEATS), "declarer": tuple(SEATS), "seat": tuple(SEATS),
    "vul": ("None", "NS", "EW", "All"),
    "play": ("complete", "claimed", "partial", "none"),
    "status": ("clean", "irregular", "inconsistent", "unreadable", "unchecked"),
    "laws": tuple(EDITIONS),
    "scoring": ("duplicate", "rubber"),
    "code": tuple(sorted(CODES)),
    "role": ("declarer", "dummy", "defender"),
    "suit_led": tuple(SUITS),
    "scoring_method": ("mp", "mp-neuberg", "cross-imp", "butler", "teams"),
    "ruling_64c": ("none", "no damage", "adjusted", "not assessed"),
}
INTEGERS = frozenset((
    "line", "game", "tricks_stated", "tricks_played", "tricks_adjusted", "score_ns",
    "score_ns_adjusted", "revokes", "defective_tricks", "record_errors", "parse_problems",
    "below_ns", "above_ns", "below_ew", "above_ew", "trick", "transferred", "equity_tricks",
    "log_line", "tricks_equity", "tricks_by_cards", "tricks_automatic", "field",
    "boards", "rank", "rank_adjusted", "tricks_64c", "score_ns_64c"))
FLOATS = frozenset(("mp_pct_ns", "mp_pct_ns_adjusted", "imps_ns", "imps_ns_adjusted", "score",
                    "score_adjusted"))
BOOLEANS = frozenset(("established", "marked", "review_64c"))
# every other column (source, event, date, board, room, contract, law, card, message, ...) is
# ``string``

_FORMULA = ("=", "+", "-", "@", "\t", "\r", "'")  # report.QUOTED_START: quoted on writing
_TRUTH = {"true": True, "false": False, True: True, False: False}


def dtype_of(column: str) -> str:
    """``Int64``, ``Float64``, ``boolean``, ``category`` or ``string``."""
    if column in INTEGERS:
        return "Int64"
    if column in FLOATS:
        return "Float64"
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
        if kind == "Float64":
            return pd.to_numeric(values).astype("Float64")
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


#: Rows a Parquet report holds before writing them out as one row group.
ROW_GROUP = 4096


class ParquetReport:
    """A Parquet report (typed columns), written as the rows come, one row group of
    ``ROW_GROUP`` rows at a time (``pyarrow.parquet.ParquetWriter``), so that memory does not
    grow with the run; the rows go to Arrow directly, without pandas (whose import alone is
    100 MB).  The file is a temporary one beside ``path`` (made at once, as
    ``report.CsvReport``'s is) renamed with the other outputs of the run; a device or FIFO is
    written in place (``targets.file_target``).

    The columns are those ``typed`` gives (the schema carries pandas' metadata, so that
    ``pd.read_parquet`` gives them too); a closed set's column is a dictionary whose values are
    the set's own, then those outside it that its row group holds (sorted)."""

    def __init__(self, path: str, columns: tuple[str, ...]):
        if not parquet_available():
            raise ImportError(PARQUET_HINT)
        import pyarrow.parquet as pq

        self.name, self.columns = path, tuple(columns)
        self.rows: list[dict[str, object]] = []
        self._file = file_target(path, binary=True)
        self.target = self  # finish / replace / discard, as a report's target
        self._groups = 0
        try:
            self._schema = arrow_schema(self.columns)
            self._writer = pq.ParquetWriter(self._file.fh, self._schema)
        except BaseException:
            self._file.discard()
            raise

    def flush(self) -> None:
        """Nothing to do: a row group is written once it is full."""

    def write_rows(self, rows: Sequence[dict[str, object]], text: str | None = None) -> None:
        """Rows (``text``, their CSV lines, is for ``CsvReport``: not needed here)."""
        self.rows.extend(rows)
        if len(self.rows) >= ROW_GROUP:
            self._write_group()

    def _write_group(self) -> None:
        table, self.rows = arrow_table(self.rows, self._schema), []
        try:
            self._writer.write_table(table)
        except OSError as exc:
            raise ReportError(self.name, exc) from exc
        self._groups += 1

    def finish(self) -> None:
        """The whole report written and on disk (``Reports.commit`` then renames it)."""
        if self.rows or not self._groups:  # an empty report still gets its one group
            self._write_group()
        try:
            self._writer.close()
            self._file.finish()
        except OSError as exc:
            raise ReportError(self.name, exc) from exc

    def replace(self) -> None:
        self._file.replace()

    def discard(self) -> None:
        """The temp file removed; the writer let go without writing its footer."""
        self.rows = []
        self._writer.is_open = False
        self._file.discard()


_PANDAS_TYPE = {"Int64": ("int64", "Int64"), "Float64": ("float64", "Float64"), "boolean": ("bool", "boolean"),
                "category": ("categorical", "int8"), "string": ("object", "string")}


def arrow_schema(columns: Sequence[str]):
    """The Arrow schema of report ``columns`` in their dtypes (``dtype_of``), with the metadata
    pandas writes, so that ``pd.read_parquet`` gives ``Int64``, ``boolean``, ``category`` and
    ``string`` columns as ``typed`` does."""
    import json
    from importlib.metadata import version

    import pyarrow as pa

    arrow = {"Int64": pa.int64(), "Float64": pa.float64(), "boolean": pa.bool_(), "string": pa.large_string(),
             "category": pa.dictionary(pa.int32(), pa.large_string())}
    described = []
    for column in columns:
        kind = dtype_of(column)
        pandas_type, numpy_type = _PANDAS_TYPE[kind]
        meta = ({"num_categories": len(CATEGORIES[column]), "ordered": False}
                if kind == "category" else None)
        described.append({"name": column, "field_name": column, "pandas_type": pandas_type,
                          "numpy_type": numpy_type, "metadata": meta})
    pandas = {"index_columns": [], "column_indexes": [], "columns": described,
              "creator": {"library": "pyarrow", "version": pa.__version__},
              "pandas_version": version("pandas")}
    return pa.schema([pa.field(c, arrow[dtype_of(c)]) for c in columns],
                     metadata={"pandas": json.dumps(pandas)})


def arrow_table(rows: Sequence[dict[str, object]], schema):
    """``rows`` (report rows, dicts) as an Arrow table of ``schema`` (``arrow_schema``): each
    cell as ``typed`` makes it, an empty one null.  The arrays are built from their buffers:
    ``pyarrow.array`` would import pandas."""
    import pyarrow as pa

    arrays = []
    for column in schema.names:
        kind = dtype_of(column)
        values = [None if v == "" else v for v in (row.get(column) for row in rows)]
        try:
            arrays.append(_arrow_array(column, kind, values))
        except (ValueError, TypeError, KeyError) as exc:
            raise ValueError(f"column {column}: not {kind} values ({exc})") from exc
    return pa.Table.from_arrays(arrays, schema=schema)


def _arrow_array(column: str, kind: str, values: list):
    import numpy as np
    import pyarrow as pa

    n = len(values)
    valid = None if None not in values else _bitmap([v is not None for v in values])
    if kind == "Int64":
        data = np.array([0 if v is None else int(v) for v in values], dtype=np.int64)
        return pa.Array.from_buffers(pa.int64(), n, [valid, pa.py_buffer(data)])
    if kind == "Float64":
        data = np.array([0.0 if v is None else float(v) for v in values], dtype=np.float64)
        return pa.Array.from_buffers(pa.float64(), n, [valid, pa.py_buffer(data)])
    if kind == "boolean":
        bits = _bitmap([v is not None and _TRUTH[v] for v in values])
        return pa.Array.from_buffers(pa.bool_(), n, [valid, bits])
    if kind == "category":
        known = CATEGORIES[column]
        names = known + tuple(sorted(set(values) - set(known) - {None}))
        index = {name: i for i, name in enumerate(names)}
        codes = np.array([0 if v is None else index[v] for v in values], dtype=np.int32)
        return pa.DictionaryArray.from_arrays(
            pa.Array.from_buffers(pa.int32(), n, [valid, pa.py_buffer(codes)]), _texts(names))
    return _texts([None if v is None else str(v) for v in values], valid)


def _texts(texts: Sequence[str | None], valid=None):
    """A ``large_string`` array of ``texts`` (None: a null, marked in ``valid``)."""
    import numpy as np
    import pyarrow as pa

    encoded = [b"" if t is None else t.encode("utf-8") for t in texts]
    offsets = np.zeros(len(encoded) + 1, dtype=np.int64)
    np.cumsum([len(b) for b in encoded], out=offsets[1:])
    return pa.Array.from_buffers(pa.large_string(), len(texts),
                                 [valid, pa.py_buffer(offsets), pa.py_buffer(b"".join(encoded))])


def _bitmap(flags: list[bool]):
    """An Arrow bitmap (least significant bit first) of ``flags``."""
    import numpy as np
    import pyarrow as pa

    return pa.py_buffer(np.packbits(np.array(flags, dtype=bool), bitorder="little"))
