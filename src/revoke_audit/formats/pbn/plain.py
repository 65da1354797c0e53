"""Plain PBN games held as their text, for the whole-board fast lane (``revoke_audit.engine.lane``).

When the caller asks for it (``read_pbn(..., plain=True)``), a block that came whole and is
the plainest kind of game - ASCII, one tag per line from ``TAGS`` (a ``#`` value taken from the
game before, as ``games.Inheritance`` does), the Auction and Play sections written as bare
tokens - is not built into a ``BoardRecord``: the
reader yields a ``PlainGame``, its tags and section text, and the lane audits it without the
record, replay and ruling objects, or hands it back (``PlainGame.record``) for the full audit.
``record`` gives exactly the record the reader would have built: the same ``fast._game`` and
``build_record`` on the same text, and the same state around it - the game is only taken when
no comment, tag, stray text or ``##`` value is pending and no title date applies (so nothing is
inherited into it but its ``#`` values), and it updates the ``#`` memory as any game does."""
from __future__ import annotations

import re

from ...core import speedups
from ...core.record import BoardRecord
from .blocks import Block
from .build import _room, build_record
from .fast import _decode, _game, between_games
from .games import Games
from .lookup import fast_deal
from .lexer import Lexer

# the tags whose meaning the lane knows: those it reads, and those no audit reads (kept in the
# record's tags, and for ``#`` in later games); any other tag: the game is read the usual way
TAGS = frozenset(("Event", "Site", "Date", "Board", "West", "North", "East", "South", "Dealer",
                  "Vulnerable", "Deal", "Declarer", "Contract", "Result", "Auction", "Play",
                  "Room", "Table",
                  "Score", "ScoreIMP", "ScoreMP", "ScorePercentage", "Scoring", "Round",
                  "HomeTeam", "VisitTeam", "Section", "Stage", "Competition", "Annotator"))
# a tag line and the lines of bare tokens after it (letters and digits, or the ``*`` that ends
# a play), spaces after them (possessive repeats: no backtracking stack over a long block); a
# plain game is nothing but these, one after the other (``_units``)
_TAG = re.compile(r'\[([A-Za-z]+) "([^"\\\n]*)"\]\n((?:[A-Za-z0-9*]+(?: [A-Za-z0-9*]+)*+ *\n)*+)')
_TAG_MARKS = len('[ ""]\n')  # what a tag line holds besides its name and value


class PlainGame:
    """A plain game: its tags (in order, ``#`` resolved), its Auction and Play tokens' text,
    where it is."""

    __slots__ = ("source", "line", "game", "tags", "auction", "play", "text", "_hands")
    format = "pbn"  # as ``BoardRecord.format`` (the reading layer counts boards by it)

    def __init__(self, source: str, line: int, game: int, tags: dict[str, str], auction: str,
                 play: str, text: str) -> None:
        self.source = source
        self.line = line  # its first line: a tag
        self.game = game
        self.tags = tags
        self.auction = auction
        self.play = play
        self.text = text
        self._hands: object = False  # not worked out yet

    def record(self) -> BoardRecord:
        """The record the reader builds for this game (for the full audit)."""
        g = _game(self.text, self.line)
        if g is None:  # cannot happen: a plain game is a fast one
            raise ValueError(f"line {self.line}: not a plain game")
        g.nlines, g.nbytes = self.text.count("\n") + 1, len(self.text) + 1
        return build_record(g, dict(self.tags), self.source, self.game)  # tags: resolved

    # what a neighbouring board's audit asks of it (``replay.coherence.with_neighbours``)
    @property
    def hands(self):
        if self._hands is False:  # as ``build._deal`` reads it: the usual way, else leniently
            self._hands = fast_deal(self.tags["Deal"]) or self.record().hands
        return self._hands

    @property
    def board(self) -> str:
        return self.tags.get("Board", "").strip()

    @property
    def room(self) -> str:
        return _room(self.tags)

    # what ``laws.dates.edition_for`` reads
    @property
    def date(self) -> str:
        return self.tags.get("Date", "")

    @property
    def event(self) -> str:
        return self.tags.get("Event", "")


def read_plain(lexer: Lexer, games: Games, piece: Block) -> bool:
    """Take ``piece`` as a ``PlainGame`` onto ``games.out`` when it is one and nothing around
    it is pending; False, having changed nothing, otherwise."""
    inherit = games.inheritance
    if (not between_games(lexer, games) or inherit.sticky or games.title_date
            or not piece.data.isascii()):
        return False  # something would be inherited into it, or it is not ASCII
    charset = lexer.charset  # ASCII as UTF-8 reads it; else None: a charset not ASCII's
    text = piece.data.decode("ascii") if charset is None else _decode(piece.data, charset)
    got = plain_tags(text + "\n") if text is not None else None
    if got is None:
        return False
    tags, auction, play = got
    if "Deal" not in tags or not TAGS.issuperset(tags):
        return False  # no deal, or a tag the lane does not know
    if '"#' in text:  # ``#``: the value of the game before (``Inheritance.resolve``)
        prev = inherit.prev
        for name, value in tags.items():
            if value[:1] == "#":
                if value != "#" or name not in prev:
                    return False  # ``##`` (sticky), or nothing to take (PS105)
                tags[name] = prev[name]
    games.games += 1
    inherit.remember(tags, len(text))
    games.out.append(PlainGame(games.source, piece.first, games.games, tags, auction, play, text))
    return True


def py_plain_tags(text: str) -> tuple[dict[str, str], str, str] | None:
    """(the tags by name, in order; the Auction's token lines; the Play's) of ``text`` when it
    is nothing but tag lines, each followed by its token lines (``_TAG``), one after the
    other, no tag twice and no token lines after a tag but those two ("" for none); else None.
    The twin of ``_speedups.plain_tags`` (``core.speedups``)."""
    found = _TAG.findall(text)
    # the matches never overlap: they cover the text when their lengths add up to its own
    if not found or len("".join(map("".join, found))) + _TAG_MARKS * len(found) != len(text):
        return None
    names, values, data = zip(*found)
    tags = dict(zip(names, values))
    if len(tags) != len(found):
        return None
    auction = data[names.index("Auction")] if "Auction" in tags else ""
    play = data[names.index("Play")] if "Play" in tags else ""
    if len(data) - data.count("") != bool(auction) + bool(play):
        return None  # token lines after another tag
    return tags, auction, play


_C = speedups.wanted()
plain_tags = _C.plain_tags if _C is not None else py_plain_tags
