"""Plain LIN lines held as their text, for the whole-board fast lane (``revoke_audit.engine.lane``).

When the caller asks for it (``read_lin(..., plain=True)``), a line that is one whole board in
the single-deal layout - ``pn|S,W,N,E|st||md|...|rh||ah|Board n|sv|v|`` then calls, ``pg``,
cards and perhaps a claim, ASCII, every pair closed on the line - is not read pair by pair:
the reader yields a ``PlainLine``, and the lane audits it without the record, replay and
ruling objects, or hands it back (``PlainLine.record``) for the full audit.  The line is only
taken when nothing is pending around it: no open pair or problem waiting for a board, no
vugraph header (its event, names and results would go into the board), and the board before
it finished or flushed by this line's ``pn`` as ``board.BoardReader`` would.  It is confirmed
when the next line starts a board (``pn``, ``qx``, ``md``, ``vg``) or the file ends;
otherwise it is read pair by pair after all (a later line may add to its board)."""
from __future__ import annotations

import re

from ...core import speedups
from ...core.record import BoardRecord
from .board import BoardReader
from .lexer import PairLexer

# one board in the single-deal layout, every pair closed on the line (possessive repeats: no
# backtracking stack over a long line)
LINE = re.compile(rb"pn\|[^|,\n]*,[^|,\n]*,[^|,\n]*,[^|,\n]*\|st\|\|md\|[1-4][^|\n]*\|rh\|\|"
                  rb"ah\|[^|\n]*\|sv\|[^|\n]*\|(?:(?:mb|pc)\|[^|\n]*\||pg\|\|)*+"
                  rb"(?:mc\|[0-9]{1,2}\|)?")


def py_plain_line(raw: bytes) -> bool:
    """Whether ``raw`` (a line without its newline) is one plain board (``LINE``).  The twin
    of ``_speedups.lin_line`` (``core.speedups``)."""
    return LINE.fullmatch(raw) is not None


_C = speedups.wanted()
plain_line = _C.lin_line if _C is not None else py_plain_line

# the keys that end the board before them, as a line's first pair (``board.BoardReader``)
STARTS = (b"pn|", b"qx|", b"md|", b"vg|")


class PlainLine:
    """A plain LIN line: one board, its text, where it is."""

    __slots__ = ("source", "line", "game", "text", "_record")
    format = "lin"  # as ``BoardRecord.format`` (the reading layer counts boards by it)

    def __init__(self, source: str, line: int, game: int, text: str) -> None:
        self.source = source
        self.line = line
        self.game = game
        self.text = text
        self._record: BoardRecord | None = None

    def record(self) -> BoardRecord:
        """The record the reader builds for this board (for the full audit)."""
        if self._record is None:
            boards = BoardReader(self.source)
            boards.game = self.game - 1
            for key, value, key_line in PairLexer().pairs(self.text, self.line):
                boards.take(key, value, key_line)
            boards.flush(self.line + 1, final=True)
            self._record = boards.out[0]
        return self._record

    # what a neighbouring board's audit asks of it (``replay.coherence.with_neighbours``)
    @property
    def hands(self):
        return self.record().hands

    @property
    def board(self) -> str:
        return self.record().board

    @property
    def room(self) -> str:
        return ""


def ready(lexer: PairLexer, boards: BoardReader) -> bool:
    """Nothing pending that a plain line's board would take or that would take it: no open
    pair or deferred problem, no vugraph header, and the board under way (if any) is one that
    the line's ``pn`` ends (then it is ended here, as that ``pn`` would)."""
    if (lexer.pending or not lexer.expect_key or lexer.seg_cut or lexer.deferred
            or not boards.header.is_blank()):
        return False
    b = boards.cur
    if b.has_action or (b.has_md and b.has_pn):
        return True
    return not (b.has_md or b.has_qx or b.has_pn or b.diags or b.line)
