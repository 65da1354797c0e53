"""PBN games: what the lexer found, grouped into games and turned into records.

``Games`` receives tags, section tokens and stray text from ``lexer.Lexer`` and keeps the
game being read: repeated tags (PS104, or kept when the first was empty), a repeated
``Event``/``Board``/``Deal`` that starts a new game (PS120), the size limits (PS006), stray text
(PS101), and the diagnostics found outside any game (capped, PS009).  At the end of a game it
resolves ``#``/``##`` inheritance and the missing-deal second table (``Inheritance``, PS105,
PS106) and builds the record (``build``); the records collect in ``out``."""
from __future__ import annotations

from ...core.findings import Finding
from ...core.record import BoardRecord
from .build import build_record
from .game import MAX_DIAGNOSTICS, MAX_GAME_BYTES, MAX_GAME_LINES, Game, is_table, section_of

_MAX_INHERITED = 1000  # distinct tag names remembered for "#" / "##"
_MAX_INHERITED_VALUE = 1 << 16
_GLUE_TAGS = ("Event", "Board", "Deal")
# what a second-table game with no Deal takes from the game before (board-level tags only)
_BOARD_TAGS = ("Event", "Site", "Date", "Stage", "Round", "Section", "Competition", "HomeTeam",
               "VisitTeam", "Scoring", "Board", "Dealer", "Vulnerable", "Deal")


class Games:
    """The game being read, the records made so far (``out``) and the file-wide state."""

    def __init__(self, source: str, file_diags: list[Finding] | None,
                 games_before: int = 0) -> None:
        self.source = source
        self.file_diags = file_diags
        self.title_date = ""  # %HRTitleDate: kept as the tag HRTitleDate of every game
        self.game: Game | None = None
        self.games = games_before  # games read so far (a part of a file: those before it)
        self.section: str | None = None  # "auction" | "play" | "skip" | None
        self.skipping = False  # game too large: skip to the next blank line
        self.out: list[BoardRecord] = []
        self.orphans: list[Finding] = []  # outside any game, when the caller gave no list
        self.orphan_count = 0
        self.inheritance = Inheritance(source)
        self.plain = False  # plain games come as ``plain.PlainGame`` (``read_pbn(plain=True)``)

    # --- diagnostics -------------------------------------------------------------------------
    def diag(self, code: str, message: str, line: int | None) -> None:
        """A diagnostic on the current game, or outside games when there is none."""
        d = Finding(code, message, line)
        if self.game is not None:
            self.game.add(d)
        else:
            self.orphan(d)

    def orphan(self, d: Finding) -> None:
        """A diagnostic outside any game: to the caller's list, else onto the next record."""
        self.orphan_count += 1
        if self.orphan_count > MAX_DIAGNOSTICS:
            return
        if self.orphan_count == MAX_DIAGNOSTICS:
            d = Finding("PS009", "too many problems outside games; the rest of them are not "
                        "reported", d.line)
        if self.file_diags is not None:
            self.file_diags.append(d)
        else:
            self.orphans.append(d)

    # --- lines -------------------------------------------------------------------------------
    def count_line(self, nbytes: int, lineno: int) -> None:
        """A non-blank line (or one inside a comment): open a game if none, count its size."""
        g = self.game
        if g is None:
            g = self.game = Game(lineno)
        g.nlines += 1
        g.nbytes += nbytes + 1

    def too_large(self, lineno: int) -> bool:
        """True (PS006, then skip to the next blank line) once the game is over the limits."""
        g = self.game
        if g is None or (g.nlines <= MAX_GAME_LINES and g.nbytes <= MAX_GAME_BYTES):
            return False
        self.diag("PS006", f"game longer than {MAX_GAME_LINES} lines or {MAX_GAME_BYTES} bytes; "
                  "the rest of it, up to the next blank line, was skipped", lineno)
        self.skipping = True
        return True

    # --- tags and section data -----------------------------------------------------------------
    def tag(self, name: str, value: str, lineno: int) -> None:
        """Store a tag; it also says what the following data lines are (``section``)."""
        g = self.game
        if g is None:  # cannot happen: the lexer opens the game first
            g = self.game = Game(lineno)
        if not g.tags:
            g.line = lineno
        if name in g.tags:
            if not self._starts_new_game(g, name, value, lineno):
                self._repeated(g, name, value, lineno)
                return
            g = self.game
        g.tags[name] = value
        g.tag_lines[name] = lineno
        self.section = section_of(name)

    def _starts_new_game(self, g: Game, name: str, value: str, lineno: int) -> bool:
        """A second Event, or a different Board/Deal, after the deal or auction: two games with
        no blank line between them.  Ends ``g`` and opens the next game (PS120)."""
        tags = g.tags
        if not (name in _GLUE_TAGS and (tags.get("Deal") or "Auction" in tags or "Play" in tags)
                and (name == "Event" or (tags[name] and value and value != tags[name]))):
            return False
        self.end_game()
        self.game = Game(lineno)
        self.game.add(Finding("PS120", f"no blank line before this game: a second {name} tag "
                              "starts a new game", lineno))
        return True

    def _repeated(self, g: Game, name: str, value: str, lineno: int) -> None:
        """A tag seen twice: replaces an empty first one, else is ignored (PS104)."""
        if g.is_empty(name) and (value or name in ("Auction", "Play")):
            if name == "Auction":
                g.auction = []
            elif name == "Play":
                g.play = []
            g.tags[name] = value
            g.tag_lines[name] = lineno
            self.section = "auction" if name == "Auction" else (
                "play" if name == "Play" else None)
            return
        if name in ("Auction", "Play") or (value != g.tags[name] and name != "Note"):
            self.diag("PS104", f"repeated tag {name} ignored (first value kept)", lineno)
        self.section = "skip" if name in ("Auction", "Play") or is_table(name) else None

    def data(self, tokens: list[str], lineno: int) -> None:
        """Tokens of a data line: to the open section, else stray text."""
        g = self.game
        if g is None:
            return
        s = self.section
        if s == "play":
            g.play.extend((t, lineno) for t in tokens)
        elif s == "auction":
            g.auction.extend((t, lineno) for t in tokens)
        elif s == "score":
            g.score_rows.append(" ".join(tokens))
        elif s != "skip":
            self.stray(lineno)

    def stray(self, lineno: int) -> None:
        """Text outside tags, comments and sections (reported once per game, PS101)."""
        g = self.game
        if g is None:
            return
        if g.stray_count == 0:
            g.stray_line = lineno
        g.stray_count += 1

    # --- end of a game -------------------------------------------------------------------------
    def end_game(self) -> None:
        """Close the current game: a record if it has a tag, else its problems are orphans."""
        g = self.game
        self.game = None
        self.section = None
        self.skipping = False
        if g is None:
            return
        if not g.tags:
            if g.stray_count:
                self.orphan(Finding(
                    "PS101", f"text outside tags and comments ignored ({_items(g.stray_count)}); "
                    "no tag in this block", g.stray_line))
            for d in g.diags:
                self.orphan(d)
            return
        self.games += 1
        if self.orphans:
            g.diags[:0] = self.orphans
            self.orphans = []
        if g.stray_count:
            g.add(Finding("PS101", f"text outside tags and comments ignored "
                          f"({_items(g.stray_count)} from this line on)",
                          g.stray_line))
        self.out.append(self._record(g))

    def _record(self, g: Game) -> BoardRecord:
        """Inherit, then build; an internal error gives an unreadable record (PS123)."""
        try:
            tags = self.inheritance.resolve(g)
            if self.title_date and self.title_date != "0":
                tags.setdefault("HRTitleDate", self.title_date)
            return build_record(g, tags, self.source, self.games)
        except Exception as exc:  # noqa: BLE001 - one bad game must never stop the file
            return BoardRecord(
                source=self.source, line=g.line, game=self.games, format="pbn",
                tags=dict(g.tags), unreadable=True,
                diagnostics=g.all_diagnostics() + (Finding(
                    "PS123", f"internal error while reading this game: "
                    f"{type(exc).__name__}: {exc}", g.line),),
            )


