"""Mechanics every code shares: establishment, the pool of tricks a transfer draws on, the
corrected twelfth trick, and the ruling that comes out.

An edition module states only its own clauses (which revokes get no transfer, how many tricks
a transfer takes) and calls these helpers."""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from ..core.cards import SUIT_MASKS, SUITS, card_str, cards_in, holding_str, winning_index, seat_name
from ..core.findings import Finding, role_of
from ..replay import COMPLETE, CLAIMED, DefectFact, Replay, RevokeFact, Trick
from ..replay.by_cards import settled_winner



class Discovered(StrEnum):
    """When the revokes were found (``--discovered``): at the table, where Law 64A transfers
    tricks, or after the round, where Law 64B5 leaves it to the Director (64C)."""

    TABLE = "table"
    AFTER_ROUND = "after-round"


class Scoring(StrEnum):
    """How an edition scores a board: duplicate (the Laws of Duplicate Bridge) or rubber (the
    1932 Code, the Laws of Bridge)."""

    DUPLICATE = "duplicate"
    RUBBER = "rubber"


TABLE, AFTER_ROUND = Discovered


@dataclass
class Ruling:
    """What a code makes of one replayed board."""

    edition: str
    findings: list[Finding] = field(default_factory=list)
    tricks_adjusted: int | None = None
    scoring: str = Scoring.DUPLICATE
    notes: list[str] = field(default_factory=list)
    penalty_to_declarer_side: int = 0  # tricks moved to declarer's side by the rules
    penalty_to_defenders: int = 0
    declarer_side_revoked: bool = False  # an established revoke (or deemed one) by that side
    defenders_revoked: bool = False
    # set by ``discovery.decide`` (the time of discovery, the table's ruling in the record):
    tricks_played: int | None = None  # the tricks the ruling starts from (the play's, or the
    # cards' when the stated result already holds the table's ruling)
    tricks_by_cards: int | None = None  # what the recorded cards give (``replay.by_cards``)
    tricks_automatic: int | None = None  # the automatic rectification had the table known
    basis: str = "none"  # boards.csv ruling_basis: which rule gave tricks_adjusted
    cards_span: tuple[int, int] | None = None  # with the table's ruling: what the cards allow

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


#: boards.csv ``ruling_64c``: Law 64C decided for the board - no established revoke (``none``),
#: the revoke cost the non-offending side no more than the rectification gives back (``no
#: damage``: the result stands), a 64C result proposed (``adjusted``), or the figures are not
#: known (``not assessed``: --no-equity, the position at the revoke not in the record).
NO_64C, NO_DAMAGE, ADJUSTED_64C, NOT_ASSESSED = "none", "no damage", "adjusted", "not assessed"

#: ``ruling_basis`` when the stated result already holds the table's own ruling.
TABLE_RULING = "table ruling in record"


def ruling_basis(at_table: list[Finding], ruled: list[Finding]) -> str:
    """The rules that gave a board's adjusted tricks, in trick order, joined by ``+``: ``64A``
    (a transfer, 64A1/64A2, or 67B1's deemed revoke), the 64B clause that left a revoke without
    one (``64B1`` ... ``64B7``; a corrected trick-12 revoke is ``64B6``), ``64B5`` where the
    table would have transferred (or might have, on a record that stops) but attention was first
    drawn after the round; ``none`` when
    nothing was ruled.  ``at_table``: the findings of the ruling as at the table; ``ruled``:
    those of the ruling applied (the same facts, in the same order).  The rubber codes name
    their own rule (``1932 penalty``, ``1932 too late``)."""
    out: list[str] = []
    for table, applied in zip(_ruled(at_table), _ruled(ruled)):
        basis = _basis_of(table)
        if applied.law != table.law and applied.transferred == 0 and table.code in ("RV001", "RV003"):
            basis = applied.law  # 64B5 (or its older code's words): found too late
        elif applied.law == "64B5" and table.law == "64B1":
            basis = "64B5"  # a stopping record: the table's transfer unknown, none after the round
        if basis and basis not in out:
            out.append(basis)
    return "+".join(out) or "none"


