"""Fields after the run: every board's result at every table of its event, scored as a field
(matchpoints, cross-IMPs, Butler, teams: ``scoring.field``), before and after the audit's
adjustments.

The per-board work streams as it always has; the report layer gathers a few numbers of each
board that has a duplicate score from its row (``reports.gather``) into ``Fields``, which
keeps them on disk (``store``: a temporary SQLite database) and scores the fields once the
last board is audited: only those of the events where a board was played twice, each field
read back in turn and each table made an ``Entry`` only then.  A board's field: the boards of
one event (``Event``, ``Section`` when present, ``Date``) with the same board number, across
every input of the run.  The figures are the last columns of boards.csv (``FIELD_COLUMNS``):
a boards.csv file is written as the boards come and its figure cells filled in when the run
commits (a streaming copy, only when a field was scored); any other report of boards waits
for them on disk (``reports.field_reports.Deferred``).

A club scorer's choices where the issue leaves them open: a board whose event has no field at
all (a hand record of one table) is simply not scored, without a note; a board of a scored
event whose field has one result gets SC001.  Two records of one table (the same players, room
and result) count once, and both rows get the figures."""
from __future__ import annotations

from itertools import groupby
from operator import itemgetter
from typing import Callable, Iterable, Iterator, Mapping, NamedTuple, Sequence

from . import score_ns
from ..core.cards import SEATS
from ..core.visible import QUOTED_START, safe_cell
from .by_entries import (ROOMS, field_figures, method_asked, method_of, once, room_notes,
                         score_field, score_on_table, table_figures)
from .figures import Figures, Result, Results
from .field_rows import (FIELD, GAME, IDX, LINE, NAMES, ORDINAL, ROW, TEXTS, plain,
                         teams as teams_of)
from .field_rows import field_figures as figures_of
from .notes import FIELDS, TABLES, UNNAMED, Note, Notes, note as _note, summary
from .store import Store, table_of

__all__ = ["METHODS", "Entry", "Fields", "Figures", "Note", "Result", "Results", "Scored",
           "field_figures", "place", "summary", "table_figures"]

METHODS = ("mp", "cross-imp", "butler", "teams")
_NO_TEAMS = ("", "")


class Entry(NamedTuple):
    """One table's result of a board, as its field needs it."""

    ordinal: int  # the board's place among the run's board rows
    source: str
    line: int
    game: int
    room: str
    match: str  # the teams match it belongs to: its tags, else its file
    before: int  # N-S score as played (or as stated, no play recorded)
    after: int  # N-S score as the audit adjusts it (Law 64C's where it assigns one)
    names: tuple[str, str, str, str]
    scoring: str  # the record's Scoring tag
    teams: tuple[str, str]  # HomeTeam, VisitTeam: N-S and E-W of the open room
    contract: str  # as boards.csv writes it, and its declarer (N E S W): to find its row
    declarer: str  # in a ScoreTable
    table: tuple[str, tuple[str, ...]] | None  # its PBN ScoreTable: the tag, the lines
    vul: str = ""  # as boards.csv writes it: with contract and score, the result shown
    index: int = -1  # its place among the run's entries (``Fields``)


_new = tuple.__new__  # an ``Entry`` made from its values in order, without checking them


class Scored(NamedTuple):
    """The figures of every scored board (``Figures``, by ordinal), the notes (findings.csv
    rows) of the boards that could not be scored, and every table's figures (``Result``) for
    the standings."""

    figures: Figures
    notes: Notes  # read back in order, each a findings row (``Note``)
    results: Results
    largest: dict[tuple[str, str, str], int] = {}  # each event's largest matchpoint field
    trim: int = 1  # the Butler datum's


