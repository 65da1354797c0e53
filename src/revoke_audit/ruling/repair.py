"""Record errors with one proven repair -> the mended text (``revoke-audit fix``), as data first.

A board whose record is not the play of its deal (RC016) often has one simple change that
makes the whole play coherent: ``replay.coherence.mends`` finds every such change (hands
rotated, another board's deal, a PBN play table in time order, one card missing or doubled in
a LIN sequence).  Here each change becomes an edit of the file's own lines, and is kept only
when it is *proven*: exactly one change fits, and the mended record, read and audited again,
has every card held by the player it is credited to and no finding of any kind that makes a
board irregular or inconsistent, nor any the original board did not have.  A board with two
possible repairs, or one that leaves a finding, is not touched: it is listed with the reason.

Only the changed tags (``md``, ``Deal``, ``pc``) or play lines change; every other byte of
the file, its encoding and its line ends stay as they are.  Nothing here writes a file:
``plan_file`` gives the mended bytes, and the command decides what to do with them.
"""
from __future__ import annotations

import codecs
import io
import os
import re
from array import array
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Callable, Iterable, Iterator, Sequence

from .audit import BoardAudit, audit_board
from ..core.cards import SEATS, card_str, deal_str, parse_card
from ..core.codes import level
from ..formats import (Limits, RunBudget, SourceText, as_paths, iter_sources, read_stream,
                      read_texts)
from ..formats.lin.values import read_md_hands
from ..formats.lin.write import _lin_hand
from .options import AuditOptions
from ..core.record import BoardRecord
from ..replay import Replay
from ..replay.coherence import Mend, mends, turns, with_neighbours

#: The options a repair is checked with: whether a record is coherent does not depend on the
#: edition or on Law 64C's figures (double dummy is left out: it only adds EQ notes).
CHECK = AuditOptions(equity=False)
#: The exact codec of each byte order mark: a file is written back in its own byte order.
_BOMS = ((codecs.BOM_UTF32_LE, "utf-32-le"), (codecs.BOM_UTF32_BE, "utf-32-be"),
         (codecs.BOM_UTF16_LE, "utf-16-le"), (codecs.BOM_UTF16_BE, "utf-16-be"))
#: Boards either side of a mended one read and audited again with it, to prove the change
#: (``replay.coherence``'s neighbours are 32 either side; a PBN ``#`` tag copies the previous
#: game's): the proof of one board costs the same in a file of any size.
WINDOW = 33


@dataclass(frozen=True)
class Repair:
    """One board's record error and what ``fix`` does about it.

    ``file``: the source as the audit names it (``archive.zip!member`` inside an archive);
    ``line``, ``game``, ``board``, ``room``: the board.  ``what``: the kind of change
    (``rotated``, ``deal``, ``time-order``, ``missing``, ``doubled``); ``before`` / ``after``:
    the changed lines, as text.  ``mended``: the change is proven and applied; otherwise
    ``reason`` says why the board is left untouched."""

    file: str
    line: int
    game: int
    board: str
    room: str
    what: str
    description: str
    before: str = ""
    after: str = ""
    mended: bool = True
    reason: str = ""


@dataclass
class FilePlan:
    """What ``fix`` would do to one source: its bytes before and after, and every board's
    repair (or the reason it is left).  ``mended`` is None when nothing changes; ``archive``:
    the source is inside (or is) an archive and is never rewritten; ``left``: why the whole
    source is not looked at (it cannot be read whole, as ``audit`` reports it)."""

    file: str
    original: bytes
    mended: bytes | None = None
    repairs: list[Repair] = field(default_factory=list)
    archive: bool = False
    left: str = ""
    changed: dict[int, bytes] = field(default_factory=dict)  # 0-based line -> its new bytes
    text: "_Text | None" = field(default=None, repr=False, compare=False)  # original's lines

    def diff(self, show: Callable[[str], str] = lambda s: s) -> str:
        """A unified diff of the change (``--- file`` / ``+++ file``), "" when none: the
        changed lines with three lines of context, found from the edits themselves (a line
        for a line), so its cost is that of the changed lines.  ``show``: how a name or a line
        of the file is shown (``visible.visible`` for a terminal)."""
        if self.mended is None or not self.changed:
            return ""
        text = self.text or _Text.of(self.original)
        old = text.lines
        changed = {k: v for k, v in self.changed.items() if old[k] != v}
        out = [f"--- {show(self.file)}\n", f"+++ {show(self.file)}\n"]
        for lo, hi in _hunks(sorted(changed), len(old)):
            out.append(f"@@ -{lo + 1},{hi - lo} +{lo + 1},{hi - lo} @@\n")
            minus: list[str] = []
            plus: list[str] = []
            for k in range(lo, hi + 1):  # a run of changed lines: its old lines, then its new
                if k < hi and k in changed:
                    minus.append("-" + _shown(text, old[k], show))
                    plus.append("+" + _shown(text, changed[k], show))
                    continue
                out += minus + plus
                minus, plus = [], []
                if k < hi:
                    out.append(" " + _shown(text, old[k], show))
        return "".join(out)


