"""One board from record to report row: replay, rule, score, cross-check stated results.

This is the library's main entry for a single board (``audit_board``) and for a stream of
records (``audit_records``); ``audit_paths`` in ``__init__`` adds reading and DataFrames."""
from __future__ import annotations

import re
from collections import deque
from dataclasses import dataclass, field, replace
from typing import Iterable, Iterator

from .cards import SEATS, SUITS, card_str, holding_str, seat_name
from .duties import apply_table_facts
from .replay.model import FOLLOW
from .codes import board_status, level
from .findings import Finding, tricks as trick_count
from .laws import AFTER_ROUND, EDITIONS, TABLE, Ruling, get_code
from .laws.dates import choose_edition, parse_record_date
from .record import BoardRecord
from .replay.coherence import NeighbourDeals
from .replay import Replay, replay
from .scoring import RUBBER_COLUMNS, result_string, rubber_scores, score_ns
from .table_facts import BoardFacts, TableFacts

NEIGHBOURS = 32  # boards each side whose deals may explain a record carrying another's deal
LAWS_CHOICES = tuple(EDITIONS) + ("auto",)
DISCOVERED_CHOICES = (TABLE, AFTER_ROUND)


@dataclass
class BoardAudit:
    """Everything found about one board, and its row for boards.csv."""

    record: BoardRecord
    replay: Replay
    ruling: Ruling
    findings: list[Finding] = field(default_factory=list)
    tricks_stated: int | None = None
    table_facts: BoardFacts | None = None  # the director's log's rows for this board
    tricks_equity: int | None = None  # --equity: declarer's tricks had no revoke happened
    review_64c: bool | None = None  # --equity: that gives the non-offending side more

    def count(self, family: str) -> int:
        return sum(1 for f in self.findings if f.code.startswith(family))

    @property
    def status(self) -> str:
        return board_status((f.code for f in self.findings), self.record.unreadable)


def check_options(laws: str, discovered: str) -> None:
    """ValueError naming the allowed values when ``laws`` or ``discovered`` is unknown."""
    for name, value, allowed in (("laws", laws, LAWS_CHOICES),
                                 ("discovered", discovered, DISCOVERED_CHOICES)):
        if value not in allowed:
            raise ValueError(f"unknown {name}={value!r}; choose one of "
                             + ", ".join(repr(a) for a in allowed))


def audit_board(record: BoardRecord, laws: str = "2017", discovered: str = TABLE,
                equity: bool = False, neighbours: NeighbourDeals | None = None,
                table_facts: TableFacts | None = None) -> BoardAudit:
    """Replay ``record`` and rule it under ``laws`` (an edition name from ``laws.EDITIONS``, or
    ``auto``).  ``equity``: add double-dummy estimates to revoke findings (Law 64C).
    ``neighbours``: deals of nearby boards of the same file (see ``audit_records``), named as
    the repair when the record carries another board's deal.  ``table_facts``: a director's
    log (``table_facts.read_table_facts``) whose rows for this board add the revokes only the
    log can show and may set ``discovered``.  ValueError for an unknown ``laws`` or
    ``discovered``."""
    check_options(laws, discovered)
    findings = [Finding(d.code, d.message, d.line) for d in record.diagnostics]
    laws, note = resolve_laws(record, laws)
    board_facts = table_facts.for_board(record) if table_facts is not None else None
    try:
        rp = replay(record, neighbours)
        code = get_code(laws)
        findings += _apply_log(rp, code, board_facts)
        ruling = code.rule(rp, board_facts and board_facts.discovered or discovered)
        _mark_log_rows(ruling.findings, board_facts)
        ruled = rp.findings + ruling.findings
        if note and any(level(f.code) == "irregular" for f in ruled):
            findings.append(Finding("LW001", note, record.line))  # the ruling hangs on the edition
        audit = BoardAudit(record, rp, ruling, findings + ruled, table_facts=board_facts)
        _check_stated(audit)
        if not rp.coherent:  # no ruling on a record error: the result stands as stated
            ruling.tricks_adjusted = (audit.tricks_stated if audit.tricks_stated is not None
                                      else rp.tricks_played)
        _check_marks(audit)
        if equity and rp.revokes:
            _add_equity(audit)
    except Exception as exc:  # a bug must not stop the run: the board is reported instead
        rp, ruling = Replay(record), Ruling(laws)
        findings.append(Finding("RC099", f"internal error while auditing this board "
                                f"({type(exc).__name__}: {exc}); please report it", record.line))
        audit = BoardAudit(record, rp, ruling, findings)
    audit.findings.sort(key=lambda f: (f.line or 0, f.trick or 0))
    return audit


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


