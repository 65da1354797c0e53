"""Streaming reader (and a small writer) for PBN, import format.

``read_pbn`` reads a binary stream line by line (``lines.iter_lines``: bounded lines), splits
it into games at blank lines outside comments, and turns every game that has at least one tag
into a ``BoardRecord``.  Everything it cannot read becomes a ``Diagnostic`` on that record; no
exception escapes, whatever the bytes.

What real files do, and what the reader does about it (see /work/shared/FORMATS.md):

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

import codecs
import re
from dataclasses import replace
from typing import BinaryIO, Iterator

from .. import auction as _auction
from ..cards import (
    NOTRUMP,
    SEATS,
    card_str,
    deal_str,
    parse_card,
    parse_deal,
    parse_seat,
    trick_winner,
)
from ..record import BoardRecord, Diagnostic, Play
from . import lines as _lines

MAX_GAME_LINES = 5000
MAX_GAME_BYTES = 1 << 20
_MAX_TAG_LINES = 8  # a tag spread over more lines than this is given up (PS102)
_MAX_INHERITED = 1000  # distinct tag names remembered for "#" / "##"
_MAX_INHERITED_VALUE = 1 << 16
MAX_DIAGNOSTICS = 100  # per game, and outside games per file; the rest are counted (PS009)

# --- regexes (compiled once) ---------------------------------------------------------------
_SIMPLE_TAG = re.compile(r'\[([A-Za-z_]\w*) ?"([^"\\]*)"\]\s*$')
_TAG_AT = re.compile(
    r'\[\s*([A-Za-z_]\w*)\s*(?:"((?:[^"\\\n]|\\.)*)"|([^\]\["\n]*?))\s*\]', re.DOTALL
)
_TAG_OPEN_QUOTE = re.compile(r'\[\s*([A-Za-z_]\w*)\s*"')
_TAG_PARTIAL = re.compile(r'\[\s*(?:[A-Za-z_]\w*\s*(?:"(?:[^"\\\n]|\\.)*"\s*)?)?$')
_STRICT_TAG_LINE = re.compile(r'\s*\[[A-Za-z_]\w*\s*"[^"]*"\]\s*$')
_SPECIAL = re.compile(r'[\[{;}]')
_CHARSET = re.compile(r'charset\s*[=:]?\s*"?([A-Za-z0-9._:-]+)', re.IGNORECASE)
_ESCAPE = re.compile(r'\\([\\"])')  # only \" and \\ are escapes; \S (a suit symbol) stays
_ANNOTATION = re.compile(r'=[^=\s]*(?:=|$)|\$\d*|[!?]+')
_RESULT = re.compile(
    r'^\s*(\^)?\s*(?:(\d+)|(NS|EW)\s*:?\s*(\d+)(?:\s*[,;]?\s*(NS|EW)\s*:?\s*(\d+))?)\s*$',
    re.IGNORECASE,
)
_VUL = {"none": "None", "love": "None", "-": "None", "ns": "NS", "ew": "EW", "all": "All",
        "both": "All"}
_GLUE_TAGS = ("Event", "Board", "Deal")
# what a second-table game with no Deal takes from the game before (board-level tags only)
_BOARD_TAGS = ("Event", "Site", "Date", "Stage", "Round", "Section", "Competition", "HomeTeam",
               "VisitTeam", "Scoring", "Board", "Dealer", "Vulnerable", "Deal")

_card_cache: dict[str, int] = {}
_call_cache: dict[str, str | None] = {}


def _card(token: str) -> int | None:
    c = _card_cache.get(token)
    if c is None:
        c = parse_card(token)
        if c is not None and len(_card_cache) < 4096:
            _card_cache[token] = c
    return c


def _call(token: str) -> str | None:
    try:
        return _call_cache[token]
    except KeyError:
        c = _auction.normalise_call(token)
        if len(_call_cache) < 4096:
            _call_cache[token] = c
        return c


def _unescape(value: str) -> str:
    return _ESCAPE.sub(r"\1", value) if "\\" in value else value


class _Game:
    """What has been read of one game so far (mutable, discarded by ``_end_game``)."""

    __slots__ = ("line", "tags", "tag_lines", "auction", "play", "diags", "nlines", "nbytes",
                 "stray_line", "stray_count", "suppressed")

    def __init__(self, line: int) -> None:
        self.line = line  # first tag's line once a tag is seen; else the block's first line
        self.tags: dict[str, str] = {}
        self.tag_lines: dict[str, int] = {}
        self.auction: list[tuple[str, int]] = []
        self.play: list[tuple[str, int]] = []
        self.diags: list[Diagnostic] = []
        self.nlines = 0
        self.nbytes = 0
        self.stray_line = 0
        self.stray_count = 0
        self.suppressed = 0

    def add(self, d: Diagnostic) -> None:
        if len(self.diags) < MAX_DIAGNOSTICS:
            self.diags.append(d)
        else:
            self.suppressed += 1


class _Reader:
    """Line-driven state machine: ``feed`` one line at a time; finished records are appended
    to ``out`` (the caller yields and clears them)."""

    def __init__(self, source: str, file_diags: list[Diagnostic] | None) -> None:
        self.source = source
        self.file_diags = file_diags
        self.charset: str | None = None
        self.title_date = ""  # %HRTitleDate: kept as the tag HRTitleDate of every game
        self.fallback_reported = False
        self.game: _Game | None = None
        self.games = 0
        self.in_comment = False
        self.comment_line = 0
        self.pending_tag: str | None = None
        self.pending_line = 0
        self.pending_count = 0
        self.section: str | None = None  # "auction" | "play" | "skip" | None
        self.skipping = False  # game too large: skip to the next blank line
        self.out: list[BoardRecord] = []
        self.orphans: list[Diagnostic] = []  # outside any game, when the caller gave no list
        self.orphan_count = 0
        # inheritance
        self.prev: dict[str, str] = {}
        self.sticky: dict[str, str] = {}
        self.prev_game_tags: dict[str, str] | None = None

    # --- diagnostics -------------------------------------------------------------------------
    def diag(self, code: str, message: str, line: int | None) -> None:
        d = Diagnostic(code, message, self.source, line)
        if self.game is not None:
            self.game.add(d)
        else:
            self._orphan(d)

    def _orphan(self, d: Diagnostic) -> None:
        """A diagnostic outside any game: to the caller's list, else onto the next record."""
        self.orphan_count += 1
        if self.orphan_count > MAX_DIAGNOSTICS:
            return
        if self.orphan_count == MAX_DIAGNOSTICS:
            d = Diagnostic("PS009", "too many problems outside games; the rest of them are not "
                           "reported", self.source, d.line)
        if self.file_diags is not None:
            self.file_diags.append(d)
        else:
            self.orphans.append(d)

    # --- lines -------------------------------------------------------------------------------
    def feed(self, raw: bytes, was_cut: bool, lineno: int) -> None:
        text, fell_back = _lines.decode(raw, self.charset)
        if lineno == 1 and text.startswith("\ufeff"):
            text = text[1:]
        blank = not text.strip()
        if blank and not self.in_comment:
            self._blank(lineno)
            return
        if self.game is None:
            self.game = _Game(lineno)
        g = self.game
        g.nlines += 1
        g.nbytes += len(raw) + 1
        if fell_back and not self.fallback_reported:
            self.fallback_reported = True
            declared = f"declared charset {self.charset}" if self.charset else "UTF-8"
            self.diag("PS002", f"line is not valid {declared}; decoded as cp1252", lineno)
        if was_cut:
            self.diag("PS005", f"line longer than {_lines.MAX_LINE} bytes; cut", lineno)
        if self.skipping:
            return
        if g.nlines > MAX_GAME_LINES or g.nbytes > MAX_GAME_BYTES:
            self.diag("PS006", f"game longer than {MAX_GAME_LINES} lines or "
                      f"{MAX_GAME_BYTES} bytes; the rest of it, up to the next blank line, "
                      "was skipped", lineno)
            self.skipping = True
            self.in_comment = False
            self.pending_tag = None
            return
        if self.in_comment:
            end = text.find("}")
            if end < 0:
                if lineno > self.comment_line and _STRICT_TAG_LINE.match(text):
                    self.in_comment = False
                    self.diag("PS121", f"comment opened on line {self.comment_line} is not "
                              "closed; closed before this tag", lineno)
                    self._scan(text, 0, lineno)
                return
            self.in_comment = False
            self._scan(text, end + 1, lineno)
            return
        if self.pending_tag is not None:
            self._continue_tag(text, lineno)
            return
        if text[0] == "%":
            self._directive(text, lineno)
            return
        # fast paths: a lone simple tag; a data line with nothing special in it
        m = _SIMPLE_TAG.match(text)
        if m:
            self._tag(m.group(1), m.group(2), lineno)
            return
        self._scan(text, 0, lineno)

    def _blank(self, lineno: int) -> None:
        if self.pending_tag is not None:
            self.diag("PS102", "tag not closed before the blank line; ignored",
                      self.pending_line)
            self.pending_tag = None
        self.skipping = False
        self._end_game()

    def _directive(self, text: str, lineno: int) -> None:
        if text.startswith("%HRTitleDate "):  # BridgeComposer's hand-record date, file-wide
            self.title_date = text[len("%HRTitleDate "):].strip().strip('"')[:40]
            return
        m = _CHARSET.search(text)
        if m:
            name = m.group(1)
            try:
                codecs.lookup(name)
            except LookupError:
                self.diag("PS122", f"unknown charset {name!r} declared; ignored", lineno)
            else:
                self.charset = name

    def _scan(self, text: str, pos: int, lineno: int) -> None:
        """Read ``text[pos:]`` outside comments: tags, comments, section data."""
        n = len(text)
        special = _SPECIAL
        while pos < n:
            m = special.search(text, pos)
            end = m.start() if m else n
            if end > pos:
                chunk = text[pos:end]
                if not chunk.isspace():
                    self._data(chunk.split(), lineno)
            if m is None:
                return
            ch = text[end]
            if ch == ";":
                return
            if ch == "{":
                close = text.find("}", end + 1)
                if close < 0:
                    self.in_comment = True
                    self.comment_line = lineno
                    return
                pos = close + 1
                continue
            if ch == "}":
                self._stray(lineno)
                pos = end + 1
                continue
            # "["
            t = _TAG_AT.match(text, end)
            if t:
                name, quoted, bare = t.group(1), t.group(2), t.group(3)
                if quoted is None:
                    if bare:
                        self.diag("PS103", f"value of tag {name} is not in quotes", lineno)
                    value = bare.strip()
                else:
                    value = _unescape(quoted)
                self._tag(name, value, lineno)
                pos = t.end()
                continue
            q = _TAG_OPEN_QUOTE.match(text, end)
            if q:
                stop = text.find("[", q.end())
                if stop < 0:
                    stop = n
                value = text[q.end():stop].rstrip()
                if value.endswith("]"):
                    value = value[:-1].rstrip()
                if value.endswith('"'):
                    value = value[:-1]
                self.diag("PS102", f"tag {q.group(1)} has no closing quote; value read to "
                          + ("the next '['" if stop < n else "the end of the line"), lineno)
                self._tag(q.group(1), _unescape(value), lineno)
                pos = stop
                continue
            if _TAG_PARTIAL.match(text, end):
                self.pending_tag = text[end:]
                self.pending_line = lineno
                self.pending_count = 1
                return
            self._stray(lineno)
            pos = end + 1

    def _continue_tag(self, text: str, lineno: int) -> None:
        pending = self.pending_tag or ""
        buf = pending + "\n" + text
        t = _TAG_AT.match(buf)
        if t:
            self.pending_tag = None
            name, quoted, bare = t.group(1), t.group(2), t.group(3)
            value = _unescape(quoted) if quoted is not None else bare.strip()
            if quoted is None and bare.strip():
                self.diag("PS103", f"value of tag {name} is not in quotes", self.pending_line)
            self._tag(name, value, self.pending_line)
            self._scan(text, max(0, t.end() - len(pending) - 1), lineno)
            return
        self.pending_count += 1
        if (_TAG_PARTIAL.match(buf) and self.pending_count <= _MAX_TAG_LINES
                and not text.lstrip().startswith("[")):
            self.pending_tag = buf
            return
        self.pending_tag = None
        self.diag("PS102", "tag not closed; ignored", self.pending_line)
        if text[0] == "%":
            self._directive(text, lineno)
        else:
            self._scan(text, 0, lineno)

    def _stray(self, lineno: int) -> None:
        g = self.game
        if g is None:
            return
        if g.stray_count == 0:
            g.stray_line = lineno
        g.stray_count += 1

    # --- tags and section data -----------------------------------------------------------------
    def _tag(self, name: str, value: str, lineno: int) -> None:
        g = self.game
        if g is None:  # cannot happen: feed creates the game
            g = self.game = _Game(lineno)
        tags = g.tags
        if not tags:
            g.line = lineno
        if name in tags:
            if (name in _GLUE_TAGS and (tags.get("Deal") or "Auction" in tags or "Play" in tags)
                    and (name == "Event" or (tags[name] and value and value != tags[name]))):
                # two games with no blank line between them
                self._end_game()
                self.game = g = _Game(lineno)
                g.add(Diagnostic("PS120", f"no blank line before this game: a second "
                                 f"{name} tag starts a new game", self.source, lineno))
                tags = g.tags
            elif self._is_empty(g, name) and (value or name in ("Auction", "Play")):
                if name == "Auction":
                    g.auction = []
                elif name == "Play":
                    g.play = []
                tags[name] = value
                g.tag_lines[name] = lineno
                self.section = "auction" if name == "Auction" else (
                    "play" if name == "Play" else None)
                return
            else:
                if name in ("Auction", "Play") or (value != tags[name] and name != "Note"):
                    self.diag("PS104", f"repeated tag {name} ignored (first value kept)",
                              lineno)
                self.section = "skip" if name in ("Auction", "Play") or _is_table(name) else None
                return
        tags[name] = value
        g.tag_lines[name] = lineno
        if name == "Auction":
            self.section = "auction"
        elif name == "Play":
            self.section = "play"
        elif _is_table(name):
            self.section = "skip"
        else:
            self.section = None

    @staticmethod
    def _is_empty(g: _Game, name: str) -> bool:
        if name == "Auction":
            return not g.auction
        if name == "Play":
            return not g.play
        return g.tags.get(name, "") == ""

    def _data(self, tokens: list[str], lineno: int) -> None:
        g = self.game
        if g is None:
            return
        s = self.section
        if s == "play":
            g.play.extend((t, lineno) for t in tokens)
        elif s == "auction":
            g.auction.extend((t, lineno) for t in tokens)
        elif s == "skip":
            return
        else:
            self._stray(lineno)

    # --- end of a game -------------------------------------------------------------------------
    def _end_game(self) -> None:
        g = self.game
        self.game = None
        self.section = None
        self.skipping = False
        if g is None:
            return
        if not g.tags:
            if g.stray_count:
                self._orphan(Diagnostic(
                    "PS101", f"text outside tags and comments ignored ({g.stray_count} "
                    "item(s)); no tag in this block", self.source, g.stray_line))
            for d in g.diags:
                self._orphan(d)
            return
        self.games += 1
        if self.orphans:
            g.diags[:0] = self.orphans
            self.orphans = []
        if g.stray_count:
            g.add(Diagnostic("PS101", f"text outside tags and comments ignored "
                             f"({g.stray_count} item(s) from this line on)",
                             self.source, g.stray_line))
        try:
            tags = self._inherit(g)
            if self.title_date and self.title_date != "0":
                tags.setdefault("HRTitleDate", self.title_date)
            rec = _build(g, tags, self.source, self.games)
        except Exception as exc:  # noqa: BLE001 - one bad game must never stop the file
            rec = BoardRecord(
                source=self.source, line=g.line, game=self.games, format="pbn",
                tags=dict(g.tags), unreadable=True,
                diagnostics=_diagnostics(g) + (Diagnostic(
                    "PS123", f"internal error while reading this game: "
                    f"{type(exc).__name__}: {exc}", self.source, g.line),),
            )
        self.out.append(rec)

    def finish(self, lineno: int) -> None:
        if self.game is not None:
            if self.in_comment:
                self.diag("PS004", f"file ends inside the comment opened on line "
                          f"{self.comment_line} (truncated?)", lineno)
            elif self.pending_tag is not None:
                self.diag("PS004", "file ends inside a tag (truncated?)", self.pending_line)
        self.pending_tag = None
        self.in_comment = False
        self._end_game()

    def _inherit(self, g: _Game) -> dict[str, str]:
        """Resolve ``#`` and ``##`` and the missing-deal second table; update the state."""
        tags: dict[str, str] = {}
        prev, sticky = self.prev, self.sticky
        for name, value in g.tags.items():
            if value == "#":
                if name in prev:
                    value = prev[name]
                else:
                    g.add(Diagnostic("PS105", f'tag {name} is "#" but no earlier game has it',
                                     self.source, g.tag_lines.get(name)))
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
        before = self.prev_game_tags
        if ("Deal" not in tags and ("Auction" in g.tags or "Play" in g.tags)
                and before is not None and before.get("Deal")
                and tags.get("Board", before.get("Board")) == before.get("Board")):
            got = []
            for name in _BOARD_TAGS:
                if name not in tags and name in before:
                    tags[name] = before[name]
                    got.append(name)
            g.add(Diagnostic("PS106", f"game has no Deal; {', '.join(got)} taken from the game "
                             "before", self.source, g.line))
        for name, value in tags.items():  # bounded: junk files invent endless tag names
            if len(value) <= _MAX_INHERITED_VALUE and (name in prev or len(prev) < _MAX_INHERITED):
                prev[name] = value
        self.prev_game_tags = tags
        return tags