class Fields:
    """The run's fields, gathered from its rows (``add``, by ``reports.gather``) and scored
    at the end (``score``); ``close`` removes what waited on disk.

    ``method``: one of ``METHODS`` for every field (``--scoring``), else chosen per field from
    its records; ``trim``: the Butler datum leaves out that many top and bottom results.
    ``boards``: the board rows seen so far (the next board's ordinal)."""

    def __init__(self, method: str | None = None, trim: int = 1) -> None:
        if method is not None and method not in METHODS:
            raise ValueError(f"unknown scoring method {method!r}; choose one of {METHODS}")
        self.method, self.trim = method, trim
        self.boards = 0
        self._store = Store()
        self._made: dict[int, tuple] = {}  # ``_texts``
        self._scored: Scored | None = None
        #: reads a batch of deferred lines (place, ordinal, line) into entries (``defer``)
        self.read_back: Callable[["Fields", list[tuple[int, int, str]]], None] | None = None

    def add(self, ordinals: Iterable[int], events: Iterable[tuple[str, str, str]],
            boards: Iterable[str], before: Iterable[int], after: Iterable[int],
            lines: Iterable[int], games: Iterable[int], texts: Iterable[tuple],
            names: Iterable[tuple], tables: Iterable[tuple | None]) -> None:
        """Boards with a duplicate score as columns (``Store.add``): ``texts`` each board's
        source, room, match, Scoring tag, contract, declarer and vul."""
        self._store.add(ordinals, events, boards, before, after, lines, games, texts, names,
                        tables)

    def add_at(self, indexes: Sequence[int], ordinals: Iterable[int],
               *columns: Iterable) -> None:
        """Deferred boards read back (``read_back``) at the places ``defer`` kept: the
        columns of ``add`` after ``ordinals``."""
        self._store.add(ordinals, *columns, indexes=indexes)

    def defer(self, ordinals: Sequence[int], events: Sequence[tuple[str, str, str]],
              boards: Sequence[str], lines: Sequence[str],
              read_back: Callable[["Fields", list[tuple[int, int, str]]], None]) -> None:
        """Boards with a duplicate score kept as their boards.csv lines (``Store.defer``),
        read back by ``read_back`` (into ``add_at``) at the end only when their field may be
        scored: a board alone in its field costs its key and its line on disk.  The lines
        of an event already known to be scored are read back at once (``Store.defer``)."""
        self.read_back = read_back
        now = self._store.defer(ordinals, events, boards, lines)
        if now:
            read_back(self, now)

    def __len__(self) -> int:
        """The entries kept: boards with a duplicate score."""
        return self._store.count

    def entry(self, row: tuple) -> Entry:
        """An entry's row (``store.ENTRY``) as an ``Entry``."""
        (index, ordinal, _field, before, after, line, game, texts, contract, declarer, vul,
         names, table) = row
        source, room, match, scoring, teams = self._made.get(texts) or self._texts(texts)
        return _new(Entry, (ordinal, source, line, game, room, match, before, after,
                            self._store.shared[names], scoring, teams, contract, declarer,
                            None if table is None else table_of(table), vul, index))

    def _texts(self, number: int) -> tuple:
        """An entry's shared texts as ``Entry`` takes them (its match, else its file; its
        teams), made once for all the entries that share them."""
        got = self._made.get(number)
        if got is None:
            source, room, match, scoring = self._store.shared[number]
            teams = tuple(match.split("|")[:2]) if match else _NO_TEAMS
            if not any(teams):  # a match whose teams are not named: its file (and round)
                match = f"{source}|{match}" if match else source
            got = self._made[number] = (source, room, match, scoring, teams)
        return got

    def fields(self) -> Iterator[tuple[tuple[str, str, str, str], list[Entry]]]:
        """Each field that may be scored (``Store.members``): its key and its entries."""
        for field, rows in groupby(self._store.members(), key=itemgetter(2)):
            yield self._store.key(field), list(map(self.entry, rows))

    def score(self) -> Scored:
        """Every field scored (once: the result is kept until ``close``)."""
        if self._scored is None:
            if self.read_back is not None:
                for batch in self._store.waiting():
                    self.read_back(self, batch)
            self._scored = _score_all(self)
        return self._scored

    def close(self) -> None:
        """What waited on disk removed (the figures and results with it)."""
        self._store.close()

    def __enter__(self) -> "Fields":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def cell_text(value: object) -> str:
    """A cell as boards.csv writes it (control characters escaped), without the quote that
    keeps a spreadsheet from reading a name as a formula: the same from a row or a line."""
    text = "" if value is None else str(value)
    if text[:1] == "'" and text[1:2] in QUOTED_START:
        return text[1:]
    return text


def stated_score(play: str, tricks_stated: str, contract: str, declarer: str,
                 vul: str) -> int | None:
    """The N-S score of the board's stated result, when no play is recorded."""
    if play == "none" and tricks_stated and contract:
        seat = SEATS.index(declarer) if declarer in SEATS else None
        return score_ns(contract, seat, vul or None, int(tricks_stated))
    return None


# --- scoring the fields -------------------------------------------------------------------

