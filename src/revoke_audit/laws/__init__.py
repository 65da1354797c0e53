"""The editions of the Laws the auditor can apply, by name (``--laws``), and what an edition
is (``Edition``).

It owns also the director's log (``table_facts``) and what its rows bind a player to
(``duties``: penalty cards, lead restrictions), which every edition rules on.  Its layer: above
replay; it may import core, formats and replay."""
from __future__ import annotations

from typing import Protocol

from .duties import Style
from ..replay import Replay
from .bridge_whist import BridgeWhist
from .common import AFTER_ROUND, TABLE, Discovered, Ruling, Scoring
from .law1932 import Laws1932
from .law1997 import Laws1997
from .law2007 import Laws2007
from .law2017 import Laws2017

EDITIONS = {"2017": Laws2017, "2007": Laws2007, "1997": Laws1997, "1932": Laws1932,
            "bridge-whist": BridgeWhist}


class Edition(Protocol):
    """What the audit asks of an edition of the Laws (a class of this package; the 2017 one,
    ``Laws2017``, holds every clause, and each older code overrides what differs)."""

    name: str  # as --laws spells it
    title: str  # as a finding's message names it ("the 1932 Code")
    scoring: Scoring
    table_style: Style  # how a director's log binds the players (``duties``)

    def rule(self, rp: Replay, discovered: str = TABLE) -> Ruling:
        """Rule every revoke and defective trick of a replayed board."""
        ...


def get_edition(name: str) -> Edition:
    """The edition called ``name`` (a key of ``EDITIONS``); KeyError for an unknown one."""
    return EDITIONS[name]()


__all__ = ["EDITIONS", "Edition", "get_edition", "Ruling", "Scoring", "Discovered", "TABLE",
           "AFTER_ROUND"]
