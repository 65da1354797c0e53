"""LIN reader (Bridge Base Online) and a small single-deal LIN writer.

LIN is a flat run of ``key|value|`` pairs with no escapes; newlines mean nothing except that they
may fall inside a value.  Three shapes occur in real files (LIN has no published specification):

* single-deal files (BBO "myhands", tournament hand records): ``pn|S,W,N,E|st||md|...|rh||ah|
  Board n|sv|o|mb|..|pc|..|mc|n|`` - possibly several deals, one per line, each starting ``pn|``;
* vugraph archives: a header ``vg|title,segment,scoring,first,last,team1,score1,team2,score2|``,
  ``rs|`` (one result per board and room), ``pn|`` with 8 names (open S,W,N,E then closed), then
  per board ``qx|o17|`` / ``qx|c17|`` followed by md/sv/mb/pc/mc.  Robot Table Managers write a
  per-board ``pn|`` (4 names) just before each ``qx|``;
* teaching ("movie") files: ``qx|A1|`` boards with partial deals, packed calls ``mb|1nppp|``
  and display commands (``at``, ``ht``, ``cs``, ...) that are skipped.

Board boundaries: ``qx`` when the current board already has content (md, a call, a card, a
claim) or a qx of its own; ``md`` when the current board already has an md; ``pn`` when the
current board has a call/card/claim, or already has its own names and a deal.  Keys read before
the first of these (names, ``qx``) belong to the board that follows, as the robot files need.

The reader streams (``lines.iter_lines``), keeps at most ``MAX_ITEMS`` calls+cards per board
(PS006) and ``MAX_VALUE`` characters per value (PS210), and never raises: every problem becomes a
``Finding`` on the board concerned.

The work is split over: ``lexer`` (lines -> key|value pairs), ``board`` (pairs ->
boards -> records, board boundaries), ``values`` (md, mb and pc values), ``vugraph``
(the vg/rs/pn header) and ``write`` (``format_lin``, re-exported here).
"""
from __future__ import annotations

from typing import BinaryIO, Iterator

from ...core.findings import Finding
from ...core.record import BoardRecord, Play
from . import block
from .board import MAX_ITEMS, BoardReader
from .lexer import MAX_VALUE, PairLexer
from .plain import STARTS, PlainLine, plain_line, ready
from .values import CARD_OF
from .write import format_lin
from ..lines import iter_lines

__all__ = ["read_lin", "format_lin", "PlainLine", "MAX_ITEMS", "MAX_VALUE"]


def read_lin(stream: BinaryIO, source: str, *, games_before: int = 0, plain: bool = False,
             first_line: int = 1) -> Iterator[BoardRecord | PlainLine]:
    """Read every board of a LIN file; never raises for any bytes (problems become diagnostics).

    Yields one ``BoardRecord`` per board, in file order, as soon as the board is complete.
    ``games_before``: the stream is a part of a file that follows that many boards
    (``formats.parts``), so its boards are numbered on from there.  ``plain``: a line that is
    one plain board comes as a ``plain.PlainLine`` (its text, for ``lane``).  ``first_line``:
    the number of the stream's first line (a part of a file)."""
    boards = BoardReader(source)
    boards.game = games_before
    lexer = PairLexer()
    # problems found in the text between pairs (stray text, undecodable or over-long lines) go to
    # the board that the next pair belongs to - the one that follows a garbage line, not the one
    # before it
    deferred = lexer.deferred
    out = boards.out
    pairs, decode, take = lexer.pairs, lexer.decode, boards.take
    new_play = tuple.__new__  # Play(...) without its Python-level __new__: one per card

    def read_line(lineno: int, raw: bytes, cut: bool) -> Iterator[BoardRecord]:
        for key, value, key_line in pairs(decode(raw, cut, lineno), lineno):
            if key == "pc":  # fast path for the commonest pair: a card, board under way
                b = boards.cur
                card = CARD_OF.get(value)
                if card is not None and b.play_line is not None and b.items < MAX_ITEMS:
                    b.items += 1
                    owner = b.owner
                    b.plays.append(new_play(Play, (None if owner is None else owner[card],
                                                   card, (), key_line, None)))
                    if deferred:
                        b.attach(deferred)
                    continue
            take(key, value, key_line)
            if deferred:
                boards.cur.attach(deferred)
            if out:
                yield from out
                out.clear()

    def take_block(lines: list[tuple[int, bytes, bool]]) -> Iterator[BoardRecord | PlainLine]:
        """A held vugraph board: one ``PlainBlock``, or its lines read pair by pair."""
        pb = block.block(source, boards.game + 1, lines, boards.header)
        if pb is None:
            for held_line in lines:
                yield from read_line(*held_line)
        else:
            boards.game += 1
            yield pb

    block_ends = block.ENDS
    lineno = first_line - 1
    held: tuple[int, bytes] | None = None  # a plain line, until the next line starts a board
    board_lines: list[tuple[int, bytes, bool]] | None = None  # a vugraph board's, held
    try:
        for lineno, raw, cut in iter_lines(stream, first_line=first_line):
            if plain:
                if board_lines is not None:
                    if raw.startswith(block_ends) and block.ends(raw, cut):
                        yield from take_block(board_lines)
                        board_lines = None
                    elif len(board_lines) < block.MAX_LINES and not cut:
                        board_lines.append((lineno, raw, cut))
                        continue
                    else:  # too long for the lane, or cut: pair by pair, as if never held
                        for held_line in board_lines:
                            yield from read_line(*held_line)
                        board_lines = None
                if held is not None:
                    if not raw:
                        continue  # a blank line: no pair, nothing decided
                    if raw.startswith(STARTS) and not cut:
                        boards.game += 1
                        yield PlainLine(source, held[0], boards.game, held[1].decode("ascii"))
                    else:  # the next line may add to its board: pair by pair after all
                        yield from read_line(held[0], held[1], False)
                    held = None
                if block.starts(raw, cut) and block.ready(lexer, boards):
                    boards.flush(lineno)  # as the line's qx would end the board before it
                    yield from out
                    out.clear()
                    board_lines = [(lineno, raw, cut)]
                    continue
                if not cut and raw.isascii() and plain_line(raw) and ready(lexer, boards):
                    boards.flush(lineno)  # as the line's pn would end the board before it
                    yield from out
                    out.clear()
                    held = (lineno, raw)
                    continue
            yield from read_line(lineno, raw, cut)
        if held is not None:  # the file ends: its board is complete
            boards.game += 1
            yield PlainLine(source, held[0], boards.game, held[1].decode("ascii"))
        if board_lines is not None:
            lines, board_lines = board_lines, None
            yield from take_block(lines)
    except Exception as exc:  # the stream itself failed (I/O error); keep what was read
        if held is not None:
            yield from read_line(held[0], held[1], False)
        for held_line in board_lines or ():
            yield from read_line(*held_line)
        deferred.append(("PS001", f"file could not be read to the end: {exc!r}", lineno))
    lexer.finish(lineno)
    try:
        boards.cur.attach(deferred)
        boards.flush(lineno + 1, final=True)
    except Exception as exc:  # pragma: no cover - finish() already guards
        out.append(BoardRecord(source=source, line=lineno, game=boards.game + 1, format="lin",
                               diagnostics=(Finding("PS211", f"internal error: {exc!r}",
                                                    lineno),),
                               unreadable=True))
    yield from out
