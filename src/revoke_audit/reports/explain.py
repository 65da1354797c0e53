"""One board explained for a person: the deal, the play trick by trick with the irregular cards
marked, the findings, and the ruling's arithmetic (``revoke-audit explain``).

Pure rendering of library objects (``BoardAudit``, ``board_row``): no law is applied here.
Plain ASCII, lines of at most 80 characters (a long source path excepted)."""
from __future__ import annotations

import os
import textwrap
from typing import Iterable, NamedTuple

from ..ruling.audit import BoardAudit, audit_board
from ..ruling.director import cards_words, ruling_text, scored_at_table
from ..laws import Scoring
from ..laws.common import AFTER_ROUND, TABLE_RULING
from ..ruling.options import AuditOptions
from ..scoring.rescore import Fields
from .gather import add
from .rows import board_row, render
from ..scoring.standings import Traveller, Travellers
from ..core.cards import SEATS, SUITS, card_str, hand_str, seat_name
from ..core.findings import tricks
from ..formats import read_boards
from ..core.record import BoardRecord
from ..replay import CLAIMED, COMPLETE, Trick
from ..scoring import result_string

WIDTH = 80
LEGEND = "* revoke, ! extra card (back to the hand), (none) no card played"
LOG_LEGEND = "under a trick: what the director's log bound a player to there"
UNKNOWN_LEGEND = "? a card played that the record does not give"
PLAYED, REVOKE, NONE, UNKNOWN, EXTRA = "played", "revoke", "none", "unknown", "extra"


def find_board(paths: Iterable[str | os.PathLike], board: str | int | None = None,
               room: str | None = None, game: int | None = None, round_: str | None = None,
               table: str | None = None, teams: str | None = None) -> list[BoardRecord]:
    """The records in ``paths`` matching every criterion given: ``board`` against
    ``record.board`` (as a string), ``room`` against ``record.room`` (case-insensitive),
    ``game`` against the 1-based index within the file, ``round_`` and ``table`` against the
    Round and Table tags, ``teams`` against either of HomeTeam and VisitTeam (case-insensitive)
    - for a file that holds the same board and room more than once (several rounds)."""
    return first_boards(paths, None, board, room, game, round_, table, teams).matches


class Found(NamedTuple):
    """What ``first_boards`` found: the first records matching and how many match in all; the
    first records of the files and how many they hold (for a choice when none matches)."""

    matches: list[BoardRecord]
    count: int
    first: list[BoardRecord]
    total: int


def first_boards(paths: Iterable[str | os.PathLike], keep: int | None,
                 board: str | int | None = None, room: str | None = None,
                 game: int | None = None, round_: str | None = None, table: str | None = None,
                 teams: str | None = None) -> Found:
    """The first ``keep`` records matching as ``find_board`` says (every one when ``keep`` is
    None), and the first ``keep`` records of all, each with its count: the records are read
    once, one at a time, so a file of any size is looked through in the memory of a few
    records."""
    found: list[BoardRecord] = []
    first: list[BoardRecord] = []
    count = total = 0
    for rec in read_boards(paths):
        total += 1
        if keep is not None and len(first) < keep:
            first.append(rec)
        if board is not None and rec.board != str(board).strip():
            continue
        if room is not None and rec.room.lower() != room.lower():
            continue
        if game is not None and rec.game != game:
            continue
        if not _tags_match(rec, round_, table, teams):
            continue
        count += 1
        if keep is None or len(found) < keep:
            found.append(rec)
    return Found(found, count, first, total)


def _tags_match(rec: BoardRecord, round_: str | None, table: str | None,
                teams: str | None) -> bool:
    tags = rec.tags
    if round_ is not None and tags.get("Round", "").strip() != round_.strip():
        return False
    if table is not None and tags.get("Table", "").strip() != table.strip():
        return False
    if teams is not None:
        names = {tags.get("HomeTeam", "").strip().lower(), tags.get("VisitTeam", "").strip().lower()}
        if teams.strip().lower() not in names:
            return False
    return True


def describe(rec: BoardRecord) -> str:
    """One line naming a record for a choice: ``game 2: board 7 closed, round 3 (line 8)``."""
    what = f"board {rec.board}" if rec.board else "no board number"
    room = f" {rec.room}" if rec.room else ""
    extra = [f"{tag.lower()} {rec.tags[tag]}" for tag in ("Round", "Table")
             if rec.tags.get(tag, "").strip() not in ("", "#")]
    teams = [rec.tags.get(t, "").strip() for t in ("HomeTeam", "VisitTeam")]
    if any(t and t != "#" for t in teams):
        extra.append(" v ".join(t for t in teams if t))
    room += "".join(f", {e}" for e in extra)
    why = f": {rec.diagnostics[0].code} {rec.diagnostics[0].message}" if rec.unreadable and \
        rec.diagnostics else ""
    return f"game {rec.game}: {what}{room} (line {rec.line}){why}"


