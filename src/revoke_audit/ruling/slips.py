"""The revokes a Director confirms with the record's source before signing: a card the
recorder may have slipped on (Law 61A is broken only by a card played), the record read again
with the likely card, and the next trick's lead held against both readings (Law 44G).

The other readings are data: ``rereads`` gives the records to read again, each under its key;
``audit.audit_board`` replays and rules them with the record itself, in one pass, and hands
them back to ``slip_readings``, which holds each reading against the record as recorded."""
from __future__ import annotations

from dataclasses import replace
from typing import Iterator, NamedTuple

from ..core.record import BoardRecord
from ..laws import Ruling
from ..replay import Replay, RevokeFact

#: a reading's key: ("twin", trick, seat) for a revoke card read as its twin, ("slip", seat,
#: card) for a card a dummy kept through two revokes read at the first one's trick
ReadingKey = tuple
#: each reading, replayed and ruled, under its key
Read = dict[ReadingKey, tuple[Replay, Ruling]]


class OtherReading(NamedTuple):
    """A revoke card that may be the recorder's slip rather than the player's (Law 61A is
    broken only by a card played): ``twin``, the card of the suit led of the same rank he held
    (DQ written for SQ), or None for a card of dummy's (on view, rarely revoked at the table:
    at championship level usually the operator's slip); read with the twin, declarer's tricks
    after the ruling (``tricks_adjusted``) and the trick where a later card becomes the revoke
    (``later``)."""

    twin: int | None
    tricks_adjusted: int | None = None
    later: int | None = None
    later_fact: RevokeFact | None = None  # with ``later``: that revoke (its card, his holding)
    kept: int = 0  # a deal error's likely card: kept through two revokes in its suit
    tricks: tuple[int, ...] = ()  # with ``kept``: the tricks of those revokes
    unplayed: bool = False  # with ``kept``: the record never shows him playing those cards
    # when the other reading gives the revoke trick another winner (who then leads the next):
    winner: int | None = None  # its winner that way
    winner_recorded: int | None = None  # its winner as recorded
    misfit: RevokeFact | None = None  # a card of the next trick that fails to follow that way
    misfit_recorded: RevokeFact | None = None  # one that fails to follow only as recorded
    last_line: bool = False  # declarer's, on his side's lead, on the unfinished last trick
    # with ``kept``: one recording slip that removes every revoke of the group - the kept card
    # read at the first revoke's trick (``slip``), the board's revokes left that way, the
    # revoke trick's winner unchanged; ``tricks_adjusted`` is then declarer's tricks that way
    slip: int | None = None
    slip_revokes: int = 0
    slip_same_winner: bool = False


def rereads(rp: Replay) -> dict[ReadingKey, BoardRecord]:
    """The records ``slip_readings`` holds against ``rp``, each the record with one card the
    recorder may have slipped on read as another: a revoke card with its twin (the card of the
    suit led of the same rank he held) exchanged in the player's plays; a card dummy kept
    through two revokes of one suit played at the first one's trick, one record per such
    card."""
    out: dict[ReadingKey, BoardRecord] = {}
    groups = _kept_groups(rp)
    for (seat, _suit), facts in groups.items():
        kept, _unplayed = _kept(rp, seat, facts)
        if kept and _dummy(rp, seat):
            first = min(facts, key=lambda f: f.trick)
            for card in (c for c in range(52) if kept >> c & 1):
                out[("slip", seat, card)] = _with_card(rp.record, first, card)
    for fact in _single(rp, groups):
        twin = fact.suit_led * 13 + fact.card % 13
        if fact.held >> twin & 1:
            out[("twin", fact.trick, fact.seat)] = _swapped(rp.record, fact, twin)
    return out


