"""Fields after the run: every board's result at every table of its event, scored as a field
(matchpoints, cross-IMPs, Butler, teams: ``scoring.field``), before and after the audit's
adjustments.

The per-board work streams as it always has; this module only watches the rows go by
(``Fields.noted``), keeping a few numbers of each board that has a duplicate score (about 70
bytes: ``Fields``), and scores the fields once the last board is audited: only those of the
events where a board was played twice, each table made an ``Entry`` only then.  A board's
field: the boards of one event (``Event``, ``Section`` when present, ``Date``) with the same
board number, across every input of the run.  The figures are the last columns of boards.csv
(``rows.FIELD_COLUMNS``): a boards.csv file is written as the boards come and its figure cells
filled in when the run commits (a streaming copy, only when a field was scored); any other
report of boards waits for them on disk (``field_reports.Deferred``).

A club scorer's choices where the issue leaves them open: a board whose event has no field at
all (a hand record of one table) is simply not scored, without a note; a board of a scored
event whose field has one result gets SC001.  Two records of one table (the same players, room
and result) count once, and both rows get the figures."""
from __future__ import annotations

import csv
from array import array
from bisect import bisect_left
from collections import defaultdict
from itertools import chain, repeat
from operator import itemgetter
from typing import Callable, Iterable, Iterator, NamedTuple

from ..core.cards import SEATS
from ..reports.rows import (BOARD_COLUMNS, FINDING_COLUMNS, CleanRun, LeanRow,
                   Rendered, run_tags)
from . import score_ns
from .field import butler, cross_imps, mp_percentages, teams, weighted_figures
from .scoretable import (MAX_TABLES, check, counts, own_row, parse_table,
                                 table_method)
from ..core.visible import QUOTED_START, safe_cell

METHODS = ("mp", "cross-imp", "butler", "teams")
_NO_TEAMS = ("", "")
_ROOMS = ("open", "closed")
_WANTED = ("source", "line", "game", "event", "date", "board", "room", "vul", "declarer",
           "contract", "play", "tricks_stated", "score_ns", "score_ns_adjusted", "status",
           "scoring", "north", "east", "south", "west")
_CELLS = itemgetter(*(BOARD_COLUMNS.index(c) for c in _WANTED))  # of a boards.csv line
_LAST = max(BOARD_COLUMNS.index(c) for c in _WANTED) + 1  # the cells a line is split into
_ROW = itemgetter(*_WANTED)  # of a row


def _signed(row: dict) -> dict:
    """The field scores the result the Director signs: Law 64C's where it assigns one (a lean
    row, a board without findings, never has one)."""
    if row.get("ruling_64c") == "adjusted" and row.get("score_ns_64c") is not None:
        return {**row, "score_ns_adjusted": row["score_ns_64c"]}
    return row


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


class Result(NamedTuple):
    """One table's figures for N-S, unrounded, as the standings add them up."""

    key: tuple[str, str, str, str]  # event, section, date, board
    entry: Entry
    method: str
    before: float
    after: float


#: A board's figures by method: the names ``scoring_method`` takes, by their number in
#: ``Figures``; Butler's and teams' IMPs are whole numbers (``Results`` keeps them so).
_METHOD_NAMES = ("mp", "mp-neuberg", "cross-imp", "butler", "teams")
_METHOD_NUMBERS = {name: i for i, name in enumerate(_METHOD_NAMES)}
_WHOLE = frozenset(("butler", "teams"))
_NAN = float("nan")


