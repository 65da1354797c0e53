"""One board through the pipeline: replay, coherence, ruling, stated-result and ``^R``
checks, and (on request) the Law 64C figures.  Nothing here formats a row or reads a file:
``rows`` renders, ``run`` reads and fans out.

The library's entries for one board (``audit_board``) and for a stream of records
(``audit_records``); ``audit_paths`` in ``__init__`` adds reading and DataFrames."""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Iterable, Iterator, NamedTuple

from ..replay.checks import mark_answers, stated_result
from ..core.codes import board_status, level, play_checked
from .discovery import decide
from ..laws.duties import apply_table_facts
from ..core.findings import Finding
from ..laws import AFTER_ROUND, Ruling, Scoring, get_edition
from ..laws.common import NO_64C, NOT_ASSESSED
from ..laws.dates import edition_for
from .options import AuditOptions
from ..core.record import BoardRecord
from ..replay import Replay, RevokeFact, replay
from ..replay.coherence import NeighbourDeals, with_neighbours
from ..laws.table_facts import BoardFacts

DEFAULT = AuditOptions()


@dataclass
class BoardAudit:
    """Everything found about one board (``rows.render`` makes its report rows)."""

    record: BoardRecord
    replay: Replay
    ruling: Ruling
    findings: list[Finding] = field(default_factory=list)
    tricks_stated: int | None = None
    table_facts: BoardFacts | None = None  # the director's log's rows for this board
    tricks_equity: int | None = None  # --equity: declarer's tricks had no revoke happened
    review_64c: bool | None = None  # --equity: that gives the non-offending side more
    discovered: str = AFTER_ROUND  # the time of discovery ruled under (the log's, or the run's)
    log_given: bool = False  # the run had a director's log (--table-facts)
    ruling_64c: str = NO_64C  # Law 64C decided (``laws.common``: none, no damage, ...)
    tricks_64c: int | None = None  # declarer's tricks under 64C (no damage: as adjusted)
    words_64c: str = ""  # the revoke's own cost and the decision, in words (``director``)
    words_64c_by: dict = field(default_factory=dict)  # the same per revoke (trick, seat, card)
    # revokes whose card the Director confirms with the record's source before signing
    # (``slip_readings``), by (trick, seat)
    confirm: dict[tuple[int, int], "OtherReading"] = field(default_factory=dict)

    def count(self, family: str) -> int:
        return sum(1 for f in self.findings if f.code.startswith(family))

    @property
    def status(self) -> str:
        return board_status((f.code for f in self.findings), self.record.unreadable,
                            play_checked(str(self.replay.play_status), self.record.contract))


def audit_board(record: BoardRecord, options: AuditOptions = DEFAULT,
                neighbours: NeighbourDeals | None = None) -> BoardAudit:
    """Replay ``record`` and rule it as ``options`` say (edition, when the revokes were
    discovered, Law 64C figures, a director's log whose rows for this board add the revokes
    only the log can show and may set ``discovered``).  ``neighbours``: deals of nearby boards
    of the same file (see ``audit_records``), named as the repair when the record carries
    another board's deal.  A bug on one board becomes its RC099 finding, never an exception."""
    findings = list(record.diagnostics)  # the reader's PS findings
    laws, note = edition_for(record, options.laws)
    log = options.table_facts
    board_facts = log.for_board(record) if log is not None else None
    try:
        audit = _rule(record, laws, note, options, neighbours, board_facts, findings)
    except Exception as exc:  # a bug must not stop the run: the board is reported instead
        findings.append(Finding("RC099", f"internal error while auditing this board "
                                f"({type(exc).__name__}: {exc}); please report it", record.line))
        audit = BoardAudit(record, Replay(record), Ruling(laws), findings)
    audit.findings.sort(key=lambda f: (f.line or 0, f.trick or 0))
    return audit


