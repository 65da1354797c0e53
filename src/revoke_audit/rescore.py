"""Fields after the run: every board's result at every table of its event, scored as a field
(matchpoints, cross-IMPs, Butler, teams: ``scoring.field``), before and after the audit's
adjustments.

The per-board work streams as it always has; this module only watches the rows go by
(``Fields.noted``), keeping a few values of each board that has a duplicate score (memory grows
with those boards, not with the file), and scores the fields once the last board is audited.
A board's field: the boards of one event (``Event``, ``Section`` when present, ``Date``) with
the same board number, across every input of the run.  The figures are the last columns of
boards.csv (``rows.FIELD_COLUMNS``); a report of boards waits for them on disk
(``Deferred``), and is written, figures filled in, when the run commits.

A club scorer's choices where the issue leaves them open: a board whose event has no field at
all (a hand record of one table) is simply not scored, without a note; a board of a scored
event whose field has one result gets SC001.  Two records of one table (the same players, room
and result) count once, and both rows get the figures."""
from __future__ import annotations

import csv
import pickle
import tempfile
from collections import defaultdict
from operator import itemgetter
from contextlib import contextmanager
from typing import IO, Iterable, Iterator, NamedTuple

from .cards import SEATS
from .report import _FORMULA_START, Reports, safe_cell
from .targets import ReportError
from .rows import (BOARD_COLUMNS, FIELD_COLUMNS, FINDING_COLUMNS, CleanRun, LeanRow,
                   Rendered, run_tags)
from .scoring import score_ns
from .scoring.field import butler, cross_imps, mp_percentages, teams
from .scoring.scoretable import check, own_row, parse_table, scores, table_method

METHODS = ("mp", "cross-imp", "butler", "teams")
_NO_TEAMS = ("", "")
# the cells kept as text, which repeat from board to board: one copy of each
_SHARED = ("source", "event", "date", "room", "declarer", "contract", "north", "east", "south",
           "west", "vul")
_ROOMS = ("open", "closed")
_WANTED = ("source", "line", "game", "event", "date", "board", "room", "vul", "declarer",
           "contract", "play", "tricks_stated", "score_ns", "score_ns_adjusted", "status",
           "scoring", "north", "east", "south", "west")
_CELLS = itemgetter(*(BOARD_COLUMNS.index(c) for c in _WANTED))  # of a boards.csv line
_ROW = itemgetter(*_WANTED)  # of a row


class Entry(NamedTuple):
    """One table's result of a board, as its field needs it."""

    ordinal: int  # the board's place among the run's board rows
    source: str
    line: int
    game: int
    room: str
    match: str  # the teams match it belongs to: its tags, else its file
    before: int  # N-S score as played (or as stated, no play recorded)
    after: int  # N-S score as the audit adjusts it
    names: tuple[str, str, str, str]
    scoring: str  # the record's Scoring tag
    teams: tuple[str, str]  # HomeTeam, VisitTeam: N-S and E-W of the open room
    contract: str  # as boards.csv writes it, and its declarer (N E S W): to find its row
    declarer: str  # in a ScoreTable
    table: tuple[str, tuple[str, ...]] | None  # its PBN ScoreTable: the tag, the lines
    vul: str = ""  # as boards.csv writes it: with contract and score, the result shown


class Result(NamedTuple):
    """One table's figures for N-S, unrounded, as the standings add them up."""

    key: tuple[str, str, str, str]  # event, section, date, board
    entry: Entry
    method: str
    before: float
    after: float


class Scored(NamedTuple):
    """The figures of every scored board (by ordinal: its ``FIELD_COLUMNS`` values), the notes
    (findings.csv rows) of the boards that could not be scored, and every table's figures
    (``Result``) for the standings."""

    figures: dict[int, tuple]  # by ordinal: the values of FIELD_COLUMNS
    notes: list[dict[str, object]]
    results: list[Result]
    largest: dict[tuple[str, str, str], int] = {}  # each event's largest matchpoint field
    trim: int = 1  # the Butler datum's