class Figures:
    """Every scored board's figures (the values of ``FIELD_COLUMNS``), kept as numbers in
    arrays beside the run's entries (``Fields``): a few dozen bytes a board, made only when a
    field is scored.  ``get(ordinal)``: a board's values by its place among the run's board
    rows, or None; ``items()``: (ordinal, values) of every board with figures."""

    def __init__(self, ordinals: array) -> None:
        self._ordinals = ordinals  # of each entry, ascending
        self._size = 0  # entries with room for figures (arrays made on the first ``put``)

    def _make(self) -> None:
        n = self._size = len(self._ordinals)
        self._field = array("i", bytes(4 * n))  # 0: no figures
        self._method = array("b", bytes(n))
        self._numbers = [array("d", [_NAN]) * n for _ in range(4)]

    def put_field(self, indexes: list[int], n: int, method: str, before: list,
                  after: list) -> None:
        """A field's entries ``indexes`` get their figures by ``method`` (``_cells``: as
        ``put`` puts each, rounded to two decimals): percentages for matchpoints, else IMPs."""
        if not self._size:
            self._make()
        field, methods, number = self._field, self._method, _METHOD_NUMBERS[method]
        columns = self._numbers[:2] if method.startswith("mp") else self._numbers[2:]
        first, second = columns
        for i, b, a in zip(indexes, map(float, before), map(float, after)):
            field[i] = n
            methods[i] = number
            first[i] = round(b, 2)
            second[i] = round(a, 2)

    def put(self, index: int, values: tuple) -> None:
        """Entry ``index`` gets ``values`` (``_cells``)."""
        if not self._size:
            self._make()
        field, *numbers, method = values
        self._field[index] = field
        self._method[index] = _METHOD_NUMBERS[method]
        for column, x in zip(self._numbers, numbers):
            column[index] = _NAN if x is None else x

    def copy(self, index: int, first: int) -> None:
        """Entry ``index`` gets entry ``first``'s figures, if it has any."""
        if self._size and self._field[first]:
            self.put(index, self.values(first))

    def values(self, index: int) -> tuple | None:
        """Entry ``index``'s values of ``FIELD_COLUMNS``, or None."""
        if not self._size or not self._field[index]:
            return None
        numbers = (column[index] for column in self._numbers)
        return (self._field[index], *(None if x != x else x for x in numbers),
                _METHOD_NAMES[self._method[index]])

    def get(self, ordinal: int) -> tuple | None:
        """The values of the board at ``ordinal``, or None."""
        if not self._size:
            return None
        at = bisect_left(self._ordinals, ordinal)
        if at == len(self._ordinals) or self._ordinals[at] != ordinal:
            return None
        return self.values(at)

    def within(self, start: int, stop: int) -> Iterator[tuple[int, tuple]]:
        """(ordinal, values) of the boards with figures at ``start`` up to ``stop``."""
        if not self._size:
            return
        ordinals = self._ordinals
        for at in range(bisect_left(ordinals, start), bisect_left(ordinals, stop)):
            if self._field[at]:
                yield ordinals[at], self.values(at)

    def texts(self, start: int, stop: int) -> Iterator[tuple[int, str]]:
        """(ordinal, the values as boards.csv cells) of the boards with figures at ``start``
        up to ``stop``: ``within`` written out."""
        if not self._size:
            return
        ordinals, field, methods = self._ordinals, self._field, self._method
        mp, mp_after, imps, imps_after = self._numbers
        said: dict[float, str] = {}  # each figure's text, made once
        for at in range(bisect_left(ordinals, start), bisect_left(ordinals, stop)):
            n = field[at]
            if n:
                cells = []
                for x in (mp[at], mp_after[at], imps[at], imps_after[at]):
                    if x != x:  # NaN: no figure
                        cells.append("")
                        continue
                    text = said.get(x)
                    if text is None:
                        text = said[x] = str(x)
                    cells.append(text)
                yield ordinals[at], f"{n},{','.join(cells)},{_METHOD_NAMES[methods[at]]}"

    def items(self) -> Iterator[tuple[int, tuple]]:
        return self.within(0, 1 << 62)

    def __bool__(self) -> bool:
        return any(self._field) if self._size else False


class Scored(NamedTuple):
    """The figures of every scored board (``Figures``, by ordinal), the notes (findings.csv
    rows) of the boards that could not be scored, and every table's figures (``Result``) for
    the standings."""

    figures: Figures
    notes: list[dict[str, object]]
    results: "Results"
    largest: dict[tuple[str, str, str], int] = {}  # each event's largest matchpoint field
    trim: int = 1  # the Butler datum's


