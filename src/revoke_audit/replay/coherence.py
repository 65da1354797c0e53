"""Is the record the play of its deal?  One explanation per board, decided before any ruling.

A few irregularities at the table in an otherwise coherent record are matters for the Laws; a
record that cannot be the play of its recorded deal is a record error, and reading its
misplaced cards as revokes (Law 61) or defective tricks (Law 67) would only cry wolf.  The
replay calls ``judge`` once it has put every card on the table:

- coherent: every card is held by the player it is credited to (a PBN column's seat; in LIN,
  where a card's seat is not written, the player on turn), with at most one defective trick
  that the deal explains on its own (Law 67B: the offender is one card short or over, and
  every other card belongs to the player on turn).  Revokes and defective tricks stand.
- not coherent: the board keeps **one** record-error finding that says what is wrong and how
  much (RC016, or the replay's own RC011 / RC014 / RC015), and no revoke or defective trick.
  Where one simple change makes the whole play coherent (hands rotated, another board's deal,
  a PBN line in time order, one card missing or doubled in a LIN sequence), the message names
  it so an archivist can mend the file; ``mends`` gives every such change as data, and
  ``repair`` audits the mended record before it writes one.
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Callable, Iterable, Iterator, Sequence

from ..core.cards import card_str, winning_index, seat_name
from .model import Replay
from ..core.findings import Finding
from ..core.record import BoardRecord, Play

# Findings that say the record is not the play of its deal, as the replay meets them.
PLAY_ERRORS = ("RC010", "RC011", "RC012", "RC014", "RC015")
# Findings that are consequences of the play and mean nothing once the play is incoherent.
CONSEQUENCES = PLAY_ERRORS + ("RC022", "RC030")

Hands = Sequence[int]
NeighbourDeals = Callable[[], Iterable[tuple[str, Hands]]]
NEIGHBOURS = 32  # boards each side whose deals may explain a record carrying another's deal


@dataclass(frozen=True, slots=True)
class Misfit:
    """A card credited to a player who does not hold it in the recorded deal."""

    trick: int
    seat: int  # the player it is credited to
    card: int
    holder: int | None  # who holds it in the recorded deal
    line: int


def misfits(r: Replay, hands: Hands, plays: Sequence[Play] | None = None, *,
            skip: int | None = None, time_order: bool = False) -> tuple[list[Misfit], int]:
    """Cards of the play credited to a player who does not hold them in ``hands``, and the
    number of known cards looked at.  PBN credits each card to its column's seat (or, with
    ``time_order``, reads each line leader first); LIN credits it to the player on turn.
    ``skip``: LIN only, a turn skipped just before card ``skip`` (a card missing there)."""
    plays = r.record.play if plays is None else plays
    if r.record.format == "pbn" and not time_order:
        return _column_misfits(hands, plays)
    return _turn_misfits(r, hands, plays, skip, time_order)


def _column_misfits(hands: Hands, plays: Sequence[Play]) -> tuple[list[Misfit], int]:
    out, known = [], 0
    for p in plays:
        if p.card is None or p.seat is None:
            continue
        known += 1
        if not hands[p.seat] >> p.card & 1:
            out.append(Misfit(p.trick or 0, p.seat, p.card, _holder(hands, p.card), p.line))
    return out, known


def _turn_misfits(r: Replay, hands: Hands, plays: Sequence[Play], skip: int | None,
                  time_order: bool) -> tuple[list[Misfit], int]:
    """Replay strictly in turn order from declarer's left-hand opponent (Law 41A, 44G)."""
    out: list[Misfit] = []
    known = 0
    for p, seat, number in turns(r, plays, skip, time_order):
        if p is None:
            continue
        known += 1
        if not hands[seat] >> p.card & 1:
            out.append(Misfit(number, seat, p.card, _holder(hands, p.card), p.line))
    return out, known


