"""The director's page (``--html``): one self-contained HTML file for a run or one board.

A summary (files, boards by status, findings by code as an inline SVG chart, the options that
rule), one section per irregular board (where it is, the deal as a compass diagram, the
auction, the play trick by trick with the offending cards framed and marked, what the offender
held, the director's log, the ruling's arithmetic as ``explain`` gives it, the Director's
ruling and, when the board was rescored, its field before and after), the rank changes, and
the record errors in a sortable table.  Clean boards are counted, not listed.

The run's rows come from worker processes without the objects a diagram needs, so the page
keeps only the irregular boards' rows as the run goes, and at the end reads again the files
that hold them and audits those boards alone, with the run's options (``Page.sections``).

Every value from a record goes through Jinja2's autoescaping (and ``visible``: no control
character); the templates are package files (``templates/``); the page names no URL, loads
nothing, and reads without its small inline script (sorting and filtering)."""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Iterable, Iterator, Sequence

from ..ruling.audit import BoardAudit, audit_board
from ..core.cards import RANKS, SEATS, SUITS, card_str, seat_name
from ..core.codes import CODES, FAMILIES
from .corrections import Corrections
from .explain import EXTRA, NONE, REVOKE, play_marks, ruling_steps, trick_entries
from ..formats import Limits, read_file
from ..ruling.options import AuditOptions
from ..core.record import BoardRecord
from ..scoring.rescore import Fields
from .rows import Rendered, names_a_board, render, result_before, result_signed
from ..scoring.standings import Traveller, Travellers, rank_changes, standings
from .streamed_json import Spool
from ..core.visible import decodable, visible

SUIT_SYMBOLS = "♠♥♦♣"
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")
#: Boards shown in full; the rest of a huge run's irregular boards are listed in the index
#: only (``explain --html`` shows any one of them), so that the page opens in seconds.
MAX_SECTIONS = 500
#: Rows of the record errors table; findings.csv has them all.
MAX_ERRORS = 10_000
STATUSES = ("irregular", "inconsistent", "unreadable", "clean", "unchecked")
_STRAIN = {"S": 0, "H": 1, "D": 2, "C": 3}
_CALL = re.compile(r"^([1-7])(NT|[SHDC])$")
_REPAIR = re.compile(r"; (it fits [^;]*)$")


def _environment():
    """The Jinja2 environment: templates from the package, every expression autoescaped and
    its control characters made visible (``visible``)."""
    from jinja2 import Environment, PackageLoader, StrictUndefined
    from markupsafe import Markup

    def shown(value: object) -> object:
        """A value as it is printed: outside text made visible; markup (a macro's) as it is."""
        return visible(value) if isinstance(value, str) and not isinstance(value, Markup) \
            else value

    env = Environment(loader=PackageLoader("revoke_audit.reports", "templates"), autoescape=True,
                      undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True,
                      finalize=shown)
    env.globals.update(SYMBOLS=SUIT_SYMBOLS, SUIT_NAMES=SUIT_NAMES, SEATS=SEATS)
    return env


# --- cards, hands and calls as the templates take them -----------------------------------

