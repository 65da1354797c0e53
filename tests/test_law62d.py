"""Law 62D, the twelfth trick: "the cards play themselves".

After a revoke on trick 12 the offender plays a card of the suit led, and every player after
him on that trick plays again - the non-offenders (62C1) and the offender's partner too (62C2,
62D2) - each choosing in turn the card best for his own side; trick 13 plays itself.

The deal is built so that tricks 1-11 are a plain cross-ruff (hearts trumps, 4H by South, West
leads): N-S win all eleven, North wins trick 11 and leads trick 12 with S2.  It ends as the
Welsh Bridge Union's example (rule of the month, January 2019):

    before trick 12:  N S3 S2   E S5 HJ   S SQ H8   W C6 H9
"""
import pytest
from builders import board
from hypothesis import given, settings
from hypothesis import strategies as st
from test_law2017_property import random_board

from revoke_audit.ruling.audit import audit_board
from revoke_audit.ruling.options import AuditOptions

AT_TABLE = AuditOptions(discovered="table")  # these plays are ruled as found at the table (64A)

# N: S 32, H AKQT7, C AKQJT9   E: S AKJT987654, H J, D 32   S: S Q, H 865432, D AKQJT9
# W: H 9, D 87654, C 8765432
WBU = "N:32.AKQT7..AKQJT9 AKJT987654.J.32. Q.865432.AKQJT9. .9.87654.8765432"
# The same with West's C6 and one of East's spades (S4) swapped: West can revoke in spades.
WBU_W = "N:32.AKQT7..AKQJT9 AKJT98765.J.32.6 Q.865432.AKQJT9. 4.9.87654.875432"

# Eleven tricks of cross-ruff, N-S win all; North wins trick 11 (winners N S N S ... N).
CROSS_RUFF = ["W:C2 N:CA E:S4 S:D9", "N:CK E:S6 S:H2 W:C3", "S:DA W:D4 N:H7 E:D2",
              "N:CQ E:S7 S:H3 W:C4", "S:DK W:D5 N:HT E:D3", "N:CJ E:S8 S:H4 W:C5",
              "S:DQ W:D6 N:HQ E:S9", "N:CT E:ST S:H5 W:C7", "S:DJ W:D7 N:HK E:SJ",
              "N:C9 E:SK S:H6 W:C8", "S:DT W:D8 N:HA E:SA"]
CROSS_RUFF_W = ["W:C2 N:CA E:C6 S:D9"] + CROSS_RUFF[1:]


def rule(deal, tricks):
    a = audit_board(board(deal, "4H", "S", tricks), AuditOptions("2017", "table"))
    return a, [(f.code, f.law, f.trick, "NESW"[f.seat]) for f in a.findings if f.code[:2] == "RV"]


def test_wbu_example_partner_plays_again_and_declarer_loses_both():
    """East (second to play) ruffs S2 with HJ holding S5; South SQ, West C6; East wins; trick
    13: East S5, South H8, West H9 wins.  Declarer 11 + 0.
    Corrected: East S5, South must play SQ, and West - the offender's partner, after him - may
    now ruff with H9 (best for E-W: it wins trick 12, and his C6 lead to trick 13 is ruffed by
    East's HJ over South's H8).  E-W win both: declarer 11, as at the table.  Had West kept C6,
    SQ would win trick 12 (declarer 12): his new card decided it, so Law 16C is named."""
    a, rv = rule(WBU, CROSS_RUFF + ["N:S2 E:HJ S:SQ W:C6", "E:S5 S:H8 W:H9 N:S3"])
    assert rv == [("RV003", "62D", 12, "E")]
    assert (a.replay.tricks_played, a.ruling.tricks_adjusted) == (11, 11)
    assert a.findings[0].message.endswith(
        "a trick-12 revoke is corrected, no trick transferred (62D, 64B6); played again, trick "
        "12 to West and trick 13 to East; 16C: check that West's ruff with H9 was not suggested "
        "by the withdrawn card")


