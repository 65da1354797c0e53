"""A board's field: the results of one board across the tables of one event, as figures.

Pure functions over N-S scores (ints, duplicate points), the arithmetic a club scorer's
program does after the session:

- matchpoints: 2 per score beaten, 1 per score tied, as a percentage of the top, 2 x (n - 1);
  ``neuberg``: a board played fewer times than the event's largest field, each result taken
  to stand for N/n results (MP' = (MP + 1) x N / n - 1, on the same 2-per-beat scale);
- ``imps``: the WBF IMP scale (a difference of 20-40 points is 1 IMP, ... 4000 and more 24);
- cross-IMPs: the mean of the IMPs against every other result of the field;
- Butler: IMPs against a datum, the mean of the field without its top and bottom results
  (``trim`` of each), rounded to the nearest 10 (a half up, towards N-S), as club programs do;
- teams: the two rooms of a match, IMPs of one room's N-S score against the other's; a match's
  IMPs as Victory Points on the WBF continuous scale of 2013 (``victory_points``).

Nothing here knows a record or a report: fields are gathered after the per-board work
(``rescore``), and these functions only count."""
from __future__ import annotations

from bisect import bisect_left, bisect_right
from math import floor, sqrt
from typing import Sequence

#: The lower bound of each IMP on the WBF scale: a difference of ``_IMP_STEPS[k]`` or more
#: points is worth at least k + 1 IMPs.
IMP_STEPS = _IMP_STEPS = (20, 50, 90, 130, 170, 220, 270, 320, 370, 430, 500, 600, 750, 900, 1100, 1300,
              1500, 1750, 2000, 2250, 2500, 3000, 3500, 4000)


def imps(difference: float) -> int:
    """IMPs (WBF scale) for a difference in points, signed as the difference is."""
    won = bisect_right(_IMP_STEPS, abs(difference))
    return won if difference >= 0 else -won


def matchpoints(scores: Sequence[int]) -> list[int]:
    """Each score's matchpoints against the others: 2 per score it beats, 1 per tie (the
    scores below it, and those below or equal, itself once too many)."""
    ordered = sorted(scores)
    return [bisect_left(ordered, s) + bisect_right(ordered, s) - 1 for s in scores]


def mp_percentages(scores: Sequence[int], largest: int | None = None) -> list[float] | None:
    """Each score's percentage for N-S: its matchpoints over the top, 2 x (n - 1); with
    ``largest`` (the event's largest field) above n, Neuberg's formula first (``neuberg``).
    None for a field of fewer than two results (nothing to compare)."""
    n = len(scores)
    if n < 2:
        return None
    mps = matchpoints(scores)
    if largest is not None and largest > n:
        top = 2 * (largest - 1)  # neuberg(mp, n, largest), written out: one call a field
        return [100 * ((mp + 1) * largest / n - 1) / top for mp in mps]
    top = 2 * (n - 1)
    return [100 * mp / top for mp in mps]


def neuberg(mp: float, n: int, largest: int) -> float:
    """Neuberg's formula: matchpoints ``mp`` earned in a field of ``n`` results (2 per beat)
    as on a field of ``largest``: (mp + 1) x largest / n - 1."""
    return (mp + 1) * largest / n - 1


def cross_imps(scores: Sequence[int]) -> list[float] | None:
    """Each score's cross-IMPs for N-S: the mean of its IMPs against every other result.
    None for a field of fewer than two results.

    Counted, not compared pair by pair: a score ``s`` earns one IMP against each result at
    least ``_IMP_STEPS[k]`` below it, for every step k, and loses one against each at least
    that far above; with the scores sorted each count is a bisection, so a field of n results
    costs n log n (each distinct score once), not n squared."""
    n = len(scores)
    if n < 2:
        return None
    ordered = sorted(scores)
    of = {s: _imps_against(s, ordered) / (n - 1) for s in set(scores)}
    return [of[s] for s in scores]


def _imps_against(s: int, ordered: list[int]) -> int:
    """The sum of ``imps(s - t)`` over every t of ``ordered`` (sorted)."""
    n = len(ordered)
    return sum(bisect_right(ordered, s - step) - n + bisect_left(ordered, s + step)
               for step in _IMP_STEPS)