def _rule(record: BoardRecord, laws: str, note: str | None, options: AuditOptions,
          neighbours: NeighbourDeals | None, board_facts: BoardFacts | None,
          findings: list[Finding]) -> BoardAudit:
    rp = replay(record, neighbours)
    edition = get_edition(laws)
    findings = findings + _apply_log(rp, edition, board_facts)
    discovered = board_facts and board_facts.discovered or options.discovered
    ruling = decide(rp, edition, discovered)
    _mark_log_rows(ruling.findings, board_facts)
    ruled = rp.findings + ruling.findings
    if note and any(level(f.code) == "irregular" for f in ruled):
        findings.append(Finding("LW001", note, record.line))  # the ruling hangs on the edition
    stated, disagreements = stated_result(record, rp, ruling.tricks_adjusted)
    if not rp.coherent:  # no ruling on a record error: the result stands as stated
        ruling.tricks_adjusted = stated if stated is not None else rp.tricks_played
        ruling.tricks_automatic = ruling.tricks_adjusted
    checked = findings + ruled + disagreements + mark_answers(record, rp)
    audit = BoardAudit(record, rp, ruling, checked, tricks_stated=stated,
                       table_facts=board_facts, discovered=discovered,
                       log_given=options.table_facts is not None)
    if rp.coherent and rp.revokes:
        audit.confirm = slip_readings(rp, ruling, edition, discovered)
    duplicate = ruling.scoring == Scoring.DUPLICATE
    if duplicate and any(f.code.startswith("RV") and f.established for f in audit.findings):
        audit.ruling_64c = NOT_ASSESSED  # until the figures say otherwise
        audit.words_64c = "64C: not assessed (no double-dummy figures: --no-equity)"
    if options.equity and rp.revokes:
        from .law64c import assess  # the solver is loaded only when asked for

        try:
            figures = assess(rp, audit.findings, ruling.tricks_played, ruling.tricks_adjusted,
                             duplicate)
        except Exception as exc:  # the solver refused: the figures stay empty, nothing else moves
            audit.findings.append(Finding(
                "EQ002", f"no double-dummy estimate for this board: the solver refused the "
                f"position ({type(exc).__name__}: {exc})", record.line))
            audit.words_64c = "64C: not assessed (the solver refused the position)"
        else:
            audit.findings = figures.findings
            audit.tricks_equity, audit.review_64c = figures.tricks, figures.review
            if figures.decision is not None:
                d = figures.decision
                audit.ruling_64c, audit.tricks_64c, audit.words_64c = d.ruling, d.tricks, d.words
                audit.words_64c_by = d.by_revoke
            elif audit.ruling_64c == NOT_ASSESSED:  # a log's duty: no card of the suit led
                audit.words_64c = "64C: not assessed (no double-dummy figure for this revoke)"
    return audit


class OtherReading(NamedTuple):
    """A revoke card that may be the recorder's slip rather than the player's (Law 61A is
    broken only by a card played): ``twin``, the card of the suit led of the same rank he held
    (DQ written for SQ), or None for a card of dummy's (on view, rarely revoked at the table:
    at championship level usually the operator's slip); read with the twin, declarer's tricks
    after the ruling (``tricks_adjusted``) and the trick where a later card becomes the revoke
    (``later``)."""

    twin: int | None
    tricks_adjusted: int | None = None
    later: int | None = None
    later_fact: RevokeFact | None = None  # with ``later``: that revoke (its card, his holding)
    kept: int = 0  # a deal error's likely card: kept through two revokes in its suit
    tricks: tuple[int, ...] = ()  # with ``kept``: the tricks of those revokes
    unplayed: bool = False  # with ``kept``: the record never shows him playing those cards
    # when the other reading gives the revoke trick another winner (who then leads the next):
    winner: int | None = None  # its winner that way
    winner_recorded: int | None = None  # its winner as recorded
    misfit: RevokeFact | None = None  # a card of the next trick that fails to follow that way
    misfit_recorded: RevokeFact | None = None  # one that fails to follow only as recorded
    last_line: bool = False  # declarer's, on his side's lead, on the unfinished last trick
    # with ``kept``: one recording slip that removes every revoke of the group - the kept card
    # read at the first revoke's trick (``slip``), the board's revokes left that way, the
    # revoke trick's winner unchanged; ``tricks_adjusted`` is then declarer's tricks that way
    slip: int | None = None
    slip_revokes: int = 0
    slip_same_winner: bool = False


