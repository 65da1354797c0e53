"""The standings of each event before and after the audit's adjustments, and what changed, in
the words a director reads out (from ``rescore.Scored``).

A pair is its two players' names as the records give them ("Ed North & Gus South"); a team,
its ``HomeTeam``/``VisitTeam`` tag (the home team N-S in the open room), else each of its
pairs apart.  A pair scored by matchpoints has the mean of its
percentages; by IMPs (cross-IMPs, Butler, teams), the total.  When no pair of an event sits
both N-S and E-W (a Mitchell), each direction is ranked apart (``direction`` NS, EW); else
one ranking.  A table whose pairs are not named in full cannot be followed across boards: it
is left out of the standings (``rescore`` notes it, ``SC003``)."""
from __future__ import annotations

from collections import defaultdict
from typing import Iterable, Iterator, Mapping, NamedTuple

from ..core.cards import SEATS
from .rescore import Entry, Result, Scored, place
from .figures import OF_CHANGED
from . import result_string, score_ns
from .field import (datum, ordinal, ranks, victory_points, weighted_datum,
                             weighted_figures)
from .scoretable import counts, own_row, parse_table
from .totals import add_match as _add_match, ew as _ew, pair_events as _pair_events

STANDING_COLUMNS = ("event", "section", "direction", "pair", "boards", "score",
                    "score_adjusted", "rank", "rank_adjusted")


def standings(scored: Scored, victory_points: bool = False) -> list[dict[str, object]]:
    """One row per pair (or team, or side of a match) and event (``STANDING_COLUMNS``), best
    first; a pair that played less than half of its event's boards after the others, its
    rank empty (``_ranked``).  A teams event (its boards scored ``teams``): its teams where
    the records name them (``_team_rows``; with ``victory_points``, ranked by Victory Points
    on the WBF scale, else by IMPs), and the two sides of each match where they do not
    (``_match_rows``: direction ``match``)."""
    rows: list[dict[str, object]] = []
    events = _pair_events(scored.results)
    teams: dict[tuple[str, str], dict[str, list]] = {}
    for first, *sums in scored.results.rooms():  # each room of a match in a file, summed
        if first.entry.room.lower() == "open":
            _add_match(teams.setdefault(first.key[:2], {}), first.entry, sums)
    for (event, section, _date), got in events.items():
        totals = got.split if not (got.ns & got.ew) else got.joint
        groups: dict[str, list[tuple[str, list]]] = defaultdict(list)
        for (direction, pair), t in totals.items():
            groups[direction].append((pair, t))
        for direction, pairs in sorted(groups.items(), key=lambda g: g[0] != "NS"):
            before = [_two(t[1] / t[0] if got.mean else t[1]) for _, t in pairs]
            after = [_two(t[2] / t[0] if got.mean else t[2]) for _, t in pairs]
            rows.extend(_ranked(event, section, direction,
                                [(pair, t[0], b, a) for (pair, t), b, a
                                 in zip(pairs, before, after)], len(got.boards)))
    for (event, section), matches in teams.items():
        made = [_Match(*m[:4], (float(m[4]), float(m[5])), (float(m[6]), float(m[7])))
                for m in matches.values()]
        rows.extend(_team_rows(event, section, [m for m in made if m.named], victory_points))
        rows.extend(_match_rows(event, section, [m for m in made if not m.named]))
    return rows


def _ranked(event: str, section: str, direction: str,
            pairs: list[tuple[str, int, float, float]],
            boards: int) -> list[dict[str, object]]:
    """The rows of one ranking: each (pair, boards played, score before, after), ranked
    before and after, best after first.  A pair that played less than half of the event's
    ``boards`` (a substitute, a late arrival) is not ranked: its rows come after the others'
    with its boards and scores and no rank, by name."""
    kept = [p for p in pairs if 2 * p[1] >= boards]
    apart = sorted((p for p in pairs if 2 * p[1] < boards), key=lambda p: p[0])
    rank = ranks([p[2] for p in kept])
    rank_after = ranks([p[3] for p in kept])
    table = [_standing(event, section, direction, p, r, ra)
             for p, r, ra in zip(kept, rank, rank_after)]
    table.sort(key=lambda row: (row["rank_adjusted"], row["pair"]))
    return table + [_standing(event, section, direction, p, None, None) for p in apart]


def _standing(event: str, section: str, direction: str, pair: tuple[str, int, float, float],
              rank: int | None, rank_after: int | None) -> dict[str, object]:
    name, boards, before, after = pair
    return {"event": event, "section": section, "direction": direction, "pair": name,
            "boards": boards, "score": before, "score_adjusted": after, "rank": rank,
            "rank_adjusted": rank_after}