def _is_table(name: str) -> bool:
    return name.endswith("Table") and name != "Table"


# --- building the record ---------------------------------------------------------------------
def _build(g: _Game, tags: dict[str, str], source: str, game_no: int) -> BoardRecord:
    lines = g.tag_lines

    def d(code: str, msg: str, line: int | None) -> None:
        g.add(Diagnostic(code, msg, source, line))

    get = tags.get
    # dealer, vulnerability
    dealer = None
    v = get("Dealer", "").strip()
    if v and v != "?":
        dealer = parse_seat(v)
        if dealer is None:
            d("PS109", f"Dealer {v!r} is not a seat", lines.get("Dealer"))
    vul = None
    v = get("Vulnerable", "").strip()
    if v and v != "?":
        vul = _VUL.get(v.lower())
        if vul is None:
            d("PS110", f"Vulnerable {v!r} is not None/NS/EW/All", lines.get("Vulnerable"))
    # deal
    hands = None
    deal_line = lines.get("Deal")
    v = get("Deal", "").strip()
    if v and v != "?":
        got = parse_deal(v)
        if got is None:
            d("PS107", f"Deal {v[:80]!r} cannot be read", deal_line)
        else:
            hands = got[0]
            if got[1]:
                d("PS108", "Deal is not a valid deal: " + "; ".join(got[1][:6]), deal_line)
    # declarer, contract
    declarer_stated = None
    swapped = False
    v = get("Declarer", "").strip()
    if v and v != "?":
        if v[0] == "^":
            swapped = True
            v = v[1:].strip()
        declarer_stated = parse_seat(v)
        if declarer_stated is None:
            swapped = False
            d("PS111", f"Declarer {get('Declarer')!r} is not a seat", lines.get("Declarer"))
    contract_stated = None
    v = get("Contract", "").strip()
    if v and v != "?":
        contract_stated = _auction.normalise_contract(v)
        if contract_stated is None:
            d("PS112", f"Contract {v[:40]!r} cannot be read", lines.get("Contract"))
    # auction
    calls: tuple[str, ...] = ()
    contract_derived = declarer_derived = None
    auction_line = lines.get("Auction")
    if "Auction" in tags:
        first = parse_seat(get("Auction", ""))
        calls, first = _read_auction(g.auction, first, d, auction_line)
        if first is None:
            if calls:
                d("PS114", f"Auction {get('Auction')!r} does not name the first seat",
                  auction_line)
        else:
            if dealer is not None and first != dealer and calls:
                d("PS115", f"auction starts with {SEATS[first]} but the dealer is "
                  f"{SEATS[dealer]}", auction_line)
            contract_derived, declarer_derived = _auction.derive_contract(calls, first)
        if dealer is None and first is not None and calls:
            dealer = first
    # result
    result_stated = None
    flagged = False
    result_line = lines.get("Result")
    v = get("Result", "").strip()
    if v and v != "?":
        m = _RESULT.match(v)
        if m is None:
            d("PS113", f"Result {v[:40]!r} cannot be read", result_line)
        else:
            flagged = m.group(1) is not None
            if m.group(2) is not None:
                result_stated = int(m.group(2))
            else:
                decl = declarer_stated if declarer_stated is not None else declarer_derived
                by_side = {m.group(3).upper(): int(m.group(4))}
                if m.group(5):
                    by_side.setdefault(m.group(5).upper(), int(m.group(6)))
                if decl is None:
                    if (contract_stated or contract_derived) != "Pass":
                        d("PS113", f"Result {v!r} gives tricks by side but the declarer is "
                          "unknown", result_line)
                else:
                    side = "NS" if decl % 2 == 0 else "EW"
                    other = "EW" if side == "NS" else "NS"
                    if side in by_side:
                        result_stated = by_side[side]
                    else:
                        result_stated = 13 - by_side[other]
            if result_stated is not None and not 0 <= result_stated <= 13:
                d("PS113", f"Result {v!r} is not 0..13 tricks", result_line)
                result_stated = None
    # play
    play: tuple[Play, ...] = ()
    stopped = False
    play_leader = None
    play_line = lines.get("Play")
    if "Play" in tags:
        play_leader = parse_seat(get("Play", ""))
        contract = contract_stated if contract_stated is not None else contract_derived
        if g.play:
            if play_leader is None:
                declarer = declarer_stated if declarer_stated is not None else declarer_derived
                if declarer is not None and not swapped:
                    play_leader = (declarer + 1) % 4
                    d("PS118", f"Play {get('Play')!r} is not a seat; declarer's left-hand "
                      f"opponent {SEATS[play_leader]} taken", play_line)
                else:
                    d("PS118", f"Play {get('Play')!r} is not a seat; seats of the cards "
                      "unknown", play_line)
            play, stopped = _read_play(g.play, play_leader, _trump(contract), d)
    # names, room
    room = get("Room", "").strip()
    if room.lower() in ("open", "closed"):
        room = room.lower()
    if not room:
        room = get("Table", "").strip()
    names = (get("North", ""), get("East", ""), get("South", ""), get("West", ""))
    return BoardRecord(
        source=source, line=g.line, game=game_no, format="pbn", room=room,
        event=get("Event", ""), site=get("Site", ""), date=get("Date", ""),
        board=get("Board", "").strip(), dealer=dealer, vul=vul, names=names,
        scoring=get("Scoring", ""), tags=tags, hands=hands, deal_line=deal_line,
        auction=calls, auction_line=auction_line, contract_stated=contract_stated,
        declarer_stated=declarer_stated, contract_derived=contract_derived,
        declarer_derived=declarer_derived, declarer_swapped=swapped,
        play_leader=play_leader, play_line=play_line, play=play, play_stopped=stopped,
        result_stated=result_stated, result_flagged=flagged, result_line=result_line,
        diagnostics=_diagnostics(g), unreadable=hands is None and not play,
    )


