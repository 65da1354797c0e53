"""LIN lexer: decoded lines -> ``(key, value, key line)`` pairs.

LIN is a flat run of ``key|value|`` pairs with no escapes; newlines mean nothing except that they
may fall inside a value, so the open segment is carried from line to line.  Text that is not a
two-letter key where a key is due is skipped (PS201; the next segment is taken as the key, which
resynchronises after a stray ``|``), a value longer than ``MAX_VALUE`` characters is cut
(PS210), undecodable (PS002) and over-long (PS005) lines are reported, and the end of the file
inside a pair is reported by ``finish`` (PS004).  These problems are not filed at once: they
wait in ``deferred`` for the board of the next pair, the one that follows a garbage line."""
from __future__ import annotations

from typing import Iterator

from ..lines import strip_c1

MAX_VALUE = 1 << 16  # characters kept of one key or value spanning lines (PS210)

# the keys of real files, as written -> lower case (anything else takes the slow path)
_KEY_OF = {k: k for k in ("pc", "pg", "mb", "md", "st", "ah", "sv", "rh", "pn", "nt", "mc", "an",
                          "qx", "at", "ht", "pf", "sa", "cs", "vg", "rs", "va", "bt", "mn", "sk")}
_KEY_OF.update({k.upper(): k for k in list(_KEY_OF)})

Deferred = list[tuple[str, str, int]]  # (code, message, line) for the next pair's board


class PairLexer:
    """Splitting state carried between lines: the open segment and whether a key is due."""

    def __init__(self) -> None:
        self.deferred: Deferred = []
        self.pending = ""  # the open (not yet |-terminated) segment
        self.pend_line = 1  # line where the open segment's text starts
        self.expect_key = True
        self.key = ""
        self.key_line = 0
        self.fallback = False  # PS002 reported
        self.seg_cut = False  # the open segment was cut at MAX_VALUE

    def decode(self, raw: bytes, cut: bool, lineno: int) -> str:
        """UTF-8, else cp1252 (PS002 once); PS005 for a line cut by ``iter_lines``."""
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            text = raw.decode("cp1252", errors="replace")
            if not self.fallback:
                self.fallback = True
                self.deferred.append(("PS002", "text is not UTF-8; decoded as cp1252", lineno))
        if not text.isascii():
            text = strip_c1(text)
        if cut:
            self.deferred.append(("PS005", "line too long; cut at the limit (the rest of the line "
                                  "was skipped)", lineno))
        return text

    def pairs(self, text: str, lineno: int) -> Iterator[tuple[str, str, int]]:
        """The pairs completed by line ``lineno``, as ``(key, value, key line)``, lazily (so
        that ``deferred`` holds, at each pair, only what was found before it)."""
        if self.seg_cut and "|" not in text:
            return  # still inside an over-long segment: nothing more of it is kept
        segs = text.split("|")
        if self.seg_cut:
            seg_line = self.pend_line
            segs[0] = self.pending  # the kept part of the over-long segment
        elif self.pending:
            seg_line = self.pend_line if self.pending.strip() else lineno
            segs[0] = self.pending + "\n" + segs[0]
        else:
            seg_line = lineno
        last = segs.pop()
        key_of = _KEY_OF
        expect_key, key, key_line = self.expect_key, self.key, self.key_line
        try:
            for seg in segs:
                if expect_key:
                    k = key_of.get(seg)  # the usual case: a plain two-letter key
                    if k is None:
                        k = self._odd_key(seg, seg_line)
                    if k is not None:
                        key, key_line, expect_key = k, lineno, False
                else:
                    expect_key = True
                    yield key, seg, key_line
                seg_line = lineno
        finally:
            self.expect_key, self.key, self.key_line = expect_key, key, key_line
        self._keep_open(last, bool(segs), lineno)

    def _odd_key(self, seg: str, seg_line: int) -> str | None:
        """A key segment that is not a plain key: spaced or upper case, text then a key at the
        start of a line, or no key at all (None).  Skipped text is reported (PS201)."""
        k = seg.strip()
        if len(k) == 2 and k.isalpha():
            return k.lower()
        if len(k) > 2 and k[-3] == "\n" and k[-2:].isalpha():
            # text, then a key at the start of a line (teaching files, a garbage line)
            self.deferred.append(("PS201", "text outside key|value pairs skipped: "
                                  f"{k[:-2].strip()[:40]!r}", seg_line))
            return k[-2:].lower()
        # not a key: skip this text and take the next segment as the key
        # (resynchronises after a stray '|', e.g. inside a comment)
        if k:
            self.deferred.append(("PS201", f"text outside key|value pairs skipped: {k[:40]!r}",
                                  seg_line))
        return None

    def _keep_open(self, last: str, closed_any: bool, lineno: int) -> None:
        """Carry the line's unterminated segment to the next line (cut at MAX_VALUE)."""
        self.seg_cut = False
        if len(last) > MAX_VALUE:
            if self.expect_key:
                self.deferred.append(("PS201", "text outside key|value pairs skipped: "
                                      f"{last.strip()[:40]!r}", lineno))
            else:
                self.deferred.append(("PS210", f"{self.key} value longer than {MAX_VALUE} "
                                      "characters; cut", lineno))
            last = last[:MAX_VALUE]
            self.seg_cut = True
        if closed_any or not self.pending.strip():
            self.pend_line = lineno  # the open segment starts on this line
        self.pending = last

    def finish(self, lineno: int) -> None:
        """End of file: an unfinished pair (PS004) or trailing text (PS201) goes to deferred."""
        tail = self.pending.strip()
        if not self.expect_key:
            self.deferred.append(("PS004", f"file ends inside the {self.key} value (no closing "
                                  "'|'); the pair was dropped", lineno))
        elif tail:
            if len(tail) <= 2 and tail.isalpha():
                self.deferred.append(("PS004", f"file ends inside a key ({tail!r}, no closing "
                                      "'|')", lineno))
            else:
                self.deferred.append(("PS201", f"text outside key|value pairs skipped: "
                                      f"{tail[:40]!r}", self.pend_line))
