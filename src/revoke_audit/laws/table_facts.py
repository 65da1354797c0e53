"""A director's log: what was said at the table, which no hand record carries.

Law 61A calls it a revoke to fail, when able, to play a card the Laws require (a penalty card,
Law 50) or to obey a lead or play restriction an opponent chose in rectification (Laws 26, 50D2,
54-57); a PBN or LIN record holds the cards, not those rulings.  A director who kept a log of
them can have them checked: ``revoke-audit audit PATH... --table-facts FILE``.

The log is a CSV file with a header row (column order free, names case-insensitive, other
columns such as a note are ignored):

- key columns ``source`` (the file name, matched on its base name), ``event``, ``board``,
  ``room`` (``open``/``closed`` or a table number); an empty key matches every board;
- fact columns ``trick`` (1-13, 0 = during the auction), ``seat`` (N/E/S/W, the player the fact
  binds), ``fact`` and ``value``:

  ================  ==============  ========================================================
  fact              value           meaning
  ================  ==============  ========================================================
  penalty-card      ``D8 major``    from that trick on the card lies face up (Law 50)
  lead-required     ``H``           the first time from that trick on that he is on lead, he
                                    must lead a heart if he can
  lead-forbidden    ``H``           ... he must not lead a heart, for as long as he keeps
                                    the lead
  play-highest      ``H``           at that trick he must play his highest heart if he can
  play-lowest       ``H``           ... his lowest heart
  discovered        ``after-round`` for this board, overrides ``--discovered`` (trick and
                                    seat may be left empty)
  ================  ==============  ========================================================

A malformed log is an error (``TableFactsError``, with file and line): nothing is audited.
A row that names no board in the input, or that does not fit the board it names, is a finding
(``RC040``), and the run goes on.  What the facts oblige each player to do at each trick is
``duties``' work.
"""
from __future__ import annotations

import csv
import os
from array import array
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Iterable, Iterator

from ..core.cards import SUITS, card_str, parse_card, parse_seat, seat_name
from ..core.findings import Finding
from ..core.record import BoardRecord
from ..core.visible import decodable, visible

KEY_COLUMNS = ("source", "event", "board", "room")
FACT_COLUMNS = ("trick", "seat", "fact", "value")
# a FactRow's fields after its keys, which ``TableFacts`` keeps once for the rows that share them
FACT_FIELDS = ("fact", "trick", "seat", "suit", "card", "grade", "discovered")
PENALTY_CARD, LEAD_REQUIRED, LEAD_FORBIDDEN = "penalty-card", "lead-required", "lead-forbidden"
PLAY_HIGHEST, PLAY_LOWEST, DISCOVERED = "play-highest", "play-lowest", "discovered"
FACTS = (PENALTY_CARD, LEAD_REQUIRED, LEAD_FORBIDDEN, PLAY_HIGHEST, PLAY_LOWEST, DISCOVERED)
SUIT_FACTS = (LEAD_REQUIRED, LEAD_FORBIDDEN, PLAY_HIGHEST, PLAY_LOWEST)
GRADES = ("major", "minor")
DISCOVERY = ("table", "after-round")
LOG_CODE = "RC040"
_SUIT_WORDS = {"spades": 0, "spade": 0, "hearts": 1, "heart": 1, "diamonds": 2, "diamond": 2,
               "clubs": 3, "club": 3}


class TableFactsError(ValueError):
    """A director's log that cannot be read or is malformed: the file, the line and why."""

    def __init__(self, path: str, line: int | None, message: str):
        super().__init__(message)
        self.path, self.line, self.message = path, line, message

    def __str__(self) -> str:
        """``file:line: why``, escaped as the reports are: a log's cell quoted in the message
        must not reach a terminal as control sequences."""
        where = f"{self.path}:{self.line}" if self.line else self.path
        return visible(f"{where}: {self.message}")