class Inheritance:
    """What later games may take from earlier ones: ``#`` (the previous value), ``##text``
    (sticky until changed) and, for a game with no Deal, the board tags of the game before."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.prev: dict[str, str] = {}
        self.sticky: dict[str, str] = {}
        self.prev_game_tags: dict[str, str] | None = None

    def resolve(self, g: Game) -> dict[str, str]:
        """The game's tags with ``#``/``##`` resolved (PS105, PS106); updates the state."""
        tags: dict[str, str] = {}
        prev, sticky = self.prev, self.sticky
        for name, value in g.tags.items():
            if value == "#":
                if name in prev:
                    value = prev[name]
                else:
                    g.add(Finding("PS105", f'tag {name} is "#" but no earlier game has it',
                                  g.tag_lines.get(name)))
                    value = ""
            elif value[:2] == "##":
                value = value[2:]
                if name in sticky or len(sticky) < _MAX_INHERITED:
                    sticky[name] = value
            elif name in sticky:
                del sticky[name]
            tags[name] = value
        for name, value in sticky.items():
            if name not in tags:
                tags[name] = value
        self._second_table(g, tags)
        self.remember(tags)
        return tags

    def remember(self, tags: dict[str, str], size: int | None = None) -> None:
        """A game's resolved tags: for ``#`` in later games, and for a later game with no Deal.
        ``size``: the length of a text that holds every value, when known (a bound on each)."""
        prev = self.prev
        if (len(prev) + len(tags) <= _MAX_INHERITED
                and (size if size is not None else max(map(len, tags.values()), default=0))
                <= _MAX_INHERITED_VALUE):
            prev.update(tags)  # the usual game: the loop below would take every tag
        else:
            for name, value in tags.items():  # bounded: junk files invent endless tag names
                if len(value) <= _MAX_INHERITED_VALUE and (name in prev
                                                           or len(prev) < _MAX_INHERITED):
                    prev[name] = value
        self.prev_game_tags = tags

    def _second_table(self, g: Game, tags: dict[str, str]) -> None:
        """A game with an auction or play but no Deal, on the same board as the game before,
        takes that game's board tags (PS106)."""
        before = self.prev_game_tags
        if ("Deal" not in tags and ("Auction" in g.tags or "Play" in g.tags)
                and before is not None and before.get("Deal")
                and tags.get("Board", before.get("Board")) == before.get("Board")):
            got = []
            for name in _BOARD_TAGS:
                if name not in tags and name in before:
                    tags[name] = before[name]
                    got.append(name)
            g.add(Finding("PS106", f"game has no Deal; {', '.join(got)} taken from the game "
                          "before", g.line))


def _items(n: int) -> str:
    """``1 item``, ``2 items``."""
    return f"{n} item" if n == 1 else f"{n} items"
