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

import io
import os
from array import array
from collections import Counter
from dataclasses import dataclass, field, fields, replace
from typing import Callable, Iterable, Iterator, NamedTuple

from .audit import BoardAudit, audit_board
from ..core.codes import level
from ..formats import (Limits, RunBudget, SourceText, as_paths, iter_sources, read_stream,
                      read_texts)
from .options import AuditOptions
from ..core.record import BoardRecord
from ..replay.coherence import Mend, mends, with_neighbours
from .repair_text import WINDOW, Edit, _edits, _hunks, _shown, _Text  # noqa: F401 (WINDOW)

#: The options a repair is checked with: whether a record is coherent does not depend on the
#: edition or on Law 64C's figures (double dummy is left out: it only adds EQ notes).
CHECK = AuditOptions(equity=False)


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
    text.locate(survey.kind)
    edits: dict[int, tuple[Repair, Edit]] = {}
    records = {} if text.offsets is not None else _records_of(file, name, data, survey.found)
    for game, (where, found) in survey.found.items():
        record = records.pop(game, None) or _record_at(file, text, game, where)
        if record is None:
            plan.repairs.append(_left(file, where, "", "the board does not read the same on "
                                      "its own"))
            continue
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
    kind: str = ""  # "pbn" or "lin", as the records say
    codes: dict[int, Counter] = field(default_factory=dict)
    starts: array = field(default_factory=lambda: array("q"))
    found: dict[int, tuple["_Where", list[Mend]]] = field(default_factory=dict)


def _survey(file: str, name: str, data: bytes, options: AuditOptions) -> _Survey:
    """Every board audited once, streaming; for each record error (RC016) every simple change
    that makes its play fit (taken while the neighbouring deals are at hand)."""
    survey = _Survey()
    for record, neighbours in with_neighbours(_records(file, name, data)):
        a = audit_board(record, options, neighbours)
        survey.boards += 1
        survey.starts.append(record.line)
        survey.kind = survey.kind or record.format
        if a.findings:
            survey.codes[record.game] = Counter(f.code for f in a.findings)
        if any(f.code == "RC016" for f in a.findings):
            survey.found[record.game] = (_Where(record.line, record.game, record.board,
                                                record.room), list(mends(a.replay, neighbours)))
    return survey


class _Where(NamedTuple):
    """Where a record error is (what a ``Repair`` says of its board)."""

    line: int
    game: int
    board: str
    room: str


def _record_at(file: str, text: _Text, game: int, where: _Where) -> BoardRecord | None:
    """Board ``game`` read again with the board either side (the one before gives a ``#``
    value), its lines and game number as in the whole file; None when it does not read the
    same there (not where the survey read it)."""
    window = text.window(game, {}, width=1)
    if window is None:
        return None
    data, shift, first, _ = window
    for r in _records(file, text.name, data):
        if r.game == game - first + 1:
            r = _moved(r, -shift, first - 1)
            return r if (r.line, r.board, r.room) == (where.line, where.board, where.room) \
                else None
    return None


def _moved(r: BoardRecord, lines: int, games: int) -> BoardRecord:
    """``r`` with its line numbers moved by ``lines`` and its game number by ``games``."""
    moved = {f.name: getattr(r, f.name) + lines for f in fields(r)
             if f.name.endswith("_line") and getattr(r, f.name)}
    play = type(r.play)(p._replace(line=p.line + lines) if p.line else p for p in r.play)
    return replace(r, line=r.line + lines, game=r.game + games, play=play, **moved)


def _records_of(file: str, name: str, data: bytes, games) -> dict[int, BoardRecord]:
    """The records of ``games`` (the record errors of a text whose boards share lines, which
    cannot be read alone): one pass over the whole text."""
    return {r.game: r for r in _records(file, name, data) if r.game in games}


# --- proving one board's repair ---------------------------------------------------------------

def _prove(file: str, text: "_Text", a: BoardAudit, found: list[Mend], had: Counter,
           options: AuditOptions) -> tuple[Repair, Edit]:
    """The one proven repair of board ``a`` among the changes ``found``, or the reason there
    is none."""
    rec = a.record
    if not found:
        return _left(file, rec, "", "no simple change makes the play fit the deal"), []
    proven: list[tuple[Mend, str, Edit]] = []
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
                     "not proven"), []
    if not proven:
        return _left(file, rec, found[0].kind, "no repair leaves the record clean ("
                     + "; ".join(dict.fromkeys(problems)) + ")"), []
    mend, detail, lines = proven[0]
    before, after = text.shown(rec.game, lines)
    return Repair(file, rec.line, rec.game, rec.board, rec.room, mend.kind,
                  mend.text + (f" (the card missing: {detail.strip()})" if detail else ""),
                  before, after), lines


def _left(file: str, rec: BoardRecord, what: str, reason: str) -> Repair:
    return Repair(file, rec.line, rec.game, rec.board, rec.room, what, "", mended=False,
                  reason=reason)


def _check(file: str, text: "_Text", rec: BoardRecord, had: Counter, lines: Edit,
           options: AuditOptions) -> str | None:
    """None when the record mended by ``lines`` audits with every card where it is credited
    and no finding beyond the original's notes; else what is wrong.  Read and audited in its
    window (``WINDOW`` boards either side, after the lines before the first board): the cost
    of a proof does not grow with the file; ``_apply`` audits the whole file at the end."""
    window = text.window(rec.game, lines)
    if window is None:  # boards that share a line (a LIN file on one line): the whole text
        data, shift, first, boards = text.with_edit(lines), 0, 1, text.boards
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
           edits: dict[int, tuple[Repair, Edit]], options: AuditOptions) -> None:
    """Every proven edit at once, the whole file audited again (streaming): a board whose
    repair does not hold with the others (or that changes another board's findings) is left."""
    where = {id(r): i for i, r in enumerate(plan.repairs)}

    def leave(games: list[int]) -> None:
        for g in games:
            repair, _ = edits.pop(g)
            plan.repairs[where[id(repair)]] = replace(
                repair, mended=False, before="", after="",
                reason="the repair does not hold with the file's other repairs")

    while edits:
        games = list(edits)
        edit, overlap = text.merged([edits[g][1] for g in games])
        if overlap:  # two boards' changes of the same bytes: the later ones are left
            leave([games[i] for i in overlap])
            continue
        data = text.with_edit(edit)
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
            plan.mended, plan.changed, plan.text = data, text.changed_lines(edit), text
            return
        leave(bad or list(edits))  # another board changed: nothing at once is proven


# --- reading and auditing a text ------------------------------------------------------------

def _records(file: str, name: str, data: bytes) -> Iterator[BoardRecord]:
    return read_stream(io.BytesIO(data), file, name)
