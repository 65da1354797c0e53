"""An event's totals as its results go by, for the standings (``standings`` ranks them):
each pair's boards and sums before and after the adjustments, the boards of the event, each
teams match's IMPs; read from the run's results (``figures.Results``) a few numbers a table,
never an object a table, and kept an event's totals at a time, never its results."""
from __future__ import annotations

from .figures import METHOD_NAMES, Results
from .rescore import Entry
from .store import is_number

_MP = tuple(name.startswith("mp") for name in METHOD_NAMES)  # by the method's number
_UNSEEN = ("", "")


def pair_events(results: Results) -> dict[tuple, "Pairs"]:
    """Each event's ``Pairs`` from its results not scored as teams whose players are named,
    streamed (each event's totals kept, never its results); the pairs named once for their
    players, a board's key found once for its run of results (a field's come together)."""
    events: dict[tuple, Pairs] = {}
    named: dict[int, tuple[str, str] | None] = {}  # the players' number -> N-S, E-W pair
    at, got = -1, Pairs()
    for method, before, after, field, players in results.tables():
        pairs = named.get(players, _UNSEEN)
        if pairs is _UNSEEN:
            n, e, s, w = names = results.players(players)
            pairs = named[players] = (f"{n} & {s}", f"{e} & {w}") if all(names) else None
        if pairs is None:
            continue
        if field != at:
            at, key = field, results.key(field)
            got = events.get(key[:3]) or events.setdefault(key[:3], Pairs())
            got.boards.add(key[3])  # the event's: its key is the rest
        got.add(pairs, _MP[method], before, after)
    return events


class Pairs:
    """An event's pairs as its results go by: each pair's [boards, sum before, sum after],
    both by direction (``split``: a Mitchell, no pair sitting both ways) and not (``joint``),
    summed in the results' order; the pairs seen each way; the boards; whether every result
    is a percentage (``mean``)."""

    def __init__(self) -> None:
        self.split: dict[tuple[str, str], list] = {}
        self.joint: dict[tuple[str, str], list] = {}
        self.ns: set[str] = set()
        self.ew: set[str] = set()
        self.boards = Boards()
        self.mean = True

    def add(self, pairs: tuple[str, str], mp: bool, before: float, after: float) -> None:
        """A table's N-S figures (percentages when ``mp``) added to its pairs, each way."""
        ns_pair, ew_pair = pairs
        self.ns.add(ns_pair)
        self.ew.add(ew_pair)
        self.mean = self.mean and mp
        for direction, pair, b, a in (("NS", ns_pair, before, after),
                                      ("EW", ew_pair, ew(before, mp), ew(after, mp))):
            for totals, key in ((self.split, (direction, pair)), (self.joint, ("", pair))):
                t = totals.get(key)
                if t is None:
                    t = totals[key] = [0, 0.0, 0.0]
                t[0] += 1
                t[1] += b
                t[2] += a


class Boards:
    """The boards of an event, by their numbers as written: one bit each for a number
    (``17``; a large event's boards in a few kilobytes, not an object each), a set for any
    other (``017``, ``A1``)."""

    def __init__(self) -> None:
        self._bits = bytearray()
        self._others: set[str] = set()

    def add(self, board: str) -> None:
        if not is_number(board) or int(board) >= 1 << 24:
            self._others.add(board)
            return
        at, bit = divmod(int(board), 8)
        if at >= len(self._bits):
            self._bits.extend(bytes(at + 1 - len(self._bits) + (len(self._bits) >> 1)))
        self._bits[at] |= 1 << bit

    def __len__(self) -> int:
        return int.from_bytes(self._bits, "little").bit_count() + len(self._others)


def add_match(matches: dict[str, list], e: Entry, sums: list[int]) -> None:
    """An open room's boards (``sums``: how many, IMPs won by N-S before, after, by E-W
    before, after) added to their match: [home, visit, label, boards, IMPs won by home before,
    after, by the visitors before, after]; a board's IMPs are its open room's N-S figure."""
    m = matches.get(e.match)
    if m is None:
        m = matches[e.match] = [*e.teams, label(e), 0, 0, 0, 0, 0]
    for i, x in enumerate(sums, 3):
        m[i] += x


def label(e: Entry) -> str:
    """A match as a director finds it: its file, and its round when the record gives one."""
    name = e.source.replace("\\", "/").rsplit("/", 1)[-1] or e.source
    tags = e.match[len(e.source) + 1:] if e.match.startswith(e.source + "|") else e.match
    round_ = tags.split("|")[2] if tags.count("|") >= 2 else ""
    return f"{name} round {round_}" if round_ else name


def ew(x: float, mp: bool) -> float:
    """A table's E-W figure from its N-S one: a percentage's complement, else the negative."""
    return 100 - x if mp else -x
