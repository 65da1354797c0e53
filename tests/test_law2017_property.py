"""A property test of the 2017 rules for one revoke, against a plain restatement of Law 64A/B.

Random deal, random legal play with exactly one forced failure to follow suit (on tricks 1-11),
all 13 tricks.  Expected transfer, stated independently of the engine:
  dummy revoked -> 0 (64B3);
  the offender won the revoke trick -> 1, plus 1 if his side won any later trick (64A1);
  else his side won that trick or a later one -> 1 (64A2); else 0 (64B1)."""
from hypothesis import given, settings
from hypothesis import strategies as st

from builders import revoking_board

from revoke_audit.ruling.audit import audit_board
from revoke_audit.core.cards import SEATS, card_str, deal_str
from revoke_audit.ruling.options import AuditOptions

AT_TABLE = AuditOptions(discovered="table")  # these plays are ruled as found at the table (64A)


def random_board(seed: int, revoke_trick: int, revoke_pos: int, strain: int, declarer: int):
    """One forced failure to follow (at ``revoke_trick``, position ``revoke_pos``), or none
    when that player holds only the suit led; its (trick, seat) or None."""
    record, forced = revoking_board(seed, {(revoke_trick, revoke_pos)}, strain, declarer)
    return record, (forced[0] if forced else None)


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 10**9), t=st.integers(1, 11), pos=st.integers(1, 3),
       strain=st.integers(0, 4), declarer=st.integers(0, 3))
def test_one_revoke_transfers_what_law_64_says(seed, t, pos, strain, declarer):
    record, forced = random_board(seed, t, pos, strain, declarer)
    a = audit_board(record, AT_TABLE)
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
