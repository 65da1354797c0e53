"""Replay a board record trick by trick and collect the facts the Laws need.

The replay puts every card on a real table: hands are bitmasks, a card leaves its holder's
hand when played, the winner of each trick leads the next (Law 44G).  On the way it records
failures to follow suit while holding the suit led (Law 61A / 44C), tricks with a card missing
or an extra card (Law 67), and everything that makes the record itself inconsistent (``RC``
findings).  It never rules: ``laws`` turns these facts into rulings.  Where the record is too
incomplete to know, it stops and says so instead of guessing.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

from .auction import parse_contract
from .cards import SEATS, SUIT_MASKS, SUITS, card_str, count, deal_problems, holding_str, winning_index
from .findings import Finding, role_of, seat_name
from .record import BoardRecord, Play

COMPLETE, CLAIMED, PARTIAL, NONE = "complete", "claimed", "partial", "none"


@dataclass(slots=True)
class Trick:
    """One trick in time order.  ``plays``: (seat, card, line) per seat that played to it
    (an extra card is not among them); ``omitted``: seats that played no card (Law 67)."""

    number: int
    leader: int
    plays: list[tuple[int, int, int]] = field(default_factory=list)
    omitted: list[int] = field(default_factory=list)
    winner: int | None = None

    @property
    def suit_led(self) -> int:
        return self.plays[0][1] // 13

    def card_of(self, seat: int) -> int | None:
        for s, c, _ in self.plays:
            if s == seat:
                return c
        return None


@dataclass(frozen=True, slots=True)
class RevokeFact:
    """A failure to follow suit while holding the suit led (Law 61A1 / 44C)."""

    trick: int
    seat: int
    card: int
    suit_led: int
    held: int  # mask of the cards of the suit led still in the offender's hand
    line: int
    marked: bool  # the record marks this card ``^R``


@dataclass(frozen=True, slots=True)
class DefectFact:
    """A defective trick (Law 67): ``omitted`` (no card) or ``extra`` (a second card)."""

    trick: int
    seat: int
    kind: str
    card: int | None  # the extra card; None for an omission
    line: int
    suit_led: int
    holds_suit_led: bool  # at rectification (end of the record's play)


@dataclass(slots=True)
class Replay:
    record: BoardRecord
    contract: str | None = None
    declarer: int | None = None
    level: int | None = None
    strain: int | None = None
    risk: str = ""
    tricks: list[Trick] = field(default_factory=list)  # complete tricks, then a partial one
    hands_at: list[tuple[int, int, int, int]] = field(default_factory=list)  # before each trick
    revokes: list[RevokeFact] = field(default_factory=list)
    defects: list[DefectFact] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    claim: int | None = None  # declarer's total tricks per the claim / PBN Result after ``*``
    play_status: str = NONE
    stopped_at: int | None = None  # trick at which the replay could go no further
    auditable: bool = False  # deal, contract and play were good enough to replay

    @property
    def trump(self) -> int | None:
        return None if self.strain is None or self.strain == 4 else self.strain

    @property
    def complete_tricks(self) -> list[Trick]:
        return [t for t in self.tricks if t.winner is not None]

    def declarer_won(self) -> int:
        """Tricks won by declarer's side among the complete tricks."""
        return sum(1 for t in self.tricks if t.winner is not None and t.winner % 2 == self.declarer % 2)

    @property
    def tricks_played(self) -> int | None:
        """Declarer's tricks from the play, plus the claim when claimed; None if unknown."""
        if self.play_status == COMPLETE:
            return self.declarer_won()
        if self.play_status == CLAIMED:
            return self.claim
        return None

    def add(self, code: str, message: str, line: int | None, **kw) -> None:
        self.findings.append(Finding(code, message, line, **kw))


def replay(record: BoardRecord) -> Replay:
    """Replay ``record``; never raises on record content."""
    r = Replay(record)
    _check_contract(r)
    if not _ready(r):
        r.play_status = _status_without_replay(record)
        return r
    plays = _trim_unknown_tail(record.play)
    if plays and all(p.trick is not None for p in plays):
        _replay_grouped(r, plays)
    else:
        _replay_sequence(r, plays)
    _finish(r, plays)
    return r


