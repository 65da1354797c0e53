"""The normalised board record every reader produces, and the ``Finding`` for what it could
not read.  Immutable: a record is a fact about a file, never edited after reading (frozen
dataclasses, and ``Play``, one per card, a named tuple: three times cheaper to make)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from .cards import SEATS, Card, Hand, Seat, card_str
from .findings import Finding


#: The mark of a card the record holds but the reader cannot read (PBN ``D0``, PS116).
UNREADABLE = "?"


class Play(NamedTuple):
    """One card as the record shows it.

    ``seat``: who played it - the PBN column's seat; for LIN, the hand that holds the card when
    the deal is known (LIN does not say who played), else None.  ``card``: None when the record
    writes ``-`` (unknown / not played).  ``marks``: ``"R"`` for ``^R`` (marked as a revoke),
    ``"L"`` for ``^L`` (led out of turn), ``UNREADABLE`` on an unknown card whose token the
    reader could not read (a card was played there, never omitted).  ``trick``: 1-based trick of the source's layout (a PBN
    play line) or None where the source has no trick boundaries (LIN).  A named tuple: change
    a field with ``play._replace(marks=...)``; the readers' loops make one per card with
    ``tuple.__new__(Play, (seat, card, marks, line, trick))``, which skips ``Play.__new__``'s
    Python-level call (all five fields, in this order)."""

    seat: Seat | None
    card: Card | None
    marks: tuple[str, ...] = ()
    line: int = 0
    trick: int | None = None

    def __str__(self) -> str:
        seat = SEATS[self.seat] if self.seat is not None else "?"
        marks = "".join("^" + m + " " for m in self.marks if m != UNREADABLE)
        return f"{seat}:{marks}{card_str(self.card)}"


@dataclass(frozen=True)
class BoardRecord:
    """One board as read from a file, before any replay.

    Hands are 52-bit masks indexed by seat (N, E, S, W); ``hands`` is None when the record has
    no readable deal, and a single hand is None when the record leaves it unknown.  Calls are
    normalised (``P X XX 1C .. 7NT``).  Contracts are strings (``4S``, ``3NTX``, ``Pass``)."""

    source: str
    line: int
    game: int
    format: str  # "pbn" | "lin"
    room: str = ""
    event: str = ""
    site: str = ""
    date: str = ""
    board: str = ""
    dealer: Seat | None = None
    vul: str | None = None  # "None" | "NS" | "EW" | "All"
    names: tuple[str, str, str, str] = ("", "", "", "")  # N, E, S, W
    scoring: str = ""
    tags: dict[str, str] = field(default_factory=dict)  # every tag as read (after inheritance)
    hands: tuple[Hand | None, Hand | None, Hand | None, Hand | None] | None = None
    deal_line: int | None = None
    auction: tuple[str, ...] = ()
    auction_line: int | None = None
    contract_stated: str | None = None
    declarer_stated: Seat | None = None
    contract_derived: str | None = None  # from the auction; None if it is absent or unfinished
    declarer_derived: int | None = None
    declarer_swapped: bool = False  # PBN ``^N``: declarer and dummy swapped, lead from wrong side
    play_leader: Seat | None = None  # PBN [Play "W"]: the seat of the first card
    play_line: int | None = None
    play: tuple[Play, ...] = ()
    play_stopped: bool = False  # PBN ``*``: no more cards given
    claim: int | None = None  # LIN ``mc``: total tricks for declarer
    claim_line: int | None = None
    result_stated: int | None = None  # PBN Result: tricks won by declarer
    result_flagged: bool = False  # PBN ``^9``: stated result known to differ from the play
    result_line: int | None = None
    lin_result: str | None = None  # vugraph ``rs`` entry for this board and room (``4HE=``)
    diagnostics: tuple[Finding, ...] = ()  # what the reader found wrong (PS codes)
    score_table: tuple[str, ...] = ()  # PBN ScoreTable's lines (cells joined by a space)
    unreadable: bool = False  # nothing usable could be read (a board row is still written)

    @property
    def truncated(self) -> bool:
        """The file ends inside this board (PS004): what is missing cannot be audited."""
        return any(d.code == "PS004" for d in self.diagnostics)

    @property
    def contract(self) -> str | None:
        """The contract to audit: the stated one, else the one derived from the auction."""
        return self.contract_stated if self.contract_stated is not None else self.contract_derived

    @property
    def declarer(self) -> int | None:
        if self.contract_stated is not None or self.declarer_stated is not None:
            return self.declarer_stated if self.declarer_stated is not None else self.declarer_derived
        return self.declarer_derived
