"""Fast path of ``order`` for plain plays: every card known and unmarked, each from the
player on turn (declarer's left-hand opponent leads first, Law 41A; the winner of a trick
leads the next, Law 44G), every trick complete but perhaps the last.

``replay_plain`` puts such a play on the table as ``order.replay_grouped`` (PBN: cards with
their seats, by trick) or ``order.replay_sequence`` (LIN: one run of cards, each played by its
holder) would - the same tricks, hands before each trick and revoke facts (Law 61A: a card of
another suit while holding the suit led) - in one loop over ints and masks, trusting the time
order the reader worked out and checking it card by card instead of working it out again.  The
moment the play is not plain it returns False, having changed nothing, and ``order`` replays it
and says what is wrong.  ``tests/test_order_fast.py`` replays every corpus board and generated
plays both ways and compares.  ``ENABLED = False`` turns it off."""
from __future__ import annotations

from ..core.cards import SUIT_MASKS
from .model import Replay, RevokeFact, Trick
from ..core.record import Play

ENABLED = True
_NEXT = (1, 2, 3, 0)


def replay_plain(r: Replay, plays: list[Play]) -> bool:
    """Replay ``plays`` (time order) onto ``r`` when they are plain; else False, ``r`` as it was.

    ``r`` is a fresh replay whose record has a full, valid deal and a declarer."""
    if not ENABLED or not plays or r.declarer is None:
        return False
    rec = r.record
    grouped = plays[0].trick is not None  # PBN: each card says its seat and trick
    seat = (r.declarer + 1) % 4
    if grouped and (rec.play_leader if rec.play_leader is not None else plays[0].seat) != seat:
        return False  # a lead from the wrong side: order says so (RC012)
    got = _play(plays, list(rec.hands), seat, r.trump, grouped)
    if got is None:
        return False
    r.tricks, r.hands_at, r.revokes = got
    return True


def _play(plays: list[Play], hands: list[int], seat: int, trump: int | None, grouped: bool
          ) -> tuple[list[Trick], list[tuple[int, ...]], list[RevokeFact]] | None:
    """The tricks, the hands before each and the revokes; None at the first card that is not
    plain (unknown, marked, not the turn's player's, not his, or a PBN trick out of step)."""
    tricks: list[Trick] = []
    hands_at: list[tuple[int, ...]] = []
    revokes: list[RevokeFact] = []
    number, turn = 1, 0
    leader = win = best = led = 0
    cards: list[tuple[int, int, int]] = []
    for p_seat, c, marks, line, trick in plays:
        if c is None or marks or (grouped and (trick != number or p_seat != seat)):
            return None
        bit = 1 << c
        held = hands[seat]
        if not held & bit:
            return None
        if turn == 0:
            hands_at.append(tuple(hands))
            cards = [(seat, c, line)]
            leader = win = seat
            best, led = c, c // 13
        else:
            cards.append((seat, c, line))
            suit = c // 13
            if suit != led and held & SUIT_MASKS[led]:
                revokes.append(RevokeFact(number, seat, c, led, held & SUIT_MASKS[led], line,
                                          False))
            if suit == best // 13:
                if c > best:
                    win, best = seat, c
            elif suit == trump:
                win, best = seat, c
        hands[seat] = held ^ bit
        if turn == 3:
            tricks.append(Trick(number, leader, cards, [], win))
            number, turn, seat = number + 1, 0, win
        else:
            turn += 1
            seat = _NEXT[seat]
    if turn:
        tricks.append(Trick(number, leader, cards, [], None))
    return tricks, hands_at, revokes