class Results:
    """Every scored table's ``Result``, in the order the fields were scored, kept as numbers
    (an entry, a method, two figures) and made ``Result``s only when read (the standings, the
    text output's changes)."""

    def __init__(self, fields: "Fields") -> None:
        self._fields = fields
        self._index = array("q")
        self._method = array("b")
        self._before = array("d")
        self._after = array("d")

    def add(self, index: int, method: str, before: float, after: float) -> None:
        """Entry ``index``'s figures by ``method``."""
        self._index.append(index)
        self._method.append(_METHOD_NUMBERS[method])
        self._before.append(before)
        self._after.append(after)

    def extend(self, indexes: list[int], method: str, before: list, after: list) -> None:
        """Entries ``indexes``' figures by ``method`` (``add``, a field at once)."""
        self._index.extend(indexes)
        self._method.extend(repeat(_METHOD_NUMBERS[method], len(indexes)))
        self._before.extend(before)
        self._after.extend(after)

    def __len__(self) -> int:
        return len(self._index)

    def unnamed(self) -> Iterator[Result]:
        """The results of the tables whose players are not all named, in order."""
        numbers, shared = self._fields._entries, self._fields._shared_list
        unnamed = {n for n, texts in enumerate(shared) if len(texts) == 4 and not all(texts)}
        if not unnamed:
            return
        for at, i in enumerate(self._index):
            if numbers[i * _STRIDE + 6] in unnamed:
                yield self._result(at)

    def _result(self, at: int) -> Result:
        method, i = _METHOD_NAMES[self._method[at]], self._index[at]
        b, a = self._before[at], self._after[at]
        if method in _WHOLE:
            b, a = int(b), int(a)
        return Result(self._fields.key_of(i), self._fields.entry(i), method, b, a)

    def __iter__(self) -> Iterator[Result]:
        """Every ``Result``, made as it is read and not kept (a run's standings stream them:
        a few numbers a table stay, never an object a table)."""
        return map(self._result, range(len(self._index)))


