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

from collections import defaultdict
from itertools import groupby
from operator import itemgetter
from typing import Callable, Iterable, Iterator, NamedTuple, Sequence

from . import score_ns
from ..core.cards import SEATS
from ..core.visible import QUOTED_START, safe_cell
from .field import butler, cross_imps, mp_percentages, teams, weighted_figures
from .figures import Figures, Result, Results
from .notes import FIELDS, TABLES, UNNAMED, Note, Notes, Part, note as _note, summary
from .scoretable import MAX_TABLES, check, counts, own_row, parse_table, table_method
from .store import Store, table_of

__all__ = ["METHODS", "Entry", "Fields", "Figures", "Note", "Result", "Results", "Scored",
           "field_figures", "place", "summary", "table_figures"]

METHODS = ("mp", "cross-imp", "butler", "teams")
_NO_TEAMS = ("", "")
_ROOMS = ("open", "closed")


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

    def sizes(self) -> Iterator[tuple[tuple[str, str, str, str], int, str]]:
        """Each field that ``fields`` gives, in the same order: its key, its entries without
        a ScoreTable counted once (``once``), and the method its records ask for; counted by
        the database, a field read back only when two of its tables have the same players or
        its records ask for different methods."""
        store = self._store
        for field, n, players, texts in store.counts():
            key = store.key(field)
            shared = [store.shared[int(t)] for t in texts.split(",")] if texts else []
            if n == players and len({s.scoring.lower() for s in shared if s.scoring}) < 2:
                yield key, n, _method(shared)  # the order of the texts cannot matter here
                continue
            kept, _, asked = once(list(map(self.entry, store.untabled(field))))
            yield key, len(kept), asked

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


def once(entries: list[Entry]) -> tuple[list[Entry], dict[int, int], str]:
    """The entries of a field counted once, a record read twice (same room, players and
    result) once: the entries kept, the copies' ordinals each to its first's; and the method
    its records ask for (``_method``)."""
    if len({e.names for e in entries}) == len(entries):  # no two tables with the same players
        return entries, {}, _method(entries)
    first: dict[tuple, Entry] = {}
    kept, copies = [], {}
    for e in entries:
        if not any(e.names):
            kept.append(e)
            continue
        same = (e.room.lower(), e.names, e.before, e.after)
        if same in first:
            copies[e.ordinal] = first[same].ordinal
            continue
        first[same] = e
        kept.append(e)
    return kept, copies, _method(kept)


def _text(value: object) -> str:
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
    fields on disk: the events scored and their largest matchpoint field, then the figures."""
    method, trim = fields.method, fields.trim
    store = fields._store
    figures, results = Figures(store), Results(store, fields.entry)
    notes = Notes(store)
    tabled, fielded = notes.part(TABLES), notes.part(FIELDS)  # the first come first
    scored_events: set[tuple] = set()
    largest: dict[tuple, int] = defaultdict(int)
    for key, n, asked in fields.sizes():
        if n > 1:
            scored_events.add(key[:3])
        if (method or asked) == "mp":
            largest[key[:3]] = max(largest[key[:3]], n)
    for key, entries in fields.fields():
        for e in entries:
            if e.table is not None:
                _score_on_table(key, e, method, trim, tabled, results, figures)
        kept, copies, asked = once([e for e in entries if e.table is None])
        if key[:3] not in scored_events:
            continue  # an event with no field: a hand record, not a session
        _score_field(key, kept, method or asked, largest[key[:3]], trim, fielded, results,
                     figures)
        for ordinal, first in copies.items():
            figures.copy(ordinal, first)
    notes.part(UNNAMED).extend(_unnamed(results, store.shared))
    return Scored(figures, notes, results, dict(largest), trim)


def _unnamed(results: Results, shared: list[tuple]) -> Iterator[Note]:
    """SC003: the results of the tables whose players are not all named, in order."""
    unnamed = {n for n, texts in enumerate(shared)  # players: a plain tuple, not ``Shared``
               if type(texts) is tuple and len(texts) == 4 and not all(texts)}
    if not unnamed:
        return
    for row in results.rows():
        if row[-2] in unnamed:
            r = results.result(row)
            yield _note(r.entry, r.key, "SC003", f"board {r.key[3]} is scored, but its players "
                        "are not all named: this table's pairs cannot be followed across boards "
                        "and are left out of the standings", "scored, but the players are not "
                        "all named: left out of the standings")


def _score_on_table(key: tuple, e: Entry, method: str | None, trim: int, notes: Part,
                    results: Results, figures: Figures) -> None:
    """A record with a PBN ScoreTable, scored on it: its own row (found by its score,
    contract and declarer; rows alike are interchangeable) takes its score before and after
    the adjustments; the program's own figures are checked against ours (SC005)."""
    table = parse_table(e.table[0], e.table[1])
    rows = counts(table) if table is not None else None
    if not rows:
        notes.append(_note(e, key, "SC004", f"board {key[3]}: its ScoreTable cannot be read "
                           "(a row that is not its columns, no Score_NS, or a Multiplicity "
                           f"that is not a whole number from 1 to {MAX_TABLES:,} tables): "
                           "not scored", "not scored: its ScoreTable cannot be read"))
        return
    mine = own_row(table, e.before, e.contract, e.declarer)
    if mine is None:
        notes.append(_note(e, key, "SC004", f"board {key[3]}: the record's own row (N-S "
                           f"{e.before:+d}, {e.contract} by {e.declarer}) is not in its "
                           "ScoreTable: not scored", "not scored: its own row is not in its ScoreTable"))
        return
    n = sum(times for _, times in rows)
    if n < 2:
        return
    name = method or table_method(table, e.scoring)
    got = check(table)
    if got is not None and not got.agree:
        notes.append(_note(e, key, "SC005", f"board {key[3]}: the scoring program's "
                           f"{got.column} for N-S {got.score:+d} is {got.theirs}, ours "
                           f"{got.ours} ({got.reason})", "scored, but the scoring program's "
                           "figures differ from ours"))
    if name == "teams":
        name = "cross-imp"
    pair = table_figures(name, rows, e.before, e.after, trim)
    results.add(e, name, *pair, late=False)
    if name == "mp":
        figures.put(e.ordinal, _cells(n, name, mp=pair))
    else:
        figures.put(e.ordinal, _cells(n, name, imps=pair))


