"""What the record says against what the play shows: the stated result (PBN ``Result``, a
LIN claim, a vugraph ``rs``) and every ``^R`` mark.  Values in, findings out."""
from __future__ import annotations

import re

from ..core.cards import SEATS, SUITS, card_str, holding_str
from ..core.findings import Finding
from ..core.record import BoardRecord
from . import Replay
from .model import FOLLOW

_RS = re.compile(r"^([1-7])(NT|N|S|H|D|C)([NESW])(X{0,2}|x{0,2})([=+-]\d*|=)?$", re.IGNORECASE)
_STOPPERS = ("RC001", "RC002", "RC003", "RC010", "RC011", "RC013", "RC014", "RC015", "RC016", "RC017")


def stated_result(rec: BoardRecord, rp: Replay, adjusted: int | None
                  ) -> tuple[int | None, list[Finding]]:
    """Declarer's tricks as the record states them, and the findings where that disagrees
    with the play (RC023 for PBN ``Result``, RC024 for a vugraph ``rs``).  A stated result
    equal to the adjusted one is the table's ruling, not an error; ``^9`` says the difference
    is known."""
    played = rp.tricks_played
    stated, findings = None, []
    if rec.result_stated is not None and rec.format == "pbn":
        stated = rec.result_stated
        if (rp.play_status == "complete" and played is not None and not rec.result_flagged
                and rp.coherent and rec.result_stated not in (played, adjusted)):
            findings.append(Finding(
                "RC023", f"Result says {rec.result_stated} tricks for declarer but the play gives "
                f"{played}", rec.result_line or rec.line))
    if rec.lin_result:
        return vugraph_result(rec, rec.lin_result, played, adjusted, stated, findings)
    if rec.claim is not None:
        stated = rec.claim
    return stated, findings


def vugraph_result(rec: BoardRecord, text: str, played: int | None, adjusted: int | None,
                    stated: int | None, findings: list[Finding]
                    ) -> tuple[int | None, list[Finding]]:
    """A vugraph ``rs`` entry (``4SN-1``) against the play's contract, declarer and tricks."""
    m = _RS.match(text.strip())
    if not m:
        if text.strip().upper() in ("P", "PASS", "AP"):
            stated = None
        return stated, findings
    level = int(m.group(1))
    strain = "NT" if m.group(2).upper() in ("N", "NT") else m.group(2).upper()
    declarer = SEATS.index(m.group(3).upper())
    diff = m.group(5) or "="
    tricks = 6 + level + (0 if diff == "=" else int(diff))
    contract = f"{level}{strain}{m.group(4).upper()}"
    problems = []
    if rec.contract and contract != rec.contract:
        problems.append(f"contract {contract} (play has {rec.contract})")
    if rec.declarer is not None and declarer != rec.declarer:
        problems.append(f"declarer {SEATS[declarer]} (play has {SEATS[rec.declarer]})")
    if played is not None and tricks not in (played, adjusted):
        problems.append(f"{tricks} tricks (play gives {played})")
    if problems:
        findings.append(Finding("RC024", f"vugraph result {text} disagrees: "
                                + ", ".join(problems), rec.line))
    return tricks, findings


def mark_answers(rec: BoardRecord, rp: Replay) -> list[Finding]:
    """Every ``^R`` mark gets an answer: a revoke (RV/DT), not a revoke (RC030, from the
    replay), or not checkable (RC032, with the reason).  A revoke the record does not mark, on
    a board whose producer marks revokes, is RC031."""
    marked = [p for p in rec.play if "R" in p.marks]
    if rec.format != "pbn" or not marked:
        return []
    findings = []
    answered = {f.card for f in rp.revokes} | {f.card for f in rp.findings if f.code == "RC030"}
    stopper = next((f for f in rp.findings if f.code in _STOPPERS), None)
    why = stopper.message if stopper is not None else None
    # a record whose revokes are not ruled (a mis-recorded lead, an incoherent play, a screen)
    screened = next((f.message for f in rp.findings if f.code in ("RC017", "RC015", "RC016")),
                    None)
    for p in marked:
        if p.card not in answered:
            reason = (rp.unchecked.get(p.card) if p.card is not None else None) or (
                screened or (f"the replay stopped earlier ({why})" if why
                             else "the card is not recorded"))
            findings.append(Finding("RC032", f"{card_str(p.card)} is marked ^R but could not be "
                                    f"checked: {reason}", p.line, seat=p.seat, card=p.card))
    for f in rp.revokes:
        if not f.marked and f.kind == FOLLOW:  # a producer marks the play, not the log's duties
            findings.append(Finding(
                "RC031", f"trick {f.trick}: {card_str(f.card)} is a revoke (holding "
                f"{holding_str(f.held)} on a {SUITS[f.suit_led]} lead) but is not marked ^R",
                f.line, trick=f.trick, seat=f.seat, card=f.card))
    return findings