def _hunks(changed: list[int], n: int, context: int = 3) -> Iterator[tuple[int, int]]:
    """(first, end) line ranges around the ``changed`` lines, ``context`` lines either side,
    merged where they touch (as ``diff -u`` does)."""
    lo = hi = None
    for k in changed:
        a, b = max(0, k - context), min(n, k + context + 1)
        if hi is not None and a <= hi:
            hi = b
            continue
        if lo is not None:
            yield lo, hi
        lo, hi = a, b
    if lo is not None:
        yield lo, hi


def _shown(text: "_Text", line: bytes, show: Callable[[str], str]) -> str:
    """A line of the file for the diff: decoded, its line end dropped and shown through
    ``show``, then ending in ``\\n``."""
    s = text.decode(line)
    return show(s[:-2] if s.endswith("\r\n") else s.rstrip("\r\n")) + "\n"


def repairs(paths: str | os.PathLike | Iterable[str | os.PathLike],
            options: AuditOptions = CHECK, limits: Limits | None = None) -> list[Repair]:
    """Every record error under ``paths`` that ``fix`` looks at, with its repair (``mended``)
    or the reason it is left untouched (``reason``).  Nothing is written."""
    return [r for plan in plan_paths(paths, options, limits) for r in plan.repairs]


def plan_paths(paths: str | os.PathLike | Iterable[str | os.PathLike],
               options: AuditOptions = CHECK, limits: Limits | None = None
               ) -> Iterator[FilePlan]:
    """One ``FilePlan`` per PBN or LIN source under ``paths`` (archive members one each), read
    as ``audit`` reads them (``formats.read_texts``: the same sniffing and ``Limits``); a
    source that cannot be read whole gets a plan with the reason (``left``).  ValueError for
    ``-``: standard input cannot be mended."""
    paths = as_paths(paths)
    if "-" in paths:
        raise ValueError("'-' (standard input) cannot be mended: name the file")
    limits = limits or Limits()
    run = RunBudget(limits.run_bytes)
    for path in iter_sources(paths):
        if os.path.isdir(path):
            continue
        for item in read_texts(path, limits, run):
            if isinstance(item, SourceText):
                yield plan_file(item.source, item.data, archive=item.archive, options=options,
                                name=item.name)
            elif item.unreadable and item.diagnostics \
                    and item.diagnostics[0].code not in _NOT_RECORDS:
                d = item.diagnostics[0]
                yield FilePlan(item.source, b"", left=f"{d.code} {d.message}")


#: Rows of ``audit`` that say a file or member is not a hand record at all: nothing to mend.
_NOT_RECORDS = frozenset(("PS003", "PS007", "PS010", "PS011"))


