"""The older codes (``2007``, ``1997``, ``1932``, ``bridge-whist``) against 2017, on the same
plays of the hand-built deals of ``deals.py`` and ``deals_editions.py``.

Each docstring works the expected results out by hand: who won the revoke trick, what the
offending side (OS) won from then on, and what each code moves.  D1 is 4H by South (N-S win
every trick in the clean play); D2 is 3NT by South (E wins tricks 1-3, N-S 4-13)."""
import pytest
from builders import board
from deals import (BOTH_SIDES, D1, D2, DECLARER_RUFFS_10, DECLARER_TWO_SUITS, DUMMY_REVOKES_1,
                   EAST_EXTRA_CARD_4, TWELFTH_REVOKE, WEST_OMITS_2_LIN, WEST_OMITS_2_PBN,
                   WEST_REVOKES_3, WEST_REVOKES_4, WEST_REVOKES_HEARTS_TWICE)
from deals_editions import (EAST_REVOKES_1_WINS_LATER, EW_REVOKE_THREE_TIMES,
                            WEST_OMITS_2_KEEPS_SPADE)

from revoke_audit.ruling.audit import audit_board
from revoke_audit.ruling.options import AuditOptions
from revoke_audit.laws import AFTER_ROUND, EDITIONS
from revoke_audit.scoring.rubber import NOTRUMP, score_bridge_whist

ALL = ("2017", "2007", "1997", "1932", "bridge-whist")


def rule(deal, contract, tricks, laws, **kw):
    discovered = kw.pop("discovered", "table")
    a = audit_board(board(deal, contract, "S", tricks, **kw), AuditOptions(laws, discovered))
    law = [(f.code, f.law, f.trick, "NESW"[f.seat], f.transferred)
           for f in a.findings if f.code[:2] in ("RV", "DT")]
    return a, law


def adjusted(deal, contract, tricks, **kw):
    """Declarer's adjusted tricks under every edition."""
    return {e: rule(deal, contract, tricks, e, **kw)[0].ruling.tricks_adjusted for e in ALL}


def test_registry_and_scoring_kind():
    assert set(EDITIONS) == set(ALL)
    for e in ALL:
        a, _ = rule(D2, "3NT", WEST_REVOKES_3, e)
        assert a.ruling.edition == e
        assert a.ruling.scoring == ("rubber" if e in ("1932", "bridge-whist") else "duplicate")


def test_new_plays_are_legal_apart_from_the_irregularity():
    """No RC finding; exactly the intended revokes and defects."""
    cases = [(EAST_REVOKES_1_WINS_LATER, [(1, "E")], []),
             (EW_REVOKE_THREE_TIMES, [(7, "W"), (8, "E"), (11, "W")], []),
             (WEST_OMITS_2_KEEPS_SPADE, [], [(2, "W", "omitted", False)])]
    for play, revokes, defects in cases:
        a, _ = rule(D2, "3NT", play, "2017")
        assert [f for f in a.findings if f.code.startswith("RC")] == []
        assert a.replay.play_status == "complete"
        assert [(f.trick, "NESW"[f.seat]) for f in a.replay.revokes] == revokes
        assert [(d.trick, "NESW"[d.seat], d.kind, d.holds_suit_led) for d in a.replay.defects] == defects


def test_a1_offender_wins_trick_and_a_later_one():
    """S ruffs trick 10 holding D5 and wins it; N-S win 11-13 (13 played).
    2017/2007/1997 64A1: trick 10 + one more = 2 -> 11.  1932: first revoke of N-S, two tricks
    from those won from trick 10 on (10, 11) -> 11.  Bridge-whist: three tricks -> 10."""
    assert adjusted(D1, "4H", DECLARER_RUFFS_10) == {
        "2017": 11, "2007": 11, "1997": 11, "1932": 11, "bridge-whist": 10}
    for e, n, law in (("2017", 2, "64A1"), ("1932", 2, "1932 penalty"), ("bridge-whist", 3, "1907 penalty")):
        a, found = rule(D1, "4H", DECLARER_RUFFS_10, e)
        assert found == [("RV001", law, 10, "S", n)]
        r = a.ruling
        assert (r.penalty_to_defenders, r.penalty_to_declarer_side) == (n, 0)
        assert (r.declarer_side_revoked, r.defenders_revoked) == (True, False)


def test_partner_wins_the_revoke_trick():
    """W discards on trick 3 holding hearts; partner E wins it; E-W win nothing later (10 played).
    Duplicate codes 64A2: one trick -> 11 (1997: W never wins a later trick, no second one).
    1932: two tricks, but E-W won only trick 3 from the revoke on -> 1 -> 11.  Bridge-whist: three
    tricks from any E-W tricks (1-3 count: no protection of earlier tricks) -> 13."""
    assert adjusted(D2, "3NT", WEST_REVOKES_3) == {
        "2017": 11, "2007": 11, "1997": 11, "1932": 11, "bridge-whist": 13}
    assert rule(D2, "3NT", WEST_REVOKES_3, "1932")[1] == [("RV001", "1932 penalty", 3, "W", 1)]