def turns(r: Replay, plays: Sequence[Play], skip: int | None = None, time_order: bool = False
          ) -> Iterator[tuple[Play | None, int, int]]:
    """Each card of ``plays`` with the seat on turn and the trick number, in time order, until
    the first unknown card (Law 44G: the winner leads).  LIN: from declarer's left; with
    ``time_order`` (a PBN line read leader first) from ``[Play]``'s seat.  ``skip``: a turn
    taken by a card missing just before card ``skip``, yielded with ``None``."""
    if time_order:  # a PBN line read leader first: the lines' order is the time order
        plays = sorted((p for p in plays if p.trick is not None),
                       key=lambda p: (p.trick, (p.seat - r.record.play_leader) % 4))
    leader = r.record.play_leader if time_order else (r.declarer + 1) % 4
    trick: list[tuple[int, int | None]] = []
    number = 1
    for i, p in enumerate(plays):
        if p.card is None:
            break
        if i == skip:
            yield None, (leader + len(trick)) % 4, number
            trick.append(((leader + len(trick)) % 4, None))
            leader, number = _close(trick, leader, number, r.trump)
        seat = (leader + len(trick)) % 4
        yield p, seat, number
        trick.append((seat, p.card))
        leader, number = _close(trick, leader, number, r.trump)


def _close(trick: list[tuple[int, int | None]], leader: int, number: int,
           trump: int | None) -> tuple[int, int]:
    """When four turns are taken, the winner leads next (a skipped turn cannot win)."""
    if len(trick) < 4:
        return leader, number
    played = [(s, c) for s, c in trick if c is not None]
    winner = played[winning_index([c for _, c in played], trump)][0]
    trick.clear()
    return winner, number + 1


def _holder(hands: Hands, card: int) -> int | None:
    return next((s for s in range(4) if hands[s] >> card & 1), None)


# --- the verdict -----------------------------------------------------------------------------

def judge(r: Replay, neighbours: NeighbourDeals | None = None) -> None:
    """Decide whether the replayed record is coherent; if not, leave one record-error finding
    and drop every revoke and defective-trick fact (``r.coherent`` becomes False)."""
    traces = [f for f in r.findings if f.code == "RC014" and _explained(r, f)]
    r.findings = [f for f in r.findings if f not in traces]
    errors = [f for f in r.findings if f.code in PLAY_ERRORS and not _explained(r, f)]
    if not errors and len(r.defects) <= 1:
        return  # every card is where the record says, or one defective trick explains it
    bad, known = misfits(r, r.record.hands)
    if not bad and not errors:
        return
    finding = _misfit_finding(r, bad, known, neighbours) if bad else _first(errors)
    r.findings = [f for f in r.findings if f.code not in CONSEQUENCES] + [finding]
    r.revokes.clear()
    r.defects.clear()
    r.coherent = False


def _explained(r: Replay, f: Finding) -> bool:
    """Findings that are no record error: in PBN, whose lines name their seats, a lead from
    the wrong side is a lead out of turn (Law 54); a failure to follow on trick 13 by the one
    player who omitted a card earlier is the omission's own trace (67B1 puts that card back)."""
    if f.code == "RC012":
        return r.record.format == "pbn"
    if f.code == "RC014":
        return len(r.defects) == 1 and r.defects[0].kind == "omitted" and r.defects[0].seat == f.seat
    return False


def _first(errors: list[Finding]) -> Finding:
    """The replay's own record error (RC011 played twice, RC014, RC015) is the explanation."""
    order = {"RC011": 0, "RC015": 1, "RC014": 2}
    return min(errors, key=lambda f: (order.get(f.code, 3), f.trick or 0))


def _misfit_finding(r: Replay, bad: list[Misfit], known: int,
                    neighbours: NeighbourDeals | None) -> Finding:
    first = bad[0]
    where = "in the column of" if r.record.format == "pbn" else "by"
    holder = f"{seat_name(first.holder)}'s hand" if first.holder is not None else "no hand"
    message = (f"{len(bad)} of {known} cards were played {where} a player who does not hold them "
               f"in the recorded deal (first: trick {first.trick}, {seat_name(first.seat)} "
               f"plays {card_str(first.card)}, which is in {holder}): the record is not the "
               "play of this deal; no revoke or defective trick is ruled")
    repair = repair_hint(r, neighbours)
    if repair:
        message += f"; {repair}"
    return Finding("RC016", message, first.line, trick=first.trick, seat=first.seat,
                   card=first.card)


# --- what would mend the record ---------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Mend:
    """One simple change that makes the whole play coherent (``repair.py`` writes it).

    ``kind``: ``rotated`` (``hands``: the deal with every hand moved), ``deal`` (``hands``:
    another board's deal), ``time-order`` (a PBN line read leader first), ``missing`` (a card
    missing just before ``record.play[at]``), ``doubled`` (``record.play[at]`` entered twice
    or by mistake).  ``text``: the change said for an archivist."""

    kind: str
    text: str
    hands: tuple[int, ...] | None = None
    at: int | None = None