class Fields:
    """The run's fields, gathered from its rows (``noted``) and scored at the end (``score``).

    ``method``: one of ``METHODS`` for every field (``--scoring``), else chosen per field from
    its records; ``trim``: the Butler datum leaves out that many top and bottom results."""

    def __init__(self, method: str | None = None, trim: int = 1) -> None:
        if method is not None and method not in METHODS:
            raise ValueError(f"unknown scoring method {method!r}; choose one of {METHODS}")
        self.method, self.trim = method, trim
        self.boards: dict[tuple[str, str, str, str], list[Entry]] = defaultdict(list)
        self._next = 0  # the ordinal of the next board row
        self._strings: dict[str, str] = {}  # one copy of each name, source, event ...
        self._keys: dict[tuple, tuple] = {}  # one copy of each field's key

    def noted(self, rendered: Iterable[Rendered]) -> Iterator[Rendered]:
        """``rendered`` as it is, each board's values kept; after the last board, the notes
        of the fields that cannot be scored (one item without a board row)."""
        for r in rendered:
            if r.row is not None:
                self.add(r)
            yield r
        notes = self.score().notes
        if notes:
            yield Rendered(None, notes)

    def add(self, r: Rendered) -> None:
        """The board (or boards, a ``CleanRun``) of ``r``, at the next ordinals."""
        tags = run_tags(r)
        for i, values in enumerate(_board_values(r)):
            self._add(self._next + i, values, tags.get(i))
        self._next += r.boards

    def _add(self, ordinal: int, cells: tuple[str, ...], tags) -> None:
        v = dict(zip(_WANTED, cells))
        if v["status"] == "unreadable" or v["scoring"] != "duplicate" or not v["board"]:
            return
        before, after = _score(v, "score_ns"), _score(v, "score_ns_adjusted")
        if before is None or after is None:
            return
        one = self._strings.setdefault
        v.update((c, one(_text(v[c]), _text(v[c]))) for c in _SHARED)
        section, scoring, match, table = tags if tags is not None else ("", "", "", None)
        board = v["board"].strip()
        key = (v["event"], one(section, section), v["date"], one(board, board))
        key = self._keys.setdefault(key, key)
        names = (v["north"], v["east"], v["south"], v["west"])
        teams = tuple(match.split("|")[:2]) if match else _NO_TEAMS
        self.boards[key].append(Entry(ordinal, v["source"], int(v["line"] or 0),
                                      int(v["game"] or 0), v["room"], match or v["source"],
                                      before, after, names, one(scoring, scoring), teams,
                                      v["contract"], v["declarer"], table, v["vul"]))

    def score(self) -> Scored:
        """Every field scored (once: the result is kept)."""
        if getattr(self, "_scored", None) is None:
            self._scored = _score_all(self.boards, self.method, self.trim)
        return self._scored


def _board_values(r: Rendered) -> Iterator[tuple[str, ...]]:
    """The wanted cells (``_WANTED``) of each board of ``r``, as boards.csv writes them."""
    if type(r) is CleanRun or type(r.row) is LeanRow:
        text = r.csv[0] if r.csv is not None else ""
        yield from map(_CELLS, csv.reader(text.splitlines()))
        return
    yield tuple(_text(safe_cell(v)) for v in _ROW(r.row))


def _text(value: object) -> str:
    """A cell as boards.csv writes it (control characters escaped), without the quote that
    keeps a spreadsheet from reading a name as a formula: the same from a row or a line."""
    text = "" if value is None else str(value)
    if text[:1] == "'" and text[1:2] in _FORMULA_START:
        return text[1:]
    return text


def _score(v: dict[str, str], column: str) -> int | None:
    """The board's N-S score in ``column``; with no play recorded, its stated result's."""
    if v[column]:
        return int(v[column])
    if v["play"] == "none" and v["tricks_stated"] and v["contract"]:
        declarer = SEATS.index(v["declarer"]) if v["declarer"] in SEATS else None
        return score_ns(v["contract"], declarer, v["vul"] or None, int(v["tricks_stated"]))
    return None


# --- scoring the fields -------------------------------------------------------------------

def _score_all(boards: dict[tuple, list[Entry]], method: str | None, trim: int) -> Scored:
    figures: dict[int, tuple] = {}
    notes: list[dict[str, object]] = []
    results: list[Result] = []
    for key, entries in boards.items():
        for e in entries:
            if e.table is not None:
                figures.update(_score_on_table(key, e, method, trim, notes, results))
    fields = {key: _counted_once([e for e in entries if e.table is None])
              for key, entries in boards.items()}
    scored_events = {key[:3] for key, (entries, _) in fields.items() if len(entries) > 1}
    largest: dict[tuple, int] = defaultdict(int)
    methods = {key: method or _method(entries) for key, (entries, _) in fields.items()}
    for key, (entries, _) in fields.items():
        if methods[key] == "mp":
            largest[key[:3]] = max(largest[key[:3]], len(entries))
    for key, (entries, copies) in fields.items():
        if key[:3] not in scored_events:
            continue  # an event with no field: a hand record, not a session
        got = _score_field(key, entries, methods[key], largest[key[:3]], trim, notes, results)
        for ordinal, first in copies.items():
            if first in got:
                got[ordinal] = got[first]
        figures.update(got)
    notes.extend(_note(r.entry, r.key, "SC003", f"board {r.key[3]} is scored, but its players "
                       "are not all named: this table's pairs cannot be followed across boards "
                       "and are left out of the standings")
                 for r in results if not all(r.entry.names))
    return Scored(figures, notes, results, dict(largest), trim)


