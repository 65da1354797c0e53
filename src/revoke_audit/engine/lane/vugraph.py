"""The lane for a plain vugraph board (``formats.lin.block.PlainBlock``): one board of a vugraph
archive (``qx|o17|``, a deal, calls, cards over several lines), read with the LIN reader's own
functions and replayed in the order of its cards.  Its row is given only when the full audit
would find nothing, as for a single-deal line (``lin``): the deal is valid (``read_md`` files no
problem), the vulnerability readable, the calls readable and the auction finished with a
contract, every card held by the player on turn (declarer's left-hand opponent first, Law 41A;
the winner of a trick next, Law 44G) and following suit when it can (Law 44C), and the play
complete, or stopped with a claim that lies between the tricks declarer has won and those plus
the tricks left (RC022); a claim beside a complete play must be its total.  What a vugraph
board adds: its room and number (``qx``), the event and the players of its room from the
header (``vg``, the 8-name ``pn``), and the ``rs`` result of its number and room, which is its
stated result and must agree with the play's contract, declarer and tricks (no RC024)."""
from __future__ import annotations

from types import SimpleNamespace

import re

from ...core.cards import winning_index
from ...formats.lin.block import PlainBlock
from ...formats.lin.board import CLAIM, QX, VUL_OF
from ...formats.lin.values import CARD_OF
from ...replay.by_cards import EXACT_CARDS, EXACT_TRICKS, every_line_range, played_counts
from ...replay.checks import vugraph_result
from ...ruling.options import AuditOptions
from ...reports.rows import Rendered
from .common import _CLAIMED, _PLAYED, board_row, duplicate_edition, memo
from . import kernel
from .lin import _auction

# the values of the board's calls, cards and claims: keys and values alternate (``block``), and
# no value is a key's name (``plain_row`` checks), so a scan finds the pairs and only them
_MB = re.compile(r"\|mb\|([^|]*)")
_PC = re.compile(r"\|pc\|([^|]*)")
_MC = re.compile(r"\|mc\|([^|]*)")


def plain_row(pb: PlainBlock, options: AuditOptions, lean: bool = False) -> Rendered | None:
    """The rows of a plain vugraph board with nothing to find; None when the full audit must
    see it (as for anything this lane did not foresee: one board never stops a file).
    ``lean`` is not used: the row always (a claim may change a cell after its line is made)."""
    try:
        return _plain_row(pb, options)
    except Exception:  # pragma: no cover - the full audit reads the board and says what it is
        return None


def _plain_row(pb: PlainBlock, options: AuditOptions) -> Rendered | None:
    keys, values, text = pb.keys, pb.values, pb.text
    if values.count("mb") or values.count("pc") or values.count("mc"):
        return None  # a value that is a key's name: the scans below would take it for a key
    md = values[keys.index("md")]
    deal = _DEALS.get(md, _MISSING)
    if deal is _MISSING:
        deal = _remember(_DEALS, md, kernel.lin_deal(md))
    vul = VUL_OF.get(values[keys.index("sv")].strip().lower())
    if deal is None or vul is None:
        return None  # PS209, an md problem, or a hand unknown
    dealer, hands = deal
    calls = (tuple(_MB.findall(text)), dealer)
    auction = _AUCTIONS.get(calls, _MISSING)
    if auction is _MISSING:
        auction = _remember(_AUCTIONS, calls, _auction(*calls))
    if auction is None:
        return None  # PS206, no contract
    contract, declarer, trump = auction
    claims = _MC.findall(text)
    claim = _claim(claims) if claims else None
    if claims and claim is None:
        return None  # PS208, or claims that change
    cards = list(map(CARD_OF.get, _PC.findall(text)))
    n = len(cards)
    if not n or n > 52 or 48 < n < 52 or None in cards:
        return None  # no card, or one unreadable; the last trick's cards: the full audit's
    got = kernel.time_tricks(hands, cards, (declarer + 1) % 4, trump, declarer & 1)
    if got is None:
        return None
    tricks, by_cards = _outcome(hands, cards, declarer, trump, *got, claim)
    header = pb.header
    event = (header.event, options.laws)
    laws = _LAWS.get(event, _MISSING)
    if laws is _MISSING:
        laws = _remember(_LAWS, event, duplicate_edition("", *event))
    if tricks is None or laws is None:
        return None
    seat = (values[0], header)
    got = _SEATS.get(seat)
    if got is None:
        got = _remember(_SEATS, seat, _room_names(*seat))
    room, board, names = got
    stated = claim
    rs = header.result_for(board, room)
    if rs:  # the vugraph result is the stated one (``replay.checks.stated_result``)
        stated, found = memo(_rs, (rs, contract, declarer, tricks[0]))
        if found:
            return None  # RC024
    row = board_row(pb.source, pb.line, pb.game, header.event, "", board, room, dealer, vul,
                    declarer, contract, tricks, stated, laws, names)
    if row["tricks_by_cards"] != by_cards:  # a claim the cards settle
        row["tricks_by_cards"] = by_cards
        if hasattr(row, "line"):  # a row with its CSV line made: that line no longer says so
            row.line = None  # (written from the cells instead)
    return Rendered(row, [])


