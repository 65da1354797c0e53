"""What the recorded cards themselves give declarer: the tricks of a complete play, or, when the
record stops early, the fewest and the most tricks his side can take over every legal way the
remaining cards can be played (Law 44C: follow suit when able; Law 44G: the winner leads).

A stated result outside that range is not what was played: either the table ruled (a revoke's
trick transfer is already in it) or the record is wrong (``discovery`` decides which).  Every
continuation is tried, so only when few cards remain (``EXACT_CARDS``: the last two tricks, and
what is left of a third begun); beyond that the cards rarely force anything, and trying every
line costs milliseconds a board (on a vugraph archive, where most boards end in a claim, three
whole tricks made the run 1.7 times as long), so the range is not worked out - except on a
board with a revoke or a defective trick (one in a thousand), where a ruling may hang on it:
there ``exact_range`` works it out whatever the number of tricks left, by a memoised search
over positions (``Search``) with a budget of positions (``NODE_BUDGET``); a search that runs
out says so (``RangeUnknown``), never a range cut short.

``settled_winner``: who wins an unfinished trick when every legal way of finishing it gives
the same winner (Law 44C: the others must follow suit; the trick is the offender's or not
whatever they play)."""
from __future__ import annotations

from dataclasses import replace
from functools import cached_property, lru_cache
from typing import Iterator

from ..core.cards import SUIT_MASKS, Hand, Seat, count, winning_index
from .model import CLAIMED, COMPLETE, Replay, Trick

#: Most tricks left for which every continuation is tried (3: at most a few hundred lines).
EXACT_CARDS = 9
#: A record stopping with this many whole tricks left or fewer may have its range worked out
#: (the lane hands such claims to the full audit).
EXACT_TRICKS = 3
#: All the cards: a board with a revoke or a defective trick has its range worked out whatever
#: the number of tricks left.
ALL_CARDS = 52
#: Positions (tricks begun) the exact search of one board may visit: a few seconds at most.
NODE_BUDGET = 100_000


class RangeUnknown(Exception):
    """The exact search ran out of its budget of positions: the range is not known (the
    caller notes it; it never takes a partial search for the range)."""

    def __init__(self, tricks_left: int, budget: int):
        super().__init__(f"{tricks_left} tricks left: more than {budget} positions")
        self.tricks_left, self.budget = tricks_left, budget


def cards_range(rp: Replay, exact_cards: int = EXACT_CARDS) -> tuple[int, int] | None:
    """(fewest, most) tricks declarer's side takes by the recorded cards: both the play's own
    count when all 13 tricks are recorded (of a coherent record); when it stops early, over every legal continuation
    from the exact position (at most ``exact_cards`` cards left).  None when not known: no
    replay, hands not exact (a card not recorded, a defective trick), the replay stopped, or
    more tricks left."""
    if rp.play_status == COMPLETE:  # what was played, defective tricks and all
        return (rp.won,) * 2 if rp.auditable and rp.coherent else None
    at = position(rp, exact_cards)
    if at is None:
        return None
    hands, leader, started = at
    won = rp.won
    if exact_cards > EXACT_CARDS:
        lo, hi = Search(rp.trump, rp.declarer % 2).range(hands, leader, started)
    else:
        lo, hi = every_line_range(hands, leader, started, rp.trump, rp.declarer % 2)
    return won + lo, won + hi


def settled_tricks(rp: Replay) -> int | None:
    """Declarer's tricks by the recorded cards when they settle one number (``cards_range``
    a single value: a complete play, or every legal continuation alike); None otherwise.  A
    claim that two plain lines of play (``played_counts``) already split is not searched: a
    board without a revoke asks only this, never the range."""
    if rp.play_status != COMPLETE:
        at = position(rp)
        if at is not None and len(played_counts(*at, rp.trump, rp.declarer % 2)) > 1:
            return None
    span = cards_range(rp)
    return span[0] if span is not None and span[0] == span[1] else None


