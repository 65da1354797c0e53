"""Streaming reader (and a small writer) for PBN, import format.

``read_pbn`` reads a binary stream line by line (``lines.iter_lines``: bounded lines), splits
it into games at blank lines outside comments, and turns every game that has at least one tag
into a ``BoardRecord``.  Everything it cannot read becomes a ``Finding`` on that record; no
exception escapes, whatever the bytes.

The work is split over: ``lexer`` (line syntax: comments, directives, tags, section
tokens), ``games`` (grouping into games, repeated tags, limits, inheritance),
``build`` (a game's tags -> ``BoardRecord``), ``sections`` (Auction and Play tokens)
and ``write`` (``format_pbn``, re-exported here).

What real files do, and what the reader does about it (the PBN standard 2.1, and what real files do beyond it):

* comments ``;`` to end of line and ``{...}`` across lines.  Braces do not nest (standard);
  a ``{`` inside a comment is text and a stray ``}`` outside one is ignored (PS101).  A
  BridgeComposer bug leaves ``{Feasability ...`` open: a line inside a multi-line comment
  that is exactly one well-formed tag closes the comment (PS121).
* tags ``[Name "value"]`` with or without space, several per line, over several lines,
  ``\\"`` escapes, unquoted values (PS103), no closing quote (PS102: read to the end of the
  line or the next ``[``).
* a repeated tag is ignored (PS104) unless the first one was empty (``[Auction "N"]`` with no
  calls, ``[Declarer ""]``): then the non-empty one is kept.  A repeated ``Event``/``Board``/
  ``Deal`` after the game already has its deal or auction means the blank line between two
  games is missing: a new game starts there (PS120).
* inheritance ``#`` and ``##text``; a game with an auction or play but no Deal takes the deal
  (and Dealer, Vulnerable, Board when missing) of the game just before it (PS106).
* the play section: tokens are grouped four to a trick (the usual one line per trick, but
  annotated files spread a trick over lines between comments and some writers put two tricks on
  a line).  Columns are seats: token i of a trick is the card of seat ``Play + i``.  The record
  keeps the play in time order: trick 1 led by the Play seat, each later trick by the winner of
  the previous one (``^L`` = that trick is led by the marked seat).  When a winner cannot be
  known (a ``-`` card, no contract) the remaining tricks keep column order; the replay, which
  orders each trick from its seats, reports what it cannot check (RC013).

Speed: plain games (one tag per line, card tokens, nothing unusual) are read whole by
``fast``, with table look-ups for the deal and the cards; the lexer reads everything else,
one regex or ``str.split`` per line.
"""
from __future__ import annotations

from dataclasses import replace
from typing import BinaryIO, Iterator

from ...core.findings import Finding
from ...core.record import BoardRecord
from ..lines import LineReader
from . import lookup as pbn_lookup
from .blocks import Block, Pieces
from .fast import read_block, read_data
from .plain import PlainGame, read_plain
from .games import MAX_DIAGNOSTICS, MAX_GAME_BYTES, MAX_GAME_LINES, Games
from .lexer import Lexer
from .write import format_pbn

__all__ = ["read_pbn", "format_pbn", "PlainGame", "as_record", "MAX_GAME_LINES",
           "MAX_GAME_BYTES", "MAX_DIAGNOSTICS"]


def read_pbn(stream: BinaryIO, source: str, *, diagnostics: list[Finding] | None = None,
             games_before: int = 0, plain: bool = False, first_line: int = 1
             ) -> Iterator[BoardRecord | PlainGame]:
    """Yield one ``BoardRecord`` per game (a block with at least one tag) of a PBN stream.

    Problems inside a game are on its record.  Problems outside any game (text, binary junk or
    a truncated comment in a block without tags) go to ``diagnostics`` when a list is given,
    else onto the next record (after the last game: onto the last record; so each record is
    yielded when the next game is complete).  Never raises for any content; I/O errors of the
    stream itself are the caller's.  ``games_before``: the stream is a part of a file that
    follows that many games (``formats.parts``), so its games are numbered on from there.
    ``plain``: the plainest games come as ``plain.PlainGame`` (their text, for ``lane``).
    ``first_line``: the number of the stream's first line (a part of a file)."""
    games = Games(source, diagnostics, games_before)
    games.plain = plain
    held: BoardRecord | PlainGame | None = None
    for rec in _records(stream, games, first_line):
        if held is not None:
            yield held
        held = rec
    if held is not None:
        if games.orphans:
            held = as_record(held)
            held = replace(held, diagnostics=held.diagnostics + tuple(games.orphans))
        yield held


