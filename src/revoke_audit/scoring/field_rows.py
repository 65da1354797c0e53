"""A field scored straight from its rows on disk (``store.members`` with ``ROW``'s columns):
the common fields of a run's end - a teams match's two rooms, a field of tables with different
players and no ScoreTable - without an ``Entry`` a table, their results written as plain
rows, a field at a time (a teams match's figures made from them by the database,
``Figures.put_teams``).  Anything else (a ScoreTable, a record read twice, the same players at
two tables, a field of one result not of a match) is scored from its entries
(``by_entries``), which give the same figures for these (``tests/test_field_rows.py`` holds
them equal).

The figures are ``rescore``'s (Law 78: matchpoints, IMPs across the field, Butler, and the
IMPs of a teams match's two rooms, Law 78B), only counted with fewer objects."""
from __future__ import annotations

from operator import itemgetter
from typing import Mapping

from .field import butler, cross_imps, imps, mp_percentages
from .figures import METHOD_NUMBERS

#: A field's entries as this module reads them (``Store.members``): one row each.
ROW = ("e.idx, e.ordinal, e.field, e.before, e.after, e.texts, e.names, "
       "e.tbl IS NOT NULL, e.line, e.game")
IDX, ORDINAL, FIELD, BEFORE, AFTER, TEXTS, NAMES, TABLED, LINE, GAME = range(10)
_TEAMS = METHOD_NUMBERS["teams"]


def plain(rows: list[tuple]) -> bool:
    """Can ``rows`` be scored here: no ScoreTable among them and no two with the same players
    (so no record read twice: ``by_entries.once`` keeps them all)?"""
    return len(set(map(_NAMES, rows))) == len(rows) and not any(map(_TABLED, rows))


def teams(rows: list[tuple], rooms: Mapping[int, tuple[str, str]], seq: int,
          results: list[tuple]) -> list[list[tuple]]:
    """A teams field's matches, each its open and closed rooms on the IMP scale (Law 78B,
    ``field.teams``: the closed room's IMPs the open room's negated), appended to ``results``
    (rows of ``result``, numbered from ``seq``; the boards' figures are made from them,
    ``Figures.put_teams``), in the order of each match's first table, the open room first;
    ``rooms``: a table's match and room (lower case) by its texts' number.  Returns the
    matches that have not their two rooms once each, their rows in order (``rescore`` notes
    them: SC001)."""
    if len(rows) == 2:  # most fields: one match, its two rooms
        a, b = rows
        (match, room), (other, other_room) = rooms[a[TEXTS]], rooms[b[TEXTS]]
        if match != other:
            return [[a], [b]]
        if room == "open" and other_room == "closed":
            _match(a, b, seq, results)
            return []
        if room == "closed" and other_room == "open":
            _match(b, a, seq, results)
            return []
        return [rows]
    matches: dict[str, list[tuple]] = {}
    for r in rows:
        match, room = rooms[r[TEXTS]]
        got = matches.get(match)
        if got is None:
            matches[match] = [r, room]
        else:
            got += (r, room)
    bad = []
    for got in matches.values():
        if len(got) == 4 and got[1] != got[3] and got[1] in _PAIR and got[3] in _PAIR:
            if got[1] == "open":
                _match(got[0], got[2], seq, results)
            else:
                _match(got[2], got[0], seq, results)
            seq += 2
        else:
            bad.append(got[::2])
    return bad


_PAIR = ("open", "closed")
_NAMES, _TABLED = itemgetter(NAMES), itemgetter(TABLED)


def _match(o: tuple, c: tuple, seq: int, results: list[tuple]) -> None:
    """A match's results: its open room ``o`` and closed room ``c``, numbered from ``seq``."""
    before = imps(o[BEFORE] - c[BEFORE])
    after = before if o[AFTER] == o[BEFORE] and c[AFTER] == c[BEFORE] else \
        imps(o[AFTER] - c[AFTER])
    results += ((seq, o[IDX], _TEAMS, float(before), float(after)),
                (seq + 1, c[IDX], _TEAMS, float(-before), float(-after)))


def field_figures(method: str, rows: list[tuple], largest: int,
                  trim: int) -> tuple[str, list, list]:
    """A field's figures before and after the adjustments by ``method`` (not teams; two
    results or more): the method's name as written (``mp-neuberg`` when the event's
    ``largest`` field is larger, Neuberg's formula), then each row's figures in order."""
    before = [r[BEFORE] for r in rows]
    after = [r[AFTER] for r in rows]
    same = before == after  # most fields: no score adjusted, the same figures after
    if method == "mp":
        name = "mp-neuberg" if largest > len(rows) else "mp"
        fb = mp_percentages(before, largest)
        return name, fb, fb if same else mp_percentages(after, largest)
    figures = cross_imps if method == "cross-imp" else lambda s: butler(s, trim)
    fb = figures(before)
    return method, fb, fb if same else figures(after)
