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
import gzip
import io
import os
import re
import tarfile
import zipfile
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Iterable, Iterator, Sequence

from .audit import BoardAudit, audit_board
from .cards import SEATS, card_str, deal_str, parse_card
from .codes import level
from .formats import iter_sources, read_stream
from .formats.lin.values import read_md_hands
from .formats.lin.write import _lin_hand
from .options import AuditOptions
from .record import BoardRecord
from .replay import Replay
from .replay.coherence import Mend, mends, turns, with_neighbours

#: The options a repair is checked with: whether a record is coherent does not depend on the
#: edition or on Law 64C's figures (double dummy is left out: it only adds EQ notes).
CHECK = AuditOptions(equity=False)
ARCHIVE_SUFFIXES = (".zip", ".tar", ".tgz", ".tar.gz", ".gz", ".tbz2", ".tar.bz2", ".txz",
                    ".tar.xz")
_BOMS = ((codecs.BOM_UTF32_LE, "utf-32"), (codecs.BOM_UTF32_BE, "utf-32"),
         (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16"))


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
    the source is inside (or is) an archive and is never rewritten."""

    file: str
    original: bytes
    mended: bytes | None = None
    repairs: list[Repair] = field(default_factory=list)
    archive: bool = False

    def diff(self) -> str:
        """A unified diff of the change (``--- file`` / ``+++ file``), "" when none."""
        if self.mended is None:
            return ""
        import difflib

        text = _Text.of(self.original)
        old = text.lines_as_text(text.lines)
        new = text.lines_as_text(_Text.of(self.mended).lines)
        return "".join(difflib.unified_diff(old, new, self.file, self.file))


def repairs(paths: str | os.PathLike | Iterable[str | os.PathLike],
            options: AuditOptions = CHECK) -> list[Repair]:
    """Every record error under ``paths`` that ``fix`` looks at, with its repair (``mended``)
    or the reason it is left untouched (``reason``).  Nothing is written."""
    return [r for plan in plan_paths(paths, options) for r in plan.repairs]


def plan_paths(paths: str | os.PathLike | Iterable[str | os.PathLike],
               options: AuditOptions = CHECK) -> Iterator[FilePlan]:
    """One ``FilePlan`` per PBN or LIN source under ``paths`` (archive members one each)."""
    for path in iter_sources(paths):
        if path == "-" or os.path.isdir(path):
            continue
        for name, data, archive in _blobs(path):
            yield plan_file(name, data, archive=archive, options=options)


def plan_file(file: str, data: bytes, *, archive: bool = False,
              options: AuditOptions = CHECK) -> FilePlan:
    """What ``fix`` would do to one PBN or LIN text (``data``, named ``file``)."""
    plan = FilePlan(file, data, archive=archive)
    text = _Text.of(data)
    audits, found = _audit_with_mends(file, data, options)
    text.boards = len(audits)
    edits: dict[int, tuple[Repair, dict[int, bytes]]] = {}
    for a in audits:
        if a.record.game not in found:
            continue
        repair, lines = _prove(file, text, a, found[a.record.game], options)
        plan.repairs.append(repair)
        if repair.mended:
            edits[a.record.game] = (repair, lines)
    _apply(plan, text, audits, edits, options)
    return plan


# --- proving one board's repair ---------------------------------------------------------------

def _prove(file: str, text: "_Text", a: BoardAudit, found: list[Mend], options: AuditOptions
           ) -> tuple[Repair, dict[int, bytes]]:
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
            problem = _check(file, text, rec, a, lines, options)
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


def _check(file: str, text: "_Text", rec: BoardRecord, a: BoardAudit, lines: dict[int, bytes],
           options: AuditOptions) -> str | None:
    """None when the record mended by ``lines`` audits with every card where it is credited
    and no finding beyond the original's notes; else what is wrong."""
    records = list(_records(file, text.with_lines(lines)))
    same = [r for r in records if r.game == rec.game]
    if len(records) != text.boards or len(same) != 1:
        return "the mended file reads as different boards"
    return _new_findings(a, audit_board(same[0], options))


def _new_findings(before: BoardAudit, after: BoardAudit) -> str | None:
    """What the mended board has that a proven repair may not leave: any revoke, defective
    trick or record error, or any finding the original board did not have."""
    had = Counter(f.code for f in before.findings)
    for f in after.findings:
        if level(f.code) in ("irregular", "inconsistent") or had[f.code] <= 0:
            return f"it leaves {f.code}: {f.message}"
        had[f.code] -= 1
    if not after.replay.coherent:
        return "the play is still not the play of the deal"
    return None


def _apply(plan: FilePlan, text: "_Text", audits: list[BoardAudit],
           edits: dict[int, tuple[Repair, dict[int, bytes]]], options: AuditOptions) -> None:
    """Every proven edit at once, audited again as a whole: a board whose repair does not
    hold with the others (or that changes another board's findings) is left."""
    while edits:
        lines: dict[int, bytes] = {}
        for _, board_lines in edits.values():
            lines.update(board_lines)
        data = text.with_lines(lines)
        after = {m.record.game: m for m in _audit(plan.file, data, options)}
        wrong = [a.record.game for a in audits if a.record.game not in edits
                 and Counter(f.code for f in a.findings)
                 != Counter(f.code for f in after.get(a.record.game, a).findings)]
        bad = [g for g in edits
               if g not in after or _new_findings(_original(audits, g), after[g]) is not None]
        if not bad and not wrong and len(after) == len(audits):
            plan.mended = data
            return
        for g in bad or list(edits):  # another board changed: nothing at once is proven
            repair, _ = edits.pop(g)
            i = plan.repairs.index(repair)
            plan.repairs[i] = replace(repair, mended=False, before="", after="",
                                      reason="the repair does not hold with the file's other "
                                      "repairs")


def _original(audits: list[BoardAudit], game: int) -> BoardAudit:
    return next(a for a in audits if a.record.game == game)


# --- reading and auditing a text ------------------------------------------------------------

def _records(file: str, data: bytes) -> Iterator[BoardRecord]:
    return read_stream(io.BytesIO(data), file, os.path.basename(file.split("!")[-1]))


def _audit(file: str, data: bytes, options: AuditOptions) -> list[BoardAudit]:
    return [audit_board(r, options, n) for r, n in with_neighbours(_records(file, data))]


def _audit_with_mends(file: str, data: bytes, options: AuditOptions
                      ) -> tuple[list[BoardAudit], dict[int, list[Mend]]]:
    """Every board audited, and for each record error (RC016) every simple change that makes
    its play fit (taken while the neighbouring deals are at hand)."""
    audits, found = [], {}
    for record, neighbours in with_neighbours(_records(file, data)):
        a = audit_board(record, options, neighbours)
        audits.append(a)
        if any(f.code == "RC016" for f in a.findings):
            found[record.game] = list(mends(a.replay, neighbours))
    return audits, found


def _blobs(path: str) -> Iterator[tuple[str, bytes, bool]]:
    """(name, bytes, in an archive) for a file, or for each member of a zip, tar or gzip."""
    with open(path, "rb") as fh:
        data = fh.read()
    lower = path.lower()
    if zipfile.is_zipfile(io.BytesIO(data)):
        with zipfile.ZipFile(io.BytesIO(data)) as zf:
            for info in zf.infolist():
                if not info.is_dir():
                    yield f"{path}!{info.filename}", zf.read(info), True
    elif data[:2] == b"\x1f\x8b":
        inner = gzip.decompress(data)
        if _is_tar(inner):
            yield from _tar_members(path, inner)
        else:
            yield path, inner, True
    elif _is_tar(data) or lower.endswith(ARCHIVE_SUFFIXES):
        yield from _tar_members(path, data)
    else:
        yield path, data, False


def _is_tar(data: bytes) -> bool:
    return data[257:262] == b"ustar"


def _tar_members(path: str, data: bytes) -> Iterator[tuple[str, bytes, bool]]:
    try:
        with tarfile.open(fileobj=io.BytesIO(data)) as tf:
            for info in tf:
                if info.isfile():
                    yield f"{path}!{info.name}", tf.extractfile(info).read(), True
    except tarfile.TarError:
        return


# --- the text, as lines that keep their bytes ------------------------------------------------

@dataclass
class _Text:
    """A file's lines as the readers number them, each with its own line end, in a form the
    edits can work on (UTF-8 for a UTF-16/32 file, else the file's own bytes)."""

    lines: list[bytes]
    encoding: str | None  # a BOM's encoding: the file is re-encoded with it
    bom: bytes
    cr: bool  # lines end in a lone CR
    boards: int = 0

    @classmethod
    def of(cls, data: bytes) -> "_Text":
        encoding, bom = None, b""
        for mark, name in _BOMS:
            if data.startswith(mark):
                encoding, bom = name, mark
                data = data.decode(name).encode("utf-8")
                break
        cr = b"\r" in data and b"\n" not in data
        sep = b"\r" if cr else b"\n"
        parts = data.split(sep)
        lines = [p + sep for p in parts[:-1]] + ([parts[-1]] if parts[-1] else [])
        return cls(lines, encoding, bom, cr)

    def join(self, lines: Sequence[bytes]) -> bytes:
        data = b"".join(lines)
        if self.encoding:
            return data.decode("utf-8").encode(self.encoding)  # the codec writes the BOM
        return data

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
