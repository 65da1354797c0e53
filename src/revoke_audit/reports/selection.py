"""Which findings count: ``select`` / ``ignore`` / ``extend_select`` by code or prefix, as ruff
chooses its rules.

A finding that is not selected is dropped before anything is counted: it is not reported, does
not count toward its board's status or the count columns, and cannot fail a run.  The ruling
itself is untouched: an ignored revoke still has its tricks transferred (``tricks_adjusted``),
since what the Laws say does not depend on what a user wants to see.

Rules (ruff's): ``select`` replaces the default (every code), ``extend_select`` adds to it,
``ignore`` takes away; when a code matches both sides, the longer (more specific) prefix wins,
and on a tie ``ignore`` wins.  ``ALL`` stands for every code."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable, Iterator, Sequence

from ..core.codes import CODES, FAMILIES, board_status, family, play_checked

ALL = "ALL"


def check_prefixes(prefixes: Iterable[str], what: str = "code") -> tuple[str, ...]:
    """Upper-cased prefixes; ValueError for one that no registered code starts with."""
    out = []
    for raw in prefixes:
        p = str(raw).strip().upper()
        if p != ALL and not any(code.startswith(p) for code in CODES):
            raise ValueError(f"unknown {what} or prefix {raw!r}: no finding code starts with it "
                             f"(families: {', '.join(FAMILIES)}; codes like RV001)")
        out.append(p)
    return tuple(out)


@dataclass(frozen=True)
class Selection:
    """The codes a run reports.  ``Selection()`` selects every code."""

    select: tuple[str, ...] = (ALL,)
    ignore: tuple[str, ...] = ()
    extend_select: tuple[str, ...] = ()

    @classmethod
    def of(cls, select: Sequence[str] | None = None, ignore: Sequence[str] | None = None,
           extend_select: Sequence[str] | None = None) -> "Selection":
        """A checked selection; ``select`` None (or empty) means every code."""
        return cls(check_prefixes(select) if select else (ALL,),
                   check_prefixes(ignore or ()), check_prefixes(extend_select or ()))

    def selects(self, code: str) -> bool:
        """True when findings with ``code`` are reported."""
        chosen = _longest(code, self.select + self.extend_select)
        dropped = _longest(code, self.ignore)
        return chosen > dropped

    @property
    def everything(self) -> bool:
        return self.select == (ALL,) and not self.ignore

    def codes(self) -> list[str]:
        """Every registered code this selection reports."""
        return [c for c in CODES if self.selects(c)]


def _longest(code: str, prefixes: Iterable[str]) -> int:
    """Length of the longest prefix matching ``code`` (ALL counts 0), or -1 when none does."""
    best = -1
    for p in prefixes:
        if p == ALL:
            best = max(best, 0)
        elif code.startswith(p):
            best = max(best, len(p))
    return best


Keep = Callable[[dict[str, object]], bool]


def restate(row: dict[str, object], findings: list[dict[str, object]]) -> dict[str, object]:
    """A boards.csv row with its count columns and status recomputed from ``findings``."""
    counts = {fam.column: 0 for fam in FAMILIES.values() if fam.column}
    for f in findings:
        column = FAMILIES[family(str(f["code"]))].column
        if column:
            counts[column] += 1
    status = board_status((str(f["code"]) for f in findings), row["status"] == "unreadable",
                          play_checked(str(row.get("play")), str(row.get("contract") or "")))
    return dict(row, **counts, status=status)


def filter_rendered(rendered: Iterable, keep: Keep) -> Iterator:
    """``Rendered`` boards with only the findings ``keep`` accepts, rows restated."""
    for r in rendered:
        kept = [f for f in r.findings if keep(f)]
        if len(kept) == len(r.findings):
            yield r
        elif r.row is None:  # the log's own findings, the fields' notes: no row to restate
            if kept:
                yield _rowless(r, kept)
        else:
            yield r.restated(kept, restate(r.row, kept))


def _rowless(r, kept: list[dict[str, object]]):
    """An item without a board row with the findings ``kept``; the fields' notes keep the
    line of ``--format jsonl`` they go in (``gather.FieldNotes.line``)."""
    out = r.restated(kept)
    if hasattr(r, "line"):
        out.line = r.line
    return out


def screen(rendered: Iterable, selection: Selection | None = None, baseline=None,
           record: Keep | None = None) -> Iterator:
    """Boards with the findings a run reports: those ``selection`` selects, then (after
    ``record`` has seen them, for ``--write-baseline``) those not in ``baseline``."""
    if selection is not None and not selection.everything:
        rendered = filter_rendered(rendered, lambda f: selection.selects(str(f["code"])))
    if record is not None:
        rendered = filter_rendered(rendered, record)
    if baseline is not None:
        rendered = filter_rendered(rendered, lambda f: not baseline.known(f))
    return rendered
