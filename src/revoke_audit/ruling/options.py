"""How a run rules its boards: one frozen value that travels from the command line (or
``audit_paths``) through the run and the worker processes to each ``audit_board`` call."""
from __future__ import annotations

from dataclasses import dataclass

from ..laws import AFTER_ROUND, EDITIONS, TABLE
from ..laws.table_facts import TableFacts

LAWS_CHOICES = tuple(EDITIONS) + ("auto",)
DISCOVERED_CHOICES = (TABLE, AFTER_ROUND)


@dataclass(frozen=True)
class AuditOptions:
    """The same for every board of a run.

    ``laws``: an edition (``"2017"``, ``"1997"``, ... see ``laws.EDITIONS``) or ``"auto"`` (by
    each board's date).  ``discovered``: ``"after-round"`` (the default: an audit of records finds
    what nobody noticed at the table, so Law 64B5 leaves no automatic transfer; 64C may apply)
    or ``"table"`` (attention drawn in time: the automatic transfers of Law 64A).
    ``equity``: the Law 64C figures for boards with an established revoke (on by
    default; the solver runs for those boards only).  ``table_facts``: a
    director's log (``table_facts.read_table_facts``).  ValueError for an unknown ``laws`` or
    ``discovered``, naming the allowed values."""

    laws: str = "2017"
    discovered: str = AFTER_ROUND
    equity: bool = True
    table_facts: TableFacts | None = None

    def __post_init__(self) -> None:
        for name, value, allowed in (("laws", self.laws, LAWS_CHOICES),
                                     ("discovered", self.discovered, DISCOVERED_CHOICES)):
            if value not in allowed:
                raise ValueError(f"unknown {name}={value!r}; choose one of "
                                 + ", ".join(repr(str(a)) for a in allowed))