def repair_hint(r: Replay, neighbours: NeighbourDeals | None = None) -> str | None:
    """One simple change that makes the whole play coherent, said for an archivist."""
    first = next(mends(r, neighbours), None)
    return first.text if first else None


def mends(r: Replay, neighbours: NeighbourDeals | None = None) -> Iterator[Mend]:
    """Every simple change that makes the whole play coherent, the likeliest first (lazy:
    the hint takes the first).  Each says only that every card is then held by the player
    it is credited to; ``repair`` audits the mended record before it writes anything."""
    hands = r.record.hands
    for k in (1, 2, 3):
        moved = [hands[(s - k) % 4] for s in range(4)]
        if _fits(r, moved):
            yield Mend("rotated", f"it fits when every hand is moved {k} seat"
                       f"{'s' if k > 1 else ''} clockwise (the hand recorded for North is "
                       f"{seat_name(k)}'s)", hands=tuple(moved))
    if r.record.format == "pbn" and r.record.play_leader is not None \
            and _fits(r, hands, time_order=True):
        yield Mend("time-order", "it fits when each play line is read as the trick in time "
                   "order (leader first) instead of seat columns")
    if r.record.format == "lin":
        yield from _one_card_mends(r)
    for label, deal in (neighbours() if neighbours else ()):
        if _fits(r, deal):
            yield Mend("deal", f"it fits the deal recorded for {label}: the board carries "
                       "another board's deal", hands=tuple(deal))


def _fits(r: Replay, hands: Hands, time_order: bool = False) -> bool:
    """Whether every known card of the play is held by the player it is credited to (and one
    is known): ``misfits`` empty, stopping at the first card that does not fit (most of the
    deals a mend tries fail on their first cards)."""
    plays = r.record.play
    if r.record.format == "pbn" and not time_order:
        credited = ((p, p.seat) for p in plays if p.card is not None and p.seat is not None)
    else:
        credited = ((p, seat) for p, seat, _n in turns(r, plays, None, time_order))
    known = False
    for p, seat in credited:
        if not hands[seat] >> p.card & 1:
            return False
        known = True
    return known


def _one_card_mends(r: Replay) -> Iterator[Mend]:
    """LIN: a card missing or doubled in the sequence shifts every later card one player on.
    Try the one change at the first misfit (and the card before it)."""
    plays = list(r.record.play)
    bad, _ = misfits(r, r.record.hands, plays)
    if not bad:
        return
    at = next(i for i, p in enumerate(plays) if p.line == bad[0].line and p.card == bad[0].card)
    for i in (at, at - 1):
        if i < 0:
            continue
        if not misfits(r, r.record.hands, plays, skip=i)[0]:
            yield Mend("missing", f"it fits when one card is taken as missing from the record "
                       f"just before {card_str(plays[i].card)} (trick {bad[0].trick})", at=i)
        rest = plays[:i] + plays[i + 1:]
        if not misfits(r, r.record.hands, rest)[0]:
            yield Mend("doubled", f"it fits when {card_str(plays[i].card)} (trick "
                       f"{bad[0].trick}) is taken as entered twice or by mistake", at=i)


# --- the deals around a board ---------------------------------------------------------------

def with_neighbours(records: Iterable[BoardRecord], window: int = NEIGHBOURS
                    ) -> Iterator[tuple[BoardRecord, NeighbourDeals]]:
    """Each record with a lazy list of the deals of up to ``window`` boards before and after
    it in the same source.  Memory stays bounded: at most ``2 * window + 1`` records are held."""
    before: deque[BoardRecord] = deque(maxlen=window)
    ahead: deque[BoardRecord] = deque()
    for record in records:
        ahead.append(record)
        if len(ahead) > window:
            current = ahead.popleft()
            yield current, _deals_near(current, before, ahead)
            before.append(current)
    while ahead:
        current = ahead.popleft()
        yield current, _deals_near(current, before, ahead)
        before.append(current)


def _deals_near(record: BoardRecord, before: deque, ahead: deque) -> NeighbourDeals:
    """Lazy: called (if ever) while ``record`` is audited, before the window moves on."""
    def deals() -> list[tuple[str, tuple[int, ...]]]:
        return [(_label(r), r.hands) for r in (*before, *ahead)
                if r.source == record.source and r.hands is not None and None not in r.hands
                and r.hands != record.hands]
    return deals


def _label(r: BoardRecord) -> str:
    room = f", {r.room} room" if r.room else ""
    return f"board {r.board or '?'}{room} (line {r.line})"