def slip_readings(rp: Replay, ruling: Ruling, edition, discovered: str
                  ) -> dict[tuple[int, int], OtherReading]:
    """The revokes of ``rp`` whose card a Director confirms with the record's source before
    signing (a player failing twice to follow a suit while keeping a card of it, a likely
    deal error; a card of the rank of one he held in the suit led; any revoke by dummy), with
    the ruling on the other reading - the two cards exchanged in the record - when there is
    one."""
    out: dict[tuple[int, int], OtherReading] = dict(_kept_through(rp, edition, discovered))
    dummy = (rp.declarer + 2) % 4 if rp.declarer is not None else None
    for fact in rp.revokes:
        if fact.duty or (fact.trick, fact.seat) in out:
            continue
        twin = fact.suit_led * 13 + fact.card % 13
        if fact.held >> twin & 1:
            out[(fact.trick, fact.seat)] = _read_with(rp, fact, twin, edition, discovered)
        elif fact.seat == dummy:
            out[(fact.trick, fact.seat)] = OtherReading(None)
        elif _on_the_last_line(rp, fact):
            out[(fact.trick, fact.seat)] = OtherReading(None, last_line=True)
    return out


def _on_the_last_line(rp: Replay, fact) -> bool:
    """Declarer failing to follow his own side's lead on the record's last trick, left
    unfinished before the claim: he sees both hands of his side, so this is far likelier the
    operator's slip at the end of the record than a revoke (as dummy's are)."""
    if rp.declarer is None or fact.seat != rp.declarer or fact.trick != len(rp.tricks):
        return False
    trick = rp.tricks[-1]
    unfinished = bool(trick.unknown) or len(trick.plays) + len(trick.omitted) < 4
    return unfinished and trick.leader % 2 == rp.declarer % 2


def _kept_through(rp: Replay, edition=None, discovered: str = AFTER_ROUND
                  ) -> Iterator[tuple[tuple[int, int], OtherReading]]:
    """Law 61A is broken by a card played, not by a card the deal wrongly gives him: a player
    (dummy too, whose cards are on view) who fails twice to follow one suit while keeping the
    same card of it is far likelier a deal misrecorded, or one recording slip, than a double
    revoke.  The likely card: the kept ones the record never shows him playing, else every
    kept one; the slip: that card played at the first revoke's trick (``_one_slip``)."""
    groups: dict[tuple[int, int], list] = {}
    for fact in rp.revokes:
        if not fact.duty:
            groups.setdefault((fact.seat, fact.suit_led), []).append(fact)
    for (seat, _suit), facts in groups.items():
        kept = ~0
        for fact in facts:
            kept &= fact.held
        if len(facts) < 2 or not kept:
            continue
        played = sum(1 << c for t in rp.tricks for s, c, _ in t.plays if s == seat)
        unplayed = bool(kept & ~played)
        kept, tricks = kept & ~played or kept, tuple(f.trick for f in facts)
        base = OtherReading(None, kept=kept, tricks=tricks, unplayed=unplayed)
        slip = edition is not None and rp.declarer is not None and seat == (rp.declarer + 2) % 4
        reading = _one_slip(rp, facts, base, edition, discovered) if slip else base
        for fact in facts:
            yield (fact.trick, seat), reading