def table_figures(method: str, rows: list[tuple[int, int]], before: int, after: int,
                  trim: int = 1) -> tuple[float, float]:
    """A record's figure before and after the adjustments in the field of a ScoreTable's
    ``rows`` (score, tables), one of the tables that scored ``before`` (its own row's) now
    scoring ``after``: weighed by the counts, never written out (``weighted_figures``)."""
    values = [v for v, _ in rows] + [after]
    times = [t for _, t in rows] + [0]
    at = values.index(before)
    first = weighted_figures(method, values, times, trim)[at]
    times[at] -= 1
    times[-1] += 1
    return first, weighted_figures(method, values, times, trim)[-1]


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


def _score_field(key: tuple, kept: list[Entry], method: str, largest: int,
                 trim: int, notes: Part, results: Results,
                 figures: Figures) -> None:
    """The figures of one field (its entries ``kept``) put in ``figures``; notes for
    what cannot be scored; each table's ``Result`` added to ``results``."""
    if method != "teams" and _same_players(kept):  # a match's rooms are its tables
        notes.extend(_note(e, key, "SC002", "the same players sit at two tables of board "
                           f"{key[3]} with different results: the field cannot be told apart; "
                           "its figures stay empty", "not scored: the same players sit at two tables") for e in kept)
        return
    if method == "teams":
        return _score_teams(key, kept, notes, results, figures)
    if len(kept) < 2:
        notes.extend(_note(e, key, "SC001", f"board {key[3]} has no other result in the run "
                           "to compare with: its figures stay empty", "not scored: no other result to compare with")
                     for e in kept)
        return
    before, after = [e.before for e in kept], [e.after for e in kept]
    indexes, ordinals = [e.index for e in kept], [e.ordinal for e in kept]
    n = len(kept)
    same = before == after  # most fields: no score adjusted, the same figures after
    if method == "mp":
        name = "mp-neuberg" if largest > n else "mp"
        before = mp_percentages(before, largest)
        after = before if same else mp_percentages(after, largest)
        results.extend(indexes, name, before, after)
        figures.put_field(ordinals, n, name, before, after)
        return
    imps = cross_imps if method == "cross-imp" else lambda s: butler(s, trim)
    before = imps(before)
    after = before if same else imps(after)
    results.extend(indexes, method, before, after)
    figures.put_field(ordinals, n, method, before, after)


def _score_teams(key: tuple, entries: list[Entry], notes: Part, results: Results,
                 figures: Figures) -> None:
    """Each match's two rooms on the IMP scale; a match without both rooms is a note."""
    matches: dict[str, list[Entry]] = defaultdict(list)
    for e in entries:
        matches[e.match].append(e)
    for rooms in matches.values():
        named = sorted(rooms, key=lambda e: e.room.lower() != "open")
        if len(rooms) != 2 or sorted(e.room.lower() for e in rooms) != ["closed", "open"]:
            cause = ("not scored: a room is missing" if len(rooms) == 1 else
                     "not scored: a match has a room twice, or more than two rooms")
            notes.extend(_note(e, key, "SC001", f"board {key[3]} of a teams match needs its "
                               "open and closed rooms, once each: its figures stay empty",
                               cause) for e in rooms)
            continue
        o, c = named
        before, after = teams(o.before, c.before), teams(o.after, c.after)
        figures.put(o.ordinal, _cells(2, "teams", imps=(before[0], after[0])))
        figures.put(c.ordinal, _cells(2, "teams", imps=(before[1], after[1])))
        results.add(o, "teams", before[0], after[0], late=True)
        results.add(c, "teams", before[1], after[1], late=True)


def _same_players(entries: list[Entry]) -> bool:
    """Do two of ``entries`` have the same players (all named)?"""
    if len({e.names for e in entries}) == len(entries):
        return False
    return _same_pair_twice(e.names for e in entries)


def _same_pair_twice(players: Iterable[tuple[str, str, str, str]]) -> bool:
    """Two tables of the field with the same players (all named): not one session's board."""
    seen = [names for names in players if all(names)]
    return len(seen) != len(set(seen))


def _cells(n: int, method: str, mp: tuple[float, float] | None = None,
           imps: tuple[float, float] | None = None) -> tuple:
    """A board's figures, the values of ``FIELD_COLUMNS`` in order."""
    if mp is not None:
        return (n, _two(mp[0]), _two(mp[1]), None, None, method)
    if imps is not None:
        return (n, None, None, _two(imps[0]), _two(imps[1]), method)
    return (n, None, None, None, None, method)


def _two(x: float | None) -> float | None:
    return None if x is None else round(float(x), 2)
