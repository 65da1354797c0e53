"""The duplicate score of one contract (Law 77), in plain arithmetic.

endplay's ``Contract.score`` gives the same numbers (a test compares every contract, result and
vulnerability with it), but importing endplay loads its dealer module and with it matplotlib:
about half a second before the first board, in every process.  The audit scores every board, so
the arithmetic lives here and endplay is loaded only for the double-dummy solver (``--equity``).
"""
from __future__ import annotations

from ..core.cards import NOTRUMP

_RISK_FACTOR = {"": 1, "X": 2, "XX": 4}


def duplicate_score(level: int, strain: int, risk: str, vulnerable: bool, tricks: int) -> int:
    """Declarer's score (negative when the contract fails) for ``tricks`` won by declarer.

    ``strain`` indexes S H D C NT (``cards.STRAINS``); ``risk`` is ``""``, ``"X"`` or ``"XX"``;
    ``vulnerable`` is the declaring side's vulnerability."""
    over = tricks - 6 - level
    if over < 0:
        return -_undertricks(-over, risk, vulnerable)
    factor = _RISK_FACTOR[risk]
    per_trick = 20 if strain in (2, 3) else 30
    contract_points = (per_trick * level + (10 if strain == NOTRUMP else 0)) * factor
    score = contract_points
    score += (500 if vulnerable else 300) if contract_points >= 100 else 50
    if level == 6:
        score += 750 if vulnerable else 500
    elif level == 7:
        score += 1500 if vulnerable else 1000
    if risk:
        score += 50 * factor // 2  # the "insult": 50 doubled, 100 redoubled
        score += over * (200 if vulnerable else 100) * factor // 2
    else:
        score += over * per_trick
    return score


def _undertricks(down: int, risk: str, vulnerable: bool) -> int:
    """Points to the defenders for ``down`` undertricks (Law 77, undertrick table)."""
    if not risk:
        return down * (100 if vulnerable else 50)
    if vulnerable:
        doubled = 200 + 300 * (down - 1)
    else:
        doubled = 100 + 200 * min(down - 1, 2) + 300 * max(down - 3, 0)
    return doubled * (2 if risk == "XX" else 1)
