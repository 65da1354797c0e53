"""The boards that wait for their fields, on disk: a temporary SQLite database (the standard
library's) holding one row of numbers a board with a duplicate score (``entry``), and, once
the fields are scored, each board's figures (``figure``) and each table's figures for the
standings (``result``).  A lane's board without Field tags waits as its boards.csv line and
its field's key alone (``pending``: ``defer``), and becomes an entry only when its field may
be scored (``waiting``): a hand record, every board alone in its field, pays for a key and a
row, never for its cells.

Why on disk: a field is known only when every table's result is in, so a board's few numbers
wait for the end of the run; kept in memory they grew the run by about a hundred bytes a
board (100 MB at a million boards).  The database is SQLite's private temporary one (opened
with an empty name): SQLite creates it in the temporary directory (``TMPDIR``), removes its
name at once and the file itself when it is closed, or when the process ends however it ends
(Ctrl-C, a kill), and keeps at most ``_CACHE_KB`` of its pages in memory.  Why SQLite rather
than DuckDB: it is in the standard library (no dependency for a feature most runs use), its
rows go in a few thousand at a time as the boards come (DuckDB is built for columns loaded in
bulk and costs tens of megabytes on import), and the scoring needs only a group by field, in
the order of each field's first board.

Texts are kept once each, in memory, as numbers (``number``): events, sources with their
rooms, matches and Scoring tags, players - a few thousand of them in a large archive, never
one a board.  A board's contract, declarer and vulnerability are columns of its row: numbered
with the others, they made one set of texts a board in a vugraph archive (about 300 bytes a
board, held to the end)."""
from __future__ import annotations

import json
import sqlite3
from typing import Iterable, Iterator, NamedTuple, Sequence

_CACHE_KB = 4096  # the pages SQLite keeps in memory, at most
_BATCH = 4096  # rows added at once
_LINES = 512  # deferred lines added at once (a few hundred bytes each)
_RECENT = 1 << 12  # the deferred fields' keys kept to find a field played twice (``defer``)
_TEXT_BOARD = 1 << 31  # a field's number: board numbers below, other boards above


def is_number(board: str) -> bool:
    """Is ``board`` a board number as written (``17``, not ``017`` nor ``0``), below
    ``_TEXT_BOARD``?"""
    return board.isdigit() and board.isascii() and board[0] != "0" and len(board) < 10


class Shared(NamedTuple):
    """The texts a board shares with others (``Store.add``)."""

    source: str
    room: str
    match: str
    scoring: str


