"""One PBN game's tags and sections -> a ``BoardRecord``.

``build_record`` reads the tags a family at a time - board (Dealer, Vulnerable, Deal), contract
(Declarer, Contract), Auction, Result, Play, names and room - and files every problem as a
diagnostic on the game, in that order.  The game's own tags are already resolved for ``#``/``##``
inheritance (``games``); the section tokens are read by ``sections``."""
from __future__ import annotations

import re
from typing import Callable

from ...core import auction as _auction
from ...core.cards import NOTRUMP, SEATS, parse_deal, parse_seat
from ...core.findings import Finding
from ...core.record import BoardRecord, Play
from .game import Game
from .lookup import fast_deal, fast_play
from .sections import read_auction, read_play

Diag = Callable[[str, str, "int | None"], None]
Tags = dict[str, str]
Lines = dict[str, int]

_RESULT = re.compile(
    r'^\s*(\^)?\s*(?:(\d+)|(NS|EW)\s*:?\s*(\d+)(?:\s*[,;]?\s*(NS|EW)\s*:?\s*(\d+))?)\s*$',
    re.IGNORECASE,
)
_VUL = {"none": "None", "love": "None", "-": "None", "ns": "NS", "ew": "EW", "all": "All",
        "both": "All"}


def build_record(g: Game, tags: Tags, source: str, game_no: int) -> BoardRecord:
    """The record of game number ``game_no``; problems are added to ``g`` and end up on it."""
    lines = g.tag_lines

    def d(code: str, msg: str, line: int | None) -> None:
        g.add(Finding(code, msg, line))

    get = tags.get
    dealer = dealer_of(tags, lines, d)
    vul = vulnerable_of(tags, lines, d)
    hands = _deal(tags, lines, d)
    declarer, swapped = declarer_of(tags, lines, d)
    contract = contract_of(tags, lines, d)
    calls, dealer, contract_derived, declarer_derived = _auction_tag(g, tags, dealer, d)
    decl = declarer if declarer is not None else declarer_derived
    result, flagged = result_of(tags, lines, decl, contract or contract_derived, d)
    leader, play, stopped = _play_tag(
        g, tags, decl, swapped, contract if contract is not None else contract_derived, d)
    return BoardRecord(
        source=source, line=g.line, game=game_no, format="pbn", room=_room(tags),
        event=get("Event", ""), site=get("Site", ""), date=get("Date", ""),
        board=get("Board", "").strip(), dealer=dealer, vul=vul,
        names=(get("North", ""), get("East", ""), get("South", ""), get("West", "")),
        scoring=get("Scoring", ""), tags=tags, hands=hands, deal_line=lines.get("Deal"),
        auction=calls, auction_line=lines.get("Auction"), contract_stated=contract,
        declarer_stated=declarer, contract_derived=contract_derived,
        declarer_derived=declarer_derived, declarer_swapped=swapped,
        play_leader=leader, play_line=lines.get("Play"), play=play, play_stopped=stopped,
        result_stated=result, result_flagged=flagged, result_line=lines.get("Result"),
        diagnostics=g.all_diagnostics(), unreadable=hands is None and not play,
        score_table=tuple(g.score_rows),
    )


def _given(tags: Tags, name: str) -> str | None:
    """The stripped value of a tag, or None when it is missing, empty or ``?``."""
    v = tags.get(name, "").strip()
    return v if v and v != "?" else None


# --- board: Dealer, Vulnerable, Deal ----------------------------------------------------------
def dealer_of(tags: Tags, lines: Lines, d: Diag) -> int | None:
    """The Dealer seat (PS109 when not a seat)."""
    v = _given(tags, "Dealer")
    if v is None:
        return None
    dealer = parse_seat(v)
    if dealer is None:
        d("PS109", f"Dealer {v!r} is not a seat", lines.get("Dealer"))
    return dealer


def vulnerable_of(tags: Tags, lines: Lines, d: Diag) -> str | None:
    """None/NS/EW/All from the usual spellings (PS110 otherwise)."""
    v = _given(tags, "Vulnerable")
    if v is None:
        return None
    vul = _VUL.get(v.lower())
    if vul is None:
        d("PS110", f"Vulnerable {v!r} is not None/NS/EW/All", lines.get("Vulnerable"))
    return vul


def _deal(tags: Tags, lines: Lines, d: Diag) -> tuple | None:
    """The four hands, or None when there is no readable Deal (PS107); PS108 if not a deal."""
    v = _given(tags, "Deal")
    if v is None:
        return None
    fast = fast_deal(v)
    if fast is not None:
        return fast
    got = parse_deal(v)
    if got is None:
        d("PS107", f"Deal {v[:80]!r} cannot be read", lines.get("Deal"))
        return None
    if got[1]:
        d("PS108", "Deal is not a valid deal: " + "; ".join(got[1][:6]), lines.get("Deal"))
    return got[0]


# --- contract: Declarer, Contract -------------------------------------------------------------
def declarer_of(tags: Tags, lines: Lines, d: Diag) -> tuple[int | None, bool]:
    """(declarer seat, swapped): ``^N`` marks a declarer on the wrong side (swapped)."""
    v = _given(tags, "Declarer")
    if v is None:
        return None, False
    swapped = v[0] == "^"
    if swapped:
        v = v[1:].strip()
    declarer = parse_seat(v)
    if declarer is None:
        d("PS111", f"Declarer {tags.get('Declarer')!r} is not a seat", lines.get("Declarer"))
        return None, False
    return declarer, swapped


