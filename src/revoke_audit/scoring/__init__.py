"""Declarer's tricks -> result string and duplicate score for N-S.

Duplicate scoring is Law 77's arithmetic (``duplicate``, checked against endplay's contract
scoring in the tests); this module maps our contract strings and seats onto it and formats
results (``4S=``, ``3NTX+1``, ``6HXX-2``).

The package owns also Law 77's duplicate score (``duplicate``) and the rubber scores of the old
codes (``rubber``), the fields after the run (``rescore``: each board's field scored before and
after the adjustments; the boards waiting for it on disk, ``store``; a plain field scored
from its rows, ``field_rows``, any other from its entries, ``by_entries``; its figures read
back, ``figures``; the notes of what cannot be scored, ``notes``) and the standings
(``standings``; an event's totals as its results go by, ``totals``).
Its layer: above laws; it may import core, formats, replay and laws."""
from __future__ import annotations

from functools import lru_cache

from ..core.auction import parse_contract
from .duplicate import duplicate_score

_VULS = ("None", "NS", "EW", "All")


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

    A passed-out board scores 0.  An unknown vulnerability leaves the board unscored: any
    score would be a guess."""
    parsed = parse_contract(contract) if contract else None
    if parsed == "Pass":
        return 0
    if parsed is None or tricks is None or declarer is None or vul not in _VULS:
        return None
    if not 0 <= tricks <= 13:
        return None
    level, strain, risk = parsed
    vulnerable = vul == "All" or vul == ("NS" if declarer % 2 == 0 else "EW")
    points = duplicate_score(level, strain, risk, vulnerable, tricks)
    return points if declarer % 2 == 0 else -points


RUBBER_COLUMNS = ("below_ns", "above_ns", "below_ew", "above_ew", "scoring_notes")


def rubber_scores(edition: str, contract: str | None, declarer: int | None, vul: str | None,
                  tricks_played: int | None, tricks_adjusted: int | None,
                  penalties: tuple[int, int], revoked: tuple[bool, bool]) -> dict[str, object]:
    """Rubber scoring for the historic codes (1932 Code, bridge-whist), by side.

    ``penalties``: tricks moved to (declarer's side, the defenders) by revoke penalties;
    ``revoked``: whether (declarer's side, the defenders) revoked.  Empty cells when the
    contract or the tricks are unknown."""
    from .rubber import score_1932, score_bridge_whist

    empty = dict.fromkeys(RUBBER_COLUMNS)
    parsed = parse_contract(contract) if contract else None
    if not isinstance(parsed, tuple) or declarer is None or tricks_played is None:
        return empty
    level, strain, risk = parsed
    if edition == "bridge-whist":
        s = score_bridge_whist(strain, risk, tricks_played, penalty_tricks_to_declarer=penalties[0],
                               penalty_tricks_to_defenders=penalties[1],
                               declarer_side_revoked=revoked[0], defenders_revoked=revoked[1])
    else:
        if tricks_adjusted is None:
            return empty
        side_vul = vul == "All" or vul == ("NS" if declarer % 2 == 0 else "EW")
        s = score_1932(level, strain, risk, side_vul, tricks_adjusted,
                       revoke_by_declarer_side=revoked[0])
    decl = (s.below_declarer, s.above_declarer)
    defs = (s.below_defenders, s.above_defenders)
    ns, ew = (decl, defs) if declarer % 2 == 0 else (defs, decl)
    return {"below_ns": ns[0], "above_ns": ns[1], "below_ew": ew[0], "above_ew": ew[1],
            "scoring_notes": "; ".join(s.notes)}
