"""Report writers: boards.csv and findings.csv (the contract in DESIGN.md), one-line text,
JSON lines, GitHub annotations.  Rows stream out as boards are audited; files are written to a
temporary name and renamed at the end, so a reader never sees half a report.  Every text cell
that a spreadsheet would take for a formula is neutralised."""
from __future__ import annotations

import csv
import json
import os
import tempfile
from dataclasses import dataclass
from typing import IO, Callable, Iterable, Iterator

from .audit import BoardAudit, audit_records, board_row, check_options
from .formats import iter_sources, read_boards, read_file
from .cards import SEATS, SUITS, card_str, holding_str
from .findings import Finding
from .workers import resolve_jobs, worker_pool

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


@dataclass
class Rendered:
    """One audited board reduced to its report rows: all the writers need, and cheap to send
    back from a worker process."""

    row: dict[str, object]
    findings: list[dict[str, object]]

    @property
    def status(self) -> str:
        return str(self.row["status"])


def render(a: BoardAudit) -> Rendered:
    return Rendered(board_row(a), [finding_row(a, f) for f in a.findings])


def render_sources(paths: Iterable[str], laws: str = "2017", discovered: str = "table",
                   equity: bool = False, jobs: int = 1,
                   on_file: Callable[[str], None] | None = None) -> Iterator[Rendered]:
    """Audit and render every board under ``paths``, in input order.  With ``jobs`` > 1 the
    files are audited in that many processes (a file is the unit of work; 0: one per core).
    ``on_file(source)`` is called as each file is done (for a progress bar)."""
    check_options(laws, discovered)
    jobs = resolve_jobs(jobs)
    done_file = on_file or (lambda source: None)
    if jobs <= 1:
        for src in iter_sources(paths):
            for a in audit_records(read_boards([src]), laws, discovered, equity):
                yield render(a)
            done_file(src)
        return
    sources = list(iter_sources(paths))
    work = [(src, laws, discovered, equity) for src in sources if src != "-"]
    with worker_pool(jobs) as pool:
        done = pool.imap(_render_file, work, chunksize=1)
        for src in sources:
            if src == "-":
                yield from render_sources(["-"], laws, discovered, equity)
            else:
                yield from next(done)
            done_file(src)


def _render_file(args: tuple[str, str, str, bool]) -> list[Rendered]:
    src, laws, discovered, equity = args
    return [render(a) for a in audit_records(read_file(src), laws, discovered, equity)]


def text_line(f: dict[str, object]) -> str:
    """``path:line: board 17 open: CODE [law] message`` for one findings row."""
    where = f"board {f['board']}" if f["board"] else f"game {f['game']}"
    if f["room"]:
        where += f" {f['room']}"
    law = f" [{f['law']}]" if f["law"] else ""
    return f"{f['source']}:{f['line']}: {where}: {f['code']}{law} {f['message']}"


def github_line(f: dict[str, object]) -> str:
    """A GitHub Actions workflow command (``::error file=...,line=...::message``)."""
    level = "error" if str(f["code"])[:2] in ("RV", "DT", "RC") else "warning"
    msg = text_line(f).split(": ", 1)[1].replace("%", "%25").replace("\n", "%0A")
    return f"::{level} file={f['source']},line={f['line']},title={f['code']}::{msg}"


def json_board(r: Rendered) -> str:
    """One board with its findings as a JSON object (for ``--format jsonl``)."""
    keep = [c for c in FINDING_COLUMNS if c not in ("source", "game", "board", "room")]
    row = dict(r.row, findings=[{c: f[c] for c in keep} for f in r.findings])
    return json.dumps(row, ensure_ascii=False)
