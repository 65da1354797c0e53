"""Putting the record's cards on the table: trick by trick, in time order.

Two shapes of record: PBN gives each trick's cards with their seats (``replay_grouped``);
LIN gives one flat run of cards whose player is the card's holder (``replay_sequence``).
Both play every card through ``play_card``, which records a failure to follow suit (Law 61A1 /
44C) and stops the replay at a card its player does not hold.
"""
from __future__ import annotations

from ..core.cards import card_str, winning_index, seat_name
from .model import DefectFact, Replay, Trick
from ..core.findings import role_of
from ..core.record import UNREADABLE, Play
from . import unrecorded
from .play import _check_opening_leader, close_trick, play_card

def replay_grouped(r: Replay, plays: list[Play]) -> None:
    """PBN: cards grouped by trick with their seats; the leader is derived by replaying.  A
    card not recorded (``-``) hides only itself: see ``unrecorded``."""
    groups: dict[int, list[Play]] = {}
    for p in plays:
        groups.setdefault(p.trick, []).append(p)
    hands = list(r.record.hands)
    leader = r.record.play_leader if r.record.play_leader is not None else plays[0].seat
    _check_opening_leader(r, leader, plays[0].line)
    omission = _pbn_omission(r, plays)
    gaps = unrecorded.Gaps.of(plays)
    last = max(groups)
    for number in range(1, last + 1):
        group = groups.get(number, [])
        marked = [p.seat for p in group if "L" in p.marks]
        if marked:
            leader = marked[0]
        by_seat = {p.seat: p for p in group}
        trick = Trick(number, leader)
        r.hands_at.append(tuple(hands))
        if any(gaps.hidden):
            r.unsure_hands.add(number)
        r.tricks.append(trick)
        if not _grouped_cards(r, hands, trick, by_seat, omission, gaps, number == last):
            return  # coherence.judge says what the record's misplaced cards amount to
        if len(trick.plays) + len(trick.omitted) + len(trick.unknown) == 4:
            if not _close_grouped(r, trick, hands, gaps, groups.get(number + 1, [])):
                return
            leader = trick.winner
        else:
            if trick.unknown:
                unrecorded.report(r, trick, gaps, stopped=False)
            if number != last:
                r.add("RC013", f"trick {number} is incomplete but play goes on", group[0].line,
                      trick=number)
                r.stopped_at = number
                return


def _grouped_cards(r: Replay, hands: list[int], trick: Trick, by_seat: dict[int, Play],
                   omission: tuple[int, int] | None, gaps: unrecorded.Gaps, last: bool) -> bool:
    """Put one PBN trick's cards on the table in time order; False when the replay must stop
    (a card its player does not hold)."""
    before = r.hands_at[-1]
    for i in range(4):
        seat = (trick.leader + i) % 4
        p = by_seat.get(seat)
        if p is None:
            break  # the record stops inside this trick
        if p.card is None:
            if omission == (trick.number, seat) and i > 0:
                trick.omitted.append(seat)
                continue
            if unrecorded.stops_here(trick, by_seat, i, last):
                break
            known = unrecorded.deduce(r, trick, before[seat], seat, p, gaps)
            if known is None:
                unrecorded.hide(trick, seat, p, gaps)
                continue
            p = known
        if trick.leader in trick.unknown:
            if not play_card(r, hands, trick, seat, p, judge=False):
                return False
            unrecorded.lead_unknown(r, trick, p)
            continue
        found = len(r.revokes)
        if not play_card(r, hands, trick, seat, p):
            return False
        if len(r.revokes) > found and gaps.hidden[seat]:
            unrecorded.unsure_revoke(r, before, gaps, seat)
    return True


def _close_grouped(r: Replay, trick: Trick, hands: list[int], gaps: unrecorded.Gaps,
                   following: list[Play]) -> bool:
    """The winner of a trick of four cards; with cards not recorded, the one seat every
    candidate card gives (or the next line's ``^L`` leader among them).  False when it stays
    unknown: the replay stops after this trick."""
    if not trick.unknown:
        close_trick(r, trick)
        return True
    won = unrecorded.possible_winners(trick, r.hands_at[-1], gaps, r.trump) or set()
    unrecorded.settle(trick, hands, gaps)
    marked = [p.seat for p in following if "L" in p.marks and p.seat in won]
    if len(won) == 1 or marked:
        trick.winner = marked[0] if marked else won.pop()
        unrecorded.report(r, trick, gaps, stopped=False)
        return True
    unrecorded.report(r, trick, gaps, stopped=True)
    r.stopped_at = trick.number
    return False


def _pbn_omission(r: Replay, plays: list[Play]) -> tuple[int, int] | None:
    """A single ``-`` inside an otherwise full 13-trick record, by a seat that is one card
    short, is a card omitted from that trick (Law 67B), not an unknown card.  A token the
    reader could not read (``UNREADABLE``, PS116) is a card the record holds: unknown, never
    omitted - a bad record is no penalty."""
    unknown = [p for p in plays if p.card is None]
    if len(unknown) != 1 or len(plays) != 52 or max(p.trick for p in plays) != 13:
        return None
    if UNREADABLE in unknown[0].marks:
        return None
    p = unknown[0]
    return (p.trick, p.seat)


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
        elif any(s == seat for s, _, _ in trick.plays):
            missing = [s for s in range(4) if trick.card_of(s) is None]
            if _extra_fits_better(r, trick, plays, i):
                _extra_card(r, trick, seat, p)
                continue
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
        if not play_card(r, hands, trick, seat, p):
            return
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
          role=role_of(seat, r.declarer))


def _extra_card(r: Replay, trick: Trick, seat: int, p: Play) -> None:
    """Law 67B2: the extra card goes back to the offender's hand (it never left it here)."""
    r.defects.append(DefectFact(trick.number, seat, "extra", p.card, p.line, trick.suit_led, False))
