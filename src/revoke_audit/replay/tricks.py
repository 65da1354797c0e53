"""Putting the record's cards on the table: trick by trick, in time order.

Two shapes of record: PBN gives each trick's cards with their seats (``replay_grouped``: each
trick played by ``unrecorded.play_trick``, since only PBN may leave a card out and go on); LIN
gives one flat run of cards whose player is the card's holder (``replay_sequence``: an extra
card, Law 67B2, or omitted ones, 67B1).  Both play every card through ``play.play_card``, which
judges a failure to follow suit (Law 61A1 / 44C), recorded by the caller, and stops the replay
at a card its player does not hold.
"""
from __future__ import annotations

from ..core.cards import card_str, winning_index, seat_name
from .model import DefectFact, Replay, Trick
from ..core.record import Play
from . import unrecorded
from .play import close_trick, play_card

def replay_grouped(r: Replay, plays: list[Play]) -> None:
    """PBN: cards grouped by trick with their seats; the leader is derived by replaying.  Each
    trick is played by ``unrecorded.play_trick``, which owns what a card not recorded (``-``)
    allows; a trick left incomplete before the last stops the replay (RC013)."""
    groups: dict[int, list[Play]] = {}
    for p in plays:
        groups.setdefault(p.trick, []).append(p)
    hands = list(r.record.hands)
    leader = r.record.play_leader if r.record.play_leader is not None else plays[0].seat
    _check_opening_leader(r, leader, plays[0].line)
    gaps = unrecorded.Gaps.of(plays)
    for number in range(1, gaps.last + 1):
        group = groups.get(number, [])
        marked = [p.seat for p in group if "L" in p.marks]
        if marked:
            leader = marked[0]
        trick = Trick(number, leader)
        r.hands_at.append(tuple(hands))
        r.tricks.append(trick)
        if not unrecorded.play_trick(r, hands, trick, group, groups.get(number + 1, []), gaps):
            return  # coherence.judge says what the record's misplaced cards amount to
        if trick.winner is not None:
            leader = trick.winner
        elif number != gaps.last:
            r.add("RC013", f"trick {number} is incomplete but play goes on", group[0].line,
                  trick=number)
            r.stopped_at = number
            return


def replay_sequence(r: Replay, plays: list[Play]) -> None:
    """LIN: cards in time order, the player being the holder of the card.

    A card from a seat that already played to the trick is an extra card (Law 67B2) when the
    seats still missing play next; otherwise the trick ended short and they omitted (67B1)."""
    hands = list(r.record.hands)
    played = 0
    trick: Trick | None = None
    skipped: list[tuple[int, int, int, Play]] = []  # out-of-turn plays, judged when the trick ends
    for i, p in enumerate(plays):
        if p.card is None:
            r.add("RC013", f"card {i + 1} of the play is not recorded, so nothing after it can be "
                  "checked", p.line)
            r.stopped_at = len(r.tricks) or 1
            return
        bit = 1 << p.card
        if played & bit:
            r.add("RC011", f"{card_str(p.card)} is played twice", p.line,
                  trick=len(r.tricks) or 1, card=p.card)
            r.stopped_at = len(r.tricks) or 1
            return
        seat = next((s for s in range(4) if r.record.hands[s] & bit), None)
        if trick is None:
            leader = seat if not r.tricks else r.tricks[-1].winner
            if not r.tricks:
                _check_opening_leader(r, seat, p.line)
            elif seat != leader:
                _wrong_hand(r, len(r.tricks) + 1, leader, seat, p)
            trick = Trick(len(r.tricks) + 1, seat)
            r.hands_at.append(tuple(hands))
            r.tricks.append(trick)
        elif seat in (seats := {s for s, _, _ in trick.plays}):
            if _extra_fits_better(r, trick, plays, i):
                _extra_card(r, trick, seat, p)
                continue
            missing = [s for s in range(4) if s not in seats]
            trick.omitted.extend(missing)
            close_trick(r, trick)
            for args in skipped:  # a seat skipped because it omitted is no wrong-hand play
                if args[1] not in missing:
                    _wrong_hand(r, *args)
            skipped.clear()
            # this card leads the next trick
            trick = Trick(len(r.tricks) + 1, seat)
            if seat != r.tricks[-1].winner:
                _wrong_hand(r, trick.number, r.tricks[-1].winner, seat, p)
            r.hands_at.append(tuple(hands))
            r.tricks.append(trick)
        else:
            expected = (trick.plays[-1][0] + 1) % 4
            if seat != expected:
                skipped.append((trick.number, expected, seat, p))
        got = play_card(r, hands, trick, seat, p)
        if got is False:
            return
        if got is not True:
            r.revokes.append(got)  # a failure to follow suit (Law 61A1)
        played |= bit
        if len(trick.plays) == 4:
            close_trick(r, trick)
            trick = None
            for args in skipped:
                _wrong_hand(r, *args)
            skipped.clear()


def _extra_fits_better(r: Replay, trick: Trick, plays: list[Play], i: int) -> bool:
    """A card from a seat that already played to ``trick``: an extra card (67B2), or the lead
    of the next trick after the missing seats omitted (67B1)?  Whichever reading makes the next
    cards come in turn order; on a tie, one extra card rather than several omitted ones."""
    current = [(s, c) for s, c, _ in trick.plays]
    as_extra = _turn_errors(r, current, plays, i + 1)
    as_lead = _turn_errors(r, [], plays, i)
    missing = 4 - len(current)
    return as_extra < as_lead or (as_extra == as_lead and missing > 1)


def _turn_errors(r: Replay, current: list[tuple[int, int]], plays: list[Play], start: int,
                 horizon: int = 8) -> int:
    """How many of the next ``horizon`` cards would come out of turn from this state."""
    errors = 0
    trick = list(current)
    for k in range(start, min(len(plays), start + horizon)):
        p = plays[k]
        if p.card is None:
            break
        seat = next((s for s in range(4) if r.record.hands[s] >> p.card & 1), None)
        if trick and seat != (trick[-1][0] + 1) % 4:
            errors += 1
        trick.append((seat, p.card))
        if len(trick) == 4:
            w = winning_index([c for _, c in trick], r.trump)
            leader = trick[w][0]
            trick = []
            nxt = plays[k + 1] if k + 1 < len(plays) else None
            if nxt is not None and nxt.card is not None and nxt.seat != leader:
                errors += 1
    return errors


def _wrong_hand(r: Replay, number: int, expected: int, seat: int, p: Play) -> None:
    r.add("RC010", f"trick {number}: {card_str(p.card)} is {seat_name(seat)}'s card but it was "
          f"{seat_name(expected)}'s turn", p.line, trick=number, seat=seat, card=p.card,
          role=r.roles[seat])


def _extra_card(r: Replay, trick: Trick, seat: int, p: Play) -> None:
    """Law 67B2: the extra card goes back to the offender's hand (it never left it here)."""
    r.defects.append(DefectFact(trick.number, seat, "extra", p.card, p.line, trick.suit_led, False))


def _check_opening_leader(r: Replay, leader: int | None, line: int) -> None:
    """The opening lead is made by the player on declarer's left (Law 41A) - RC012."""
    if leader is None or r.declarer is None:
        return
    proper = (r.declarer + 1) % 4
    if leader != proper:
        why = " (the record marks declarer and dummy as swapped, ^N)" if r.record.declarer_swapped else ""
        r.add("RC012", f"opening lead from {seat_name(leader)}, but declarer {seat_name(r.declarer)}'s "
              f"left-hand opponent is {seat_name(proper)}{why}", line, trick=1, seat=leader)
