"""The run's reports while its fields wait to be scored (``rescore``): a boards.csv file is
written as the boards come, its figure cells empty, and filled in by a streaming copy of its
lines when the run commits; any other report of boards (stdout, a device, Parquet, a JSON
document) is held on disk until the figures are known, then written with them."""
from __future__ import annotations

import csv
import io

import pickle
from contextlib import contextmanager
from typing import IO, AnyStr, Iterator

from .report import Reports
from ..scoring.rescore import Fields, Figures
from .rows import AFTER_FIELD, FIELD_COLUMNS, LeanRow, Rendered
from .targets import ReportError


class Deferred:
    """The run's reports, the boards report waiting for its figures.  A boards report that is
    a file (CSV) is written as the boards come, its figure cells empty, and filled in when the
    run commits (``commit``: a streaming copy of its lines, only when a field was scored); any
    other (stdout, a device, Parquet) is held on disk (a temporary file of pickled items) until
    the fields are scored, then written with its figures (``replay``, ``commit``).  ``hold``: a
    document of stdout that shows boards (JSON) waits too, and is written from ``replay``'s
    items.  Reports without boards are written as they come."""

    def __init__(self, reports: Reports, fields: Fields, hold: str | None = None) -> None:
        self.reports, self.fields = reports, fields
        self._spool: IO[bytes] | None = None
        self._filled = [r for r in reports.boards if getattr(r, "rewritable", False)]
        if hold or len(self._filled) < len(reports.boards):
            import tempfile  # here: a run whose boards report is a file never loads it

            held = " and ".join([r.name for r in reports.boards[:1]] + ([hold] if hold else []))
            self.name = f"{held} (spooled in {tempfile.gettempdir()})"
            self._filled = []
            with self._failing():
                self._spool = tempfile.TemporaryFile()

    def write(self, r: Rendered) -> None:
        if self._spool is None:
            self.reports.write(r)
        else:
            with self._failing():
                pickle.dump(r, self._spool, pickle.HIGHEST_PROTOCOL)

    @contextmanager
    def _failing(self) -> Iterator[None]:
        try:
            yield
        except OSError as exc:
            raise ReportError(self.name, exc) from exc

    def replay(self) -> Iterator[Rendered]:
        """Every item held, figures filled in, written to the reports, then given."""
        if self._spool is None:
            return
        with self._failing():
            self._spool.seek(0)
        figures = self.fields.score().figures
        ordinal = 0
        while True:
            try:
                with self._failing():
                    r = pickle.load(self._spool)
            except EOFError:
                break
            if r.row is not None:
                with_figures(r, ordinal, figures)
                ordinal += r.boards
            self.reports.write(r)
            yield r
        self._spool.close()
        self._spool = None

    def commit(self, documents: list[str]) -> None:
        """Every item written to the reports (``replay``, if not done), the figures filled in,
        the reports committed."""
        for _ in self.replay():
            pass
        figures = self.fields.score().figures
        if figures:
            for report in self._filled:
                report.rewrite(lambda lines: filled(lines, figures))
        self.reports.commit(documents)


def filled(lines: IO[bytes], figures: Figures) -> Iterator[bytes]:
    """The lines of a boards report (after its header, one a board; UTF-8 bytes, which no
    comma, quote or newline byte of a multibyte character can be), each board's figures
    filled in: the bytes to write, a few thousand lines at a time.  A line that ends as the
    last one patched (its empty field cells, then the same ``AFTER_FIELD`` cells, no quote in
    it: a match's boards, nearly every one) is patched by that end alone."""
    ordinal, end, tail = 0, b"\0", b""  # the last line's end (from its empty field cells), tail
    while True:
        chunk = lines.readlines(1 << 20)
        if not chunk:
            return
        cells: dict[str, bytes] = {}  # each text as bytes, with the comma before it
        for at, text in figures.texts(ordinal, ordinal + len(chunk)):
            line = chunk[at - ordinal]
            if not line.endswith(end) or b'"' in line:
                got = _plain_tail(line, _BYTES)
                if got is None:  # quoted cells (or no empty field cells: a ValueError)
                    chunk[at - ordinal] = _patched_text(line.decode(), text).encode()
                    continue
                tail, end = got, _BYTES[3] + got
            made = cells.get(text)
            if made is None:
                made = cells[text] = b"," + text.encode()
            chunk[at - ordinal] = line[:-len(end)] + made + tail
        ordinal += len(chunk)
        yield b"".join(chunk)