class _Match(NamedTuple):
    """One match of a teams event: its teams (home N-S in the open room; empty when not
    named), its label (its file and round), its boards, and the IMPs each team won, before
    and after the adjustments."""

    home: str
    visit: str
    label: str
    boards: int
    home_imps: tuple[float, float]
    visit_imps: tuple[float, float]

    @property
    def named(self) -> bool:
        return bool(self.home and self.visit)


def _team_rows(event: str, section: str, matches: list[_Match],
               by_vp: bool) -> list[dict[str, object]]:
    """Each named team's total over its matches, ranked: its IMPs won less its IMPs lost
    (net IMPs), or with ``by_vp`` its Victory Points (WBF continuous scale, each
    match by its own number of boards)."""
    totals: dict[str, list] = {}
    for m in matches:
        for team, (won, lost) in ((m.home, (m.home_imps, m.visit_imps)),
                                  (m.visit, (m.visit_imps, m.home_imps))):
            t = totals.setdefault(team, [0, 0.0, 0.0])
            t[0] += m.boards
            for i in (0, 1):
                margin = won[i] - lost[i]
                t[1 + i] += victory_points(margin, m.boards) if by_vp else margin
    pairs = [(team, t[0], _two(t[1]), _two(t[2])) for team, t in totals.items()]
    return _ranked(event, section, "", pairs, 0)


def _match_rows(event: str, section: str, matches: list[_Match]) -> list[dict[str, object]]:
    """The two sides of each match whose teams the records do not name: the IMPs each won,
    before and after the adjustments, ranked 1 and 2 within their match (direction
    ``match``)."""
    rows = []
    for m in matches:
        (home, home_after), (visit, visit_after) = m.home_imps, m.visit_imps
        sides = [(f"{m.label}: home (N-S in the open room)", m.boards, home, home_after),
                 (f"{m.label}: visitors (E-W in the open room)", m.boards, visit, visit_after)]
        ranked = zip(sides, _ranks_of_two(home, visit), _ranks_of_two(home_after, visit_after))
        rows.extend(_standing(event, section, "match", s, r, ra) for s, r, ra in ranked)
    return rows


def _ranks_of_two(a: float, b: float) -> tuple[int, int]:
    """``ranks([a, b])``, without a sort (a match's two sides, many matches a run)."""
    return (1, 1) if a == b else (1, 2) if a > b else (2, 1)


def changes(scored: Scored, table: list[dict[str, object]]) -> Iterator[str]:
    """What the adjustments did, for the text output: each adjusted board's pairs' figures
    before and after, each match whose IMPs changed, then every pair whose rank changed
    (``rank_changes``)."""
    yield from _board_changes(scored)
    yield from match_changes(table)
    yield from rank_changes(table)


def match_changes(table: list[dict[str, object]]) -> Iterator[str]:
    """Each match (its teams not named) whose IMPs the adjustments change:
    ``01ITASCO.PBN round 01: 45-32 -> 46-30 IMPs``."""
    sides = [row for row in table if row["direction"] == "match"]
    for home, visit in zip(sides[::2], sides[1::2]):
        if (home["score"], visit["score"]) != (home["score_adjusted"],
                                               visit["score_adjusted"]):
            label = str(home["pair"]).rsplit(": home", 1)[0]
            yield (f"{label}: {home['score']:g}-{visit['score']:g} -> "
                   f"{home['score_adjusted']:g}-{visit['score_adjusted']:g} IMPs "
                   "(home, visitors)")


def _board_changes(scored: Scored) -> Iterator[str]:
    # only the adjusted boards' results read (a few in a thousand, picked by the database):
    # on a vugraph archive of 2,204 files, making every table's ``Result`` twice cost a tenth
    # of a second at the end of the run, when only one process works
    results = scored.results
    adjusted: dict[tuple, set[str]] = defaultdict(set)  # a teams board: the matches changed
    by_key: dict[tuple, list[Result]] = defaultdict(list)  # the adjusted boards' results
    for r in map(results.result, results.rows(OF_CHANGED)):  # kept only for the boards shown
        by_key[r.key].append(r)
        if r.entry.before != r.entry.after:  # ``CHANGED``: one read of the results, not two
            adjusted[r.key].add(r.entry.match)
    for key in sorted(adjusted, key=lambda k: (k[:3], _number(k[3]))):
        results = by_key[key]
        if results[0].method == "teams":  # only the match of the adjusted room
            results = [r for r in results if r.entry.match in adjusted[key]]
        mp = results[0].method.startswith("mp")
        yield f"board {key[3]} ({_event(key)}), {results[0].method}:"
        for r in results:
            (ns, ew), e = _pairs(r), r.entry
            change = ("" if e.before == e.after else f"; N-S {e.before:+d} -> {e.after:+d}")
            yield (f"  N-S {ns}: {_figure(r.before, mp)} -> {_figure(r.after, mp)}, "
                   f"E-W {ew}: {_figure(_ew(r.before, mp), mp)} -> "
                   f"{_figure(_ew(r.after, mp), mp)}{change}")


