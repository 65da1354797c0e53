"""Streaming reader (and a small writer) for PBN, import format.

``read_pbn`` reads a binary stream line by line (``lines.iter_lines``: bounded lines), splits
it into games at blank lines outside comments, and turns every game that has at least one tag
into a ``BoardRecord``.  Everything it cannot read becomes a ``Diagnostic`` on that record; no
exception escapes, whatever the bytes.

The work is split over: ``pbn_lexer`` (line syntax: comments, directives, tags, section
tokens), ``pbn_games`` (grouping into games, repeated tags, limits, inheritance),
``pbn_build`` (a game's tags -> ``BoardRecord``), ``pbn_sections`` (Auction and Play tokens)
and ``pbn_write`` (``format_pbn``, re-exported here).

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

Speed: the hot path is one regex or ``str.split`` per line, cached token lookups, and one
``Play`` tuple per card.
"""
from __future__ import annotations

from dataclasses import replace
from typing import BinaryIO, Iterator

from ..record import BoardRecord, Diagnostic
from .lines import iter_lines
from .pbn_games import MAX_DIAGNOSTICS, MAX_GAME_BYTES, MAX_GAME_LINES, Games
from .pbn_lexer import Lexer
from .pbn_write import format_pbn

__all__ = ["read_pbn", "format_pbn", "MAX_GAME_LINES", "MAX_GAME_BYTES", "MAX_DIAGNOSTICS"]


def read_pbn(stream: BinaryIO, source: str, *,
             diagnostics: list[Diagnostic] | None = None) -> Iterator[BoardRecord]:
    """Yield one ``BoardRecord`` per game (a block with at least one tag) of a PBN stream.

    Problems inside a game are on its record.  Problems outside any game (text, binary junk or
    a truncated comment in a block without tags) go to ``diagnostics`` when a list is given,
    else onto the next record (after the last game: onto the last record; so each record is
    yielded when the next game is complete).  Never raises for any content; I/O errors of the
    stream itself are the caller's."""
    games = Games(source, diagnostics)
    held: BoardRecord | None = None
    for rec in _records(stream, games):
        if held is not None:
            yield held
        held = rec
    if held is not None:
        if games.orphans:
            held = replace(held, diagnostics=held.diagnostics + tuple(games.orphans))
        yield held


def _records(stream: BinaryIO, games: Games) -> Iterator[BoardRecord]:
    """Every record of the stream, as soon as its game ends; internal errors become PS123."""
    lexer = Lexer(games)
    out = games.out
    lineno = 0
    for raw, cut in iter_lines(stream):
        lineno += 1
        try:
            lexer.feed(raw, cut, lineno)
        except Exception as exc:  # noqa: BLE001 - defensive: a bug must not stop the file
            lexer.recover(exc, lineno)
        if out:
            yield from out
            out.clear()
    try:
        lexer.finish(lineno)
    except Exception as exc:  # noqa: BLE001
        games.orphan(Diagnostic("PS123", f"internal error at end of file: "
                                f"{type(exc).__name__}: {exc}", games.source, lineno))
    yield from out
    out.clear()
