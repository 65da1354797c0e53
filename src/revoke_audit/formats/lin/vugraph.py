"""LIN vugraph header: ``vg`` (event, segment, scoring, board range, teams), ``rs`` (one result
per board and room) and ``pn`` with 8 names (open S,W,N,E then closed S,W,N,E), and what each
board of the file takes from them."""
from __future__ import annotations

from typing import Callable

_SCORING_OF = {"I": "IMP", "P": "MP", "B": "BAM"}


class Header:
    """Vugraph header: ``vg`` fields, ``rs`` results, ``pn`` with 8 names."""

    __slots__ = ("event", "segment", "scoring", "first", "teams", "results", "names")

    def __init__(self) -> None:
        self.event = ""
        self.segment = ""
        self.scoring = ""
        self.first: int | None = None
        self.teams = ""
        self.results: list[str] | None = None
        self.names: list[str] | None = None

    def copy(self) -> Header:
        """This header as it is now (a board held for the lane keeps the one it takes)."""
        h = Header()
        for name in self.__slots__:
            setattr(h, name, getattr(self, name))
        return h

    def read_vg(self, value: str, line: int, diag: Callable[[str, str, int], None]) -> Header:
        """A new header from a ``vg`` value, keeping this one's names and results; an
        unreadable first board number goes to ``diag`` (PS212)."""
        h = Header()
        h.names = self.names
        h.results = self.results
        fields = [f.strip() for f in value.split(",")]
        if len(fields) > 9:  # a comma inside the title
            fields = [",".join(fields[:len(fields) - 8])] + fields[len(fields) - 8:]
        fields += [""] * (9 - len(fields))
        h.event = fields[0]
        h.segment = fields[1]
        h.scoring = fields[2]
        try:
            h.first = int(fields[3])
        except ValueError:
            h.first = None
            diag("PS212", f"vugraph header: unreadable first board {fields[3][:20]!r}; "
                   "rs results cannot be matched to boards", line)
        h.teams = f"{fields[5]} - {fields[7]}" if fields[5] or fields[7] else ""
        return h

    def tags_for(self, own: dict[str, str], lin_result: str | None) -> dict[str, str]:
        """A board's tags (``own``) with the header's event, segment, scoring, teams and rs
        result."""
        tags = dict(own)
        if self.event:
            tags.setdefault("event", self.event)
        if self.segment:
            tags["segment"] = self.segment
        if self.scoring:
            tags["scoring"] = self.scoring
        if self.teams:
            tags["teams"] = self.teams
        if lin_result is not None:
            tags["rs"] = lin_result
        return tags

    def names_for(self, names: tuple[str, str, str, str] | None, room: str
                  ) -> tuple[str, str, str, str]:
        """A board's own names, else the header's (the closed room's for a closed board)."""
        if names is None and self.names is not None:
            off = 4 if room == "closed" and len(self.names) >= 8 else 0
            names = names_nesw(self.names[off:off + 4])
        return names if names is not None else ("", "", "", "")

    def result_for(self, board: str, room: str) -> str | None:
        """The ``rs`` entry of a board's number and room, if there is one."""
        if self.results is not None and room and self.first is not None and board.isdigit():
            idx = 2 * (int(board) - self.first) + (1 if room == "closed" else 0)
            if 0 <= idx < len(self.results):
                return self.results[idx] or None
        return None

    def is_blank(self) -> bool:
        """No header has been read (nothing of it goes into a board)."""
        return (self.names is None and self.results is None and self.first is None
                and not (self.event or self.segment or self.scoring or self.teams))

    def scoring_name(self) -> str:
        """``IMP``/``MP``/``BAM`` for the header's I/P/B, else the text as written."""
        return _SCORING_OF.get(self.scoring.upper(), self.scoring)


def names_nesw(swne: list[str]) -> tuple[str, str, str, str]:
    """LIN's S, W, N, E names (padded) -> N, E, S, W."""
    s, w, n, e = (swne + ["", "", "", ""])[:4]
    return (n, e, s, w)
