"""PBN reader: hand-written fixtures with hand-worked expectations, bad input, round trip."""
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
    STRAINS,
    SUIT_MASKS,
    WEST,
    deal_str,
    mask_of,
    parse_card,
    trick_winner,
)
from revoke_audit.core.codes import CODES
from revoke_audit.formats.pbn import MAX_GAME_LINES, format_pbn, read_pbn
from revoke_audit.core.record import BoardRecord, Play

FIX = Path(__file__).resolve().parents[1] / "fixtures" / "pbn"
DEAL1 = "N:AKQ2.432.5432.32 543.AKQJ.T98.T98 JT9876.65.AK.AKQ .T987.QJ76.J7654"
DEAL2 = "E:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"
SEAT = {"N": NORTH, "E": EAST, "S": SOUTH, "W": WEST}


def read(name: str, diagnostics: list | None = None) -> list[BoardRecord]:
    with open(FIX / name, "rb") as f:
        return list(read_pbn(f, name, diagnostics=diagnostics))


def read_bytes(data: bytes, diagnostics: list | None = None) -> list[BoardRecord]:
    return list(read_pbn(io.BytesIO(data), "mem.pbn", diagnostics=diagnostics))


def seq(text: str) -> list[tuple[int, int | None]]:
    """``"W:H7 N:H2 E:-"`` -> [(WEST, card), (NORTH, card), (EAST, None)]."""
    out = []
    for item in text.split():
        seat, card = item.split(":")
        out.append((SEAT[seat], None if card == "-" else parse_card(card)))
    return out


def played(rec: BoardRecord) -> list[tuple[int | None, int | None]]:
    return [(p.seat, p.card) for p in rec.play]


def codes(rec_or_list) -> list[tuple[str, int | None]]:
    diags = rec_or_list.diagnostics if isinstance(rec_or_list, BoardRecord) else rec_or_list
    return [(d.code, d.line) for d in diags]


def test_all_fixtures_start_with_a_comment_line():
    for path in FIX.glob("*.pbn"):
        assert path.read_bytes()[:1] in (b";", b"%"), path.name


# --- play: columns are seats, not time -------------------------------------------------------
def test_play_columns_to_time_order():
    rec = read("play_columns.pbn")[0]
    # Play "W": columns W N E S.  Trick 1 won by East's HA (third column), so East leads trick 2
    # (HK, the first card in time though it is the third column); East leads HQ at trick 3 and
    # South ruffs with S6, so South leads trick 4.
    assert played(rec) == seq(
        "W:H7 N:H2 E:HA S:H5 "
        "E:HK S:H6 W:H8 N:H3 "
        "E:HQ S:S6 W:H9 N:H4 "
        "S:SJ W:C4 N:S2 E:S3"
    )
    assert [p.trick for p in rec.play] == [1] * 4 + [2] * 4 + [3] * 4 + [4] * 4
    assert [p.line for p in rec.play[:8]] == [15] * 4 + [16] * 4
    assert rec.play_leader == WEST and rec.play_line == 14
    assert rec.play_stopped
    assert rec.contract_stated == "4S" and rec.declarer_stated == SOUTH
    assert rec.auction == ("P", "P", "1S", "P", "4S", "P", "P", "P")
    assert rec.contract_derived == "4S" and rec.declarer_derived == SOUTH
    assert rec.result_stated == 10
    assert rec.diagnostics == ()
    assert deal_str(rec.hands) == DEAL1


def test_revoke_and_lead_out_of_turn_marks():
    rec = read("play_columns.pbn")[1]
    assert played(rec) == seq(
        "W:H7 N:H2 E:HA S:DA "  # South revokes: East's HA wins (DA is not a trump)
        "N:D3 E:D8 S:DK W:DQ "  # North leads out of turn (^L): the trick starts with North
        "S:CA W:C4 N:C2 E:C8"  # South won with DK and leads
    )
    assert rec.play[3].marks == ("R",)
    assert rec.play[4].marks == ("L",)
    assert all(p.marks == () for i, p in enumerate(rec.play) if i not in (3, 4))
    assert rec.play_stopped


