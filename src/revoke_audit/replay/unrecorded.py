"""Cards a PBN play line does not give (``-``), and what can still be checked around them: the
one owner of what an unrecorded card allows.  ``tricks.replay_grouped`` hands it each PBN
trick, once (``play_trick``); it plays the cards through ``play.play_card`` and finds the winner.

A PBN play line names the seat of every card, so a card that is not recorded hides that one
card only: the other players' cards to the same trick, and their holdings, are still exact, so
their failures to follow suit are still revokes.  What the missing card does hide:

- the suit led, when it is the lead: nobody's card to that trick can be judged;
- perhaps who won the trick: the missing card is taken to be a legal one (of the suit led when
  its player certainly held that suit, Law 44C) and every such card is tried; when they do not
  all give the same winner (and the next line does not mark its leader ``^L``), nothing after
  that trick can be checked;
- its player's hand from then on, by that one card: a later failure of his to follow is a
  revoke only when he certainly held the suit - a card of it that the record shows him playing
  later, or more cards of it than he has cards not recorded.

A ``-`` after which the trick has no recorded card (in time order) and no later trick is no
unknown card: the record simply stops there.  A single ``-`` in an otherwise full 13-trick
record, by a seat one card short, is a card omitted from that trick (Law 67B).
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from itertools import islice

from ..core.cards import (SUIT_MASKS, card_str, cards_in, count, holding_str, seat_name,
                          winning_index)
from ..core.record import UNREADABLE, Play
from .model import Replay, RevokeFact, Trick
from .play import close_trick, play_card

#: Combinations of candidate cards tried to find who won a trick; beyond it the winner is
#: taken as unknown (a trick of four unknown cards early in the play).
MAX_LINES = 4096


@dataclass
class Gaps:
    """What the record leaves unknown so far: for each seat, the cards it plays that the record
    gives (anywhere in the play), and how many of its cards were not recorded up to now."""

    given: list[int]  # per seat: mask of every card the record shows that seat playing
    last: int  # the record's last trick: a ``-`` there with nothing after it hides no card
    omission: tuple[int, int] | None  # (trick, seat): the one ``-`` that is an omitted card
    hidden: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    lines: dict[int, int] = field(default_factory=dict)  # seat -> line of its last hidden card
    unreadable: set[tuple[int, int]] = field(default_factory=set)  # (trick, seat): PS116 token
    deciding: dict[int, set[int]] = field(default_factory=dict)  # trick -> the seats whose
    # unrecorded card decides who won it (``possible_winners``)
    options: dict[int, dict[int | None, list[int]]] = field(default_factory=dict)  # seat ->
    # suit led (None: he leads) -> the cards his unrecorded one may be; set by ``_hide`` in
    # the trick under way, and read only for that trick's hidden seats

    @classmethod
    def of(cls, plays: list[Play]) -> Gaps:
        given = [0, 0, 0, 0]
        for p in plays:
            if p.card is not None and p.seat is not None:
                given[p.seat] |= 1 << p.card
        return cls(given, max(p.trick for p in plays), _omission(plays))

    def holds(self, hand: int, seat: int, suit: int) -> bool | None:
        """Did ``seat`` hold ``suit`` (``hand``: his cards not yet shown played)?  True or
        False when certain, None when it hangs on which cards were not recorded."""
        mine = hand & SUIT_MASKS[suit]
        if not mine:
            return False
        if not self.hidden[seat] or mine & self.given[seat] or count(mine) > self.hidden[seat]:
            return True
        return None

    def candidates(self, hand: int, seat: int, suit: int | None) -> list[int]:
        """The cards ``seat``'s unrecorded card may have been: one he held that the record does
        not show him playing, of the suit led if he certainly held it."""
        free = hand & ~self.given[seat] or hand
        if suit is not None and self.holds(hand, seat, suit) and free & SUIT_MASKS[suit]:
            free &= SUIT_MASKS[suit]
        return list(cards_in(free))


def play_trick(r: Replay, hands: list[int], trick: Trick, group: list[Play],
               following: list[Play], gaps: Gaps) -> bool:
    """Put one PBN trick (``group``: its cards as recorded, ``-`` among them) on the table and
    find its winner; ``following``: the next trick's cards, whose ``^L`` may name the winner.
    False when the replay must stop (a card its player does not hold, a winner that hangs on
    an unrecorded card).  A trick left incomplete keeps no winner."""
    if any(gaps.hidden):
        r.unsure_hands.add(trick.number)
    if not _play_cards(r, hands, trick, {p.seat: p for p in group}, gaps):
        return False
    complete = len(trick.plays) + len(trick.omitted) + len(trick.unknown) == 4
    known = _close(r, trick, hands, gaps, following) if complete else True
    if trick.unknown:
        _report(r, trick, gaps, stopped=not known)
    if not known:
        r.stopped_at = trick.number
    return known


def _play_cards(r: Replay, hands: list[int], trick: Trick, by_seat: dict[int, Play],
                gaps: Gaps) -> bool:
    """Put the trick's cards on the table in time order; a ``-`` is an omitted card (Law 67B),
    the end of the record, a card the rest of the play gives away, or a card hidden.  False
    when the replay must stop (a card its player does not hold)."""
    before = r.hands_at[-1]
    for i in range(4):
        seat = (trick.leader + i) % 4
        p = by_seat.get(seat)
        if p is None:
            break  # the record stops inside this trick
        if p.card is None:
            if gaps.omission == (trick.number, seat) and i > 0:
                trick.omitted.append(seat)
                continue
            if _stops_here(trick, by_seat, i, trick.number == gaps.last):
                break
            known = _deduce(r, trick, before[seat], seat, p, gaps)
            if known is None:
                _hide(trick, seat, p, gaps, before[seat])
                continue
            p = known
        judged = trick.leader not in trick.unknown  # no suit led to follow: no revoke
        got = play_card(r, hands, trick, seat, p, judge=judged)
        if got is False:
            return False
        if not judged:
            _lead_unknown(r, trick, p)
        elif got is not True:
            fact = _sure_revoke(r, before, gaps, seat, got) if gaps.hidden[seat] else got
            if fact is not None:
                r.revokes.append(fact)
    return True


def _close(r: Replay, trick: Trick, hands: list[int], gaps: Gaps, following: list[Play]) -> bool:
    """The winner of a trick of four cards; with cards not recorded, the one seat every
    candidate card gives (or the next line's ``^L`` leader among them).  False when it stays
    unknown: the replay stops after this trick."""
    if not trick.unknown:
        close_trick(r, trick)
        return True
    won = _possible_winners(trick, gaps, r.trump) or set()
    _settle(trick, hands, gaps)
    marked = [p.seat for p in following if "L" in p.marks and p.seat in won]
    if len(won) == 1 or marked:
        trick.winner = marked[0] if marked else won.pop()
        return True
    return False


def _omission(plays: list[Play]) -> tuple[int, int] | None:
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


def _stops_here(trick: Trick, by_seat: dict[int, Play], i: int, last: bool) -> bool:
    """A ``-`` at position ``i`` of the last trick with no recorded card after it in time
    order: the record stops there (nothing was played), no card is hidden."""
    if not last:
        return False
    later = ((trick.leader + k) % 4 for k in range(i, 4))
    return all(by_seat.get(s) is None or by_seat[s].card is None for s in later)


def _possible_winners(trick: Trick, gaps: Gaps, trump: int | None) -> set[int] | None:
    """The seats that may have won ``trick`` (four cards, some unrecorded), trying every
    candidate for each unrecorded card (``Gaps.options``); None when there are too many lines
    to try."""
    known = {s: c for s, c, _ in trick.plays}
    order = [(trick.leader + k) % 4 for k in range(4)]
    lines = islice(_lines(order, known, gaps, []), MAX_LINES + 1)
    won: set[int] = set()
    seen: list[tuple[list[int], int]] = []
    for n, cards in enumerate(lines):
        if n == MAX_LINES:
            return None
        winner = order[winning_index(cards, trump)]
        won.add(winner)
        seen.append((list(cards), winner))
    gaps.deciding[trick.number] = _deciding(order, known, seen) if len(won) > 1 else set()
    return won


def _deciding(order: list[int], known: dict[int, int], seen: list[tuple[list[int], int]]
              ) -> set[int]:
    """The unrecorded seats whose card alone changes the winner, the others' cards kept; all
    of them when only together they do."""
    hidden = [i for i, s in enumerate(order) if s not in known]
    out = set()
    for i in hidden:
        winners: dict[tuple[int, ...], set[int]] = {}
        for cards, winner in seen:
            rest = tuple(cards[j] for j in hidden if j != i)
            winners.setdefault(rest, set()).add(winner)
        if any(len(w) > 1 for w in winners.values()):
            out.add(order[i])
    return out or {order[i] for i in hidden}


def _lines(order: list[int], known: dict[int, int], gaps: Gaps, cards: list[int]):
    """Every sequence of four cards the trick may have been, in time order."""
    if len(cards) == 4:
        yield list(cards)
        return
    seat = order[len(cards)]
    led = cards[0] // 13 if cards else None
    options = [known[seat]] if seat in known else gaps.options[seat][led]
    for card in options:
        cards.append(card)
        yield from _lines(order, known, gaps, cards)
        cards.pop()


def _hide(trick: Trick, seat: int, p: Play, gaps: Gaps, hand: int) -> None:
    """Note ``seat``'s card to ``trick`` as not recorded, and what it may have been
    (``Gaps.candidates``; ``hand``: his before the trick): on the lead, for no suit led; after
    a lead the trick shows, for its suit; after a lead not recorded, for each suit it may be."""
    if seat == trick.leader:
        led: tuple[int | None, ...] = (None,)
    else:
        led = tuple(range(4)) if trick.leader in trick.unknown else (trick.suit_led,)
    gaps.options[seat] = {suit: gaps.candidates(hand, seat, suit) for suit in led}
    trick.unknown.append(seat)
    gaps.lines[seat] = p.line
    if UNREADABLE in p.marks:
        gaps.unreadable.add((trick.number, seat))


def _deduce(r: Replay, trick: Trick, hand: int, seat: int, p: Play, gaps: Gaps) -> Play | None:
    """The unrecorded card when the rest of the play gives it away: the only card of
    ``seat``'s (``hand``: before this trick) that the record does not show him playing, every
    other one appearing later.  Then it is played as if recorded (RC013 still says it was not)."""
    free = hand & ~gaps.given[seat]
    if gaps.hidden[seat] or count(free) != 1:
        return None
    card = free.bit_length() - 1
    what = "cannot be read" if UNREADABLE in p.marks else "is not recorded"
    r.add("RC013", f"trick {trick.number}: {seat_name(seat)}'s card {what}; it can only "
          f"be {card_str(card)}, the one card of his that the rest of the play does not show, "
          "so the play is checked with it", p.line, trick=trick.number, seat=seat, card=card)
    gaps.given[seat] |= free
    return p._replace(card=card)


def _settle(trick: Trick, hands: list[int], gaps: Gaps) -> None:
    """Once the trick is over, its unrecorded cards are gone from their players' hands.  A
    player's hand is uncertain by as many cards as he has unrecorded ones, until the cards the
    record does not show him playing are exactly that many: then those were they."""
    for seat in trick.unknown:
        gaps.hidden[seat] += 1
    for seat in range(4):
        free = hands[seat] & ~gaps.given[seat]
        if gaps.hidden[seat] and count(free) == gaps.hidden[seat]:
            hands[seat] &= ~free
            gaps.hidden[seat] = 0


def _report(r: Replay, trick: Trick, gaps: Gaps, stopped: bool) -> None:
    """One RC013 per unrecorded card of ``trick``, saying what it leaves unchecked."""
    lead_unknown = trick.leader in trick.unknown
    for k, seat in enumerate(trick.unknown):
        if seat == trick.leader:
            what = (f"trick {trick.number}: {seat_name(seat)}'s lead is not recorded, so the "
                    "other cards of the trick cannot be checked for revokes")
        else:
            what = (f"trick {trick.number}: {seat_name(seat)}'s card "
                    + ("cannot be read" if (trick.number, seat) in gaps.unreadable
                       else "is not recorded"))
            if not lead_unknown:
                what += "; the other players' cards to the trick are still checked"
        deciding = gaps.deciding.get(trick.number) or {trick.unknown[-1]}
        if stopped and seat in deciding:
            what += (f"{_played_later(r, trick, gaps, seat)}; who won trick {trick.number} "
                     "depends on it, so nothing after it can be checked")
        r.add("RC013", what, gaps.lines[seat], trick=trick.number, seat=seat)


def _played_later(r: Replay, trick: Trick, gaps: Gaps, seat: int) -> str:
    """Why an unrecorded card may beat the recorded ones: every card of the suit led its player
    held is shown played on another trick, so it was of another suit."""
    if not trick.plays or seat == trick.leader or len(r.hands_at) < trick.number:
        return ""
    suit = trick.suit_led
    held = r.hands_at[trick.number - 1][seat] & SUIT_MASKS[suit]
    if not held or held & ~gaps.given[seat]:
        return ""
    return (f" (the record shows his {holding_str(held)} played on another trick, so this card "
            "was of another suit)")


def _sure_revoke(r: Replay, hands: tuple[int, ...], gaps: Gaps, seat: int, fact: RevokeFact
                 ) -> RevokeFact | None:
    """The revoke ``play_card`` found for ``seat``, who has cards not recorded: kept only when
    he certainly held the suit led (then with the cards of it he surely held); otherwise None,
    and why it cannot be judged."""
    if gaps.holds(hands[seat], seat, fact.suit_led):
        sure = hands[seat] & SUIT_MASKS[fact.suit_led] & gaps.given[seat]
        return replace(fact, held=sure) if gaps.hidden[seat] and sure else fact
    r.unchecked[fact.card] = (
        f"trick {fact.trick}: {seat_name(seat)} played {card_str(fact.card)}, but whether he "
        "still held the suit led depends on his earlier card that is not recorded")
    return None


def _lead_unknown(r: Replay, trick: Trick, p: Play) -> None:
    """A card played to a trick whose lead is not recorded cannot be judged (a ^R mark on it
    is answered with this reason)."""
    r.unchecked[p.card] = (f"the lead to trick {trick.number} is not recorded, so the suit "
                           "led is not known")
