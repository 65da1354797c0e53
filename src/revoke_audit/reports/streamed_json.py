"""JSON documents streamed out: ``--format json`` and ``--format sarif`` print one document
holding every row of the run, which must not mean holding every row in memory.

Rows wait in a ``Spool`` (a temporary file of JSON lines) and the document is written around
them, byte for byte as ``json.dumps(document, indent=1)`` would write it whole."""
from __future__ import annotations

import json
import tempfile
from contextlib import contextmanager
from itertools import chain
from typing import Callable, Iterable, Iterator

from .targets import ReportError

_MARK = "\ue000revoke-audit-list-{}\ue000"  # stands for a streamed list in the template


class Spool:
    """Rows (JSON values) kept on disk, in order, until they are read back once or more.
    ``name``: the output they are for; a temporary folder that is full or missing is a
    ``ReportError`` naming it and the folder."""

    def __init__(self, name: str = "the JSON document") -> None:
        self.name = name
        with self._failing():
            self._file = tempfile.TemporaryFile("w+", encoding="utf-8")
        self.count = 0

    def add(self, row: object) -> None:
        with self._failing():
            self._file.write(json.dumps(row, ensure_ascii=False))
            self._file.write("\n")
        self.count += 1

    def __iter__(self) -> Iterator[object]:
        with self._failing():
            self._file.seek(0)
            for line in self._file:
                yield json.loads(line)

    @contextmanager
    def _failing(self) -> Iterator[None]:
        try:
            yield
        except OSError as exc:
            raise ReportError(f"{self.name} (spooled in {tempfile.gettempdir()})", exc) from exc

    def close(self) -> None:
        self._file.close()


class JsonSpools:
    """The board rows and finding rows of a run, spooled for one JSON document."""

    def __init__(self, name: str = "the JSON document") -> None:
        self.boards = Spool(name)
        try:
            self.findings = Spool(name)
        except BaseException:
            self.boards.close()
            raise

    def add(self, row: dict | None, findings: Iterable[dict]) -> None:
        if row is not None:  # None: the director's log's own findings, with no board
            self.boards.add(row)
        for f in findings:
            self.findings.add(f)

    def __enter__(self) -> "JsonSpools":
        return self

    def __exit__(self, *exc: object) -> None:
        self.boards.close()
        self.findings.close()


def write_document(write: Callable[[str], None], template: dict, lists: dict[str, Iterable],
                   ensure_ascii: bool = True) -> None:
    """Write ``template`` as ``json.dumps(template, indent=1)`` would, with each list the
    template holds as ``placeholder(name)`` replaced by the items of ``lists[name]``, streamed
    one by one (the lists in the order they appear in the template)."""
    text = json.dumps(template, indent=1, ensure_ascii=ensure_ascii)
    for name, items in lists.items():
        mark = json.dumps(_MARK.format(name), ensure_ascii=ensure_ascii)
        start = text.index(mark)
        line_start = text.rindex("\n", 0, start) + 1
        indent = " " * (start - line_start)
        close = text.index("\n", start)  # the line after the mark closes the list: "]"
        head, tail = text[:line_start - 1], text[close:]  # head ends with "["
        write(head)
        first = True
        for item in items:
            body = json.dumps(item, indent=1, ensure_ascii=ensure_ascii).replace("\n", "\n" + indent)
            write(("\n" if first else ",\n") + indent + body)
            first = False
        if first:  # an empty list is written "[]"
            write("]")
            tail = tail[tail.index("]") + 1:]
        text = tail
    write(text)


def log_line(findings: Iterable[dict], size: int = 1 << 16, closed: bool = True
             ) -> Iterator[str]:
    """The ``--format jsonl`` line of an item without a board (the director's log's own
    findings), without its newline, as ``json.dumps({"log": first["source"], "findings":
    findings}, ensure_ascii=False)`` writes it (``report.json_board``), in pieces of about
    ``size`` characters: one finding's text at a time, never the whole line, is held.
    ``closed=False``: without the closing ``]}``, for more findings to follow."""
    findings = iter(findings)
    first = next(findings, None)
    if first is None:
        raise ValueError("an item without a board has at least one finding")
    yield '{"log": ' + json.dumps(first["source"], ensure_ascii=False) + ', "findings": ['
    yield from _listed(chain([first], findings), "", size)
    if closed:
        yield _CLOSE


def _listed(findings: Iterable[dict], sep: str, size: int) -> Iterator[str]:
    """The findings as a JSON list's items (after ``sep``, then ", " between them), in
    pieces of about ``size`` characters."""
    parts: list[str] = []
    length = 0
    for f in findings:
        parts.append(sep + json.dumps(f, ensure_ascii=False))
        length, sep = length + len(parts[-1]), ", "
        if length >= size:
            yield "".join(parts)
            parts, length = [], 0
    if parts:
        yield "".join(parts)


class JsonLines:
    """``--format jsonl``: a line a board (``board_line``), a line an item without a board,
    except the items of the fields' notes (``line``: ``gather.FieldNotes``), which come a few
    hundred at a time: those of one line are written as that one line, a piece at a time
    (``log_line``).  ``write_part``: text; ``write_line``: text and the end of its line (the
    output flushed).  ``close`` ends the last line."""

    def __init__(self, write_part: Callable[[str], None], write_line: Callable[[str], None],
                 board_line: Callable[[object], str], size: int = 1 << 16) -> None:
        self._part, self._line, self._board_line = write_part, write_line, board_line
        self._size = size
        self._open: int | None = None  # the notes' line being written

    def add(self, r) -> None:
        line = getattr(r, "line", None) if r.row is None else None
        if self._open is not None and line == self._open:
            for part in _listed(r.findings, ", ", self._size):
                self._part(part)
            return
        self.close()
        if r.row is not None:
            self._line(self._board_line(r))
            return
        for part in log_line(r.findings, self._size, closed=line is None):
            self._part(part)
        if line is None:
            self._line("")
        self._open = line

    def close(self) -> None:
        """The notes' line being written ended."""
        if self._open is not None:
            self._line(_CLOSE)
            self._open = None


_CLOSE = "]}"  # the end of a line without a board: its findings' list, the object


def placeholder(name: str) -> list[str]:
    """The template's value for a list that ``write_document`` streams."""
    return [_MARK.format(name)]
