"""The International Contract Bridge Code of 1932 (rubber bridge): revokes and defective tricks.

Sources: "The Revoke", Dominion (Wellington), 2 Sep 1933, a commentary on the 1932 code; Time,
1 Mar 1943 (the 1943 change: "the penalty is still two tricks", no extra penalty any more for a
second revoke by the same player in the same suit).  The code's own text could not be found,
so its law numbers are not cited: the ``law`` column names the rule ("1932 penalty", ...).

- Penalty: two tricks for a side's first established revoke, one more for each later one of
  that side, taken from the tricks that side won at or after its first revoke; never a trick
  won before it, nor one it received by transfer.  Nothing is left to take: no penalty.  A
  later revoke may take a trick won between the first revoke and itself (Dominion, 2 Sep 1933: only tricks
  "won prior to the first revoke" are protected).
- Dummy cannot revoke: dummy's failure to follow is no revoke and carries no penalty.
- A revoke on the 12th trick is never established: no penalty, the trick is replayed with the
  correct card.  Decided: the non-offenders who played after him may change their cards, as on
  any correction before establishment (the code's predecessors, the Laws of Bridge 1907 ("The Revoke"), let "any player who
  followed" withdraw his card); the offender's partner keeps his.
- A claim after the cut for the next hand or once the rubber score is agreed is too late: with
  ``--discovered after-round`` no penalty (there is no "round" in rubber bridge).
- No equity provision: nothing is referred to a Director.
- Card-count errors (decided; Dominion, 2 Sep 1933, on the missing card): a card of a player's found
  elsewhere (an extra card he played) is deemed held by him throughout, so his failures to
  follow in its suit are revokes (the replay already counts it as held) and the extra card
  itself carries no penalty.  A card he failed to play (omitted) is placed in the defective
  trick: if it is of the suit led, no penalty; if not and he held the suit led at that trick,
  he failed to follow suit holding it: a revoke, penalised as one of his side's revokes.
- Duties from a director's log ("The Revoke", Dominion, 2 September 1933: "any player revokes
  who fails to behave as directed - provided he can do so without revoking - when the
  opponents are entitled to exact the leading or playing of any suit or card ... or the
  non-leading of a suit"; an exposed card called, the highest or lowest card of a suit): each
  broken duty is a revoke with the same penalty.  An exposed card is one the declarer calls:
  the log's trick is the trick it was called to (``duties``, style ``called``).  Such a revoke
  "becomes established as soon as the offender's partner has played to the revoking card", or
  as any other.  Dummy's failure to follow is no revoke, but a lead required from dummy
  (declarer led from the wrong hand and must lead the same suit from the right one) is
  declarer's duty: failing it is his side's revoke.  On the 12th trick it is never
  established: no penalty, the trick is replayed with the card required (not worked out here).
"""
from __future__ import annotations

from .duties import CALLED, Style
from ..replay.model import FOLLOW
from ..core.cards import SUIT_MASKS, seat_name
from ..core.findings import role_of
from ..replay import DefectFact, Replay, RevokeFact
from .common import (TABLE, Ruling, Scoring, TrickPool, corrected_last_two,
                     defect_finding, revoke_finding, uncorrectable)
from .law2017 import Laws2017