def _score_on_table(key: tuple, e: Entry, method: str | None, trim: int, notes: list,
                    results: list[Result]) -> dict[int, tuple]:
    """A record with a PBN ScoreTable, scored on it: its own row (found by its score,
    contract and declarer; rows alike are interchangeable) takes its score before and after
    the adjustments; the program's own figures are checked against ours (SC005)."""
    table = parse_table(e.table[0], e.table[1])
    field = scores(table) if table is not None else None
    if not field:
        notes.append(_note(e, key, "SC004", f"board {key[3]}: its ScoreTable cannot be read "
                           "(a row that is not its columns, or no Score_NS): not scored"))
        return {}
    mine = own_row(table, e.before, e.contract, e.declarer)
    if mine is None:
        notes.append(_note(e, key, "SC004", f"board {key[3]}: the record's own row (N-S "
                           f"{e.before:+d}, {e.contract} by {e.declarer}) is not in its "
                           "ScoreTable: not scored"))
        return {}
    if len(field) < 2:
        return {}
    at = field.index(e.before)
    after = field[:at] + [e.after] + field[at + 1:]
    name = method or table_method(table, e.scoring)
    got = check(table)
    if got is not None and not got.agree:
        notes.append(_note(e, key, "SC005", f"board {key[3]}: the scoring program's "
                           f"{got.column} for N-S {got.score:+d} is {got.theirs}, ours "
                           f"{got.ours} ({got.reason})"))
    n = len(field)
    if name == "teams":
        name = "cross-imp"
    pair = (field_figures(name, field, trim)[at], field_figures(name, after, trim)[at])
    results.append(Result(key, e, name, *pair))
    if name == "mp":
        return {e.ordinal: _cells(n, name, mp=pair)}
    return {e.ordinal: _cells(n, name, imps=pair)}


def field_figures(method: str, scores: list[int], trim: int = 1,
                  largest: int | None = None) -> list[float]:
    """Each score's figure for N-S in a field of ``scores`` by ``method`` (``mp`` with
    ``largest``: Neuberg's; ``cross-imp``, ``butler`` with ``trim``)."""
    if method.startswith("mp"):
        return mp_percentages(scores, largest)
    if method == "butler":
        return butler(scores, trim)
    return cross_imps(scores)


def place(source: object, line: object, game: object) -> tuple[str, int, int]:
    """A board's place (source, line, game) as its ``Entry`` keeps it, from its row's values."""
    return _text(safe_cell(source)), int(line or 0), int(game or 0)


def _counted_once(entries: list[Entry]) -> tuple[list[Entry], dict[int, int]]:
    """The field's results, a record read twice (same room, players and result) once; and the
    copies' ordinals, each to its first's."""
    first: dict[tuple, int] = {}
    kept, copies = [], {}
    for e in entries:
        if not any(e.names):
            kept.append(e)
            continue
        same = (e.room.lower(), e.names, e.before, e.after)
        if same in first:
            copies[e.ordinal] = first[same]
            continue
        first[same] = e.ordinal
        kept.append(e)
    return kept, copies


def _method(entries: list[Entry]) -> str:
    """The method a field's records ask for: their ``Scoring`` tag, else two rooms (Open,
    Closed) of a match make teams, else matchpoints."""
    tag = next((e.scoring.lower() for e in entries if e.scoring), "")
    rooms = all(e.room.lower() in _ROOMS for e in entries)
    if "butler" in tag:
        return "butler"
    if "cross" in tag:
        return "cross-imp"
    if "imp" in tag:
        return "teams" if rooms else "cross-imp"
    if tag:
        return "mp"
    return "teams" if rooms else "mp"


def _score_field(key: tuple, entries: list[Entry], method: str, largest: int, trim: int,
                 notes: list[dict[str, object]], results: list[Result]
                 ) -> dict[int, tuple]:
    """The figures of one field by its entries' ordinals; notes for what cannot be scored;
    each table's ``Result`` added to ``results``."""
    if _same_pair_twice(entries):
        notes.extend(_note(e, key, "SC002", "the same players sit at two tables of board "
                           f"{key[3]} with different results: the field cannot be told apart; "
                           "its figures stay empty") for e in entries)
        return {}
    if method == "teams":
        return _score_teams(key, entries, notes, results)
    if len(entries) < 2:
        notes.extend(_note(e, key, "SC001", f"board {key[3]} has no other result in the run "
                           "to compare with: its figures stay empty") for e in entries)
        return {}
    before = [e.before for e in entries]
    after = [e.after for e in entries]
    n = len(entries)
    if method == "mp":
        name = "mp-neuberg" if largest > n else "mp"
        pairs = list(zip(mp_percentages(before, largest), mp_percentages(after, largest)))
        results.extend(Result(key, e, name, *p) for e, p in zip(entries, pairs))
        return {e.ordinal: _cells(n, name, mp=p) for e, p in zip(entries, pairs)}
    imps = cross_imps if method == "cross-imp" else lambda s: butler(s, trim)
    pairs = list(zip(imps(before), imps(after)))
    results.extend(Result(key, e, method, *p) for e, p in zip(entries, pairs))
    return {e.ordinal: _cells(n, method, imps=p) for e, p in zip(entries, pairs)}