def slip_readings(rp: Replay, read: Read) -> dict[tuple[int, int], OtherReading]:
    """The revokes of ``rp`` whose card a Director confirms with the record's source before
    signing (a player failing twice to follow a suit while keeping a card of it, a likely
    deal error; a card of the rank of one he held in the suit led; any revoke by dummy), with
    the ruling on the other reading - the two cards exchanged in the record - when there is
    one.  ``read``: the records of ``rereads(rp)``, replayed and ruled, under their keys."""
    groups = _kept_groups(rp)
    out: dict[tuple[int, int], OtherReading] = dict(_kept_through(rp, groups, read))
    dummy = (rp.declarer + 2) % 4 if rp.declarer is not None else None
    for fact in _single(rp, groups):
        twin = fact.suit_led * 13 + fact.card % 13
        if fact.held >> twin & 1:
            out[(fact.trick, fact.seat)] = _read_with(rp, fact, twin,
                                                      read[("twin", fact.trick, fact.seat)])
        elif fact.seat == dummy:
            out[(fact.trick, fact.seat)] = OtherReading(None)
        elif _on_the_last_line(rp, fact):
            out[(fact.trick, fact.seat)] = OtherReading(None, last_line=True)
    return out


def _kept_groups(rp: Replay) -> dict[tuple[int, int], list[RevokeFact]]:
    """The revokes of the record (not a log's duty), by (seat, suit led)."""
    groups: dict[tuple[int, int], list[RevokeFact]] = {}
    for fact in rp.revokes:
        if not fact.duty:
            groups.setdefault((fact.seat, fact.suit_led), []).append(fact)
    return groups


def _kept(rp: Replay, seat: int, facts: list[RevokeFact]) -> tuple[int, bool]:
    """The likely card of a group of two revokes or more kept through them all (Law 61A is
    broken by a card played, not by one the deal wrongly gives him): the kept ones the record
    never shows him playing, else every kept one (0: none kept, or one revoke); and whether
    those are unplayed."""
    kept = ~0
    for fact in facts:
        kept &= fact.held
    if len(facts) < 2 or not kept:
        return 0, False
    played = sum(1 << c for t in rp.tricks for s, c, _ in t.plays if s == seat)
    return kept & ~played or kept, bool(kept & ~played)


def _single(rp: Replay, groups: dict[tuple[int, int], list[RevokeFact]]
            ) -> Iterator[RevokeFact]:
    """The record's revokes (not a log's duty) outside a group of kept cards, in order."""
    kept = {(f.trick, f.seat) for (seat, _), facts in groups.items()
            if _kept(rp, seat, facts)[0] for f in facts}
    return (f for f in rp.revokes if not f.duty and (f.trick, f.seat) not in kept)


def _dummy(rp: Replay, seat: int) -> bool:
    return rp.declarer is not None and seat == (rp.declarer + 2) % 4


def _with_card(record: BoardRecord, first: RevokeFact, card: int) -> BoardRecord:
    """The record with ``card`` in place of ``first``'s revoke card."""
    plays = tuple(p._replace(card=card) if p.card == first.card and p.seat in
                  (first.seat, None) else p for p in record.play)
    return replace(record, play=plays)


def _swapped(record: BoardRecord, fact: RevokeFact, twin: int) -> BoardRecord:
    """The record with ``fact.card`` and ``twin`` exchanged in the player's plays."""
    swap = {fact.card: twin, twin: fact.card}
    plays = tuple(p._replace(card=swap[p.card]) if p.card in swap and p.seat in (fact.seat, None)
                  else p for p in record.play)
    return replace(record, play=plays)


def _on_the_last_line(rp: Replay, fact) -> bool:
    """Declarer failing to follow his own side's lead on the record's last trick, left
    unfinished before the claim: he sees both hands of his side, so this is far likelier the
    operator's slip at the end of the record than a revoke (as dummy's are)."""
    if rp.declarer is None or fact.seat != rp.declarer or fact.trick != len(rp.tricks):
        return False
    trick = rp.tricks[-1]
    unfinished = bool(trick.unknown) or len(trick.plays) + len(trick.omitted) < 4
    return unfinished and trick.leader % 2 == rp.declarer % 2


