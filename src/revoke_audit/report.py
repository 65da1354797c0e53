"""Report writers: boards.csv and findings.csv (the contract in DESIGN.md), one-line text,
JSON lines, GitHub annotations.  Rows stream out as boards are audited; files are written to a
temporary name and renamed at the end, so a reader never sees half a report.  Every text cell
that a spreadsheet would take for a formula is neutralised."""
from __future__ import annotations

import csv
import json
import os
import tempfile
from typing import IO, Iterable

from .audit import BoardAudit, board_row
from .cards import SEATS, SUITS, card_str, holding_str
from .findings import Finding

BOARD_COLUMNS = (
    "source", "line", "game", "event", "date", "board", "room", "dealer", "vul", "declarer",
    "contract", "play", "tricks_stated", "tricks_played", "tricks_adjusted", "result_adjusted",
    "score_ns", "score_ns_adjusted", "revokes", "defective_tricks", "record_errors", "laws",
    "status", "scoring", "parse_problems", "below_ns", "above_ns", "below_ew", "above_ew",
    "scoring_notes",
)
FINDING_COLUMNS = (
    "source", "line", "game", "board", "room", "code", "law", "trick", "seat", "role",
    "suit_led", "card", "held", "established", "transferred", "equity_tricks", "message",
)
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value: object) -> object:
    """Cells a spreadsheet would evaluate (``=cmd``, ``+1``, ``@x``) get a leading quote;
    numbers stay numbers; None becomes empty."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str) and value.startswith(_FORMULA_START):
        return "'" + value
    return value


def finding_row(a: BoardAudit, f: Finding) -> dict[str, object]:
    rec = a.record
    return {
        "source": rec.source, "line": f.line if f.line is not None else rec.line,
        "game": rec.game, "board": rec.board, "room": rec.room, "code": f.code, "law": f.law,
        "trick": f.trick, "seat": SEATS[f.seat] if f.seat is not None else "", "role": f.role,
        "suit_led": SUITS[f.suit_led] if f.suit_led is not None else "",
        "card": card_str(f.card) if f.card is not None else "",
        "held": holding_str(f.held) if f.held else "",
        "established": f.established, "transferred": f.transferred,
        "equity_tricks": f.equity_tricks, "message": f.message,
    }


class CsvSink:
    """A CSV file written atomically: rows go to a temp file renamed over ``path`` on close."""

    def __init__(self, path: str, columns: tuple[str, ...]):
        self.path = path
        folder = os.path.dirname(os.path.abspath(path))
        fd, self.tmp = tempfile.mkstemp(prefix=".revoke-audit-", suffix=".csv", dir=folder)
        self.fh: IO[str] = os.fdopen(fd, "w", encoding="utf-8", newline="")
        self.writer = csv.writer(self.fh, lineterminator="\n")
        self.columns = columns
        self.writer.writerow(columns)

    def write(self, row: dict[str, object]) -> None:
        self.writer.writerow([safe_cell(row[c]) for c in self.columns])

    def close(self) -> None:
        self.fh.close()
        os.replace(self.tmp, self.path)

    def abort(self) -> None:
        self.fh.close()
        try:
            os.unlink(self.tmp)
        except OSError:
            pass


def text_line(a: BoardAudit, f: Finding) -> str:
    """``path:line: board 17 open, trick 4: CODE message``."""
    rec = a.record
    where = f"board {rec.board}" if rec.board else f"game {rec.game}"
    if rec.room:
        where += f" {rec.room}"
    law = f" [{f.law}]" if f.law else ""
    return f"{rec.source}:{f.line or rec.line}: {where}: {f.code}{law} {f.message}"


def github_line(a: BoardAudit, f: Finding) -> str:
    """A GitHub Actions workflow command (``::error file=...,line=...::message``)."""
    level = "error" if f.code[:2] in ("RV", "DT", "RC") else "warning"
    msg = text_line(a, f).split(": ", 1)[1].replace("%", "%25").replace("\n", "%0A")
    return f"::{level} file={a.record.source},line={f.line or a.record.line},title={f.code}::{msg}"


def json_board(a: BoardAudit) -> str:
    """One board with its findings as a JSON object (for ``--format jsonl``)."""
    row = board_row(a)
    row["findings"] = [finding_row(a, f) for f in a.findings]
    for fr in row["findings"]:
        for k in ("source", "game", "board", "room"):
            fr.pop(k)
    return json.dumps(row, ensure_ascii=False)


def write_csv(path: str, columns: tuple[str, ...], rows: Iterable[dict[str, object]]) -> None:
    """Write a whole CSV atomically (used by the library for small reports)."""
    sink = CsvSink(path, columns)
    try:
        for row in rows:
            sink.write(row)
    except BaseException:
        sink.abort()
        raise
    sink.close()