def _score_teams(key: tuple, entries: list[Entry], notes: list, results: list[Result]
                 ) -> dict[int, dict]:
    """Each match's two rooms on the IMP scale; a match without both rooms is a note."""
    matches: dict[str, list[Entry]] = defaultdict(list)
    for e in entries:
        matches[e.match].append(e)
    out = {}
    for rooms in matches.values():
        named = sorted(rooms, key=lambda e: e.room.lower() != "open")
        if len(rooms) != 2 or sorted(e.room.lower() for e in rooms) != ["closed", "open"]:
            notes.extend(_note(e, key, "SC001", f"board {key[3]} of a teams match needs its "
                               "open and closed rooms, once each: its figures stay empty")
                         for e in rooms)
            continue
        o, c = named
        before, after = teams(o.before, c.before), teams(o.after, c.after)
        out[o.ordinal] = _cells(2, "teams", imps=(before[0], after[0]))
        out[c.ordinal] = _cells(2, "teams", imps=(before[1], after[1]))
        results.append(Result(key, o, "teams", before[0], after[0]))
        results.append(Result(key, c, "teams", before[1], after[1]))
    return out


def _same_pair_twice(entries: list[Entry]) -> bool:
    """Two tables of the field with the same players (all named): not one session's board."""
    seen = [e.names for e in entries if all(e.names)]
    return len(seen) != len(set(seen))


def _cells(n: int, method: str, mp: tuple[float, float] | None = None,
           imps: tuple[float, float] | None = None) -> tuple:
    """A board's figures, the values of ``FIELD_COLUMNS`` in order."""
    return (n, *(_two(x) for x in (mp or (None, None))),
            *(_two(x) for x in (imps or (None, None))), method)


def _two(x: float | None) -> float | None:
    return None if x is None else round(float(x), 2)


def _note(e: Entry, key: tuple, code: str, message: str) -> dict[str, object]:
    out: dict[str, object] = dict.fromkeys(FINDING_COLUMNS)
    out.update(source=e.source, line=e.line, game=e.game, board=key[3], room=e.room, code=code,
               law="", seat="", role="", suit_led="", card="", held="", message=message)
    return out


# --- the reports, figures filled in ---------------------------------------------------------

class Deferred:
    """The run's reports held on disk (a temporary file of pickled items) until the fields
    are scored, then written with their figures (``replay``, ``commit``); reports without
    boards are written as they come.  ``hold``: a document of stdout that shows boards (JSON)
    waits too, and is written from ``replay``'s items."""

    def __init__(self, reports: Reports, fields: Fields, hold: str | None = None) -> None:
        self.reports, self.fields = reports, fields
        self._spool: IO[bytes] | None = None
        if reports.boards or hold:
            held = " and ".join([r.name for r in reports.boards[:1]] + ([hold] if hold else []))
            self.name = f"{held} (spooled in {tempfile.gettempdir()})"
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
        """Every item written to the reports (``replay``, if not done), the reports
        committed."""
        for _ in self.replay():
            pass
        self.reports.commit(documents)


def with_figures(r: Rendered, ordinal: int, figures: dict[int, tuple]) -> None:
    """``r`` (its boards at ``ordinal`` onwards) with the figures of those that have them, in
    its row and its CSV lines."""
    if not any(ordinal + i in figures for i in range(r.boards)):
        return
    if type(r.row) is not LeanRow:
        r.row.update(zip(FIELD_COLUMNS, figures[ordinal]))
    if r.csv is None:
        return
    lines = r.csv[0].splitlines(keepends=True)
    for i, line in enumerate(lines):
        cells = figures.get(ordinal + i)
        if cells is not None:
            lines[i] = _patched(line, cells)
    r.csv = ("".join(lines), r.csv[1])


def _patched(line: str, cells: tuple) -> str:
    """A boards.csv line ending in the empty field cells, with ``cells`` instead."""
    empty = "," * len(FIELD_COLUMNS) + "\n"
    if not line.endswith(empty):
        raise ValueError("a boards.csv line without its empty field cells")
    text = ",".join("" if v is None else str(v) for v in cells)
    return line[:-len(empty)] + "," + text + "\n"