def _score_all(fields: Fields) -> Scored:
    """Every field of ``fields`` scored: a board's ScoreTable first, then the fields of the
    events that have one (a board number with two results or more); fields in the order of
    their first board, each field's entries in the order they came.  Two passes over the
    fields on disk: the events scored and their largest matchpoint field (``_events``), then
    the figures, a field at a time: from its rows (``field_rows``) when it is a plain one (no
    ScoreTable, no two tables with the same players), else from its entries (``_by_entries``)."""
    store = fields._store
    out = _Out(fields)
    scored, largest = _events(fields)
    unnamed = _unnamed_players(store.shared)
    unnamed_scored = False  # a table of ``unnamed`` may have a result
    rooms, asked = _Rooms(fields), _Asked(store)
    for field, group in groupby(store.members(ROW), itemgetter(FIELD)):
        rows = list(group)
        event = field >> 32
        if not plain(rows):
            full = store.field_entries(field)
            unnamed_scored = unnamed_scored or any(r[-2] in unnamed for r in full)
            _by_entries(out, store.key(field), full, event in scored, largest.get(event, 0))
            continue
        if event not in scored:
            continue  # an event with no field: a hand record, not a session
        if unnamed and not unnamed_scored:
            unnamed_scored = not unnamed.isdisjoint(map(_NAMES, rows))
        method = out.method or asked.of(rows)
        if method == "teams":
            out.teams(field, rows, rooms)
        elif len(rows) < 2:
            _by_entries(out, store.key(field), store.field_entries(field), True, 0)
        else:
            out.field(method, rows, largest.get(event, 0))
    out.put()
    out.figures.put_teams(out.results.next_late())  # the teams matches' figures
    out.figures.copied()  # a record read twice: its first's figures
    if unnamed_scored:
        out.notes.part(UNNAMED).extend(_unnamed(out.results, unnamed))
    return Scored(out.figures, out.notes, out.results,
                  {tuple(store.shared[event]): n for event, n in largest.items()}, out.trim)


class _Out:
    """Where a run's fields are scored to: its figures, results and notes (in their parts),
    with the scoring method (``--scoring``) and the Butler datum's trim."""

    def __init__(self, fields: Fields) -> None:
        store = fields._store
        self.fields, self.method, self.trim = fields, fields.method, fields.trim
        self.figures, self.results = Figures(store), Results(store, fields.entry)
        self.notes = Notes(store)
        self.tabled, self.fielded = self.notes.part(TABLES), self.notes.part(FIELDS)
        self._teams: list[tuple] = []  # the teams fields' results since ``put``, numbered
        self._late = 0  # the number of the first of them

    def put(self) -> None:
        """The teams fields' results waiting (``teams``) added to ``results``: before any
        other result is added or any is read."""
        if self._teams:
            self.results.put_rows(self._teams)
            self._teams = []

    def teams(self, field: int, rows: list[tuple], rooms: Mapping[int, tuple]) -> None:
        """A plain teams field from its rows (``field_rows.teams``), its results waiting in
        a batch (``put``); each table of a match without its two rooms once each noted
        (SC001), its source and room from its texts."""
        waiting = self._teams
        if not waiting:  # numbered on from every result added so far
            self._late = self.results.next_late()
        bad = teams_of(rows, rooms, self._late + len(waiting), waiting)
        if len(waiting) >= _BATCH:
            self.put()
        if bad:
            key, texts = self.fields._store.key(field), self.fields._texts
            for match in bad:
                places = [(texts(r[TEXTS])[0], r[LINE], r[GAME], texts(r[TEXTS])[1])
                          for r in match]
                self.fielded.extend(room_notes(key, places))

    def field(self, method: str, rows: list[tuple], largest: int) -> None:
        """A plain field of two results or more from its rows, by ``method`` (not teams)."""
        self.put()
        name, before, after = figures_of(method, rows, largest, self.trim)
        self.results.extend([r[IDX] for r in rows], name, before, after)
        self.figures.put_field([r[ORDINAL] for r in rows], len(rows), name, before, after)