_MISSING = object()
_DEALS: dict[str, object] = {}  # md -> (dealer, hands) or None: both rooms' boards share one
_AUCTIONS: dict[tuple, object] = {}  # (mb values, dealer) -> (contract, declarer, trump) or None
_LAWS: dict[tuple, object] = {}  # (event, --laws) -> the edition's name, or None
_SEATS: dict[tuple, tuple] = {}  # (qx, header) -> (room, board, the room's N, E, S, W names)
_KEEP = 4096  # entries kept in each of these before it starts again


def _remember(cache: dict, key: object, value: object) -> object:
    """``value`` kept in ``cache`` under ``key`` (the cache emptied when full)."""
    if len(cache) >= _KEEP:
        cache.clear()
    cache[key] = value
    return value


def _room_names(qx: str, header) -> tuple[str, str, tuple[str, str, str, str]]:
    """The room and board number of a ``qx`` value, and the players of that room by the
    header (``vugraph.Header.names_for``)."""
    room, board = _room_board(qx)
    return room, board, header.names_for(None, room)


def _rs(rs: str, contract: str, declarer: int, tricks: int) -> tuple[int | None, bool]:
    """(the stated tricks, whether RC024 is found) of an ``rs`` entry against the play's
    contract, declarer and tricks (``replay.checks``)."""
    rec = SimpleNamespace(contract=contract, declarer=declarer, line=0)
    stated, found = vugraph_result(rec, rs, tricks, tricks, None, [])
    return stated, bool(found)


def _outcome(hands: tuple[int, int, int, int], cards: list[int], declarer: int,
             trump: int | None, won: int, done: int, claim: int | None
             ) -> tuple[tuple[int, str] | None, int | None]:
    """(declarer's tricks and the play status, or None; the tricks the cards settle) of a
    clean play: complete (the claim, if any, its total), or stopped with a claim between the
    tricks won and those plus the tricks left (RC022).  With few tricks left the full audit
    asks what the cards settle (``replay.by_cards.settled_tricks``): so does this."""
    if done == 13:
        if claim is not None and claim != won:
            return None, None
        return (won, _PLAYED), won
    if claim is None or not won <= claim <= won + 13 - done:
        return None, None
    if 13 - done > EXACT_TRICKS:
        return (claim, _CLAIMED), None
    return (claim, _CLAIMED), _settled(hands, cards, declarer, trump, won)


def _settled(hands: tuple[int, int, int, int], cards: list[int], declarer: int,
             trump: int | None, won: int) -> int | None:
    """``by_cards.settled_tricks`` of a clean play that stops with few tricks left: the
    position where it stops (at most ``EXACT_CARDS`` cards left), two plain lines of play that
    split the result (then none), else the range of every legal continuation, when it is one
    number."""
    if 52 - len(cards) > EXACT_CARDS:
        return None  # more cards left than the full audit tries
    left = list(hands)
    leader = (declarer + 1) % 4
    whole = len(cards) - len(cards) % 4
    for base in range(0, whole, 4):
        trick = cards[base:base + 4]
        for i, c in enumerate(trick):
            left[(leader + i) % 4] &= ~(1 << c)
        leader = (leader + winning_index(trick, trump)) % 4
    started = tuple(cards[whole:])
    for i, c in enumerate(started):
        left[(leader + i) % 4] &= ~(1 << c)
    at = tuple(left)
    side = declarer & 1
    if len(played_counts(at, leader, started, trump, side)) > 1:
        return None
    lo, hi = every_line_range(at, leader, started, trump, side)
    return won + lo if lo == hi else None


def _room_board(qx: str) -> tuple[str, str]:
    """The room and board number of a ``qx`` value, as ``board.BoardReader`` reads them."""
    v = qx.strip()
    m = QX.match(v)
    if m:
        return ("open" if m.group(1) in "oO" else "closed"), (m.group(2).lstrip("0") or "0")
    return "", v.split(",")[0].strip()[:50]


def _claim(values: list[str]) -> int | None:
    """Declarer's total tricks of the board's ``mc`` values, when there is one, readable."""
    if len(values) != 1:
        return None
    m = CLAIM.match(values[0])
    return int(m.group(1)) if m and int(m.group(1)) <= 13 else None