def _kept_through(rp: Replay, groups: dict[tuple[int, int], list[RevokeFact]], read: Read
                  ) -> Iterator[tuple[tuple[int, int], OtherReading]]:
    """Law 61A is broken by a card played, not by a card the deal wrongly gives him: a player
    (dummy too, whose cards are on view) who fails twice to follow one suit while keeping the
    same card of it is far likelier a deal misrecorded, or one recording slip, than a double
    revoke.  The likely card: the kept ones the record never shows him playing, else every
    kept one (``_kept``); for dummy, the slip: that card played at the first revoke's trick
    (``_one_slip``)."""
    for (seat, _suit), facts in groups.items():
        kept, unplayed = _kept(rp, seat, facts)
        if not kept:
            continue
        base = OtherReading(None, kept=kept, tricks=tuple(f.trick for f in facts),
                            unplayed=unplayed)
        reading = _one_slip(rp, facts, base, read) if _dummy(rp, seat) else base
        for fact in facts:
            yield (fact.trick, seat), reading


def _one_slip(rp: Replay, facts: list, base: OtherReading, read: Read) -> OtherReading:
    """The record read with a kept card in place of the first revoke's card (the operator
    typed one card for another once): when that reading is coherent, keeps the trick's winner
    (so the next lead, Law 44G) and leaves no revoke but the other players' recorded ones, one
    slip explains every revoke of the group; declarer's tricks that way."""
    first = min(facts, key=lambda f: f.trick)
    for card in (c for c in range(52) if base.kept >> c & 1):
        other, again = read[("slip", first.seat, card)]
        t = first.trick
        if not other.coherent or not other.auditable or len(other.tricks) < t:
            continue
        same = rp.tricks[t - 1].winner == other.tricks[t - 1].winner  # the next lead fits too
        keys = {(f.trick, f.seat, f.card) for f in rp.revokes if f.seat != first.seat}
        if not same or not {(f.trick, f.seat, f.card) for f in other.revokes} <= keys:
            continue  # that way the record no longer fits: no one slip explains them
        return base._replace(slip=card, tricks_adjusted=again.tricks_adjusted,
                             slip_revokes=len(other.revokes), slip_same_winner=same)
    return base


def _read_with(rp: Replay, fact, twin: int, reading: tuple[Replay, Ruling]) -> OtherReading:
    """The record read with ``fact.card`` and ``twin`` exchanged in the player's plays
    (``_swapped``), replayed and ruled."""
    other, again = reading
    if not other.coherent or not other.auditable:
        return OtherReading(twin)
    later = min((f for f in other.revokes if f.seat == fact.seat and f.trick > fact.trick),
                key=lambda f: f.trick, default=None)
    reading = OtherReading(twin, again.tricks_adjusted, later and later.trick, later_fact=later)
    return _against_next_lead(rp, other, fact, reading)


def _against_next_lead(rp: Replay, other: Replay, fact, reading: OtherReading) -> OtherReading:
    """Law 44G: the winner of a trick leads the next.  When the other reading gives the revoke
    trick another winner, the record's next trick tells the readings apart: a card of it that
    fails to follow under one lead and not under the other shows which lead the record holds,
    so which card was played."""
    t = fact.trick
    if len(rp.tricks) < t + 1 or len(other.tricks) < t:
        return reading
    won, won_other = rp.tricks[t - 1].winner, other.tricks[t - 1].winner
    if won is None or won_other is None or won == won_other:
        return reading

    def key(f):
        return (f.trick, f.seat, f.card)
    as_recorded, read_other = {key(f) for f in rp.revokes}, {key(f) for f in other.revokes}
    misfit = next((f for f in other.revokes if f.trick == t + 1
                   and key(f) not in as_recorded), None)
    misfit_recorded = next((f for f in rp.revokes if f.trick == t + 1
                            and key(f) not in read_other), None)
    return reading._replace(winner=won_other, winner_recorded=won, misfit=misfit,
                            misfit_recorded=misfit_recorded)