# --- set-up -------------------------------------------------------------------------------

def _check_contract(r: Replay) -> None:
    """Contract/declarer stated vs derived from the auction (RC020/RC021)."""
    rec = r.record
    r.contract, r.declarer = rec.contract, rec.declarer
    if rec.contract_stated and rec.contract_derived and rec.contract_stated != rec.contract_derived:
        r.add("RC020", f"contract {rec.contract_stated} disagrees with the auction, which gives "
              f"{rec.contract_derived}", rec.auction_line or rec.line)
    if (rec.declarer_stated is not None and rec.declarer_derived is not None
            and rec.declarer_stated != rec.declarer_derived):
        r.add("RC021", f"declarer {SEATS[rec.declarer_stated]} disagrees with the auction, which "
              f"gives {SEATS[rec.declarer_derived]}", rec.auction_line or rec.line)
    parsed = parse_contract(r.contract) if r.contract else None
    if isinstance(parsed, tuple):
        r.level, r.strain, r.risk = parsed


def _ready(r: Replay) -> bool:
    """Is there a deal, a contract and a play to replay?  Say why not (RC001-RC003)."""
    rec = r.record
    if not rec.play:
        return False
    if rec.hands is None or any(h is None for h in rec.hands):
        r.add("RC002", "the deal is not fully known, so the play cannot be checked",
              rec.deal_line or rec.line)
        return False
    problems = deal_problems(rec.hands)
    if problems:
        r.add("RC001", "invalid deal: " + "; ".join(problems) + "; play not audited",
              rec.deal_line or rec.line)
        return False
    if r.level is None or r.declarer is None:
        r.add("RC003", f"play recorded but no usable contract/declarer ({r.contract or 'none'}); "
              "play not audited", rec.play_line or rec.line)
        return False
    r.auditable = True
    return True


def _status_without_replay(rec: BoardRecord) -> str:
    if not rec.play:
        return NONE
    return CLAIMED if rec.claim is not None else PARTIAL


def _trim_unknown_tail(plays: tuple[Play, ...]) -> list[Play]:
    """Unknown cards (``-``) after the last known card only say the record stops there."""
    n = len(plays)
    while n and plays[n - 1].card is None:
        n -= 1
    return list(plays[:n])


# --- the two ways a record gives the play --------------------------------------------------

def _replay_grouped(r: Replay, plays: list[Play]) -> None:
    """PBN: cards grouped by trick with their seats; the leader is derived by replaying."""
    groups: dict[int, list[Play]] = {}
    for p in plays:
        groups.setdefault(p.trick, []).append(p)
    hands = list(r.record.hands)
    leader = r.record.play_leader if r.record.play_leader is not None else plays[0].seat
    _check_opening_leader(r, leader, plays[0].line)
    omission = _pbn_omission(r, plays)
    for number in range(1, max(groups) + 1):
        group = groups.get(number, [])
        marked = [p.seat for p in group if "L" in p.marks]
        if marked:
            leader = marked[0]
        by_seat = {p.seat: p for p in group}
        trick = Trick(number, leader)
        r.hands_at.append(tuple(hands))
        r.tricks.append(trick)
        for i in range(4):
            seat = (leader + i) % 4
            p = by_seat.get(seat)
            if p is None:
                break  # the record stops inside this trick
            if p.card is None:
                if omission == (number, seat) and i > 0:
                    trick.omitted.append(seat)
                    continue
                r.add("RC013", f"trick {number}: {seat_name(seat)}'s card is not recorded, so "
                      "nothing after it can be checked", p.line, trick=number, seat=seat)
                r.stopped_at = number
                return
            if not _play_card(r, hands, trick, seat, p):
                _hint_time_order(r, hands, group, leader)
                return
        if len(trick.plays) + len(trick.omitted) == 4:
            _close(r, trick)
            leader = trick.winner
        elif number != max(groups):
            r.add("RC013", f"trick {number} is incomplete but play goes on", group[0].line,
                  trick=number)
            r.stopped_at = number
            return