def explain_text(audit: BoardAudit, field: Traveller | None = None) -> str:
    """The whole explanation of one audited board, as text ending in a newline; with
    ``field`` (``field_of``), its field before and after at the end."""
    sections = [_header(audit), _diagram(audit.record), _log(audit), _play(audit),
                _findings(audit), discovery_lines(audit), ruling_steps(audit), _director(audit),
                field_lines(field) if field is not None else []]
    return "\n\n".join("\n".join(lines) for lines in sections if lines) + "\n"


# --- header and deal -----------------------------------------------------------------------

def _place(room: str) -> str:
    """``table 5`` for a Table tag's number, ``open room`` for a room, "" for neither."""
    if not room:
        return ""
    return f"table {room}" if room.isdigit() else f"{room} room"


def _header(a: BoardAudit) -> list[str]:
    """Where the board comes from, what it is, and the code applied."""
    rec, row = a.record, board_row(a)
    title = ", ".join(x for x in (rec.event, f"board {rec.board or '?'}",
                                  _place(rec.room)) if x)
    contract = rec.contract or "unknown"
    if contract == "Pass":
        contract = "passed out"
    elif rec.declarer is not None:
        contract += f" by {seat_name(rec.declarer)}"
    return [f"{rec.source}:{rec.line}",
            *_wrap(f"{title}; dealer {row['dealer'] or '?'}, vulnerable {row['vul'] or '?'}", ""),
            *_wrap(f"Contract {contract}; Laws {a.ruling.edition} ({a.ruling.scoring} scoring); "
                   f"status {a.status}", "")]


def _hand_lines(mask: int | None) -> list[str]:
    """Four lines ``S AKQ`` .. ``C -`` for a hand; ``?`` for a hand the record leaves unknown."""
    if mask is None:
        return ["?", "", "", ""]
    return [f"{SUITS[s]} {part or '-'}" for s, part in enumerate(hand_str(mask).split("."))]


def _diagram(rec: BoardRecord) -> list[str]:
    """North on top, West and East side by side, South below, with the players' names."""
    hands = rec.hands or (None,) * 4
    label = [(f"{seat_name(s)} {rec.names[s]}".rstrip())[:28] for s in range(4)]
    pad = " " * 15
    lines = [pad + label[0]] + [pad + x for x in _hand_lines(hands[0])]
    lines.append(f"{label[3]:<30}{label[1]}")
    west, east = _hand_lines(hands[3]), _hand_lines(hands[1])
    lines += [f"{w:<30}{e}".rstrip() for w, e in zip(west, east)]
    lines += [pad + label[2]] + [pad + x for x in _hand_lines(hands[2])]
    return [x.rstrip() for x in lines]


# --- the director's log --------------------------------------------------------------------

def _log(a: BoardAudit) -> list[str]:
    """The log's rows that match this board (``--table-facts``), by line."""
    facts = a.table_facts
    if facts is None or not facts.lines:
        return []
    lines = [f"Director's log {facts.log}:"]
    for row in sorted(facts.rows, key=lambda r: r.line):
        lines += _wrap(f"line {row.line}: {row.describe()}")
    if facts.discovered is not None:
        lines += _wrap(f"line {facts.discovered_line}: discovered {facts.discovered} (overrides "
                       "--discovered)")
    return lines


def discovery_lines(a: BoardAudit) -> list[str]:
    """Which time of discovery (Law 64B4/B5) the ruling used and why: the director's log's
    row, or the run's ``--discovered``; without a log, say that none was given, and what a log
    saying the table knew would change.  Nothing for a board without a revoke to rule, or one
    whose stated result already holds the table's ruling (LW002: the discovery does not
    matter)."""
    if not a.replay.revokes or a.ruling.basis == TABLE_RULING:
        return []
    facts = a.table_facts
    if facts is not None and facts.discovered is not None:
        return _wrap(f"Discovery: {facts.discovered}, as the director's log says (line "
                     f"{facts.discovered_line})", "")
    given = "the default" if a.discovered == AFTER_ROUND else "as the run was told"
    text = f"Discovery: {a.discovered} (--discovered, {given})"
    if not a.log_given:
        text += "; no director's log was given (--table-facts)"
    else:
        text += "; the director's log has no 'discovered' row for this board"
    if a.discovered == AFTER_ROUND:
        if any(f.marked for f in a.replay.revokes):
            text += "; a ^R mark is the record producer's reading, not the table's knowledge"
        if a.ruling.tricks_automatic != a.ruling.tricks_adjusted:
            text += (f". Had the table known (a log row 'discovered table'), declarer's tricks "
                     f"would be {_num(a.ruling.tricks_automatic)}, not "
                     f"{_num(a.ruling.tricks_adjusted)}")
    return _wrap(text, "")