class Laws1932(Laws2017):
    """International Contract Bridge Code, 1932 (Portland Club, Whist Club of New York)."""

    name = "1932"
    scoring = Scoring.RUBBER
    label = "1932"  # prefix of the ``law`` column
    title = "the 1932 Code"
    #: No 64B-style exemptions: dummy and late claims are handled in ``rule_revoke``.
    EXEMPTIONS: tuple[str, ...] = ()
    establish_rule = "the offender or his partner plays to the next trick"
    table_style = Style(CALLED, "the 1932 Code")
    dummy_exempt = (FOLLOW,)  # the kinds of revoke dummy cannot commit
    twelfth_rule = True  # a 12th-trick revoke is never established

    def rule(self, rp: Replay, discovered: str = TABLE) -> Ruling:
        ruling = super().rule(rp, discovered)
        if ruling.declarer_side_revoked or ruling.defenders_revoked:
            ruling.notes.extend(self.scoring_notes(ruling))
        return ruling

    def scoring_notes(self, ruling: Ruling) -> list[str]:
        """What the code says about scoring a hand with a revoke (for the scorer)."""
        return ["1932 Code, rubber scoring: transferred tricks count as won; the revoking side "
                "keeps any contract, game or slam its remaining tricks make"]

    def rule_revoke(self, rp, fact, pool, earlier, discovered, ruling) -> None:
        """The 12th trick (never established), dummy (no revoke at all), establishment (the
        1932 Code: the offender or his partner plays to the next trick; a claim ends the play),
        claims made too late; then the penalty as in the base engine."""
        if self.corrects_twelfth(rp, fact) and not self.too_late(fact, discovered):
            return  # ruled by twelfth_trick
        if role_of(fact.seat, rp.declarer) == "dummy" and fact.kind in self.dummy_exempt:
            ruling.findings.append(revoke_finding(
                rp, fact, "RV002", f"{self.label} dummy", None, 0,
                f"dummy cannot revoke under {self.title}: not a revoke, no penalty"))
            return
        if fact.kind != FOLLOW and fact.trick == 12 and self.twelfth_rule:
            ruling.findings.append(revoke_finding(
                rp, fact, "RV003", f"{self.label} 12th trick", False, 0,
                f"a 12th-trick revoke is never established ({self.title}): no penalty; the trick "
                "is replayed with the card required (not worked out here)"))
            return
        if not self.established(rp, fact):
            ruling.findings.append(revoke_finding(
                rp, fact, "RV004", f"{self.label} establishment", False, 0,
                f"not established: the record stops before it was ({self.establish_rule}); "
                "it would have been corrected"))
            return
        if self.too_late(fact, discovered):
            ruling.findings.append(revoke_finding(
                rp, fact, "RV002", f"{self.label} too late", True, 0,
                "found after the round: a revoke must be claimed before the cut for the next deal, "
                f"so no penalty under {self.title}"))
            return
        super().rule_revoke(rp, fact, pool, earlier, discovered, ruling)

    def established(self, rp: Replay, fact: RevokeFact) -> bool:
        """As any revoke; a failure to obey a penalty requirement also as soon as the
        offender's partner has played to the revoking card ("The Revoke", Dominion, 1933)."""
        if fact.kind != FOLLOW:
            trick = rp.tricks[fact.trick - 1]
            order = [s for s, _, _ in trick.plays]
            if (fact.seat + 2) % 4 in order[order.index(fact.seat) + 1:]:
                return True
        return super().established(rp, fact)

    def nothing_won(self, fact: RevokeFact) -> tuple[str, str]:
        return (f"{self.label} penalty",
                "no penalty: the revoking side has no trick left from its first revoke on")

    def transfer(self, rp: Replay, fact: RevokeFact, pool: TrickPool) -> tuple[int, str, str]:
        """Two tricks for the side's first revoke, one for each later one, from the tricks the
        side won at or after its first revoke (not yet taken)."""
        side = fact.seat % 2
        later = side in pool.first_penalised
        first = pool.first_penalised.setdefault(side, fact.trick)
        n = pool.take(side, first, 1 if later else 2)
        what = "a later revoke of the side: one trick" if later else "first revoke of the side: two tricks"
        short = "" if n == (1 if later else 2) else " (all it had left)"
        return n, f"{self.label} penalty", (
            f"{what}, from the tricks it won from trick {first} on: {n} transferred{short} "
            f"({self.title})")

    def corrects_twelfth(self, rp: Replay, fact: RevokeFact) -> bool:
        """A 12th-trick revoke is never established and is always corrected (dummy's excepted:
        dummy cannot revoke)."""
        return (fact.kind == FOLLOW and fact.trick == 12
                and role_of(fact.seat, rp.declarer) != "dummy")

    def twelfth_trick(self, rp: Replay, fact: RevokeFact, owners: dict[int, int],
                      ruling: Ruling) -> None:
        """Trick 12 replayed with a card of the suit led; non-offenders after him may change."""
        fixed = corrected_last_two(rp, fact, partner_replays=False)
        if fixed is None:
            why = ("the replayed trick cannot be worked out: "
                   + uncorrectable(rp, fact, partner_replays=False))
        else:
            owners.update(fixed.winners)
            why = "replayed, " + " and ".join(f"trick {n} to {seat_name(w)}"
                                            for n, w in sorted(fixed.winners.items()))
        ruling.findings.append(revoke_finding(
            rp, fact, "RV003", f"{self.label} 12th trick", False, 0,
            f"a 12th-trick revoke is never established ({self.title}): no penalty; {why}"))

    def rule_defect(self, rp: Replay, fact: DefectFact, pool: TrickPool, ruling: Ruling) -> None:
        """Card-count errors (module docstring): an extra card is deemed held throughout; an
        omitted card is placed in the trick, a revoke if it is off-suit and he held the suit."""
        if fact.kind == "extra":
            ruling.findings.append(defect_finding(
                rp, fact, "DT002", f"{self.label} missing card", 0,
                "the card goes back to his hand and is deemed held throughout: any failure to "
                f"follow in its suit is a revoke; no penalty of itself ({self.title})"))
            return
        held = rp.hands_at[fact.trick - 1][fact.seat] & SUIT_MASKS[fact.suit_led]
        if fact.holds_suit_led or not held:
            ruling.findings.append(defect_finding(
                rp, fact, "DT001", f"{self.label} defective trick", 0,
                "a card he kept is placed in the trick, which keeps its winner; he did not fail to "
                f"follow suit: no penalty ({self.title})"))
            return
        ruling.revoked(rp, fact.seat)
        n, law, why = self.transfer(rp, fact, pool)
        ruling.move(rp, fact.seat, n)
        ruling.findings.append(defect_finding(
            rp, fact, "DT001", law, n,
            "the card placed is off-suit though he held the suit led then: a revoke; " + why))
