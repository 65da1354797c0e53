"""The Laws of Duplicate Contract Bridge 1997: what differs from 2017.

- 64A1 as 2017.  64A2 adds a second trick: one trick if the offending side won the revoke trick
  or a later one, "also" one more if the offending player later won a trick with a card he
  could legally have played to the revoke trick.  The WBF Laws Committee (minutes of
  2000-01-12, in the EBU White Book 2004, 64.2) reads it as two tricks only when his side won
  a further trick besides that one (the revoke trick or a later one).
- 64B3 as 2007: no penalty for a failure to play "any card faced on the table" (dummy's, or a
  penalty card known from a director's log).
- 64B1-B6 only.  There is no both-sides exception: each revoke gets its own automatic result,
  and the Director restores equity under 64C as though neither side had revoked (WBFLC
  minutes 2001-11-01, White Book 64.3).  The tool cannot judge that, so it says so.
- 67B1(a): an omitted card, and the offender has a card of the suit led: he places one, and
  there is no penalty.  67B1(b): he has none: he places any card and is deemed to have
  revoked (one trick, Law 64).  Both judged from his hand when the defect is rectified.

Sources: the 1997 Laws text (jfr.pzbs.pl mirror, Laws 63 and 67; crobridge.com); EBU White
Book 2004 (64.2, 64.3).
"""
from __future__ import annotations

from dataclasses import replace

from ..core.cards import card_str, seat_name, side_name
from ..core.findings import tricks
from ..replay import DefectFact, Replay, RevokeFact
from .common import TrickPool, defect_finding, is_established, trick_won_by
from .law2017 import Laws2017

_BOTH = ("; both sides revoked on this board: the 1997 Laws have no 64B7, so each side's "
         "revoke gets its own transfer, but the Director should consider 64C equity as though "
         "neither side had revoked")


