"""PBN ``Auction`` and ``Play`` sections: raw tokens -> calls, and seat columns -> time order.

Both readers take the ``(token, line)`` pairs that the lexer collected for one game and a ``d``
callback ``d(code, message, line)`` that files a diagnostic on that game."""
from __future__ import annotations

import re
from typing import Callable, Iterable

from ...core import auction as _auction
from ...core.cards import parse_card, trick_winner
from ...core.record import UNREADABLE, Play

Diag = Callable[[str, str, "int | None"], None]
Slot = tuple["int | None", tuple[str, ...], int]  # (card, marks, line) in file order

_ANNOTATION = re.compile(r'=[^=\s]*(?:=|$)|\$\d*|[!?]+')

_card_cache: dict[str, int] = {}
_call_cache: dict[str, str | None] = {}


def _card(token: str) -> int | None:
    """``parse_card`` with a bounded cache of the tokens that are cards."""
    c = _card_cache.get(token)
    if c is None:
        c = parse_card(token)
        if c is not None and len(_card_cache) < 4096:
            _card_cache[token] = c
    return c


def _call(token: str) -> str | None:
    """``auction.normalise_call`` with a bounded cache."""
    try:
        return _call_cache[token]
    except KeyError:
        c = _auction.normalise_call(token)
        if len(_call_cache) < 4096:
            _call_cache[token] = c
        return c


# --- auction ---------------------------------------------------------------------------------
def read_auction(tokens: Iterable[tuple[str, int]], first: int | None, d: Diag,
                 auction_line: int | None) -> tuple[tuple[str, ...], int | None]:
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
            calls.extend(_auction.all_pass(calls))
            break
        calls.append(c)
    return tuple(calls), first


# --- play ------------------------------------------------------------------------------------
def read_play(tokens: Iterable[tuple[str, int]], leader0: int | None, trump: int | None | bool,
              d: Diag) -> tuple[tuple[Play, ...], bool]:
    """Play tokens (seat columns) -> Plays in time order, and whether ``*``/``+`` stopped it.

    ``leader0`` is the seat of the first column (the ``Play`` tag); ``trump`` a suit index, None
    for no trump, False when unknown (then the order is known for the first trick only)."""
    slots, stopped = _play_slots(tokens, d)
    if not slots:
        return (), stopped
    ntricks = (len(slots) + 3) // 4
    if ntricks > 13:
        d("PS119", f"play has {ntricks} tricks; more than 13", slots[52][2])
    if leader0 is None:
        return tuple(Play(None, c, mk, line, i // 4 + 1)
                     for i, (c, mk, line) in enumerate(slots)), stopped
    return _time_order(slots, ntricks, leader0, trump), stopped


def _play_slots(tokens: Iterable[tuple[str, int]], d: Diag) -> tuple[list[Slot], bool]:
    """Tokens -> slots ``(card or None, marks, line)``, four to a trick, in file order.

    ``-`` is an unknown card; ``^R``/``^L`` marks go to the next card; annotations are dropped;
    an unreadable card is kept as unknown (PS116, the first five, then a count) with the mark
    ``UNREADABLE``: the record holds a card there, so it is never a card omitted (Law 67)."""
    slots: list[Slot] = []
    marks: tuple[str, ...] = ()
    stopped = False
    bad = bad_line = 0
    for tok, line in tokens:
        c = _card_cache.get(tok)  # fast path: a card seen before
        if c is None and tok != "-":
            if tok == "*" or tok == "+":
                stopped = True
                break
            t, marks = _take_marks(tok, marks, line, d)
            if not t:
                continue
            if t != "-":
                c = _card(t)
                if c is None:
                    if t in ("*", "+"):
                        stopped = True
                        break
                    bad += 1
                    bad_line = line
                    marks = marks + (UNREADABLE,)  # a card was played: unknown, not omitted
                    if bad <= 5:
                        d("PS116", f"card {tok[:20]!r} cannot be read (trick "
                          f"{len(slots) // 4 + 1})", line)
        slots.append((c, marks, line))
        marks = ()
    if bad > 5:
        d("PS116", f"{bad} unreadable card tokens in all (the last on this line)", bad_line)
    return slots, stopped


def _take_marks(tok: str, marks: tuple[str, ...], line: int,
                d: Diag) -> tuple[str, tuple[str, ...]]:
    """Strip leading ``^X`` marks (keeping R and L) and annotations; returns (rest, marks)."""
    t = tok
    while t[:1] == "^" and len(t) >= 2:
        m = t[1].upper()
        if m in ("R", "L"):
            marks = marks + (m,)
        else:
            d("PS116", f"unknown play mark {t[:2]!r} ignored", line)
        t = t[2:]
    return (_ANNOTATION.sub("", t) if t else t), marks


def _time_order(slots: list[Slot], ntricks: int, leader0: int,
                trump: int | None | bool) -> tuple[Play, ...]:
    """Seat columns -> time order: each trick led by the previous winner (or a ``^L`` mark).

    Once a winner cannot be known (an unknown card, trump unknown) the remaining tricks keep
    column order; the replay re-derives the order from the seats and says why it stops."""
    out: list[Play] = []
    leader: int | None = leader0
    for t in range(ntricks):
        row = slots[4 * t: 4 * t + 4]
        for col, (_, mk, _) in enumerate(row):
            if "L" in mk:
                leader = (leader0 + col) % 4
        trick = t + 1
        if leader is None:
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
    return tuple(out)