def rank_changes(table: list[dict[str, object]]) -> Iterator[str]:
    """Every pair (or team) whose rank the adjustments change, best after first:
    ``Ed North & Gus South (NS): 3rd -> 1st (50.00 -> 66.67)``."""
    for row in table:
        if (row["rank"] is not None and row["rank"] != row["rank_adjusted"]
                and row["direction"] != "match"):  # a match's: ``match_changes``
            direction = f" ({row['direction']})" if row["direction"] else ""
            yield (f"{row['pair']}{direction}: {ordinal(row['rank'])} -> "
                   f"{ordinal(row['rank_adjusted'])} ({row['score']:.2f} -> "
                   f"{row['score_adjusted']:.2f})")


def _pairs(r: Result) -> tuple[str, str]:
    """The N-S and E-W pair (or team) of a table."""
    n, e, s, w = r.entry.names
    if r.method != "teams":
        return f"{n} & {s}", f"{e} & {w}"
    home, visit = r.entry.teams
    is_open = r.entry.room.lower() == "open"
    if home and visit:
        return (home, visit) if is_open else (visit, home)
    return f"{n} & {s}", f"{e} & {w}"


def _figure(x: float, mp: bool) -> str:
    return f"{x:.2f}%" if mp else f"{x:+.2f} IMPs"


def _two(x: float) -> float:
    return round(x, 2)


def _event(key: tuple) -> str:
    return " ".join(p for p in key[:3] if p) or "no event"


def _number(board: str) -> tuple[int, str]:
    return (int(board), board) if board.isdigit() else (1 << 30, board)


# --- one board's field, as the director reads it ---------------------------------------------

class TravellerRow(NamedTuple):
    """One result of a board's field: the pairs, the contract, and before and after the
    adjustments its result, N-S score and N-S figure (a percentage, or IMPs)."""

    ns: str  # the N-S pair's names (a team's name), a ScoreTable's pair id; "" unknown
    ew: str
    contract: str
    declarer: str  # N E S W, "" unknown
    result: str  # "3NT+1"; "" unknown
    result_adjusted: str
    score: int
    score_adjusted: int
    figure: float
    figure_adjusted: float
    own: bool  # the board this traveller is shown for
    times: int = 1  # the tables a ScoreTable's row stands for
    room: str = ""  # its Table tag's number, or its room (Open, Closed)


class Traveller(NamedTuple):
    """A board's field (a scorer's traveller) before and after the adjustments, every result
    highest N-S score (as played) first, the board's own table first of those alike (a teams
    board: each match's open room, then its closed)."""

    key: tuple[str, str, str, str]  # event, section, date, board
    method: str  # as ``scoring_method``: mp, mp-neuberg, cross-imp, butler, teams
    results: int  # how many compared (``field``)
    rows: list[TravellerRow]
    largest: int = 0  # the event's largest field (Neuberg's N)
    datum: tuple[int, int] | None = None  # Butler's, before and after
    trim: int = 1
    from_table: bool = False  # the record's ScoreTable

    @property
    def imps(self) -> bool:
        return not self.method.startswith("mp")

    def figure(self, x: float) -> str:
        """A figure as the traveller writes it: ``50.00`` (a percentage), ``+1.00`` (IMPs)."""
        return f"{x:+.2f}" if self.imps else f"{x:.2f}"

    def how(self) -> str:
        """The method in words, with its numbers."""
        n, big = self.results, self.largest
        words = {
            "mp": f"matchpoints: 2 per score beaten, 1 per tie, over a top of 2 x ({n} - 1) "
                  f"= {2 * (n - 1)}",
            "mp-neuberg": f"matchpoints, Neuberg's formula (the event's largest field is {big}):"
                          f" (MP + 1) x {big} / {n} - 1, over a top of 2 x ({big} - 1) = "
                          f"{2 * (big - 1)}",
            "cross-imp": "cross-IMPs: the mean of the IMPs (WBF scale) against each of the "
                         f"{n - 1} other results",
            "teams": "teams: the IMPs (WBF scale) of each match's open room N-S score against "
                     "its closed room's",
        }
        if self.method == "butler":
            top = ("top and bottom result" if self.trim == 1
                   else f"{self.trim} top and {self.trim} bottom results")
            text = (f"Butler: IMPs (WBF scale) against the datum, the mean of the field "
                    f"without its {top}, rounded to 10")
            if self.datum is not None:
                text += f": datum N-S {self.datum[0]:+d} before, {self.datum[1]:+d} after"
        else:
            text = words.get(self.method, self.method)
        return ("the record's ScoreTable; " if self.from_table else "") + text