class Fields:
    """The run's fields, gathered from its rows (``noted``) and scored at the end (``score``).

    ``method``: one of ``METHODS`` for every field (``--scoring``), else chosen per field from
    its records; ``trim``: the Butler datum leaves out that many top and bottom results.

    Each board with a duplicate score is an entry of a few numbers (``_STRIDE`` of them in one
    array: its place, its field's key, its scores, line and game, and the numbers of the texts
    it shares with other boards: its source, room, match, Scoring tag, contract and declarer
    as one, its players as another), about 70 bytes a board; its ``Entry`` is made only when
    its field is scored."""

    def __init__(self, method: str | None = None, trim: int = 1) -> None:
        if method is not None and method not in METHODS:
            raise ValueError(f"unknown scoring method {method!r}; choose one of {METHODS}")
        self.method, self.trim = method, trim
        self._next = 0  # the ordinal of the next board row
        self._ordinals = array("q")  # each entry's ordinal
        self._entries = array("q")  # each entry's other numbers, _STRIDE a board
        self._boards: dict[str, int] = {}  # a board "number" that is not a number -> its own
        self._board_list: list[str] = []
        self._shared: dict[tuple, int] = {}  # a board's texts shared with others -> a number
        self._shared_list: list[tuple] = []
        self._tables: dict[int, tuple] = {}  # an entry's ScoreTable, by its index
        self._made: dict[int, tuple] = {}  # ``_texts``

    def noted(self, rendered: Iterable[Rendered]) -> Iterator[Rendered]:
        """``rendered`` as it is, each board's values kept; after the last board, the notes
        of the fields that cannot be scored (one item without a board row)."""
        for r in rendered:
            if r.row is not None:
                self.add(r)
            yield r
        notes = self.score().notes
        if notes:
            yield FieldNotes(None, notes)

    def add(self, r: Rendered) -> None:
        """The board (or boards, a ``CleanRun``) of ``r``, at the next ordinals."""
        tags = run_tags(r) if r.tags is not None else _NO_TAGS
        add = self._add
        if type(r) is CleanRun or type(r.row) is LeanRow:
            text = r.csv[0] if r.csv is not None else ""
            quoted = "'" in text  # else no cell has the quote ``_text`` takes away
            lines = text.splitlines()
            if quoted or tags or '"' in text or not self._add_plain(
                    [line.split(",", _LAST) for line in lines]):
                for i, cells in enumerate(map(_CELLS, csv.reader(lines))):
                    add(self._next + i, cells, tags.get(i), quoted)
        else:
            cells = tuple(_text(safe_cell(v)) for v in _ROW(_signed(r.row)))
            add(self._next, cells, tags.get(0))
        self._next += r.boards

    def _add(self, ordinal: int, cells: tuple[str, ...], tags, quoted: bool = True) -> None:
        (source, line, game, event, date, board, room, vul, declarer, contract, play,
         tricks_stated, score, adjusted, status, scoring, north, east, south, west) = cells
        if status == "unreadable" or scoring != "duplicate" or not board:
            return
        if score and adjusted:
            before, after = int(score), int(adjusted)
        else:
            stated = _stated_score(play, tricks_stated, contract, declarer, vul)
            before = int(score) if score else stated
            after = int(adjusted) if adjusted else stated
            if before is None or after is None:
                return
        section, scoring, match, table = tags if tags is not None else _NO_TAG
        if quoted:
            (event, date, source, room, contract, declarer, north, east, south,
             west) = map(_text, (event, date, source, room, contract, declarer, north, east,
                                 south, west))
        field = self._field((event, section, date), board.strip())
        number = self._shared.get
        if quoted:
            vul = _text(vul)
        shared = (source, room, match, scoring, contract, declarer, vul)
        texts = number(shared)
        if texts is None:
            texts = self._number(_Shared._make(shared))
        players = (north, east, south, west)
        names = number(players)
        if names is None:
            names = self._number(players)
        if table is not None:
            self._tables[len(self._ordinals)] = table
        self._ordinals.append(ordinal)
        self._entries.extend((field, before, after, int(line or 0), int(game or 0), texts,
                              names))

    def _add_plain(self, rows: list[list[str]]) -> bool:
        """Boards in the plainest case (each with its scores, no tag a field needs, no
        quoted cell: the lane's clean boards) added column by column, at the next ordinals;
        False, nothing added, for any other.  ``rows``: each board's boards.csv line split
        at its commas (up to ``west``)."""
        if not rows:
            return True
        (source, line, game, event, date, board, room, vul, declarer, contract, _play,
         _tricks, score, adjusted, status, scoring, north, east, south, west) = _CELLS(
            list(zip(*rows)))
        if (set(scoring) != {"duplicate"} or "unreadable" in status or "" in board
                or "" in score or "" in adjusted or "" in line or "" in game):
            return False
        events = set(zip(event, date))
        if len(events) != 1:
            return False
        ((event_text, date_text),) = events
        base = self._number((event_text, "", date_text)) << 32
        boards = [base | int(b) if _is_number(b) else self._field(None, b, base)
                  for b in map(str.strip, board)]
        number = self._shared.get
        texts = list(map(number, zip(source, room, repeat(""), repeat(""), contract,
                                     declarer, vul)))
        names = list(map(number, zip(north, east, south, west)))
        for i, got in enumerate(texts):
            if got is None:
                texts[i] = self._number(_Shared(source[i], room[i], "", "", contract[i],
                                                declarer[i], vul[i]))
        for i, got in enumerate(names):
            if got is None:
                names[i] = self._number((north[i], east[i], south[i], west[i]))
        self._ordinals.extend(range(self._next, self._next + len(rows)))
        self._entries.extend(chain.from_iterable(zip(
            boards, map(int, score), map(int, adjusted), map(int, line), map(int, game), texts,
            names)))
        return True

    def _field(self, event: tuple[str, str, str] | None, board: str, base: int = 0) -> int:
        """The number of a field's key: its event's number (``_number``) times 2**32, plus
        its board number when it is one as written (``17``, not ``017``), else 2**31 plus the
        board's place among such boards (``_boards``)."""
        field = self._number(event) << 32 if event is not None else base
        if _is_number(board):
            return field | int(board)
        number = self._boards.get(board)
        if number is None:
            number = self._boards[board] = len(self._board_list)
            self._board_list.append(board)
        return field | (_TEXT_BOARD + number)

    def _number(self, texts: tuple) -> int:
        """The number of ``texts`` (one copy of each kept)."""
        number = self._shared.get(texts)
        if number is None:
            number = self._shared[texts] = len(self._shared_list)
            self._shared_list.append(texts)
        return number

    def __len__(self) -> int:
        """The entries kept: boards with a duplicate score."""
        return len(self._ordinals)

    def key_of(self, index: int) -> tuple[str, str, str, str]:
        """The field key of entry ``index``: event, section, date, board."""
        return self.key(self._entries[index * _STRIDE])

    def key(self, field: int) -> tuple[str, str, str, str]:
        """A field's key (event, section, date, board) from its number (``_field``)."""
        board = field & 0xFFFFFFFF
        text = str(board) if board < _TEXT_BOARD else self._board_list[board - _TEXT_BOARD]
        return (*self._shared_list[field >> 32], text)

    def entry(self, index: int) -> Entry:
        """Entry ``index`` as an ``Entry``."""
        at = index * _STRIDE
        _field, before, after, line, game, texts, names = self._entries[at:at + _STRIDE]
        source, room, match, scoring, teams, contract, declarer, vul = self._texts(texts)
        return Entry._make((self._ordinals[index], source, line, game, room, match, before,
                            after, self._shared_list[names], scoring, teams, contract,
                            declarer, self._tables.get(index), vul, index))

    def scores(self, indexes: list[int]) -> tuple[list[int], list[int]]:
        """The N-S scores before and after the adjustments of entries ``indexes``."""
        numbers = self._entries
        return ([numbers[i * _STRIDE + 1] for i in indexes],
                [numbers[i * _STRIDE + 2] for i in indexes])

    def players(self, indexes: list[int]) -> Iterator[tuple[str, str, str, str]]:
        """The players (N, E, S, W) of entries ``indexes``."""
        numbers, shared = self._entries, self._shared_list
        return (shared[numbers[i * _STRIDE + 6]] for i in indexes)

    def _texts(self, number: int) -> tuple:
        """An entry's shared texts as ``Entry`` takes them (its match, else its file; its
        teams), made once for all the entries that share them."""
        got = self._made.get(number)
        if got is None:
            source, room, match, scoring, contract, declarer, vul = self._shared_list[number]
            teams = tuple(match.split("|")[:2]) if match else _NO_TEAMS
            if not any(teams):  # a match whose teams are not named: its file (and round)
                match = f"{source}|{match}" if match else source
            got = self._made[number] = (source, room, match, scoring, teams,
                                        contract, declarer, vul)
        return got

    def once(self, indexes: Iterable[int]) -> tuple[list[int], dict[int, int], str]:
        """The entries of a field (``indexes``) counted once, a record read twice (same
        room, players and result) once: the indexes kept, the copies' indexes each to its
        first's; and the method its records ask for (``_method``)."""
        numbers, shared = self._entries, self._shared_list
        indexes = list(indexes)
        players = [numbers[i * _STRIDE + 6] for i in indexes]
        if len(set(players)) == len(players):  # no two tables with the same players
            texts = dict.fromkeys(numbers[i * _STRIDE + 5] for i in indexes)  # once each
            return indexes, {}, _method([shared[t] for t in texts])
        first: dict[tuple, int] = {}
        kept, copies = [], {}
        for i in indexes:
            at = i * _STRIDE
            names = numbers[at + 6]
            if not any(shared[names]):
                kept.append(i)
                continue
            same = (shared[numbers[at + 5]][1].lower(), names, numbers[at + 1], numbers[at + 2])
            if same in first:
                copies[i] = first[same]
                continue
            first[same] = i
            kept.append(i)
        return kept, copies, _method([shared[numbers[i * _STRIDE + 5]] for i in kept])

    def same_players(self, indexes: list[int]) -> bool:
        """Do two of entries ``indexes`` have the same players (all named)?"""
        numbers, shared = self._entries, self._shared_list
        players = [numbers[i * _STRIDE + 6] for i in indexes]
        if len(set(players)) == len(players):
            return False
        return _same_pair_twice(shared[p] for p in players)

    def score(self) -> Scored:
        """Every field scored (once: the result is kept)."""
        if getattr(self, "_scored", None) is None:
            self._scored = _score_all(self)
        return self._scored