def plan_file(file: str, data: bytes, *, archive: bool = False,
              options: AuditOptions = CHECK, name: str | None = None) -> FilePlan:
    """What ``fix`` would do to one PBN or LIN text (``data``, named ``file``)."""
    plan = FilePlan(file, data, archive=archive)
    name = name if name is not None else os.path.basename(file.split("!")[-1])
    survey = _survey(file, name, data, options)
    if not survey.found:
        return plan
    try:
        text = _Text.of(data)
    except UnicodeDecodeError as exc:
        plan.repairs = [_left(file, rec, "", f"the file's text is not valid "
                              f"{exc.encoding.upper()} ({exc.reason}): it cannot be rewritten "
                              "exactly") for rec, _ in survey.found.values()]
        return plan
    text.name, text.starts = name, survey.starts
    text.ordered = all(a < b for a, b in zip(survey.starts, survey.starts[1:]))
    edits: dict[int, tuple[Repair, dict[int, bytes]]] = {}
    for game, (record, found) in survey.found.items():
        a = audit_board(record, options)  # again, for its replay: kept only while it is proved
        repair, lines = _prove(file, text, a, found, survey.codes[game], options)
        plan.repairs.append(repair)
        if repair.mended:
            edits[game] = (repair, lines)
    _apply(plan, text, survey, edits, options)
    return plan


@dataclass
class _Survey:
    """What the audit of a whole text leaves for its plan, no more: its number of boards, each
    board's finding codes (only boards with findings), each board's first line (for the proof's
    window), and the record and possible changes of each record error (RC016); no audit is
    kept (an audit with its replay is tens of KB: 5,000 record errors held 250 MB)."""

    boards: int = 0
    codes: dict[int, Counter] = field(default_factory=dict)
    starts: array = field(default_factory=lambda: array("q"))
    found: dict[int, tuple[BoardRecord, list[Mend]]] = field(default_factory=dict)


def _survey(file: str, name: str, data: bytes, options: AuditOptions) -> _Survey:
    """Every board audited once, streaming; for each record error (RC016) every simple change
    that makes its play fit (taken while the neighbouring deals are at hand)."""
    survey = _Survey()
    for record, neighbours in with_neighbours(_records(file, name, data)):
        a = audit_board(record, options, neighbours)
        survey.boards += 1
        survey.starts.append(record.line)
        if a.findings:
            survey.codes[record.game] = Counter(f.code for f in a.findings)
        if any(f.code == "RC016" for f in a.findings):
            survey.found[record.game] = (record, list(mends(a.replay, neighbours)))
    return survey


# --- proving one board's repair ---------------------------------------------------------------

def _prove(file: str, text: "_Text", a: BoardAudit, found: list[Mend], had: Counter,
           options: AuditOptions) -> tuple[Repair, dict[int, bytes]]:
    """The one proven repair of board ``a`` among the changes ``found``, or the reason there
    is none."""
    rec = a.record
    if not found:
        return _left(file, rec, "", "no simple change makes the play fit the deal"), {}
    proven: list[tuple[Mend, str, dict[int, bytes]]] = []
    problems: list[str] = []
    for mend in found:
        for detail, lines in _edits(text, a.replay, mend):
            if lines is None:
                problems.append(f"{mend.kind}: the record's text is not laid out as expected")
                continue
            if any(lines == done for _, _, done in proven):
                continue  # the same change found twice (a neighbour's deal is the rotation)
            problem = _check(file, text, rec, had, lines, options)
            if problem is None:
                proven.append((mend, detail, lines))
            else:
                problems.append(f"{mend.kind}{detail}: {problem}")
    if len(proven) > 1:
        kinds = ", ".join(sorted({m.kind for m, _, _ in proven}))
        which = ", ".join(f"{m.kind}{d}" for m, d, _ in proven)
        return _left(file, rec, kinds, f"{len(proven)} different repairs fit ({which}): "
                     "not proven"), {}
    if not proven:
        return _left(file, rec, found[0].kind, "no repair leaves the record clean ("
                     + "; ".join(dict.fromkeys(problems)) + ")"), {}
    mend, detail, lines = proven[0]
    before = "".join(text.decode(text.lines[i]) for i in sorted(lines))
    after = "".join(text.decode(lines[i]) for i in sorted(lines))
    return Repair(file, rec.line, rec.game, rec.board, rec.room, mend.kind,
                  mend.text + (f" (the card missing: {detail.strip()})" if detail else ""),
                  before, after), lines


def _left(file: str, rec: BoardRecord, what: str, reason: str) -> Repair:
    return Repair(file, rec.line, rec.game, rec.board, rec.room, what, "", mended=False,
                  reason=reason)