class Store:
    """The database of one run's fields, made when the first board is added; ``close``
    removes it (and SQLite does when the process ends)."""

    def __init__(self) -> None:
        self._db: sqlite3.Connection | None = None
        self._entries: list[tuple] = []  # entries waiting to go in
        self._figures: list[tuple] = []
        self._copies: list[tuple[int, int]] = []  # a record read twice: (its place, its first's)
        self._results: list[tuple] = []
        self._notes: list[tuple] = []
        self._pending: list[tuple] = []  # deferred lines waiting to go in (``defer``)
        self.deferred = 0  # lines deferred and not yet read back (``waiting``)
        self._recent: set[tuple[int, str]] = set()  # deferred fields' keys seen lately
        self._played: set[int] = set()  # events known to have a field of two results
        self._ready: list[tuple[int, int, str]] = []  # lines of those, to be added (``defer``)
        self.count = 0  # entries added (and places kept for deferred lines)
        self.tabled = 0  # entries added with a ScoreTable
        self.entries = 0  # entries in (``add``), deferred lines read back among them
        self._members = 0  # the entries when the fields were last found (``_grouped``)
        self._shared: dict[tuple, int] = {}  # texts -> their number
        # a board's ``Shared`` texts -> their number, apart: four players could read the same
        self._sources: dict[tuple, int] = {}
        self.shared: list[tuple] = []  # texts by their number
        self._boards: dict[str, int] = {}  # a board "number" that is not one -> its own
        self._board_list: list[str] = []

    # --- the database ---------------------------------------------------------------------

    def db(self) -> sqlite3.Connection:
        """The connection, the database made on first use."""
        if self._db is None:
            db = sqlite3.connect("", isolation_level=None)
            for pragma in ("journal_mode=OFF", "synchronous=OFF", "temp_store=FILE",
                           f"cache_size=-{_CACHE_KB}"):
                db.execute(f"PRAGMA {pragma}")
            db.execute("CREATE TABLE entry (idx INTEGER PRIMARY KEY, ordinal INTEGER, "
                       "field INTEGER, before INTEGER, after INTEGER, line INTEGER, "
                       "game INTEGER, texts INTEGER, names INTEGER, tbl TEXT, contract TEXT, "
                       "declarer TEXT, vul TEXT)")
            # the figures come field by field, their boards' places scattered: indexed by
            # place once, when first read (``query``), not row by row
            db.execute("CREATE TABLE figure (ordinal INTEGER, n INTEGER, mp REAL, "
                       "mp_after REAL, imps REAL, imps_after REAL, method INTEGER)")
            db.execute("CREATE TABLE result (seq INTEGER PRIMARY KEY, idx INTEGER, "
                       "method INTEGER, before REAL, after REAL)")
            db.execute("CREATE TABLE note (seq INTEGER PRIMARY KEY, data BLOB)")
            db.execute("CREATE TABLE pending (idx INTEGER PRIMARY KEY, ordinal INTEGER, "
                       "event INTEGER, board TEXT, line TEXT)")
            db.execute("CREATE TABLE copy (ordinal INTEGER, first INTEGER)")
            self._db = db
        return self._db

    def close(self) -> None:
        """The database removed (its rows are gone: read ``Scored`` before)."""
        if self._db is not None:
            self._db.close()
            self._db = None
        self._entries, self._figures, self._results, self._notes = [], [], [], []
        self._copies = []
        self._pending, self.deferred, self._ready = [], 0, []

    def flush(self) -> None:
        """Every row waiting in memory into the database."""
        for name, rows, marks in (("entry", self._entries, 13), ("figure", self._figures, 7),
                                  ("result", self._results, 5), ("note", self._notes, 2),
                                  ("pending", self._pending, 5), ("copy", self._copies, 2)):
            if rows:
                db = self.db()
                db.execute("BEGIN")
                db.executemany(f"INSERT INTO {name} VALUES ({','.join('?' * marks)})", rows)
                db.execute("COMMIT")
                rows.clear()

    def query(self, sql: str, *args: object) -> Iterator[tuple]:
        """The rows of ``sql`` (every waiting row in first)."""
        self.flush()
        if self._db is None:
            return iter(())
        return self._db.execute(sql, args)

    def figures(self, where: str, *args: object) -> Iterator[tuple]:
        """The rows of ``figure`` (ordinal, n, the four figures, the method's number)
        ``where`` says, in the order of their boards (the table indexed by it first)."""
        self.flush()
        if self._db is None:
            return iter(())
        self._db.execute("CREATE INDEX IF NOT EXISTS figure_at ON figure (ordinal)")
        return self._db.execute("SELECT ordinal, n, mp, mp_after, imps, imps_after, method "
                                f"FROM figure {where} ORDER BY ordinal", args)

    # --- the entries ----------------------------------------------------------------------

    def add(self, ordinals: Iterable[int], events: Sequence[tuple[str, str, str]],
            boards: Iterable[str], before: Iterable[int], after: Iterable[int],
            lines: Iterable[int], games: Iterable[int], texts: Sequence[tuple],
            names: Sequence[tuple], tables: Iterable[tuple | None],
            indexes: Sequence[int] | None = None) -> None:
        """Boards as columns, one value a board each: their places among the run's board
        rows, their events (event, section, date), board numbers as written, N-S scores
        before and after, lines and games, texts (``Entry``'s source, room, match, scoring,
        contract, declarer, vul: the first four shared, ``Shared``), players and ScoreTables
        (the tag, the lines); ``indexes``: the places ``defer`` kept for them (deferred lines
        read back), else the next ones."""
        fields = [event << 32 | int(board) if is_number(board) else self.field(event, board)
                  for event, board in zip(self._numbers(events), boards)]
        tables = [None if t is None else json.dumps(t) for t in tables]
        self.tabled += len(tables) - tables.count(None)
        if indexes is None:
            start = self.count
            self.count += len(fields)
            indexes = range(start, self.count)
        self.entries += len(fields)
        shared = [t[:4] for t in texts]
        self._entries.extend(zip(indexes, ordinals, fields, before, after,
                                 lines, games, self._numbers(shared, Shared._make),
                                 self._numbers(names), tables, *_columns(texts, 4, 7)))
        if len(self._entries) >= _BATCH:
            self.flush()

    def defer(self, ordinals: Sequence[int], events: Sequence[tuple[str, str, str]],
              boards: Sequence[str], lines: Sequence[str]) -> list[tuple[int, int, str]]:
        """Boards kept as their boards.csv lines with their fields' keys alone (the event's
        number and the board as written: the same field as the same key), each at the next
        entry's place: most boards of a hand record are alone in their field, and a line is
        read into an entry (``add``, with ``indexes``) only when its field may be scored
        (``waiting``).  The lines of an event already known to be scored (a board of it seen
        twice among the lines deferred lately: the two rooms of a match, a session's tables)
        are not deferred but given back, once ``_LINES`` or more are ready, as ``waiting``
        would give them at the end, to be added now: the run's end, serial after the last
        board, reads back only the rest (and the last of these, first)."""
        start = self.count
        self.count += len(lines)
        numbers = self._numbers(events)
        keys = list(zip(numbers, boards))
        recent, played = self._recent, self._played
        if not played.intersection(numbers) and recent.isdisjoint(keys) \
                and len(set(keys)) == len(keys):  # nothing known to be scored: all wait
            self._wait(range(start, self.count), ordinals, numbers, boards, lines)
            recent.update(keys)
            return []
        later = []
        for i, key in enumerate(keys):
            if key[0] not in played:
                if key not in recent:
                    recent.add(key)
                    later.append(i)
                    continue
                played.add(key[0])  # the earlier line of the field waits: read back at the end
            self._ready.append((start + i, ordinals[i], lines[i]))
        self._wait([start + i for i in later], [ordinals[i] for i in later],
                   [numbers[i] for i in later], [boards[i] for i in later],
                   [lines[i] for i in later])
        if len(self._ready) < _LINES:
            return []
        ready, self._ready = self._ready, []
        return ready

    def _wait(self, places: Sequence[int], ordinals: Sequence[int], events: Sequence[int],
              boards: Sequence[str], lines: Sequence[str]) -> None:
        """Deferred lines at ``places`` into ``pending``; the fields' keys seen lately kept
        (``_recent``) to a bound, so memory does not grow with the boards."""
        self.deferred += len(lines)
        self._pending.extend(zip(places, ordinals, events, boards, lines))
        if len(self._pending) >= _LINES:
            self.flush()
        if len(self._recent) > _RECENT:
            self._recent.clear()

    def waiting(self) -> Iterator[list[tuple[int, int, str]]]:
        """The deferred lines (``defer``) whose fields may be scored, in batches of their
        place, ordinal and line, in the order they came; each batch is to be added (``add``)
        before the next is asked for.  A field may be scored when it has a ScoreTable entry,
        or when its event has a field of two results or more (the deferred lines counted
        with the entries: a few more read than needed, never one fewer; ``members`` then
        counts only the entries)."""
        if self._ready:
            ready, self._ready = self._ready, []
            yield ready
        if not self.deferred:
            return
        self.flush()
        db = self.db()
        for name in ("wanted", "keyed"):
            db.execute(f"DROP TABLE IF EXISTS {name}")
        db.execute("CREATE TEMP TABLE wanted (idx INTEGER PRIMARY KEY)")
        # the entries' fields as the lines' keys (event, board as written), with ScoreTable
        # or without, and how many
        db.execute("CREATE TEMP TABLE keyed (event INTEGER, board TEXT, tabled INTEGER, "
                   "n INTEGER)")
        db.executemany("INSERT INTO keyed VALUES (?, ?, ?, ?)",
                       ((field >> 32, self.key(field)[-1], tabled, n) for field, tabled, n in
                        db.cursor().execute("SELECT field, tbl IS NOT NULL, count(*) FROM "
                                            "entry GROUP BY field, tbl IS NOT NULL")))
        db.execute("INSERT INTO wanted SELECT p.idx FROM pending p WHERE p.event IN "
                   "(SELECT DISTINCT event FROM (SELECT event, board, n FROM keyed WHERE NOT "
                   "tabled UNION ALL SELECT event, board, 1 FROM pending) GROUP BY event, "
                   "board HAVING sum(n) > 1) OR (p.event, p.board) IN (SELECT event, board "
                   "FROM keyed WHERE tabled)")
        last = -1
        while True:
            batch = db.execute("SELECT p.idx, p.ordinal, p.line FROM wanted w JOIN pending p "
                               "ON p.idx = w.idx WHERE w.idx > ? ORDER BY w.idx LIMIT ?",
                               (last, _LINES)).fetchall()
            if not batch:
                break
            last = batch[-1][0]
            yield batch
        db.execute("DELETE FROM pending")
        db.execute("DROP TABLE wanted")
        db.execute("DROP TABLE keyed")
        self.deferred = 0

    def _numbers(self, values: Sequence[tuple], made=None) -> list[int]:
        """The number of each of ``values`` (``number``; a new one kept as ``made`` makes
        it: ``Shared._make``, a named tuple, which hashes and compares as the plain tuple it
        is made from, so the book finds it by either)."""
        book = self._shared if made is None else self._sources
        got = list(map(book.get, values))
        if None in got:  # each new value numbered once, in the order it first comes
            for value in dict.fromkeys(v for v, n in zip(values, got) if n is None):
                self.number(value if made is None else made(value), book)
            got = list(map(book.get, values))
        return got

    def number(self, texts: tuple, book: dict[tuple, int] | None = None) -> int:
        """The number of ``texts`` (one copy of each kept), in ``book`` (by default, the
        texts other than a board's ``Shared``)."""
        book = self._shared if book is None else book
        got = book.get(texts)
        if got is None:
            got = book[texts] = len(self.shared)
            self.shared.append(texts)
        return got

    def field(self, event: int, board: str) -> int:
        """The number of a field's key: its event's number (``number``) times 2**32, plus
        its board number when it is one as written (``17``, not ``017``), else 2**31 plus the
        board's place among such boards."""
        field = event << 32
        if is_number(board):
            return field | int(board)
        got = self._boards.get(board)
        if got is None:
            got = self._boards[board] = len(self._board_list)
            self._board_list.append(board)
        return field | (_TEXT_BOARD + got)

    def key(self, field: int) -> tuple[str, str, str, str]:
        """A field's key (event, section, date, board) from its number (``field``)."""
        board = field & 0xFFFFFFFF
        text = str(board) if board < _TEXT_BOARD else self._board_list[board - _TEXT_BOARD]
        return (*self.shared[field >> 32], text)

    def members(self, columns: str | None = None) -> Iterator[tuple]:
        """The entries (rows of ``columns``, by default ``ENTRY``'s; the entry table is
        ``e``) of every field that may be scored, in the order of each field's first entry,
        each field's in the order they came: every field with a ScoreTable, and every field of
        an event in which a board has two results or more without one.  The fields of other
        events (a hand record of one table each board, an archive of single boards) are not
        read at all."""
        if not self._grouped():
            return iter(())
        return self.db().execute(f"SELECT {columns or ENTRY} FROM member m JOIN entry e ON "
                                 "e.field = m.field ORDER BY m.first, e.idx")

    def _grouped(self) -> bool:
        """The fields that may be scored found (table ``member``: each one's number, by its
        first entry, and what ``counts`` gives of it, counted in the same pass), once every
        entry is in; False when there is no entry."""
        if self.entries == 0:
            return False
        self.flush()
        if self._members != self.entries:
            db = self.db()
            db.execute("CREATE INDEX IF NOT EXISTS by_field ON entry (field, idx)")
            db.execute("DROP TABLE IF EXISTS played")
            db.execute("CREATE TEMP TABLE played AS SELECT DISTINCT field >> 32 AS event FROM "
                       "(SELECT field FROM entry WHERE tbl IS NULL GROUP BY field "
                       "HAVING count(*) > 1)")
            db.execute("DROP TABLE IF EXISTS member")
            db.execute("CREATE TEMP TABLE member (first INTEGER PRIMARY KEY, field INTEGER, "
                       "n INTEGER, players INTEGER, texts TEXT)")
            # no ScoreTable and no event played: no member, and no second pass over every entry
            # (a hand record of a board a table: 0.06 s at 200,000 boards, at the run's end)
            if self.tabled or db.execute("SELECT 1 FROM played LIMIT 1").fetchone():
                db.execute("INSERT INTO member SELECT min(idx), field, count(CASE WHEN tbl IS "
                           "NULL THEN 1 END), count(DISTINCT CASE WHEN tbl IS NULL THEN names "
                           "END), group_concat(DISTINCT CASE WHEN tbl IS NULL THEN texts END) "
                           "FROM entry GROUP BY field HAVING max(tbl IS NOT NULL) OR "
                           "(field >> 32) IN (SELECT event FROM played)")
            self._members = self.entries
        return True

    def counts(self) -> Iterator[tuple[int, int, int, str | None]]:
        """For each field of ``members``, in the same order: its number, its entries without
        a ScoreTable, how many different players they have, and their shared texts' numbers
        (``texts``, each once, joined by commas; None when there are none)."""
        if not self._grouped():
            return iter(())
        return self.db().execute("SELECT field, n, players, texts FROM member ORDER BY first")

    def field_entries(self, field: int) -> list[tuple]:
        """The entries of ``field`` (``ENTRY``'s columns), in the order they came."""
        return self.db().execute(f"SELECT {ENTRY} FROM entry e WHERE e.field = ? ORDER BY "
                                 "e.idx", (field,)).fetchall()

    def untabled(self, field: int) -> Iterator[tuple]:
        """The entries of ``field`` without a ScoreTable, in the order they came."""
        return self.db().execute(f"SELECT {ENTRY} FROM entry e WHERE e.field = ? AND e.tbl "
                                 "IS NULL ORDER BY e.idx", (field,))

    # --- the figures ----------------------------------------------------------------------

    def put_figures(self, rows: Iterable[tuple]) -> None:
        """Rows of ``figure``: ordinal, n, the four figures (None: none), the method's
        number."""
        self._figures.extend(rows)
        if len(self._figures) >= _BATCH:
            self.flush()

    def put_notes(self, rows: Iterable[tuple]) -> None:
        """Rows of ``note``: its place in the order read, the note pickled."""
        self._notes.extend(rows)
        if len(self._notes) >= _BATCH:
            self.flush()

    def put_results(self, rows: Iterable[tuple]) -> None:
        """Rows of ``result``: its place in the order read, entry, method's number, the
        figures before and after."""
        self._results.extend(rows)
        if len(self._results) >= _BATCH:
            self.flush()

    def put_figures_of(self, method: int, start: int, stop: int) -> int:
        """Rows of ``figure`` made from the results of ``method`` (a teams match's: a room's
        figures are its result's, n = 2) numbered (``seq``) from ``start`` up to ``stop``, by
        the database; how many."""
        self.flush()
        return self.db().execute(
            "INSERT INTO figure SELECT e.ordinal, 2, NULL, NULL, r.before, r.after, r.method "
            "FROM result r JOIN entry e ON e.idx = r.idx WHERE r.seq >= ? AND r.seq < ? AND "
            "r.method = ?", (start, stop, method)).rowcount


    def put_copies(self, rows: Iterable[tuple[int, int]]) -> None:
        """Rows of ``copy``: a record read twice (its place among the board rows) and the
        first reading's place, whose figures it takes (``copy_figures``)."""
        self._copies.extend(rows)
        if len(self._copies) >= _BATCH:
            self.flush()

    def copy_figures(self) -> int:
        """Every ``copy`` given the figures of its first reading, if it has any, by the
        database, once every field is scored (a query a copy cost 10 us each, and a vugraph
        archive read twice is half copies); how many."""
        self.flush()
        if self._db is None:
            return 0
        db = self._db
        db.execute("CREATE INDEX IF NOT EXISTS figure_at ON figure (ordinal)")
        got = db.execute("INSERT INTO figure SELECT c.ordinal, f.n, f.mp, f.mp_after, f.imps, "
                         "f.imps_after, f.method FROM copy c JOIN figure f ON f.ordinal = "
                         "c.first").rowcount
        db.execute("DELETE FROM copy")
        return got


#: An entry's columns as ``members`` and the results give them.
ENTRY = ("e.idx, e.ordinal, e.field, e.before, e.after, e.line, e.game, e.texts, e.contract, "
         "e.declarer, e.vul, e.names, e.tbl")


def _columns(rows: Sequence[tuple], start: int, stop: int) -> list[tuple]:
    """The columns ``start`` to ``stop`` of ``rows``."""
    return [tuple(row[c] for row in rows) for c in range(start, stop)]


def table_of(text: str | None) -> tuple[str, tuple[str, ...]] | None:
    """A ScoreTable as kept (``Store.add``), as ``Entry`` holds it: its tag, its lines."""
    if text is None:
        return None
    tag, lines = json.loads(text)
    return tag, tuple(lines)