def _one_slip(rp: Replay, facts: list, base: OtherReading, edition, discovered: str
              ) -> OtherReading:
    """The record read with a kept card in place of the first revoke's card (the operator
    typed one card for another once): when that reading is coherent, keeps the trick's winner
    (so the next lead, Law 44G) and leaves no revoke but the other players' recorded ones, one
    slip explains every revoke of the group; declarer's tricks that way."""
    first = min(facts, key=lambda f: f.trick)
    for card in (c for c in range(52) if base.kept >> c & 1):
        plays = tuple(p._replace(card=card) if p.card == first.card and p.seat in
                      (first.seat, None) else p for p in rp.record.play)
        other = replay(replace(rp.record, play=plays))
        t = first.trick
        if not other.coherent or not other.auditable or len(other.tricks) < t:
            continue
        same = rp.tricks[t - 1].winner == other.tricks[t - 1].winner  # the next lead fits too
        keys = {(f.trick, f.seat, f.card) for f in rp.revokes if f.seat != first.seat}
        if not same or not {(f.trick, f.seat, f.card) for f in other.revokes} <= keys:
            continue  # that way the record no longer fits: no one slip explains them
        again = decide(other, edition, discovered)
        return base._replace(slip=card, tricks_adjusted=again.tricks_adjusted,
                             slip_revokes=len(other.revokes), slip_same_winner=same)
    return base


def _read_with(rp: Replay, fact, twin: int, edition, discovered: str) -> OtherReading:
    """The record read with ``fact.card`` and ``twin`` exchanged in the player's plays."""
    swap = {fact.card: twin, twin: fact.card}
    plays = tuple(p._replace(card=swap[p.card]) if p.card in swap and p.seat in (fact.seat, None)
                  else p for p in rp.record.play)
    other = replay(replace(rp.record, play=plays))
    if not other.coherent or not other.auditable:
        return OtherReading(twin)
    again = decide(other, edition, discovered)
    later = min((f for f in other.revokes if f.seat == fact.seat and f.trick > fact.trick),
                key=lambda f: f.trick, default=None)
    reading = OtherReading(twin, again.tricks_adjusted, later and later.trick, later_fact=later)
    return _against_next_lead(rp, other, fact, reading)


def _against_next_lead(rp: Replay, other: Replay, fact, reading: OtherReading) -> OtherReading:
    """Law 44G: the winner of a trick leads the next.  When the other reading gives the revoke
    trick another winner, the record's next trick tells the readings apart: a card of it that
    fails to follow under one lead and not under the other shows which lead the record holds,
    so which card was played."""
    t = fact.trick
    if len(rp.tricks) < t + 1 or len(other.tricks) < t:
        return reading
    won, won_other = rp.tricks[t - 1].winner, other.tricks[t - 1].winner
    if won is None or won_other is None or won == won_other:
        return reading

    def key(f):
        return (f.trick, f.seat, f.card)
    as_recorded, read_other = {key(f) for f in rp.revokes}, {key(f) for f in other.revokes}
    misfit = next((f for f in other.revokes if f.trick == t + 1
                   and key(f) not in as_recorded), None)
    misfit_recorded = next((f for f in rp.revokes if f.trick == t + 1
                            and key(f) not in read_other), None)
    return reading._replace(winner=won_other, winner_recorded=won, misfit=misfit,
                            misfit_recorded=misfit_recorded)


def _apply_log(rp: Replay, code, board_facts: BoardFacts | None) -> list[Finding]:
    """The director's log's duties checked against the replay (``duties``), as the edition
    reads them; the log's own RC040 findings for this board."""
    if board_facts is None:
        return []
    return board_facts.findings + apply_table_facts(rp, board_facts, code.table_style)


def _mark_log_rows(findings: list[Finding], board_facts: BoardFacts | None) -> None:
    """A revoke ruled under the log's ``discovered`` row names that row (``log_line``) unless
    it already names the duty it broke."""
    line = board_facts.discovered_line if board_facts is not None else None
    if line is None:
        return
    for i, f in enumerate(findings):
        if f.code.startswith("RV") and f.log_line is None:
            findings[i] = replace(f, log_line=line)


def audit_records(records: Iterable[BoardRecord], options: AuditOptions = DEFAULT
                  ) -> Iterator[BoardAudit]:
    """Audit a stream of records in order; each board sees the deals of the boards around it
    in the same file (a bounded window), to name another board's deal as a record's repair."""
    for record, neighbours in with_neighbours(records):
        yield audit_board(record, options, neighbours)
