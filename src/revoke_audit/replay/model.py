"""What a replay finds: the tricks in time order, and the facts the Laws need.

``Replay`` is the result of ``replay.replay``; the Laws read it, never the record's play.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from ..core.cards import Card, Hand, Seat
from ..core.findings import Finding
from ..core.record import BoardRecord



class PlayStatus(StrEnum):
    """How far the record's play goes (boards.csv ``play``)."""

    COMPLETE = "complete"  # 13 tricks
    CLAIMED = "claimed"  # stopped with a claim (or a PBN Result taken as one)
    PARTIAL = "partial"  # stopped without one
    NONE = "none"  # no play recorded


class RevokeKind(StrEnum):
    """The kinds of revoke of Law 61A: failing to follow suit (61A1, with Law 44C), failing to
    play a card the Laws require - a penalty card (61A2), failing to obey a lead or play
    restriction an opponent chose in rectification (61A3).  A record of cards shows only the
    first; the other two come from a director's log (``table_facts``, ``duties``)."""

    FOLLOW = "61A1"
    PENALTY_CARD = "61A2"
    RESTRICTION = "61A3"


COMPLETE, CLAIMED, PARTIAL, NONE = PlayStatus
FOLLOW, PENALTY_CARD, RESTRICTION = RevokeKind


@dataclass(slots=True)
class Trick:
    """One trick in time order.  ``plays``: (seat, card, line) per seat that played to it
    (an extra card is not among them); ``omitted``: seats that played no card (Law 67);
    ``unknown``: seats that played a card the record does not give (PBN ``-``)."""

    number: int
    leader: Seat
    plays: list[tuple[int, int, int]] = field(default_factory=list)
    omitted: list[int] = field(default_factory=list)
    winner: int | None = None
    unknown: list[int] = field(default_factory=list)

    @property
    def suit_led(self) -> int:
        return self.plays[0][1] // 13

    def card_of(self, seat: Seat) -> Card | None:
        for s, c, _ in self.plays:
            if s == seat:
                return c
        return None


@dataclass(frozen=True, slots=True)
class RevokeFact:
    """A revoke (Law 61A).  From the record alone: a failure to follow suit while holding the
    suit led (``kind`` 61A1, Law 44C).  From a director's log: a penalty card not played when
    the Laws require it (61A2) or a lead or play restriction not obeyed (61A3); then ``held``
    is the cards that would have complied, ``duty`` says what he failed to do, and
    ``log_line`` is the log's row."""

    trick: int
    seat: Seat
    card: Card
    suit_led: int
    held: Hand  # mask of the cards of the suit led still in the offender's hand (see above)
    line: int
    marked: bool  # the record marks this card ``^R``
    kind: str = FOLLOW
    duty: str = ""  # 61A2/61A3: "did not play the major penalty card D8 (Law 50D1): ..."
    obligation: str = ""  # 61A2/61A3: the log's fact (penalty-card, lead-required, ...)
    log_line: int | None = None


@dataclass(frozen=True, slots=True)
class DefectFact:
    """A defective trick (Law 67): ``omitted`` (no card) or ``extra`` (a second card)."""

    trick: int
    seat: Seat
    kind: str
    card: Card | None  # the extra card; None for an omission
    line: int
    suit_led: int
    holds_suit_led: bool  # at rectification (end of the record's play)


@dataclass(slots=True)
class Replay:
    record: BoardRecord
    contract: str | None = None
    declarer: int | None = None
    roles: tuple[str, str, str, str] = ("", "", "", "")  # each seat's, once declarer is known
    level: int | None = None
    strain: int | None = None
    risk: str = ""
    tricks: list[Trick] = field(default_factory=list)  # complete tricks, then a partial one
    hands_at: list[tuple[Hand, Hand, Hand, Hand]] = field(default_factory=list)  # before each trick
    revokes: list[RevokeFact] = field(default_factory=list)
    defects: list[DefectFact] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    claim: int | None = None  # declarer's total tricks per the claim / PBN Result after ``*``
    won: int = 0  # tricks won by declarer's side among the complete tricks, counted once the
    # replay has closed them (``replay._finish``; ``by_cards.completed`` adds the ones it plays)
    play_status: str = NONE
    stopped_at: int | None = None  # trick at which the replay could go no further
    auditable: bool = False  # deal, contract and play were good enough to replay
    coherent: bool = True  # the play can be the play of the recorded deal (coherence.judge)
    bindings: list = field(default_factory=list)  # duties.Binding: what a director's log bound
    unsure_hands: set[int] = field(default_factory=set)  # tricks before which ``hands_at``
    # is not exact: a card not recorded earlier that the rest of the play does not pin down
    unchecked: dict[int, str] = field(default_factory=dict)  # card -> why its play to its
    # trick cannot be judged (a card not recorded hides the suit led or the player's holding)

    def hands_known(self, trick: int) -> bool:
        """Are the hands before ``trick`` (1-based) exactly known?"""
        return len(self.hands_at) >= trick and trick not in self.unsure_hands

    @property
    def trump(self) -> int | None:
        return None if self.strain is None or self.strain == 4 else self.strain

    @property
    def complete_tricks(self) -> list[Trick]:
        return [t for t in self.tricks if t.winner is not None]

    @property
    def tricks_played(self) -> int | None:
        """Declarer's tricks from the play, plus the claim when claimed; None if unknown."""
        if self.play_status == COMPLETE:
            return self.won
        if self.play_status == CLAIMED:
            return self.claim
        return None

    def add(self, code: str, message: str, line: int | None, **kw) -> None:
        self.findings.append(Finding(code, message, line, **kw))