def _diagnostics(g: _Game) -> tuple[Diagnostic, ...]:
    if not g.suppressed:
        return tuple(g.diags)
    return tuple(g.diags) + (Diagnostic("PS009", f"{g.suppressed} more problems in this game not "
                                        "reported", g.diags[-1].source, g.diags[-1].line),)


def _trump(contract: str | None) -> int | None | bool:
    """Trump suit index, None for no trump, False when unknown."""
    if contract is None:
        return False
    got = _auction.parse_contract(contract)
    if got is None or got == "Pass":
        return False
    strain = got[1]
    return None if strain == NOTRUMP else strain


def _read_auction(tokens, first, d, auction_line):
    """Normalised calls from the raw tokens; returns (calls, first seat).

    Notes ``=1=``, NAGs ``$12``, suffixes ``! ?`` and irregularity marks ``^S``/``^I`` are
    skipped; ``-`` before the first call is a placeholder for a seat before the dealer; ``AP``
    is expanded into passes; ``*``/``+`` end the auction.  An unreadable call ends it too."""
    calls: list[str] = []
    for tok, line in tokens:
        c = _call(tok)
        if c is None:
            if tok == "-":
                if not calls:
                    if first is not None:
                        first = (first + 1) % 4
                    continue
                if _auction.derive_contract(calls, 0)[0] is not None:
                    continue  # filler after a finished auction
            if tok == "*" or tok == "+":
                break
            t = tok[2:] if tok[0] == "^" else tok
            t = _ANNOTATION.sub("", t)
            if not t:
                continue
            c = _call(t)
            if c is None:
                d("PS114", f"call {tok[:20]!r} cannot be read; auction read up to here", line)
                break
        if c == "AP":
            if any(x != "P" for x in calls):
                trailing = 0
                for x in reversed(calls):
                    if x != "P":
                        break
                    trailing += 1
                calls.extend(["P"] * max(0, 3 - trailing))
            else:
                calls.extend(["P"] * max(0, 4 - len(calls)))
            break
        calls.append(c)
    return tuple(calls), first