def _ruled(findings: list[Finding]) -> list[Finding]:
    """The findings that carry a ruling (an established revoke, a defective trick's 67B1)."""
    return [f for f in findings if f.code in ("RV001", "RV002", "RV003", "DT001")]


def _basis_of(f: Finding) -> str:
    if f.law == "62D":
        return "64B6"
    if f.transferred and (f.law.startswith("64A") or f.law.startswith("67B")):
        return "64A"
    return f.law


def is_established(rp: Replay, trick_no: int, seat: int) -> bool:
    """Law 63A: established once the offender or his partner plays to the next trick, or his
    side claims or agrees to a claim.  A finished record (claim, or play beyond) shows it;
    a record that stops right after the revoke trick does not."""
    if rp.claim is not None:
        return True
    if trick_no < len(rp.tricks):
        nxt = rp.tricks[trick_no]  # trick numbers are 1-based; a card not recorded was played
        return any(s % 2 == seat % 2 for s in [p[0] for p in nxt.plays] + nxt.unknown)
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
        self.first_penalised: dict[int, int] = {}  # side -> trick of its first penalised revoke

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
    """Trick number -> winning seat, for the complete tricks - and, on a board with a revoke
    or a defective trick, for a last trick the record does not finish when the cards settle
    its winner (``settled_winner``: every legal way of finishing it gives the same one) and a
    claim after it leaves room for that trick."""
    out = {t.number: t.winner for t in rp.tricks if t.winner is not None}
    last = rp.tricks[-1] if rp.tricks else None
    if last is None or last.winner is not None or not (rp.revokes or rp.defects):
        return out
    seat = settled_winner(rp, last.number)
    if seat is not None and _claim_leaves_room(rp, out, seat):
        out[last.number] = seat
    return out


def trick_won_by(rp: Replay, number: int, pool: "TrickPool") -> int | None:
    """Who won trick ``number``: the record's winner, or the one the cards settle when the
    pool counts the trick (``winners``); None when not known."""
    winner = rp.tricks[number - 1].winner if number <= len(rp.tricks) else None
    if winner is not None or number > len(rp.tricks) or number not in pool.owner:
        return winner
    seat = settled_winner(rp, number)
    return seat if seat is not None and pool.owner[number] == seat % 2 else None


def _claim_leaves_room(rp: Replay, won: dict[int, int], seat: int) -> bool:
    """A claim ending the record counts the unfinished trick among the claimed ones: declarer's
    side must have claimed one more trick than it won (``seat`` of his side), or fewer than all
    of them (``seat`` a defender)."""
    if rp.play_status != CLAIMED or rp.claim is None:
        return True
    side = rp.declarer % 2
    more = rp.claim - sum(1 for w in won.values() if w % 2 == side)
    left = 13 - len(won)
    return more >= 1 if seat % 2 == side else more <= left - 1


def revoke_finding(rp: Replay, fact: RevokeFact, code: str, law: str, established: bool,
                   transferred: int, why: str) -> Finding:
    """An ``RV`` finding with the revoke's position and a readable sentence."""
    role = role_of(fact.seat, rp.declarer)
    what = (fact.duty if fact.duty else  # a duty from a director's log (61A2, 61A3)
            f"played {card_str(fact.card)} on a {_suit_word(fact.suit_led)} lead holding "
            f"{holding_str(fact.held)}")
    msg = f"trick {fact.trick}: {seat_name(fact.seat)} ({role}) {what}: {why}{_slip(fact)}"
    return Finding(code, msg, fact.line, law=law, trick=fact.trick, seat=fact.seat, role=role,
                   suit_led=fact.suit_led, card=fact.card, held=fact.held,
                   established=established, transferred=transferred, marked=fact.marked,
                   log_line=fact.log_line, what=what, why=why)