class Laws1997(Laws2017):
    """Laws of Duplicate Contract Bridge 1997 (WBF)."""

    name = "1997"
    title = "the 1997 Laws"
    b3_words = "a failure to play a card faced on the table (a penalty card)"  # 64B3 (1997)
    #: No 64B7 in 1997: both sides revoking is left to 64C (see ``rule_revoke``).
    EXEMPTIONS = tuple(e for e in Laws2017.EXEMPTIONS if e != "b7_both_sides")

    def rule_revoke(self, rp, fact, pool, earlier, discovered, ruling) -> None:
        """As 2017, then flag 64C equity when the other side also has an established revoke."""
        before = len(ruling.findings)
        super().rule_revoke(rp, fact, pool, earlier, discovered, ruling)
        other = [f for f in rp.revokes if f.seat % 2 != fact.seat % 2
                 and is_established(rp, f.trick, f.seat)]
        if other and len(ruling.findings) > before and ruling.findings[-1].established:
            last = ruling.findings[-1]
            ruling.findings[-1] = replace(last, message=last.message + _BOTH, why=last.why + _BOTH)

    def transfer(self, rp: Replay, fact: RevokeFact, pool: TrickPool) -> tuple[int, str, str]:
        """64A2 (1997): one trick, plus one such trick if the offender later won a trick with a
        card of the suit led that he held at the revoke trick, his side having won another
        trick from the revoke trick on.  64A1 unchanged."""
        side, t = fact.seat % 2, fact.trick
        won_t = pool.owner.get(t) is not None and trick_won_by(rp, t, pool) == fact.seat
        if not won_t:
            for u in pool.won_by(side, t + 1):
                trick = rp.tricks[u - 1] if u <= len(rp.tricks) else None
                card = trick.card_of(fact.seat) if trick else None
                if (trick is None or trick.winner != fact.seat or card is None
                        or not fact.held >> card & 1):
                    continue
                if len(pool.won_by(side, t)) < 2:
                    break  # no further trick: the one trick of 64A2 only
                pool.taken.add(u)
                n = 1 + pool.take(side, t, 1)
                return n, "64A2", (
                    f"one trick, plus one because {seat_name(fact.seat)} won trick {u} with "
                    f"{card_str(card)}, which he could legally have played to trick {t}: "
                    f"{tricks(n)} transferred to {side_name(fact.seat + 1)} (64A2, 1997)")
            sure = self._sure_second(rp, fact, pool)
            if sure is not None:
                return sure
        unknown = self._claimed_second(rp, fact, pool, won_t)
        n, law, why = super().transfer(rp, fact, pool)
        return n, law, why + unknown

    def _sure_second(self, rp: Replay, fact: RevokeFact, pool: TrickPool
                     ) -> tuple[int, str, str] | None:
        """64A2 (1997) where the record stops with a claim: the second trick is known when the
        offender still holds a card he could legally have played to the revoke trick that is
        the top trump left (``top_trump_kept``) - he must win a trick of the claim with it -
        and his side won another trick from the revoke trick on; None otherwise."""
        card = top_trump_kept(rp, fact)
        side, t = fact.seat % 2, fact.trick
        claimed = [u for u in pool.won_by(side, t + 1) if u > len(rp.tricks)]
        if card is None or not claimed or len(pool.won_by(side, t)) < 2:
            return None
        pool.taken.add(claimed[-1])
        n = 1 + pool.take(side, t, 1)
        return n, "64A2", (
            f"one trick, plus one because {seat_name(fact.seat)} must win a trick of the claim "
            f"with {card_str(card)}, the top trump left, which he could legally have played to "
            f"trick {t}: {tricks(n)} transferred to {side_name(fact.seat + 1)} (64A2, 1997)")

    def _claimed_second(self, rp: Replay, fact: RevokeFact, pool: TrickPool, won_t: bool) -> str:
        """Say only what the record shows: when his side won tricks of the claim (not played
        out in the record) and he still held a card of the suit led, whether he won one of them
        with it - the 1997 Laws' second trick - is not known."""
        if won_t or rp.claim is None:
            return ""
        recorded = len(rp.tricks)
        claimed = [u for u in pool.won_by(fact.seat % 2, fact.trick + 1) if u > recorded]
        played = {c for t in rp.tricks for s, c, _ in t.plays if s == fact.seat}
        kept = [c for c in range(52) if fact.held >> c & 1 and c not in played]
        if not claimed or not kept or len(pool.won_by(fact.seat % 2, fact.trick)) < 2:
            return ""
        return (f"; not known from the record: had {seat_name(fact.seat)} won a trick of the "
                f"claim with {card_str(kept[-1])}, which he could have played to trick "
                f"{fact.trick}, the 1997 Laws would transfer a second trick")

    def rule_defect(self, rp: Replay, fact: DefectFact, pool: TrickPool, ruling) -> None:
        """67B1(a): omitted card and he holds the suit led: the card is placed, no penalty.
        67B1(b): he holds none: deemed revoke, one trick (as 2017's 67B1).  67B2 as 2017."""
        if fact.kind == "omitted" and fact.holds_suit_led:
            ruling.findings.append(defect_finding(
                rp, fact, "DT001", "67B1(a)", 0,
                "he still holds a card of the suit led: one is placed in the trick, which keeps "
                "its winner; no penalty (67B1(a), 1997)"))
            return
        before = len(ruling.findings)
        super().rule_defect(rp, fact, pool, ruling)
        if fact.kind == "omitted" and len(ruling.findings) > before:
            ruling.findings[-1] = replace(ruling.findings[-1], law="67B1(b)")


def top_trump_kept(rp: Replay, fact: RevokeFact) -> int | None:
    """The card of ``fact``'s suit led the offender held at the revoke and still holds where the
    record stops with a claim, when it is the highest trump among the cards not yet in a
    complete trick: whichever trick he plays it to, he wins it (64A2, 1997).  Only a trump is
    certain (a side suit's top card can be ruffed, or discarded); in notrump nothing is."""
    if rp.claim is None or rp.trump is None or rp.unsure_hands or None in rp.record.hands:
        return None
    played = {c for t in rp.tricks for _, c, _ in t.plays}
    done = {c for t in rp.complete_tricks for _, c, _ in t.plays}
    kept = [c for c in range(52) if fact.held >> c & 1 and c not in played
            and c // 13 == rp.trump]
    if not kept:
        return None
    trumps_left = [c for c in range(52) if c // 13 == rp.trump and c not in done
                   and any(h >> c & 1 for h in rp.record.hands)]
    return kept[-1] if kept[-1] == max(trumps_left) else None