def _check(file: str, text: "_Text", rec: BoardRecord, had: Counter, lines: dict[int, bytes],
           options: AuditOptions) -> str | None:
    """None when the record mended by ``lines`` audits with every card where it is credited
    and no finding beyond the original's notes; else what is wrong.  Read and audited in its
    window (``WINDOW`` boards either side, after the lines before the first board): the cost
    of a proof does not grow with the file; ``_apply`` audits the whole file at the end."""
    window = text.window(rec.game, lines)
    if window is None:  # boards that share a line (a LIN file on one line): the whole text
        data, shift, first, boards = text.with_lines(lines), 0, 1, text.boards
    else:
        data, shift, first, boards = window
    records = list(_records(file, text.name, data))
    same = [r for r in records if r.game == rec.game - first + 1 and r.line == rec.line + shift]
    if len(records) != boards or len(same) != 1:
        return "the mended file reads as different boards"
    return _new_findings(had, audit_board(same[0], options, _deals(records, same[0])))


def _deals(records: list[BoardRecord], record: BoardRecord):
    """The neighbouring deals of ``record`` among ``records`` (as ``with_neighbours`` gives)."""
    for r, neighbours in with_neighbours(records):
        if r is record:
            return neighbours
    return None


def _new_findings(before: Counter, after: BoardAudit) -> str | None:
    """What the mended board has that a proven repair may not leave: any revoke, defective
    trick or record error, or any finding the original board did not have (``before``: its
    codes, counted)."""
    had = Counter(before)
    for f in after.findings:
        if level(f.code) in ("irregular", "inconsistent") or had[f.code] <= 0:
            return f"it leaves {f.code}: {f.message}"
        had[f.code] -= 1
    if not after.replay.coherent:
        return "the play is still not the play of the deal"
    return None


def _apply(plan: FilePlan, text: "_Text", survey: _Survey,
           edits: dict[int, tuple[Repair, dict[int, bytes]]], options: AuditOptions) -> None:
    """Every proven edit at once, the whole file audited again (streaming): a board whose
    repair does not hold with the others (or that changes another board's findings) is left."""
    while edits:
        lines: dict[int, bytes] = {}
        for _, board_lines in edits.values():
            lines.update(board_lines)
        data = text.with_lines(lines)
        bad, wrong, seen, boards = [], False, set(), 0
        for record, neighbours in with_neighbours(_records(plan.file, text.name, data)):
            a = audit_board(record, options, neighbours)
            boards += 1
            g = record.game
            if g in edits:
                seen.add(g)
                if _new_findings(survey.codes[g], a) is not None:
                    bad.append(g)
            elif Counter(f.code for f in a.findings) != survey.codes.get(g, Counter()):
                wrong = True
        bad += [g for g in edits if g not in seen]
        if not bad and not wrong and boards == survey.boards:
            plan.mended, plan.changed, plan.text = data, lines, text
            return
        for g in bad or list(edits):  # another board changed: nothing at once is proven
            repair, _ = edits.pop(g)
            i = plan.repairs.index(repair)
            plan.repairs[i] = replace(repair, mended=False, before="", after="",
                                      reason="the repair does not hold with the file's other "
                                      "repairs")


# --- reading and auditing a text ------------------------------------------------------------

def _records(file: str, name: str, data: bytes) -> Iterator[BoardRecord]:
    return read_stream(io.BytesIO(data), file, name)


# --- the text, as lines that keep their bytes ------------------------------------------------