def _by_entries(out: _Out, key: tuple, rows: list[tuple], scored: bool, largest: int) -> None:
    """A field scored from its entries (``rows``, every column): its ScoreTable records each
    on its table, then the others when its event is ``scored``, a record read twice once (its
    copies given the figures of its first)."""
    out.put()
    entries = list(map(out.fields.entry, rows))
    for e in entries:
        if e.table is not None:
            score_on_table(key, e, out.method, out.trim, out.tabled, out.results, out.figures)
    kept, copies, asked = once([e for e in entries if e.table is None])
    if not scored:
        return  # an event with no field: a hand record, not a session
    score_field(key, kept, out.method or asked, largest, out.trim, out.fielded, out.results,
                 out.figures)
    for ordinal, first in copies.items():  # given their figures at the end (``copied``)
        out.figures.copy(ordinal, first)


def _events(fields: Fields) -> tuple[set[int], dict[int, int]]:
    """The first pass: the events (by number) with a field of two results or more (not
    counting a ScoreTable's records, and a record read twice once: ``once``), and each
    event's largest field scored by matchpoints (every event scored is in it, 0 without one).
    Counted by the database (``Store.counts``); a field's entries are read only when two of
    its tables have the same players or its records ask for different methods."""
    store, method = fields._store, fields.method
    scored: set[int] = set()
    largest: dict[int, int] = {}
    methods: dict[str | None, str] = {}  # the texts of a field -> the method they ask for
    for field, n, players, texts in store.counts():
        asked = methods.get(texts, None) if n == players else ""
        if asked is None:
            shared = [store.shared[int(t)] for t in texts.split(",")] if texts else []
            # the order of the texts cannot matter when they name one method at most
            one = len({s.scoring.lower() for s in shared if s.scoring}) < 2
            asked = method_of(shared) if one else ""
            if len(methods) >= _KEPT:
                methods.clear()
            methods[texts] = asked
        if not asked:
            kept, _, asked = once(list(map(fields.entry, store.untabled(field))))
            n = len(kept)
        event = field >> 32
        if n > 1:
            scored.add(event)
        if (method or asked) == "mp":
            largest[event] = max(largest.get(event, 0), n)
    for event in scored:
        largest.setdefault(event, 0)
    return scored, largest


_KEPT = 1024  # the texts' methods kept at most (``_events``)
_BATCH = 4096  # the teams fields' results added at once (``_Out.put``)
_NAMES = itemgetter(NAMES)


class _Asked(dict):
    """The method a field's records ask for (``method_of``) from its rows: each texts'
    number's Scoring tag (lower case) and whether its room is a match's, found once."""

    def __init__(self, store: Store) -> None:
        super().__init__()
        self._shared = store.shared

    def __missing__(self, number: int) -> tuple[str, bool]:
        texts = self._shared[number]
        got = self[number] = (texts.scoring.lower(), texts.room.lower() in ROOMS)
        return got

    def of(self, rows: list[tuple]) -> str:
        """``method_of`` the field of ``rows`` (no tuple a field: a field's size varies, and
        Python keeps thousands of each size of tuple once made)."""
        tag, rooms = "", True
        for r in rows:
            scoring, room = self[r[TEXTS]]
            if scoring and not tag:
                tag = scoring
            if not room:
                rooms = False
        return method_asked(tag, rooms)


class _Rooms(dict):
    """A table's match and room (lower case) by its texts' number (``Fields._texts``)."""

    def __init__(self, fields: Fields) -> None:
        super().__init__()
        self._texts = fields._texts

    def __missing__(self, number: int) -> tuple[str, str]:
        _source, room, match, _scoring, _teams = self._texts(number)
        got = self[number] = (match, room.lower())
        return got


def _unnamed_players(shared: list[tuple]) -> set[int]:
    """The numbers of the players (a plain tuple, not ``Shared``) not all named."""
    return {n for n, texts in enumerate(shared)
            if type(texts) is tuple and len(texts) == 4 and not all(texts)}


def _unnamed(results: Results, unnamed: set[int]) -> Iterator[Note]:
    """SC003: the results of the tables whose players are ``unnamed``, in order."""
    for row in results.rows(f"WHERE e.names IN ({','.join(map(str, sorted(unnamed)))})"):
        r = results.result(row)
        yield _note(r.entry, r.key, "SC003", f"board {r.key[3]} is scored, but its players "
                    "are not all named: this table's pairs cannot be followed across boards "
                    "and are left out of the standings", "scored, but the players are not "
                    "all named: left out of the standings")


def place(source: object, line: object, game: object) -> tuple[str, int, int]:
    """A board's place (source, line, game) as its ``Entry`` keeps it, from its row's values."""
    return cell_text(safe_cell(source)), int(line or 0), int(game or 0)