def test_partial_play_with_unknown_card_and_star():
    rec = read("play_columns.pbn")[2]
    assert played(rec) == seq("W:H7 N:H2 E:HA S:H5 E:HK S:H6 W:H8 N:-")
    assert rec.play_stopped
    assert rec.diagnostics == ()  # nothing after the unknown card needs its winner


def test_unknown_winner_keeps_column_order():
    """Trick 1 has an unknown card, so who led trick 2 is unknown: its cards stay in column
    order, each with its seat and trick, for the replay to judge (it reports RC013)."""
    rec = read("play_columns.pbn")[3]
    assert played(rec) == seq("W:H7 N:H2 E:- S:H5 W:H8 N:H3 E:HK S:H6")
    assert [p.trick for p in rec.play] == [1, 1, 1, 1, 2, 2, 2, 2]
    assert codes(rec) == []


def test_free_layout_reads_like_one_line_per_trick():
    recs = read("play_columns.pbn")
    assert played(recs[4]) == played(recs[0])
    assert [p.trick for p in recs[4].play] == [p.trick for p in recs[0].play]
    assert recs[4].play[2].line == 71 and recs[4].play[3].line == 72  # HA on line 71, H5 on 72


# --- tags, inheritance, results ----------------------------------------------------------------
def test_inheritance():
    recs = read("inheritance.pbn")
    assert [r.event for r in recs] == ["Club Night", "Club Night", "Final", "Final", "Final"]
    assert [r.site for r in recs] == ["Home", "Home", "Home", "Home", ""]  # "#" followed twice
    assert recs[1].date == "2024.01.05"
    assert deal_str(recs[1].hands) == DEAL1  # [Deal "#"] (PBN 0.8)
    # second table without Board/Dealer/Vulnerable/Deal: taken from the game before
    fourth = recs[3]
    assert deal_str(fourth.hands, EAST) == DEAL2
    assert (fourth.board, fourth.dealer, fourth.vul) == ("2", EAST, "NS")
    assert fourth.names == ("Nell", "", "", "")
    assert codes(fourth) == [("PS106", 33)]
    assert fourth.contract_derived == "2H" and fourth.declarer_derived == WEST
    assert fourth.tags["Deal"] == DEAL2
    # "#" on the fifth game refers to the fourth (which inherited it)
    assert deal_str(recs[4].hands, EAST) == DEAL2
    assert (recs[4].board, recs[4].dealer, recs[4].vul) == ("3", SOUTH, "EW")
    assert all(r.diagnostics == () for i, r in enumerate(recs) if i != 3)


def test_results_by_side_and_flags():
    recs = read("results.pbn")
    r1, r2, r3, r4, r5 = recs
    assert (r1.declarer_stated, r1.contract_stated, r1.result_stated) == (EAST, "4H", 4)  # NS 9
    assert (r2.declarer_stated, r2.result_stated) == (SOUTH, 9)  # NS 9, N/S declarer
    assert (r3.declarer_stated, r3.contract_stated, r3.result_stated) == (WEST, "2SX", 4)
    assert (r4.declarer_stated, r4.declarer_swapped, r4.result_stated, r4.result_flagged) == (
        NORTH, True, 7, True)
    assert (r5.contract_stated, r5.declarer_stated, r5.result_stated) == ("Pass", None, None)
    assert r5.auction == ("P", "P", "P", "P") and r5.contract_derived == "Pass"
    assert all(r.diagnostics == () for r in recs)
    assert [r.unreadable for r in recs] == [False, True, True, True, True]


def test_cp1252_crlf_and_ctrl_z():
    recs = read("cp1252_crlf.pbn")
    assert len(recs) == 2
    assert recs[0].names == ("Müller", "Æbeltoft", "Smith", "Jones")
    assert recs[0].event == "Øresund Open" and recs[1].event == "Øresund Open"
    assert recs[1].names[0] == "Françoise"
    assert (recs[0].line, recs[1].line) == (2, 15)  # CRLF does not disturb line numbers
    assert (recs[0].vul, recs[1].vul) == ("All", "None")
    assert deal_str(recs[0].hands) == DEAL1
    allcodes = codes(recs[0]) + codes(recs[1])
    assert allcodes == [("PS002", 1)]  # one PS002 per file, at the first line that needed it