def card(c: int | None) -> dict | None:
    """A card as ``{"suit": 1, "rank": "10"}`` (ten written 10, as a director reads it)."""
    if c is None:
        return None
    rank = RANKS[c % 13]
    return {"suit": c // 13, "rank": "10" if rank == "T" else rank, "code": card_str(c)}


def hand(mask: int | None) -> list[str] | None:
    """The four suits of a hand, highest card first, ``10`` for the ten; None when unknown."""
    if mask is None:
        return None
    suits = []
    for s in range(4):
        ranks = [RANKS[r] for r in range(12, -1, -1) if mask >> (s * 13 + r) & 1]
        suits.append(" ".join("10" if r == "T" else r for r in ranks))
    return suits


def call(text: str) -> dict:
    """A call of the auction: ``{"level": "1", "suit": 1}`` for a bid in a suit, else words."""
    m = _CALL.match(text)
    if m and m.group(2) != "NT":
        return {"level": m.group(1), "suit": _STRAIN[m.group(2)]}
    words = {"P": "Pass", "X": "Dbl", "XX": "Rdbl"}.get(text, text)
    return {"level": None, "text": words}


def auction_rows(calls: Sequence[str], dealer: int | None) -> list[list[dict | None]]:
    """The calls in rows of four, columns West North East South, the first in the dealer's."""
    if not calls:
        return []
    first = ((dealer if dealer is not None else 3) + 1) % 4  # W=0, N=1, E=2, S=3
    cells: list[dict | None] = [None] * first + [call(c) for c in calls]
    return [cells[i:i + 4] for i in range(0, len(cells), 4)]


# --- one irregular board --------------------------------------------------------------------

def section(r: Rendered, a: BoardAudit | None, number: int,
            field: Traveller | None = None) -> dict:
    """What a board's section shows: its row and findings (as the reports give them), when
    the audit is at hand (``a``) the deal, the auction, the play and the ruling's steps, and
    when the board was rescored its field (``field``) before and after."""
    row = r.row
    names = [row["north"], row["east"], row["south"], row["west"]]
    out = {
        "id": f"board-{number}", "row": row, "names": names, "findings": r.findings,
        "where": _where(row), "title": _title(row),
        "rulings": [f["ruling"] for f in r.findings if f.get("ruling")],
        "offences": [_offence(f) for f in r.findings
                     if f["code"][:2] in ("RV", "DT") and f["seat"]],
        "before": _with_score(*result_before(row)),
        "after": _with_score(*result_signed(row)),  # Law 64C's where it assigns one
        "audit": a is not None, "log": None,
        "field": _field(field) if field is not None else None,
    }
    if a is not None:
        out.update(_from_audit(a))
    return out


def _from_audit(a: BoardAudit) -> dict:
    rec, rp = a.record, a.replay
    hands = rec.hands or (None,) * 4
    return {
        "hands": [hand(h) for h in hands],
        "dealer": seat_name(rec.dealer) if rec.dealer is not None else "?",
        "vul": {"None": "none", "NS": "N-S", "EW": "E-W", "All": "both"}.get(rec.vul or "", "?"),
        "auction": auction_rows(rec.auction, rec.dealer),
        "contract": _contract(rec.contract), "declarer": rp.declarer,
        "side": "" if rp.declarer is None else ("N-S" if rp.declarer % 2 == 0 else "E-W"),
        "tricks": _tricks(a), "steps": [s.strip().replace(" -> ", " → ") for s in ruling_steps(a)[1:]],
        "edition": a.ruling.edition, "log": _log(a),
    }


def _field(t: Traveller) -> dict:
    """A board's field as its table shows it: each result's cells, before -> after where
    the adjustments change them, the board's own table marked."""
    def change(before: str, after: str) -> tuple[str, str | None]:
        """(before, after), after None when it is the same."""
        return before, (None if before == after else after)

    rows = [{"room": r.room, "ns": r.ns or "—", "ew": r.ew or "—", "times": r.times,
             "own": r.own, "contract": _contract(r.contract), "declarer": r.declarer,
             "result": change(r.result or "?", r.result_adjusted or "?"),
             "score": change(f"{r.score:+d}", f"{r.score_adjusted:+d}"),
             "figure": (t.figure(r.figure), t.figure(r.figure_adjusted))}
            for r in t.rows]
    rooms = [r.room for r in t.rows if r.room]
    place = ("table" if all(room.isdigit() for room in rooms) else "room") if rooms else None
    return {"how": t.how(), "results": t.results, "unit": "IMPs" if t.imps else "%",
            "board": t.key[3], "rows": rows, "place": place}


def _contract(text: str | None) -> dict | None:
    """``4HX`` as its level, suit (None for NT or a pass) and doubling."""
    if not text:
        return None
    if text == "Pass":
        return {"level": "", "suit": None, "text": "passed out"}
    m = re.match(r"^([1-7])(NT|[SHDC])(X{0,2})$", text)
    if not m:
        return {"level": "", "suit": None, "text": text}
    return {"level": m.group(1), "suit": _STRAIN.get(m.group(2)),
            "text": ("NT" if m.group(2) == "NT" else "") + {"": "", "X": " doubled",
                                                            "XX": " redoubled"}[m.group(3)]}


def _tricks(a: BoardAudit) -> list[dict]:
    """Each trick: its number, leader, entries (seat, card, kind) in time order, winner, the
    declarer's side's running count, and the director's log's bindings there."""
    rp = a.replay
    revokes, extras, bound = play_marks(rp)
    won, out = 0, []
    for t in rp.tricks:
        if t.winner is not None and rp.declarer is not None and t.winner % 2 == rp.declarer % 2:
            won += 1
        entries = [{"seat": SEATS[s], "card": card(c), "kind": kind}
                   for s, c, kind in trick_entries(t, revokes, extras.get(t.number, []))]
        out.append({"number": t.number, "leader": SEATS[t.leader], "entries": entries,
                    "winner": SEATS[t.winner] if t.winner is not None else None, "won": won,
                    "marked": any(e["kind"] in (REVOKE, EXTRA, NONE) for e in entries),
                    "bound": [f"{seat_name(b.seat)}: {b.text}" for b in bound.get(t.number, [])]})
    return out


def _log(a: BoardAudit) -> dict | None:
    facts = a.table_facts
    if facts is None or not facts.lines:
        return None
    rows = [(row.line, row.describe()) for row in sorted(facts.rows, key=lambda r: r.line)]
    if facts.discovered is not None:
        rows.append((facts.discovered_line, f"discovered {facts.discovered} (overrides "
                     "--discovered)"))
    return {"file": decodable(facts.log), "rows": rows}


def _offence(f: dict) -> dict:
    """The offending card of a finding and what the offender held in the suit led."""
    held = [card(_card_of(part)) for part in str(f["held"] or "").split()]
    return {"code": f["code"], "trick": f["trick"], "seat": seat_name(SEATS.index(f["seat"])),
            "player": f["player"], "card": card(_card_of(f["card"])),
            "suit_led": SUITS_INDEX.get(str(f["suit_led"])), "held": held,
            "held_led": all(c is not None and SUITS[c["suit"]] == f["suit_led"] for c in held)}


SUITS_INDEX = {"S": 0, "H": 1, "D": 2, "C": 3}


def _card_of(text: object) -> int | None:
    text = str(text or "")
    if len(text) != 2 or text[0] not in SUITS_INDEX or text[1] not in RANKS:
        return None
    return SUITS_INDEX[text[0]] * 13 + RANKS.index(text[1])


def _where(row: dict) -> list[tuple[str, object]]:
    room = str(row["room"] or "")
    place = ("table " + room) if room.isdigit() else (f"{room} room" if room else "")
    return [(k, v) for k, v in (("file", f"{row['source']}:{row['line']}"),
                                ("event", row["event"]), ("date", row["date"]),
                                ("board", row["board"]), ("table or room", place)) if v]


def _title(row: dict) -> str:
    what = f"Board {row['board']}" if row["board"] else f"Game {row['game']}"
    room = str(row["room"] or "")
    if room:
        what += f", table {room}" if room.isdigit() else f", {room} room"
    return what


def _with_score(result: str | None, score: object) -> str:
    if not result:
        return "?"
    return result if score is None or score == "" else f"{result}, N-S {score}"


# --- the whole run --------------------------------------------------------------------------

@dataclass
class Page:
    """What the page of a run shows, gathered as its rows go by (``add``); the first
    ``MAX_SECTIONS`` irregular boards' rows are kept, every irregular board's index row is
    spooled to disk, the clean ones only counted.  ``settings``: (option, value, what
    it does) for each option that rules the run."""

    sources: Sequence[str]
    options: AuditOptions
    settings: list[tuple[str, str, str]]
    limits: Limits | None = None
    boards: Counter = field(default_factory=Counter)
    codes: Counter = field(default_factory=Counter)
    #: the first ``MAX_SECTIONS`` irregular boards, shown in full
    irregular: list[Rendered] = field(default_factory=list)
    #: the index row of every irregular board, on disk (F15: 157,000 irregular boards kept
    #: whole were 700 MB); None until the first
    index: "_Index | None" = None
    errors: list[dict] = field(default_factory=list)
    errors_total: int = 0
    #: the run's fields (``rescore``), scored by the time the page is written: each rescored
    #: board's section shows its field, the summary the rank changes
    fields: Fields | None = None
    #: The audits the run already holds, by ``board_key``: shown as they are instead of
    #: read again (``watch --html``: each board as the watch ruled it); None: read again.
    audits: dict[tuple, BoardAudit] | None = None
    #: the score corrections to enter (``corrections.Corrections``), listed at the top of the
    #: page; None: not gathered (the watch's page)
    corrections: Corrections | None = None

    def add(self, r: Rendered) -> None:
        """One item of the run: a board (or a run of clean ones), or the log's own findings."""
        if r.row is not None and names_a_board(r.row):  # not a file that gave no board
            self.boards[r.status] += r.boards
        for f in r.findings:
            code = str(f["code"])
            self.codes[code] += 1
            if code.startswith("RC"):
                self.errors_total += 1
                if len(self.errors) < MAX_ERRORS:
                    self.errors.append(_error_row(f))
        if r.status == "irregular":
            if self.index is None:
                self.index = _Index()
            self.index.add(_index_row(r, len(self.index) + 1))
            if len(self.irregular) < MAX_SECTIONS:  # shown in full; the rest in the index
                self.irregular.append(r)

    def sections(self) -> Iterator[dict]:
        """The sections of the irregular boards, in the run's order: the files that hold the
        first ``MAX_SECTIONS`` read again, and those boards audited again with the run's
        options (a board from standard input or a URL is shown from its rows alone)."""
        shown = self.irregular[:MAX_SECTIONS]
        travellers = (Travellers(self.fields.score(), [r.row for r in shown])
                      if self.fields is not None else None)
        audits = _audits(shown, self.sources, self.options, self.limits) \
            if self.audits is None else iter(self.audits.items())
        ready: dict[tuple, BoardAudit] = {}  # audits read ahead of their turn (rarely any)
        for i, r in enumerate(shown, 1):
            key = board_key(r.row)
            while key not in ready:
                item = next(audits, None)
                if item is None:  # not read again (standard input): its rows alone
                    break
                ready[item[0]] = item[1]
            traveller = travellers.of(r.row) if travellers is not None else None
            yield section(r, ready.pop(key, None), i, traveller)

    def pieces(self) -> Iterator[str]:
        """The page's text, piece by piece (written through ``report.Reports``)."""
        template = _environment().get_template("report.html.j2")
        return template.generate(**self.context())

    def context(self) -> dict:
        files = len(self.sources)
        total = sum(self.boards.values())
        return {
            "title": "revoke-audit report", "files": files, "total": total,
            "statuses": [(s, self.boards[s]) for s in STATUSES],
            "chart": _chart(self.codes), "settings": self.settings,
            "index": self.index or [],
            "sections": self.sections(), "max_sections": MAX_SECTIONS,
            "errors": self.errors, "errors_total": self.errors_total,
            "repairs": any(e["repair"] for e in self.errors),
            "ranks": self.rank_changes(),
            "corrections": None if self.corrections is None else self.corrections.items,
        }

    def rank_changes(self) -> list[str] | None:
        """Every pair whose rank the adjustments change, in the text output's words; None
        when the run scored no field."""
        if self.fields is None or not self.fields.score().results:
            return None
        return list(rank_changes(standings(self.fields.score())))


class _Index(Spool):
    """The index rows of the page (``_index_row``), in order, held in a temporary file until
    the page is written: the page's table lists every irregular board of a run of any size, and
    each row waits only for the end of the run, read back once, in order - a file of JSON
    lines is all it takes (no lookup, no grouping)."""

    def __init__(self) -> None:
        super().__init__("the page's index (--html)")

    def __len__(self) -> int:
        return self.count

    def __bool__(self) -> bool:
        return self.count > 0


def board_key(row: dict) -> tuple:
    """A board row's place, (source, line, game): how a section finds its board's audit."""
    return (row["source"], row["line"], row["game"])


def _audits(shown: list[Rendered], sources: Sequence[str], options: AuditOptions,
            limits: Limits | None) -> Iterator[tuple[tuple, BoardAudit]]:
    """The audits of the boards of ``shown`` as (key, audit), in the run's order: each file
    that holds one read once (up to the last of them), one audit held at a time."""
    wanted: dict[str, set[tuple]] = {}
    by_name = {decodable(s): s for s in sources if s != "-" and "://" not in s}
    for r in shown:
        src = _input_of(str(r.row["source"]), by_name)
        if src is not None:
            wanted.setdefault(src, set()).add(board_key(r.row))
    for src, keys in wanted.items():
        for item in read_file(src, limits, plain=True):  # the plainest games kept as text
            key = (decodable(item.source), item.line, item.game)
            if key not in keys:
                continue
            record = item if isinstance(item, BoardRecord) else item.record()
            # an irregular board's record is coherent: the deals of the boards around it,
            # which only name the repair of an incoherent one, change nothing
            yield key, audit_board(record, options)
            keys.discard(key)
            if not keys:  # the rest of the file holds none of them
                break


def _input_of(source: str, by_name: dict[str, str]) -> str | None:
    """The input file a row's source comes from: itself, or the archive before a ``!``."""
    if source in by_name:
        return by_name[source]
    at = source.find("!")
    while at != -1:
        if source[:at] in by_name:
            return by_name[source[:at]]
        at = source.find("!", at + 1)
    return None


def _index_row(r: Rendered, number: int) -> dict:
    row = r.row
    return {"id": f"board-{number}" if number <= MAX_SECTIONS else None,
            "source": f"{row['source']}:{row['line']}", "title": _title(row),
            "codes": ", ".join(sorted({str(f["code"]) for f in r.findings
                                       if f["code"][:2] in ("RV", "DT")})),
            "before": _with_score(*result_before(row)),
            "after": _with_score(*result_signed(row)),
            "basis": row.get("ruling_basis") or ""}


def _error_row(f: dict) -> dict:
    message = str(f["message"] or "")
    m = _REPAIR.search(message)
    return {"source": f"{f['source']}", "line": f["line"], "board": f["board"] or "",
            "code": f["code"], "message": message[:m.start()] if m else message,
            "repair": m.group(1) if m else ""}


def _chart(codes: Counter) -> list[dict]:
    """One bar per code found, most frequent first: its count, title, family, width in %."""
    if not codes:
        return []
    top = max(codes.values())
    ranked = sorted(codes.items(), key=lambda kv: (-kv[1], kv[0]))
    return [{"code": c, "count": n, "title": CODES.get(c, ""), "family": c[:2],
             "family_name": FAMILIES[c[:2]].name, "width": max(1.0, 100.0 * n / top)}
            for c, n in ranked]


# --- entry points -----------------------------------------------------------------------------

def run_settings(options: AuditOptions, *, select: Sequence[str] = (), ignore: Sequence[str] = (),
                 baseline: str | None = None) -> list[tuple[str, str, str]]:
    """The options that rule a run, as (option, value, what it does), for the summary."""
    discovered = ("attention drawn at the table: the automatic transfers of Law 64A"
                  if str(options.discovered) == "table" else
                  "found after the round: no automatic transfer (64B5); 64C may restore equity")
    default = AuditOptions()

    def value(text: str, is_default: bool) -> str:
        return f"{text} (default)" if is_default else text

    out = [("--laws", value(str(options.laws), options.laws == default.laws),
            "the edition of the Laws applied"),
           ("--discovered", value(str(options.discovered),
                                  options.discovered == default.discovered),
            discovered + "; a log row 'discovered table' says table for its board (a ^R mark "
            "does not: producers compute it from the play)"),
           ("--equity" if options.equity else "--no-equity",
            value("on" if options.equity else "off", options.equity == default.equity),
            "Law 64C figures: double dummy had no revoke happened")]
    if options.table_facts is not None:
        out.append(("--table-facts", decodable(options.table_facts.path),
                    "the director's log: penalty cards, restrictions, discovery per board"))
    if select:
        out.append(("--select", ", ".join(select), "only these codes reported"))
    if ignore:
        out.append(("--ignore", ", ".join(ignore), "these codes not reported"))
    if baseline:
        out.append(("--baseline", decodable(baseline), "findings already known are left out"))
    return out


def board_page(a: BoardAudit, field: Traveller | None = None) -> str:
    """The page of one board (``explain --html``): its section alone, with its field
    (``explain.field_of``) when it has one."""
    template = _environment().get_template("board.html.j2")
    s = section(render(a), a, 1, field)
    return template.render(title=f"revoke-audit: {s['title']}", sections=[s])


def write_page(path: str, pieces: Iterable[str]) -> None:
    """Write a page alone (the library's ``html=`` and ``explain --html``), as every output
    is written: a temp file beside it, renamed when complete."""
    from .report import Reports

    with Reports(documents=[path]) as reports:
        reports.commit([pieces])


__all__ = ["Page", "board_key", "board_page", "run_settings", "write_page", "section"]