def test_1997_second_trick_for_a_card_that_could_have_followed():
    """E discards D2 on trick 1 holding HAKQ; S wins trick 1; E later wins trick 2 with HA (10
    played, E-W won 2-4).  2017/2007 64A2: one trick -> 11.  1997 64A2: one trick plus one, as E
    won trick 2 with a heart he held at trick 1, and E-W won another trick (3) -> 12.  1932: two
    tricks from E-W's 2-4 -> 12.  Bridge-whist: three (all E-W have) -> 13."""
    assert adjusted(D2, "3NT", EAST_REVOKES_1_WINS_LATER) == {
        "2017": 11, "2007": 11, "1997": 12, "1932": 12, "bridge-whist": 13}
    a, found = rule(D2, "3NT", EAST_REVOKES_1_WINS_LATER, "1997")
    assert found == [("RV001", "64A2", 1, "E", 2)]
    assert "trick 2 with HA" in a.findings[0].message
    assert a.ruling.penalty_to_declarer_side == 2 and a.ruling.defenders_revoked


def test_both_sides_revoke():
    """W revokes on trick 3 (E wins it, E-W win nothing later); S revokes on trick 5 (dummy wins
    it, N-S win 6-13); 10 played.  2017 and 2007 64B7: no transfer for either -> 10.
    1997 (no 64B7): W's one trick to N-S and S's one trick (A2, dummy won trick 5) to E-W -> 10,
    both flagged for 64C equity.  1932: W's first revoke takes trick 3 only (1); S's takes two of
    N-S's tricks from 5 on -> 10 + 1 - 2 = 9.  Bridge-whist: three each way -> 10."""
    assert adjusted(D2, "3NT", BOTH_SIDES) == {
        "2017": 10, "2007": 10, "1997": 10, "1932": 9, "bridge-whist": 10}
    a, found = rule(D2, "3NT", BOTH_SIDES, "1997")
    assert found == [("RV001", "64A2", 3, "W", 1), ("RV001", "64A2", 5, "S", 1)]
    assert all("64C equity" in f.message for f in a.findings)
    assert (a.ruling.penalty_to_declarer_side, a.ruling.penalty_to_defenders) == (1, 1)
    a, _ = rule(D2, "3NT", BOTH_SIDES, "1932")
    assert (a.ruling.penalty_to_declarer_side, a.ruling.penalty_to_defenders) == (1, 2)
    assert not any("64C" in f.message for f in a.findings)
    a, _ = rule(D2, "3NT", BOTH_SIDES, "bridge-whist")
    assert a.ruling.declarer_side_revoked and a.ruling.defenders_revoked
    assert any("neither can win the game" in n for n in a.ruling.notes)


def test_both_sides_with_one_revoke_never_established():
    """As above, but the record stops after trick 5, so S's revoke was never established.
    2017 64B7 needs both established: W's revoke moves one trick (E won trick 3).  2007 64B7 says
    only "both sides revoked": W's revoke moves nothing.  1997: W's moves one, and as S's revoke
    is not established there is no 64C note.  The result is unknown (play unfinished)."""
    short = BOTH_SIDES[:5]
    assert rule(D2, "3NT", short, "2017")[1] == [("RV001", "64A2", 3, "W", 1), ("RV004", "63A", 5, "S", 0)]
    assert rule(D2, "3NT", short, "2007")[1] == [("RV002", "64B7", 3, "W", 0), ("RV004", "63A", 5, "S", 0)]
    a, found = rule(D2, "3NT", short, "1997")
    assert found[0] == ("RV001", "64A2", 3, "W", 1) and "64C" not in a.findings[0].message
    assert a.ruling.tricks_adjusted is None


def test_omitted_card_while_holding_the_suit():
    """W plays no card to trick 2 (E wins it) and keeps H5 to the end (10 played).  2017/2007
    67B1: deemed revoke, one trick -> 11.  1997 67B1(a): he has a heart to place: no penalty ->
    10.  1932: the card placed follows suit: no revoke -> 10.  Bridge-whist: the surplus card
    counts as played to that trick, no revoke -> 10."""
    assert adjusted(D2, "3NT", WEST_OMITS_2_PBN) == {
        "2017": 11, "2007": 11, "1997": 10, "1932": 10, "bridge-whist": 10}
    a, found = rule(D2, "3NT", WEST_OMITS_2_LIN, "1997", lin=True)
    assert found == [("DT001", "67B1(a)", 2, "W", 0)] and a.ruling.tricks_adjusted == 10
    assert not a.ruling.defenders_revoked


