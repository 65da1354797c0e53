"""What a board's field needs, gathered from its boards.csv row as the rows go by, once and
column-wise, whatever made the row: a full audit's row (a dict) or the lane's CSV lines (a
run of clean boards, ``CleanRun``, or a ``LeanRow``).  Both are read as the cells boards.csv
writes, so a board gives the same entry either way (``scoring.rescore.Fields``: the scoring
itself, which imports no report).  After the last board, the notes of the fields that cannot
be scored come as one item (``FieldNotes``)."""
from __future__ import annotations

import csv
from functools import partial
from operator import itemgetter
from typing import Callable, Iterable, Iterator, Sequence

from ..core.visible import safe_cell
from ..scoring.rescore import Fields, cell_text, stated_score
from ..scoring.notes import Note, summary_lines
from .rows import BOARD_COLUMNS, FINDING_COLUMNS, CleanRun, LeanRow, Rendered, run_tags

_WANTED = ("source", "line", "game", "event", "date", "board", "room", "vul", "declarer",
           "contract", "play", "tricks_stated", "score_ns", "score_ns_adjusted", "status",
           "scoring", "north", "east", "south", "west")
_CELLS = itemgetter(*(BOARD_COLUMNS.index(c) for c in _WANTED))  # of a boards.csv line
_LAST = max(BOARD_COLUMNS.index(c) for c in _WANTED) + 1  # the cells a line is split into
_ROW = itemgetter(*_WANTED)  # of a row
#: The cells that may carry the quote that keeps a spreadsheet from reading them as a formula.
_QUOTABLE = tuple(_WANTED.index(c) for c in ("source", "event", "date", "room", "vul",
                                              "declarer", "contract", "north", "east", "south",
                                              "west"))
_NO_TAG = ("", "", "", None)
#: What a line's field needs known before the line is deferred (``_defer``).
_KEY = itemgetter(*(BOARD_COLUMNS.index(c) for c in ("event", "date", "board", "status",
                                                      "scoring")))
_KEY_LAST = max(BOARD_COLUMNS.index(c) for c in ("event", "date", "board", "status",
                                                  "scoring")) + 1


_NOTES = 4096  # the notes in one line of --format jsonl (``FieldNotes.line``)
_ITEM = 256  # the notes in one item: a generator holds its last item while the next is made


class FieldNotes(Rendered):
    """Notes of the fields that could not be scored, every board's in findings.csv, and
    in the text output one line per event and cause (``summary``: all the run's, given by
    the first of these items; ``counted``).  ``line``: which line of ``--format jsonl`` they
    go in, 4,096 notes a line, however many items carry them."""

    counted: dict[tuple[str, str, str], int] | None = None
    line: int = 0

    def summary(self, line: Callable[[dict[str, object]], str]) -> list[str]:
        return summary_lines(self.counted or {})

    def __reduce__(self):
        """Pickled as a ``Rendered`` is (held on disk for the figures: ``Deferred``), and
        unpickled as itself, with its counts and its line."""
        return _unpickled, (*super().__reduce__()[:2], self.counted, self.line)


def _unpickled(make: Callable, args: tuple, counted: dict | None, line: int) -> FieldNotes:
    return _notes(make(*args).findings, counted, line)