@dataclass
class _Text:
    """A file's lines as the readers number them, each with its own line end, in a form the
    edits can work on (UTF-8 for a UTF-16/32 file, else the file's own bytes)."""

    lines: list[bytes]
    encoding: str | None  # a BOM's exact codec (byte order): the file is re-encoded with it
    bom: bytes
    cr: bool  # lines end in a lone CR
    name: str = ""  # the name the readers tell PBN from LIN by
    starts: Sequence[int] = ()  # each board's first line (1-based), in order

    ordered: bool = False  # each board starts on a line after the one before: windows work

    @property
    def boards(self) -> int:
        return len(self.starts)

    @classmethod
    def of(cls, data: bytes) -> "_Text":
        """``data`` as lines; a ``UnicodeDecodeError`` when a UTF-16/32 text does not decode
        exactly (a lone surrogate, an odd length): it could not be written back as it was."""
        encoding, bom = None, b""
        for mark, name in _BOMS:
            if data.startswith(mark):
                encoding, bom = name, mark
                data = data[len(mark):].decode(name).encode("utf-8")
                break
        cr = b"\r" in data and b"\n" not in data
        sep = b"\r" if cr else b"\n"
        parts = data.split(sep)
        lines = [p + sep for p in parts[:-1]] + ([parts[-1]] if parts[-1] else [])
        return cls(lines, encoding, bom, cr)

    def join(self, lines: Sequence[bytes]) -> bytes:
        data = b"".join(lines)
        if self.encoding:
            return self.bom + data.decode("utf-8").encode(self.encoding)
        return data

    def window(self, game: int, changed: dict[int, bytes]
               ) -> tuple[bytes, int, int, int] | None:
        """The text of board ``game``'s window with ``changed`` applied: the lines before the
        first board, then ``WINDOW`` boards either side.  With it, how far its lines moved, the
        window's first game and its number of boards; None when the boards do not each start
        on a line of their own or a change falls outside the window."""
        starts, i = self.starts, game - 1
        if not 0 <= i < len(starts) or not self.ordered:
            return None
        lo, hi = max(0, i - WINDOW), min(len(starts), i + WINDOW + 1)
        head_end, top = starts[0] - 1, starts[lo] - 1 if lo else 0
        bottom = starts[hi] - 1 if hi < len(starts) else len(self.lines)
        if any(not (top <= k < bottom or k < head_end) for k in changed):
            return None
        picked = range(head_end) if lo else range(0)
        order = list(picked) + list(range(top, bottom))
        data = self.join([changed.get(k, self.lines[k]) for k in order])
        return data, len(picked) - top, lo + 1, hi - lo

    def with_lines(self, changed: dict[int, bytes]) -> bytes:
        """The file with line ``i`` (0-based) replaced by ``changed[i]``."""
        return self.join([changed.get(i, line) for i, line in enumerate(self.lines)])

    def decode(self, line: bytes) -> str:
        try:
            return line.decode("utf-8")
        except UnicodeDecodeError:
            return line.decode("cp1252", errors="replace")

    def lines_as_text(self, lines: Sequence[bytes]) -> list[str]:
        """Lines for a diff: decoded, each ending in ``\\n`` (a CR kept as it is shown)."""
        out = []
        for line in lines:
            s = self.decode(line)
            out.append(s if s.endswith("\n") else (s[:-1] if s.endswith("\r") else s) + "\n")
        return out


# --- one change as edits of the file's lines ---------------------------------------------------

_MD = re.compile(rb"(?i)(?<![a-z])md\|([^|]*)\|")
_DEAL = re.compile(rb'(\[\s*Deal\s+")([^"]*)("\s*\])')
_PC = re.compile(rb"(?i)(?<![a-z])pc\|([^|]*)\|")
_UNIT = re.compile(rb"(?:\^\S+\s+)*[^\s^]+")


def _edits(text: _Text, r: Replay, mend: Mend) -> Iterator[tuple[str, dict[int, bytes] | None]]:
    """The line edits (0-based line -> new bytes) that make ``mend``, each with what it
    chooses (" SQ": the card written); None when the text is not laid out as the change
    needs.  A missing LIN card gives one edit per card that may be it."""
    rec = r.record
    if mend.kind in ("rotated", "deal"):
        yield "", _deal_edit(text, rec, mend.hands)
    elif mend.kind == "time-order":
        yield "", _time_order_edit(text, r)
    elif mend.kind == "doubled":
        yield "", _pc_edit(text, rec, mend.at, None)
    elif mend.kind == "missing":
        seat = next(s for p, s, _ in turns(r, rec.play, skip=mend.at) if p is None)
        played = {p.card for p in rec.play if p.card is not None}
        hand = rec.hands[seat] or 0
        for card in range(52):
            if hand >> card & 1 and card not in played:
                yield f" {card_str(card)}", _pc_edit(text, rec, mend.at, card)


def _line(text: _Text, number: int | None) -> tuple[int, bytes] | None:
    if number is None or not 1 <= number <= len(text.lines):
        return None
    return number - 1, text.lines[number - 1]


