"""One board through the pipeline: replay, coherence, ruling, stated-result and ``^R``
checks, and (on request) the Law 64C figures.  Nothing here formats a row or reads a file:
``rows`` renders, ``run`` reads and fans out.

The library's entries for one board (``audit_board``) and for a stream of records
(``audit_records``); ``audit_paths`` in ``__init__`` adds reading and DataFrames."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Iterator

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
from ..replay import Replay, replay
from ..replay.coherence import NeighbourDeals, with_neighbours
from ..laws.table_facts import BoardFacts
from .slips import OtherReading, rereads, slip_readings

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
    log = ([] if board_facts is None else  # the director's log: its RC040s, its rows' duties
           board_facts.findings + apply_table_facts(rp, board_facts, edition.table_style))
    findings = findings + log
    discovered = board_facts and board_facts.discovered or options.discovered
    log_line = board_facts.discovered_line if board_facts is not None else None
    # the record and each reading of it a recorder's slip would give (``slips.rereads``),
    # replayed, then all ruled alike in one pass
    slips = rp.coherent and rp.revokes
    others = rereads(rp) if slips else {}
    readings, rulings = [rp], []
    for other in others.values():
        readings.append(replay(other))
    for reading in readings:
        rulings.append(decide(reading, edition, discovered, log_line))
    ruling = rulings[0]
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
    if slips:
        audit.confirm = slip_readings(rp, dict(zip(others, zip(readings[1:], rulings[1:]))))
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


def audit_records(records: Iterable[BoardRecord], options: AuditOptions = DEFAULT
                  ) -> Iterator[BoardAudit]:
    """Audit a stream of records in order; each board sees the deals of the boards around it
    in the same file (a bounded window), to name another board's deal as a record's repair."""
    for record, neighbours in with_neighbours(records):
        yield audit_board(record, options, neighbours)
