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
  the automatic rectification of this board gives - under the edition applied, or the code in
  force at the record's date - is the table's ruling: it stands, and nothing more moves
  (``LW002``).  A stated result the cards cannot give and no ruling explains is flagged
  (``RC022``) but kept: a claim or concession the players agreed to stands (Laws 69, 71), so
  the ruling starts from it as before.
"""
from __future__ import annotations

from ..core.findings import Finding, tricks
from ..laws import AFTER_ROUND, TABLE, Edition, Ruling, get_edition
from ..laws.common import TABLE_RULING, ruling_basis
from ..laws.dates import edition_for
from ..core.record import BoardRecord
from ..replay import Replay
from dataclasses import replace

from ..replay.by_cards import (RangeUnknown, completed, continuations, exact_range, position,
                              settled_tricks)
from ..replay.model import CLAIMED, COMPLETE


def decide(rp: Replay, edition: Edition, discovered: str) -> Ruling:
    """The ruling that applies to ``rp`` when its revokes were ``discovered`` as the run (or
    the director's log) says, with ``tricks_played``, ``tricks_by_cards``,
    ``tricks_automatic`` and ``basis`` set."""
    if not (rp.revokes or rp.defects):  # nothing to rule: one pass of the edition
        by_cards = settled_tricks(rp)
        ruling = edition.rule(rp, TABLE)
        return _finish(ruling, ruling, rp.tricks_played, by_cards)
    span, unknown = _exact_span(rp)
    by_cards = span[0] if span is not None and span[0] == span[1] else None
    stated = _stated(rp)
    impossible = None
    if span is not None and stated is not None and not span[0] <= stated <= span[1]:
        held = _table_ruling(rp, edition, stated, span)
        if held is not None:
            return _held(rp, held, stated, by_cards)
        if rp.play_status != COMPLETE:  # a complete play's Result is checked by RC023
            impossible = _impossible(rp, span, stated)
    table = edition.rule(rp, TABLE)
    ruling = table if discovered == TABLE else edition.rule(rp, AFTER_ROUND)
    if impossible is not None and not any(f.code == "RC022" for f in rp.findings):
        ruling.findings.append(impossible)
    if unknown is not None:
        ruling.findings.append(unknown)
    return _finish(ruling, table, rp.tricks_played, by_cards)


def _exact_span(rp: Replay) -> tuple[tuple[int, int] | None, Finding | None]:
    """The cards' range on a board with a revoke or a defective trick, whatever the number of
    tricks left (``by_cards.exact_range``); when the search runs out of its budget, no range
    and the LW003 note saying so (the stated result is then taken as it stands)."""
    try:
        return exact_range(rp), None
    except RangeUnknown as out:
        rec = rp.record
        return None, Finding("LW003", f"what the recorded cards allow over the {out.tricks_left} "
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


def _table_ruling(rp: Replay, edition: Edition, stated: int,
                  span: tuple[int, int] | None = None) -> tuple[Ruling, int, str] | None:
    """(the automatic ruling, the cards' tricks it starts from, the edition's title) that gives
    exactly ``stated`` - under the edition applied first, then the code in force at the
    record's date - for the play as recorded or, when it stops early, some legal way of
    playing the cards left; None when none does."""
    editions = [edition]
    dated = get_edition(edition_for(rp.record, "auto")[0])
    if dated.name != edition.name:
        editions.append(dated)
    plays = [rp] if rp.play_status == COMPLETE else _played_out(rp, span)
    for code in editions:
        for full in plays:
            ruling = code.rule(full, TABLE)
            if any(f.transferred for f in ruling.findings) and ruling.tricks_adjusted == stated:
                return ruling, full.tricks_played, code.title
    return None


def _played_out(rp: Replay, span: tuple[int, int] | None) -> list[Replay]:
    """The record played to the end every legal way its cards allow (few tricks left); with
    more left, the record as claimed for each total the cards allow (the claimed tricks
    coming after the played ones, as for any claim)."""
    at = position(rp)
    if at is not None:
        return [completed(rp, line) for line in continuations(*at, rp.trump)]
    if span is None or rp.tricks and rp.tricks[-1].winner is None:
        return []
    return [replace(rp, claim=k, play_status=CLAIMED) for k in range(span[0], span[1] + 1)]


def _held(rp: Replay, held: tuple[Ruling, int, str], stated: int, by_cards: int | None
          ) -> Ruling:
    """The stated result holds the table's ruling: it is the adjusted result; the findings say
    what the table gave, and the LW002 note which rule it matches."""
    ruling, from_cards, title = held
    ruling.tricks_adjusted = stated
    done = len(rp.complete_tricks)
    rest = "" if rp.play_status == COMPLETE else (
        f" (tricks {done + 1}-13 played out as the cards allow: the record stops there)")
    laws = ", ".join(dict.fromkeys(f.law for f in ruling.findings if f.transferred))
    moved = abs(stated - from_cards)
    ruling.findings.append(Finding(
        "LW002", f"the stated result ({stated}) already holds the table's ruling: the cards give "
        f"declarer {from_cards}{rest}, and {laws} ({title}) moves {tricks(moved)}; no further trick "
        "is transferred", rp.record.result_line or rp.record.claim_line or rp.record.line))
    ruling.tricks_played = from_cards
    ruling.tricks_by_cards = by_cards
    ruling.tricks_automatic = stated
    ruling.basis = TABLE_RULING
    return ruling


def _impossible(rp: Replay, span: tuple[int, int], stated: int) -> Finding:
    rec: BoardRecord = rp.record
    allow = str(span[0]) if span[0] == span[1] else f"{span[0]} to {span[1]}"
    return Finding("RC022", f"Result of {stated} tricks for declarer is not what the recorded "
                   f"cards allow ({allow}), nor what a revoke ruling on this board gives; kept as "
                   "the total the table agreed (Laws 69, 71)", rec.result_line or rec.line)