class _Shared(NamedTuple):
    """The texts a board shares with others (``Fields._number``)."""

    source: str
    room: str
    match: str
    scoring: str
    contract: str
    declarer: str
    vul: str


_STRIDE = 7  # numbers of an entry in ``Fields._entries``
_TEXT_BOARD = 1 << 31  # a field's number: board numbers below, other boards above


def _is_number(board: str) -> bool:
    """Is ``board`` a board number as written (``17``, not ``017`` nor ``0``), below
    ``_TEXT_BOARD``?"""
    return board.isdigit() and board.isascii() and board[0] != "0" and len(board) < 10
_NO_TAG = ("", "", "", None)
_NO_TAGS: dict = {}


def _text(value: object) -> str:
    """A cell as boards.csv writes it (control characters escaped), without the quote that
    keeps a spreadsheet from reading a name as a formula: the same from a row or a line."""
    text = "" if value is None else str(value)
    if text[:1] == "'" and text[1:2] in QUOTED_START:
        return text[1:]
    return text


def _stated_score(play: str, tricks_stated: str, contract: str, declarer: str,
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
    their first board, each field's entries in the order they came."""
    method, trim = fields.method, fields.trim
    figures, notes, results = Figures(fields._ordinals), [], Results(fields)
    members = {fields.key(k): indexes for k, indexes in _members(fields).items()}
    tables = fields._tables
    for key, indexes in members.items():
        for i in indexes:
            if i in tables:
                _score_on_table(key, fields.entry(i), method, trim, notes, results, figures)
    groups = {key: fields.once(i for i in members.pop(key) if i not in tables)
              for key in list(members)}  # each field's list let go as it is counted
    scored_events = {key[:3] for key, (kept, _, _) in groups.items() if len(kept) > 1}
    largest: dict[tuple, int] = defaultdict(int)
    methods = {key: method or asked for key, (_, _, asked) in groups.items()}
    for key, (kept, _, _) in groups.items():
        if methods[key] == "mp":
            largest[key[:3]] = max(largest[key[:3]], len(kept))
    for key, (kept, copies, _) in groups.items():
        if key[:3] not in scored_events:
            continue  # an event with no field: a hand record, not a session
        _score_field(key, fields, kept, methods[key], largest[key[:3]], trim, notes, results,
                     figures)
        for index, first in copies.items():
            figures.copy(index, first)
    notes.extend(_note(r.entry, r.key, "SC003", f"board {r.key[3]} is scored, but its players "
                       "are not all named: this table's pairs cannot be followed across boards "
                       "and are left out of the standings", "scored, but the players are not all "
                       "named: left out of the standings")
                 for r in results.unnamed())
    return Scored(figures, notes, results, dict(largest), trim)


def _members(fields: Fields) -> dict[int, list[int]]:
    """The entries (their indexes, in order) of each field that may be scored, by its number
    (``Fields._field``), in the order of their first entry: every field with a ScoreTable, and
    every field of an event in which a board has two results or more without one.  The fields
    of other events (a hand record of one table each board, an archive of single boards) are
    not gathered at all."""
    numbers = fields._entries[::_STRIDE]
    tables = fields._tables
    events, every = _played_twice(numbers, tables)
    wanted_tables = {numbers[i] for i in tables}
    members: dict[int, list[int]] = defaultdict(list)
    if events and not wanted_tables and events == every:
        for i, k in enumerate(numbers):  # every event has a field: every entry is a member
            members[k].append(i)
    elif events or wanted_tables:
        for i, k in enumerate(numbers):
            if k >> 32 in events or k in wanted_tables:
                members[k].append(i)
    return members


def _played_twice(numbers: array, tables: dict[int, tuple]) -> tuple[set[int], set[int]]:
    """The events (their numbers) in which a board has two results or more (without a
    ScoreTable), and every event: the board numbers seen kept as bits, one array of bits an
    event (up to ``_BITS``), any other board in a set."""
    events: set[int] = set()
    seen: dict[int, bytearray] = {}
    others: set[int] = set()
    for i, k in enumerate(numbers):
        event = k >> 32
        if event in events or (tables and i in tables):
            continue
        board = k & 0xFFFFFFFF
        if board >= _BITS:
            if k in others:
                events.add(event)
            others.add(k)
            continue
        bits = seen.get(event)
        if bits is None:
            bits = seen[event] = bytearray()
        at, bit = board >> 3, 1 << (board & 7)
        if at >= len(bits):
            bits.extend(bytes(at + 1 - len(bits) + (len(bits) >> 1)))
        if bits[at] & bit:
            events.add(event)
        bits[at] |= bit
    return events, set(seen).union(k >> 32 for k in others)


_BITS = 1 << 24  # board numbers kept as bits (2 MB an event at most)


def _score_on_table(key: tuple, e: Entry, method: str | None, trim: int, notes: list,
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
    results.add(e.index, name, *pair)
    if name == "mp":
        figures.put(e.index, _cells(n, name, mp=pair))
    else:
        figures.put(e.index, _cells(n, name, imps=pair))


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


def _score_field(key: tuple, fields: Fields, kept: list[int], method: str, largest: int,
                 trim: int, notes: list[dict[str, object]], results: Results,
                 figures: Figures) -> None:
    """The figures of one field (its entries ``kept``, by index) put in ``figures``; notes for
    what cannot be scored; each table's ``Result`` added to ``results``."""
    if method != "teams" and fields.same_players(kept):  # a match's rooms are its tables
        notes.extend(_note(e, key, "SC002", "the same players sit at two tables of board "
                           f"{key[3]} with different results: the field cannot be told apart; "
                           "its figures stay empty", "not scored: the same players sit at two tables") for e in map(fields.entry, kept))
        return
    if method == "teams":
        return _score_teams(key, list(map(fields.entry, kept)), notes, results, figures)
    if len(kept) < 2:
        notes.extend(_note(e, key, "SC001", f"board {key[3]} has no other result in the run "
                           "to compare with: its figures stay empty", "not scored: no other result to compare with")
                     for e in map(fields.entry, kept))
        return
    before, after = fields.scores(kept)
    n = len(kept)
    same = before == after  # most fields: no score adjusted, the same figures after
    if method == "mp":
        name = "mp-neuberg" if largest > n else "mp"
        before = mp_percentages(before, largest)
        after = before if same else mp_percentages(after, largest)
        results.extend(kept, name, before, after)
        figures.put_field(kept, n, name, before, after)
        return
    imps = cross_imps if method == "cross-imp" else lambda s: butler(s, trim)
    before = imps(before)
    after = before if same else imps(after)
    results.extend(kept, method, before, after)
    figures.put_field(kept, n, method, before, after)


def _score_teams(key: tuple, entries: list[Entry], notes: list, results: Results,
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
        figures.put(o.index, _cells(2, "teams", imps=(before[0], after[0])))
        figures.put(c.index, _cells(2, "teams", imps=(before[1], after[1])))
        results.add(o.index, "teams", before[0], after[0])
        results.add(c.index, "teams", before[1], after[1])


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


class FieldNotes(Rendered):
    """The notes of the fields that could not be scored, every board's in findings.csv, and
    in the text output one line per event and cause (``summary``)."""

    def summary(self, line: Callable[[dict[str, object]], str]) -> list[str]:
        return summary(self.findings, line)


def summary(notes: Iterable[dict[str, object]],
            line: Callable[[dict[str, object]], str]) -> list[str]:
    """One line per event, code and cause of ``notes`` (``Note``s; any other row as ``line``
    writes it: the text report's ``text_line``, passed in so that scoring need not import the
    report writers), in the order each first comes: ``45th European Team
    Championships 2001: 74 boards not scored: a room is missing (SC001; each board in the
    findings report)``."""
    counted: dict[tuple[str, str, str], int] = {}
    for note in notes:
        if isinstance(note, Note):
            at = (_event_words(note.event[:2]), str(note["code"]), note.cause)
        else:
            at = ("", "", line(note))
        counted[at] = counted.get(at, 0) + 1
    lines = []
    for (event, code, cause), n in counted.items():
        if not code:
            lines.append(cause)
            continue
        boards = f"{n} board" if n == 1 else f"{n} boards"
        lines.append(f"{event}: {boards}: {cause} ({code}; each board in the findings "
                     "report)")
    return lines


def _event_words(event: tuple[str, ...]) -> str:
    return " ".join(p for p in event if p) or "no event"


class Note(dict):
    """A findings.csv row of a board that could not be scored, with its field's event
    (event, section, date) and its ``cause`` in a few words, for the one line per event (and
    section, every date together) and cause that the text output gives (``summary``)."""

    event: tuple[str, str, str] = ("", "", "")
    cause: str = ""


def _note(e: Entry, key: tuple, code: str, message: str, cause: str = "") -> Note:
    out = Note.fromkeys(FINDING_COLUMNS)
    out.event, out.cause = tuple(key[:3]), cause or message
    out.update(source=e.source, line=e.line, game=e.game, board=key[3], room=e.room, code=code,
               law="", seat="", role="", suit_led="", card="", held="", message=message)
    return out