def _hint_time_order(r: Replay, hands: list[int], group: list[Play], leader: int) -> None:
    """Some producers write a trick's cards leader first instead of in seat columns.  When the
    line reads that way, say so in the RC010 finding: it explains the whole rest of the file."""
    if not r.findings or r.findings[-1].code != "RC010" or r.record.play_leader is None:
        return
    first = r.record.play_leader
    columns = sorted(group, key=lambda p: (p.seat - first) % 4)
    if all(p.card is not None and hands[(leader + i) % 4] >> p.card & 1 for i, p in enumerate(columns)):
        f = r.findings.pop()
        r.findings.append(replace(f, message=f.message + "; the line reads as the trick in time "
                                  "order (leader first) instead of seat columns"))


def _pbn_omission(r: Replay, plays: list[Play]) -> tuple[int, int] | None:
    """A single ``-`` inside an otherwise full 13-trick record, by a seat that is one card
    short, is a card omitted from that trick (Law 67B), not an unknown card."""
    unknown = [p for p in plays if p.card is None]
    if len(unknown) != 1 or len(plays) != 52 or max(p.trick for p in plays) != 13:
        return None
    p = unknown[0]
    return (p.trick, p.seat)


def _replay_sequence(r: Replay, plays: list[Play]) -> None:
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
            _close(r, trick)
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
        if not _play_card(r, hands, trick, seat, p):
            return
        played |= bit
        if len(trick.plays) == 4:
            _close(r, trick)
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


# --- one card, one trick -------------------------------------------------------------------

def _play_card(r: Replay, hands: list[int], trick: Trick, seat: int, p: Play) -> bool:
    """Play ``p`` for ``seat``; record a failure to follow suit.  False when the replay must stop."""
    bit = 1 << p.card
    if not hands[seat] & bit:
        holder = next((s for s in range(4) if hands[s] & bit), None)
        if holder is None:
            r.add("RC011", f"trick {trick.number}: {card_str(p.card)} is played twice", p.line,
                  trick=trick.number, seat=seat, card=p.card)
        else:
            r.add("RC010", f"trick {trick.number}: {seat_name(seat)} plays {card_str(p.card)}, "
                  f"which is in {seat_name(holder)}'s hand", p.line, trick=trick.number,
                  seat=seat, card=p.card, role=role_of(seat, r.declarer))
        r.stopped_at = trick.number
        return False
    if trick.plays:
        led = trick.suit_led
        held = hands[seat] & SUIT_MASKS[led]
        if p.card // 13 != led and held:
            r.revokes.append(RevokeFact(trick.number, seat, p.card, led, held, p.line, "R" in p.marks))
        elif "R" in p.marks:
            _unsupported_mark(r, trick, seat, p, led)
    elif "R" in p.marks:
        _unsupported_mark(r, trick, seat, p, None)
    hands[seat] &= ~bit
    trick.plays.append((seat, p.card, p.line))
    return True


def _unsupported_mark(r: Replay, trick: Trick, seat: int, p: Play, led: int | None) -> None:
    why = ("it is the lead" if led is None else
           f"it follows suit" if p.card // 13 == led else
           f"{seat_name(seat)} held no {SUITS[led]} card")
    r.add("RC030", f"trick {trick.number}: {card_str(p.card)} is marked ^R but is no revoke: {why}",
          p.line, trick=trick.number, seat=seat, card=p.card, role=role_of(seat, r.declarer))


def _close(r: Replay, trick: Trick) -> None:
    """Find the trick's winner among the cards played to it (Law 44)."""
    trick.winner = trick.plays[winning_index([c for _, c, _ in trick.plays], r.trump)][0]


def _check_opening_leader(r: Replay, leader: int | None, line: int) -> None:
    """The opening lead is made by the player on declarer's left (Law 41A) - RC012."""
    if leader is None or r.declarer is None:
        return
    proper = (r.declarer + 1) % 4
    if leader != proper:
        why = " (the record marks declarer and dummy as swapped, ^N)" if r.record.declarer_swapped else ""
        r.add("RC012", f"opening lead from {seat_name(leader)}, but declarer {seat_name(r.declarer)}'s "
              f"left-hand opponent is {seat_name(proper)}{why}", line, trick=1, seat=leader)


# --- after the last card -------------------------------------------------------------------

