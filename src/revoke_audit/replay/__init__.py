"""Replay a board record trick by trick and collect the facts the Laws need.

The replay puts every card on a real table: hands are bitmasks, a card leaves its holder's
hand when played, the winner of each trick leads the next (Law 44G).  On the way it records
failures to follow suit while holding the suit led (Law 61A / 44C), tricks with a card missing
or an extra card (Law 67), and everything that makes the record itself inconsistent (``RC``
findings).  It never rules: ``laws`` turns these facts into rulings.  Where the record is too
incomplete to know, it stops and says so instead of guessing.

It owns also ``checks`` (the stated result and ^R marks against the play).  Its layer: above
formats; it may import core and formats.
"""
from __future__ import annotations

from ..core.auction import parse_contract
from .coherence import NeighbourDeals, judge
from .screens import screen
from ..core.cards import SEATS, SUIT_MASKS, card_str, count, deal_problems, holding_str, seat_name
from .model import (CLAIMED, COMPLETE, NONE, PARTIAL, DefectFact, Replay, RevokeFact,  # noqa: F401
                    Trick)
from .play import close_trick
from .tricks import replay_grouped, replay_sequence
from .fast import replay_plain
from ..core.findings import roles_of
from ..core.record import BoardRecord, Play

__all__ = ["replay", "Replay", "Trick", "RevokeFact", "DefectFact", "COMPLETE", "CLAIMED",
           "PARTIAL", "NONE"]


def replay(record: BoardRecord, neighbours: NeighbourDeals | None = None) -> Replay:
    """Replay ``record``; never raises on record content.  Then decide whether the record is
    the play of its deal at all (``coherence.judge``): where it is not, the board keeps one
    record-error finding and no revoke or defective trick.  ``neighbours``: deals of nearby
    boards of the same file, to name another board's deal as the repair."""
    r = Replay(record)
    _check_contract(r)
    if not _ready(r):
        r.play_status = _status_without_replay(record)
        return r
    plays = _trim_unknown_tail(record.play)
    if replay_plain(r, plays):
        pass  # a plain play: every card from the player on turn, in time order
    elif plays and all(p.trick is not None for p in plays):
        replay_grouped(r, plays)
    else:
        replay_sequence(r, plays)
    _finish(r)
    judge(r, neighbours)
    screen(r)
    return r


# --- set-up -------------------------------------------------------------------------------

def _check_contract(r: Replay) -> None:
    """Contract/declarer stated vs derived from the auction (RC020/RC021)."""
    rec = r.record
    r.contract, r.declarer = rec.contract, rec.declarer
    r.roles = roles_of(r.declarer)
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

# --- after the last card -------------------------------------------------------------------

def _finish(r: Replay) -> None:
    """Play status, claim, trick-13 and card-count checks, defect facts at rectification."""
    rec = r.record
    done = r.complete_tricks
    if r.stopped_at is None and r.tricks and r.tricks[-1].winner is None and len(done) == 12:
        _fill_last_trick(r)
        done = r.complete_tricks
    side = r.declarer % 2
    r.won = sum(1 for t in done if t.winner % 2 == side)
    r.claim = rec.claim
    if (r.claim is None and len(done) < 13 and rec.result_stated is not None
            and rec.format == "pbn" and not rec.result_flagged):
        # PBN has no claim token: an unfinished play with a Result is taken as claimed.  A
        # Result marked ^ is known to differ from the tricks won, so it is no claim.
        r.claim = rec.result_stated
    if r.stopped_at is not None:
        r.play_status = CLAIMED if r.claim is not None else PARTIAL
        _suspicious_leads(r)
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
    close_trick(r, trick)


def _check_claim(r: Replay, done: list[Trick]) -> None:
    """A claim gives declarer's total: it must lie between tricks won and tricks won + left."""
    won = r.won
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
    the record than real revokes (RC015); ``coherence.judge`` then rules none of them."""
    per_trick: dict[int, list[RevokeFact]] = {}
    for f in r.revokes:
        per_trick.setdefault(f.trick, []).append(f)
    for number, facts in per_trick.items():
        if len(facts) >= 2:
            lead = r.tricks[number - 1].plays[0]
            names = [seat_name(f.seat) for f in facts]
            who = (" and ".join(names) + " both" if len(names) == 2
                   else ", ".join(names[:-1]) + f" and {names[-1]} all")
            cards = "; ".join(f"{seat_name(f.seat)} played {card_str(f.card)} holding "
                              f"{holding_str(f.held)}" for f in facts)
            r.add("RC015", f"trick {number}: {who} fail to follow the {card_str(lead[1])} lead "
                  f"while holding the suit ({cards}): the lead is probably mis-recorded, so none "
                  "of these is ruled a revoke", lead[2], trick=number, seat=lead[0], card=lead[1])


def _omitted_facts(r: Replay) -> None:
    """Defect facts for omitted cards, with what the offender holds when it is rectified."""
    if not any(t.omitted for t in r.tricks):
        return
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
