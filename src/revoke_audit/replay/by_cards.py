"""What the recorded cards themselves give declarer: the tricks of a complete play, or, when the
record stops early, the fewest and the most tricks his side can take over every legal way the
remaining cards can be played (Law 44C: follow suit when able; Law 44G: the winner leads).

A stated result outside that range is not what was played: either the table ruled (a revoke's
trick transfer is already in it) or the record is wrong (``discovery`` decides which).  Every
continuation is tried, so only when few cards remain (``EXACT_CARDS``: the last two tricks, and
what is left of a third begun); beyond that the cards rarely force anything, and trying every
line costs milliseconds a board (on a vugraph archive, where most boards end in a claim, three
whole tricks made the run 1.7 times as long), so the range is not worked out."""
from __future__ import annotations

from dataclasses import replace
from functools import lru_cache
from typing import Iterator

from ..cards import SUIT_MASKS, Hand, Seat, winning_index
from .model import COMPLETE, Replay, Trick

#: Most tricks left for which every continuation is tried (3: at most a few hundred lines).
EXACT_CARDS = 9
#: A record stopping with this many whole tricks left or fewer may have its range worked out
#: (the lane hands such claims to the full audit).
EXACT_TRICKS = 3


def cards_range(rp: Replay, exact_cards: int = EXACT_CARDS) -> tuple[int, int] | None:
    """(fewest, most) tricks declarer's side takes by the recorded cards: both the play's own
    count when all 13 tricks are recorded (of a coherent record); when it stops early, over every legal continuation
    from the exact position (at most ``exact_cards`` cards left).  None when not known: no
    replay, hands not exact (a card not recorded, a defective trick), the replay stopped, or
    more tricks left."""
    if rp.play_status == COMPLETE:  # what was played, defective tricks and all
        return (rp.declarer_won(),) * 2 if rp.auditable and rp.coherent else None
    at = position(rp, exact_cards)
    if at is None:
        return None
    hands, leader, started = at
    won = rp.declarer_won()
    lo, hi = _range(hands, leader, started, rp.trump, rp.declarer % 2)
    return won + lo, won + hi


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
    if 13 - n > EXACT_TRICKS:
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


def _range(hands: tuple[Hand, ...], leader: Seat, started: tuple[int, ...], trump: int | None,
           side: int) -> tuple[int, int]:
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
    """``_range`` from the start of a trick (remembered: many lines reach the same position)."""
    return _range(hands, leader, (), trump, side)


def _finishes(hands: tuple[Hand, ...], leader: Seat, started: tuple[int, ...]):
    """Every legal way to complete the trick begun with ``started``: (its four cards, the hands
    after it)."""
    i = len(started)
    if i == 4:
        yield started, hands
        return
    seat = (leader + i) % 4
    held = hands[seat]
    legal = held & SUIT_MASKS[started[0] // 13] if started else held
    legal = legal or held
    while legal:
        low = legal & -legal
        legal ^= low
        card = low.bit_length() - 1
        after = hands[:seat] + (held ^ low,) + hands[seat + 1:]
        yield from _finishes(after, leader, started + (card,))


def completed(rp: Replay, line: list[tuple[Seat, tuple[int, ...]]]) -> Replay:
    """``rp`` played to the end along ``line`` (from ``continuations``): its recorded tricks,
    the one under way finished, the rest added, each with its winner and the hands before it -
    so a code's rule that looks at later tricks (the 1997 Laws' second trick) can be applied."""
    done = rp.complete_tricks
    tricks = list(done)
    for leader, cards in line:
        seats = [(leader + i) % 4 for i in range(4)]
        tricks.append(Trick(len(tricks) + 1, leader, [(s, c, 0) for s, c in zip(seats, cards)],
                            winner=seats[winning_index(list(cards), rp.trump)]))
    hands = list(rp.record.hands)
    hands_at = []
    for t in tricks:
        hands_at.append(tuple(hands))
        for s, c, _ in t.plays:
            hands[s] &= ~(1 << c)
    return replace(rp, tricks=tricks, hands_at=hands_at, play_status=COMPLETE, claim=None)
