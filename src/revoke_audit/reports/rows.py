"""An audited board as report rows: the columns of boards.csv and findings.csv, and the
rows themselves, plain values every writer (CSV, JSON, SARIF, DataFrames) takes as they are: a
source whose name is not UTF-8 is shown with its undecodable bytes escaped (``a\\xffb.pbn``)."""
from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Iterable, Iterator, NamedTuple

from ..ruling.audit import BoardAudit
from ..core.cards import SEATS, SUITS, card_str, holding_str
from ..core.codes import board_status
from ..ruling.director import confirm_cells, ruling_text
from ..core.findings import Finding
from ..laws import Scoring
from ..laws.common import TABLE_RULING
from ..scoring import RUBBER_COLUMNS, result_string, rubber_scores, score_ns
from ..laws.table_facts import FactRow, TableFacts
from ..core.visible import decodable

BOARD_COLUMNS = (
    "source", "line", "game", "event", "date", "board", "room", "dealer", "vul", "declarer",
    "contract", "play", "tricks_stated", "tricks_played", "tricks_adjusted", "result_adjusted",
    "score_ns", "score_ns_adjusted", "revokes", "defective_tricks", "record_errors", "laws",
    "status", "scoring", "parse_problems", "below_ns", "above_ns", "below_ew", "above_ew",
    "scoring_notes", "north", "east", "south", "west", "tricks_equity", "review_64c", "tricks_by_cards",
    "tricks_automatic", "ruling_basis",
) + ("field", "mp_pct_ns", "mp_pct_ns_adjusted", "imps_ns", "imps_ns_adjusted",
     "scoring_method") + ("tricks_64c", "result_64c", "score_ns_64c", "ruling_64c",
                          "confirm_card")
#: The board's field in figures, filled in after every board is audited (``rescore``); empty
#: in a board's row as it is rendered.
FIELD_COLUMNS = ("field", "mp_pct_ns", "mp_pct_ns_adjusted", "imps_ns", "imps_ns_adjusted",
                 "scoring_method")
NO_FIELD = dict.fromkeys(FIELD_COLUMNS)
#: The columns after the field's: plain cells (figures, a result, a word; never a comma or a
#: quote), so that a boards.csv line's field cells can be found from its end.
AFTER_FIELD = BOARD_COLUMNS[BOARD_COLUMNS.index(FIELD_COLUMNS[-1]) + 1:]
#: Law 64C's cells of a board with no established revoke.
NO_64C_CELLS = {"tricks_64c": None, "result_64c": None, "score_ns_64c": None,
                "ruling_64c": "none", "confirm_card": None}
FINDING_COLUMNS = (
    "source", "line", "game", "board", "room", "code", "law", "trick", "seat", "role",
    "suit_led", "card", "held", "established", "transferred", "equity_tricks", "message",
    "player", "marked", "log_line", "ruling",
)
_CLEAN = board_status(())
LOG_BATCH = 1000  # the RC040 rows of a director's log in one item