@dataclass(frozen=True, slots=True)
class FactRow:
    """One row of the log, checked: the keys it matches boards on and the fact it states."""

    line: int
    fact: str
    source: str = ""
    event: str = ""
    board: str = ""
    room: str = ""
    trick: int | None = None
    seat: int | None = None
    suit: int | None = None  # the suit facts
    card: int | None = None  # penalty-card
    grade: str = ""  # penalty-card: major / minor
    discovered: str = ""  # discovered: table / after-round

    def value(self) -> str:
        """The value as the log gives it, normalised: ``D8 major``, ``H``, ``after-round``."""
        if self.fact == PENALTY_CARD:
            return f"{card_str(self.card)} {self.grade}"
        if self.fact == DISCOVERED:
            return self.discovered
        return SUITS[self.suit]

    def describe(self) -> str:
        """``trick 4, East: penalty-card C6 major`` (for explain and messages)."""
        who = [f"trick {self.trick}" if self.trick is not None else "",
               seat_name(self.seat) if self.seat is not None else ""]
        head = ", ".join(x for x in who if x)
        return f"{head + ': ' if head else ''}{self.fact} {self.value()}"

    def keys(self) -> str:
        """The board the row names: ``source club.pbn, board 14`` (``every board`` if none)."""
        keys = [f"{k} {v}" for k, v in (("source", self.source), ("event", self.event),
                                         ("board", self.board), ("room", self.room)) if v]
        return ", ".join(keys) or "every board"

    def matches(self, record: BoardRecord) -> bool:
        """Every key given equals the record's (source on its base name; board numbers as
        numbers; event and room ignoring case)."""
        mine = _keys(self.source, self.event, self.board, self.room)
        theirs = _keys(record.source, record.event, record.board, record.room)
        return all(k is None or k == t for k, t in zip(mine, theirs))


@dataclass
class BoardFacts:
    """The log's rows that match one board: the obligations, and the discovery to rule under."""

    log: str
    rows: list[FactRow] = field(default_factory=list)  # all but ``discovered``
    discovered: str | None = None
    discovered_line: int | None = None
    findings: list[Finding] = field(default_factory=list)  # RC040: rows that contradict
    lines: set[int] = field(default_factory=set)  # every matching row's line

    def note(self, line: int, message: str, record_line: int | None = None) -> None:
        """An ``RC040`` finding naming the log's file and line."""
        self.findings.append(Finding(LOG_CODE, f"director's log {self.log} line {line}: "
                                     f"{message}", record_line, log_line=line))


class TableFacts:
    """A director's log, read and checked (``read_table_facts``).

    Its rows are held in a few bytes each (the line, and numbers standing for the keys and for
    the fact, which rows naming the same board or stating the same fact share) and indexed by
    the keys they give: a board looks up the rows that name it, in constant time however long
    the log, and a ``FactRow`` is built only for a row asked for."""

    def __init__(self, path: str, rows: Iterable[FactRow] = ()) -> None:
        self.path = path
        self._lines = array("q")  # per row: its line, its keys' number, its fact's number
        self._key_of = array("l")
        self._fact_of = array("l")
        self._keys: dict[tuple[str, ...], int] = {}  # (source, event, board, room) -> number
        self._key_list: list[tuple[str, ...]] = []
        self._facts: dict[tuple, int] = {}  # FACT_FIELDS -> number
        self._fact_list: list[tuple] = []
        self._rows_of: list[array] = []  # a keys' number -> its rows
        # which keys are given (a mask) -> those keys, as matched -> their keys' numbers
        self._index: dict[tuple[bool, ...], dict[tuple[str, ...], list[int]]] = {}
        for row in rows:
            self._add(row.line, (row.source, row.event, row.board, row.room),
                      tuple(getattr(row, f) for f in FACT_FIELDS))

    def _add(self, line: int, keys: tuple[str, ...], fact: tuple) -> None:
        """One row: its line, its keys (``KEY_COLUMNS``), its fact (``FACT_FIELDS``)."""
        key = self._keys.get(keys)
        if key is None:
            key = self._keys[keys] = len(self._key_list)
            self._key_list.append(keys)
            self._rows_of.append(array("l"))
            wanted = _keys(*keys)
            self._index.setdefault(tuple(k is not None for k in wanted), {}).setdefault(
                tuple(k for k in wanted if k is not None), []).append(key)
        number = self._facts.get(fact)
        if number is None:
            number = self._facts[fact] = len(self._fact_list)
            self._fact_list.append(fact)
        self._rows_of[key].append(len(self._lines))
        self._lines.append(line)
        self._key_of.append(key)
        self._fact_of.append(number)

    @property
    def count(self) -> int:
        """The number of rows."""
        return len(self._lines)

    def _row(self, i: int) -> FactRow:
        fact, *rest = self._fact_list[self._fact_of[i]]
        return FactRow(self._lines[i], fact, *self._key_list[self._key_of[i]], *rest)

    @property
    def rows(self) -> tuple[FactRow, ...]:
        """Every row, in the log's order (each built anew: for a small log)."""
        return tuple(map(self._row, range(self.count)))

    def _matching_keys(self, source: str, event: str, board: str, room: str) -> Iterator[int]:
        """The numbers of the keys a board with these keys matches: a look-up for each
        combination of keys the log's rows give (at most 16)."""
        theirs = _keys(source, event, board, room)
        for mask, table in self._index.items():
            yield from table.get(tuple(k for k, m in zip(theirs, mask) if m), ())

    def _matching(self, source: str, event: str, board: str, room: str) -> list[int]:
        """The rows (their positions, in the log's order) whose keys a board matches."""
        found: list[int] = []
        for key in self._matching_keys(source, event, board, room):
            found.extend(self._rows_of[key])
        if len(found) > 1:
            found.sort()
        return found

    def names(self, source: str, event: str, board: str, room: str) -> bool:
        """Whether a row of the log names the board with these keys (else the log changes
        nothing for it: ``lane`` may give its row)."""
        return next(self._matching_keys(source, event, board, room), None) is not None

    def for_board(self, record: BoardRecord) -> BoardFacts:
        """The rows that match ``record`` (none for an unreadable record).  Two ``discovered``
        rows that disagree: the later one applies, and an ``RC040`` finding says so."""
        facts = BoardFacts(self.path)
        if record.unreadable:
            return facts
        for i in self._matching(record.source, record.event, record.board, record.room):
            row = self._row(i)
            facts.lines.add(row.line)
            if row.fact != DISCOVERED:
                facts.rows.append(row)
                continue
            if facts.discovered is not None and facts.discovered != row.discovered:
                facts.note(row.line, f"discovered {row.discovered} contradicts line "
                           f"{facts.discovered_line} ({facts.discovered}) for this board; line "
                           f"{row.line} applies", record.line)
            facts.discovered, facts.discovered_line = row.discovered, row.line
        return facts

    def unmatched(self, matched: Iterable[int]) -> Iterator[tuple[FactRow, Finding]]:
        """The rows no board matched, each with its ``RC040`` finding, one after another."""
        seen = set(matched)
        named: dict[int, str] = {}  # a keys' number -> row.keys(), said once
        described: dict[int, str] = {}  # a fact's number -> row.describe()
        for i, line in enumerate(self._lines):
            if line in seen:
                continue
            row = self._row(i)
            key, fact = self._key_of[i], self._fact_of[i]
            keys = named.get(key) or named.setdefault(key, row.keys())
            what = described.get(fact) or described.setdefault(fact, row.describe())
            yield row, Finding(LOG_CODE, f"director's log {self.path} line {line}: no board in "
                               f"the input matches ({keys}); the row ({what}) is ignored",
                               line, log_line=line)