class AtEnd:
    """What the recorded cards allow at the record's end, asked once per ruling
    (``discovery.decide``): ``span``, the fewest and the most tricks for declarer - on a board
    without a revoke or a defective trick only when they settle one number
    (``settled_tricks``: no search), on one with either the exact range whatever the number
    of tricks left (``exact_range``) - or None; ``unknown``, the ``RangeUnknown`` of a search
    that ran out of its budget; ``ways``, the record played to the end, worked out only when
    asked (a stated result the cards do not give)."""

    def __init__(self, rp: Replay, span: tuple[int, int] | None,
                 unknown: RangeUnknown | None = None):
        self.rp, self.span, self.unknown = rp, span, unknown

    @property
    def settled(self) -> int | None:
        """Declarer's tricks when the cards settle one number."""
        span = self.span
        return span[0] if span is not None and span[0] == span[1] else None

    @cached_property
    def ways(self) -> list[Replay]:
        """The record played to the end every legal way its cards allow (few tricks left:
        ``continuations``, each ``completed``); with more left, the record as claimed for each
        total the cards allow (the claimed tricks coming after the played ones, as for any
        claim); none when the range is not known or the record stops inside a trick."""
        return played_out(self.rp, self.span)


def at_end(rp: Replay) -> AtEnd:
    """What the cards allow at the end of ``rp``'s record (``AtEnd``): the search is paid for
    only on a board with a revoke or a defective trick, where a ruling may hang on it."""
    if not (rp.revokes or rp.defects):
        settled = settled_tricks(rp)
        return AtEnd(rp, None if settled is None else (settled, settled))
    try:
        return AtEnd(rp, exact_range(rp))
    except RangeUnknown as out:
        return AtEnd(rp, None, out)


def exact_range(rp: Replay, budget: int | None = None) -> tuple[int, int] | None:
    """``cards_range`` whatever the number of tricks left (a board with a revoke or a defective
    trick pays for it); RangeUnknown when the search needs more than ``budget`` positions."""
    if rp.play_status == COMPLETE or position(rp, ALL_CARDS) is None:
        return cards_range(rp)
    hands, leader, started = position(rp, ALL_CARDS)
    budget = NODE_BUDGET if budget is None else budget
    got = searched_range(rp.trump, rp.declarer % 2, budget, hands, leader, started)
    if isinstance(got, RangeUnknown):
        raise RangeUnknown(got.tricks_left, got.budget)
    won = rp.won
    return won + got[0], won + got[1]


@lru_cache(maxsize=256)
def searched_range(trump: int | None, side: int, budget: int, hands: tuple[Hand, ...],
                   leader: Seat, started: tuple[int, ...]) -> tuple[int, int] | RangeUnknown:
    """``Search.range`` of one position, or the ``RangeUnknown`` it ran into: a pure function
    of the position, so one search serves every ruling of a board that asks for it again (its
    discovery and its slip's other reading; an edition or a discovery tried in turn) - a few
    hundred positions kept, never a growing table."""
    try:
        return Search(trump, side, budget).range(hands, leader, started)
    except RangeUnknown as unknown:
        return unknown


def _exact(rp: Replay) -> bool:
    return (rp.auditable and rp.coherent and rp.declarer is not None and not rp.defects
            and rp.stopped_at is None and not rp.unsure_hands
            and not any(t.unknown or t.omitted for t in rp.tricks))


def position(rp: Replay, exact_cards: int = EXACT_CARDS
             ) -> tuple[tuple[Hand, ...], Seat, tuple[int, ...]] | None:
    """(the hands left, the leader of the trick under way, its cards so far) where an unfinished
    record stops, when it is exactly known and at most ``exact_cards`` cards are left."""
    if rp.play_status == COMPLETE or not _exact(rp):
        return None
    done = rp.complete_tricks
    n = len(done)
    if 13 - n > EXACT_TRICKS and exact_cards <= EXACT_CARDS:
        return None
    hands = list(rp.record.hands)
    for t in rp.tricks:
        for s, c, _ in t.plays:
            hands[s] &= ~(1 << c)
    leader = done[-1].winner if done else (rp.declarer + 1) % 4
    started: tuple[int, ...] = ()
    if len(rp.tricks) > n:  # a trick begun: its cards stand
        leader = rp.tricks[n].leader
        started = tuple(c for _, c, _ in rp.tricks[n].plays)
    played = _seats_played(leader, started)
    if any(bin(h).count("1") != 13 - n - (i in played) for i, h in enumerate(hands)):
        return None  # card counts do not add up: not an exact position
    if sum(bin(h).count("1") for h in hands) > exact_cards:
        return None
    return tuple(hands), leader, started


def continuations(hands: tuple[Hand, ...], leader: Seat, started: tuple[int, ...],
                  trump: int | None, limit: int = 5000
                  ) -> Iterator[list[tuple[Seat, tuple[int, ...]]]]:
    """Every legal way the play can go on from ``position`` (at most ``limit`` of them): the
    tricks left, each as (its leader, its four cards in time order)."""
    count = 0
    for line in _lines(hands, leader, started, trump):
        yield line
        count += 1
        if count >= limit:
            return