@dataclass
class Rendered:
    """One audited board reduced to its report rows: all the writers need, and cheap to send
    back from a worker process."""

    row: dict[str, object] | None  # None for the director's log's own findings
    findings: list[dict[str, object]]
    log_lines: frozenset[int] = frozenset()  # the director's log rows that matched this board
    # the board's CSV lines as ``report.CsvReport`` writes them (boards.csv, findings.csv),
    # made by a worker process so that the parent only copies them; None when not made, and
    # dropped when the findings change (``restated``)
    csv: tuple[str, str] | None = None
    key: str | None = None  # the record's identity, for a board with findings (``record_key``)
    # what a board's field needs beyond its row (``field_tags``): None for most boards; a
    # ``CleanRun``'s, by the board's place in the run ({0: ..., 7: ...}), or None
    tags: "FieldTags | dict[int, FieldTags] | None" = None
    boards = 1  # the boards this item stands for (``CleanRun``: many)

    @property
    def status(self) -> str:
        return str(self.row["status"]) if self.row is not None else ""

    def restated(self, findings: list[dict[str, object]],
                 row: dict[str, object] | None = None) -> Rendered:
        """This board with other findings (and, given, its row restated to them); its CSV
        lines no longer say the same, so they are dropped."""
        return Rendered(self.row if row is None else row, findings, self.log_lines, key=self.key,
                        tags=self.tags)

    def lean(self) -> Rendered:
        """This board for a reader that takes its CSV lines (``csv``) and needs no more of its
        row than the status: a board without findings then travels as its status and its
        lines alone (a tenth of the pickling of its row).  Its ``row`` is a ``LeanRow``: any
        other cell asked for is an error that says so."""
        if self.csv is None or self.row is None or self.findings or self.log_lines:
            return self
        return Rendered(LeanRow(status=self.row["status"]), [], self.log_lines, self.csv,
                        tags=self.tags)

    def __reduce__(self):
        """Pickled (back from a worker process) with each row as its values alone when its keys
        are the report's columns in order, as ``board_row`` and ``finding_row`` make them
        (half the work of pickling the dicts), and a ``LeanRow`` as its status."""
        return _unpickle, (_values(self.row, BOARD_COLUMNS),
                           [_values(f, FINDING_COLUMNS) for f in self.findings],
                           self.log_lines, self.csv, self.key, self.tags)


class CleanRun(Rendered):
    """Consecutive clean boards without findings as one item, for a reader that takes CSV
    lines and statuses only (``Rendered.lean``): their boards.csv rows (``rows``, as the lane
    makes them) or lines as one text (``csv``, once made: ``rows`` is then dropped), and their
    number (``boards``).  One item instead of thousands spares the parent's loop over boards
    and a worker's pickling."""

    def __init__(self, boards: int, text: str | None = None,
                 rows: list[dict[str, object]] | None = None,
                 tags: dict[int, FieldTags] | None = None) -> None:
        super().__init__(LeanRow(status=_CLEAN), [], frozenset(),
                         None if text is None else (text, ""), tags=tags or None)
        self.boards = boards
        self.rows = rows

    def lean(self) -> "CleanRun":
        return self

    def __reduce__(self):
        if self.csv is None:
            raise TypeError("a CleanRun travels as CSV text: make it first")
        return CleanRun, (self.boards, self.csv[0], None, self.tags)


def clean_runs(rows: list[Rendered]) -> list[Rendered]:
    """``rows`` (lean, with their CSV lines) with each stretch of consecutive clean boards
    without findings and ``CleanRun``s made one ``CleanRun``."""
    out: list[Rendered] = []
    texts: list[str] = []
    tags: dict[int, FieldTags] = {}
    boards = 0
    for r in rows:
        if (type(r.row) is LeanRow and not r.findings and not r.log_lines
                and r.csv is not None and r.row["status"] == _CLEAN):
            texts.append(r.csv[0])
            if r.tags is not None:
                tags.update(run_tags(r, boards))
            boards += r.boards
            continue
        if texts:
            out.append(CleanRun(boards, "".join(texts), tags=tags))
            texts, boards, tags = [], 0, {}
        out.append(r)
    if texts:
        out.append(CleanRun(boards, "".join(texts), tags=tags))
    return out


class FieldTags(NamedTuple):
    """What a board's field needs from its record beyond its boards.csv row: the ``Section``
    (one field per section), the ``Scoring`` tag (the method), its ``ScoreTable`` (the other
    tables' results), the match of a teams event
    (``HomeTeam``, ``VisitTeam`` and ``Round`` joined by ``|``, or empty)."""

    section: str
    scoring: str
    match: str
    table: tuple[str, tuple[str, ...]] | None = None  # a PBN ScoreTable: its tag, its lines