def test_declared_charset_is_used():
    latin = ('%Content-type: text/x-pbn; charset=ISO-8859-1\n[North "Müller"]\n'
             '[Deal "' + DEAL1 + '"]\n').encode("latin-1")
    (rec,) = read_bytes(latin)
    assert rec.names[0] == "Müller" and rec.diagnostics == ()
    utf = ('%Content-type: text/x-pbn; charset=UTF-8\n[North "Æbeltoft"]\n').encode("utf-8")
    (rec,) = read_bytes(utf)
    assert rec.names[0] == "Æbeltoft" and rec.diagnostics == ()
    bad = ('%Content-type: text/x-pbn; charset=UTF-8\n[North "Müller"]\n').encode("cp1252")
    (rec,) = read_bytes(bad)
    assert rec.names[0] == "Müller" and codes(rec) == [("PS002", 2)]


def test_repeated_empty_auction_keeps_the_calls():
    r1, r2 = read("repeated_auction.pbn")
    assert r1.auction == ("P", "P", "1S", "P", "4S", "P", "P", "P")
    assert r1.auction_line == 9
    assert (r1.contract_derived, r1.declarer_derived) == ("4S", SOUTH)
    assert r1.diagnostics == ()
    # a repeated Auction when the first one has calls: the first is kept
    assert r2.auction == ("1NT", "P", "3NT", "P", "P", "P")
    assert codes(r2) == [("PS104", 18)]


def test_tag_syntax_and_comments():
    (rec,) = read("syntax.pbn")
    assert rec.event == 'Spring "Cup"' and rec.site == "Back\\room"
    assert rec.board == "7" and rec.dealer == WEST and rec.vul == "All"  # tag over four lines
    assert rec.tags["Round"] == "3"
    assert "Date" not in rec.tags and "Fake" not in rec.tags  # both inside comments
    assert deal_str(rec.hands) == DEAL1
    assert (rec.contract_stated, rec.declarer_stated) == ("4SX", SOUTH)
    assert rec.line == 4
    # braces do not nest: the first '}' ends the comment, leaving text and a stray '}' (PS101);
    # the unquoted value is PS103
    assert sorted(codes(rec)) == [("PS101", 2), ("PS103", 10)]


def test_auction_annotations_placeholders_and_all_pass():
    data = (b'[Dealer "N"]\n[Auction "W"]\n- 1D 1S $2 3H =1= ! X\n4S ?=2= 4NT! XX\n'
            b'5C=3 AP\n[Note "1:x"]\n')
    (rec,) = read_bytes(data)
    assert rec.auction == ("1D", "1S", "3H", "X", "4S", "4NT", "XX", "5C", "P", "P", "P")
    assert (rec.contract_derived, rec.declarer_derived) == ("5C", WEST)  # W bid 5C
    assert rec.diagnostics == ()
    (rec,) = read_bytes(b'[Dealer "S"]\n[Auction "S"]\n1C Pass 1Q Pass\n')
    assert rec.auction == ("1C", "P") and codes(rec) == [("PS114", 3)]


def test_glued_games_and_unclosed_comment():
    data = ('[Board "1"]\n[Deal "' + DEAL1 + '"]\n[Contract "1NT"]\n'
            '[Board "2"]\n[Deal "' + DEAL2 + '"]\n'
            '{Feasability: 1 2 3\n[Contract "2S"]\n[Declarer "E"]\n').encode()
    r1, r2 = read_bytes(data)
    assert (r1.board, r1.contract_stated) == ("1", "1NT")
    assert (r2.board, r2.line, r2.contract_stated, r2.declarer_stated) == ("2", 4, "2S", EAST)
    assert codes(r2) == [("PS120", 4), ("PS121", 7)]


