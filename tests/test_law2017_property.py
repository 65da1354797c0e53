"""A property test of the 2017 rules for one revoke, against a plain restatement of Law 64A/B.

Random deal, random legal play with exactly one forced failure to follow suit (on tricks 1-11),
all 13 tricks.  Expected transfer, stated independently of the engine:
  dummy revoked -> 0 (64B3);
  the offender won the revoke trick -> 1, plus 1 if his side won any later trick (64A1);
  else his side won that trick or a later one -> 1 (64A2); else 0 (64B1)."""
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from revoke_audit.audit import audit_board
from revoke_audit.cards import SEATS, SUIT_MASKS, card_str, cards_in, deal_str, trick_winner
from revoke_audit.record import BoardRecord, Play


def random_board(seed: int, revoke_trick: int, revoke_pos: int, strain: int, declarer: int):
    rnd = random.Random(seed)
    deck = list(range(52))
    rnd.shuffle(deck)
    hands = [sum(1 << c for c in deck[i * 13:(i + 1) * 13]) for i in range(4)]
    left, leader, plays, forced = list(hands), (declarer + 1) % 4, [], None
    trump = None if strain == 4 else strain
    for t in range(1, 14):
        cards = []
        for i in range(4):
            seat = (leader + i) % 4
            legal = left[seat]
            if cards and legal & SUIT_MASKS[cards[0] // 13]:
                other = legal & ~SUIT_MASKS[cards[0] // 13]
                if t == revoke_trick and i == revoke_pos and other and forced is None:
                    legal, forced = other, (t, seat)
                else:
                    legal &= SUIT_MASKS[cards[0] // 13]
            card = rnd.choice(list(cards_in(legal)))
            left[seat] &= ~(1 << card)
            cards.append(card)
            plays.append(Play(seat, card, (), t, t))
        leader = trick_winner(leader, cards, trump)
    contract = f"1{['S', 'H', 'D', 'C', 'NT'][strain]}"
    record = BoardRecord(source="p", line=1, game=1, format="pbn", hands=tuple(hands),
                         contract_stated=contract, declarer_stated=declarer, vul="None",
                         play_leader=(declarer + 1) % 4, play=tuple(plays))
    return record, forced


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 10**9), t=st.integers(1, 11), pos=st.integers(1, 3),
       strain=st.integers(0, 4), declarer=st.integers(0, 3))
def test_one_revoke_transfers_what_law_64_says(seed, t, pos, strain, declarer):
    record, forced = random_board(seed, t, pos, strain, declarer)
    a = audit_board(record)
    revokes = [f for f in a.findings if f.code.startswith("RV")]
    if forced is None:  # the player had no other suit: no revoke was possible
        assert revokes == [] and a.ruling.tricks_adjusted == a.replay.tricks_played
        return
    (finding,) = revokes
    trick_no, seat = forced
    assert (finding.trick, finding.seat) == forced
    winners = [tr.winner for tr in a.replay.tricks]
    side = seat % 2
    later = any(w % 2 == side for w in winners[trick_no:])
    if seat == (declarer + 2) % 4:
        expected = 0
    elif winners[trick_no - 1] == seat:
        expected = 1 + later
    elif winners[trick_no - 1] % 2 == side or later:
        expected = 1
    else:
        expected = 0
    assert finding.transferred == expected, (card_str(finding.card), SEATS[seat], winners)
    sign = -1 if side == declarer % 2 else 1
    assert a.ruling.tricks_adjusted == a.replay.tricks_played + sign * expected
    assert deal_str(record.hands)  # the deal is well formed
