"""Which ruling applies to a board: the time of discovery, and the table's own ruling when the
record's stated result already holds it.

- **The time of discovery** (Law 64B4/B5): a revoke first noticed after the round gets no
  automatic transfer; Law 64C may still redress damage.  An audit of records finds what nobody
  noticed, so that is the default reading (``--discovered after-round``).  The table knew when
  the director's log says ``discovered table``, when a live watch saw the revoke in its round,
  or when the run is told so (``--discovered table``): then the automatic rectification
  applies.  A ``^R`` mark is no such sign: producers compute it from the play (every revoke of
  some exports, none of others, three in one trick of a misrecorded lead), so it says the
  record shows a revoke, never that the table knew.  What the rectification would have given
  is kept either way (``Ruling.tricks_automatic``).
- **Never twice**: a stated result the recorded cards cannot give (``replay.by_cards``) but that
  the automatic rectification of this board gives is the table's ruling: it stands, and
  nothing more moves (``table_ruling``, LW002).  A stated result the cards cannot give and no
  ruling explains is flagged (``RC022``) but kept: a claim or concession the players agreed
  to stands (Laws 69, 71), so the ruling starts from it as before.
"""
from __future__ import annotations

from ..core.findings import Finding
from ..laws import AFTER_ROUND, TABLE, Edition, Ruling
from ..laws.common import ruling_basis
from ..replay import Replay
from dataclasses import replace

from ..replay.by_cards import AtEnd, RangeUnknown, at_end
from ..replay.model import COMPLETE
from .table_ruling import as_held, not_given, table_ruling


def decide(rp: Replay, edition: Edition, discovered: str, log_line: int | None = None
           ) -> Ruling:
    """The ruling that applies to ``rp`` when its revokes were ``discovered`` as the run (or
    the director's log, its row at ``log_line``) says, with ``tricks_played``,
    ``tricks_by_cards``, ``tricks_automatic`` and ``basis`` set.  What the recorded cards
    allow is asked once (``by_cards.at_end``), then the edition."""
    stated = _stated(rp)
    cards = at_end(rp)
    ruling = _rule(rp, edition, discovered, stated, cards)
    if log_line is not None:
        _name_log_row(ruling.findings, log_line)
    return ruling


def _rule(rp: Replay, edition: Edition, discovered: str, stated: int | None, cards: AtEnd
          ) -> Ruling:
    """The ruling from the edition, the stated result held against what the cards allow."""
    if not (rp.revokes or rp.defects):  # nothing to rule: one pass of the edition
        ruling = edition.rule(rp, TABLE)
        return _finish(ruling, ruling, rp.tricks_played, cards.settled)
    span, by_cards = cards.span, cards.settled
    impossible = None
    if span is not None and stated is not None and not span[0] <= stated <= span[1]:
        held = table_ruling(rp, edition, stated, cards)
        if held is not None:
            return as_held(rp, held, stated, by_cards, span)
        if rp.play_status != COMPLETE:  # a complete play's Result is checked by RC023
            impossible = not_given(rp, span, stated)
    table = edition.rule(rp, TABLE)
    ruling = table if discovered == TABLE else edition.rule(rp, AFTER_ROUND)
    if impossible is not None and not any(f.code == "RC022" for f in rp.findings):
        ruling.findings.append(impossible)
    if cards.unknown is not None:
        ruling.findings.append(_not_worked_out(rp, cards.unknown))
    return _finish(ruling, table, rp.tricks_played, by_cards)


def _name_log_row(findings: list[Finding], line: int) -> None:
    """A revoke ruled under the log's ``discovered`` row (at ``line``) names that row
    (``log_line``) unless it already names the duty it broke."""
    for i, f in enumerate(findings):
        if f.code.startswith("RV") and f.log_line is None:
            findings[i] = replace(f, log_line=line)


def _not_worked_out(rp: Replay, out: RangeUnknown) -> Finding:
    """The LW003 note of a board whose range the search did not work out within its budget
    (``by_cards.exact_range``): the stated result is then taken as it stands."""
    rec = rp.record
    return Finding("LW003", f"what the recorded cards allow over the {out.tricks_left} "
                   f"tricks left was not worked out (more than {out.budget} positions "
                   "to try): the stated result is not checked against them",
                   rec.result_line or rec.claim_line or rec.line)


def _stated(rp: Replay) -> int | None:
    """Declarer's tricks as the record states them: a claim, else a PBN Result."""
    rec = rp.record
    if rec.claim is not None:
        return rec.claim
    return rec.result_stated if rec.format == "pbn" else None


def _finish(ruling: Ruling, table: Ruling, played: int | None, by_cards: int | None) -> Ruling:
    ruling.tricks_played = played
    ruling.tricks_by_cards = by_cards
    ruling.tricks_automatic = table.tricks_adjusted
    ruling.basis = ruling_basis(table.findings, ruling.findings)
    return ruling