def test_offender_third_to_play_only_the_fourth_player_plays_again():
    """South (declarer, third to play) ruffs S2 with H8 holding SQ; West discards C6; South
    wins trick 12, and trick 13 (South SQ, West ruffs H9, North S3, East overruffs HJ) goes to
    E-W: declarer 12.  Corrected: North's S2 and East's S5 were played before him and stand;
    South plays SQ; West, a non-offender after him, plays again and ruffs with H9 (best for
    E-W), then leads C6 and East's HJ beats South's H8: declarer 11.  North is South's
    partner but played before him, so no 16C note."""
    a, rv = rule(WBU, CROSS_RUFF + ["N:S2 E:S5 S:H8 W:C6", "S:SQ W:H9 N:S3 E:HJ"])
    assert rv == [("RV003", "62D", 12, "S")]
    assert (a.replay.tricks_played, a.ruling.tricks_adjusted) == (12, 11)
    assert "16C" not in a.findings[0].message


def test_offender_fourth_to_play_only_his_own_card_changes():
    """West (last to play) ruffs with H9 holding S4 and wins trick 12; trick 13: West S4,
    North S3, East ruffs HJ, South H8: E-W win both, declarer 11.  Corrected: nobody plays
    after West; he plays S4, South's SQ wins trick 12, then South's H8 lead loses to East's
    HJ: declarer 12."""
    a, rv = rule(WBU_W, CROSS_RUFF_W + ["N:S2 E:S5 S:SQ W:H9", "W:S4 N:S3 E:HJ S:H8"])
    assert rv == [("RV003", "62D", 12, "W")]
    assert (a.replay.tricks_played, a.ruling.tricks_adjusted) == (11, 12)


def test_two_revokes_on_trick_12_are_explained_not_corrected():
    """East ruffs HJ holding S5 and West, after him, ruffs H9 holding S4: two players failing
    to follow the same lead is far likelier a mis-recorded lead (S2) than two revokes, so the
    board is a record error (RC015, see coherence.py): neither is corrected or ruled, and the
    finding says exactly why - the cards that would have been revokes, and the reason."""
    a, rv = rule(WBU_W, CROSS_RUFF_W + ["N:S2 E:HJ S:SQ W:H9", "E:S5 S:H8 W:S4 N:S3"])
    assert rv == [] and [f.code for f in a.findings] == ["RC015"]
    assert a.findings[0].message == (
        "trick 12: East and West both fail to follow the S2 lead while holding the suit (East "
        "played HJ holding S5; West played H9 holding S4): the lead is probably mis-recorded, "
        "so none of these is ruled a revoke")
    assert a.ruling.tricks_adjusted == a.replay.tricks_played == 12


# --- the enumeration against a plain game tree, for each seat order ------------------------

def _after_12(hands, order, cards, trump):
    """Tricks 12 and 13 from trick 12's cards (time order): the winning seat of each."""
    from revoke_audit.core.cards import winning_index
    w12 = order[winning_index(list(cards), trump)]
    last = {s: (hands[s] & ~(1 << c)).bit_length() - 1 for s, c in zip(order, cards)}
    order13 = [(w12 + k) % 4 for k in range(4)]
    return [w12, order13[winning_index([last[s] for s in order13], trump)]]


def _game_tree(hands, order, table, pos, trump):
    """Law 62D stated on its own: the players before the offender keep their cards, the
    offender plays his card of the suit led, each later player - partner included - in turn
    plays the legal card that wins his side most of tricks 12-13, knowing the others will do
    the same.  Returns the winners of tricks 12 and 13."""
    from revoke_audit.core.cards import SUIT_MASKS, cards_in

    def play(i, cards):
        if i == 4:
            return _after_12(hands, order, cards, trump)
        seat = order[i]
        if i < pos:
            options = [table[i]]
        else:
            led = cards[0] // 13
            options = list(cards_in(hands[seat] & SUIT_MASKS[led] or hands[seat]))
        outcomes = [play(i + 1, cards + [c]) for c in options]
        return max(outcomes, key=lambda w: sum(1 for x in w if x % 2 == seat % 2))

    return play(0, [])


