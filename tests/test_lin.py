"""LIN reader: hand-written fixtures (expected values worked out by hand), bad input, and a
write/read round-trip property.

Fixtures (``fixtures/lin/``; LIN has no comments, so each file is named for what it shows):

* ``vugraph_two_rooms_claim_mid_trick.lin`` - vg/rs/pn(8) header, board 7 in the open room
  (4S by South, claim of 13 after two cards of trick 3) and the closed room (3NT by South, an
  ``nt`` comment and a ``pg`` pause in the middle of trick 1, claim after two full tricks); all
  four hands given.
* ``single_ascending_ranks_no_east_sv0_alert_lowercase_pc.lin`` - one BBO single deal: ranks
  ascending, East omitted, ``sv|0|``, an alerted ``mb|1C!|`` with ``an``, ``pc`` in lower case,
  an ``nt`` in mid-trick and a claim.
* ``three_deals_one_per_line_packed_calls.lin`` - three deals, one per line, each starting ``pn|``;
  the first auction packed ``mb|1nppp|``, the second passed out, the third ``1S X XX``.
* ``teaching_partial_deals_packed_calls.lin`` - a teaching/movie file: display commands, stray text
  outside pairs, ``qx|A1|`` labels, partial deals (two cards a hand), packed calls, CRLF.
* ``robot_vugraph_pn_before_qx.lin`` - robot Table Manager shape: per-board ``pn`` before ``qx``,
  a newline inside values (``sv|o`` / ``|sa|0|``), a trailing 8-name ``pn`` that is not a board.
* ``bad_md_card_in_two_hands_53_cards_then_good.lin``, ``bad_pc_token_then_good.lin``,
  ``truncated_inside_value.lin``, ``empty.lin`` - broken input.
"""
from __future__ import annotations

import io
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from revoke_audit.core.cards import (
    EAST,
    NORTH,
    SOUTH,
    WEST,
    make_card,
    parse_card,
    parse_hand,
    trick_winner,
)
from revoke_audit.core.codes import CODES
from revoke_audit.formats.lin import MAX_ITEMS, MAX_VALUE, format_lin, read_lin
from revoke_audit.core.record import BoardRecord, Play

FIX = Path(__file__).resolve().parents[1] / "fixtures" / "lin"
SEAT = {"N": NORTH, "E": EAST, "S": SOUTH, "W": WEST}


def read(name: str) -> list[BoardRecord]:
    path = FIX / name
    with open(path, "rb") as f:
        return list(read_lin(f, str(path)))


def read_bytes(data: bytes, source: str = "mem.lin") -> list[BoardRecord]:
    return list(read_lin(io.BytesIO(data), source))


def hand(pbn: str) -> int:
    got = parse_hand(pbn)
    assert got is not None and not got[1]
    return got[0]