def resolve_laws(record: BoardRecord, laws: str) -> tuple[str, str | None]:
    """The edition to apply: ``laws`` itself, or for ``auto`` the one in force on the record's
    date (PBN Date, else BridgeComposer's title date, else a year in the event or vugraph
    title), with a note when uncertain."""
    if laws != "auto":
        return laws, None
    for text in (record.date, record.tags.get("HRTitleDate"), record.event):
        if text and parse_record_date(text):
            return choose_edition(text)
    return choose_edition(record.date or None)


def audit_records(records: Iterable[BoardRecord], laws: str = "2017",
                  discovered: str = TABLE, equity: bool = False,
                  table_facts: TableFacts | None = None) -> Iterator[BoardAudit]:
    """Audit a stream of records in order; each board sees the deals of the boards around it
    in the same file (a bounded window), to name another board's deal as a record's repair."""
    for record, neighbours in with_neighbours(records):
        yield audit_board(record, laws, discovered, equity, neighbours, table_facts)


def with_neighbours(records: Iterable[BoardRecord], window: int = NEIGHBOURS
                    ) -> Iterator[tuple[BoardRecord, NeighbourDeals]]:
    """Each record with a lazy list of the deals of up to ``window`` boards before and after
    it in the same source.  Memory stays bounded: at most ``2 * window + 1`` records are held."""
    before: deque[BoardRecord] = deque(maxlen=window)
    ahead: deque[BoardRecord] = deque()
    for record in records:
        ahead.append(record)
        if len(ahead) > window:
            current = ahead.popleft()
            yield current, _deals_near(current, before, ahead)
            before.append(current)
    while ahead:
        current = ahead.popleft()
        yield current, _deals_near(current, before, ahead)
        before.append(current)


def _deals_near(record: BoardRecord, before: deque, ahead: deque) -> NeighbourDeals:
    """Lazy: called (if ever) while ``record`` is audited, before the window moves on."""
    def deals() -> list[tuple[str, tuple[int, ...]]]:
        return [(_label(r), r.hands) for r in (*before, *ahead)
                if r.source == record.source and r.hands is not None and None not in r.hands
                and r.hands != record.hands]
    return deals


def _label(r: BoardRecord) -> str:
    room = f", {r.room} room" if r.room else ""
    return f"board {r.board or '?'}{room} (line {r.line})"


def _add_equity(a: BoardAudit) -> None:
    """Fill ``equity_tricks`` on each revoke finding (double dummy had that offender followed
    suit), the board's ``tricks_equity`` (as if no revoke had happened) and ``review_64c``;
    EQ001 when the board estimate gives the non-offending side more than the automatic result
    (a case for Law 64C; with both sides revoked, any difference: 64C2(b))."""
    from .equity import board_equity, equity_tricks

    facts = {(f.trick, f.seat, f.card): f for f in a.replay.revokes}
    established = []
    for i, finding in enumerate(a.findings):
        fact = facts.get((finding.trick, finding.seat, finding.card))
        if not finding.code.startswith("RV") or fact is None:
            continue
        if finding.established:
            established.append(fact)
        if fact.kind != FOLLOW:
            continue  # a log's duty (61A2, 61A3) is not estimated as a failure to follow
        eq = equity_tricks(a.replay, fact)
        if eq is not None:
            a.findings[i] = replace(finding, equity_tricks=eq)
    board = board_equity(a.replay, established, a.ruling.tricks_adjusted,
                         has_64c=a.ruling.scoring == "duplicate")
    if board is None:
        return
    a.tricks_equity, a.review_64c = board.tricks, board.review
    if board.review:
        a.findings.append(_review_finding(a, board))