def noted(fields: Fields, rendered: Iterable[Rendered]) -> Iterator[Rendered]:
    """``rendered`` as it is, each board's figures gathered into ``fields``; after the last
    board, the notes of the fields that cannot be scored (items without a board row, read
    back from disk a few hundred at a time)."""
    for r in rendered:
        if r.row is not None:
            add(fields, r)
        yield r
    notes = fields.score().notes
    counted = notes.counted() if notes else None
    batch: list[Note] = []
    for k, note in enumerate(notes):
        batch.append(_finding(note))
        if len(batch) == _ITEM:  # _NOTES a multiple of it: an item's notes share a line
            yield _notes(batch, counted, k // _NOTES)
            batch, counted = [], None
    if batch:
        yield _notes(batch, counted, k // _NOTES)


def _notes(batch: list[Note], counted: dict | None, line: int) -> FieldNotes:
    item = FieldNotes(None, batch)
    item.counted, item.line = counted, line
    return item


def _signed(row: dict) -> dict:
    """The field scores the result the Director signs: Law 64C's where it assigns one (a lean
    row, a board without findings, never has one)."""
    if row.get("ruling_64c") == "adjusted" and row.get("score_ns_64c") is not None:
        return {**row, "score_ns_adjusted": row["score_ns_64c"]}
    return row


def add(fields: Fields, r: Rendered) -> None:
    """The board (or boards, a ``CleanRun``) of ``r`` into ``fields``, at the next
    ordinals."""
    if type(r) is CleanRun or type(r.row) is LeanRow:
        text = r.csv[0] if r.csv is not None else ""
        tags = run_tags(r)
        if not tags and '"' not in text and "'" not in text:  # cells as they are: deferred
            _defer(fields, fields.boards, text.splitlines())
            fields.boards += r.boards
            return
        lines = text.splitlines()
        split = csv.reader(lines) if '"' in text else (line.split(",", _LAST) for line in lines)
        cells, quoted = list(map(_CELLS, split)), "'" in text
    else:
        cells, quoted = [tuple(cell_text(safe_cell(v)) for v in _ROW(_signed(r.row)))], True
    if cells:
        gather(fields, fields.boards, cells, run_tags(r), quoted)
    fields.boards += r.boards


def _defer(fields: Fields, start: int, lines: list[str]) -> None:
    """Boards at ``start`` onwards as their boards.csv lines (plain cells: no quote, no
    Field tags) into ``fields`` as they are, with their fields' keys (``Fields.defer``):
    the lines that may be gathered, read back at the end only when their field may be
    scored (``_read_back``).  A board alone in its field is split once, never gathered."""
    keys = list(map(_KEY, (line.split(",", _KEY_LAST) for line in lines)))
    kept = [i for i, (_, _, b, st, s) in enumerate(keys)
            if s == "duplicate" and b and st != "unreadable"]
    if kept:
        fields.defer([start + i for i in kept], [(keys[i][0], "", keys[i][1]) for i in kept],
                     [keys[i][2].strip() for i in kept], [lines[i] for i in kept],
                     _read_back)


def _read_back(fields: Fields, batch: list[tuple[int, int, str]]) -> None:
    """Deferred lines (their places, ordinals, lines: ``_defer``) gathered as they would
    have been when they came."""
    indexes, ordinals, lines = zip(*batch)
    cells = [_CELLS(line.split(",", _LAST)) for line in lines]
    gather(fields, 0, cells, {}, False, (indexes, ordinals))


def gather(fields: Fields, start: int, rows: list[tuple[str, ...]], tags: dict,
           quoted: bool, places: tuple[Sequence[int], Sequence[int]] | None = None) -> None:
    """Boards at ``start`` onwards as their boards.csv cells (``_WANTED``) into ``fields``,
    column by column: those with a duplicate score (as played or adjusted, else as stated
    when no play is recorded) and a board number.  ``tags``: ``FieldTags`` by a board's
    place; ``quoted``: a cell may keep the quote ``cell_text`` takes away; ``places``: deferred
    lines' places and ordinals (``_read_back``), in place of ``start`` onwards."""
    columns = raw = list(zip(*rows))
    if quoted:
        columns = list(raw)
        for c in _QUOTABLE:
            columns[c] = tuple(map(cell_text, columns[c]))
    (source, line, game, event, date, board, room, vul, declarer, contract, play, tricks,
     score, adjusted, status, scoring, north, east, south, west) = columns
    kept = [i for i, (s, b, st) in enumerate(zip(scoring, board, status))
            if s == "duplicate" and b and st != "unreadable"]
    if all(score[i] and adjusted[i] for i in kept):
        before, after = [int(score[i]) for i in kept], [int(adjusted[i]) for i in kept]
    else:
        kept, before, after = _stated(kept, raw)  # the cells as written, as ever
    if not kept:
        return
    got = [tags.get(i, _NO_TAG) for i in kept] if tags else [_NO_TAG] * len(kept)
    section, tag, match, table = zip(*got)
    if places is None:
        add_to, ordinals = fields.add, [start + i for i in kept]
    else:
        at = places[0]
        add_to = partial(fields.add_at, [at[i] for i in kept])
        ordinals = [places[1][i] for i in kept]
    add_to(ordinals, [(event[i], s, date[i]) for i, s in zip(kept, section)],
           [board[i].strip() for i in kept], before, after,
           [int(line[i] or 0) for i in kept], [int(game[i] or 0) for i in kept],
           [(source[i], room[i], m, t, contract[i], declarer[i], vul[i])
            for i, m, t in zip(kept, match, tag)],
           [(north[i], east[i], south[i], west[i]) for i in kept], table)


def _stated(kept: list[int], columns: list) -> tuple[list[int], list[int], list[int]]:
    """The boards of ``kept`` whose scores are known, with them: each score as played or
    adjusted, else the stated result's (``stated_score``)."""
    (_, _, _, _, _, _, _, vul, declarer, contract, play, tricks, score, adjusted,
     *_) = columns
    out, before, after = [], [], []
    for i in kept:
        if score[i] and adjusted[i]:
            b, a = int(score[i]), int(adjusted[i])
        else:
            stated = stated_score(play[i], tricks[i], contract[i], declarer[i], vul[i])
            b = int(score[i]) if score[i] else stated
            a = int(adjusted[i]) if adjusted[i] else stated
            if b is None or a is None:
                continue
        out.append(i)
        before.append(b)
        after.append(a)
    return out, before, after


def _finding(note: Note) -> Note:
    """A field's note with every findings column, in their order."""
    out = Note.fromkeys(FINDING_COLUMNS)
    out.update(note)
    out.event, out.cause = note.event, note.cause
    return out