_FIELD_TAGS = frozenset(("HomeTeam", "VisitTeam", "Round", "Section", "Scoring", "ScoreTable"))


def field_tags(tags: dict[str, str], score_table: tuple[str, ...] = ()) -> FieldTags | None:
    """A record's ``FieldTags`` (from its tags as read and its ScoreTable's lines), None when
    it has none of them."""
    if tags.keys().isdisjoint(_FIELD_TAGS):  # most records: no tag to look at
        return None
    get = tags.get
    teams = [get(t, "") for t in ("HomeTeam", "VisitTeam", "Round")]
    match = "|".join(teams) if any(teams) else ""
    section, scoring = get("Section", ""), get("Scoring", "")
    table = (tags["ScoreTable"], score_table) if "ScoreTable" in tags else None
    if not (section or scoring or match or table):
        return None
    return FieldTags(section, scoring, match, table)


def run_tags(r: Rendered, offset: int = 0) -> dict[int, FieldTags]:
    """The ``FieldTags`` of a rendered item by its boards' places (``offset`` onwards)."""
    if r.tags is None:
        return {}
    if isinstance(r.tags, dict):
        return {offset + i: t for i, t in r.tags.items()}
    return {offset: r.tags}


#: The cells that name a board: a row with all of them empty names none.
_NAMING = ("event", "date", "board", "dealer", "vul", "contract", "north", "east", "south",
           "west")


def names_a_board(row: dict[str, object]) -> bool:
    """Is ``row`` a board's?  Not the row of a source that gave no board (an empty or skipped
    file, a folder or archive with nothing to read, a limit that stopped the reading:
    ``formats.sources.unreadable``) - an ``unreadable`` row with no cell that names a board.
    The counts a director reads (the summary, the page) count boards, not these rows."""
    if type(row) is LeanRow or row["status"] != "unreadable":  # a lean row: a board without
        return True  # findings (a source's own row always has its finding)
    return any(row.get(cell) not in (None, "") for cell in _NAMING)


class LeanRow(dict):
    """The row of a board sent back without its cells (``Rendered.lean``): only ``status``."""

    def __missing__(self, key: str) -> object:
        raise KeyError(f"{key!r}: this board's row was sent back lean (status and CSV lines "
                       "only); render with rows=True for its cells")


def _values(row: dict[str, object] | None, columns: tuple[str, ...]) -> object:
    if type(row) is LeanRow:
        return row["status"]  # a str: a lean row
    if row is not None and tuple(row) == columns:
        return tuple(row.values())
    return row  # None, or a row of other keys: as it is


def _row(values: object, columns: tuple[str, ...]) -> dict[str, object] | None:
    if type(values) is str:
        return LeanRow(status=values)
    return dict(zip(columns, values)) if type(values) is tuple else values


def _unpickle(row: object, findings: list, log_lines: frozenset[int],
              csv: tuple[str, str] | None, key: str | None = None,
              tags: FieldTags | None = None) -> Rendered:
    return Rendered(_row(row, BOARD_COLUMNS), [_row(f, FINDING_COLUMNS) for f in findings],
                    log_lines, csv, key, tags)


def render(a: BoardAudit) -> Rendered:
    """The report rows of one audited board."""
    lines = frozenset(a.table_facts.lines) if a.table_facts is not None else frozenset()
    key = record_key(a.record) if a.findings else None
    return Rendered(board_row(a), [finding_row(a, f) for f in a.findings], lines, key=key,
                    tags=field_tags(a.record.tags, a.record.score_table))


def record_key(rec) -> str | None:
    """What makes two records the same board played at the same table - whatever file or
    spelling they come in (the corpus has one championship's files twice, as ``Swogro20.pbn``
    and ``SWOGRO20.PBN``): board, room, the players' names, the deal, contract, declarer, the
    cards in the order played and the stated result.  None for a record without a deal."""
    if rec.hands is None:
        return None
    names = tuple("".join(ch for ch in n.lower() if ch.isalnum()) for n in rec.names)
    text = repr((rec.board.strip().lower(), rec.room.strip().lower(), names, rec.hands,
                 rec.contract, rec.declarer, tuple(p.card for p in rec.play),
                 rec.result_stated, rec.claim))
    return hashlib.blake2b(text.encode(), digest_size=12).hexdigest()