def as_record(item: BoardRecord | PlainGame) -> BoardRecord:
    """A record, from a ``PlainGame`` if need be."""
    return item.record() if type(item) is PlainGame else item


def _records(stream: BinaryIO, games: Games, first_line: int = 1) -> Iterator[BoardRecord]:
    """Every record of the stream, as soon as its game ends; internal errors become PS123.

    A block that comes whole (``blocks.Pieces``) is read as a plain game when it is one
    (``fast.read_data``), else line by line.  Other lines come one at a time; the lines of a
    block (up to a blank line) are held back while it may be a plain game: ``fast.read_block``
    reads those whole; any other block goes to the lexer line by line."""
    lexer = Lexer(games)
    out = games.out
    lineno, size = first_line - 1, 0
    block: list[bytes] = []
    collecting = True  # at the start of a block: it may be a plain game
    # numbers the lines; a run of blank lines comes as one
    lines = (Pieces(stream, first_line=first_line) if pbn_lookup.ENABLED
             else LineReader(stream, first_line=first_line))
    for piece in lines:
        if type(piece) is Block:  # after a blank line (or at the start): nothing is held
            _whole_block(lexer, games, piece)
            lineno = piece.blank
        else:
            lineno, raw, cut = piece
            if raw:
                if collecting and not cut:
                    block.append(raw)
                    size += len(raw)
                    if size <= MAX_GAME_BYTES and len(block) <= MAX_GAME_LINES:
                        continue
                    _feed_lines(lexer, block, lineno - len(block) + 1)
                else:
                    _feed_lines(lexer, block, lineno - len(block))
                    _feed(lexer, raw, cut, lineno)
                block, size, collecting = [], 0, False
            else:
                _end_block(lexer, games, block, lineno - len(block))
                block, size, collecting = [], 0, True
                _feed(lexer, raw, cut, lineno)
        if out:
            yield from out
            out.clear()
    _end_block(lexer, games, block, lineno - len(block) + 1)
    try:
        lexer.finish(lineno)
    except Exception as exc:  # noqa: BLE001
        games.orphan(Finding("PS123", f"internal error at end of file: "
                             f"{type(exc).__name__}: {exc}", lineno))
    if lines.unterminated and out:
        out[-1] = _cut_in_play(out[-1], lineno)
    yield from out
    out.clear()


def _cut_in_play(rec: BoardRecord | PlainGame, lineno: int) -> BoardRecord:
    """The last game of a file whose last line, with no newline, holds cards of its play:
    the file was cut there (PS004), unless the play is complete or ended by ``*``.  (No file of
    the corpus ends that way: the last boards with an unfinished play all end with a newline.)"""
    rec = as_record(rec)
    if (not rec.play or rec.play[-1].line != lineno or rec.play_stopped
            or len(rec.play) >= 52):
        return rec
    d = Finding("PS004", f"file ends inside the play section after {len(rec.play)} cards, "
                "with no '*' and no final newline (truncated?)", lineno)
    return replace(rec, diagnostics=rec.diagnostics + (d,))


def _end_block(lexer: Lexer, games: Games, block: list[bytes], first: int) -> None:
    """A block ends: read it as a plain game, else line by line."""
    if not block:
        return
    try:
        plain = read_block(lexer, games, block, first)
    except Exception:  # noqa: BLE001 - the lenient reader reads it and says what is wrong
        plain = False
    if not plain:
        _feed_lines(lexer, block, first)


def _whole_block(lexer: Lexer, games: Games, piece: Block) -> None:
    """A block that came whole, and the blank line after it: as ``_end_block`` would (or as a
    ``PlainGame``, when asked for)."""
    try:
        plain = ((games.plain and read_plain(lexer, games, piece))
                 or read_data(lexer, games, piece.data, piece.nlines, piece.first))
    except Exception:  # noqa: BLE001 - the lenient reader reads it and says what is wrong
        plain = False
    if not plain:
        _feed_lines(lexer, piece.lines(), piece.first)
    _feed(lexer, b"", False, piece.blank)


def _feed_lines(lexer: Lexer, lines: list[bytes], first: int) -> None:
    for i, raw in enumerate(lines):
        _feed(lexer, raw, False, first + i)


def _feed(lexer: Lexer, raw: bytes, cut: bool, lineno: int) -> None:
    """One line to the lexer; an internal error is reported on the line (PS123)."""
    try:
        lexer.feed(raw, cut, lineno)
    except Exception as exc:  # noqa: BLE001 - defensive: a bug must not stop the file
        lexer.recover(exc, lineno)