def contract_of(tags: Tags, lines: Lines, d: Diag) -> str | None:
    """The stated contract, normalised (PS112 when unreadable)."""
    v = _given(tags, "Contract")
    if v is None:
        return None
    contract = _auction.normalise_contract(v)
    if contract is None:
        d("PS112", f"Contract {v[:40]!r} cannot be read", lines.get("Contract"))
    return contract


# --- Auction -----------------------------------------------------------------------------------
def _auction_tag(g: Game, tags: Tags, dealer: int | None, d: Diag
                 ) -> tuple[tuple[str, ...], int | None, str | None, int | None]:
    """(calls, dealer, derived contract, derived declarer).

    The auction's first seat is the dealer when no Dealer tag gives one."""
    if "Auction" not in tags:
        return (), dealer, None, None
    auction_line = g.tag_lines.get("Auction")
    contract = declarer = None
    calls, first = read_auction(g.auction, parse_seat(tags.get("Auction", "")), d, auction_line)
    if first is None:
        if calls:
            d("PS114", f"Auction {tags.get('Auction')!r} does not name the first seat",
              auction_line)
    else:
        if dealer is not None and first != dealer and calls:
            d("PS115", f"auction starts with {SEATS[first]} but the dealer is "
              f"{SEATS[dealer]}", auction_line)
        contract, declarer = _auction.derive_contract(calls, first)
    if dealer is None and first is not None and calls:
        dealer = first
    return calls, dealer, contract, declarer


# --- Result ------------------------------------------------------------------------------------
def result_of(tags: Tags, lines: Lines, declarer: int | None, contract: str | None,
            d: Diag) -> tuple[int | None, bool]:
    """(declarer's tricks, flagged ``^``): a number, or tricks by side (``NS 9 EW 4``)."""
    v = _given(tags, "Result")
    if v is None:
        return None, False
    line = lines.get("Result")
    m = _RESULT.match(v)
    if m is None:
        d("PS113", f"Result {v[:40]!r} cannot be read", line)
        return None, False
    if m.group(2) is not None:
        tricks: int | None = _tricks(m.group(2))
    else:
        tricks = _tricks_by_side(m, declarer, contract, v, line, d)
    if tricks is not None and not 0 <= tricks <= 13:
        d("PS113", f"Result {v[:40]!r} is not 0..13 tricks", line)
        tricks = None
    return tricks, m.group(1) is not None


def _tricks(digits: str) -> int:
    """A count of tricks as written; 99 (not 0..13) for one of more than three digits, which
    ``int`` may refuse (its 4,300-digit limit)."""
    return int(digits) if len(digits) <= 3 else 99


def _tricks_by_side(m: re.Match, declarer: int | None, contract: str | None, v: str,
                    line: int | None, d: Diag) -> int | None:
    """Declarer's tricks from a by-side Result; None when the declarer is unknown."""
    by_side = {m.group(3).upper(): _tricks(m.group(4))}
    if m.group(5):
        by_side.setdefault(m.group(5).upper(), _tricks(m.group(6)))
    if declarer is None:
        if contract != "Pass":
            d("PS113", f"Result {v[:40]!r} gives tricks by side but the declarer is unknown", line)
        return None
    side = "NS" if declarer % 2 == 0 else "EW"
    other = "EW" if side == "NS" else "NS"
    if side in by_side:
        return by_side[side]
    return 13 - by_side[other]


# --- Play --------------------------------------------------------------------------------------
def _play_tag(g: Game, tags: Tags, declarer: int | None, swapped: bool, contract: str | None,
              d: Diag) -> tuple[int | None, tuple[Play, ...], bool]:
    """(first column's seat, plays in time order, stopped by ``*``/``+``).

    A Play tag that is not a seat is taken as declarer's left-hand opponent (PS118)."""
    if "Play" not in tags:
        return None, (), False
    leader = parse_seat(tags.get("Play", ""))
    if not g.play:
        return leader, (), False
    if leader is None:
        play_line = g.tag_lines.get("Play")
        if declarer is not None and not swapped:
            leader = (declarer + 1) % 4
            d("PS118", f"Play {tags.get('Play')!r} is not a seat; declarer's left-hand "
              f"opponent {SEATS[leader]} taken", play_line)
        else:
            d("PS118", f"Play {tags.get('Play')!r} is not a seat; seats of the cards "
              "unknown", play_line)
    trump = _trump(contract)
    fast = fast_play(g.play, leader, trump)
    play, stopped = fast if fast is not None else read_play(g.play, leader, trump, d)
    return leader, play, stopped


def _trump(contract: str | None) -> int | None | bool:
    """Trump suit index, None for no trump, False when unknown."""
    if contract is None:
        return False
    got = _auction.parse_contract(contract)
    if got is None or got == "Pass":
        return False
    strain = got[1]
    return None if strain == NOTRUMP else strain


# --- names, room -------------------------------------------------------------------------------
def _room(tags: Tags) -> str:
    """``open``/``closed`` from Room (any case), else Room as written, else Table."""
    room = tags.get("Room", "").strip()
    if room.lower() in ("open", "closed"):
        room = room.lower()
    if not room:
        room = tags.get("Table", "").strip()
    return room
