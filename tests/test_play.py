"""One card on the table, one trick won (``replay.play``), card by card on deal D2 of
``deals.py``: 3NT by South, no trumps.

    N AK2.432.AKQJ.543   E QJT9.AKQ.432.876   S 876.JT9.T98.AKQJ   W 543.8765.765.T92
"""
from builders import board
from deals import BASE2, D2

from revoke_audit.core.cards import HEARTS, NOTRUMP, SUIT_MASKS, parse_card
from revoke_audit.core.record import Play
from revoke_audit.replay.model import Replay, Trick
from revoke_audit.replay.play import close_trick, play_card

N, E, S, W = range(4)


def table():
    """A replay of D2 ready for its first trick: hands as dealt, South declarer, no trumps."""
    r = Replay(board(D2, "3NT", "S", BASE2))
    r.declarer, r.strain = S, NOTRUMP
    return r, list(r.record.hands), Trick(1, W)


def card(text, seat, marks=()):
    return Play(seat, parse_card(text), tuple(marks), 11, 1)


def test_the_highest_card_of_the_suit_led_wins_at_no_trumps():
    """Trick 1 of BASE2: W H8, N H2, E HA, S H9 - every player follows; East's HA wins (Law 44).
    Each card leaves its holder's hand."""
    r, hands, trick = table()
    for text, seat in (("H8", W), ("H2", N), ("HA", E), ("H9", S)):
        assert play_card(r, hands, trick, seat, card(text, seat))
    close_trick(r, trick)
    assert trick.winner == E and not r.revokes and not r.findings
    assert not hands[E] >> parse_card("HA") & 1


def test_a_card_of_another_suit_while_holding_the_suit_led_is_a_revoke_fact():
    """East leads HA; West, holding H8765, plays D5: a failure to follow suit (Law 61A / 44C).
    The fact names the hearts West still held; the caller records it (``play_card`` only
    judges: ``unrecorded`` first asks whether West surely held them)."""
    r, hands, trick = table()
    trick.leader = E
    assert play_card(r, hands, trick, E, card("HA", E)) is True
    assert play_card(r, hands, trick, S, card("H9", S)) is True
    fact = play_card(r, hands, trick, W, card("D5", W))
    assert not r.revokes and trick.plays[-1][:2] == (W, parse_card("D5"))
    assert (fact.trick, fact.seat, fact.card, fact.suit_led) == (1, W, parse_card("D5"), HEARTS)
    assert fact.held == r.record.hands[W] & SUIT_MASKS[HEARTS]


def test_a_revoke_mark_on_a_card_that_follows_is_answered_and_is_no_revoke():
    """W leads H8, North follows with H2 marked ^R: he followed suit, so no revoke; RC030 says
    why the mark is unsupported.  East's D2 marked ^R, not judged (as when the lead is not
    recorded): no fact, no RC030."""
    r, hands, trick = table()
    assert play_card(r, hands, trick, W, card("H8", W))
    assert play_card(r, hands, trick, N, card("H2", N, "R"))
    assert not r.revokes
    assert [f.code for f in r.findings] == ["RC030"]
    assert "it follows suit" in r.findings[0].message
    assert play_card(r, hands, trick, E, card("D2", E, "R"), judge=False)
    assert not r.revokes and len(r.findings) == 1


def test_a_card_its_player_does_not_hold_stops_the_replay():
    """West plays SA, which is North's: RC010, the replay stops at trick 1 and West's hand is
    untouched."""
    r, hands, trick = table()
    before = hands[W]
    assert play_card(r, hands, trick, W, card("SA", W)) is False
    assert [f.code for f in r.findings] == ["RC010"] and r.stopped_at == 1
    assert hands[W] == before and not trick.plays