def _keys(source: str, event: str, board: str, room: str) -> tuple[str | None, ...]:
    """A board's keys as rows are matched on them (None for a key not given): the source's
    base name (inside an archive too; a name that is not UTF-8 as the reports show it), the
    event and room ignoring case, a board number as a number."""
    board = board.strip()
    return (_source_key(source) if source else None,
            event.strip().casefold() if event else None,
            _board_number(board) if board else None,
            room.strip().casefold() if room else None)


def _board_number(board: str) -> str:
    """A board number as a number (``07`` is ``7``; any script's digits), without ``int``'s
    4,300-digit limit (a cell of thousands of digits is only a board no record matches)."""
    if not board.isdecimal():
        return board.casefold()
    if len(board) > 64:
        return board.lstrip("0") or "0"
    return str(int(board))


@lru_cache(maxsize=256)
def _source_key(source: str) -> str:
    """A source as rows name it: its base name, shown as the reports show it (asked for each
    board of a file: kept)."""
    return decodable(_base(source))


def _base(path: str) -> str:
    """The file name at the end of a path or of an archive member (``a.zip!x/b.pbn`` -> b.pbn)."""
    return os.path.basename(path.replace("\\", "/").rsplit("!", 1)[-1])


# --- reading -------------------------------------------------------------------------------

def read_table_facts(path: str | os.PathLike) -> TableFacts:
    """Read and check a director's log; ``TableFactsError`` (with the line) if it is
    malformed or cannot be read."""
    name = os.fspath(path)
    try:
        with open(name, encoding="utf-8-sig", newline="") as fh:
            log = TableFacts(name)
            for line, keys, fact in _rows(name, fh):
                log._add(line, keys, fact)
            return log
    except UnicodeDecodeError as exc:
        raise TableFactsError(name, None, f"not UTF-8 text ({exc.reason})") from exc
    except OSError as exc:
        raise TableFactsError(name, None, f"cannot read the director's log: "
                              f"{exc.strerror or exc}") from exc