# --- the play ------------------------------------------------------------------------------

def _play(a: BoardAudit) -> list[str]:
    """One line per trick with the marks, the winner and declarer's side's running count."""
    rp = a.replay
    if not rp.tricks:
        return ["Play: none replayed" + ("" if rp.auditable else " (see the findings)")]
    side = "N-S" if rp.declarer % 2 == 0 else "E-W"
    revokes, extras, bound = play_marks(rp)
    lines = [f"Play: {LEGEND}"] + ([f"      ({LOG_LEGEND})"] if bound else [])
    if any(t.unknown for t in rp.tricks):
        lines.append(f"      {UNKNOWN_LEGEND}")
    lines.append(f" #  lead {'cards in time order':<32} won  {side}")
    won = 0
    for t in rp.tricks:
        if t.winner is not None and t.winner % 2 == rp.declarer % 2:
            won += 1
        lines.append(_trick_line(t, revokes, extras.get(t.number, []), won))
        for b in bound.get(t.number, []):
            lines += _wrap(f"{SEATS[b.seat]}: {b.text}", " " * 6)
    return lines + _play_end(a)


def play_marks(rp) -> tuple[set, dict[int, list], dict[int, list]]:
    """What the play shows beside the cards: the (trick, seat) of each revoke, the extra
    cards of defective tricks by trick (seat, card), the director's log's bindings by trick."""
    revokes = {(f.trick, f.seat) for f in rp.revokes}
    extras: dict[int, list] = {}
    for d in rp.defects:
        if d.kind == "extra":
            extras.setdefault(d.trick, []).append((d.seat, d.card))
    bound: dict[int, list] = {}
    for b in rp.bindings:
        bound.setdefault(b.trick, []).append(b)
    return revokes, extras, bound


#: The kinds of a trick's entry (``trick_entries``) and how the text shows each after the card.
_ENTRY_MARK = {PLAYED: " ", REVOKE: "*", EXTRA: "!"}


def trick_entries(t: Trick, revokes: set, extras: list) -> list[tuple[int, int | None, str]]:
    """A trick's entries in the order they were played, as (seat, card, kind): each card played
    (``PLAYED``, or ``REVOKE``), a player who played no card (``NONE``) or a card the record
    does not give (``UNKNOWN``) in its turn, then the extra cards (``EXTRA``) of Law 67B2."""
    entries = [(s, c, REVOKE if (t.number, s) in revokes else PLAYED) for s, c, _ in t.plays]
    lead = t.leader
    gaps = [(seat, NONE) for seat in t.omitted] + [(seat, UNKNOWN) for seat in t.unknown]
    for seat, kind in sorted(gaps, key=lambda g: (g[0] - lead) % 4):  # in its turn
        at = sum(1 for s, _, _ in entries if (s - lead) % 4 < (seat - lead) % 4)
        entries.insert(at, (seat, None, kind))
    return entries + [(s, c, EXTRA) for s, c in extras]


def _trick_line(t: Trick, revokes: set, extras: list, won: int) -> str:
    """`` 3  E    HQ   S HJ   W D5*  N H4        -> E    1``."""
    lead = t.leader
    texts = [(s, "(none)" if kind == NONE else "? " if kind == UNKNOWN
              else card_str(c) + _ENTRY_MARK[kind]) for s, c, kind in trick_entries(t, revokes, extras)]
    cards = "  ".join(text if i == 0 and s == lead else f"{SEATS[s]} {text}"
                      for i, (s, text) in enumerate(texts))
    end = f"-> {SEATS[t.winner]} {won:>4}" if t.winner is not None else "(unfinished)"
    return f"{t.number:>2}  {SEATS[lead]}    {cards:<32} {end}".rstrip()


