"""The notes of the boards whose field cannot be scored (SC001-SC005): one findings row a
board (``Note``; the report writers give it every findings column), and in the text output
one line per event and cause (``summary``)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Iterable

if TYPE_CHECKING:
    from .rescore import Entry

def summary(self, line: Callable[[dict[str, object]], str]) -> list[str]:
        return summary(self.findings, line)


def summary(notes: Iterable[dict[str, object]],
            line: Callable[[dict[str, object]], str]) -> list[str]:
    """One line per event, code and cause of ``notes`` (``Note``s; any other row as ``line``
    writes it: the text report's ``text_line``, passed in so that scoring need not import the
    report writers), in the order each first comes: ``45th European Team
    Championships 2001: 74 boards not scored: a room is missing (SC001; each board in the
    findings report)``."""
    counted: dict[tuple[str, str, str], int] = {}
    for note in notes:
        if isinstance(note, Note):
            at = (_event_words(note.event[:2]), str(note["code"]), note.cause)
        else:
            at = ("", "", line(note))
        counted[at] = counted.get(at, 0) + 1
    lines = []
    for (event, code, cause), n in counted.items():
        if not code:
            lines.append(cause)
            continue
        boards = f"{n} board" if n == 1 else f"{n} boards"
        lines.append(f"{event}: {boards}: {cause} ({code}; each board in the findings "
                     "report)")
    return lines


def _event_words(event: tuple[str, ...]) -> str:
    return " ".join(p for p in event if p) or "no event"


class Note(dict):
    """A findings.csv row of a board that could not be scored, with its field's event
    (event, section, date) and its ``cause`` in a few words, for the one line per event (and
    section, every date together) and cause that the text output gives (``summary``)."""

    event: tuple[str, str, str] = ("", "", "")
    cause: str = ""


def note(e: "Entry", key: tuple, code: str, message: str, cause: str = "") -> Note:
    """A board's note (``Note``: the findings columns it fills, in their order)."""
    out = Note()
    out.event, out.cause = tuple(key[:3]), cause or message
    out.update(source=e.source, line=e.line, game=e.game, board=key[3], room=e.room, code=code,
               law="", seat="", role="", suit_led="", card="", held="", message=message)
    return out
