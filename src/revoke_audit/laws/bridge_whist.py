"""The Laws of Bridge (bridge-whist; Whist Club code as printed by J. B. Elwell, 1907):
revokes and defective tricks.  What differs from the 1932 Code it reuses:

- Penalty: three tricks per revoke, "taken from the revoking player and added to those of the
  adversaries" - from any of his side's tricks, including those won before the revoke.  Several
  revokes add up, but the side can lose no more than it holds (Laws of Bridge 1907, "The Revoke": "in no event exceed
  thirteen tricks"; decided: capped by the tricks the revoking side won, so each trick moves once).
- Established when the trick is turned and quitted, or the offender or his partner leads or
  plays to the next trick (Laws of Bridge 1907, "The Revoke").  A record shows the trick quitted once any card of the
  next trick is played (by anyone), or the play ends in a claim.
- Dummy cannot revoke: "Dummy is not liable to the penalty for a revoke" (Elwell 1907).
- No 12th-trick rule: a revoke on trick 12 is established like any other.
- Claimed after the cut for the next deal: too late (Laws of Bridge 1907, "The Revoke"), so ``--discovered after-round``
  gives no penalty.
- Omitted card (Elwell 1907): the adversaries may claim a new deal; if the deal stands, the
  surplus card is taken as played to the imperfect trick "but does not constitute a revoke
  therein".  Two cards to one trick: the extra card goes back to its holder, "answerable for
  any consequent revokes" (the replay already counts it as held).
- Duties from a director's log (Elwell 1907: "If a player who has rendered himself liable to
  have the highest or lowest of a suit called fail to play as directed, or if, when called on to
  lead one suit, lead another, having in his hand one or more cards of that suit demanded, he
  incurs the penalty of a revoke"; exposed cards of the dealer's adversaries "are liable to be
  called"): failing to play the highest or lowest card, to lead the suit called, or to play an
  exposed card the dealer called (the log's trick is the trick it was called to) is a revoke.
  A suit the dealer forbade to be led is not among them: leading it is no revoke under this
  code (decided from the text quoted), so no penalty.  Dummy is never liable.
- Scoring, for the scorer (not done here): the revoking side cannot score game on the hand (at
  most 28 toward game of 30); penalty tricks never count toward a slam; if both sides revoke,
  neither can win the game by that hand.
"""
from __future__ import annotations

from .duties import CALLED, Style
from ..replay.model import FOLLOW, PENALTY_CARD, RESTRICTION
from ..core.findings import tricks
from ..replay import DefectFact, Replay, RevokeFact
from .table_facts import LEAD_FORBIDDEN
from .common import Ruling, TrickPool, defect_finding, revoke_finding
from .law1932 import Laws1932

PENALTY = 3


class BridgeWhist(Laws1932):
    """Laws of Bridge (Whist Club of New York 1897; Elwell 1907)."""

    name = "bridge-whist"
    label = "1907"
    title = "the Laws of Bridge (1907)"
    establish_rule = "the trick is turned and quitted, or his side plays to the next trick"
    table_style = Style(CALLED, "the Laws of Bridge (1907)")
    dummy_exempt = (FOLLOW, PENALTY_CARD, RESTRICTION)  # "Dummy is not liable"
    twelfth_rule = False  # no 12th-trick rule

    def rule_revoke(self, rp, fact, pool, earlier, discovered, ruling) -> None:
        """As the 1932 Code's engine, but leading a forbidden suit is no revoke here."""
        if fact.obligation == LEAD_FORBIDDEN:
            ruling.findings.append(revoke_finding(
                rp, fact, "RV002", f"{self.label} no revoke", None, 0,
                f"leading a suit the dealer forbade is not a revoke under {self.title} (only "
                "failing to lead a suit called, or to play a card called, is): no penalty"))
            return
        super().rule_revoke(rp, fact, pool, earlier, discovered, ruling)

    def scoring_notes(self, ruling: Ruling) -> list[str]:
        """Laws of Bridge 1907, "The Revoke": game barred to the revoking side (28 at most
        toward game), both sides revoking bars game to both; Elwell 1907: slams reckoned
        without penalty tricks."""
        sides = [name for name, flag in (("declarer's side", ruling.declarer_side_revoked),
                                         ("the defenders", ruling.defenders_revoked)) if flag]
        notes = [f"Laws of Bridge (1907), rubber scoring: {' and '.join(sides)} revoked, so cannot "
                 "score game on this hand (at most 28 toward game); penalty tricks never count "
                 "toward a slam"]
        if len(sides) == 2:
            notes.append("both sides revoked: neither can win the game by this hand")
        return notes

    def established(self, rp: Replay, fact: RevokeFact) -> bool:
        """Turned and quitted: any card of the next trick, or a claim, shows it (Laws of Bridge 1907, "The Revoke")."""
        if rp.claim is not None:
            return True
        if fact.trick >= len(rp.tricks):
            return False
        nxt = rp.tricks[fact.trick]
        return bool(nxt.plays or nxt.unknown)

    def corrects_twelfth(self, rp: Replay, fact: RevokeFact) -> bool:
        """No 12th-trick rule in this code."""
        return False

    def nothing_won(self, fact: RevokeFact) -> tuple[str, str]:
        return f"{self.label} penalty", "no penalty: the revoking side has no trick left to give"

    def transfer(self, rp: Replay, fact: RevokeFact, pool: TrickPool) -> tuple[int, str, str]:
        """Three tricks per revoke from any trick of the revoking side not already taken."""
        n = pool.take(fact.seat % 2, 1, PENALTY)
        cap = "" if n == PENALTY else f", all its side had left (the penalty is {PENALTY})"
        return n, f"{self.label} penalty", (
            f"{tricks(n)} taken from the revoking side and added to the adversaries'{cap} "
            f"({self.title})")

    def rule_defect(self, rp: Replay, fact: DefectFact, pool: TrickPool, ruling: Ruling) -> None:
        """Omitted card: surplus card deemed played to that trick, no revoke (the adversaries
        might instead have claimed a new deal).  Extra card: back to his hand, no penalty."""
        if fact.kind == "extra":
            ruling.findings.append(defect_finding(
                rp, fact, "DT002", f"{self.label} extra card", 0,
                "the card goes back to him; he is answerable for any revoke it caused; no "
                f"penalty of itself ({self.title})"))
            return
        ruling.findings.append(defect_finding(
            rp, fact, "DT001", f"{self.label} omitted card", 0,
            "his surplus card counts as played to that trick and is no revoke; the adversaries "
            f"could instead have claimed a new deal ({self.title})"))
