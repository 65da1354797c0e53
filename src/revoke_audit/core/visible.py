"""Text from outside the program - a file name, a cell of the director's log - as every report
and message shows it: one line, nothing a terminal would act on, nothing an encoder refuses.

A control character (NUL, newline, escape, C1, the line separators) is written as a visible
escape (``\\x1b``); so is a byte of a file name that is not UTF-8, which Python carries as a
lone surrogate (``os.fsdecode``'s ``surrogateescape``: the byte ``0xff`` is ``U+DCFF``) and
which no UTF-8 report could hold: it is shown as the byte (``\\xff``).  The name itself is kept
as it came, so the file can still be opened; only what is shown is escaped."""
from __future__ import annotations

import re

_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")
_SURROGATE = re.compile("[\ud800-\udfff]")


def _escape(m: re.Match) -> str:
    code = ord(m.group())
    if 0xDC80 <= code <= 0xDCFF:  # an undecodable byte of a name
        code -= 0xDC00
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def visible(text: str) -> str:
    """``text`` with every control character and undecodable byte written as a visible escape
    (``\\x00``, ``\\x1b``, ``\\xff``), so that a cell or a message stays one harmless line."""
    return _CONTROL.sub(_escape, text) if _CONTROL.search(text) else text


def decodable(text: str) -> str:
    """``text`` with only its undecodable bytes (lone surrogates) escaped (``a\\xffb.pbn``):
    a file name as a report cell, which any writer can encode."""
    return _SURROGATE.sub(_escape, text) if _SURROGATE.search(text) else text


#: What a spreadsheet reads as the start of a formula (``=cmd``, ``+1``, ``@x``, and the tab
#: and carriage return that some strip before looking).
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
#: Cells that get a leading quote: a formula's start, and a quote itself, so that taking one
#: leading quote away on reading (``frames.typed``, ``rescore.cell_text``) is always the inverse.
QUOTED_START = FORMULA_START + ("'",)


def safe_cell(value: object) -> object:
    """A CSV cell: control characters escaped; cells a spreadsheet would evaluate (``=cmd``,
    ``+1``, ``@x``) get a leading quote, and so does a cell starting with a quote; numbers stay numbers; None becomes empty.  Here, beside
    ``visible``, so that every writer of cells (the reports, the fields' figures filled in after
    the run) shares one rule without importing the report writers."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        value = visible(value)
        if value.startswith(QUOTED_START):
            return "'" + value
    return value


__all__ = ["visible", "decodable", "safe_cell", "FORMULA_START", "QUOTED_START"]
