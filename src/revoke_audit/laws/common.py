"""Mechanics every code shares: establishment, the pool of tricks a transfer draws on, the
corrected twelfth trick, and the ruling that comes out.

An edition module states only its own clauses (which revokes get no transfer, how many tricks
a transfer takes) and calls these helpers."""
from __future__ import annotations

from dataclasses import dataclass, field
from itertools import product

from ..cards import SUIT_MASKS, SUITS, card_str, cards_in, holding_str, winning_index
from ..findings import Finding, role_of, seat_name
from ..replay import COMPLETE, CLAIMED, DefectFact, Replay, RevokeFact, Trick

TABLE, AFTER_ROUND = "table", "after-round"


@dataclass
class Ruling:
    """What a code makes of one replayed board."""

    edition: str
    findings: list[Finding] = field(default_factory=list)
    tricks_adjusted: int | None = None
    scoring: str = "duplicate"  # or "rubber"
    notes: list[str] = field(default_factory=list)
    penalty_to_declarer_side: int = 0  # tricks moved to declarer's side by the rules
    penalty_to_defenders: int = 0
    declarer_side_revoked: bool = False  # an established revoke (or deemed one) by that side
    defenders_revoked: bool = False

    def revoked(self, rp: Replay, seat: int) -> None:
        """Note that ``seat``'s side has an established (or deemed) revoke."""
        if seat % 2 == rp.declarer % 2:
            self.declarer_side_revoked = True
        else:
            self.defenders_revoked = True

    def move(self, rp: Replay, offender: int, n: int) -> None:
        """``n`` tricks go from ``offender``'s side to the other side."""
        if offender % 2 == rp.declarer % 2:
            self.penalty_to_defenders += n
        else:
            self.penalty_to_declarer_side += n


def is_established(rp: Replay, trick_no: int, seat: int) -> bool:
    """Law 63A: established once the offender or his partner plays to the next trick, or his
    side claims or agrees to a claim.  A finished record (claim, or play beyond) shows it;
    a record that stops right after the revoke trick does not."""
    if rp.claim is not None:
        return True
    if trick_no < len(rp.tricks):
        nxt = rp.tricks[trick_no]  # trick numbers are 1-based
        return any(s % 2 == seat % 2 for s, _, _ in nxt.plays)
    return False


class TrickPool:
    """Tricks each side won, by trick number, from which transfers are drawn once only.

    Claimed tricks count as won after the last complete trick (their order is unknown, so they
    are later than every played trick)."""

    def __init__(self, rp: Replay, winners: dict[int, int]):
        self.declarer_side = rp.declarer % 2
        self.owner: dict[int, int] = {n: w % 2 for n, w in winners.items()}
        if rp.play_status == CLAIMED and rp.claim is not None:
            last = max(winners, default=0)
            decl_won = sum(1 for s in self.owner.values() if s == self.declarer_side)
            decl_more = max(0, min(13 - last, rp.claim - decl_won))
            for i in range(13 - last):
                side = self.declarer_side if i < decl_more else 1 - self.declarer_side
                self.owner[last + 1 + i] = side
        self.taken: set[int] = set()

    def won_by(self, side: int, first: int, last: int = 99) -> list[int]:
        """Untaken tricks numbered first..last won by ``side``."""
        return [n for n in sorted(self.owner) if first <= n <= last and self.owner[n] == side
                and n not in self.taken]

    def take(self, side: int, first: int, n: int) -> int:
        """Take up to ``n`` untaken tricks of ``side`` from trick ``first`` on; return how many."""
        got = self.won_by(side, first)[:n]
        self.taken.update(got)
        return len(got)

    def total(self, side: int) -> int:
        return sum(1 for s in self.owner.values() if s == side)


def winners(rp: Replay) -> dict[int, int]:
    """Trick number -> winning seat, for the complete tricks."""
    return {t.number: t.winner for t in rp.tricks if t.winner is not None}


