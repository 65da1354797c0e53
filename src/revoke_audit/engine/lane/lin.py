"""The lane for a plain LIN line (``formats.lin.plain.PlainLine``): one board in the
single-deal layout, read with the LIN reader's own functions (``formats.lin.values``) and
replayed in the order of its cards.  Its row is given only when the full audit would find
nothing: the deal is valid (``read_md`` files no problem), the calls readable and the auction
finished with a contract, every card held by the player on turn (declarer's left-hand opponent
first, Law 41A; the winner of a trick next, Law 44G) and following suit when it can (Law 44C),
and the play complete, or stopped with a claim that lies between the tricks declarer has won and
those plus the tricks left (RC022); a claim beside a complete play must be its total."""
from __future__ import annotations

import re

from ...core.auction import derive_contract, parse_contract
from ...core.cards import NOTRUMP
from ...formats.lin.board import AH_BOARD, VUL_OF
from ...formats.lin.plain import PlainLine
from ...formats.lin.values import parse_calls
from ...formats.lin.vugraph import names_nesw
from ...ruling.options import AuditOptions
from ...reports.rows import Rendered
from . import kernel
from .common import board_row, duplicate_edition, kept, outcome

_HEAD = re.compile(r"pn\|([^|]*)\|st\|\|md\|([^|]*)\|rh\|\|ah\|([^|]*)\|sv\|([^|]*)\|")
# the values of the line's calls, cards and claim.  Keys and values alternate (``LINE``), and
# a scan that took a value for a key would give a value that is a key's name - no call, card
# or claim - so the board is left to the full audit.
_MB = re.compile(r"\|mb\|([^|]*)")
_MC = re.compile(r"\|mc\|([0-9]+)\|\Z")
# what the readers' functions gave (``common.kept``): (mb values, dealer) -> (contract,
# declarer, trump) or None; --laws -> the edition's name or None
_MISSING = object()
_AUCTIONS: dict[tuple, tuple | None] = {}
_EDITIONS: dict[str, str | None] = {}


def plain_row(pl: PlainLine, options: AuditOptions, lean: bool = False
              ) -> Rendered | tuple[str, None] | None:
    """The rows of a plain LIN line with nothing to find; None when the full audit must see
    it.  ``lean``: its boards.csv line instead when the line can be made (with no field tags:
    LIN has none; ``common.board_row``)."""
    m = _HEAD.match(pl.text)
    names, md, ah, sv = m.groups()
    vul = VUL_OF.get(sv.strip().lower())
    deal = kernel.lin_deal(md)  # ``read_md_hands`` with no problem and every hand known
    if vul is None or deal is None:
        return None  # PS209, an md problem, or a hand unknown
    dealer, hands = deal
    tail = pl.text[m.end() - 1:]  # from the "|" before the first key: "|key|value|..."
    key = (tuple(_MB.findall(tail)), dealer)
    auction = _AUCTIONS.get(key, _MISSING)
    if auction is _MISSING:
        auction = kept(_AUCTIONS, key, _auction(*key))
    if auction is None:
        return None  # PS206, or no contract
    contract, declarer, trump = auction
    cards = kernel.lin_cards(tail)
    claim = _MC.search(tail)
    claim = int(claim.group(1)) if claim else None
    got = _tricks(hands, cards, (declarer + 1) % 4, trump, declarer & 1)
    tricks = outcome(*got, claim, None) if got is not None else None
    laws = _EDITIONS.get(options.laws, _MISSING)
    if laws is _MISSING:
        laws = kept(_EDITIONS, options.laws, duplicate_edition("", "", options.laws))
    if tricks is None or laws is None:
        return None
    title = AH_BOARD.match(ah.strip())
    row = board_row(pl.source, pl.line, pl.game, "", "", title.group(1) if title else "", "",
                    dealer, vul, declarer, contract, tricks, claim, laws,
                    names_nesw([n.strip() for n in names.split(",")]), lean)
    return (row, None) if type(row) is str else Rendered(row, [])


def _auction(values: tuple[str, ...], dealer: int) -> tuple[str, int, int | None] | None:
    """(contract, declarer, trump) of the ``mb`` values as the reader reads them, when every
    call is readable and the auction ends in a contract."""
    calls = _calls(values)
    if calls is None:
        return None  # PS206
    contract, declarer = derive_contract(calls, dealer)
    if contract is None or contract == "Pass" or declarer is None:
        return None
    strain = parse_contract(contract)[1]
    return contract, declarer, None if strain == NOTRUMP else strain


def _calls(values: tuple[str, ...]) -> tuple[str, ...] | None:
    """The calls of the ``mb`` values, as ``board`` reads them; None when one is unreadable."""
    calls: list[str] = []
    for value in values:
        got = parse_calls(value)
        if got is None:
            return None
        calls += got
    return tuple(calls)


def _tricks(hands: tuple[int, int, int, int], cards: list[int] | None, leader: int,
            trump: int | None, side: int) -> tuple[int, int] | None:
    """(tricks won by the side ``side`` - declarer's: 0 N-S, 1 E-W -, whole tricks played) of
    cards in the order played, each trick led by the winner of the one before; None unless
    every card is held by the player on turn and follows suit when it can, when a ``pc`` value
    is no card (``cards`` None), or when the play stops inside trick 13 (the full audit plays
    its last cards itself)."""
    if not cards:
        return None
    n = len(cards)
    if n > 52 or 48 < n < 52:
        return None
    return kernel.time_tricks(hands, cards, leader, trump, side)