def _rows(path: str, fh) -> Iterator[tuple[int, tuple[str, ...], tuple]]:
    """Each row, checked: its line, its keys (``KEY_COLUMNS``) and its fact (``FACT_FIELDS``);
    a fact stated as an earlier row stated it is checked once."""
    reader = csv.reader(fh)
    header = _next_cells(path, reader)
    if header is None:
        raise TableFactsError(path, None, "empty: a header row is needed ("
                              + ", ".join(KEY_COLUMNS + FACT_COLUMNS) + ")")
    names = [h.strip().casefold() for h in header]
    missing = [c for c in KEY_COLUMNS + FACT_COLUMNS if c not in names]
    if missing:
        plural = "s" if len(missing) > 1 else ""
        raise TableFactsError(path, reader.line_num, f"missing column{plural} "
                              f"{', '.join(missing)} (the header needs "
                              f"{', '.join(KEY_COLUMNS + FACT_COLUMNS)})")
    key_at = [names.index(c) for c in KEY_COLUMNS]
    fact_at = [names.index(c) for c in FACT_COLUMNS]
    checked: dict[tuple[str, ...], tuple] = {}
    while True:
        line = reader.line_num + 1
        cells = _next_cells(path, reader)
        if cells is None:
            return
        if not any(c.strip() for c in cells):
            continue
        n = len(cells)
        keys = tuple(cells[i].strip() if i < n else "" for i in key_at)
        said = tuple(cells[i].strip() if i < n else "" for i in fact_at)
        fact = checked.get(said)
        if fact is None:
            row = _row(path, line, dict(zip(FACT_COLUMNS, said)))
            fact = checked[said] = tuple(getattr(row, f) for f in FACT_FIELDS)
        yield line, keys, fact


def _next_cells(path: str, reader) -> list[str] | None:
    """The next row's cells (None at the end); a row the csv module cannot read (a cell over
    its field limit, 128 KiB) is a ``TableFactsError`` naming the line."""
    line = reader.line_num + 1
    try:
        return next(reader, None)
    except csv.Error as exc:
        raise TableFactsError(path, line, f"unreadable CSV: {exc}") from exc


def _row(path: str, line: int, got: dict[str, str]) -> FactRow:
    """One row's fact columns checked (its keys left empty): every complaint is a
    ``TableFactsError`` naming the line."""
    def fail(message: str) -> TableFactsError:
        return TableFactsError(path, line, message)

    fact = got["fact"].casefold()
    if fact not in FACTS:
        raise fail(f"unknown fact '{got['fact']}' (one of {', '.join(FACTS)})")
    trick = _trick(got["trick"], fail)
    seat = _seat(got["seat"], fail)
    value = got["value"]
    if fact == DISCOVERED:
        if value.casefold() not in DISCOVERY:
            raise fail(f"discovered value '{value}' is not table or after-round")
        return FactRow(line, fact, trick=trick, seat=seat, discovered=value.casefold())
    if trick is None or seat is None:
        raise fail(f"{fact} needs a trick (0-13) and a seat (N, E, S or W)")
    if fact in (PLAY_HIGHEST, PLAY_LOWEST) and trick == 0:
        raise fail(f"{fact} needs a trick 1-13: no card is played during the auction")
    if fact == PENALTY_CARD:
        card, grade = _penalty_value(value, fail)
        return FactRow(line, fact, trick=trick, seat=seat, card=card, grade=grade)
    return FactRow(line, fact, trick=trick, seat=seat, suit=_suit(fact, value, fail))


def _trick(text: str, fail) -> int | None:
    if not text:
        return None
    if not text.isdigit() or len(text) > 8 or not 0 <= int(text) <= 13:
        shown = text if len(text) <= 20 else text[:20] + "..."
        raise fail(f"trick '{shown}' is not a number 0-13 (0 = during the auction)")
    return int(text)


def _seat(text: str, fail) -> int | None:
    if not text:
        return None
    seat = parse_seat(text)
    if seat is None:
        raise fail(f"seat '{text}' is not N, E, S or W")
    return seat


def _penalty_value(text: str, fail) -> tuple[int, str]:
    parts = text.split()
    card = parse_card(parts[0]) if parts else None
    if card is None or len(parts) != 2 or parts[1].casefold() not in GRADES:
        raise fail(f"penalty-card value '{text}' is not a card and major or minor (e.g. D8 major)")
    return card, parts[1].casefold()


def _suit(fact: str, text: str, fail) -> int:
    word = text.strip().casefold()
    if len(word) == 1 and word.upper() in SUITS:
        return SUITS.index(word.upper())
    if word in _SUIT_WORDS:
        return _SUIT_WORDS[word]
    raise fail(f"{fact} value '{text}' is not a suit (S, H, D or C)")


__all__ = ["TableFacts", "TableFactsError", "FactRow", "BoardFacts", "read_table_facts", "FACTS",
           "KEY_COLUMNS", "FACT_COLUMNS", "LOG_CODE"]