def revoke_finding(rp: Replay, fact: RevokeFact, code: str, law: str, established: bool,
                   transferred: int, why: str) -> Finding:
    """An ``RV`` finding with the revoke's position and a readable sentence."""
    role = role_of(fact.seat, rp.declarer)
    what = (fact.duty if fact.duty else  # a duty from a director's log (61A2, 61A3)
            f"played {card_str(fact.card)} on a {_suit_word(fact.suit_led)} lead holding "
            f"{holding_str(fact.held)}")
    msg = f"trick {fact.trick}: {seat_name(fact.seat)} ({role}) {what}: {why}"
    return Finding(code, msg, fact.line, law=law, trick=fact.trick, seat=fact.seat, role=role,
                   suit_led=fact.suit_led, card=fact.card, held=fact.held,
                   established=established, transferred=transferred, log_line=fact.log_line)


def defect_finding(rp: Replay, fact: DefectFact, code: str, law: str, transferred: int,
                   why: str) -> Finding:
    role = role_of(fact.seat, rp.declarer)
    what = ("played no card" if fact.kind == "omitted"
            else f"played a second card, {card_str(fact.card)}")
    msg = f"trick {fact.trick}: {seat_name(fact.seat)} ({role}) {what} (defective trick): {why}"
    return Finding(code, msg, fact.line, law=law, trick=fact.trick, seat=fact.seat, role=role,
                   suit_led=fact.suit_led, card=fact.card, transferred=transferred)


def _suit_word(suit: int) -> str:
    return ("spade", "heart", "diamond", "club")[suit]


def tricks_for_declarer(rp: Replay, pool: TrickPool) -> int | None:
    """Declarer's side's tricks by the (possibly corrected) trick owners."""
    if rp.play_status not in (COMPLETE, CLAIMED) or rp.tricks_played is None:
        return None
    return pool.total(pool.declarer_side)


# --- the twelfth trick ----------------------------------------------------------------------

def corrected_last_two(rp: Replay, fact: RevokeFact, nos_may_change: bool = True) -> dict[int, int] | None:
    """Tricks 12 and 13 replayed with the revoke corrected (Law 62D; 1932 Code's replayed 12th
    trick): the offender plays a card of the suit led, non-offenders who played after him may
    change their cards (they pick what is best for their side), trick 13 plays itself.

    Returns trick number -> winner for 12 and 13, or None if the record lacks the position."""
    if len(rp.hands_at) < 12 or len(rp.tricks) < 12:
        return None
    hands = rp.hands_at[11]
    t12 = rp.tricks[11]
    order = [(t12.leader + i) % 4 for i in range(4)]
    pos = order.index(fact.seat)
    choices: list[list[int]] = []
    for i, seat in enumerate(order):
        played = t12.card_of(seat)
        if played is None:
            return None
        if i < pos or (i > pos and (seat % 2 == fact.seat % 2 or not nos_may_change)):
            choices.append([played])
        elif i == pos:
            choices.append(list(cards_in(hands[seat] & SUIT_MASKS[fact.suit_led])))
        else:
            choices.append(list(cards_in(hands[seat])))
    nos = 1 - fact.seat % 2
    best: tuple[int, dict[int, int]] | None = None
    for combo in product(*choices):
        if not _legal_trick(combo, order, hands):
            continue
        result = _play_out(combo, order, hands, rp.trump)
        nos_tricks = sum(1 for w in result.values() if w % 2 == nos)
        if best is None or nos_tricks > best[0]:
            best = (nos_tricks, result)
    return None if best is None else best[1]


def _legal_trick(combo: tuple[int, ...], order: list[int], hands: tuple[int, ...]) -> bool:
    led = combo[0] // 13
    for card, seat in zip(combo[1:], order[1:]):
        if card // 13 != led and hands[seat] & SUIT_MASKS[led]:
            return False
    return True


def _play_out(combo: tuple[int, ...], order: list[int], hands: tuple[int, ...],
              trump: int | None) -> dict[int, int]:
    w12 = order[winning_index(list(combo), trump)]
    rest = [hands[s] & ~(1 << c) for s, c in zip(order, combo)]
    last = {s: r.bit_length() - 1 for s, r in zip(order, rest)}
    order13 = [(w12 + i) % 4 for i in range(4)]
    cards13 = [last[s] for s in order13]
    w13 = order13[winning_index(cards13, trump)]
    return {12: w12, 13: w13}


__all__ = ["Ruling", "TrickPool", "is_established", "winners", "revoke_finding", "defect_finding",
           "corrected_last_two", "tricks_for_declarer", "TABLE", "AFTER_ROUND", "SUITS", "Trick"]