def test_omitted_card_without_the_suit():
    """W plays no card to trick 2 and ends holding only S5 (no heart to place); E won trick 2,
    E-W won 1-3 (10 played).  2017/2007/1997 (67B1(b)): deemed revoke, one trick -> 11.  1932:
    he held hearts at trick 2 and the card placed is a spade: a revoke, two tricks from E-W's
    2-3 -> 12.  Bridge-whist: the surplus card is no revoke -> 10."""
    assert adjusted(D2, "3NT", WEST_OMITS_2_KEEPS_SPADE) == {
        "2017": 11, "2007": 11, "1997": 11, "1932": 12, "bridge-whist": 10}
    assert rule(D2, "3NT", WEST_OMITS_2_KEEPS_SPADE, "1997")[1] == [("DT001", "67B1(b)", 2, "W", 1)]
    assert rule(D2, "3NT", WEST_OMITS_2_KEEPS_SPADE, "1932")[1] == [("DT001", "1932 penalty", 2, "W", 2)]


def test_extra_card_has_no_penalty_of_itself():
    """E faces S9 with his lead to trick 4; it goes back to his hand; 10 tricks in every code."""
    for e in ALL:
        a, found = rule(D2, "3NT", EAST_EXTRA_CARD_4, e, lin=True)
        assert [(c, n) for c, _, _, _, n in found] == [("DT002", 0)] and a.ruling.tricks_adjusted == 10


def test_1932_two_revokes_by_one_side():
    """S revokes on trick 8 (N wins) and 10 (S wins); N-S won 12 (all but 13).  1932: first
    revoke two tricks (8, 9), the later one one more (10) -> 9.  2017 gets 9 too, as 1 (A2) + 2
    (A1).  Bridge-whist: 3 + 3 -> 6."""
    assert adjusted(D1, "4H", DECLARER_TWO_SUITS) == {
        "2017": 9, "2007": 9, "1997": 9, "1932": 9, "bridge-whist": 6}
    assert rule(D1, "4H", DECLARER_TWO_SUITS, "1932")[1] == [
        ("RV001", "1932 penalty", 8, "S", 2), ("RV001", "1932 penalty", 10, "S", 1)]


def test_1932_later_revoke_finds_nothing_left():
    """W revokes in hearts on tricks 2 and 3; E-W won 1-3 (10 played).  2017: one trick, the
    repeat is 64B2 -> 11.  1932: two tricks (2, 3) for the first; the second finds no E-W trick
    left from trick 2 on -> 12.  Bridge-whist: 3 + 3 = 6, capped at E-W's 3 tricks -> 13."""
    assert adjusted(D2, "3NT", WEST_REVOKES_HEARTS_TWICE) == {
        "2017": 11, "2007": 11, "1997": 11, "1932": 12, "bridge-whist": 13}
    assert rule(D2, "3NT", WEST_REVOKES_HEARTS_TWICE, "1932")[1] == [
        ("RV001", "1932 penalty", 2, "W", 2), ("RV002", "1932 penalty", 3, "W", 0)]


def test_1932_no_penalty_when_nothing_won_from_the_revoke_on():
    """W revokes on trick 4; E-W won only 1-3, before it.  1932: those are protected -> 10.
    Bridge-whist takes three tricks from any E-W tricks -> 13."""
    assert adjusted(D2, "3NT", WEST_REVOKES_4) == {
        "2017": 10, "2007": 10, "1997": 10, "1932": 10, "bridge-whist": 13}


def test_bridge_whist_three_revokes_capped():
    """E-W revoke three times (W trick 7, E trick 8, W trick 11); E-W won 5 tricks (1-3, 9, 10),
    declarer 8.  Bridge-whist: 3 x 3 = 9, but E-W hold only 5: 3 + 2 + 0 -> 13.  2017: W's and
    E's revokes move one each (A2: E-W won 9 and 10), W's second in diamonds is 64B2 -> 10.
    1932: the first E-W revoke takes two (9, 10), the later ones find nothing -> 10.
    The scorer gets the penalty tricks: 8 in play + 5, yet no slam (penalty tricks never count
    toward a slam), and declarer's side scores its 7 odd tricks at no trump."""
    assert adjusted(D2, "3NT", EW_REVOKE_THREE_TIMES) == {
        "2017": 10, "2007": 10, "1997": 10, "1932": 10, "bridge-whist": 13}
    a, found = rule(D2, "3NT", EW_REVOKE_THREE_TIMES, "bridge-whist")
    assert [n for *_, n in found] == [3, 2, 0]
    r = a.ruling
    assert (r.penalty_to_declarer_side, r.penalty_to_defenders) == (5, 0)
    assert (r.declarer_side_revoked, r.defenders_revoked) == (False, True)
    s = score_bridge_whist(NOTRUMP, "", a.replay.tricks_played,
                           penalty_tricks_to_declarer=r.penalty_to_declarer_side,
                           penalty_tricks_to_defenders=r.penalty_to_defenders,
                           declarer_side_revoked=r.declarer_side_revoked,
                           defenders_revoked=r.defenders_revoked)
    assert (s.below_declarer, s.above_declarer, s.game) == (7 * 12, 0, True)
    assert any("slam" in n for n in s.notes)