def _review_finding(a: BoardAudit, board) -> Finding:
    """EQ001: the figures a Director needs for Law 64C, in one sentence."""
    first, adjusted = board.first, a.ruling.tricks_adjusted
    revokes = [f for f in a.replay.revokes if f.trick >= first.trick]
    if len(revokes) == 1:
        had = f"had {seat_name(first.seat)} followed suit on trick {first.trick}"
    else:
        who = ", ".join(f"{seat_name(f.seat)} on trick {f.trick}" for f in revokes)
        had = f"had none of the revokes happened ({who})"
    if board.both_sides:
        due = "both sides revoked, so the Director assigns an adjusted score (64C2(b))"
    else:
        due = "the non-offending side may be due more (Law 64C)"
    return Finding("EQ001", f"{had}, double-dummy play gives declarer {trick_count(board.tricks)} "
                   f"against {adjusted} after the automatic adjustment: {due}", first.line,
                   law="64C", trick=first.trick, seat=first.seat, equity_tricks=board.tricks)


# --- stated results -------------------------------------------------------------------------

_RS = re.compile(r"^([1-7])(NT|N|S|H|D|C)([NESW])(X{0,2}|x{0,2})([=+-]\d*|=)?$", re.IGNORECASE)


def _check_stated(a: BoardAudit) -> None:
    """Result / LIN ``rs`` against the play (RC023, RC024).  A stated result equal to the
    adjusted one is the table's ruling, not an error; ``^9`` says the difference is known."""
    rec, rp = a.record, a.replay
    played, adjusted = rp.tricks_played, a.ruling.tricks_adjusted
    if rec.result_stated is not None and rec.format == "pbn":
        a.tricks_stated = rec.result_stated
        if (rp.play_status == "complete" and played is not None and not rec.result_flagged
                and rp.coherent
                and rec.result_stated not in (played, adjusted)):
            a.findings.append(Finding(
                "RC023", f"Result says {rec.result_stated} tricks for declarer but the play gives "
                f"{played}", rec.result_line or rec.line))
    if rec.lin_result:
        _check_rs(a, rec.lin_result, played, adjusted)
    elif rec.claim is not None:
        a.tricks_stated = rec.claim


def _check_rs(a: BoardAudit, text: str, played: int | None, adjusted: int | None) -> None:
    rec = a.record
    m = _RS.match(text.strip())
    if not m:
        if text.strip().upper() in ("P", "PASS", "AP"):
            a.tricks_stated = None
        return
    level = int(m.group(1))
    strain = "NT" if m.group(2).upper() in ("N", "NT") else m.group(2).upper()
    declarer = SEATS.index(m.group(3).upper())
    diff = m.group(5) or "="
    tricks = 6 + level + (0 if diff == "=" else int(diff))
    a.tricks_stated = tricks
    contract = f"{level}{strain}{m.group(4).upper()}"
    problems = []
    if rec.contract and contract != rec.contract:
        problems.append(f"contract {contract} (play has {rec.contract})")
    if rec.declarer is not None and declarer != rec.declarer:
        problems.append(f"declarer {SEATS[declarer]} (play has {SEATS[rec.declarer]})")
    if played is not None and tricks not in (played, adjusted):
        problems.append(f"{tricks} tricks (play gives {played})")
    if problems:
        a.findings.append(Finding("RC024", f"vugraph result {text} disagrees: " + ", ".join(problems),
                                  rec.line))