def weighted_figures(method: str, values: Sequence[int], counts: Sequence[int],
                     trim: int = 1) -> list[float] | None:
    """Each distinct score's figure for N-S in a field where score ``values[i]`` was made at
    ``counts[i]`` tables (a PBN ScoreTable's Multiplicity): the same figures as ``mp_percentages``
    (``mp``), ``cross_imps`` (``cross-imp``) or ``butler`` over the field written out, without
    writing it out (a count of fifty million costs what a count of one does).  None for a
    field of fewer than two results."""
    order = sorted(range(len(values)), key=values.__getitem__)
    ordered = [values[i] for i in order]
    weights = [counts[i] for i in order]
    below = [0]  # below[k]: the tables of the k lowest scores
    for w in weights:
        below.append(below[-1] + w)
    n = below[-1]
    if n < 2:
        return None
    if method.startswith("mp"):
        top = 2 * (n - 1)
        return [100 * (2 * below[bisect_left(ordered, v)]
                       + _count(ordered, below, v, v) - 1) / top for v in values]
    if method == "butler":
        base = weighted_datum(ordered, weights, trim)
        return [imps(v - base) for v in values]
    totals = []
    for v in values:  # against every table: k IMPs for a difference past k steps
        total = 0
        for step in _IMP_STEPS:
            total += below[bisect_right(ordered, v - step)]
            total -= n - below[bisect_left(ordered, v + step)]
        totals.append(total / (n - 1))
    return totals


def _count(ordered: list[int], below: list[int], low: int, high: int) -> int:
    """The tables whose score is from ``low`` to ``high``."""
    return below[bisect_right(ordered, high)] - below[bisect_left(ordered, low)]


def weighted_datum(ordered: list[int], weights: list[int], trim: int = 1) -> int | None:
    """``datum`` over a field of ``ordered`` (sorted) scores made ``weights`` times each;
    None for an empty field."""
    n = sum(weights)
    if not n:
        return None
    cut = trim if trim > 0 and n - 2 * trim >= 1 else 0
    total = kept = 0
    start = 0  # tables before this score's
    for v, w in zip(ordered, weights):
        inside = min(start + w, n - cut) - max(start, cut)
        if inside > 0:
            total += v * inside
            kept += inside
        start += w
    return int(floor(total / kept / 10 + 0.5)) * 10


def datum(scores: Sequence[int], trim: int = 1) -> int | None:
    """The Butler datum: the mean of ``scores`` without the ``trim`` highest and ``trim``
    lowest (no trimming when that would leave nothing), rounded to the nearest 10 (a half
    up).  None for an empty field."""
    if not scores:
        return None
    ordered = sorted(scores)
    if trim > 0 and len(ordered) - 2 * trim >= 1:
        ordered = ordered[trim:-trim]
    mean = sum(ordered) / len(ordered)
    return int(floor(mean / 10 + 0.5)) * 10


def butler(scores: Sequence[int], trim: int = 1) -> list[int] | None:
    """Each score's IMPs for N-S against the field's datum (``datum``).  None for a field of
    fewer than two results."""
    if len(scores) < 2:
        return None
    base = datum(scores, trim)
    return [imps(s - base) for s in scores]


def teams(open_ns: int, closed_ns: int) -> tuple[int, int]:
    """IMPs for N-S in each room of a match: (the open room's, the closed room's).  The team
    sitting N-S in the open room wins the first, and (sitting E-W in the closed room) the
    negative of the second, which is the same number."""
    return imps(open_ns - closed_ns), imps(closed_ns - open_ns)


def ranks(scores: Sequence[float]) -> list[int]:
    """Each score's rank, 1 the highest; equal scores share a rank, and the next rank counts
    them all (1, 2, 2, 4): one plus the scores above it, found by sorting (n log n)."""
    ordered = sorted(scores)
    n = len(ordered)
    return [1 + n - bisect_right(ordered, s) for s in scores]


def victory_points(margin: float, boards: int) -> float:
    """The Victory Points (of 20) of a team that wins a match of ``boards`` boards by
    ``margin`` IMPs, on the WBF continuous scale of 2013 (The New WBF IMP to VP Scales,
    technical report of the WBF Scoring Panel): with tau = (sqrt 5 - 1) / 2 and the blitz
    margin B = 15 sqrt(boards), VP = 10 + 10 (1 - tau^(3 m / B)) / (1 - tau^3) for a margin
    m below B, 20 at B and beyond; the loser gets 20 - VP; two decimals.  The published
    tables are this formula to two decimals (a few of them corrected by 0.01 by hand to keep
    each IMP worth no more than the one before: not reproduced here)."""
    if boards < 1:
        raise ValueError(f"a match has at least one board, not {boards}")
    m = abs(margin)
    blitz = 15 * sqrt(boards)
    won = 20.0 if m >= blitz else 10 + 10 * (1 - _TAU ** (3 * m / blitz)) / (1 - _TAU ** 3)
    won = round(won, 2)
    return won if margin >= 0 else round(20 - won, 2)


_TAU = (sqrt(5) - 1) / 2


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st ..."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"
