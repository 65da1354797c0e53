"""The notes of the boards whose field cannot be scored (SC001-SC005): one findings row a
board (``Note``; the report writers give it every findings column), and in the text output
one line per event and cause (``summary``)."""
from __future__ import annotations

import pickle
from typing import TYPE_CHECKING, Callable, Iterable, Iterator

if TYPE_CHECKING:
    from .rescore import Entry
    from .store import Store

#: The order of the notes: the boards scored on a ScoreTable, the fields, then the tables whose
#: players are not all named.
TABLES, FIELDS, UNNAMED = range(3)


class Notes:
    """A run's notes, waiting in its database (``store``) in their order (``part``), each
    event's and cause's count kept as they come (``counted``: the text output's summary,
    without reading them back)."""

    def __init__(self, store: "Store") -> None:
        self._store = store
        self._count = 0
        self._counted: list[dict[tuple[str, str, str], int]] = [{}, {}, {}]

    def part(self, part: int) -> "Part":
        """Where the notes of ``part`` (``TABLES``, ``FIELDS``, ``UNNAMED``) are added."""
        return Part(self, part)

    def add(self, part: int, notes: Iterable["Note"]) -> None:
        counted, rows = self._counted[part], []
        for note in notes:
            at = _key(note)
            counted[at] = counted.get(at, 0) + 1
            rows.append(((part << 40) + self._count, pickle.dumps(note, pickle.HIGHEST_PROTOCOL)))
            self._count += 1
        self._store.put_notes(rows)

    def counted(self) -> dict[tuple[str, str, str], int]:
        """How many notes of each event, code and cause, in the order each first comes."""
        out: dict[tuple[str, str, str], int] = {}
        for counted in self._counted:
            for at, n in counted.items():
                out[at] = out.get(at, 0) + n
        return out

    def __iter__(self) -> Iterator["Note"]:
        if not self._count:
            return
        for (data,) in self._store.query("SELECT data FROM note ORDER BY seq"):
            yield pickle.loads(data)

    def __len__(self) -> int:
        return self._count

    def __eq__(self, other: object) -> bool:
        return list(self) == list(other) if isinstance(other, (list, Notes)) else NotImplemented

    __hash__ = None  # type: ignore[assignment]


class Part:
    """The notes of one part as a list takes them (``append``, ``extend``)."""

    def __init__(self, notes: Notes, part: int) -> None:
        self._notes, self._part = notes, part

    def append(self, note: "Note") -> None:
        self._notes.add(self._part, [note])

    def extend(self, notes: Iterable["Note"]) -> None:
        self._notes.add(self._part, notes)


def _key(note: "Note") -> tuple[str, str, str]:
    return (_event_words(note.event[:2]), str(note["code"]), note.cause)


def summary(notes: Iterable[dict[str, object]],
            line: Callable[[dict[str, object]], str]) -> list[str]:
    """One line per event, code and cause of ``notes`` (``Note``s; any other row as ``line``
    writes it: the text report's ``text_line``, passed in so that scoring need not import the
    report writers), in the order each first comes: ``45th European Team
    Championships 2001: 74 boards not scored: a room is missing (SC001; each board in the
    findings report)``."""
    counted: dict[tuple[str, str, str], int] = {}
    for note in notes:
        at = _key(note) if isinstance(note, Note) else ("", "", line(note))
        counted[at] = counted.get(at, 0) + 1
    return summary_lines(counted)


def summary_lines(counted: dict[tuple[str, str, str], int]) -> list[str]:
    """``summary``'s lines from the notes counted by event, code and cause."""
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
    return note_at((e.source, e.line, e.game, e.room), key, code, message, cause)


def note_at(place: tuple[str, int, int, str], key: tuple, code: str, message: str,
            cause: str = "") -> Note:
    """``note`` of the table at ``place`` (its source, line, game and room)."""
    source, line, game, room = place
    out = Note()
    out.event, out.cause = tuple(key[:3]), cause or message
    out.update(source=source, line=line, game=game, board=key[3], room=room, code=code,
               law="", seat="", role="", suit_led="", card="", held="", message=message)
    return out