# --- bad input -------------------------------------------------------------------------------
def test_truncated_file():
    r1, r2 = read("truncated.pbn")
    assert deal_str(r1.hands) == DEAL1 and r1.diagnostics == ()
    assert r2.board == "2" and r2.dealer == EAST and r2.unreadable
    assert codes(r2) == [("PS004", 9)]
    assert r2.source == "truncated.pbn" and r2.diagnostics
    # cut inside a tag
    (rec,) = read_bytes(b'[Board "1"]\n[Deal\n')
    assert codes(rec) == [("PS004", 2)]



def test_a_file_cut_inside_a_play_section_is_not_clean():
    from revoke_audit.ruling.audit import audit_board

    r1, r2 = read("cut_in_play.pbn")
    assert codes(r1) == [] and codes(r2) == [("PS004", 62)]
    assert r2.truncated and len(r2.play) == 18
    assert [audit_board(r).status for r in (r1, r2)] == ["clean", "unreadable"]
    data = (FIX / "cut_in_play.pbn").read_bytes()
    # with its final newline, or ended by "*", the same play is a partial record, not a cut
    for whole in (data + b"\n", data + b" *", data + b"\r\n"):
        r1, r2 = read_bytes(whole)
        assert codes(r2) == [] and audit_board(r2).status == "clean"
    # a complete play without a final newline is no cut either
    assert [codes(r) for r in read("play_columns.pbn")] == [
        codes(r) for r in read_bytes((FIX / "play_columns.pbn").read_bytes().rstrip())]

def test_deal_with_53_cards_is_kept_with_a_diagnostic():
    r1, r2 = read("bad_deal53.pbn")
    assert r1.hands is not None and bin(r1.hands[WEST]).count("1") == 14
    assert codes(r1) == [("PS108", 4)]
    assert "W has 14 cards" in r1.diagnostics[0].message
    assert deal_str(r2.hands, EAST) == DEAL2 and r2.contract_stated == "3NT"
    assert r2.diagnostics == ()


def test_unreadable_deal_and_tag_values():
    data = (b'[Deal "N:AKQ.xyz - - -"]\n[Dealer "Q"]\n[Vulnerable "Maybe"]\n'
            b'[Declarer "White"]\n[Contract "5Hearts"]\n[Result "C-2"]\n\n'
            b'[Deal "' + DEAL1.encode() + b'"]\n')
    r1, r2 = read_bytes(data)
    assert r1.hands is None and r1.unreadable
    assert codes(r1) == [("PS109", 2), ("PS110", 3), ("PS107", 1), ("PS111", 4),
                         ("PS112", 5), ("PS113", 6)]
    assert r1.source == "mem.pbn" and r1.diagnostics
    assert deal_str(r2.hands) == DEAL1 and r2.line == 8


def test_tag_without_closing_quote():
    r1, r2 = read("unclosed_quote.pbn")
    assert codes(r1) == [("PS102", 3)]
    assert r1.event == "Broken event"
    assert r1.dealer == SOUTH and deal_str(r1.hands) == DEAL1  # rest of the game still read
    assert r1.contract_stated == "1NT"
    assert r2.board == "2" and deal_str(r2.hands, EAST) == DEAL2 and r2.diagnostics == ()


def test_bad_card_tokens():
    data = ('[Deal "' + DEAL1 + '"]\n[Contract "4S"]\n[Declarer "S"]\n[Play "W"]\n'
            'H7 H2 XX H5\n*\n').encode()
    (rec,) = read_bytes(data)
    assert played(rec) == seq("W:H7 N:H2 E:- S:H5")
    assert codes(rec) == [("PS116", 5)]


def test_empty_file():
    diags: list = []
    assert read_bytes(b"", diags) == [] and diags == []
    assert read_bytes(b"\n\n  \n\x1a", diags) == [] and diags == []


def _valid_game() -> bytes:
    return ('[Board "9"]\n[Dealer "W"]\n[Deal "' + DEAL1 + '"]\n[Contract "3NT"]\n'
            '[Declarer "N"]\n').encode()