def _lines(hands, leader, started, trump):
    if not any(hands) and not started:
        yield []
        return
    for cards, rest in _finishes(hands, leader, started):
        win = (leader + winning_index(list(cards), trump)) % 4
        for tail in _lines(rest, win, (), trump):
            yield [(leader, cards)] + tail


def _seats_played(leader: Seat, started: tuple[int, ...]) -> set[int]:
    return {(leader + i) % 4 for i in range(len(started))}


def every_line_range(hands: tuple[Hand, ...], leader: Seat, started: tuple[int, ...],
                     trump: int | None, side: int) -> tuple[int, int]:
    """(fewest, most) tricks ``side`` takes from this position: the trick begun finished every
    legal way, then every later trick (``_from_lead``)."""
    if not any(hands):
        return 0, 0
    lo, hi = 99, -1
    for cards, rest in _finishes(hands, leader, started):
        win = (leader + winning_index(list(cards), trump)) % 4
        a, b = _from_lead(rest, win, trump, side)
        mine = 1 if win % 2 == side else 0
        lo, hi = min(lo, a + mine), max(hi, b + mine)
    return lo, hi


@lru_cache(maxsize=4096)
def _from_lead(hands: tuple[Hand, ...], leader: Seat, trump: int | None,
               side: int) -> tuple[int, int]:
    """``every_line_range`` from the start of a trick (remembered: many lines reach the same
    position)."""
    return every_line_range(hands, leader, (), trump, side)


