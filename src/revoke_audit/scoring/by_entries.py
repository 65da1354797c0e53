"""One field scored from its entries (``rescore.Entry``, every column of a table's row): the
general way, for any field - a record with a PBN ScoreTable scored on it, a record read twice
counted once, the same players at two tables, a field of one result, a teams match without
its two rooms - each case's figures or notes (SC001, SC002, SC004, SC005).  ``rescore`` scores
the plain fields straight from their rows (``field_rows``) and the others here."""
from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING, Iterable, Iterator

from .field import butler, cross_imps, mp_percentages, teams, weighted_figures
from .figures import Figures, Results
from .notes import Note, Part, note as _note, note_at
from .scoretable import MAX_TABLES, check, counts, own_row, parse_table, table_method

if TYPE_CHECKING:
    from .rescore import Entry

ROOMS = ("open", "closed")  # a match's rooms (lower case)


def once(entries: list[Entry]) -> tuple[list[Entry], dict[int, int], str]:
    """The entries of a field counted once, a record read twice (same room, players and
    result) once: the entries kept, the copies' ordinals each to its first's; and the method
    its records ask for (``method_of``)."""
    if len({e.names for e in entries}) == len(entries):  # no two tables with the same players
        return entries, {}, method_of(entries)
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
    return kept, copies, method_of(kept)


def score_on_table(key: tuple, e: Entry, method: str | None, trim: int, notes: Part,
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


def method_of(entries: list[Entry]) -> str:
    """The method a field's records ask for: their ``Scoring`` tag, else two rooms (Open,
    Closed) of a match make teams, else matchpoints."""
    tag = next((e.scoring.lower() for e in entries if e.scoring), "")
    return method_asked(tag, all(e.room.lower() in ROOMS for e in entries))


def method_asked(tag: str, rooms: bool) -> str:
    """``method_of`` a field whose first ``Scoring`` tag is ``tag`` (lower case; empty: none)
    and whose tables are all ``rooms`` (Open or Closed)."""
    if "butler" in tag:
        return "butler"
    if "cross" in tag:
        return "cross-imp"
    if "imp" in tag:
        return "teams" if rooms else "cross-imp"
    if tag:
        return "mp"
    return "teams" if rooms else "mp"


def score_field(key: tuple, kept: list[Entry], method: str, largest: int,
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
        return _score_teams(key, kept, notes, results)
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


def _score_teams(key: tuple, entries: list[Entry], notes: Part, results: Results) -> None:
    """Each match's two rooms on the IMP scale (their boards' figures made from these results,
    ``Figures.put_teams``); a match without both rooms is a note."""
    matches: dict[str, list[Entry]] = defaultdict(list)
    for e in entries:
        matches[e.match].append(e)
    for rooms in matches.values():
        named = sorted(rooms, key=lambda e: e.room.lower() != "open")
        if len(rooms) != 2 or sorted(e.room.lower() for e in rooms) != ["closed", "open"]:
            notes.extend(room_notes(key, [(e.source, e.line, e.game, e.room) for e in rooms]))
            continue
        o, c = named
        before, after = teams(o.before, c.before), teams(o.after, c.after)
        results.add(o, "teams", before[0], after[0], late=True)
        results.add(c, "teams", before[1], after[1], late=True)


def room_notes(key: tuple, rooms: list[tuple[str, int, int, str]]) -> Iterator[Note]:
    """SC001: a teams match (its tables at ``rooms``: source, line, game, room) without its
    open and closed rooms once each."""
    cause = ("not scored: a room is missing" if len(rooms) == 1 else
             "not scored: a match has a room twice, or more than two rooms")
    return (note_at(at, key, "SC001", f"board {key[3]} of a teams match needs its open and "
                    "closed rooms, once each: its figures stay empty", cause) for at in rooms)


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