def with_figures(r: Rendered, ordinal: int, figures: Figures) -> None:
    """``r`` (its boards at ``ordinal`` onwards) with the figures of those that have them, in
    its row and its CSV lines."""
    got = list(figures.within(ordinal, ordinal + r.boards))
    if not got:
        return
    if type(r.row) is not LeanRow:
        r.row.update(zip(FIELD_COLUMNS, got[0][1]))
    if r.csv is None:
        return
    lines = r.csv[0].splitlines(keepends=True)
    for at, cells in got:
        lines[at - ordinal] = _patched(lines[at - ordinal], cells)
    r.csv = ("".join(lines), r.csv[1])


def _patched(line: str, cells: tuple) -> str:
    """A boards.csv line ending in the empty field cells, with ``cells`` instead."""
    return _patched_text(line, ",".join("" if v is None else str(v) for v in cells))


_EMPTY = "," * len(FIELD_COLUMNS) + "\n"  # the end of a boards.csv line without figures


_HOLE = "," * len(FIELD_COLUMNS)  # the empty field cells, each with the comma before it
_AFTER = len(AFTER_FIELD)
_TEXT = ('"', ",", "\n", _HOLE)  # ``_plain_tail``'s marks in a str, and in bytes
_BYTES = tuple(mark.encode() for mark in _TEXT)


def _patched_text(line: str, text: str) -> str:
    """A boards.csv line with its field cells empty (followed by the ``AFTER_FIELD`` cells),
    with ``text`` (the cells as CSV) instead.  A line without quotes (nearly every one) is
    cut at its last commas in one call; any other is read as CSV (``_after_text``)."""
    tail = _plain_tail(line, _TEXT)
    if tail is not None:
        return line[:-len(_HOLE) - len(tail)] + "," + text + tail
    tail = _after_text(line)
    head = line[:len(line) - len(tail)]
    if not line.endswith("\n") or not (head + "\n").endswith(_EMPTY):
        raise ValueError("a boards.csv line without its empty field cells")
    return head[:-len(_EMPTY) + 1] + "," + text + tail


def _plain_tail(line: AnyStr, marks: tuple[AnyStr, ...]) -> AnyStr | None:
    """The ``AFTER_FIELD`` cells at the end of a line without quotes (nearly every line),
    each with the comma before it, when its field cells before them are empty (``_HOLE``);
    else None (``_after_text`` reads it).  ``marks``: the quote, comma, newline and ``_HOLE``
    as the line's type (``_TEXT``, ``_BYTES``)."""
    quote, comma, newline, hole = marks
    if quote in line or not line.endswith(newline):
        return None
    cells = line.rsplit(comma, _AFTER)
    if len(cells) <= _AFTER or not cells[0].endswith(hole):
        return None
    return comma + comma.join(cells[1:])


def _after_text(line: str) -> str:
    """The end of ``line`` that holds the ``AFTER_FIELD`` cells, each with the comma before
    it, as the report's writer wrote them; a cell of free text (``confirm_card``) is quoted
    when it holds a comma or a quote, so such a line is read as CSV, not cut at commas."""
    if not AFTER_FIELD:
        return "\n"
    if '"' not in line:
        return "".join("," + c for c in line[:-1].rsplit(",", len(AFTER_FIELD))[1:]) + "\n"
    cells = next(csv.reader([line]))[-len(AFTER_FIELD):]
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerow([""] + cells)  # the comma before the first
    return out.getvalue()
