"""Report writers: boards.csv and findings.csv (the contract documented in docs/reference/reports.md), one-line text, the
Director's line, JSON lines, GitHub annotations (SARIF: ``sarif.py``).  Rows stream out as boards
are audited (``run.py``); files are written to
temporary names beside their targets and renamed only when every report is complete, so a
reader never sees half a report, nor a new boards.csv beside an old findings.csv.  Every cell is
written the same way to a file and to stdout: control characters escaped, and a text cell that a
spreadsheet would take for a formula neutralised."""
from __future__ import annotations

import csv
import errno
import io
import json
import operator
import os
import re
import signal
import sys
from contextlib import contextmanager
from typing import IO, Callable, Iterable, Iterator, Sequence

from ..core.codes import annotation_level
from .csv_line import LaneRow
from .rows import BOARD_COLUMNS, FINDING_COLUMNS, CleanRun, Rendered, result_before, result_signed
from .targets import FileTarget, ReportError, file_target
from ..core.visible import QUOTED_START, safe_cell, visible  # noqa: F401 (QUOTED_START: for callers)

# text cells joined by U+E000: a control character, or a cell that starts like a formula
_SUSPECT = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]|(?:\\A|\ue000)[=+\\-@']")
_PLAIN_TYPES = frozenset((str, int, type(None)))
STDOUT = "standard output"


# --- cells ----------------------------------------------------------------------------------

def clean_text(text: str) -> str:
    """``text`` with every control character (NUL, newline, escape, C1, line separators) and
    undecodable byte written as a visible escape (``\\x00``, ``\\x0a``, ``\\xff``), so that a
    cell or a line stays one line (``visible.visible``)."""
    return visible(text)


def row_values(columns: Sequence[str]) -> Callable[[dict], tuple]:
    """A function giving a row's values for ``columns``, as a tuple, in one C call."""
    if len(columns) == 1:
        return lambda row: (row[columns[0]],)
    return operator.itemgetter(*columns)


def csv_values(row: dict[str, object], values: Callable[[dict], tuple]) -> Sequence[object]:
    """The cells of ``row`` (``values``: an ``itemgetter`` of the columns), each as
    ``safe_cell`` makes it.  Most rows are only ints, None (the csv module writes it empty) and
    plain text: those are checked at once, one regular expression over the text cells, and
    written as they are; any other row goes cell by cell."""
    cells = values(row)
    if _PLAIN_TYPES.issuperset(map(type, cells)):
        text = "\ue000".join([v for v in cells if type(v) is str])
        if not _SUSPECT.search(text):
            return cells
    return [safe_cell(v) for v in cells]


# --- report files ---------------------------------------------------------------------------

class _StreamTarget:
    """A report written straight to an open stream (stdout for ``-o -``)."""

    def __init__(self, fh: IO[str], name: str = STDOUT):
        self.fh, self.name = fh, name

    def finish(self) -> None:
        self.fh.flush()

    def replace(self) -> None:
        pass

    def discard(self) -> None:
        pass


_HELD = 256  # boards' CSV text joined into one write


class CsvReport:
    """One CSV report, to a file (``path``) or to stdout (``-``); the same bytes either way."""

    def __init__(self, path: str, columns: Sequence[str]):
        try:
            self.target = _StreamTarget(_stdout()) if path == "-" else file_target(path)
        except OSError as exc:
            raise ReportError(STDOUT, exc) from exc
        self.columns = tuple(columns)
        self._values = row_values(self.columns)
        self.writer = csv.writer(self.target.fh, lineterminator="\n")
        # rows' CSV text (``write_rows``) for a file, joined into one write per ``_HELD`` boards
        self._held: list[str] | None = [] if isinstance(self.target, FileTarget) else None
        try:
            self._write(self.columns)
        except BaseException:
            self.target.discard()
            raise

    @property
    def name(self) -> str:
        return self.target.name

    def write_rows(self, rows: Sequence[dict[str, object]], text: str | None = None) -> None:
        """Rows; ``text``, when given, is those rows already as CSV (``CsvText``)."""
        if text is None:
            for row in rows:
                self._write(csv_values(row, self._values))
        elif self._held is None:
            self._text(text)
        else:
            self._held.append(text)
            if len(self._held) >= _HELD:
                self.flush()

    def flush(self) -> None:
        """Write the text held back (``write_rows``)."""
        if self._held:
            self._text("".join(self._held))
            self._held.clear()

    def finish(self) -> None:
        """The whole report written and on disk (``Reports.commit`` then renames it)."""
        self.flush()
        try:
            self.target.finish()
        except OSError as exc:
            raise ReportError(self.name, exc) from exc

    @property
    def rewritable(self) -> bool:
        """Is the report a file of its own on disk (not stdout, not a device), which
        ``rewrite`` can read back?"""
        return isinstance(self.target, FileTarget) and self.target.tmp is not None

    def rewrite(self, edit: Callable[[IO[bytes]], Iterable[bytes]]) -> None:
        """The report written so far, its lines after the header given to ``edit`` (an open
        file, read line by line, as UTF-8 bytes), made what ``edit`` gives (bytes): a
        streaming copy to a new temp file, which then takes the old one's place
        (``rewritable`` reports only).  Bytes: no text decoded and encoded again (a name
        outside ASCII makes every line's text wider, and its encoding slow)."""
        self.flush()
        old = self.target
        try:
            old.fh.flush()
            with deferred_signals():  # no temp file made and not yet noted for removal
                new = FileTarget(self.name)
        except OSError as exc:
            raise ReportError(self.name, exc) from exc
        try:
            with open(old.tmp, "rb") as src:
                new.fh.flush()  # nothing held in its text layer: the bytes go after it
                out = new.fh.buffer
                out.write(src.readline())
                for data in edit(src):
                    out.write(data)
        except BaseException as exc:
            new.discard()
            if isinstance(exc, OSError):
                raise ReportError(self.name, exc) from exc
            raise
        with deferred_signals():  # the new temp file noted before the old one goes
            self.target = new
            old.discard()
        self.writer = csv.writer(new.fh, lineterminator="\n")

    def _text(self, text: str) -> None:
        try:
            self.target.fh.write(text)
        except OSError as exc:
            raise ReportError(self.name, exc) from exc

    def _write(self, values: Sequence[object]) -> None:
        self.flush()
        try:
            self.writer.writerow(values)
        except OSError as exc:
            raise ReportError(self.name, exc) from exc


class CsvText:
    """Rows as the CSV text ``CsvReport`` would write for them, cell for cell: a worker process
    makes it, so that with ``--jobs`` the parent copies text instead of formatting rows."""

    def __init__(self) -> None:
        self._buffer = io.StringIO()
        self._writer = csv.writer(self._buffer, lineterminator="\n")
        self._boards = row_values(BOARD_COLUMNS)
        self._findings = row_values(FINDING_COLUMNS)

    def lines(self, r: Rendered) -> tuple[str, str]:
        """The board's boards.csv line ("" without a board row) and its findings.csv lines;
        a ``CleanRun``'s lines, made from its rows (which it then lets go)."""
        if type(r) is CleanRun:
            if r.csv is None:
                rows, r.rows = r.rows, None
                r.csv = (self._boards_text(rows), "")
            return r.csv
        board = "" if r.row is None else self._boards_text((r.row,))
        return board, self._text([csv_values(f, self._findings) for f in r.findings])

    def _boards_text(self, rows: Sequence[dict[str, object]]) -> str:
        """The boards.csv lines of ``rows``: a lane's row its line as made (``LaneRow``)."""
        lines = [row.line if type(row) is LaneRow else None for row in rows]
        if None not in lines:
            return "".join(lines)
        return "".join(line if line is not None else self._text([csv_values(row, self._boards)])
                       for line, row in zip(lines, rows))

    def _text(self, rows: list[Sequence[object]]) -> str:
        if not rows:
            return ""
        buffer = self._buffer
        buffer.seek(0)
        buffer.truncate()
        self._writer.writerows(rows)
        return buffer.getvalue()


def _report(path: str, columns: Sequence[str]):
    """A CSV report, or a Parquet one for a name ending in ``.parquet`` (ImportError without
    pyarrow); pandas is imported only then."""
    if path.lower().endswith(".parquet"):
        from .frames import ParquetReport

        return ParquetReport(path, tuple(columns))
    return CsvReport(path, columns)


class Reports:
    """Every output file of one run: the reports (boards and findings, CSV or Parquet, to files
    or stdout) and the documents written whole at the end (the baseline): all of them complete,
    or none replaced.

    Use as a context manager: leaving it by an exception (a full disk, a signal) discards the
    temp files; ``commit()`` finishes every output, then renames them all.  Every temp file is
    made at the start, so a folder that does not exist is found before the run reads a board."""

    def __init__(self, boards: Sequence[str] = (), findings: Sequence[str] = (),
                 documents: Sequence[str] = (),
                 tables: Sequence[tuple[str, Sequence[str]]] = ()):
        self.boards: list[CsvReport] = []
        self.findings: list[CsvReport] = []
        self.documents: list[FileTarget] = []
        self.tables: list[CsvReport] = []  # reports of other columns, written whole at the end
        try:
            with deferred_signals():  # no temp file made and not yet noted for removal
                for path in boards:
                    self.boards.append(_report(path, BOARD_COLUMNS))
                for path in findings:
                    self.findings.append(_report(path, FINDING_COLUMNS))
                for path, columns in tables:
                    self.tables.append(_report(path, columns))
                for path in documents:
                    self.documents.append(file_target(path))
        except BaseException:
            self.discard()
            raise

    def __enter__(self) -> "Reports":
        return self

    def __exit__(self, kind, exc, tb) -> None:
        self.discard()

    def write(self, r: Rendered) -> None:
        """One audited board's rows (the director's log's own findings have no board row)."""
        board, findings = r.csv if r.csv is not None else (None, None)
        for report in self.boards if r.row is not None else ():
            report.write_rows((r.row,), board)
        for report in self.findings if r.findings else ():
            report.write_rows(r.findings, findings)

    def commit(self, documents: Sequence[str | Iterable[str]] = ()) -> None:
        """Finish every report and write ``documents`` (the text of each document, in order,
        whole or in pieces), and only then rename them all over their targets."""
        for report in self.boards + self.findings + self.tables:
            report.finish()
        for target, text in zip(self.documents, documents, strict=True):
            try:
                for piece in (text,) if isinstance(text, str) else text:
                    target.fh.write(piece)
                target.finish()
            except OSError as exc:
                raise ReportError(target.name, exc) from exc
        with deferred_signals():
            for target in self._targets():
                try:
                    target.replace()
                except OSError as exc:
                    raise ReportError(target.name, exc) from exc
        self.boards, self.findings, self.documents, self.tables = [], [], [], []

    def discard(self) -> None:
        """Remove every temp file (the targets are left as they were)."""
        for target in self._targets():
            target.discard()
        self.boards, self.findings, self.documents, self.tables = [], [], [], []

    def _targets(self) -> list:
        return [r.target for r in self.boards + self.findings + self.tables] + self.documents


@contextmanager
def deferred_signals() -> Iterator[None]:
    """SIGINT and SIGTERM wait until the block is done, then act as usual.  For the steps that
    must not be cut in two: creating a temp file and noting it for removal, renaming the
    reports, starting a worker.  (In a thread other than the main one, Python runs no signal
    handler anyway: nothing to do.)"""
    caught: list[int] = []
    try:
        old = {s: signal.signal(s, lambda signum, _f: caught.append(signum))
               for s in (signal.SIGINT, signal.SIGTERM)}
    except ValueError:
        old = {}
    try:
        yield
    finally:
        for s, handler in old.items():
            signal.signal(s, signal.SIG_DFL if handler is None else handler)
        if caught:
            signal.raise_signal(caught[0])


def _stdout() -> IO[str]:
    """``sys.stdout``; an ``OSError`` when the process was started with it closed (``>&-``)."""
    if sys.stdout is None:
        raise OSError(errno.EBADF, "it is closed")
    return sys.stdout


def echo(text: str, err: bool = False) -> None:
    """One line to stdout (or stderr); a failing or closed stdout is a ``ReportError``."""
    _write(text + "\n", err, flush=True)


def echo_part(text: str) -> None:
    """Part of a line to stdout, not flushed yet (a long document written piece by piece)."""
    _write(text, False, flush=False)


def _write(text: str, err: bool, flush: bool) -> None:
    try:
        stream = sys.stderr if err else _stdout()
    except OSError as exc:
        raise ReportError(STDOUT, exc) from exc
    if stream is None:
        return
    try:
        stream.write(text)
        if flush:
            stream.flush()
    except OSError as exc:
        if err:
            return  # nowhere left to complain
        raise ReportError(STDOUT, exc) from exc


def silence_stdout() -> None:
    """After stdout failed: point it at the null device, so that Python's own flush at exit
    does not fail a second time with a traceback-like message."""
    try:
        fd = os.open(os.devnull, os.O_WRONLY)
        os.dup2(fd, sys.stdout.fileno())
        os.close(fd)
    except (OSError, AttributeError, ValueError):
        pass


def finding_text(f: dict[str, object]) -> str:
    """``board 17 open: CODE [law] message`` for one findings row (no file, no line)."""
    where = (f"board {f['board']}" if f["board"] else f"game {f['game']}" if f["game"]
             else "director's log")
    if f["room"]:  # a Table tag's number reads "table 5"; open, closed and names as written
        room = str(f["room"])
        where += f" table {room}" if room.isdigit() else f" {room}"
    law = f" [{f['law']}]" if f["law"] else ""
    known = (" (marked ^R in the record: the producer's reading of the play, not a sign that "
             "the table knew)" if f.get("marked") else "")
    return f"{where}: {f['code']}{law} {f['message']}{known}"


def text_line(f: dict[str, object]) -> str:
    """``path:line: board 17 open: CODE [law] message`` for one findings row, on one line."""
    return clean_text(f"{f['source']}:{f['line']}: {finding_text(f)}")


def director_line(row: dict[str, object]) -> str:
    """What a Director needs to correct the score of an irregular board, on one line::

        path:line: board 3 (table 2, N-S Smith-Jones, E-W Ross-Hall): 4H+3 510 -> 4H+1 450 (64A...)

    (the room or table, the pairs when the record names them, then the result and N-S score as
    played and after adjustment, and the basis of the ruling; rubber boards have no duplicate
    score)."""
    where = f"board {row['board']}" if row["board"] else f"game {row['game']}"
    details = [d for d in (_room_words(str(row["room"] or "")),
                           _pair("N-S", row["north"], row["south"]),
                           _pair("E-W", row["east"], row["west"])) if d]
    if details:
        where += f" ({', '.join(details)})"
    played, score = result_before(row)
    adjusted, signed = result_signed(row)  # Law 64C's where it assigns one
    before = _with_score(played or "?", score)
    after = _with_score(adjusted or "?", signed)
    basis = _str(row.get("ruling_basis"))
    why = _BASIS_WORDS.get(basis, basis) if basis and basis != "none" else ""
    if row.get("review_64c") is True:
        why += "; 64C review" if why else "64C review"
    if row.get("ruling_64c") == "adjusted":
        law = "64C assigns the result after the arrow"  # the one the Director signs
        why += f"; {law}" if why else law
    if row.get("confirm_card"):
        confirm = f"confirm the card with the record's source before signing: {row['confirm_card']}"
        why += f"; {confirm}" if why else confirm
    why = f" ({why})" if why else ""
    return clean_text(f"{row['source']}:{row['line']}: {where}: {before} -> {after}{why}")


#: How the text output says a board's ``ruling_basis`` (any other basis is said as it is).
_BASIS_WORDS = {
    "64A": "64A: tricks transferred",
    "64B5": "64B5: found after the round, no automatic transfer",
    "table ruling in record": "the table's ruling, already in the stated result",
}


def _room_words(room: str) -> str:
    if room.isdigit():
        return f"table {room}"
    if room in ("open", "closed"):
        return f"{room} room"
    return room


def _pair(side: str, a: object, b: object) -> str:
    if not a and not b:
        return ""
    return f"{side} {a or '?'}-{b or '?'}"


def _with_score(result: str, score: object) -> str:
    return result if score is None or score == "" else f"{result} {score}"


def _str(value: object) -> str:
    return "" if value is None else str(value)


_GITHUB_COMMAND = {"error": "error", "warning": "warning", "note": "notice"}


def github_data(text: str) -> str:
    """A workflow command's message, escaped as the Actions toolkit does (``%``, CR, LF); other
    control characters are written as visible escapes."""
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    return clean_text(text)


def github_property(text: str) -> str:
    """A workflow command's property value (``file=...``): as a message, plus ``:`` and ``,``,
    so that no name can end the property list or start a command of its own."""
    return github_data(text).replace(":", "%3A").replace(",", "%2C")


def github_line(f: dict[str, object]) -> str:
    """A GitHub Actions workflow command (``::error file=...,line=...,title=...::message``); the
    level is the code's (``codes.annotation_level``), as in SARIF."""
    command = _GITHUB_COMMAND[annotation_level(str(f["code"]))]
    props = ",".join(f"{k}={github_property(str(v))}" for k, v in
                     (("file", f["source"]), ("line", f["line"]), ("title", f["code"])))
    return f"::{command} {props}::{github_data(finding_text(f))}"


def json_board(r: Rendered) -> str:
    """One board with its findings as a JSON object (for ``--format jsonl``)."""
    if r.row is None:  # the director's log's own findings: no board
        return json.dumps({"log": r.findings[0]["source"], "findings": r.findings},
                          ensure_ascii=False)
    keep = [c for c in FINDING_COLUMNS if c not in ("source", "game", "board", "room")]
    row = dict(r.row, findings=[{c: f[c] for c in keep} for f in r.findings])
    return json.dumps(row, ensure_ascii=False)