def _check_marks(a: BoardAudit) -> None:
    """Every ``^R`` mark gets an answer: a revoke (RV/DT), not a revoke (RC030, from the
    replay), or not checkable (RC032, with the reason).  A revoke the record does not mark, on a
    board whose producer marks revokes, is RC031."""
    rp = a.replay
    marked = [p for p in a.record.play if "R" in p.marks]
    if a.record.format != "pbn" or not marked:
        return
    answered = {f.card for f in rp.revokes} | {f.card for f in rp.findings if f.code == "RC030"}
    why = next((f.message for f in rp.findings if f.code in (
        "RC001", "RC002", "RC003", "RC010", "RC011", "RC013", "RC014", "RC015", "RC016")), None)
    for p in marked:
        if p.card not in answered:
            reason = (rp.unchecked.get(p.card) if p.card is not None else None) or (
                f"the replay stopped earlier ({why})" if why else "the card is not recorded")
            a.findings.append(Finding("RC032", f"{card_str(p.card)} is marked ^R but could not be "
                                      f"checked: {reason}", p.line, seat=p.seat, card=p.card))
    for f in rp.revokes:
        if not f.marked and f.kind == FOLLOW:  # a producer marks the play, not the log's duties
            a.findings.append(Finding(
                "RC031", f"trick {f.trick}: {card_str(f.card)} is a revoke (holding "
                f"{holding_str(f.held)} on a {SUITS[f.suit_led]} lead) but is not marked ^R",
                f.line, trick=f.trick, seat=f.seat, card=f.card))


def board_row(a: BoardAudit) -> dict[str, object]:
    """The boards.csv row (columns in report.BOARD_COLUMNS order)."""
    rec, rp, ruling = a.record, a.replay, a.ruling
    contract, declarer = rec.contract, rec.declarer
    played, adjusted = rp.tricks_played, ruling.tricks_adjusted
    duplicate = ruling.scoring == "duplicate"
    return {
        "source": rec.source, "line": rec.line, "game": rec.game, "event": rec.event,
        "date": rec.date, "board": rec.board, "room": rec.room,
        "dealer": SEATS[rec.dealer] if rec.dealer is not None else "",
        "vul": rec.vul or "", "declarer": SEATS[declarer] if declarer is not None else "",
        "contract": contract or "", "play": rp.play_status,
        "tricks_stated": a.tricks_stated, "tricks_played": played, "tricks_adjusted": adjusted,
        "result_adjusted": result_string(contract, adjusted),
        "score_ns": score_ns(contract, declarer, rec.vul, played) if duplicate else None,
        "score_ns_adjusted": score_ns(contract, declarer, rec.vul, adjusted) if duplicate else None,
        "revokes": a.count("RV"), "defective_tricks": a.count("DT"),
        "record_errors": a.count("RC"), "laws": ruling.edition, "status": a.status,
        "scoring": ruling.scoring, "parse_problems": a.count("PS"),
        **_rubber(a, contract, declarer, played, adjusted),
        **dict(zip(("north", "east", "south", "west"), rec.names)),
        "tricks_equity": a.tricks_equity, "review_64c": a.review_64c,
    }


def _rubber(a: BoardAudit, contract, declarer, played, adjusted) -> dict[str, object]:
    """Trick score below and bonuses above the line, by side, for the rubber codes."""
    ruling = a.ruling
    if ruling.scoring != "rubber":
        return dict.fromkeys(RUBBER_COLUMNS)
    row = rubber_scores(ruling.edition, contract, declarer, a.record.vul, played, adjusted,
                        (ruling.penalty_to_declarer_side, ruling.penalty_to_defenders),
                        (ruling.declarer_side_revoked, ruling.defenders_revoked))
    notes = "; ".join(ruling.notes + ([row["scoring_notes"]] if row["scoring_notes"] else []))
    return {**row, "scoring_notes": notes or None}