class Travellers:
    """The travellers of a run's scored boards (``Scored``), found by a board's row (its
    source, line and game): what ``explain`` prints and the director's page shows.
    ``rows``: only those boards' are wanted (a page of a few boards of a large run)."""

    def __init__(self, scored: Scored,
                 rows: Iterable[Mapping[str, object]] | None = None) -> None:
        self.scored = scored
        wanted = None if rows is None else {_place(row) for row in rows}
        self._at: dict[tuple[str, int, int], Result] = {}
        for r in scored.results:
            at = (r.entry.source, r.entry.line, r.entry.game)
            if wanted is None or at in wanted:
                self._at[at] = r
        keys = {r.key for r in self._at.values()}
        self._fields: dict[tuple, list[Result]] = defaultdict(list)
        for r in scored.results:
            if r.entry.table is None and r.key in keys:
                self._fields[r.key].append(r)

    def of(self, row: Mapping[str, object]) -> Traveller | None:
        """The traveller of the board of ``row``; None when it was not scored."""
        mine = self._at.get(_place(row))
        if mine is None:
            return None
        if mine.entry.table is not None:
            return _table_traveller(mine, self.scored.trim)
        results = self._fields[mine.key]
        rows = [_row(r, r.entry.index == mine.entry.index) for r in results]
        if mine.method != "teams":
            rows.sort(key=lambda t: (-t.score, not t.own))
        scores = [r.entry.before for r in results], [r.entry.after for r in results]
        butler = (datum(scores[0], self.scored.trim), datum(scores[1], self.scored.trim)) \
            if mine.method == "butler" else None
        return Traveller(mine.key, mine.method, len(results), rows,
                         self.scored.largest.get(mine.key[:3], len(results)), butler,
                         self.scored.trim)


def _place(row: Mapping[str, object]) -> tuple[str, int, int]:
    return place(row["source"], row["line"], row["game"])


def _row(r: Result, own: bool) -> TravellerRow:
    e = r.entry
    ns, ew = _pairs(r) if any(e.names) else ("", "")
    return TravellerRow(ns, ew, e.contract, e.declarer, _result_of(e, e.before),
                        _result_of(e, e.after), e.before, e.after, r.before, r.after, own,
                        room=e.room)


def _result_of(e: Entry, score: int) -> str:
    """The result that scores ``score`` for N-S in the entry's contract (the score is the
    table's, as it was played or adjusted); "" when none does (a score not a result's)."""
    declarer = SEATS.index(e.declarer) if e.declarer in SEATS else None
    for tricks in range(14):
        if score_ns(e.contract, declarer, e.vul or None, tricks) == score:
            return result_string(e.contract, tricks)
    return ""


def _table_traveller(mine: Result, trim: int) -> Traveller | None:
    """The traveller of a record scored on its ScoreTable: the table's rows, the record's own
    (one of the tables its row stands for) apart, with its result as played and adjusted."""
    e = mine.entry
    table = parse_table(*e.table)
    own = own_row(table, e.before, e.contract, e.declarer)
    rows_of = counts(table)
    values = [v for v, _ in rows_of] + [e.after]
    times = [t for _, t in rows_of] + [0]
    before_of = dict(zip(values, weighted_figures(mine.method, values, times, trim)))
    times[values.index(e.before)] -= 1
    times[-1] += 1
    after_of = dict(zip(values, weighted_figures(mine.method, values, times, trim)))
    rows = []
    for row, (score, times_) in zip(table.rows, rows_of):
        if row is own:
            rows.append(_row(mine, True))
            times_ -= 1
        if times_:
            result = _table_result(row)
            rows.append(TravellerRow(_pair_id(row, "NS"), _pair_id(row, "EW"),
                                     row.get("Contract", ""), row.get("Declarer", ""), result,
                                     result, score, score, before_of[score], after_of[score],
                                     False, times_))
    rows.sort(key=lambda t: (-t.score, not t.own))
    n = sum(t for _, t in rows_of)
    butler = None
    if mine.method == "butler":
        field = sorted(rows_of)
        butler = (weighted_datum([v for v, _ in field], [t for _, t in field], trim),
                  weighted_datum(sorted(values), [t for _, t in sorted(zip(values, times))],
                                 trim))
    return Traveller(mine.key, mine.method, n, rows, n, butler, trim, True)


def _table_result(row: dict[str, str]) -> str:
    """A ScoreTable row's result: its contract and tricks (``Result``), as boards.csv writes
    a result; else its ``Result`` as written."""
    text = row.get("Result", "")
    if text.isdigit() and row.get("Contract"):
        return result_string(row["Contract"], int(text)) or text
    return text


def _pair_id(row: dict[str, str], side: str) -> str:
    pair = row.get(f"PairId_{side}", "")
    return f"pair {pair}" if pair else ""
