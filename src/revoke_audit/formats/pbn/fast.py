"""Fast path of the PBN reader for plain games; the lenient reader does everything else.

Most real games are plain: one tag per line, an Auction and a Play section of card tokens, no
comments, escapes, inheritance, marks or odd tokens.  Those are read with whole-line regular
expressions and table look-ups instead of the line-by-line state machine, and each step gives
up (returns None / False) the moment anything is unusual, so the lenient code reads it instead:

* ``read_block`` (here): a block of lines between blank lines -> a ``games.Game``, which
  then ends through the same ``Games.end_game`` (inheritance, build) as a lexed one;
* ``lookup.fast_deal`` / ``fast_play``: a Deal by holding look-ups, Play tokens by a card
  table, in time order (used by ``build``).

Both paths must give identical records: ``tests/test_pbn_fast.py`` reads every corpus game and
generated files both ways and compares.  ``lookup.ENABLED = False`` turns it all off."""
from __future__ import annotations

import codecs
import re
from itertools import repeat
from typing import TYPE_CHECKING

from ..lines import strip_c1
from . import lookup as pbn_lookup
from .game import MAX_GAME_BYTES, MAX_GAME_LINES, Game, section_of

if TYPE_CHECKING:
    from .games import Games
    from .lexer import Lexer

# A line that is one tag as the lexer's simple-tag pattern reads it, or data: not a directive
# (``%``), not blank, and no tag, comment or stray brace on it.
_LINE = re.compile(r'^(?:\[([A-Za-z_]\w*) ?"([^"\\\n]*)"\][^\S\n]*'
                   r'|(?!%)(?=[^\n]*\S)([^\[{;}\n]+))$', re.MULTILINE)
# codecs whose text for a block is the join of its lines' texts (no state across lines)
_STATELESS = {"utf-8", "iso8859-1", "latin-1", "cp1252", "ascii"}
_SECTIONS = {name: section_of(name) for name in (  # the usual tags' sections, looked up
    "Event", "Site", "Date", "Board", "West", "North", "East", "South", "Dealer", "Vulnerable",
    "Deal", "Scoring", "Declarer", "Contract", "Result", "Auction", "Play", "Room", "Note")}


# --- a block of lines -> a game ------------------------------------------------------------------

def read_block(lexer: Lexer, games: Games, lines: list[bytes], first: int) -> bool:
    """Read ``lines`` (a block between blank lines, starting on line ``first``) as one plain
    game and end it through ``games``; False, having changed nothing, when it is not plain."""
    return read_data(lexer, games, b"\n".join(lines), len(lines), first)


def read_data(lexer: Lexer, games: Games, data: bytes, nlines: int, first: int) -> bool:
    """``read_block`` for the block's bytes (its ``nlines`` lines joined by newlines)."""
    if not (pbn_lookup.ENABLED and between_games(lexer, games) and nlines <= MAX_GAME_LINES):
        return False
    nbytes = len(data) + 1
    text = _decode(data, lexer.charset)
    if text is None or nbytes > MAX_GAME_BYTES:
        return False
    g = _game(text, first)
    if g is None:
        return False
    g.nlines, g.nbytes = nlines, nbytes
    games.game = g
    games.end_game()
    return True


def between_games(lexer: Lexer, games: Games) -> bool:
    """Nothing is pending that the next block would belong to: no game open, no problem found
    outside games waiting for the next record, no comment or tag left open."""
    return (games.game is None and not games.orphans and not lexer.in_comment
            and lexer.pending_tag is None)


def _decode(data: bytes, charset: str | None) -> str | None:
    """The block's text when it decodes without a fallback, else None (without C1 control
    characters, as ``lines.decode`` gives each line)."""
    try:
        if charset is not None and codecs.lookup(charset).name not in _STATELESS:
            return None
        text = data.decode(charset or "utf-8")
    except (UnicodeDecodeError, LookupError):
        return None
    return text if text.isascii() else strip_c1(text)


def _game(text: str, lineno: int) -> Game | None:
    """Tags, one per line, and the data lines of their sections; None if anything else."""
    found = _LINE.findall(text)
    if len(found) != text.count("\n") + 1:
        return None  # a line that is neither a plain tag nor plain data
    g = Game(lineno)
    tags, tag_lines = g.tags, g.tag_lines
    section = None
    for name, value, data in found:
        if name:
            if name in tags:
                return None  # a repeated tag: the lenient reader's rules
            if not tags:
                g.line = lineno
            tags[name] = value
            tag_lines[name] = lineno
            section = _SECTIONS[name] if name in _SECTIONS else section_of(name)
        elif section == "play":
            g.play.extend(zip(data.split(), repeat(lineno)))
        elif section == "auction":
            g.auction.extend(zip(data.split(), repeat(lineno)))
        elif section == "score":
            g.score_rows.append(" ".join(data.split()))
        elif section != "skip":
            return None  # stray text
        lineno += 1
    return g if tags else None
