"""JSON documents streamed out: ``--format json`` and ``--format sarif`` print one document
holding every row of the run, which must not mean holding every row in memory.

Rows wait in a ``Spool`` (a temporary file of JSON lines) and the document is written around
them, byte for byte as ``json.dumps(document, indent=1)`` would write it whole."""
from __future__ import annotations

import json
import tempfile
from contextlib import contextmanager
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


def log_line(findings: Iterable[dict], size: int = 1 << 16) -> Iterator[str]:
    """The ``--format jsonl`` line of an item without a board (the director's log's own
    findings, a batch of the fields' notes: thousands of findings), without its newline, as
    ``json.dumps({"log": first["source"], "findings": findings}, ensure_ascii=False)`` writes
    it (``report.json_board``), in pieces of about ``size`` characters: one finding's text at
    a time, never the whole line, is held."""
    parts: list[str] = []
    length, sep = 0, ""
    for f in findings:
        if not sep:
            parts.append('{"log": ' + json.dumps(f["source"], ensure_ascii=False)
                         + ', "findings": [')
        parts.append(sep + json.dumps(f, ensure_ascii=False))
        length, sep = length + len(parts[-1]), ", "
        if length >= size:
            yield "".join(parts)
            parts, length = [], 0
    if not sep:
        raise ValueError("an item without a board has at least one finding")
    parts.append("]}")
    yield "".join(parts)


def placeholder(name: str) -> list[str]:
    """The template's value for a list that ``write_document`` streams."""
    return [_MARK.format(name)]
