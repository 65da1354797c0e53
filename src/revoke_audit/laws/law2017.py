"""The Laws of Duplicate Bridge 2017: revokes (Laws 61-64, 62D) and defective tricks (67B).

Each clause is one method, so an older code overrides only the clauses that differ.  The
order of the checks follows Law 64B: a revoke that meets any exception gets no automatic
transfer; Law 64C (redress of damage) may still apply and is flagged for review.
"""
from __future__ import annotations

from copy import copy

from .duties import LAW50, Style
from ..replay.model import FOLLOW, PARTIAL, PENALTY_CARD
from ..core.findings import tricks
from ..core.cards import SUITS, seat_name, side_name
from ..replay import DefectFact, Replay, RevokeFact
from .common import (AFTER_ROUND, TABLE, Ruling, Scoring, TrickPool, corrected_last_two,
                     defect_finding, is_established, revoke_finding, tricks_for_declarer,
                     trick_won_by, uncorrectable, winners)


def _copy_pool(pool: TrickPool) -> TrickPool:
    twin = copy(pool)
    twin.owner, twin.taken = dict(pool.owner), set(pool.taken)
    twin.first_penalised = dict(pool.first_penalised)
    return twin


class Laws2017:
    """Laws of Duplicate Bridge 2017 (WBF).

    An edition is a class: ``rule`` rules a replayed board, and every clause it applies is a
    method or a class attribute, so an older code states only what differs - its own
    ``EXEMPTIONS`` (the Law 64B clauses that leave a revoke without automatic transfer, checked
    in this order), its transfer, establishment and trick-12 rules.  Nothing about a board is
    kept on the edition: what one board's ruling needs lives in its ``Ruling`` and
    ``TrickPool``."""

    name = "2017"
    title = "the 2017 Laws"
    #: The 64B clauses a record can show, as method names, in the order they are checked.
    EXEMPTIONS: tuple[str, ...] = ("b3_penalty_card", "b3_dummy", "b6_duty", "b7_both_sides",
                                   "b2_repeated", "b5_after_round")
    scoring = Scoring.DUPLICATE
    both_sides_needs_established = True  # 64B7 (2017): both revokes established
    table_style = Style(LAW50, "Law 61A")  # how a director's log binds players (``duties``)
    b3_words = "a failure to play a penalty card"  # 64B3 (2017)

    def rule(self, rp: Replay, discovered: str = TABLE) -> Ruling:
        """Rule every revoke and defective trick of a replayed board, in trick order."""
        ruling = Ruling(self.name, scoring=self.scoring)
        if not rp.auditable:
            ruling.tricks_adjusted = rp.tricks_played
            return ruling
        owners = winners(rp)
        for fact in rp.revokes:
            if self.corrects_twelfth(rp, fact) and not self.too_late(fact, discovered):
                self.twelfth_trick(rp, fact, owners, ruling)
        pool = TrickPool(rp, owners)
        items = sorted([(f.trick, 0, f) for f in rp.revokes] + [(d.trick, 1, d) for d in rp.defects],
                       key=lambda x: (x[0], x[1]))
        ruled: list[RevokeFact] = []
        for _, kind, fact in items:
            if kind == 0:
                self.rule_revoke(rp, fact, pool, ruled, discovered, ruling)
                ruled.append(fact)
            else:
                self.rule_defect(rp, fact, pool, ruling)
        base = tricks_for_declarer(rp, pool)
        net = ruling.penalty_to_declarer_side - ruling.penalty_to_defenders
        ruling.tricks_adjusted = None if base is None else max(0, min(13, base + net))
        return ruling

    # --- one revoke ---------------------------------------------------------------------

    def rule_revoke(self, rp: Replay, fact: RevokeFact, pool: TrickPool, earlier: list[RevokeFact],
                    discovered: str, ruling: Ruling) -> None:
        """Law 63 establishment, then the 64B exceptions in turn, then 64A."""
        if not self.established(rp, fact):
            ruling.findings.append(revoke_finding(
                rp, fact, "RV004", "63A", False, 0,
                "not established (the record stops before the offending side plays to the next "
                "trick), so it would have been corrected under Law 62"))
            return
        ruling.revoked(rp, fact.seat)
        if self.corrects_twelfth(rp, fact) and not self.too_late(fact, discovered):
            return  # ruled by twelfth_trick (64B6 / 62D)
        exception = self.exception(rp, fact, earlier, discovered)
        if exception:
            law, why = exception
            ruling.findings.append(revoke_finding(rp, fact, "RV002", law, True, 0, why))
            return
        unknown = self.unknown_later(rp, fact, pool)
        n, law, why = self.transfer(rp, fact, pool)
        if n == 0:
            law, why = self.nothing_won(fact)
            if unknown:
                why = (f"{side_name(fact.seat)} won neither that trick nor a later recorded one"
                       f"{unknown}")
            ruling.findings.append(revoke_finding(rp, fact, "RV002", law, True, 0, why))
            return
        why += unknown
        ruling.move(rp, fact.seat, n)
        ruling.findings.append(revoke_finding(rp, fact, "RV001", law, True, n, why))

    def unknown_later(self, rp: Replay, fact: RevokeFact, pool: TrickPool) -> str:
        """Say only what the record shows: when it stops before the end with no claim, the
        tricks after it are not known, and a transfer that depends on them is given both ways
        (what moves if the offending side won a later trick, and if it did not)."""
        both = self.both_ways(rp, fact, pool)
        if both is None:
            return ""
        last, if_won, now = both
        return (f"; the record stops after trick {last}, so whether {side_name(fact.seat)} won a "
                f"later trick is not known from the record: if it did, {tricks(if_won)} would "
                f"be transferred, if not, {tricks(now)}")

    def both_ways(self, rp: Replay, fact: RevokeFact,
                  pool: TrickPool) -> tuple[int, int, int] | None:
        """On a record stopping with no claim: (the last recorded trick, what 64A moves if the
        offending side won a later trick, what it moves if not), or None when the two agree."""
        if rp.play_status != PARTIAL:
            return None
        last = max(pool.owner, default=0)
        hypothesis = _copy_pool(pool)
        hypothesis.owner[last + 1] = fact.seat % 2
        if_won = self.transfer(rp, fact, hypothesis)[0]
        now = self.transfer(rp, fact, _copy_pool(pool))[0]
        return None if if_won == now else (last, if_won, now)

    def established(self, rp: Replay, fact: RevokeFact) -> bool:
        """Law 63A (see ``common.is_established``)."""
        return is_established(rp, fact.trick, fact.seat)

    def nothing_won(self, fact: RevokeFact) -> tuple[str, str]:
        """64B1: the offending side won neither the revoke trick nor a later one."""
        return "64B1", (f"no trick is transferred: {side_name(fact.seat)} won neither that trick "
                        "nor a later one (64B1)")

    def exception(self, rp: Replay, fact: RevokeFact, earlier: list[RevokeFact],
                  discovered: str) -> tuple[str, str] | None:
        """The first of the edition's ``EXEMPTIONS`` that applies, as (law, reason), or None."""
        for name in self.EXEMPTIONS:
            got = getattr(self, name)(rp, fact, earlier, discovered)
            if got:
                return got
        return None

    @staticmethod
    def too_late(fact: RevokeFact, discovered: str) -> bool:
        """Attention was first drawn to this revoke after the round (64B4/B5): the run says so
        (``--discovered after-round``, the default of an audit of records).  A ``^R`` mark does
        not say otherwise: producers compute it from the play, so it shows that the record holds
        a revoke, never that the table knew; only the director's log, a live watch, the run's
        ``--discovered table`` or the table's ruling already in the Result (``discovery``) do."""
        return discovered == AFTER_ROUND

    def b5_after_round(self, rp, fact, earlier, discovered):
        """64B4/B5: attention first drawn after the round (or the next deal): no automatic
        transfer, and a trick-12 revoke can no longer be corrected (62D: the hands are back in
        the board); Law 64C only."""
        if not self.too_late(fact, discovered):
            return None
        if self.corrects_twelfth(rp, fact):
            return "64B5", ("found after the round ended: too late for the 62D correction of a "
                            "trick-12 revoke and no automatic transfer (64B5); redress only "
                            "under 64C")
        pool = TrickPool(rp, winners(rp))
        if not self.transfer(rp, fact, _copy_pool(pool))[0]:
            return self._b5_unknown_later(rp, fact, pool)  # else none was due either (64B1)
        moved = self._would_move(rp, fact, earlier)
        if not moved:
            return "64B5", ("found after the round ended: no automatic transfer (64B5); redress "
                            "only under 64C (had attention been drawn in time, no "
                            "trick would have been transferred for it: the tricks "
                            f"{side_name(fact.seat)} won from it on go to an earlier revoke)")
        return "64B5", ("found after the round ended: no automatic transfer (64B5); redress "
                        "only under 64C (had attention been drawn in time, "
                        f"{tricks(moved)} would have been transferred)")

    def _b5_unknown_later(self, rp: Replay, fact: RevokeFact,
                          pool: TrickPool) -> tuple[str, str] | None:
        """64B5 on a record stopping before the offending side could win a later trick: what
        64A would have moved is not known, and after the round nothing moves either way; the
        would-be transfer is information, given both ways (64B1 when they won no trick)."""
        both = self.both_ways(rp, fact, pool)
        if both is None:
            return None  # none was due at the table whatever the later tricks (64B1)
        last, if_won, now = both
        side = side_name(fact.seat)
        return "64B5", ("found after the round ended: no automatic transfer (64B5); redress "
                        "only under 64C (had attention been drawn in time: "
                        f"{tricks(if_won)} if {side} won a later trick, "
                        f"{tricks(now) if now else 'none'} if not (64B1); the record stops "
                        f"after trick {last}, so which is not known from the record)")

    def b3_dummy(self, rp, fact, earlier, discovered):
        """64B3: a revoke by dummy (failure to play any card of dummy) carries no transfer."""
        if rp.declarer is not None and fact.seat == (rp.declarer + 2) % 4:
            return "64B3", "revoke by dummy: no automatic transfer (64B3); redress only under 64C"
        return None

    def b3_penalty_card(self, rp, fact, earlier, discovered):
        """64B3: a failure to play a penalty card (known from a director's log) carries no
        automatic transfer, whenever it was found; 64C may give redress."""
        if fact.kind == PENALTY_CARD:
            return "64B3", (f"{self.b3_words}: no automatic transfer (64B3); redress only "
                            "under 64C")
        return None

    def b6_duty(self, rp, fact, earlier, discovered):
        """64B6 for a trick-12 revoke of the director's log's kinds (61A2, 61A3): no automatic
        transfer.  Law 62D would have it corrected with the card required; that correction is
        left to the Director (``twelfth_trick`` works out only a failure to follow suit)."""
        if fact.trick == 12 and fact.kind != FOLLOW:
            return "64B6", ("a revoke on trick 12: no automatic transfer (64B6); Law 62D has it "
                            "corrected with the card required, which is left to the Director")
        return None

    def b7_both_sides(self, rp, fact, earlier, discovered):
        """64B7: both sides revoked on the board (2017: both revokes established) - no
        automatic transfer for either; the Director gives equity under 64C."""
        other = [f for f in rp.revokes if f.seat % 2 != fact.seat % 2 and f.trick != 13]
        if self.both_sides_needs_established:
            other = [f for f in other if is_established(rp, f.trick, f.seat)]
        if other:
            return "64B7", ("both sides revoked: no automatic transfer (64B7); refer to the "
                            "Director for equity under 64C")
        return None

    def b2_repeated(self, rp, fact, earlier, discovered):
        """64B2: a second revoke in the same suit by the same player after his first one was
        established; 64C2(a) covers any damage."""
        for f in earlier:  # of the same kind: a failure to follow, or the same log duty
            if f.seat == fact.seat and f.suit_led == fact.suit_led and f.trick < fact.trick \
                    and (f.kind, f.obligation) == (fact.kind, fact.obligation) \
                    and is_established(rp, f.trick, f.seat):
                return "64B2", (f"a second revoke in {SUITS[fact.suit_led]} by the same player "
                                f"(first on trick {f.trick}): no automatic transfer (64B2); 64C")
        return None

    def transfer(self, rp: Replay, fact: RevokeFact, pool: TrickPool) -> tuple[int, str, str]:
        """64A1: the offender won the revoke trick -> that trick plus one more if his side won
        a later one.  64A2: otherwise one trick if his side won that trick or a later one.
        A trick won by dummy is not won by declarer (64A1 footnote).  Each trick moves once."""
        side = fact.seat % 2
        t = fact.trick
        if pool.owner.get(t) is not None and trick_won_by(rp, t, pool) == fact.seat:
            later = bool(pool.won_by(side, t + 1))
            n = pool.take(side, t, 2 if later else 1)
            also = " and his side won a later one" if later else ""
            return n, "64A1", (f"{seat_name(fact.seat)} won the revoke trick{also}: {tricks(n)} "
                               f"transferred to {side_name(fact.seat + 1)} (64A1)")
        unsure = self._if_he_won(rp, fact, pool)
        n = pool.take(side, t, 1)
        return n, "64A2", f"one trick transferred to {side_name(fact.seat + 1)} (64A2){unsure}"

    def _if_he_won(self, rp: Replay, fact: RevokeFact, pool: TrickPool) -> str:
        """When the record does not show who won the revoke trick, what 64A1 would give had
        the offender won it."""
        if trick_won_by(rp, fact.trick, pool) is not None:
            return ""  # the record, or the cards (every legal finish), show who won it
        a1 = min(2, len(pool.won_by(fact.seat % 2, fact.trick)))
        if a1 < 2:
            return ""
        return (f"; the record does not show who won trick {fact.trick}: had "
                f"{seat_name(fact.seat)} won it, 64A1 would transfer {tricks(a1)}")

    def _would_move(self, rp: Replay, fact: RevokeFact, earlier: list[RevokeFact]) -> int:
        """What the table would have transferred for ``fact``: the board's revokes before it
        ruled as found in time, each trick moving once (64A)."""
        pool = TrickPool(rp, winners(rp))
        for i, e in enumerate(earlier):
            if (self.established(rp, e) and not self.corrects_twelfth(rp, e)
                    and self.exception(rp, e, earlier[:i], TABLE) is None):
                self.transfer(rp, e, pool)
        return self.transfer(rp, fact, pool)[0]

    # --- the twelfth trick, defective tricks ---------------------------------------------

    def corrects_twelfth(self, rp: Replay, fact: RevokeFact) -> bool:
        """62D: an established trick-12 failure to follow suit is corrected (a later code may
        differ; the log's kinds of revoke on trick 12 are ``b6_duty``)."""
        return fact.kind == FOLLOW and fact.trick == 12 and is_established(rp, 12, fact.seat)

    def twelfth_trick(self, rp: Replay, fact: RevokeFact, owners: dict[int, int],
                      ruling: Ruling) -> None:
        """62D / 64B6: a trick-12 revoke is corrected even when established; no transfer.
        The adjusted result is tricks 12-13 replayed with the correct card."""
        fixed = corrected_last_two(rp, fact)
        if fixed is None:
            why = ("trick-12 revoke: no automatic transfer (64B6); the correction cannot be "
                   f"worked out: {uncorrectable(rp, fact)}")
        else:
            owners.update(fixed.winners)
            who = " and ".join(f"trick {n} to {seat_name(w)}"
                               for n, w in sorted(fixed.winners.items()))
            why = (f"a trick-12 revoke is corrected, no trick transferred (62D, 64B6); played "
                   f"again, {who}")
            if fixed.note:
                why += f"; {fixed.note}"
        ruling.findings.append(revoke_finding(rp, fact, "RV003", "62D", True, 0, why))

    def rule_defect(self, rp: Replay, fact: DefectFact, pool: TrickPool, ruling: Ruling) -> None:
        """67B1: an omitted card is placed in the trick (a card of the suit led if he has one)
        and he is deemed to have revoked: one trick under 64A2.  67B2: extra cards go back to
        his hand; the trick keeps its winner; no transfer of itself."""
        if fact.kind == "extra":
            ruling.findings.append(defect_finding(
                rp, fact, "DT002", "67B2", 0,
                "the extra card goes back to his hand; the trick keeps its winner (67B2)"))
            return
        ruling.revoked(rp, fact.seat)
        n = pool.take(fact.seat % 2, fact.trick, 1)
        ruling.move(rp, fact.seat, n)
        why = (f"he is deemed to have revoked: {tricks(n)} transferred to "
               f"{side_name(fact.seat + 1)} (67B1, 64A2)" if n else
               "he is deemed to have revoked, but his side won no trick from then on (67B1, "
               "64B1)")
        ruling.findings.append(defect_finding(rp, fact, "DT001", "67B1", n, why))
