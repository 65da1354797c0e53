"""One PBN game while it is read: its tags, section tokens and problems so far, and what
the lines after a tag hold."""
from __future__ import annotations

from ...core.findings import Finding

MAX_GAME_LINES = 5000
MAX_GAME_BYTES = 1 << 20
MAX_DIAGNOSTICS = 100  # per game, and outside games per file; the rest are counted (PS009)


class Game:
    """What has been read of one game so far (mutable, discarded at the end of the game)."""

    __slots__ = ("line", "tags", "tag_lines", "auction", "play", "diags", "nlines", "nbytes",
                 "stray_line", "stray_count", "suppressed", "score_rows")

    def __init__(self, line: int) -> None:
        self.line = line  # first tag's line once a tag is seen; else the block's first line
        self.tags: dict[str, str] = {}
        self.tag_lines: dict[str, int] = {}
        self.auction: list[tuple[str, int]] = []
        self.play: list[tuple[str, int]] = []
        self.score_rows: list[str] = []  # the ScoreTable's lines, cells joined by a space
        self.diags: list[Finding] = []
        self.nlines = 0
        self.nbytes = 0
        self.stray_line = 0
        self.stray_count = 0
        self.suppressed = 0

    def add(self, d: Finding) -> None:
        """File a diagnostic (the first ``MAX_DIAGNOSTICS``; the rest are only counted)."""
        if len(self.diags) < MAX_DIAGNOSTICS:
            self.diags.append(d)
        else:
            self.suppressed += 1

    def all_diagnostics(self) -> tuple[Finding, ...]:
        """The filed diagnostics, plus a PS009 count of the suppressed ones."""
        if not self.suppressed:
            return tuple(self.diags)
        return tuple(self.diags) + (Finding(
            "PS009", f"{self.suppressed} more problems in this game not reported",
            self.diags[-1].line),)

    def is_empty(self, name: str) -> bool:
        """Whether tag ``name`` has no content yet (Auction/Play: no tokens)."""
        if name == "Auction":
            return not self.auction
        if name == "Play":
            return not self.play
        return self.tags.get(name, "") == ""


def is_table(name: str) -> bool:
    """``OptimumResultTable`` and the like: a tag followed by table rows (skipped)."""
    return name.endswith("Table") and name != "Table"


def section_of(name: str) -> str | None:
    """What the data lines after tag ``name`` are: auction, play, score (the ScoreTable: the
    other tables' results of the board, kept for its field), skip (another table) or None."""
    if name == "Auction":
        return "auction"
    if name == "Play":
        return "play"
    if name == "ScoreTable":
        return "score"
    return "skip" if is_table(name) else None
