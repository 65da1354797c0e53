"""Declarer's tricks -> result string and duplicate score for N-S.

Duplicate scoring is endplay's contract scoring (Law 77); this module only maps our contract
strings and seats onto it and formats results (``4S=``, ``3NTX+1``, ``6HXX-2``)."""
from __future__ import annotations

from functools import lru_cache

from endplay.types import Contract, Denom, Penalty, Player, Vul

from .auction import parse_contract

_PENALTY = {"": Penalty.passed, "X": Penalty.doubled, "XX": Penalty.redoubled}
_VUL = {"None": Vul.none, "NS": Vul.ns, "EW": Vul.ew, "All": Vul.both}


def result_string(contract: str | None, tricks: int | None) -> str:
    """``4S=``, ``4S-1``, ``3NTX+1``; ``Pass`` for a passed-out board; empty when unknown."""
    parsed = parse_contract(contract) if contract else None
    if parsed == "Pass":
        return "Pass"
    if parsed is None or tricks is None:
        return ""
    level, _strain, _risk = parsed
    diff = tricks - 6 - level
    return contract + ("=" if diff == 0 else f"{diff:+d}")


@lru_cache(maxsize=4096)
def score_ns(contract: str | None, declarer: int | None, vul: str | None, tricks: int | None) -> int | None:
    """Duplicate score for N-S (positive when N-S gain), None when it cannot be computed.

    A passed-out board scores 0.  Unknown vulnerability is scored as none vulnerable? No: it is
    left unscored (None), since the score would be a guess."""
    parsed = parse_contract(contract) if contract else None
    if parsed == "Pass":
        return 0
    if parsed is None or tricks is None or declarer is None or vul not in _VUL:
        return None
    if not 0 <= tricks <= 13:
        return None
    level, strain, risk = parsed
    c = Contract(level=level, denom=Denom(strain), declarer=Player(declarer),
                 penalty=_PENALTY[risk], result=tricks - 6 - level)
    points = c.score(_VUL[vul])
    return points if declarer % 2 == 0 else -points
