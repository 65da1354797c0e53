"""What the lane's readers share: memoised pure functions, the edition, the outcome of a
clean play (complete or claimed) and the boards.csv row of a clean board."""
from __future__ import annotations

from types import SimpleNamespace

from ...core.cards import SEATS, SUIT_MASKS
from ...core.codes import board_status
from ...laws import Scoring, get_edition
from ...laws.dates import edition_for
from ...replay.by_cards import EXACT_TRICKS
from ...reports.csv_line import LaneRow, LineTemplate
from ...reports.rows import BOARD_COLUMNS, NO_64C_CELLS, NO_FIELD
from ...replay.model import CLAIMED, COMPLETE
from ...scoring import RUBBER_COLUMNS, result_string, score_ns
from ...core.visible import decodable

_CLEAN = board_status(())
_PLAYED, _CLAIMED = str(COMPLETE), str(CLAIMED)
_NO_RUBBER = dict.fromkeys(RUBBER_COLUMNS)
_DUPLICATE = str(Scoring.DUPLICATE)
_MEMO_MAX = 4096
_memos: dict[tuple, object] = {}
_MISSING = object()


def memo(read, args: tuple):
    """``read(*args)``, remembered (the readers' functions are pure functions of the values)."""
    key = (read, args)
    got = _memos.get(key, _MISSING)
    if got is _MISSING:
        if len(_memos) >= _MEMO_MAX:
            _memos.clear()
        got = _memos[key] = read(*args)
    return got


def kept(table: dict, key: tuple, value: object) -> object:
    """``value``, remembered in ``table`` under ``key`` (a lane's own memo of a reader's pure
    function, looked up inline: ``table.get(key, missing)``), ``table`` emptied when full."""
    if len(table) >= _MEMO_MAX:
        table.clear()
    table[key] = value
    return value


class Problems(list):
    """The codes of what a reader's functions file (their ``diag`` callback)."""

    def __call__(self, code: str, message: str, line: int | None, *rest) -> None:
        self.append(code)


def duplicate_edition(date: str, event: str, laws: str) -> str | None:
    """The edition ``laws.dates`` applies to a board of that date and event (no title date),
    when it scores duplicate (a rubber code's row has its bonuses: the full audit makes it)."""
    name = edition_for(SimpleNamespace(date=date, event=event, tags={}), laws)[0]
    return name if get_edition(name).scoring == Scoring.DUPLICATE else None


def play_tricks(hands: list[int], cards: list[int], leader: int, trump: int | None, side: int,
                columns: bool = False) -> tuple[int, int] | None:
    """(tricks won by the side ``side`` - declarer's: 0 N-S, 1 E-W -, whole tricks played) of
    ``cards`` put on the table from ``hands`` (changed), each trick led by the winner of the one
    before (Law 44G), ``leader`` leading the first; None at a card not held by the player on
    turn, or a failure to follow while holding the suit led (Law 44C: a revoke, Law 61A, which
    the full audit rules).  ``cards`` are in the order played (a last trick may be short), or,
    with ``columns``, four to a trick in seat columns from ``leader`` (PBN's Play section)."""
    won = 0
    seat = leader
    n = len(cards)
    for base in range(0, n, 4):
        trick = cards[base:base + 4]
        if columns:  # the leader's column first
            k = (seat - leader) & 3
            trick = trick[k:] + trick[:k]
        led = best = win = -1
        for step, c in enumerate(trick):
            s = (seat + step) & 3
            held = hands[s]
            if not held >> c & 1:
                return None
            hands[s] = held ^ (1 << c)
            suit = c // 13
            if step == 0:
                led, best, win = suit, c, s
            elif suit == led:
                if best // 13 == led and c > best:
                    best, win = c, s
            elif held & SUIT_MASKS[led]:
                return None
            elif suit == trump and (best // 13 != trump or c > best):
                best, win = c, s
        if base + 4 <= n:
            if win & 1 == side:
                won += 1
            seat = win
    return won, n // 4


def outcome(won: int, done: int, claim: int | None, stated: int | None
            ) -> tuple[int, str] | None:
    """(declarer's tricks, play status) of a clean play that won ``won`` of ``done`` whole
    tricks: complete, or claimed (``claim`` tricks in all, between those won and those plus the
    tricks left: RC022 otherwise); None when the full audit has something to say, or no total
    can be known.  ``stated``: a stated result that must be the total (RC023)."""
    if done == 13:
        if (stated is not None and stated != won) or (claim is not None and claim != won):
            return None
        return won, _PLAYED
    if claim is None or not won <= claim <= won + 13 - done or 13 - done <= EXACT_TRICKS:
        return None  # RC022; or few tricks left: the full audit works out what the cards give
    return claim, _CLAIMED


def board_row(source: str, line: int, game: int, event: str, date: str, board: str, room: str,
              dealer: int | None, vul: str | None, declarer: int, contract: str,
              tricks: tuple[int, str], stated: int | None, laws: str,
              names: tuple[str, str, str, str], lean: bool = False) -> dict[str, object] | str:
    """``rows.board_row`` of a clean board (``tricks``: from ``outcome``), with its boards.csv
    line ready (``LaneRow.line``: ``_LINE``).  ``lean``: the line alone when it can be made
    (the row only when a cell needs the writer), for a caller that writes CSV and needs no
    more of a clean board (``render_records(runs=True)``)."""
    played, status = tricks
    key = (contract, declarer, vul, played)
    scored = _SCORED.get(key)
    if scored is None:
        scored = kept(_SCORED, key, (score_ns(*key), result_string(contract, played)))
    score, result = scored
    cell = _SOURCES.get(source)
    if cell is None:
        cell = kept(_SOURCES, source, decodable(source))
    values = (cell, line, game, event, date, board, room,
              SEATS[dealer] if dealer is not None else "", vul or "", SEATS[declarer], contract,
              status, stated, played, played, result, score, score,
              laws, *names, played if status == _PLAYED else None, played)
    text = _LINE.line(values)
    if lean and text is not None:
        return text
    row = LaneRow(_CONSTANT)
    row.update(zip(_VARIABLE, values))
    row.line = text
    return row


# (contract, declarer, vul, tricks) -> (score N-S, result); a source -> its cell
_SCORED: dict[tuple, tuple[int | None, str]] = {}
_SOURCES: dict[str, str] = {}

# a lane's row: the cells that differ from board to board (``board_row``'s values, in order),
# the others' values (``_CONSTANT``)
_VARIABLE = ("source", "line", "game", "event", "date", "board", "room", "dealer", "vul",
             "declarer", "contract", "play", "tricks_stated", "tricks_played",
             "tricks_adjusted", "result_adjusted", "score_ns", "score_ns_adjusted", "laws",
             "north", "east", "south", "west", "tricks_by_cards", "tricks_automatic")
_TEXTS = ("source", "event", "date", "board", "room", "dealer", "vul", "declarer", "contract",
          "play", "result_adjusted", "laws", "north", "east", "south", "west")
_CONSTANT = {**dict.fromkeys(BOARD_COLUMNS), "revokes": 0, "defective_tricks": 0,
             "record_errors": 0, "status": _CLEAN, "scoring": _DUPLICATE, "parse_problems": 0,
             **_NO_RUBBER, "tricks_equity": None, "review_64c": None, "ruling_basis": "none",
             **NO_FIELD, **NO_64C_CELLS}
_LINE = LineTemplate(BOARD_COLUMNS, _CONSTANT, _VARIABLE, _TEXTS)