def test_binary_garbage_then_a_good_game():
    rng = random.Random(1234)
    garbage = bytes(rng.randrange(256) for _ in range(20000))
    diags: list = []
    recs = read_bytes(garbage + b"\n\n" + _valid_game(), diags)
    last = recs[-1]
    assert deal_str(last.hands) == DEAL1
    assert (last.board, last.dealer, last.contract_stated) == ("9", WEST, "3NT")
    found = diags + [d for r in recs for d in r.diagnostics]
    assert found and all(d.line for d in found)
    assert any(d.code == "PS002" for d in found)


def test_bytes_without_newline():
    diags: list = []
    recs = read_bytes(b"\x00\xff[{" * 700_000, diags)  # 2.8 MB, no newline
    found = diags + [d for r in recs for d in r.diagnostics]
    assert ("PS005", 1) in codes(found)
    # ... and a good game after it is still read
    recs = read_bytes(b"x" * 3_000_000 + b"\n\n" + _valid_game(), diags)
    assert deal_str(recs[-1].hands) == DEAL1


def test_game_too_large_is_cut_and_the_next_game_read():
    big = b'[Board "1"]\n[Auction "N"]\n' + b"Pass\n" * (MAX_GAME_LINES + 10)
    r1, r2 = read_bytes(big + b"\n" + _valid_game())
    assert ("PS006", MAX_GAME_LINES + 1) in codes(r1)
    assert r2.board == "9" and deal_str(r2.hands) == DEAL1


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=3000))
def test_never_raises_on_any_bytes(data):
    diags: list = []
    for rec in read_pbn(io.BytesIO(data), "fuzz.pbn", diagnostics=diags):
        assert rec.format == "pbn" and rec.game >= 1
        assert all(d.code != "PS123" for d in rec.diagnostics)  # no internal error
    assert all(d.code != "PS123" for d in diags)


PBN_ALPHABET = list('[]{}";%\n \t#^*-+=!?$\\') + ["[Deal \"", "[Play \"W\"]\n", "[Auction \"N\"]\n",
                                                  "SA ", "H2 ", "Pass ", "1NT ", "N:", "."]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(PBN_ALPHABET), max_size=200))
def test_never_raises_on_pbn_like_noise(parts):
    diags: list = []
    recs = list(read_pbn(io.BytesIO("".join(parts).encode()), "fuzz.pbn", diagnostics=diags))
    assert all(d.code != "PS123" for r in recs for d in r.diagnostics)
    assert all(d.code != "PS123" for d in diags)