def _read_play(tokens, leader0, trump, d):
    """Play tokens (seat columns) -> Plays in time order, and whether ``*``/``+`` stopped it."""
    # 1. tokens -> slots (card, marks, line), four to a trick
    slots: list[tuple[int | None, tuple[str, ...], int]] = []
    marks: tuple[str, ...] = ()
    stopped = False
    bad = bad_line = 0
    for tok, line in tokens:
        c = _card_cache.get(tok)
        if c is not None:
            slots.append((c, marks, line))
            marks = ()
            continue
        if tok == "-":
            slots.append((None, marks, line))
            marks = ()
            continue
        if tok == "*" or tok == "+":
            stopped = True
            break
        t = tok
        while t[:1] == "^" and len(t) >= 2:
            m = t[1].upper()
            if m in ("R", "L"):
                marks = marks + (m,)
            else:
                d("PS116", f"unknown play mark {t[:2]!r} ignored", line)
            t = t[2:]
        t2 = _ANNOTATION.sub("", t) if t else t
        if not t2:
            continue
        if t2 == "-":
            c = None
        else:
            c = _card(t2)
            if c is None:
                if t2 in ("*", "+"):
                    stopped = True
                    break
                bad += 1
                bad_line = line
                if bad <= 5:
                    d("PS116", f"card {tok[:20]!r} cannot be read (trick {len(slots) // 4 + 1}"
                      ")", line)
        slots.append((c, marks, line))
        marks = ()
    if bad > 5:
        d("PS116", f"{bad} unreadable card tokens in all (the last on this line)", bad_line)
    if not slots:
        return (), stopped
    ntricks = (len(slots) + 3) // 4
    if ntricks > 13:
        d("PS119", f"play has {ntricks} tricks; more than 13", slots[52][2])
    # 2. columns -> time order
    out: list[Play] = []
    if leader0 is None:
        for i, (c, mk, line) in enumerate(slots):
            out.append(Play(None, c, mk, line, i // 4 + 1))
        return tuple(out), stopped
    leader: int | None = leader0
    for t in range(ntricks):
        row = slots[4 * t: 4 * t + 4]
        for col, (_, mk, _) in enumerate(row):
            if "L" in mk:
                leader = (leader0 + col) % 4
        trick = t + 1
        if leader is None:  # the replay re-derives the order from seats and says why it stops
            for col, (c, mk, line) in enumerate(row):
                out.append(Play((leader0 + col) % 4, c, mk, line, trick))
            continue
        start = (leader - leader0) % 4
        cards: list[int | None] = []
        for i in range(4):
            col = (start + i) % 4
            if col < len(row):
                c, mk, line = row[col]
                out.append(Play((leader0 + col) % 4, c, mk, line, trick))
                cards.append(c)
        if len(cards) == 4 and None not in cards and trump is not False:
            leader = trick_winner(leader, cards, trump)  # type: ignore[arg-type]
        else:
            leader = None
    return tuple(out), stopped


# --- public API ----------------------------------------------------------------------------
def read_pbn(stream: BinaryIO, source: str, *,
             diagnostics: list[Diagnostic] | None = None) -> Iterator[BoardRecord]:
    """Yield one ``BoardRecord`` per game (a block with at least one tag) of a PBN stream.

    Problems inside a game are on its record.  Problems outside any game (text, binary junk or
    a truncated comment in a block without tags) go to ``diagnostics`` when a list is given,
    else onto the next record (after the last game: onto the last record; so each record is
    yielded when the next game is complete).  Never raises for any content; I/O errors of the
    stream itself are the caller's."""
    reader = _Reader(source, diagnostics)
    out = reader.out
    held: BoardRecord | None = None
    lineno = 0
    for raw, cut in _lines.iter_lines(stream):
        lineno += 1
        try:
            reader.feed(raw, cut, lineno)
        except Exception as exc:  # noqa: BLE001 - defensive: a bug must not stop the file
            reader.diag("PS123", f"internal error on this line: {type(exc).__name__}: {exc}",
                        lineno)
            reader.in_comment = False
            reader.pending_tag = None
        if out:
            for rec in out:
                if held is not None:
                    yield held
                held = rec
            out.clear()
    try:
        reader.finish(lineno)
    except Exception as exc:  # noqa: BLE001
        reader._orphan(Diagnostic("PS123", f"internal error at end of file: "
                                  f"{type(exc).__name__}: {exc}", source, lineno))
    for rec in out:
        if held is not None:
            yield held
        held = rec
    out.clear()
    if held is not None:
        if reader.orphans:
            held = replace(held, diagnostics=held.diagnostics + tuple(reader.orphans))
        yield held


def _q(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def format_pbn(record: BoardRecord) -> str:
    """One game in PBN export layout (tags, Auction, Play in seat columns), ending with a
    newline; games written one after another need a blank line between them."""
    out: list[str] = []
    add = out.append
    names = record.names
    for tag, value in (("Event", record.event), ("Site", record.site), ("Date", record.date),
                       ("Board", record.board), ("West", names[3]), ("North", names[0]),
                       ("East", names[1]), ("South", names[2])):
        if value:
            add(f'[{tag} "{_q(value)}"]')
    if record.dealer is not None:
        add(f'[Dealer "{SEATS[record.dealer]}"]')
    if record.vul is not None:
        add(f'[Vulnerable "{record.vul}"]')
    if record.hands is not None:
        add(f'[Deal "{deal_str(record.hands)}"]')
    if record.scoring:
        add(f'[Scoring "{_q(record.scoring)}"]')
    if record.room:
        room = record.room.capitalize() if record.room in ("open", "closed") else record.room
        add(f'[Room "{_q(room)}"]')
    contract = record.contract
    declarer = record.declarer
    if contract is not None or declarer is not None:
        decl = ""
        if declarer is not None:
            decl = ("^" if record.declarer_swapped else "") + SEATS[declarer]
        add(f'[Declarer "{decl}"]')
        add(f'[Contract "{contract or ""}"]')
    if record.result_stated is not None:
        add(f'[Result "{"^" if record.result_flagged else ""}{record.result_stated}"]')
    if record.auction and record.dealer is not None:
        add(f'[Auction "{SEATS[record.dealer]}"]')
        calls = ["Pass" if c == "P" else c for c in record.auction]
        for i in range(0, len(calls), 4):
            add(" ".join(calls[i:i + 4]))
    if record.play:
        leader0 = record.play_leader
        if leader0 is None:
            leader0 = record.play[0].seat if record.play[0].seat is not None else (
                (declarer + 1) % 4 if declarer is not None else 0)
        add(f'[Play "{SEATS[leader0]}"]')
        rows: dict[int, list[str]] = {}
        for i, p in enumerate(record.play):
            trick = p.trick if p.trick is not None else i // 4 + 1
            row = rows.setdefault(trick, ["-"] * 4)
            col = (p.seat - leader0) % 4 if p.seat is not None else i % 4
            marks = "".join(f"^{m} " for m in p.marks)
            row[col] = marks + card_str(p.card)
        for trick in sorted(rows):
            add(" ".join(rows[trick]))
        if record.play_stopped:
            add("*")
    return "\n".join(out) + "\n"


__all__ = ["read_pbn", "format_pbn", "MAX_GAME_LINES", "MAX_GAME_BYTES"]
