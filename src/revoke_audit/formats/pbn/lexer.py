"""PBN lexer: one decoded line at a time -> tags, section tokens, comments and directives.

``Lexer.feed`` handles the line-level syntax and everything real files get wrong about it:
``;`` and ``{...}`` comments (a comment left open by BridgeComposer is closed by a line that is
one well-formed tag, PS121; a stray ``}`` is text, PS101), tags with or without a space, several
per line or spread over lines, ``\\"`` escapes, unquoted values (PS103), a missing closing
quote (PS102), ``%`` directives (charset, ``%HRTitleDate``), undecodable (PS002) and over-long
(PS005) lines.  A blank line outside a comment ends the game.  What it finds goes to a
``games.Games``, which groups it into games and records."""
from __future__ import annotations

import codecs
import re

from .. import lines as _lines
from .games import Games

_MAX_TAG_LINES = 8  # a tag spread over more lines than this is given up (PS102)

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


def _unescape(value: str) -> str:
    """Undo the ``\\"`` and ``\\\\`` escapes of a quoted tag value."""
    return _ESCAPE.sub(r"\1", value) if "\\" in value else value


class Lexer:
    """Line-driven state machine over one file: comments, pending tags, charset."""

    def __init__(self, games: Games) -> None:
        self.games = games
        self.charset: str | None = None
        self.fallback_reported = False
        self.in_comment = False
        self.comment_line = 0
        self.pending_tag: str | None = None
        self.pending_line = 0
        self.pending_count = 0
        # the hot calls, bound once
        self.diag = games.diag
        self._tag = games.tag
        self._data = games.data
        self._stray = games.stray

    def feed(self, raw: bytes, was_cut: bool, lineno: int) -> None:
        """Read one line (``raw`` without its newline; ``was_cut`` when over-long)."""
        if not raw and not self.in_comment:
            self._blank()  # an empty line: what its decoded text, "", would do below
            return
        text, fell_back = _lines.decode(raw, self.charset)
        if lineno == 1 and text.startswith("\ufeff"):
            text = text[1:]
        if not self.in_comment and not text.strip():
            self._blank()
            return
        if not self._count(len(raw), fell_back, was_cut, lineno):
            return
        if self.in_comment:
            self._comment_line(text, lineno)
        elif self.pending_tag is not None:
            self._continue_tag(text, lineno)
        elif text[0] == "%":
            self._directive(text, lineno)
        else:
            m = _SIMPLE_TAG.match(text)  # fast path: a lone simple tag
            if m:
                self._tag(m.group(1), m.group(2), lineno)
            else:
                self._scan(text, 0, lineno)

    def _count(self, nbytes: int, fell_back: bool, was_cut: bool, lineno: int) -> bool:
        """Count the line into its game and report decoding and length problems.

        False when the line is not to be read: the game is over the size limits (PS006)."""
        games = self.games
        games.count_line(nbytes, lineno)
        if fell_back and not self.fallback_reported:
            self.fallback_reported = True
            declared = f"declared charset {self.charset}" if self.charset else "UTF-8"
            self.diag("PS002", f"line is not valid {declared}; decoded as cp1252", lineno)
        if was_cut:
            self.diag("PS005", f"line longer than {_lines.MAX_LINE} bytes; cut", lineno)
        if games.skipping:
            return False
        if games.too_large(lineno):
            self.in_comment = False
            self.pending_tag = None
            return False
        return True

    def _blank(self) -> None:
        """A blank line outside comments: the end of the game (and of an unclosed tag)."""
        if self.pending_tag is not None:
            self.diag("PS102", "tag not closed before the blank line; ignored",
                      self.pending_line)
            self.pending_tag = None
        self.games.end_game()

    def _comment_line(self, text: str, lineno: int) -> None:
        """A line inside a ``{`` comment: up to the ``}``, or a lone tag that closes it."""
        end = text.find("}")
        if end >= 0:
            self.in_comment = False
            self._scan(text, end + 1, lineno)
        elif lineno > self.comment_line and _STRICT_TAG_LINE.match(text):
            self.in_comment = False
            self.diag("PS121", f"comment opened on line {self.comment_line} is not "
                      "closed; closed before this tag", lineno)
            self._scan(text, 0, lineno)

    def _directive(self, text: str, lineno: int) -> None:
        """``%`` line: ``%HRTitleDate`` and a charset declaration are read, the rest skipped."""
        if text.startswith("%HRTitleDate "):  # BridgeComposer's hand-record date, file-wide
            self.games.title_date = text[len("%HRTitleDate "):].strip().strip('"')[:40]
            return
        m = _CHARSET.search(text)
        if m:
            name = m.group(1)
            try:
                info = codecs.lookup(name)
            except LookupError:
                self.diag("PS122", f"unknown charset {name!r} declared; ignored", lineno)
            else:
                # a UTF-16/32 file reaches the lexer already converted to UTF-8 (by its BOM)
                if not info.name.startswith(("utf-16", "utf-32")):
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
            elif ch == "}":
                self._stray(lineno)
                pos = end + 1
            else:
                pos = self._scan_tag(text, end, lineno)
                if pos < 0:
                    return

    def _scan_tag(self, text: str, start: int, lineno: int) -> int:
        """A ``[`` at ``text[start]``: read the tag; returns where to go on, -1 to stop (the tag
        continues on the next line)."""
        t = _TAG_AT.match(text, start)
        if t:
            name, quoted, bare = t.group(1), t.group(2), t.group(3)
            if quoted is None:
                if bare:
                    self.diag("PS103", f"value of tag {name} is not in quotes", lineno)
                value = bare.strip()
            else:
                value = _unescape(quoted)
            self._tag(name, value, lineno)
            return t.end()
        q = _TAG_OPEN_QUOTE.match(text, start)
        if q:
            return self._unclosed_quote(text, q, lineno)
        if _TAG_PARTIAL.match(text, start):
            self.pending_tag = text[start:]
            self.pending_line = lineno
            self.pending_count = 1
            return -1
        self._stray(lineno)
        return start + 1

    def _unclosed_quote(self, text: str, q: re.Match, lineno: int) -> int:
        """``[Name "value`` with no closing quote: the value runs to the next ``[`` or the end
        of the line (PS102); returns where to go on."""
        n = len(text)
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
        return stop

    def _continue_tag(self, text: str, lineno: int) -> None:
        """The next line of a tag spread over lines; given up after ``_MAX_TAG_LINES`` lines
        or at a line that starts another tag (PS102)."""
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

    def recover(self, exc: Exception, lineno: int) -> None:
        """After an internal error on a line: report it (PS123) and reset the line state."""
        self.diag("PS123", f"internal error on this line: {type(exc).__name__}: {exc}", lineno)
        self.in_comment = False
        self.pending_tag = None

    def finish(self, lineno: int) -> None:
        """End of file: a truncated comment or tag (PS004), then the last game."""
        if self.games.game is not None:
            if self.in_comment:
                self.diag("PS004", f"file ends inside the comment opened on line "
                          f"{self.comment_line} (truncated?)", lineno)
            elif self.pending_tag is not None:
                self.diag("PS004", "file ends inside a tag (truncated?)", self.pending_line)
        self.pending_tag = None
        self.in_comment = False
        self.games.end_game()