def _play_end(a: BoardAudit) -> list[str]:
    """How the play ends: all 13 tricks, a claim, or a record that stops."""
    rp = a.replay
    done = len(rp.complete_tricks)
    if rp.play_status == COMPLETE:
        return []
    if rp.stopped_at is not None:
        stop = f"The replay stops at trick {rp.stopped_at} (see the findings)"
        if rp.play_status != CLAIMED:
            return [stop]
        if a.record.claim is not None:
            return _wrap(f"{stop}; the record ends with a claim: {rp.claim} tricks in all "
                         "for declarer", indent="")
        last = max((p.trick for p in a.record.play if p.trick is not None and p.card is not None),
                   default=rp.stopped_at)
        return _wrap(f"{stop}; the record's play goes on to trick {last} and ends there with "
                     f"no claim recorded; its Result, {rp.claim} tricks for declarer, is taken "
                     "as the table's total", indent="")
    if rp.play_status == CLAIMED:
        return [f"Claim after {done} tricks: {rp.claim} tricks in all for declarer"]
    return [f"The record stops after {done} tricks, with no claim"]


# --- findings and ruling -------------------------------------------------------------------

def _wrap(text: str, indent: str = "  ") -> list[str]:
    """``text`` folded to the width, continuation lines indented two more."""
    return textwrap.wrap(text, WIDTH, initial_indent=indent, subsequent_indent=indent + "  ",
                         break_on_hyphens=False)


def _findings(a: BoardAudit) -> list[str]:
    """Each finding as in ``audit``'s text output: line, code, law, message."""
    if not a.findings:
        return ["Findings: none"]
    lines = ["Findings:"]
    for f in a.findings:
        law = f" [{f.law}]" if f.law else ""
        lines += _wrap(f"line {f.line or a.record.line}: {f.code}{law} {f.message}")
    return lines


def ruling_steps(a: BoardAudit) -> list[str]:
    """The arithmetic: tricks played, each transfer, the adjusted tricks, result and score."""
    rp, ruling, row = a.replay, a.ruling, board_row(a)
    played, adjusted = ruling.tricks_played, ruling.tricks_adjusted
    how = "played and claimed" if rp.play_status == CLAIMED else "played"
    if rp.play_status == CLAIMED and rp.stopped_at is not None and a.record.claim is None:
        how = "as the Result states"
    lines = [f"Ruling (Laws {ruling.edition}):",
             f"  tricks for declarer, {how}: {_num(played)}"]
    if ruling.basis == TABLE_RULING:
        lines[1] = f"  tricks for declarer: {cards_words(a)}"
    moved = 0
    for f in a.findings:
        if f.transferred and f.seat is not None and rp.declarer is not None:
            sign = -1 if f.seat % 2 == rp.declarer % 2 else 1
            moved += sign * f.transferred
            to = "E-W" if f.seat % 2 == 0 else "N-S"
            lines.append(f"  {tricks(f.transferred)} to {to}: {f.code} [{f.law}], trick "
                         f"{f.trick} ({seat_name(f.seat)}, {f.role})")
    if played is not None and adjusted is not None and played + moved != adjusted:
        lines.append(_correction(adjusted - played - moved, rp.declarer))
    lines.append(f"  tricks for declarer, adjusted: {_num(adjusted)} (basis: {ruling.basis})")
    if ruling.tricks_automatic != adjusted:
        lines.append(f"  had attention been drawn in time: {_num(ruling.tricks_automatic)}")
    if a.tricks_equity is not None:
        unknown = "not assessed" if a.ruling_64c == "not assessed" else "not under this code"
        review = {True: "yes", False: "no", None: unknown}[a.review_64c]
        lines.append(f"  Law 64C: double dummy had no revoke happened {a.tricks_equity}; "
                     f"review: {review}")
    if a.ruling_64c != "none":
        decided = {"adjusted": f"adjusted to {row['result_64c']} (N-S {_num(row['score_ns_64c'])})",
                   "no damage": "no damage, the result stands"}.get(a.ruling_64c, a.ruling_64c)
        lines.append(f"  Law 64C decided: {decided}")
    if row.get("confirm_card"):
        lines.append(f"  confirm with the record's source before signing: {row['confirm_card']}")
    if ruling.basis == TABLE_RULING:  # the table's ruling is in the result: nothing moves
        return lines + _wrap(scored_at_table(a))
    played_res = result_string(a.record.contract, played)
    lines.append(f"  result: {played_res or '?'} -> {row['result_adjusted'] or '?'}"
                 + _signed(row, "result_64c"))
    return lines + _score_lines(a, row)


def _signed(row: dict, column: str) -> str:
    """" -> 2S-2 (64C: the final result)" where Law 64C assigns a result, else nothing."""
    if row.get("ruling_64c") != "adjusted" or row.get(column) is None:
        return ""
    return f" -> {row[column]} (64C: the final result)"


