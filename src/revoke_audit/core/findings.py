"""A finding: one irregularity or inconsistency, as data with a stable code and a position.

Codes and titles live in ``codes.py``; families: ``RV`` revokes, ``DT`` defective tricks,
``RC`` record consistency, ``PS`` parse problems.  One shape for every stage: the readers put
their ``PS`` findings on the record (``BoardRecord.diagnostics``; the file is the record's
``source``), the replay and the Laws add theirs, and the report writes them all alike."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Finding:
    code: str
    message: str
    line: int | None = None
    law: str = ""
    trick: int | None = None
    seat: int | None = None
    role: str = ""
    suit_led: int | None = None
    card: int | None = None
    held: int = 0  # mask: the cards of the suit led the offender held
    established: bool | None = None
    transferred: int | None = None
    equity_tricks: int | None = None
    log_line: int | None = None  # the director's log row it came from (``--table-facts``)
    marked: bool | None = None  # revokes: the record marks the card ^R (the producer's reading)
    what: str = ""  # revokes and defective tricks: what the player did, as the message says
    why: str = ""  # ... and what the Law gives, as the message ends



def role_of(seat: int, declarer: int | None) -> str:
    """``declarer``, ``dummy`` or ``defender`` (empty when declarer is unknown)."""
    if declarer is None:
        return ""
    if seat == declarer:
        return "declarer"
    if seat == (declarer + 2) % 4:
        return "dummy"
    return "defender"


#: each seat's role for each declarer (and for none): ``roles_of``
_ROLES = {declarer: tuple(role_of(seat, declarer) for seat in range(4))
          for declarer in (None, 0, 1, 2, 3)}


def roles_of(declarer: int | None) -> tuple[str, str, str, str]:
    """Every seat's ``role_of``, by seat: known once declarer is."""
    return _ROLES[declarer]


def tricks(n: int) -> str:
    """``1 trick``, ``2 tricks``: a count of tricks as a Director says it."""
    return f"{n} trick" if n == 1 else f"{n} tricks"




__all__ = ["Finding", "role_of", "roles_of", "tricks"]
