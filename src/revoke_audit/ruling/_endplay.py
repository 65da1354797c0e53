"""The double-dummy solver of Law 64C: the DDS library endplay ships, called through ctypes,
without importing any of endplay's Python modules.

``import endplay`` runs its package ``__init__`` (the dealer's plotting: matplotlib, numpy,
PIL, about 65 MB and half a second); even its solver's own modules (``endplay._dds``,
``endplay.dds``, ``endplay.types``) cost 30-80 ms a process: ``ctypes.util.find_library``
runs ``ldconfig`` in a subprocess for a libc the solver never calls, and the types load
dataclasses, inspect and json.  Law 64C needs one DDS function, ``SolveBoard``, and two of
DDS's structures (its ``dll.h``: ``deal``, ``futureTricks``), so they are declared here as
endplay declares them, over the same library file found by ``importlib.util.find_spec``
(which does not import the package).  The same library with the same arguments (target -1,
one solution, mode 1: endplay's ``SolveMode.OptimalOne``) gives the same answers, cards in
endplay's order (``tests/test_endplay_import.py`` holds them equal to endplay's on random
positions); a later ``import endplay`` (a test, a library user) loads the package as ever,
over the same library."""
from __future__ import annotations

import ctypes
import importlib.util
import os

from ..core.cards import Card, Hand, Seat

#: Cards of one suit as DDS holds them: bit ``rank`` set, ranks 2 (a two) to 14 (an ace).
_DDS_RANK = 2


class DDSError(RuntimeError):
    """DDS refused a position: its own error message (the name endplay gives it too)."""


class _Deal(ctypes.Structure):
    """DDS's ``struct deal``: the strain (0 spades .. 3 clubs, 4 notrump, as ours), the trick's
    leader (0 North .. 3 West), up to three cards of the trick begun, each hand's cards left."""

    _fields_ = [("trump", ctypes.c_int), ("first", ctypes.c_int),
                ("currentTrickSuit", ctypes.c_int * 3), ("currentTrickRank", ctypes.c_int * 3),
                ("remainCards", (ctypes.c_uint * 4) * 4)]


class _FutureTricks(ctypes.Structure):
    """DDS's ``struct futureTricks``: for each card group it gives, its suit, its rank, the
    equal cards below it (a bit per rank) and the tricks the side on play then takes."""

    _fields_ = [("nodes", ctypes.c_int), ("cards", ctypes.c_int),
                ("suit", ctypes.c_int * 13), ("rank", ctypes.c_int * 13),
                ("equals", ctypes.c_int * 13), ("score", ctypes.c_int * 13)]


def _library() -> ctypes.CDLL:
    """endplay's DDS library, set to one thread with a small transposition table
    (``SetResources(50, 1)``: calls are made one at a time, ``equity._SOLVER``; the default
    lets the table grow by 20-40 MB over the first few dozen solves, a run's peak RSS 78 -> 42
    MB on 20,000 boards, for the same answers - a table only saves work; below some 20 MB DDS
    runs no thread and fails, 50 keeps well clear).  An older DDS without it: one thread."""
    spec = importlib.util.find_spec("endplay")
    if spec is None or not spec.submodule_search_locations:
        raise ImportError("endplay is not installed (Law 64C's double-dummy solver)",
                          name="endplay")
    path = os.path.join(list(spec.submodule_search_locations)[0], "_dds", "libdds.so")
    dll = ctypes.WinDLL(path) if os.name == "nt" else ctypes.CDLL(path)  # as endplay loads it
    set_resources = getattr(dll, "SetResources", None)
    if set_resources is not None:
        set_resources(50, 1)
    else:
        dll.SetMaxThreads(1)
    return dll


_DLL = _library()


def solve(hands: tuple[Hand, ...], leader: Seat, strain: int, trick: tuple[Card, ...]
          ) -> list[tuple[Card, int]]:
    """DDS's best card for the player on turn (one card group that takes the most tricks for
    his side, with that count), each card of the group from the lowest: ``hands`` the cards
    left (those of ``trick``, the trick begun by ``leader``, already out of them), ``strain``
    0 spades .. 3 clubs or 4 notrump.  Raises ``DDSError`` when DDS refuses the position."""
    deal = _Deal()
    deal.trump, deal.first = strain, leader
    for i, card in enumerate(trick):
        deal.currentTrickSuit[i], deal.currentTrickRank[i] = card // 13, card % 13 + _DDS_RANK
    for seat, hand in enumerate(hands):
        for suit in range(4):
            deal.remainCards[seat][suit] = (hand >> (13 * suit) & 0x1FFF) << _DDS_RANK
    future = _FutureTricks()
    code = _DLL.SolveBoard(deal, -1, 1, 1, ctypes.byref(future), 0)
    if code != 1:
        message = ctypes.create_string_buffer(80)
        _DLL.ErrorMessage(code, message)
        raise DDSError(message.value.decode("utf-8", "replace"))
    return [(13 * future.suit[i] + rank - _DDS_RANK, future.score[i])
            for i in range(future.cards) if future.score[i] != -1
            for rank in range(_DDS_RANK, _DDS_RANK + 13)
            if ((1 << future.rank[i]) | future.equals[i]) >> rank & 1]