def _director(a: BoardAudit) -> list[str]:
    """Each ruling as the Director reads it out (``director.ruling_text``); nothing when the
    board has no revoke or defective trick."""
    texts = [t for t in (ruling_text(a, f) for f in a.findings) if t]
    if not texts:
        return []
    lines = ["Director's ruling:"]
    for text in texts:
        lines += _wrap(text)
    return lines


def _correction(change: int, declarer: int) -> str:
    """Tricks that change hands otherwise than by a transfer (a trick-12 revoke corrected under
    Law 62D, a stated result taken on a record error), as a count to a side, never signed."""
    gainer = declarer if change > 0 else declarer + 1
    to = "N-S" if gainer % 2 == 0 else "E-W"
    return f"  {tricks(abs(change))} to {to}: the play as corrected (see the findings)"


def _num(n: int | None) -> str:
    """A count, or ``unknown``."""
    return "unknown" if n is None else str(n)


def _score_lines(a: BoardAudit, row: dict) -> list[str]:
    """Duplicate: N-S score played -> adjusted.  Rubber: the columns of the adjusted result."""
    if a.ruling.scoring == Scoring.RUBBER:
        lines = [f"  rubber score (adjusted): N-S {_num(row['below_ns'])} below, "
                 f"{_num(row['above_ns'])} above; E-W {_num(row['below_ew'])} below, "
                 f"{_num(row['above_ew'])} above"]
        notes = [row["scoring_notes"]] if row["scoring_notes"] else []
    else:
        lines = [f"  score N-S: {_num(row['score_ns'])} -> {_num(row['score_ns_adjusted'])}"
                 + _signed(row, "score_ns_64c")]
        notes = a.ruling.notes
    for note in notes:
        lines += _wrap("note: " + note)
    return lines


# --- the board's field ---------------------------------------------------------------------

def field_of(path: str | os.PathLike, audit: BoardAudit, options: AuditOptions,
             scoring: str | None = None) -> Traveller | None:
    """The field of the audited board (``standings.Traveller``) among the records of
    ``path``: the boards of its event (Event, Section, Date) audited with ``options`` (the
    audit's) and scored as ``audit`` scores a run of ``path`` (``scoring``: its
    ``--scoring``); None when the board is not scored (no other table, nor a ScoreTable)."""
    rec, own = audit.record, render(audit)
    event = (rec.event, rec.tags.get("Section", ""), rec.date)
    with Fields(scoring) as fields:
        for other in read_boards([path]):
            if (other.event, other.tags.get("Section", ""), other.date) != event:
                continue
            same = (other.source, other.line, other.game) == (rec.source, rec.line, rec.game)
            add(fields, own if same else render(audit_board(other, options)))
        return Travellers(fields.score()).of(own.row)


def field_lines(t: Traveller) -> list[str]:
    """A board's field as text: the method, then each result (``>`` the board's own table)
    with its result, N-S score and N-S figure, before -> after where they differ."""
    event = " ".join(p for p in t.key[:3] if p) or "no event"
    lines = [f"The field: board {t.key[3]} of {event}, {t.results} results (> the table above)"]
    lines += _wrap(t.how())
    unit, after = ("", " IMPs") if t.imps else ("%", "%")
    for r in t.rows:
        who = (f"N-S {r.ns or '?'}, E-W {r.ew or '?'}" + (f" (x{r.times})" if r.times > 1 else "")
               if r.ns or r.ew else "another table" if r.times == 1
               else f"{r.times} other tables")  # a ScoreTable's row without pair ids
        result = (r.result or "?") + (f" by {r.declarer}" if r.declarer else "")
        if r.result_adjusted != r.result:
            result += f" -> {r.result_adjusted or '?'}"
        score = f"N-S {r.score:+d}" + (f" -> {r.score_adjusted:+d}"
                                       if r.score != r.score_adjusted else "")
        figure = f"{t.figure(r.figure)}{unit} -> {t.figure(r.figure_adjusted)}{after}"
        # a score or figure before -> after is never cut across lines (no-break spaces)
        text = (f"{_place(r.room) + ': ' if r.room else ''}{who}: {result}, "
                f"{_unbroken(score)}; {_unbroken(figure)}")
        wrapped = [line.replace(NBSP, " ") for line in _wrap(text)]
        if r.own:
            wrapped[0] = ">" + wrapped[0][1:]
        lines += wrapped
    return lines


NBSP = "\xa0"


def _unbroken(text: str) -> str:
    """``text`` that ``textwrap`` keeps on one line (it breaks at ASCII whitespace only)."""
    return text.replace(" ", NBSP)