def _slip(fact: RevokeFact) -> str:
    """A card of the rank he held in the suit led (CQ played, SQ held) may be a slip of the
    recorder's pen rather than of the player's hand: the Director confirms the card with the
    record's source (the words of the ruling paragraph, ``ruling.director.CONFIRM``)."""
    if fact.duty or not fact.held:
        return ""
    twin = fact.suit_led * 13 + fact.card % 13
    if not fact.held >> twin & 1:
        return ""
    return (f"; he held {card_str(twin)}, of the same rank: possibly a recording slip: confirm the "
            "card with the record's source before signing")


def defect_finding(rp: Replay, fact: DefectFact, code: str, law: str, transferred: int,
                   why: str) -> Finding:
    role = role_of(fact.seat, rp.declarer)
    what = ("played no card" if fact.kind == "omitted"
            else f"played a second card, {card_str(fact.card)}")
    msg = f"trick {fact.trick}: {seat_name(fact.seat)} ({role}) {what} (defective trick): {why}"
    return Finding(code, msg, fact.line, law=law, trick=fact.trick, seat=fact.seat, role=role,
                   suit_led=fact.suit_led, card=fact.card, transferred=transferred, what=what,
                   why=why)


def _suit_word(suit: int) -> str:
    return ("spade", "heart", "diamond", "club")[suit]


def tricks_for_declarer(rp: Replay, pool: TrickPool) -> int | None:
    """Declarer's side's tricks by the (possibly corrected) trick owners."""
    if rp.play_status not in (COMPLETE, CLAIMED) or rp.tricks_played is None:
        return None
    return pool.total(pool.declarer_side)


# --- the twelfth trick ----------------------------------------------------------------------

@dataclass(frozen=True)
class Corrected:
    """Tricks 12 and 13 as the Laws replay them after a trick-12 revoke."""

    winners: dict[int, int]  # trick number (12, 13) -> winning seat
    note: str | None = None  # Law 16C: where the offender's partner's new card decided it


def corrected_last_two(rp: Replay, fact: RevokeFact, partner_replays: bool = True
                       ) -> Corrected | None:
    """Tricks 12 and 13 replayed with the revoke corrected - "the cards play themselves"
    (Law 62D; the 1932 Code's replayed 12th trick).  The first offender on trick 12 plays a
    card of the suit led; every player after him plays again (62C1 the non-offenders; 62C2 and
    62D2 his partner too, unless ``partner_replays`` is False), each in turn choosing the card
    best for his own side, a later offender now following suit; trick 13 plays itself.  With
    two cards each, every line is worked out (no solver).  None when the record lacks the
    position (``uncorrectable`` says why)."""
    if uncorrectable(rp, fact, partner_replays):
        return None
    hands, t12 = rp.hands_at[11], rp.tricks[11]
    order, pos, partner, free = _twelfth_seats(rp, fact, partner_replays)
    original = [t12.card_of(s) for s in order]
    line = _best_line(pos, tuple(original[:pos]), order, original, hands, rp.trump, free)
    winners = _play_out(line, order, hands, rp.trump)
    note = _partner_note(line, pos, partner, order, original, hands, rp, winners, free)
    return Corrected(winners, note)


def _twelfth_seats(rp: Replay, fact: RevokeFact, partner_replays: bool
                   ) -> tuple[list[int], int, int, set[int]]:
    """Trick 12's seats in time order, the first offender's position, his partner, and the
    seats that play again."""
    t12 = rp.tricks[11]
    order = [(t12.leader + i) % 4 for i in range(4)]
    offenders = [f.seat for f in rp.revokes if f.trick == 12] or [fact.seat]
    pos = min(order.index(s) for s in offenders)
    partner = (order[pos] + 2) % 4
    free = {order[pos]} | {s for s in order[pos + 1:] if partner_replays or s != partner}
    return order, pos, partner, free


def uncorrectable(rp: Replay, fact: RevokeFact, partner_replays: bool = True) -> str | None:
    """Why the corrected trick 12 cannot be worked out from the record, or None when it can:
    it needs the hands before trick 12 and the cards that stand (those played before the
    offender, and his partner's when he does not play again); the others are played anew."""
    if len(rp.tricks) < 12 or len(rp.hands_at) < 12:
        return "the record stops before trick 12"
    if not rp.hands_known(12):
        return ("cards not recorded earlier in the play leave the hands at trick 12 unknown")
    order, pos, _partner, free = _twelfth_seats(rp, fact, partner_replays)
    missing = [s for s in order if s not in free and rp.tricks[11].card_of(s) is None]
    if missing:
        return (f"{seat_name(missing[0])}'s card to trick 12, which stands, is not recorded")
    return None