def _deal_edit(text: _Text, rec: BoardRecord, hands: tuple[int, ...]) -> dict[int, bytes] | None:
    found = _line(text, rec.deal_line)
    if found is None:
        return None
    i, line = found
    if rec.format == "pbn":
        spans = list(_DEAL.finditer(line))
        if len(spans) != 1:
            return None
        m = spans[0]
        value = m.group(2).decode("ascii", "replace").strip()
        first = SEATS.index(value[0].upper()) if value[:1].upper() in SEATS and value[1:2] == ":" \
            else 0
        new = deal_str(hands, first).encode("ascii")
        return {i: line[:m.start(2)] + new + line[m.end(2):]}
    spans = [m for m in _MD.finditer(line)
             if read_md_hands(m.group(1).decode("latin-1"), 0, lambda *a: None)[1]
             == tuple(rec.hands)] or list(_MD.finditer(line))
    if len(spans) != 1:
        return None
    m = spans[0]
    value = m.group(1).decode("latin-1")
    dealer = value[0] if value[:1].isdigit() else ""
    seats = (2, 3, 0, 1)  # S, W, N, E
    body = value[len(dealer):].rstrip(",")
    written = ",".join(_lin_hand(hands[s]) for s in seats[:max(3, body.count(",") + 1)])
    return {i: line[:m.start(1)] + (dealer + written).encode("ascii") + line[m.end(1):]}


def _pc_spans(text: _Text, line: int, card: int) -> tuple[int, bytes, list[re.Match]] | None:
    found = _line(text, line)
    if found is None:
        return None
    i, raw = found
    spans = [m for m in _PC.finditer(raw)
             if parse_card(m.group(1).decode("latin-1")) == card]
    return i, raw, spans


def _pc_edit(text: _Text, rec: BoardRecord, at: int, missing: int | None
             ) -> dict[int, bytes] | None:
    """``missing`` None: remove the ``pc`` of ``rec.play[at]``; else write ``pc|missing|``
    just before it (in the case the record writes its cards)."""
    p = rec.play[at]
    same = [k for k, q in enumerate(rec.play) if (q.line, q.card) == (p.line, p.card)]
    found = _pc_spans(text, p.line, p.card)
    if found is None or len(found[2]) != len(same):
        return None  # the line's pc tokens are not the record's cards (one each, in order)
    i, raw, spans = found
    m = spans[same.index(at)]
    if missing is None:
        return {i: raw[:m.start()] + raw[m.end():]}
    token = card_str(missing)
    if m.group(1).islower():
        token = token.lower()
    key = m.group(0)[:3].decode("ascii")
    return {i: raw[:m.start()] + f"{key}{token}|".encode("ascii") + raw[m.start():]}


def _time_order_edit(text: _Text, r: Replay) -> dict[int, bytes] | None:
    """Each play line rewritten in seat columns from ``[Play]``'s seat: every card moves to the
    column of the player who played it in time order."""
    rec = r.record
    leader0 = rec.play_leader
    if any(p.card is None or p.seat is None for p in rec.play):
        return None
    seat_of = {(p.line, p.card): seat for p, seat, _ in turns(r, rec.play, time_order=True)
               if p is not None}
    if len(seat_of) != len(rec.play):
        return None
    by_line: dict[int, list] = {}
    for p in rec.play:
        by_line.setdefault(p.line, []).append(p)
    out: dict[int, bytes] = {}
    for number, plays in by_line.items():
        found = _line(text, number)
        if found is None:
            return None
        i, raw = found
        units = [m for m in _UNIT.finditer(raw) if m.group(0) != b"*"]
        if len(units) != len(plays):
            return None
        plays = sorted(plays, key=lambda p: (p.seat - leader0) % 4)
        slots = [b"-"] * 4
        for p, m in zip(plays, units):
            slots[(seat_of[(p.line, p.card)] - leader0) % 4] = m.group(0)
        if len(units) == 4:
            pieces, end = [], 0
            for m, new in zip(units, slots):
                pieces += [raw[end:m.start()], new]
                end = m.end()
            out[i] = b"".join(pieces) + raw[end:]
        else:
            out[i] = raw[:units[0].start()] + b" ".join(slots) + raw[units[-1].end():]
    return out