@pytest.mark.parametrize("edition", ["1932", "bridge-whist"])
def test_dummy_cannot_revoke(edition):
    """Dummy discards C3 on trick 1 holding hearts: no revoke at all in the old codes -> 10."""
    a, found = rule(D2, "3NT", DUMMY_REVOKES_1, edition)
    assert [(c, t, n) for c, _, t, _, n in found] == [("RV002", 1, 0)]
    assert "dummy cannot revoke" in a.findings[0].message
    assert a.ruling.tricks_adjusted == 10 and not a.ruling.declarer_side_revoked


def test_1932_twelfth_trick_revoke_is_replayed():
    """W revokes on trick 12 (10 played).  1932: never established, no penalty; replayed with
    W's H8, N (after him) may change to S5 and keep CK for trick 13: N-S win both -> 11, as
    2017's 62D.  Bridge-whist has no such rule: an established revoke, three tricks from E-W's
    three -> 13."""
    assert adjusted(D1, "4H", TWELFTH_REVOKE) == {
        "2017": 11, "2007": 11, "1997": 11, "1932": 11, "bridge-whist": 13}
    a, found = rule(D1, "4H", TWELFTH_REVOKE, "1932")
    assert found == [("RV003", "1932 12th trick", 12, "W", 0)]
    assert a.findings[0].established is False and not a.ruling.defenders_revoked


def test_old_codes_claim_too_late_after_the_round():
    """A revoke found after the round was claimed after the next cut: no penalty in 1932 or
    bridge-whist (2017 gives 64B5)."""
    for e in ("1932", "bridge-whist"):
        a, found = rule(D2, "3NT", WEST_REVOKES_3, e, discovered=AFTER_ROUND)
        assert [(c, n) for c, _, _, _, n in found] == [("RV002", 0)] and a.ruling.tricks_adjusted == 10


def test_bridge_whist_trick_turned_and_quitted():
    """W revokes on trick 4 (N wins); the record stops after N's lead to trick 5.  2017: the
    offending side has not played on: not established.  Bridge-whist: the trick was turned and
    quitted (the next one has begun): established, three tricks from E-W's 1-3."""
    short = WEST_REVOKES_4[:4] + ["N:DA"]
    assert rule(D2, "3NT", short, "2017")[1] == [("RV004", "63A", 4, "W", 0)]
    a, found = rule(D2, "3NT", short, "bridge-whist")
    assert found == [("RV001", "1907 penalty", 4, "W", 3)]
    assert a.ruling.penalty_to_declarer_side == 3 and a.ruling.tricks_adjusted is None


# --- the extension point ----------------------------------------------------------------------

@pytest.mark.parametrize("name", ALL)
def test_an_edition_keeps_nothing_about_a_board(name):
    """Ruling the same edition object twice over boards with revokes by both sides (the 1932
    Code's "first revoke of the side" once lived on the edition) leaves it as it was, and the
    second board is ruled as if it came first."""
    from revoke_audit.laws import get_edition
    from revoke_audit.replay import replay

    edition = get_edition(name)
    state = dict(vars(edition))
    boards = [board(D2, "3NT", "S", plays) for plays in (EW_REVOKE_THREE_TIMES, WEST_REVOKES_3)]
    alone = get_edition(name).rule(replay(boards[1])).tricks_adjusted
    edition.rule(replay(boards[0]))
    assert edition.rule(replay(boards[1])).tricks_adjusted == alone
    assert vars(edition) == state


def test_exemptions_are_data_each_a_clause_of_the_edition():
    from revoke_audit.laws import Laws1932, Laws1997, Laws2017

    # 64B5 last: a revoke that no transfer was ever due for (dummy's, a repeat, both sides)
    # keeps that clause as its basis, found after the round or not
    assert Laws2017.EXEMPTIONS == ("b3_penalty_card", "b3_dummy", "b6_duty", "b7_both_sides",
                                   "b2_repeated", "b5_after_round")
    assert "b7_both_sides" not in Laws1997.EXEMPTIONS and Laws1932.EXEMPTIONS == ()
    for cls in EDITIONS.values():
        assert all(callable(getattr(cls, e)) for e in cls.EXEMPTIONS)
        assert cls.title and cls.name in EDITIONS
