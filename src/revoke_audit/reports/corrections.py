"""The score corrections a director enters in the scoring program after the audit: one line per
board whose result a ruling changes (a Law 64A transfer, a defective trick's Law 67, ...), with
its event, section, round, table, board, pairs, result and N-S score before -> after and the
clauses it rests on.  ``--corrections FILE`` writes them as CSV; the director's page shows them
at its top and the text output at its end.

A board is corrected when its final result - the one the Director signs: ``result_64c`` in
boards.csv where Law 64C assigns one, else ``result_adjusted`` - differs from the result as
played; a board whose stated result already holds the table's own ruling
(``ruling_basis`` "table ruling in record", Law 64A applied at the table) is not: the scoring
program has it already."""
from __future__ import annotations

import csv
import io
from typing import Iterator, NamedTuple

from .report import clean_text, safe_cell
from .rows import LeanRow, Rendered, result_before, result_signed

CORRECTION_COLUMNS = ("event", "section", "round", "table", "board", "ns_pair", "ew_pair",
                      "declarer", "result_before", "score_ns_before", "result_after",
                      "score_ns_after", "basis", "source", "line")
#: The basis of a board whose stated result already holds the table's ruling
#: (``ruling.table_ruling``).
_ALREADY_IN_RECORD = "table ruling in record"


class Correction(NamedTuple):
    """One corrected board, as the CSV's row (``CORRECTION_COLUMNS``)."""

    event: str
    section: str
    round: str
    table: str
    board: str
    ns_pair: str
    ew_pair: str
    declarer: str
    result_before: str
    score_ns_before: int | None
    result_after: str
    score_ns_after: int | None
    basis: str
    source: str
    line: int

    def text(self) -> str:
        """The correction on one line, as the text output lists it."""
        where = ", ".join(p for p in (
            self.event, self.section and f"section {self.section}",
            self.round and f"round {self.round}", self.table and _table_words(self.table),
            f"board {self.board}" if self.board else f"{self.source}:{self.line}") if p)
        pairs = ", ".join(p for p in (self.ns_pair and f"N-S {self.ns_pair}",
                                      self.ew_pair and f"E-W {self.ew_pair}") if p)
        by = f" by {self.declarer}" if self.declarer else ""
        return clean_text(f"{where}{': ' + pairs if pairs else ''}: {self.result_before}{by}"
                f"{_score(self.score_ns_before)} -> {self.result_after}"
                f"{_score(self.score_ns_after)}; {self.basis}")


def correction(r: Rendered) -> Correction | None:
    """The correction ``r``'s board needs, or None (no change, or none to enter)."""
    row = r.row
    if row is None or type(row) is LeanRow or not r.findings:  # a board without findings
        return None  # has no adjustment: the cheap test first
    if row.get("ruling_basis") == _ALREADY_IN_RECORD:
        return None
    before = result_before(row)[0]
    after, after_score = final_result(row)
    if not after or not before or after == before:
        return None
    basis = _basis(r)
    if not basis:  # the findings that moved tricks are not reported (--select, --ignore)
        return None
    section, round_ = _section_round(r.tags)
    return Correction(
        str(row.get("event") or ""), section, round_, str(row.get("room") or ""),
        str(row.get("board") or ""), _pair(row.get("north"), row.get("south")),
        _pair(row.get("east"), row.get("west")), str(row.get("declarer") or ""), before,
        _int(row.get("score_ns")), after, after_score, basis,
        str(row.get("source") or ""), _int(row.get("line")) or 0)


def final_result(row: dict) -> tuple[str, int | None]:
    """The board's final result and N-S score, the ones the Director signs: Law 64C's where
    it assigns one (``result_64c``, ``score_ns_64c``), else the automatic adjusted result."""
    result, score = result_signed(row)
    return result, _int(score)


class Corrections:
    """The run's corrections, gathered as its boards go by (``add``), in the run's order."""

    def __init__(self) -> None:
        self.items: list[Correction] = []

    def add(self, r: Rendered) -> None:
        c = correction(r)
        if c is not None:
            self.items.append(c)

    def __len__(self) -> int:
        return len(self.items)

    def csv_text(self) -> str:
        """The CSV file (``CORRECTION_COLUMNS``), cells safe for a spreadsheet."""
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(CORRECTION_COLUMNS)
        for c in self.items:
            writer.writerow([safe_cell(v) for v in c])
        return out.getvalue()

    def lines(self) -> Iterator[str]:
        """The list for the text output: a heading, then one line per board."""
        if not self.items:
            return
        n = len(self.items)
        yield f"score corrections to enter ({n} board{'' if n == 1 else 's'}):"
        for c in self.items:
            yield "  " + c.text()


def _basis(r: Rendered) -> str:
    """The clauses the change rests on: the laws of the reported findings that moved tricks
    (64A1, 67B1, ...), else of a Law 64C one; empty when the run reports none of them
    (``--select``, ``--ignore``: then the board is no correction of this run either)."""
    laws: list[str] = []
    for f in r.findings:
        law = str(f.get("law") or "")
        if law and _int(f.get("transferred")) and law not in laws:
            laws.append(law)
    if not laws:
        laws = sorted({str(f.get("law")) for f in r.findings
                       if str(f.get("law") or "").startswith("64C")})
    return " ".join(laws)


def _section_round(tags: object) -> tuple[str, str]:
    """The record's Section and Round tags, from what its field needs (``rows.FieldTags``)."""
    if tags is None or isinstance(tags, dict):
        return "", ""
    parts = str(getattr(tags, "match", "") or "").split("|")
    return str(getattr(tags, "section", "") or ""), parts[2] if len(parts) == 3 else ""


def _pair(a: object, b: object) -> str:
    return f"{a or '?'} & {b or '?'}" if a or b else ""


def _table_words(table: str) -> str:
    return f"{table} room" if table in ("open", "closed") else f"table {table}"


def _score(score: int | None) -> str:
    return "" if score is None else f" (N-S {score:+d})"


def _int(value: object) -> int | None:
    if value is None or value == "":
        return None
    try:
        return int(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return None