@settings(max_examples=120, deadline=None)
@given(seed=st.integers(0, 10**9), strain=st.integers(0, 4), declarer=st.integers(0, 3))
@pytest.mark.parametrize("pos", [1, 2, 3], ids=["offender-2nd", "offender-3rd", "offender-4th"])
def test_62d_correction_matches_the_game_tree(pos, seed, strain, declarer):
    """Random deals played legally but for one failure to follow on trick 12 by the player in
    position ``pos`` (2nd: the leader's left-hand opponent, his partner plays 4th; 3rd: his
    partner led; 4th: his partner played 2nd).  The adjusted result is tricks 1-11 as played
    plus tricks 12-13 as the game tree gives them."""
    for seed in range(seed, seed + 500):  # the first deal on which the failure can be forced
        record, forced = random_board(seed, 12, pos, strain, declarer)
        if forced is not None:
            break
    assert forced is not None
    a = audit_board(record, AT_TABLE)
    assert [(f.code, f.trick, f.seat) for f in a.findings] == [("RV003", 12, forced[1])]
    rp = a.replay
    t12 = rp.tricks[11]
    order = [(t12.leader + k) % 4 for k in range(4)]
    table = [t12.card_of(s) for s in order]
    trump = None if strain == 4 else strain
    won = _game_tree(rp.hands_at[11], order, table, pos, trump)
    first_11 = sum(1 for t in rp.tricks[:11] if t.winner % 2 == declarer % 2)
    assert a.ruling.tricks_adjusted == first_11 + sum(1 for w in won if w % 2 == declarer % 2)


def test_trick_12_revoke_then_a_claim_mid_trick_is_still_corrected():
    """The WBU example, but the record stops after East's HJ with a claim (declarer claims
    12): South and West, who would play again anyway, did not play.  The correction needs only
    the hands and North's S2 lead: East S5, South SQ, West ruffs H9, then East's HJ wins trick
    13 over South's H8: E-W win both, declarer 11 (the claim's 12 is replaced)."""
    _, rv = rule(WBU, CROSS_RUFF + ["N:S2 E:HJ"])
    assert rv == [("RV004", "63A", 12, "E")]  # without the claim it was never established
    a = audit_board(board(WBU, "4H", "S", CROSS_RUFF + ["N:S2 E:HJ"], result=12, stopped=True),
                    AuditOptions("2017", "table"))
    (f,) = [f for f in a.findings if f.code == "RV003"]
    assert f.message.endswith("trick 12 to West and trick 13 to East; 16C: check that West's "
                              "ruff with "
                              "H9 was not suggested by the withdrawn card")
    assert (a.replay.tricks_played, a.ruling.tricks_adjusted) == (12, 11)


def test_trick_12_correction_says_which_standing_card_is_missing():
    """Under the 1932 Code the offender's partner keeps his card; here West's card to trick 12
    is not recorded (record stops after South's SQ, with a claim), so the replayed trick cannot
    be worked out - and the finding names West's card, not "the position"."""
    a = audit_board(board(WBU, "4H", "S", CROSS_RUFF + ["N:S2 E:HJ S:SQ"], result=12,
                          stopped=True), AuditOptions("1932", "table"))
    (f,) = [f for f in a.findings if f.code == "RV003"]
    assert f.message.endswith("the replayed trick cannot be worked out: West's card to trick 12, "
                              "which stands, is not recorded")


def test_two_opponents_failing_on_trick_12_are_explained_not_corrected():
    """East (HJ, holding S5) and South (H8, holding SQ) both fail to follow North's S2: as for
    partners, a mis-recorded lead is likelier than two revokes (RC015), and the message says
    which cards and why none is ruled."""
    a, rv = rule(WBU, CROSS_RUFF + ["N:S2 E:HJ S:H8 W:C6", "E:S5 S:SQ W:H9 N:S3"])
    assert rv == [] and [f.code for f in a.findings] == ["RC015"]
    assert a.findings[0].message.startswith(
        "trick 12: East and South both fail to follow the S2 lead while holding the suit")


def test_explain_shows_the_62d_correction_as_tricks_to_a_side():
    """South's trick-12 revoke (declarer, third to play): played 12, corrected 11 - explain
    says "1 trick to E-W", never "-1"."""
    from revoke_audit.reports.explain import explain_text
    a, _ = rule(WBU, CROSS_RUFF + ["N:S2 E:S5 S:H8 W:C6", "S:SQ W:H9 N:S3 E:HJ"])
    text = explain_text(a)
    assert "  1 trick to E-W: the play as corrected (see the findings)\n" in text
    assert not any(line.lstrip().startswith("-") for line in text.split("Ruling")[1].splitlines())
