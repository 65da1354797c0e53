"""The lanes' hot loops - a Deal's hands and the replay of the Play's columns (PBN), a LIN
md's dealer and hands, a LIN line's cards, the replay of cards in the order played (LIN) - in
C when the optional extension was built (``speedups``), else in Python.  Each C function gives
exactly what its Python twin here gives, for any input (``time_tricks``: any cards 0-51, as
``CARD_OF`` gives them):
``tests/test_kernel.py`` compares them on generated and changed values, and the lane's tests
run both ways.
``REVOKE_AUDIT_PURE_PYTHON=1`` in the environment, or ``use(False)``, keeps to the twins."""
from __future__ import annotations

import re

from ...core import speedups
from ...formats.pbn import lookup
from ...formats.lin.values import CARD_OF, read_md_hands
from .common import Problems, play_tricks

_kernel = speedups.compiled


def py_deal(value: str) -> tuple[int, int, int, int] | None:
    """``formats.pbn.lookup.fast_deal``: the hands of a Deal written the usual way."""
    return lookup.fast_deal(value)


def py_column_tricks(hands: tuple[int, int, int, int], play: str, leader: int,
                     trump: int | None, side: int) -> tuple[int, int] | None:
    """(tricks won by the side ``side`` - declarer's: 0 N-S, 1 E-W -, tricks played) of whole
    tricks of cards (perhaps ended by ``*``) written in seat columns from ``leader``, each
    trick led by the winner of the one before (``common.play_tricks``); None unless every card
    is held by the player on turn and follows suit when it can (Law 44C)."""
    tokens = play.split()
    if tokens[-1:] == ["*"]:
        tokens.pop()  # the play stops there
    cards = list(map(lookup.CARD_OF.get, tokens))
    if not cards or len(cards) % 4 or len(cards) > 52 or None in cards:
        return None
    return play_tricks(list(hands), cards, leader, trump, side, columns=True)


def py_time_tricks(hands: tuple[int, int, int, int], cards: list[int], leader: int,
                   trump: int | None, side: int) -> tuple[int, int] | None:
    """``common.play_tricks`` of cards in the order played (the LIN lane), the hands left as
    they are."""
    return play_tricks(list(hands), cards, leader, trump, side)


def py_lin_deal(value: str) -> tuple[int, tuple[int, int, int, int]] | None:
    """(dealer, hands) of a LIN ``md`` value the reader reads without a problem, every hand
    known (``formats.lin.values.read_md_hands``); None otherwise."""
    d = Problems()
    dealer, hands = read_md_hands(value, 0, d)
    if d or dealer is None or hands is None or None in hands:
        return None
    return dealer, hands


_PC = re.compile(r"\|pc\|([^|]*)")


def py_lin_cards(text: str) -> list[int] | None:
    """The cards of a LIN line's ``pc`` values (``|pc|`` then up to the next ``|``), as
    ``formats.lin.values.CARD_OF`` reads them, in order; None when one is not a card."""
    cards = list(map(CARD_OF.get, _PC.findall(text)))
    return None if None in cards else cards


def _c_lin_deal(value: str) -> tuple[int, tuple[int, int, int, int]] | None:
    """The C reading of an md written the usual way, else the Python one (which files the
    problems of any other)."""
    got = _kernel.lin_deal(value)
    return got if got is not None else py_lin_deal(value)


def _c_deal(value: str) -> tuple[int, int, int, int] | None:
    return _kernel.deal(value) if lookup.ENABLED else None  # as fast_deal: off with the path


deal = py_deal
lin_deal = py_lin_deal
lin_cards = py_lin_cards
column_tricks = py_column_tricks
time_tricks = py_time_tricks


def use(compiled: bool) -> bool:
    """Use the C functions (when built) or the Python twins; whether C is now in use."""
    global deal, lin_deal, lin_cards, column_tricks, time_tricks
    on = compiled and _kernel is not None
    deal = _c_deal if on else py_deal
    lin_deal = _c_lin_deal if on else py_lin_deal
    lin_cards = _kernel.lin_cards if on else py_lin_cards
    column_tricks = _kernel.column_tricks if on else py_column_tricks
    time_tricks = _kernel.time_tricks if on else py_time_tricks
    return on


use(speedups.wanted() is not None)
