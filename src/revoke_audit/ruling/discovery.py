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

from dataclasses import replace

from ..core.findings import Finding
from ..laws import AFTER_ROUND, TABLE, Edition, Ruling
from ..laws.common import ruling_basis
from ..replay import Replay
from ..replay.by_cards import AtEnd, RangeUnknown, at_end
from .table_ruling import AtTable, in_stated


def decide(rp: Replay, edition: Edition, discovered: str, log_line: int | None = None
           ) -> Ruling:
    """The ruling that applies to ``rp`` when its revokes were ``discovered`` as the run (or
    the director's log, its row at ``log_line``) says, with ``tricks_played``,
    ``tricks_by_cards``, ``tricks_automatic`` and ``basis`` set.  What the recorded cards
    allow is asked once (``by_cards.at_end``), then the table's ruling the stated result may
    hold (``table_ruling.in_stated``), then, when it holds none, the edition: as at the table,
    and as discovered."""
    stated = _stated(rp)
    cards = at_end(rp)
    at_table = in_stated(rp, edition, stated, cards)
    ruling, table = at_table.held, None
    if ruling is None:
        table = edition.rule(rp, TABLE)
        ruled = rp.revokes or rp.defects  # else nothing to rule: one pass of the edition
        ruling = edition.rule(rp, AFTER_ROUND) if ruled and discovered != TABLE else table
    return _finish(rp, ruling, table, cards, at_table, log_line)


def _finish(rp: Replay, ruling: Ruling, table: Ruling | None, cards: AtEnd, at_table: AtTable,
            log_line: int | None) -> Ruling:
    """The edition's ruling (``table``: as at the table) completed: the RC022 of a stated
    result no ruling gives, the LW003 note of a range not worked out, the tricks and the
    basis; a ruling held in the stated result is complete already.  A revoke ruled under the
    log's ``discovered`` row names it."""
    if log_line is not None:
        _name_log_row(ruling.findings, log_line)
    if table is not None:
        if rp.revokes or rp.defects:
            impossible = at_table.impossible
            if impossible is not None and not any(f.code == "RC022" for f in rp.findings):
                ruling.findings.append(impossible)
            if cards.unknown is not None:
                ruling.findings.append(_not_worked_out(rp, cards.unknown))
        ruling.tricks_played = rp.tricks_played
        ruling.tricks_by_cards = cards.settled
        ruling.tricks_automatic = table.tricks_adjusted
        ruling.basis = ruling_basis(table.findings, ruling.findings)
    return ruling


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