def _finish(r: Replay, plays: list[Play]) -> None:
    """Play status, claim, trick-13 and card-count checks, defect facts at rectification."""
    rec = r.record
    done = r.complete_tricks
    if r.stopped_at is None and r.tricks and r.tricks[-1].winner is None and len(done) == 12:
        _fill_last_trick(r)
        done = r.complete_tricks
    r.claim = rec.claim if rec.claim is not None else None
    if r.claim is None and len(done) < 13 and rec.result_stated is not None and (
            rec.play_stopped or rec.format == "pbn"):
        r.claim = rec.result_stated  # PBN has no claim token: '*' + Result is the outcome
    if r.stopped_at is not None:
        r.play_status = CLAIMED if r.claim is not None else PARTIAL
        return
    if len(done) == 13:
        r.play_status = COMPLETE
    elif r.claim is not None:
        r.play_status = CLAIMED
        _check_claim(r, done)
    else:
        r.play_status = PARTIAL
    _trick13_revokes(r)
    _suspicious_leads(r)
    _omitted_facts(r)


def _fill_last_trick(r: Replay) -> None:
    """Trick 13 plays itself: a seat left holding its one card (after an extra card went back
    to his hand, Law 67B2) is taken to play it."""
    trick = r.tricks[-1]
    hands = list(r.hands_at[-1])
    for s, c, _ in trick.plays:
        hands[s] &= ~(1 << c)
    line = trick.plays[-1][2] if trick.plays else r.record.play[-1].line
    for i in range(4):
        seat = (trick.leader + i) % 4
        if trick.card_of(seat) is None:
            if count(hands[seat]) != 1:
                return
            trick.plays.append((seat, hands[seat].bit_length() - 1, line))
    _close(r, trick)


def _check_claim(r: Replay, done: list[Trick]) -> None:
    """A claim gives declarer's total: it must lie between tricks won and tricks won + left."""
    won = r.declarer_won()
    left = 13 - len(done)
    if not won <= r.claim <= won + left:
        line = r.record.claim_line or r.record.result_line or r.record.line
        r.add("RC022", f"claim/result of {r.claim} tricks for declarer is impossible: declarer had "
              f"won {won} with {left} to play", line, trick=len(done) + 1 if left else None)


def _trick13_revokes(r: Replay) -> None:
    """A failure to follow on trick 13 means the card counts are wrong (RC014), not a revoke."""
    for fact in [f for f in r.revokes if f.trick == 13]:
        r.revokes.remove(fact)
        r.add("RC014", f"trick 13: {seat_name(fact.seat)} plays {card_str(fact.card)} yet still "
              f"holds {holding_str(fact.held)}: a card went missing earlier in the record",
              fact.line, trick=13, seat=fact.seat, card=fact.card)


def _suspicious_leads(r: Replay) -> None:
    """Two or more players failing to follow on one trick is far likelier a mis-typed lead in
    the record than real revokes (RC015); the revokes are still ruled as recorded."""
    per_trick: dict[int, list[RevokeFact]] = {}
    for f in r.revokes:
        per_trick.setdefault(f.trick, []).append(f)
    for number, facts in per_trick.items():
        if len(facts) >= 2:
            lead = r.tricks[number - 1].plays[0]
            who = ", ".join(seat_name(f.seat) for f in facts)
            r.add("RC015", f"trick {number}: {who} all fail to follow the {card_str(lead[1])} lead "
                  "while holding the suit: the lead is probably mis-recorded", lead[2],
                  trick=number, seat=lead[0], card=lead[1])


def _omitted_facts(r: Replay) -> None:
    """Defect facts for omitted cards, with what the offender holds when it is rectified."""
    final = _hands_after(r)
    for t in r.tricks:
        for seat in t.omitted:
            holds = bool(final[seat] & SUIT_MASKS[t.suit_led])
            line = t.plays[0][2] if t.plays else r.record.line
            r.defects.append(DefectFact(t.number, seat, "omitted", None, line, t.suit_led, holds))
    r.defects.sort(key=lambda d: d.trick)


def _hands_after(r: Replay) -> list[int]:
    hands = list(r.record.hands)
    for t in r.tricks:
        for s, c, _ in t.plays:
            hands[s] &= ~(1 << c)
    return hands
