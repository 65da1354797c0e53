"""Calls and contracts: normalising call tokens, deriving the contract and declarer from an
auction (Law 22: the auction ends after three passes following a call; declarer is the player of
the declaring side who first named the final strain - Law 53 of the old codes, the definition of
"declarer" in the current Laws)."""
from __future__ import annotations

import re
from functools import lru_cache

from .cards import STRAINS

_BID = re.compile(r"^([1-7])\s*(NT|N|S|H|D|C)$", re.IGNORECASE)
_CONTRACT = re.compile(r"^([1-7])(NT|N|S|H|D|C)(XX|X|R|D)?$", re.IGNORECASE)
_PASS = {"P", "PASS", "AP", "-"}


def normalise_call(token: str) -> str | None:
    """``Pass``/``p`` -> ``P``, ``X``/``d``/``dbl`` -> ``X``, ``XX``/``r`` -> ``XX``, ``1n`` -> ``1NT``.

    ``AP`` (all pass) is returned as is for the caller to expand.  None when unreadable."""
    t = token.strip().rstrip("!").strip()
    u = t.upper()
    if u in ("P", "PASS"):
        return "P"
    if u == "AP":
        return "AP"
    if u in ("X", "D", "DBL", "DOUBLE"):
        return "X"
    if u in ("XX", "R", "RDBL", "REDOUBLE"):
        return "XX"
    m = _BID.match(u)
    if m:
        strain = "NT" if m.group(2) in ("N", "NT") else m.group(2)
        return m.group(1) + strain
    return None


def all_pass(calls: list[str]) -> list[str]:
    """The passes an ``AP`` ("all pass") stands for after ``calls``: enough to end the auction
    (three after the last bid, four when nobody has bid)."""
    if all(c == "P" for c in calls):
        return ["P"] * max(0, 4 - len(calls))
    trailing = 0
    for c in reversed(calls):
        if c != "P":
            break
        trailing += 1
    return ["P"] * max(0, 3 - trailing)


def derive_contract(calls: tuple[str, ...] | list[str], dealer: int | None) -> tuple[str | None, int | None]:
    """Contract and declarer from normalised calls starting with ``dealer``.

    Returns (``"Pass"``, None) for a passed-out board, (None, None) when the auction is absent,
    unfinished or the dealer unknown."""
    if dealer is None or not calls:
        return None, None
    calls = list(calls)
    if calls[-1] == "AP":
        calls = calls[:-1]
        calls += all_pass(calls)
    if len(calls) < 4 or calls[-3:] != ["P", "P", "P"]:
        return None, None
    last_bid_i = None
    for i, c in enumerate(calls):
        if c[0].isdigit():
            last_bid_i = i
    if last_bid_i is None:
        return ("Pass", None) if calls == ["P"] * 4 else (None, None)
    bid = calls[last_bid_i]
    risk = ""
    for c in calls[last_bid_i + 1:]:
        if c == "X":
            risk = "X"
        elif c == "XX":
            risk = "XX"
    side = (dealer + last_bid_i) % 2
    strain = bid[1:]
    for i, c in enumerate(calls):
        if c[0].isdigit() and c[1:] == strain and (dealer + i) % 2 == side:
            return bid + risk, (dealer + i) % 4
    return bid + risk, (dealer + last_bid_i) % 4  # unreachable: the final bid itself matches


@lru_cache(maxsize=1024)
def parse_contract(text: str) -> tuple[int, int, str] | str | None:
    """``4S`` -> (4, 0, ""), ``3NTX`` -> (3, 4, "X"), ``6HXX`` -> (6, 1, "XX"), ``Pass`` -> "Pass".

    Strain index as ``cards.STRAINS`` (NT = 4).  None when unreadable.  Remembered: every
    board asks several times (reader, replay, scores), and there are few contracts."""
    t = text.strip().replace(" ", "")
    if t.upper() in _PASS or t.upper() == "PASSED":
        return "Pass"
    m = _CONTRACT.match(t)
    if not m:
        return None
    strain = "NT" if m.group(2).upper() in ("N", "NT") else m.group(2).upper()
    risk = (m.group(3) or "").upper()
    risk = {"D": "X", "R": "XX"}.get(risk, risk)
    return int(m.group(1)), STRAINS.index(strain), risk


def normalise_contract(text: str) -> str | None:
    """Contract text in canonical form (``4S``, ``3NTX``, ``Pass``), None when unreadable."""
    got = parse_contract(text)
    if got is None or got == "Pass":
        return got
    level, strain, risk = got
    return f"{level}{STRAINS[strain]}{risk}"