def duplicate_finding(row: dict[str, object], first: tuple[object, object]
                      ) -> dict[str, object]:
    """findings.csv row of DU001: this board is a record read before (``first``: its source
    and line), whose findings are reported there."""
    out: dict[str, object] = dict.fromkeys(FINDING_COLUMNS)
    where = f"{first[0]}:{first[1]}"
    out.update(source=row["source"], line=row["line"], game=row["game"], board=row["board"],
               room=row["room"], code="DU001", law="", seat="", role="", suit_led="", card="",
               held="", message=f"the same record as {where} (board {row['board']}"
               + (f" {row['room']}" if row["room"] else "") + "): its findings and ruling are "
               "reported there, once")
    return out


def board_row(a: BoardAudit) -> dict[str, object]:
    """The boards.csv row (columns in BOARD_COLUMNS order); plain values only (a ``StrEnum``
    becomes its ``str``), which the CSV writer takes on its fast path."""
    rec, rp, ruling = a.record, a.replay, a.ruling
    contract, declarer = rec.contract, rec.declarer
    played, adjusted = ruling.tricks_played, ruling.tricks_adjusted
    duplicate = ruling.scoring == Scoring.DUPLICATE
    return {
        "source": decodable(rec.source), "line": rec.line, "game": rec.game, "event": rec.event,
        "date": rec.date, "board": rec.board, "room": rec.room,
        "dealer": SEATS[rec.dealer] if rec.dealer is not None else "",
        "vul": rec.vul or "", "declarer": SEATS[declarer] if declarer is not None else "",
        "contract": contract or "", "play": str(rp.play_status),
        "tricks_stated": a.tricks_stated, "tricks_played": played, "tricks_adjusted": adjusted,
        "result_adjusted": result_string(contract, adjusted),
        "score_ns": score_ns(contract, declarer, rec.vul, _scored(ruling)) if duplicate else None,
        "score_ns_adjusted": score_ns(contract, declarer, rec.vul, adjusted) if duplicate else None,
        "revokes": a.count("RV"), "defective_tricks": a.count("DT"),
        "record_errors": a.count("RC"), "laws": ruling.edition, "status": a.status,
        "scoring": str(ruling.scoring), "parse_problems": a.count("PS"),
        **_rubber(a, contract, declarer, played, adjusted),
        **dict(zip(("north", "east", "south", "west"), rec.names)),
        "tricks_equity": a.tricks_equity, "review_64c": a.review_64c,
        "tricks_by_cards": ruling.tricks_by_cards, "tricks_automatic": ruling.tricks_automatic,
        "ruling_basis": ruling.basis, **NO_FIELD, **_cells_64c(a, duplicate),
    }


def _scored(ruling) -> int | None:
    """Declarer's tricks the table scored: as played, or the stated result when it already
    holds the table's ruling (LW002) - never a score nobody had."""
    return ruling.tricks_adjusted if ruling.basis == TABLE_RULING else ruling.tricks_played


def result_before(row: dict) -> tuple[str, object]:
    """A board row's result and N-S score as the table scored them (``score_ns``): as played,
    or the stated result when it already holds the table's ruling (LW002)."""
    if row.get("ruling_basis") == TABLE_RULING:
        return str(row.get("result_adjusted") or ""), row.get("score_ns")
    played = row.get("tricks_played")
    tricks = int(played) if played not in (None, "") else None  # type: ignore[arg-type]
    return result_string(str(row.get("contract") or "") or None, tricks), row.get("score_ns")


