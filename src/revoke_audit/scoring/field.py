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
- teams: the two rooms of a match, IMPs of one room's N-S score against the other's.

Nothing here knows a record or a report: fields are gathered after the per-board work
(``rescore``), and these functions only count."""
from __future__ import annotations

from bisect import bisect_left, bisect_right
from math import floor
from typing import Sequence

#: The lower bound of each IMP on the WBF scale: a difference of ``_IMP_STEPS[k]`` or more
#: points is worth at least k + 1 IMPs.
_IMP_STEPS = (20, 50, 90, 130, 170, 220, 270, 320, 370, 430, 500, 600, 750, 900, 1100, 1300,
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
    None for a field of fewer than two results."""
    n = len(scores)
    if n < 2:
        return None
    return [sum(imps(s - t) for t in scores) / (n - 1) for s in scores]


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
    them all (1, 2, 2, 4)."""
    return [1 + sum(1 for t in scores if t > s) for s in scores]


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st ..."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"