def plays(rec: BoardRecord) -> list[tuple[str, str]]:
    """(seat, card) in play order, e.g. ("W", "HJ"); "?" / "-" where unknown."""
    out = []
    for p in rec.play:
        seat = "NESW"[p.seat] if p.seat is not None else "?"
        card = "-" if p.card is None else "SHDC"[p.card // 13] + "23456789TJQKA"[p.card % 13]
        out.append((seat, card))
    return out


def seq(text: str) -> list[tuple[str, str]]:
    return [(t[0], t[2:]) for t in text.split()]


def codes(rec: BoardRecord) -> list[tuple[str, int | None]]:
    return [(d.code, d.line) for d in rec.diagnostics]


# the deal used by most fixtures: South holds every A K Q (and SJ), hands in LIN order S, W, N, E
FULL_N = hand("765.765.8765.876")
FULL_E = hand("432.432.432.5432")
FULL_S = hand("AKQJ.AKQ.AKQ.AKQ")
FULL_W = hand("T98.JT98.JT9.JT9")
FULL = (FULL_N, FULL_E, FULL_S, FULL_W)


# --- good fixtures ---------------------------------------------------------------------------

def test_vugraph_two_rooms_claim_mid_trick():
    recs = read("vugraph_two_rooms_claim_mid_trick.lin")
    assert len(recs) == 2
    o, c = recs
    assert [r.room for r in recs] == ["open", "closed"]
    assert [r.board for r in recs] == ["7", "7"]
    assert [r.game for r in recs] == [1, 2]
    assert [r.line for r in recs] == [4, 8]
    assert o.event == c.event == "Fixture Cup"
    assert o.tags["segment"] == "Final" and o.scoring == "IMP"
    # pn: open S,W,N,E then closed S,W,N,E -> record.names N,E,S,W
    assert o.names == ("Nopen", "Eopen", "Sopen", "Wopen")
    assert c.names == ("Nclosed", "Eclosed", "Sclosed", "Wclosed")
    # rs: one entry per board and room from board 7 (vg "first"), open then closed
    assert o.lin_result == "4SS+3" and c.lin_result == "3NS+4"
    for r in recs:
        assert r.hands == FULL and r.dealer == SOUTH and r.vul == "All" and r.deal_line == r.line
        assert r.diagnostics == () and not r.unreadable
        assert r.format == "lin" and r.contract_stated is None and r.declarer_stated is None
    # open: 2C! (alerted) P 2D P 4S P P P -> 4S by South; claim of 13 after 2 cards of trick 3
    assert o.auction == ("2C", "P", "2D", "P", "4S", "P", "P", "P") and o.auction_line == 4
    assert (o.contract_derived, o.declarer_derived) == ("4S", SOUTH)
    assert plays(o) == seq("W:HJ N:H5 E:H2 S:HA S:SA W:S8 N:S5 E:S2 S:SK W:S9")
    assert [p.line for p in o.play] == [5] * 4 + [6] * 4 + [7] * 2
    assert all(p.trick is None and p.marks == () for p in o.play)
    assert (o.claim, o.claim_line, o.play_line) == (13, 7, 5)
    # closed: 2NT P 3NT P P P -> 3NT by South (first of N-S to name NT); nt and pg mid-trick
    assert (c.contract_derived, c.declarer_derived) == ("3NT", SOUTH)
    assert plays(c) == seq("W:DJ N:D5 E:D2 S:DA S:CA W:C9 N:C6 E:C2")
    assert [p.line for p in c.play] == [9, 9, 10, 10, 11, 11, 11, 11]
    assert (c.claim, c.claim_line) == (13, 12)


def test_single_deal_ascending_ranks_no_east():
    (r,) = read("single_ascending_ranks_no_east_sv0_alert_lowercase_pc.lin")
    assert r.diagnostics == ()
    assert (r.line, r.game, r.board, r.room) == (1, 1, "5", "")
    assert r.names == ("Nora", "Ed", "Sam", "Wendy")
    assert r.dealer == WEST and r.vul == "None"  # md|2 = West; sv|0 = none vulnerable
    # hands given S, W, N in ascending rank order; East is the remaining 13 cards (worked out by
    # hand: no spades, hearts A J T 9 8, diamonds A K J 9 8, clubs A K T)
    assert r.hands == (hand("KQT87.765.65.987"), hand(".AJT98.AKJ98.AKT"),
                       hand("9642.KQ.QT7.QJ52"), hand("AJ53.432.432.643"))
    assert r.auction == ("P", "1C", "1NT", "P", "P", "P")  # the alert mark is dropped
    assert (r.contract_derived, r.declarer_derived) == ("1NT", EAST)
    # lower-case pc; the nt comment inside trick 2 changes nothing
    assert plays(r) == seq("S:CQ W:C3 N:C7 E:CK E:HA S:HK W:H2 N:H5")
    assert [p.line for p in r.play] == [2] * 4 + [3] * 4
    assert (r.claim, r.claim_line) == (9, 3)


def test_three_deals_one_per_line():
    recs = read("three_deals_one_per_line_packed_calls.lin")
    assert [(r.line, r.game, r.board) for r in recs] == [(1, 1, "1"), (2, 2, "2"), (3, 3, "3")]
    assert [r.names for r in recs] == [("N1", "E1", "S1", "W1"), ("N2", "E2", "S2", "W2"),
                                       ("N3", "E3", "S3", "W3")]
    assert [r.dealer for r in recs] == [NORTH, EAST, SOUTH]
    assert [r.vul for r in recs] == ["None", "NS", "EW"]
    one, two, three = recs
    assert one.auction == ("1NT", "P", "P", "P")  # packed mb|1nppp|
    assert (one.contract_derived, one.declarer_derived) == ("1NT", NORTH)
    assert plays(one) == seq("E:HA S:HQ W:H2 N:H5") and one.claim is None
    assert two.auction == ("P", "P", "P", "P")
    assert (two.contract_derived, two.declarer_derived) == ("Pass", None) and two.play == ()
    assert three.auction == ("1S", "X", "XX", "P", "P", "P")
    assert (three.contract_derived, three.declarer_derived) == ("1SXX", SOUTH)
    assert plays(three) == seq("W:D2 N:D5 E:DA S:D7") and three.claim == 7
    for r in recs:
        assert r.diagnostics == ()
        assert r.hands == (hand("KQT87.765.65.987"), hand(".AJT98.AKJ98.AKT"),
                           hand("9642.KQ.QT7.QJ52"), hand("AJ53.432.432.643"))


@pytest.mark.parametrize("plain", [True, False])
def test_lines_are_numbered_from_the_first_line_given(plain):
    """A part of a file is read numbered from its line in the file (``formats.parts``)."""
    from revoke_audit.formats.lin import PlainLine

    data = (FIX / "three_deals_one_per_line_packed_calls.lin").read_bytes()
    got = [i.record() if type(i) is PlainLine else i
           for i in read_lin(io.BytesIO(data), "x.lin", plain=plain, first_line=41)]
    assert [(r.line, r.game) for r in got] == [(41, 1), (42, 2), (43, 3)]


def test_teaching_file_partial_deals_and_packed_calls():
    recs = read("teaching_partial_deals_packed_calls.lin")
    assert [(r.line, r.board, r.room) for r in recs] == [(3, "A1", ""), (8, "A2", "")]
    a1, a2 = recs
    assert a1.dealer == EAST and a2.dealer == EAST
    # partial deals are recorded as given (two cards a hand)
    assert a1.hands == (hand("AQ..."), hand("JT..."), hand("73..."), hand("K6..."))
    assert a2.hands == (hand(".K3.."), hand(".JT.."), hand(".75.."), hand(".AQ.."))
    assert a1.auction == ("1NT", "P", "P", "P")
    assert (a1.contract_derived, a1.declarer_derived) == ("1NT", EAST)
    assert a2.auction == ("1H", "P", "P", "P")
    assert (a2.contract_derived, a2.declarer_derived) == ("1H", EAST)
    # the colour table's stray label "red" (line 1) and the partial deals are reported
    assert codes(a1) == [("PS201", 1), ("PS205", 4)]
    assert codes(a2) == [("PS205", 8)]
    assert all(not r.unreadable and r.play == () for r in recs)


def test_robot_vugraph_pn_before_qx():
    recs = read("robot_vugraph_pn_before_qx.lin")
    assert len(recs) == 2  # the trailing 8-name pn is not a board
    o, c = recs
    assert [(r.line, r.room, r.board) for r in recs] == [(5, "open", "1"), (10, "closed", "1")]
    assert o.names == ("C", "D", "A", "B") and c.names == ("G", "H", "E", "F")
    assert o.vul == c.vul == "None"  # "sv|o\n|" - newline inside the value
    assert (o.lin_result, c.lin_result) == ("1CS=", "1CS-1")
    assert o.hands == c.hands == FULL
    assert (o.contract_derived, o.declarer_derived) == ("1C", SOUTH)
    assert plays(o) == seq("W:HJ N:H5 E:H2 S:HA")
    assert plays(c) == seq("W:DJ N:D5 E:D2 S:DA")
    assert o.diagnostics == () and c.diagnostics == ()


# --- bad input -------------------------------------------------------------------------------

def test_md_card_in_two_hands_then_good():
    path = str(FIX / "bad_md_card_in_two_hands_53_cards_then_good.lin")
    b1, b2, b3 = read("bad_md_card_in_two_hands_53_cards_then_good.lin")
    # board 1: West's hand repeats South's SA (53 cards): reported, East not derived, and the SA
    # played is placed in no hand
    assert codes(b1) == [("PS204", 1), ("PS204", 1)]
    msgs = " / ".join(d.message for d in b1.diagnostics)
    assert "SA in two hands" in msgs and "W has 14 cards" in msgs
    assert b1.source == path and b1.diagnostics
    assert b1.hands == (FULL_N, None, FULL_S, FULL_W | hand("A...")) and not b1.unreadable
    assert plays(b1) == [("?", "SA")]
    # board 2: SJ twice inside South's hand: reported; the hand is still 13 distinct cards
    assert codes(b2) == [("PS204", 2)] and "SJ twice in one hand" in b2.diagnostics[0].message
    assert b2.hands == FULL
    # board 3 is read normally
    assert b3.diagnostics == () and b3.hands == FULL and b3.board == "3" and b3.line == 3
    assert plays(b3) == [("W", "ST")] and (b3.contract_derived, b3.declarer_derived) == ("1C", SOUTH)


def test_bad_pc_token_then_good():
    path = str(FIX / "bad_pc_token_then_good.lin")
    b1, b2 = read("bad_pc_token_then_good.lin")
    assert codes(b1) == [("PS207", 2)]
    assert b1.source == path and "'D1'" in b1.diagnostics[0].message
    # the unreadable card keeps its place in the play as an unknown card
    assert plays(b1) == seq("W:DJ ?:- E:D2 S:DA")
    assert b1.play[1] == Play(None, None, (), 2, None)
    assert b2.diagnostics == () and b2.line == 3 and b2.board == "2" and b2.hands == FULL
    assert plays(b2) == seq("W:HJ N:H5 E:H2 S:HA")


def test_truncated_file():
    b1, b2 = read("truncated_inside_value.lin")
    assert b1.diagnostics == () and plays(b1) == seq("W:HJ N:H5 E:H2 S:HA")
    assert codes(b2) == [("PS004", 2)]
    assert plays(b2) == [("W", "DJ")]  # the cut "pc|D" is dropped
    assert b2.hands == FULL and b2.contract_derived == "1C"


def test_truncated_inside_key():
    data = (FIX / "truncated_inside_value.lin").read_bytes()
    data = data[: data.rindex(b"|pc|D") + 2]  # ends "...|pc|DJ|p"
    b1, b2 = read_bytes(data)
    assert codes(b2) == [("PS004", 2)] and plays(b2) == [("W", "DJ")]


def test_empty_file():
    assert read("empty.lin") == []
    assert read_bytes(b"") == []
    assert read_bytes(b"\n\r\n  \n") == []


GOOD1 = (b"pn|a,b,c,d|st||md|1SAKQJHAKQDAKQCAKQ,ST98HJT98DJT9CJT9,S765H765D8765C876,|rh||"
         b"ah|Board 1|sv|o|mb|1C|mb|p|mb|p|mb|p|pg||pc|HJ|pc|H5|pc|H2|pc|HA|pg||\n")
GOOD2 = GOOD1.replace(b"Board 1", b"Board 2").replace(b"pn|a,b,c,d", b"pn|e,f,g,h")


def test_garbage_line_between_boards():
    garbage = bytes(range(0x80, 0x100)) + b"\x00\x01 not lin at all \x9d\xfe"
    b1, b2 = read_bytes(GOOD1 + garbage + b"\n" + GOOD2, "g.lin")
    assert b1.diagnostics == () and plays(b1) == seq("W:HJ N:H5 E:H2 S:HA")
    # the garbage (line 2) is reported on the board that follows it, which is read normally
    assert codes(b2) == [("PS002", 2), ("PS201", 2)]
    assert b2.source == "g.lin" and b2.diagnostics
    assert b2.names == ("g", "h", "e", "f") and b2.board == "2" and b2.line == 3
    assert b2.hands == FULL and plays(b2) == seq("W:HJ N:H5 E:H2 S:HA")


def test_random_bytes():
    rng = random.Random(20240601)
    for size in (1, 10, 1000, 100_000):
        data = rng.randbytes(size)
        recs = read_bytes(data, "rnd.bin")
        for r in recs:
            assert r.source == "rnd.bin"
            for d in r.diagnostics:
                assert d.code in CODES and d.line is not None
        if size >= 1000:
            assert recs and any(r.diagnostics for r in recs)
    # random bytes that are mostly LIN-ish tokens
    alphabet = [b"|", b"pc", b"md", b"mb", b"qx", b"pn", b"SA", b"1", b"o", b",", b"\n", b"\xff", b"1N"]
    for _ in range(200):
        data = b"".join(rng.choice(alphabet) for _ in range(rng.randint(0, 300)))
        for r in read_bytes(data):
            assert all(d.code in CODES for d in r.diagnostics)


def test_bytes_with_no_newline():
    # 2.5 MiB without a newline: the line is cut at 1 MiB (PS005) and memory stays bounded
    data = (b"\x00\xfe\x81garbage" * 300_000)[: 5 << 19]
    recs = read_bytes(data, "nonl.bin")
    assert len(recs) == 1 and recs[0].unreadable
    assert [c for c, _ in codes(recs[0])] == ["PS002", "PS005", "PS201"]
    assert {d.line for d in recs[0].diagnostics} == {1}
    # a good board after such a line is still read
    recs = read_bytes(data + b"\n" + GOOD2, "nonl.bin")
    assert recs[-1].board == "2" and plays(recs[-1]) == seq("W:HJ N:H5 E:H2 S:HA")
    assert recs[-1].line == 2


def test_board_too_large_then_good():
    big = GOOD1.rstrip(b"\n") + b"pc|S2|" * (MAX_ITEMS + 10) + b"\n"
    b1, b2 = read_bytes(big + GOOD2)
    assert codes(b1) == [("PS006", 1)]
    assert len(b1.play) + len(b1.auction) == MAX_ITEMS
    assert b2.diagnostics == () and b2.board == "2" and len(b2.play) == 4


def test_value_too_long_is_cut():
    long_comment = b"nt|" + b"blah blah\n" * (MAX_VALUE // 5) + b"|\n"
    b1, b2 = read_bytes(GOOD1 + long_comment + GOOD2)
    # the comment belongs to board 1 (it comes before board 2's pn); board 2 is read normally
    assert [c for c, _ in codes(b1)] == ["PS210"]
    assert plays(b1) == seq("W:HJ N:H5 E:H2 S:HA")
    assert b2.diagnostics == () and b2.board == "2" and plays(b2) == seq("W:HJ N:H5 E:H2 S:HA")


def test_other_bad_values():
    data = (b"pn|a,b,c,d|st||md|9SAKQJHAKQDAKQCAKQ,ST98HJT98DJT9CJT9,S765H765D8765C876,|"
            b"sv|q|mb|1C|mb|zz|mb|p|mb|p|mb|p|pc|HJ|mc|14|\n" + GOOD2)
    b1, b2 = read_bytes(data)
    assert [c for c, _ in codes(b1)] == ["PS202", "PS209", "PS206", "PS208"]
    assert b1.dealer is None and b1.vul is None and b1.contract_derived is None and b1.claim is None
    assert b1.hands == FULL and plays(b1) == [("W", "HJ")]
    assert b2.diagnostics == () and b2.board == "2"


def test_stray_bar_in_comment_resynchronises():
    data = GOOD1.rstrip(b"\n") + b"nt|a | comment with a bar|" + b"pc|D2|\n"
    (b1,) = read_bytes(data)
    assert codes(b1) == [("PS201", 1)]
    assert plays(b1)[-1] == ("E", "D2")


def test_reader_is_lazy():
    """Records come out as soon as the next board starts (streaming, not whole-file)."""
    class Stream(io.RawIOBase):
        def __init__(self):
            self.chunks = [GOOD1 * 3, b""]
            self.reads = 0

        def readable(self):
            return True

        def read(self, n=-1):
            self.reads += 1
            if self.chunks:
                return self.chunks.pop(0)
            raise AssertionError("read past the end")

    s = Stream()
    it = read_lin(s, "lazy")
    first = next(it)
    assert first.game == 1 and s.reads == 1


def test_stream_error_becomes_diagnostic():
    class Broken(io.RawIOBase):
        def __init__(self):
            self.n = 0

        def readable(self):
            return True

        def read(self, n=-1):
            self.n += 1
            if self.n == 1:
                return GOOD1 + GOOD2[:50]
            raise OSError("disk on fire")

    recs = list(read_lin(Broken(), "broken"))
    # the unfinished last line never arrives; board 1 is kept, with the read error
    assert len(recs) == 1 and plays(recs[0]) == seq("W:HJ N:H5 E:H2 S:HA")
    assert [d.code for d in recs[0].diagnostics] == ["PS001"]


# --- write / read round trip -----------------------------------------------------------------

STRAINS = ("C", "D", "H", "S", "NT")
TRUMP = {"C": 3, "D": 2, "H": 1, "S": 0, "NT": None}


@st.composite
def boards(draw):
    """A random legal deal, dealer, vulnerability, complete auction and legal play."""
    order = draw(st.permutations(range(52)))
    hands = [0, 0, 0, 0]
    for i, c in enumerate(order):
        hands[i // 13] |= 1 << c
    dealer = draw(st.integers(0, 3))
    vul = draw(st.sampled_from(["None", "NS", "EW", "All"]))
    # auction: legal calls until three passes follow a bid (or four passes)
    calls: list[str] = []
    last = -1
    last_side = None
    risk = ""
    first_named: dict[tuple[int, str], int] = {}
    declarer = None
    passes = 0
    seat = dealer
    while True:
        options = ["P"]
        if last < 34 and len(calls) < 40:
            options.append("bid")
        if last >= 0 and risk == "" and seat % 2 != last_side:
            options.append("X")
        if risk == "X" and seat % 2 == last_side:
            options.append("XX")
        call = draw(st.sampled_from(options))
        if call == "bid":
            last = draw(st.integers(last + 1, min(34, last + 5)))
            strain = STRAINS[last % 5]
            call = f"{last // 5 + 1}{strain}"
            last_side, risk, passes = seat % 2, "", 0
            first_named.setdefault((seat % 2, strain), seat)
        elif call == "P":
            passes += 1
        else:
            risk, passes = call, 0
        calls.append(call)
        seat = (seat + 1) % 4
        if passes == 4 or (last >= 0 and passes == 3):
            break
    if last < 0:
        contract = "Pass"
    else:
        strain = STRAINS[last % 5]
        contract = f"{last // 5 + 1}{strain}{risk}"
        declarer = first_named[(last_side, strain)]
    # play: declarer's LHO leads; follow suit when able; the trick's winner leads next
    play: list[tuple[int, int]] = []
    claim = None
    if declarer is not None:
        trump = TRUMP[contract.rstrip("X")[1:]]
        left = list(hands)
        leader = (declarer + 1) % 4
        for _ in range(13):
            cards = []
            for i in range(4):
                s = (leader + i) % 4
                held = [c for c in range(52) if left[s] >> c & 1]
                if cards:
                    same = [c for c in held if c // 13 == cards[0] // 13]
                    held = same or held
                c = draw(st.sampled_from(held))
                left[s] &= ~(1 << c)
                cards.append(c)
                play.append((s, c))
            leader = trick_winner(leader, cards, trump)
        if draw(st.booleans()):  # stop anywhere (also mid-trick) and claim
            play = play[: draw(st.integers(0, 51))]
            claim = draw(st.integers(0, 13))
    names = tuple(draw(st.text("abcdefgh~_ 0123456789", min_size=0, max_size=8)).strip()
                  for _ in range(4))
    board = str(draw(st.integers(1, 36)))
    return hands, dealer, vul, calls, contract, declarer, play, claim, names, board


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(boards())
def test_round_trip(b):
    hands, dealer, vul, calls, contract, declarer, play, claim, names, board = b
    auction = tuple(calls)
    rec = BoardRecord(
        source="gen", line=1, game=1, format="lin", board=board, dealer=dealer, vul=vul,
        names=names, hands=tuple(hands), auction=auction,
        play=tuple(Play(s, c) for s, c in play), claim=claim,
    )
    text = format_lin(rec)
    (got,) = read_bytes(text.encode(), "rt")
    assert got.diagnostics == ()
    assert got.hands == tuple(hands)
    assert got.dealer == dealer and got.vul == vul and got.board == board
    assert got.names == names
    assert got.auction == auction
    assert (got.contract_derived, got.declarer_derived) == (contract, declarer)
    assert [(p.seat, p.card) for p in got.play] == play
    assert got.claim == claim


def test_format_lin_example():
    (r,) = read("single_ascending_ranks_no_east_sv0_alert_lowercase_pc.lin")
    text = format_lin(r)
    assert text.startswith("pn|Sam,Wendy,Nora,Ed|st||md|2S9642HKQDQT7CQJ52,SAJ53H432D432C643,"
                           "SKQT87H765D65C987,|rh||ah|Board 5|sv|o|mb|p|mb|1C|mb|1N|")
    assert text.endswith("pc|HA|pc|HK|pc|H2|pc|H5|pg||mc|9|\n")
    (again,) = read_bytes(text.encode())
    assert (again.hands, again.auction, again.play[0].card) == (r.hands, r.auction, parse_card("CQ"))
    assert [(p.seat, p.card) for p in again.play] == [(p.seat, p.card) for p in r.play]


def test_codes_registered():
    for code in [f"PS2{i:02d}" for i in range(1, 13)]:
        assert code in CODES
    assert make_card(0, 12) == parse_card("SA")