def result_signed(row: dict) -> tuple[str, object]:
    """A board row's final result and N-S score, the ones the Director signs: the result Law
    64C assigns where it assigns one (``ruling_64c`` adjusted), else the automatic one."""
    if row.get("ruling_64c") == "adjusted" and row.get("result_64c"):
        return str(row["result_64c"]), row.get("score_ns_64c")
    return str(row.get("result_adjusted") or ""), row.get("score_ns_adjusted")


def _cells_64c(a: BoardAudit, duplicate: bool) -> dict[str, object]:
    """boards.csv's Law 64C cells: the decision, and declarer's tricks, result and N-S score
    under it (empty unless decided)."""
    rec, tricks = a.record, a.tricks_64c
    return {"tricks_64c": tricks, "result_64c": result_string(rec.contract, tricks) or None,
            "score_ns_64c": (score_ns(rec.contract, rec.declarer, rec.vul, tricks)
                             if duplicate and tricks is not None else None),
            "ruling_64c": a.ruling_64c, "confirm_card": confirm_cells(a)}


def _rubber(a: BoardAudit, contract, declarer, played, adjusted) -> dict[str, object]:
    """Trick score below and bonuses above the line, by side, for the rubber codes."""
    ruling = a.ruling
    if ruling.scoring != Scoring.RUBBER:
        return dict.fromkeys(RUBBER_COLUMNS)
    row = rubber_scores(ruling.edition, contract, declarer, a.record.vul, played, adjusted,
                        (ruling.penalty_to_declarer_side, ruling.penalty_to_defenders),
                        (ruling.declarer_side_revoked, ruling.defenders_revoked))
    notes = "; ".join(ruling.notes + ([row["scoring_notes"]] if row["scoring_notes"] else []))
    return {**row, "scoring_notes": notes or None}


def finding_row(a: BoardAudit, f: Finding) -> dict[str, object]:
    """The findings.csv row of ``f`` (columns in FINDING_COLUMNS order)."""
    rec = a.record
    return {
        "source": decodable(rec.source), "line": f.line if f.line is not None else rec.line,
        "game": rec.game, "board": rec.board, "room": rec.room, "code": f.code, "law": f.law,
        "trick": f.trick, "seat": SEATS[f.seat] if f.seat is not None else "", "role": f.role,
        "suit_led": SUITS[f.suit_led] if f.suit_led is not None else "",
        "card": card_str(f.card) if f.card is not None else "",
        "held": holding_str(f.held) if f.held else "",
        "established": f.established, "transferred": f.transferred,
        "equity_tricks": f.equity_tricks, "message": f.message,
        "player": rec.names[f.seat] if f.seat is not None else "",
        "marked": f.marked,
        "log_line": f.log_line,
        "ruling": ruling_text(a, f) or None,
    }


def log_findings(table_facts: TableFacts, matched: Iterable[int]
                 ) -> Iterator[list[dict[str, object]]]:
    """findings.csv rows for the log's rows that no board matched, ``LOG_BATCH`` at a time (a
    log may have a million): ``source`` and ``line`` are the log's own, ``board`` and ``room``
    what the row names."""
    batch: list[dict[str, object]] = []
    for row, f in table_facts.unmatched(matched):
        batch.append(_log_row(table_facts.path, row, f))
        if len(batch) >= LOG_BATCH:
            yield batch
            batch = []
    if batch:
        yield batch


def _log_row(path: str, row: FactRow, f: Finding) -> dict[str, object]:
    out: dict[str, object] = dict.fromkeys(FINDING_COLUMNS)
    out.update(source=decodable(path), line=f.line, board=row.board, room=row.room, code=f.code,
               law="", seat=SEATS[row.seat] if row.seat is not None else "", role="",
               suit_led="", card=card_str(row.card) if row.card is not None else "", held="",
               message=f.message, log_line=f.log_line, ruling=None)
    return out
