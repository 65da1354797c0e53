"""Cards, hands, deals, tricks and auctions: the small-int representation and its parsers."""
import pytest

from revoke_audit.core.auction import derive_contract, normalise_call, normalise_contract
from revoke_audit.core.cards import (SUIT_MASKS, card_str, count, deal_problems, deal_str, hand_str,
                                parse_card, parse_deal, parse_hand, trick_winner)


@pytest.mark.parametrize("token, text", [
    ("SA", "SA"), ("sa", "SA"), ("S10", "ST"), ("cK", "CK"), ("h2", "H2"), ("AS", "SA"),
    ("10h", "HT"), ("DT", "DT"), ("Dt", "DT")])
def test_card_spellings(token, text):
    assert card_str(parse_card(token)) == text


@pytest.mark.parametrize("token", ["", "S", "S1", "X9", "S11", "10", "SAK"])
def test_bad_card_tokens(token):
    assert parse_card(token) is None


def test_hands_as_masks():
    mask, problems = parse_hand("AKQ.JT9.876.5432")
    assert count(mask) == 13 and problems == []
    assert hand_str(mask) == "AKQ.JT9.876.5432"
    assert parse_hand("a10 9..kq1032.")[0] == parse_hand("AT9..KQT32.")[0]
    assert parse_hand("AKQ.JT9.876.5432..")[0] == mask  # extra dots
    assert parse_hand("AKQ.JT9") is None
    assert parse_hand("AAK...")[1] == ["SA twice in one hand"]
    assert mask & SUIT_MASKS[0] == (1 << parse_card("SA")) | (1 << parse_card("SK")) | (1 << parse_card("SQ"))


def test_deals_any_first_seat_and_unknown_hands():
    hands, problems = parse_deal("W:- AKQJ.T98.765.432 - -")
    assert hands[0] == parse_hand("AKQJ.T98.765.432")[0] and hands[3] is None
    assert problems == []
    full = "N:AK2.432.AKQJ.543 QJT9.AKQ.432.876 876.JT9.T98.AKQJ 543.8765.765.T92"
    hands, problems = parse_deal(full)
    assert problems == [] and deal_str(hands) == full
    assert parse_deal("E:" + full[2:])[0] == hands[-1:] + hands[:-1]  # first hand is East's


def test_deal_with_53_cards_and_duplicates():
    hands, problems = parse_deal("N:AK2.432.AKQJ.5432 QJT9.AKQ.432.876 876.JT9.T98.AKQJ 543.8765.765.T92")
    assert problems == ["N has 14 cards", "C2 in two hands"]
    assert deal_problems((1, 2, None, None)) == ["N has 1 cards", "E has 1 cards"]


def test_trick_winner_follows_law_44():
    c = [parse_card(t) for t in ("HQ", "HA", "S2", "H3")]
    assert trick_winner(3, c, None) == 0  # no trump: the HA (second seat, North) wins
    assert trick_winner(3, c, 0) == 1  # spades trump: East's S2 ruffs
    assert trick_winner(3, c, 3) == 0  # clubs trump, no club played


def test_calls_and_contracts():
    assert [normalise_call(t) for t in ("Pass", "p", "X", "d", "r", "XX", "1n", "7NT", "2C!", "x9")] == \
        ["P", "P", "X", "X", "XX", "XX", "1NT", "7NT", "2C", None]
    assert [normalise_contract(t) for t in ("4S", "3NTX", "6hxx", "Pass", "4SD", "8S")] == \
        ["4S", "3NTX", "6HXX", "Pass", "4SX", None]


def test_declarer_is_first_of_the_side_to_name_the_strain():
    # dealer W: W 1C, N P, E 1S, S 2H, W P, N 4H, E X, S P, W P, N XX: South first bid hearts
    calls = ["1C", "P", "1S", "2H", "P", "4H", "X", "P", "P", "XX", "P", "P", "P"]
    assert derive_contract(calls, 3) == ("4HXX", 2)
    assert derive_contract(["P"] * 4, 0) == ("Pass", None)
    assert derive_contract(["1NT", "AP"], 1) == ("1NT", 1)
    assert derive_contract(["P", "P", "AP"], 1) == ("Pass", None)
    assert derive_contract(["1NT", "P", "P"], 1) == (None, None)  # unfinished
    assert derive_contract(["1NT", "P", "P", "P"], None) == (None, None)  # dealer unknown