def _best_line(i: int, played: tuple[int, ...], order: list[int], original: list[int],
               hands: tuple[int, ...], trump: int | None, free: set[int]) -> tuple[int, ...]:
    """The cards of trick 12 from position ``i`` on, each player choosing in turn the card
    that wins his side most of tricks 12-13 (on a tie, the card he played at the table)."""
    if i == 4:
        return played
    seat = order[i]
    options = _options(seat, original[i], played, hands, seat in free)
    best: tuple[int, tuple[int, ...]] | None = None
    for card in options:
        line = _best_line(i + 1, played + (card,), order, original, hands, trump, free)
        won = sum(1 for w in _play_out(line, order, hands, trump).values() if w % 2 == seat % 2)
        if best is None or won > best[0]:
            best = (won, line)
    return best[1]


def _options(seat: int, card: int, played: tuple[int, ...], hands: tuple[int, ...],
             replays: bool) -> list[int]:
    """The cards ``seat`` may play: his table card when he does not play again, else every
    legal card (the suit led if he holds it), his table card first."""
    if not replays:
        return [card]
    legal = hands[seat] & SUIT_MASKS[played[0] // 13] or hands[seat]
    return sorted(cards_in(legal), key=lambda c: c != card)


def _partner_note(line: tuple[int, ...], pos: int, partner: int, order: list[int],
                  original: list[int], hands: tuple[int, ...], rp: Replay,
                  winners: dict[int, int], free: set[int]) -> str | None:
    """Law 16C (62D2): when the offender's partner's new card changed the result (or, if he
    had not played to trick 12 at the table, when another card of his would have given another
    result), the Director checks that it was not suggested by the withdrawn card."""
    if partner not in free:
        return None
    i = order.index(partner)
    kept = original[i]
    if line[i] == kept:
        return None
    led = line[0] // 13
    if kept is None:  # he had not played yet: did another card of his give another result?
        others = [c for c in _options(partner, line[i], line[:i], hands, True) if c != line[i]]
        fixed = [original[:i] + [c] + original[i + 1:] for c in others]
        if all(_play_out(_best_line(pos, line[:pos], order, alt, hands, rp.trump,
                                    free - {partner}), order, hands, rp.trump) == winners
               for alt in fixed):
            return None
    elif kept // 13 != led and hands[partner] & SUIT_MASKS[led]:
        return None  # his table card was itself a revoke: he had to change it
    else:
        alone = _best_line(pos, line[:pos], order, original, hands, rp.trump, free - {partner})
        if _play_out(alone, order, hands, rp.trump) == winners:
            return None
    card = line[i]
    play = (f"ruff with {card_str(card)}" if rp.trump is not None and card // 13 == rp.trump
            and led != rp.trump else card_str(card))
    return (f"16C: check that {seat_name(partner)}'s {play} was not suggested by the withdrawn "
            "card")


def _play_out(combo: tuple[int, ...], order: list[int], hands: tuple[int, ...],
              trump: int | None) -> dict[int, int]:
    w12 = order[winning_index(list(combo), trump)]
    rest = [hands[s] & ~(1 << c) for s, c in zip(order, combo)]
    last = {s: r.bit_length() - 1 for s, r in zip(order, rest)}
    order13 = [(w12 + i) % 4 for i in range(4)]
    cards13 = [last[s] for s in order13]
    w13 = order13[winning_index(cards13, trump)]
    return {12: w12, 13: w13}


__all__ = ["Ruling", "TrickPool", "is_established", "winners", "trick_won_by", "revoke_finding", "defect_finding",
           "corrected_last_two", "uncorrectable", "Corrected", "tricks_for_declarer", "TABLE", "AFTER_ROUND", "TABLE_RULING", "ruling_basis", "SUITS", "Trick"]
