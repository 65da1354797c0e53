"""The lane for a plain PBN game (``formats.pbn.plain.PlainGame``): ``plain_row`` reads the
tags with the reader's own functions (``formats.pbn.build``), replays the cards on bitmasks,
and gives the row only when every check the full audit makes would pass:

* the reader would file no problem about the tags (its functions say so, memoised by value);
* the deal is valid, the declarer and contract are known and agree with the auction (no
  RC020/RC021), the opening lead is from declarer's left (Law 41A, no RC012);
* the play is whole tricks, each card held by the player on turn and following suit when it can
  (Law 44C: no revoke, Law 61A), the winner of each trick leading the next (Law 44G);
* the stated Result, if any, is the tricks the play gives (no RC023); a play that stops after
  a whole trick with a Result is claimed (PBN has no claim: the Result is taken as one), and
  the claim lies between the tricks declarer won and those plus the tricks left (no RC022);
* the edition applied scores duplicate (a rubber code's row has its bonuses: full audit).

Anything else goes the full way, through ``PlainGame.record()``."""
from __future__ import annotations

from ...core.auction import derive_contract, parse_contract
from ...core.cards import NOTRUMP, parse_seat
from ...formats.pbn.build import contract_of, dealer_of, declarer_of, result_of, vulnerable_of
from ...formats.pbn.plain import PlainGame
from ...formats.pbn.sections import read_auction
from ...ruling.options import AuditOptions
from ...reports.rows import FieldTags, Rendered, field_tags
from . import kernel
from .common import Problems, board_row, duplicate_edition, kept, memo, outcome


def plain_row(pg: PlainGame, options: AuditOptions, lean: bool = False
              ) -> Rendered | tuple[str, FieldTags | None] | None:
    """The rows of a plain PBN game with nothing to find; None when the full audit must see
    it.  ``lean``: its boards.csv line and field tags instead when the line can be made
    (``common.board_row``)."""
    get = pg.tags.get
    head = _header((get("Dealer"), get("Vulnerable"), get("Declarer"), get("Contract"),
                    get("Auction"), pg.auction, get("Play"), get("Result")))
    if head is None:
        return None
    dealer, vul, declarer, contract, trump, stated = head
    hands = kernel.deal(get("Deal", ""))  # only a deal written the usual way: no PS107/PS108
    if hands is None:
        return None
    got = kernel.column_tricks(hands, pg.play, (declarer + 1) % 4, trump, declarer & 1)
    # PBN has no claim: a play that stops with a Result takes it as one
    tricks = outcome(*got, stated, stated) if got is not None else None
    key = (get("Date", ""), get("Event", ""), options.laws)  # ``pg.date``, ``pg.event``
    laws = _EDITIONS.get(key, _MISSING)
    if laws is _MISSING:
        laws = kept(_EDITIONS, key, duplicate_edition(*key))
    if tricks is None or laws is None:
        return None
    row = board_row(pg.source, pg.line, pg.game, get("Event", ""), get("Date", ""), pg.board,
                    pg.room, dealer, vul, declarer, contract, tricks, stated, laws,
                    (get("North", ""), get("East", ""), get("South", ""), get("West", "")), lean)
    if type(row) is str:
        return row, field_tags(pg.tags)
    return Rendered(row, [], tags=field_tags(pg.tags))


# what the readers' functions gave for each tuple of values (``common.kept``)
_MISSING = object()
_SEATS: dict[tuple, tuple | None] = {}
_AUCTIONS: dict[tuple, tuple | None] = {}
_EDITIONS: dict[tuple, str | None] = {}


# --- the tags -----------------------------------------------------------------------------------

def _header(values: tuple) -> tuple | None:
    """(dealer, vul, declarer, contract, trump, stated tricks) from the tag values, when the
    reader files no problem about them and the audit none about the contract; else None."""
    dealer_tag, vul_tag, declarer_tag, contract_tag, auction_tag, auction, play_tag, result = values
    key = (dealer_tag, vul_tag, declarer_tag, contract_tag, play_tag)
    seats = _SEATS.get(key, _MISSING)
    if seats is _MISSING:
        seats = kept(_SEATS, key, _seats(*key))
    if seats is None:
        return None
    dealer, vul, declarer, contract, trump = seats
    if auction_tag is not None:
        key = (auction_tag, auction)
        got = _AUCTIONS.get(key, _MISSING)
        if got is _MISSING:
            got = kept(_AUCTIONS, key, _auction(*key))
        if got is None:
            return None
        first, derived, derived_declarer = got
        if dealer is None:
            dealer = first
        elif first != dealer:
            return None  # PS115
        if derived is not None and (derived != contract or derived_declarer != declarer):
            return None  # RC020 / RC021
    elif auction:
        return None
    if result is None:
        stated = None
    elif result.isdigit() and len(result) <= 2:
        stated = int(result)  # what ``build.result_of`` reads of a plain number
        if stated > 13:
            return None  # PS113
    else:
        stated = memo(_result_of, (result, declarer, contract))
        if stated is None:
            return None
    return dealer, vul, declarer, contract, trump, stated


def _tags(**values: str | None) -> dict[str, str]:
    return {name: v for name, v in values.items() if v is not None}


def _seats(dealer_tag, vul_tag, declarer_tag, contract_tag, play_tag) -> tuple | None:
    """(dealer, vul, declarer, contract, trump) as ``build`` reads them; None when it files a
    problem, a contract or declarer is missing or marked, or the lead is not from declarer's
    left."""
    d = Problems()
    tags = _tags(Dealer=dealer_tag, Vulnerable=vul_tag, Declarer=declarer_tag,
                 Contract=contract_tag)
    dealer, vul = dealer_of(tags, {}, d), vulnerable_of(tags, {}, d)
    declarer, swapped = declarer_of(tags, {}, d)
    contract = contract_of(tags, {}, d)
    if d or declarer is None or contract is None or swapped or contract == "Pass":
        return None
    if play_tag is None or parse_seat(play_tag) != (declarer + 1) % 4:
        return None
    strain = parse_contract(contract)[1]
    return dealer, vul, declarer, contract, None if strain == NOTRUMP else strain


def _auction(auction_tag: str, auction: str) -> tuple | None:
    """(first seat, derived contract, derived declarer) as ``build`` reads the Auction; None
    when it files a problem or there is no call."""
    d = Problems()
    calls, first = read_auction([(t, 0) for t in auction.split()], parse_seat(auction_tag), d, 0)
    if d or first is None or not calls:
        return None
    return (first, *derive_contract(calls, first))


def _result_of(result: str, declarer: int, contract: str) -> int | None:
    """Declarer's tricks as ``build`` reads a Result; None when it files a problem, gives none,
    or the result is marked ``^``."""
    d = Problems()
    stated, flagged = result_of({"Result": result}, {}, declarer, contract, d)
    return None if d or flagged else stated
