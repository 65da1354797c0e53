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
from typing import Iterator

from .rescore import Result, Scored
from .scoring.field import ordinal, ranks

STANDING_COLUMNS = ("event", "section", "direction", "pair", "boards", "score",
                    "score_adjusted", "rank", "rank_adjusted")


def standings(scored: Scored) -> list[dict[str, object]]:
    """One row per pair (or team) and event (``STANDING_COLUMNS``), best first."""
    rows: list[dict[str, object]] = []
    for (event, section, _date), results in _events(scored.results).items():
        totals = _totals(results)
        groups: dict[str, list[tuple[str, list]]] = defaultdict(list)
        for (direction, pair), t in totals.items():
            groups[direction].append((pair, t))
        mean = all(r.method.startswith("mp") for r in results)
        for direction, pairs in sorted(groups.items(), key=lambda g: g[0] != "NS"):
            before = [_two(t[1] / t[0] if mean else t[1]) for _, t in pairs]
            after = [_two(t[2] / t[0] if mean else t[2]) for _, t in pairs]
            rank, rank_after = ranks(before), ranks(after)
            table = [{"event": event, "section": section, "direction": direction,
                      "pair": pair, "boards": t[0], "score": b, "score_adjusted": a,
                      "rank": r, "rank_adjusted": ra}
                     for (pair, t), b, a, r, ra in zip(pairs, before, after, rank, rank_after)]
            rows.extend(sorted(table, key=lambda row: (row["rank_adjusted"], row["pair"])))
    return rows


def changes(scored: Scored, table: list[dict[str, object]]) -> Iterator[str]:
    """What the adjustments did, for the text output: each adjusted board's pairs' figures
    before and after, then every pair whose rank changed."""
    adjusted = {r.key for r in scored.results if r.entry.before != r.entry.after}
    for key in sorted(adjusted, key=lambda k: (k[:3], _number(k[3]))):
        results = [r for r in scored.results if r.key == key]
        mp = results[0].method.startswith("mp")
        yield f"board {key[3]} ({_event(key)}), {results[0].method}:"
        for r in results:
            (ns, ew), e = _pairs(r), r.entry
            change = ("" if e.before == e.after else f"; N-S {e.before:+d} -> {e.after:+d}")
            yield (f"  N-S {ns}: {_figure(r.before, mp)} -> {_figure(r.after, mp)}, "
                   f"E-W {ew}: {_figure(_ew(r.before, mp), mp)} -> "
                   f"{_figure(_ew(r.after, mp), mp)}{change}")
    for row in table:
        if row["rank"] != row["rank_adjusted"]:
            direction = f" ({row['direction']})" if row["direction"] else ""
            yield (f"{row['pair']}{direction}: {ordinal(row['rank'])} -> "
                   f"{ordinal(row['rank_adjusted'])} ({row['score']:.2f} -> "
                   f"{row['score_adjusted']:.2f})")


def _events(results: list[Result]) -> dict[tuple, list[Result]]:
    out: dict[tuple, list[Result]] = defaultdict(list)
    for r in results:
        if all(r.entry.names):
            out[r.key[:3]].append(r)
    return out


def _totals(results: list[Result]) -> dict[tuple[str, str], list]:
    """(direction, pair) -> [boards, sum before, sum after]."""
    sides = [(_pairs(r), r) for r in results]
    ns = {p[0] for p, _ in sides}
    ew = {p[1] for p, _ in sides}
    apart = not (ns & ew) and all(r.method != "teams" for r in results)
    totals: dict[tuple[str, str], list] = {}
    for (ns_pair, ew_pair), r in sides:
        mp = r.method.startswith("mp")
        for direction, pair, b, a in (("NS", ns_pair, r.before, r.after),
                                      ("EW", ew_pair, _ew(r.before, mp), _ew(r.after, mp))):
            t = totals.setdefault((direction if apart else "", pair), [0, 0.0, 0.0])
            t[0] += 1
            t[1] += b
            t[2] += a
    return totals


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


def _ew(x: float, mp: bool) -> float:
    return 100 - x if mp else -x


def _figure(x: float, mp: bool) -> str:
    return f"{x:.2f}%" if mp else f"{x:+.2f} IMPs"


def _two(x: float) -> float:
    return round(x, 2)


def _event(key: tuple) -> str:
    return " ".join(p for p in key[:3] if p) or "no event"


def _number(board: str) -> tuple[int, str]:
    return (int(board), board) if board.isdigit() else (1 << 30, board)