def _on_turn(hands: tuple[Hand, ...], leader: Seat, started: tuple[int, ...]
             ) -> tuple[Seat, Hand, Hand]:
    """The seat to play to the trick begun with ``started``, his hand, and the cards he may
    play: of the suit led when he holds it (Law 44C), else any."""
    seat = (leader + len(started)) % 4
    held = hands[seat]
    legal = held & SUIT_MASKS[started[0] // 13] if started else held
    return seat, held, legal or held


def _finishes(hands: tuple[Hand, ...], leader: Seat, started: tuple[int, ...]):
    """Every legal way to complete the trick begun with ``started``: (its four cards, the hands
    after it)."""
    if len(started) == 4:
        yield started, hands
        return
    seat, held, legal = _on_turn(hands, leader, started)
    while legal:
        low = legal & -legal
        legal ^= low
        card = low.bit_length() - 1
        after = hands[:seat] + (held ^ low,) + hands[seat + 1:]
        yield from _finishes(after, leader, started + (card,))


class Search:
    """The fewest and the most tricks ``side`` can take over every legal play from a position
    (Law 44C follow suit, 44G the winner leads): a search over positions, each trick's start
    remembered by (the hands left, the leader) - many orders of play reach the same one - and
    the cards of a suit that no live card separates played as one (they win the same tricks).
    The most: every player helping ``side``; stops as soon as ``side`` takes every trick left,
    or as many as the other side's sure trump tricks allow (the fewest alike).  Raises
    RangeUnknown past ``budget`` positions."""

    def __init__(self, trump: int | None, side: int, budget: int = NODE_BUDGET):
        self.trump, self.side, self.budget, self.nodes = trump, side, budget, 0
        self.memo: dict[tuple[tuple[Hand, ...], Seat, bool], int] = {}

    def range(self, hands: tuple[Hand, ...], leader: Seat, started: tuple[int, ...]
              ) -> tuple[int, int]:
        if not any(hands):
            return 0, 0
        try:
            return (self._trick(hands, leader, started, False),
                    self._trick(hands, leader, started, True))
        except RangeUnknown:
            raise RangeUnknown(max(count(h) for h in hands), self.budget) from None

    def differs(self, hands: tuple[Hand, ...], leader: Seat, started: tuple[int, ...],
                value: int) -> bool:
        """Whether some line gives ``side`` another count than ``value`` (one line's): the range
        is not ``(value, value)``.  ``range``'s search, stopped at the first such line: where
        there is none it visits what ``range`` visits (out of budget exactly when it is)."""
        if not any(hands):
            return value != 0
        try:
            self._trick(hands, leader, started, True, value + 1)
            self._trick(hands, leader, started, False, value - 1)
        except _Reached:
            return True
        except RangeUnknown:
            raise RangeUnknown(max(count(h) for h in hands), self.budget) from None
        return False

    def _from_lead(self, hands: tuple[Hand, ...], leader: Seat, most: bool,
                   stop: int | None = None) -> int:
        """``side``'s most (or fewest) tricks from the start of a trick (``stop``: ``_trick``)."""
        if not any(hands):
            return 0
        key = (hands, leader, most)
        got = self.memo.get(key)
        if got is None:
            self.nodes += 1
            if self.nodes > self.budget:
                raise RangeUnknown(count(hands[leader]), self.budget)  # (range: the whole)
            got = self.memo[key] = self._trick(hands, leader, (), most, stop)
        return got

    def _trick(self, hands: tuple[Hand, ...], leader: Seat, started: tuple[int, ...],
               most: bool, stop: int | None = None) -> int:
        """``side``'s most (or fewest) tricks from a trick begun with ``started``; a line that
        reaches ``stop`` (``differs``) raises ``_Reached``, leaving ``memo`` no partial figure."""
        left = max(count(h) for h in hands)
        mine, theirs = (0, 0) if started else _sure_tricks(hands, self.trump, self.side)
        goal = left - theirs if most else mine  # no line can do better: stop when one does
        best = -1 if most else 99
        for cards, rest in self._finishes(hands, leader, started):
            win = (leader + winning_index(list(cards), self.trump)) % 4
            won = win % 2 == self.side
            got = won + self._from_lead(rest, win, most, None if stop is None else stop - won)
            if stop is not None and (got >= stop if most else got <= stop):
                raise _Reached
            best = max(best, got) if most else min(best, got)
            if best == goal:
                break
        return best

    def _finishes(self, hands, leader, started):
        """``_finishes`` with equivalent cards played once (``_distinct``)."""
        if len(started) == 4:
            yield started, hands
            return
        seat, held, legal = _on_turn(hands, leader, started)
        live = hands[0] | hands[1] | hands[2] | hands[3]
        for s in started:
            live |= 1 << s
        for card in _distinct(legal, live & ~held):
            after = hands[:seat] + (held & ~(1 << card),) + hands[seat + 1:]
            yield from self._finishes(after, leader, started + (card,))


class _Reached(Exception):
    """``Search.differs``: a line reached the count looked for (the search stops there)."""


#: The ways ``played_counts`` plays the cards out: (``side`` plays its highest legal card, the
#: other side its highest); four plain lines that rarely take the same number of tricks.
LINES = ((True, True), (False, False), (True, False), (False, True))


def played_counts(hands: tuple[Hand, ...], leader: Seat, started: tuple[int, ...],
                  trump: int | None, side: int) -> set[int]:
    """The tricks ``side`` takes on each of the plain ``LINES`` of play from a position (Law
    44C: each card legal; 44G: the winner leads): a witness, never the range.  Two different
    counts prove that the cards do not settle the result, with no search; the same count
    proves nothing (the search must still decide)."""
    return {_line_tricks(list(hands), leader, started, trump, side, way) for way in LINES}


def lines_disagree(trump: int | None, side: int, seat: int, hands: tuple[Hand, ...],
                   leader: Seat, before: tuple[int, ...], groups: tuple[list[int], ...]) -> bool:
    """Whether, for one group of ``seat``'s cards (each his card to the trick begun with
    ``before``), two plain lines of play after them (``played_counts``) give ``side`` different
    numbers of tricks: then the cards do not settle the result (Laws 44C, 44G), exactly as the
    search would find, without it."""
    for cards in groups:
        seen: set[int] = set()
        for played in cards:
            after = hands[:seat] + (hands[seat] & ~(1 << played),) + hands[seat + 1:]
            seen |= played_counts(after, leader, before + (played,), trump, side)
            if len(seen) > 1:
                return True
    return False


def _line_tricks(hands: list[Hand], leader: Seat, started: tuple[int, ...], trump: int | None,
                 side: int, way: tuple[bool, bool]) -> int:
    """The tricks ``side`` takes when every player plays his highest or lowest legal card as
    ``way`` says for his side (``hands`` changed)."""
    won = 0
    trick = list(started)
    while True:
        while len(trick) < 4:
            seat = (leader + len(trick)) % 4
            held = hands[seat]
            if not held:
                return won
            legal = held & SUIT_MASKS[trick[0] // 13] if trick else held
            legal = legal or held
            high = way[0] if seat % 2 == side else way[1]
            card = legal.bit_length() - 1 if high else (legal & -legal).bit_length() - 1
            hands[seat] = held ^ (1 << card)
            trick.append(card)
        leader = (leader + winning_index(trick, trump)) % 4
        won += leader % 2 == side
        trick = []


def _distinct(legal: Hand, others: Hand) -> list[int]:
    """One card of each run of ``legal`` that no card of ``others`` (the cards still live
    elsewhere: the other hands, the trick under way) separates in rank; highest first."""
    out: list[int] = []
    prev = -1
    while legal:
        card = legal.bit_length() - 1
        legal ^= 1 << card
        if prev < 0 or prev // 13 != card // 13 or _between(others, card, prev):
            out.append(card)
        prev = card
    return out


def _between(others: Hand, low: int, high: int) -> bool:
    return bool(others & ((1 << high) - (1 << (low + 1))))


def _sure_tricks(hands: tuple[Hand, ...], trump: int | None, side: int) -> tuple[int, int]:
    """Tricks each side (``side``, the other) takes whatever is played, from the start of a
    trick: the top trumps of one hand, in sequence from the highest still out (each wins the
    trick it falls on, and one hand cannot play two to a trick)."""
    if trump is None:
        return 0, 0
    mask = SUIT_MASKS[trump]
    live = (hands[0] | hands[1] | hands[2] | hands[3]) & mask
    sure = [0, 0]
    top = live.bit_length() - 1
    if top < 0:
        return 0, 0
    owner = next(s for s in range(4) if hands[s] >> top & 1)
    run = 0
    card = top
    while card >= trump * 13 and live >> card & 1 and hands[owner] >> card & 1:
        run += 1
        card -= 1
    sure[owner % 2 != side] = run
    return sure[0], sure[1]


def settled_winner(rp: Replay, number: int) -> Seat | None:
    """The winner of trick ``number``: the record's, or, for a trick the record does not finish,
    the seat that wins it whatever legal cards (Law 44C) the players still to play choose -
    when the hands before it are exactly known; None when it depends on their choice."""
    trick = rp.tricks[number - 1]
    if trick.winner is not None:
        return trick.winner
    if (trick.unknown or trick.omitted or not trick.plays or not rp.hands_known(number)
            or len(rp.hands_at) < number):
        return None
    hands = rp.hands_at[number - 1]
    if len({count(h) for h in hands}) != 1:
        return None
    started = tuple(c for _, c, _ in trick.plays)
    if [s for s, _, _ in trick.plays] != [(trick.leader + i) % 4 for i in range(len(started))]:
        return None
    for s, c, _ in trick.plays:
        hands = hands[:s] + (hands[s] & ~(1 << c),) + hands[s + 1:]
    seen = {(trick.leader + winning_index(list(cards), rp.trump)) % 4
            for cards, _rest in _finishes(hands, trick.leader, started)}
    return seen.pop() if len(seen) == 1 else None


def completed(rp: Replay, line: list[tuple[Seat, tuple[int, ...]]]) -> Replay:
    """``rp`` played to the end along ``line`` (from ``continuations``): its recorded tricks,
    the one under way finished, the rest added, each with its winner and the hands before it -
    so a code's rule that looks at later tricks (the 1997 Laws' second trick) can be applied."""
    tricks = rp.complete_tricks
    won, side = rp.won, rp.declarer % 2
    for leader, cards in line:
        seats = [(leader + i) % 4 for i in range(4)]
        winner = seats[winning_index(list(cards), rp.trump)]
        won += winner % 2 == side
        tricks.append(Trick(len(tricks) + 1, leader, [(s, c, 0) for s, c in zip(seats, cards)],
                            winner=winner))
    hands = list(rp.record.hands)
    hands_at = []
    for t in tricks:
        hands_at.append(tuple(hands))
        for s, c, _ in t.plays:
            hands[s] &= ~(1 << c)
    return replace(rp, tricks=tricks, hands_at=hands_at, play_status=COMPLETE, claim=None,
                   won=won)


def played_out(rp: Replay, span: tuple[int, int] | None) -> list[Replay]:
    """The record played to the end every legal way its cards allow (few tricks left); with
    more left, the record as claimed for each total the cards allow (the claimed tricks
    coming after the played ones, as for any claim)."""
    at = position(rp)
    if at is not None:
        return [completed(rp, line) for line in continuations(*at, rp.trump)]
    if span is None or rp.tricks and rp.tricks[-1].winner is None:
        return []
    return [replace(rp, claim=k, play_status=CLAIMED) for k in range(span[0], span[1] + 1)]