# --- round trip: format_pbn then read_pbn ----------------------------------------------------
@st.composite
def played_boards(draw):
    rng = draw(st.randoms(use_true_random=False))
    deck = list(range(52))
    rng.shuffle(deck)
    hands = [mask_of(deck[13 * i: 13 * i + 13]) for i in range(4)]
    dealer = draw(st.integers(0, 3))
    vul = draw(st.sampled_from(["None", "NS", "EW", "All"]))
    if draw(st.integers(0, 9)) == 0:
        auction = ("P", "P", "P", "P")
        return BoardRecord(source="gen", line=1, game=1, format="pbn", dealer=dealer, vul=vul,
                           hands=tuple(hands), auction=auction, contract_stated="Pass"), []
    declarer = draw(st.integers(0, 3))
    level = draw(st.integers(1, 7))
    strain = draw(st.integers(0, 4))
    risk = draw(st.sampled_from(["", "X", "XX"]))
    bid = f"{level}{STRAINS[strain]}"
    calls = ["P"] * ((declarer - dealer) % 4) + [bid]
    calls += {"": [], "X": ["X"], "XX": ["X", "XX"]}[risk] + ["P", "P", "P"]
    trump = None if strain == 4 else strain
    ncards = draw(st.sampled_from([52, 52, draw(st.integers(0, 52))]))
    left = list(hands)
    leader = (declarer + 1) % 4
    plays, expected = [], []
    trick: list[int] = []
    seat = leader
    for i in range(ncards):
        hand = left[seat]
        if trick:
            follow = hand & SUIT_MASKS[trick[0] // 13]
            if follow:
                hand = follow
        cards = [c for c in range(52) if hand >> c & 1]
        card = rng.choice(cards)
        left[seat] &= ~(1 << card)
        plays.append(Play(seat, card, (), 0, i // 4 + 1))
        expected.append((seat, card))
        trick.append(card)
        if len(trick) == 4:
            seat = trick_winner((seat + 1) % 4, trick, trump)
            trick = []
        else:
            seat = (seat + 1) % 4
    names = tuple(draw(st.sampled_from(["", "Ann", 'Bo "B" \\ Lee', "Müller"])) for _ in range(4))
    rec = BoardRecord(
        source="gen", line=1, game=1, format="pbn", event="Sim",
        board=str(draw(st.integers(1, 99))),
        dealer=dealer, vul=vul, names=names, hands=tuple(hands), auction=tuple(calls),
        contract_stated=bid + risk, declarer_stated=declarer, play_leader=leader,
        play=tuple(plays), play_stopped=ncards < 52,
        result_stated=draw(st.none() | st.integers(0, 13)),
    )
    return rec, expected


@settings(max_examples=200, deadline=None)
@given(played_boards())
def test_format_then_read_round_trip(board):
    rec, expected = board
    text = format_pbn(rec)
    (back,) = list(read_pbn(io.BytesIO(text.encode("utf-8")), "rt.pbn"))
    assert back.hands == rec.hands
    assert (back.dealer, back.vul) == (rec.dealer, rec.vul)
    assert (back.contract, back.declarer) == (rec.contract, rec.declarer)
    assert back.auction == rec.auction
    assert (back.contract_derived, back.declarer_derived) == (rec.contract, rec.declarer)
    assert back.names == rec.names and back.board == rec.board
    assert back.result_stated == rec.result_stated
    got = played(back)
    while got and got[-1][1] is None:  # a last, partial trick is padded with "-" in PBN
        got.pop()
    assert got == expected
    assert back.play_stopped == (0 < len(expected) < 52)
    assert back.diagnostics == ()


def test_format_two_games_read_back_as_two():
    r1, r2 = read("play_columns.pbn")[:2]
    text = format_pbn(r1) + "\n" + format_pbn(r2)
    b1, b2 = read_bytes(text.encode())
    assert played(b1) == played(r1) and played(b2) == played(r2)
    assert [p.marks for p in b2.play] == [p.marks for p in r2.play]


@pytest.mark.parametrize("name", sorted(p.name for p in FIX.glob("*.pbn")))
def test_fixture_records_are_well_formed(name):
    for i, rec in enumerate(read(name), 1):
        assert rec.game == i and rec.format == "pbn" and rec.source == name
        for d in rec.diagnostics:
            assert d.code in CODES


def test_diagnostics_outside_games_go_to_the_next_record_without_a_list():
    data = b"stray words\n\n" + _valid_game()
    (rec,) = read_bytes(data)
    assert codes(rec) == [("PS101", 1)]
    diags: list = []
    (rec,) = read_bytes(data, diags)
    assert rec.diagnostics == () and codes(diags) == [("PS101", 1)]


def test_repeated_board_or_deal_with_same_value_is_not_a_new_game():
    data = ('[Board "1"]\n[Deal "' + DEAL1 + '"]\n[Board "1"]\n[Deal ""]\n[Deal "' + DEAL1
            + '"]\n[Contract "2C"]\n').encode()
    (rec,) = read_bytes(data)
    assert rec.contract_stated == "2C" and deal_str(rec.hands) == DEAL1
    assert codes(rec) == [("PS104", 4)]  # [Deal ""] after a deal: ignored


def test_only_quote_and_backslash_are_escapes():
    data = b'[Note "1:5+\\Cs, \\"Q\\S\\" \\\\ x"]\n[Event "#1 pairs"]\n'
    (rec,) = read_bytes(data)
    assert rec.tags["Note"] == '1:5+\\Cs, "Q\\S" \\ x'  # \C and \S are suit symbols, kept
    assert rec.event == "#1 pairs"  # "#" followed by text is an ordinary value


def test_diagnostics_per_game_are_bounded():
    data = b'[Board "1"]\n' + b'[a "' * 50_000 + b"\n"
    (rec,) = read_bytes(data)
    assert len(rec.diagnostics) == 101 and rec.diagnostics[-1].code == "PS009"
    assert "49900 more problems" in rec.diagnostics[-1].message


def test_trailing_junk_goes_onto_the_last_record_without_a_list():
    data = _valid_game() + b"\n\ntrailing words\n\n{ never closed\n"
    (rec,) = read_bytes(data)
    assert codes(rec) == [("PS101", 8), ("PS004", 10)]
    diags: list = []
    (rec,) = read_bytes(data, diags)
    assert rec.diagnostics == () and codes(diags) == [("PS101", 8), ("PS004", 10)]


def test_bridgecomposer_title_date_becomes_a_tag():
    """BridgeComposer writes the hand record's date as a directive, ``%HRTitleDate``; a game
    without its own Date keeps it as the tag HRTitleDate (used by ``--laws auto``)."""
    import io

    from revoke_audit.formats.pbn import read_pbn
    data = b'%HRTitleDate 2018.03.30\n[Board "1"]\n[Date ""]\n\n[Board "2"]\n'
    recs = list(read_pbn(io.BytesIO(data), "t.pbn"))
    assert [r.tags.get("HRTitleDate") for r in recs] == ["2018.03.30", "2018.03.30"]


@pytest.mark.parametrize("pad", ["{ padding }", "% padding"])
def test_a_board_cut_at_the_game_limit_is_never_clean(tmp_path, pad):
    """5,000 comment lines before ``[Play]`` push the play past the game limit (PS006): the
    revoke in it is never seen, so the board is ``unreadable``, not ``clean`` (as a board the
    file ends inside is, PS004), and it still counts as a hand record read."""
    from click.testing import CliRunner

    from revoke_audit.ruling.audit import audit_records
    from revoke_audit.cli.commands import main
    from revoke_audit.formats import read_boards
    from revoke_audit.ruling.options import AuditOptions

    text = (Path(__file__).resolve().parents[1] / "fixtures" / "cli" / "revoke.pbn").read_text()
    path = tmp_path / "padded.pbn"
    path.write_text(text.replace('[Play "W"]', "\n".join([pad] * MAX_GAME_LINES) + '\n[Play "W"]'))
    (audited,) = audit_records(read_boards([path]), AuditOptions(equity=False))
    assert "PS006" in {f.code for f in audited.findings}
    assert audited.status == "unreadable"
    result = CliRunner().invoke(main, ["audit", str(path), "-q", "-o", str(tmp_path / "b.csv")])
    assert "unreadable" in (tmp_path / "b.csv").read_text() and "no hand record" not in result.output


@pytest.mark.parametrize("result", ["9" * 5000, "NS " + "9" * 5000, "EW 3 NS " + "9" * 5000])
def test_a_result_of_thousands_of_digits_is_a_value_problem_not_a_crash(tmp_path, result):
    """``[Result "<5,000 digits>"]`` (the fuzzer's hostile numbers, past int()'s 4,300-digit
    limit): PS113, the board still read and its revoke still found, whether the game is read
    the usual way or as a plain game built into its record later (the lane's way, where the
    ValueError ended the whole run as an internal error)."""
    from revoke_audit import audit_paths

    text = (Path(__file__).resolve().parents[1] / "fixtures" / "cli" / "revoke.pbn").read_text()
    assert '[Result "10"]' in text
    path = tmp_path / "big.pbn"
    path.write_text(text.replace('[Result "10"]', f'[Result "{result}"]'))
    (record,) = read_pbn(io.BytesIO(path.read_bytes()), str(path))
    assert record.result_stated is None
    assert any(d.code == "PS113" and len(d.message) < 200 for d in record.diagnostics)
    run = audit_paths([str(path)], jobs=1)
    (board,) = run.boards.to_dict("records")
    assert board["status"] == "irregular"
    codes = set(run.findings["code"])
    assert "PS113" in codes and any(c.startswith("RV") for c in codes)
