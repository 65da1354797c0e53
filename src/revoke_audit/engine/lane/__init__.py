"""The whole-board fast lane: a plain board with nothing to find goes straight to its row.

Most boards of an archive are clean: a full deal, a contract the auction agrees with, tricks in
which everyone followed suit (Law 44C), the stated result or claim the play allows.  For such a
board the audit has nothing to say but its row, and building the record, the replay's tricks
and the ruling costs more than the rest of the work.  A run reads with ``plain=True``: the
readers hand over the plainest boards as their text (``formats.pbn.PlainGame``,
``formats.lin.PlainLine``, a vugraph board's lines: ``formats.lin.block.PlainBlock``), and
``render_records`` sends each through its reader's lane (``pbn``, ``lin``, ``vugraph``: the
reader's own functions on the values, the cards replayed on masks),
which gives the row only when every check the full audit makes would pass.  Anything else -
and every board a row of the director's log names, which may add revokes only it shows - goes
the full way, through the item's ``record()``, the record the reader would have built.  Rows are
made by ``common.board_row`` as ``rows.board_row`` makes a clean board's;
``tests/test_lane.py`` and ``tests/test_lane_lin.py`` check on generated, changed and corpus
boards that a lane row is the full audit's row.  ``ENABLED = False`` turns the lane off."""
from __future__ import annotations

from typing import Iterable, Iterator

from ...ruling.audit import audit_board
from ...formats.lin.block import PlainBlock
from ...formats.lin.plain import PlainLine
from ...formats.pbn.plain import PlainGame
from ...ruling.options import AuditOptions
from ...core.record import BoardRecord
from ...replay.coherence import with_neighbours
from ...reports.rows import CleanRun, FieldTags, Rendered, render
from ...laws.table_facts import TableFacts
from . import lin, pbn, vugraph

ENABLED = True
_ROWS = {PlainGame: pbn.plain_row, PlainLine: lin.plain_row, PlainBlock: vugraph.plain_row}
RUN_BOARDS = 1000  # the most boards a CleanRun of ``render_records(runs=True)`` holds


def render_records(records: Iterable[BoardRecord | PlainGame | PlainLine], options: AuditOptions,
                   keep: range | None = None, runs: bool = False) -> Iterator[Rendered]:
    """The report rows of each board, in order: a plain game through the lane when it can
    (``plain_row``), every other board through the full audit (``audit.audit_board``), which
    sees the deals of the boards around it.  ``keep``: only the boards at these positions
    (a part of a file read with games around it).  ``runs``: consecutive boards of the lane
    come as one ``rows.CleanRun`` of their boards.csv lines (up to ``RUN_BOARDS``), for a
    caller that writes CSV and needs no more of a clean board: the lane then makes each
    board's line alone, not its row (``common.board_row``'s ``lean``); a lane row whose line
    the template cannot make comes on its own."""
    log = options.table_facts
    lean = runs and log is None  # a director's log reads the row's keys (``_named``)
    held: list[str] = []  # the lines of the run under way
    tags: dict[int, FieldTags] = {}
    for i, (item, neighbours) in enumerate(with_neighbours(records)):
        if keep is not None and i not in keep:
            continue
        rendered = None
        if type(item) in _ROWS:
            rendered = plain_row(item, options, lean) if ENABLED else None
            if rendered is not None and log is not None and _named(log, item, rendered.row):
                rendered = None
            if rendered is None:
                item = item.record()
            elif not runs:
                yield rendered
                continue
            else:
                line, board_tags = _line_of(rendered)
                if line is not None:
                    if board_tags is not None:
                        tags[len(held)] = board_tags
                    held.append(line)
                    if len(held) >= RUN_BOARDS:
                        yield CleanRun(len(held), "".join(held), tags=tags)
                        held, tags = [], {}
                    continue
        if held:
            yield CleanRun(len(held), "".join(held), tags=tags)
            held, tags = [], {}
        yield rendered if rendered is not None else render(audit_board(item, options,
                                                                       neighbours))
    if held:
        yield CleanRun(len(held), "".join(held), tags=tags)


def _line_of(rendered: Rendered | tuple[str, FieldTags | None]
             ) -> tuple[str | None, FieldTags | None]:
    """A lane board's boards.csv line (None when its row has none: it must be written from its
    cells) and its field tags."""
    if type(rendered) is tuple:
        return rendered
    return getattr(rendered.row, "line", None), rendered.tags


def _named(log: TableFacts, item: PlainGame | PlainLine, row: dict[str, object]) -> bool:
    """Whether the director's log has a row for this board (its keys as its row gives them,
    which are the record's): then it may oblige a player to more than following suit."""
    return log.names(item.source, str(row["event"]), str(row["board"]), str(row["room"]))


def plain_row(item: PlainGame | PlainLine, options: AuditOptions, lean: bool = False
              ) -> Rendered | tuple[str, FieldTags | None] | None:
    """The rows of a plain game or line with nothing to find; None when the full audit must
    see it.  ``lean``: (its boards.csv line, its field tags) when the lane can make the line
    (``common.board_row``)."""
    return _ROWS[type(item)](item, options, lean)
