"""Law 64C's figures (on by default, ``--no-equity`` skips them), on positions worked out by
hand: the par (``tricks_equity``), what the revoke itself cost, and the review flag."""
from functools import lru_cache

from builders import board, revoking_board
from deals import (BASE2, BOTH_SIDES_D3, D2, D3, EAST_KEEPS_TRUMP_10, WEST_REVOKES_3,
                   WEST_REVOKES_9, WEST_REVOKES_HEARTS_TWICE)
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from revoke_audit.ruling.audit import audit_board
from revoke_audit.ruling.options import AuditOptions
from revoke_audit.reports.rows import board_row
from revoke_audit.core.cards import SUIT_MASKS, cards_in, winning_index


def equity_findings(tricks):
    a = audit_board(board(D2, "3NT", "S", tricks), AT_TABLE)
    return a, [(f.code, f.trick, f.equity_tricks) for f in a.findings]


AT_TABLE = AuditOptions(discovered="table")


def test_no_review_when_the_transfer_covers_the_damage():
    """W revokes on trick 3.  Had he followed (H6/H7), E still wins trick 3 and N-S take the
    other ten (W's last heart has no entry): 10 tricks.  The automatic result is 11: no 64C."""
    a, got = equity_findings(WEST_REVOKES_3)
    assert got == [("RV001", 3, 10)]
    assert a.ruling.tricks_adjusted == 11


def test_a_par_above_the_result_is_no_damage_when_the_revoke_cost_nothing():
    """W revokes on trick 9 (see deals.WEST_REVOKES_9): 8 played, 9 after 64A2.  The par had
    he followed is 10 (N-S take all of the last five), but North wins trick 9 either way, and
    from that position double dummy gives N-S as much after West's C9 as after S4: the revoke
    cost them nothing; they lost tricks 12-13 by their own play, which 64C does not redress.
    (The par alone asked for a review here.)  No EQ001."""
    a, got = equity_findings(WEST_REVOKES_9)
    assert got == [("RV001", 9, 10)]
    assert (a.replay.tricks_played, a.ruling.tricks_adjusted, a.tricks_equity,
            a.review_64c) == (8, 9, 10, False)


def test_no_equity_when_skipped_or_without_a_revoke():
    a = audit_board(board(D2, "3NT", "S", WEST_REVOKES_9), AuditOptions(equity=False))
    assert [f.equity_tricks for f in a.findings] == [None]
    assert audit_board(board(D2, "3NT", "S", BASE2)).findings == []


def test_the_two_measures_of_a_revoke_s_own_cost():
    """Each revoke deal of deals.py, both measures worked out by hand (non-offending side's
    tricks lost; the follow card is the offender's best):
    - WEST_REVOKES_3: E wins trick 3 either way, and W's D5 (or H6) decides nothing later: 0, 0.
    - DECLARER_RUFFS_10: following with D5 under North's DK, N-S still win trick 10, and
      every trick either way: 0, 0.
    - WEST_RUFFS_2: following with S6, S's SA wins trick 2 (W's ruff took it): exchanging the
      cards, W's H6 goes to trick 11 under S's HJ, which S still wins: 1 by the record; double
      dummy, after the ruff E-W can take two more (from 11 to 9 for N-S): 2.  The record shows
      N-S lost nothing against the par (12 = 12), so the damage is 0.
    - EAST_KEEPS_TRUMP_10: following with H2, S's HA still wins trick 10; exchanged, East's CQ
      goes to trick 11 under S's DA, which S then wins, but the recorded tricks 12-13 keep
      East's leads: 1; double dummy South takes all four (HA, then three diamonds) against one:
      3 - the measure used, as the recorded leads after trick 11 no longer follow from play.
    """
    from deals import D1, DECLARER_RUFFS_10, WEST_RUFFS_2
    from revoke_audit.ruling.equity import exchanged_cost, revoke_cost
    from revoke_audit.replay import replay
    for deal, contract, play, dd, exchanged in (
            (D2, "3NT", WEST_REVOKES_3, 0, 0), (D1, "4H", DECLARER_RUFFS_10, 0, 0),
            (D1, "4H", WEST_RUFFS_2, 2, 1), (D3, "3H", EAST_KEEPS_TRUMP_10, 3, 1),
            (D2, "3NT", WEST_REVOKES_9, 0, 0)):
        rp = replay(board(deal, contract, "S", play))
        (fact,) = rp.revokes
        cost = revoke_cost(rp, fact)
        assert (cost.tricks, exchanged_cost(rp, fact, cost.follow)) == (dd, exchanged), play
    a = audit_board(board(D1, "4H", "S", WEST_RUFFS_2), AuditOptions(discovered="after-round"))
    assert (a.tricks_equity, a.ruling.tricks_played, a.review_64c) == (12, 12, False)


# --- the board's figures: tricks_equity and review_64c --------------------------------------

def board_figures(deal, contract, tricks, **kw):
    kw.setdefault("discovered", "table")
    a = audit_board(board(deal, contract, "S", tricks), AuditOptions(**kw))
    row = board_row(a)
    return a, (row["tricks_played"], row["tricks_adjusted"], row["tricks_equity"],
               row["review_64c"])


def test_the_automatic_transfer_two_tricks_short_of_the_damage():
    """D3, 3H by South.  Before trick 10 South (on lead) holds HA DA DK DQ, East H2 CA CK CQ,
    West S4 D5 D4 D3, North S3 S2 C3 C2; declarer has won 5 tricks.  South cashes HA and East
    keeps his H2, discarding CQ (a revoke); East ruffs South's DA and cashes CA CK: declarer 6.
    64A2: South won the revoke trick, E-W won later ones: one trick, 7.  Had East followed with
    H2, South's HA and three diamonds are all winners (West follows, East has only clubs): 9.
    The revoke cost N-S three tricks (double dummy from trick 10 as in the record: 4 against
    1); the automatic transfer gives back one: review_64c, EQ001.  Found after the round, none
    is given back: the same review."""
    a, figures = board_figures(D3, "3H", EAST_KEEPS_TRUMP_10)
    assert figures == (6, 7, 9, True)
    assert [(f.code, f.law, f.equity_tricks) for f in a.findings] == [
        ("RV001", "64A2", 9), ("EQ001", "64C", 9)]
    assert a.findings[1].message == (
        "following suit with H2, trick 10 would still have been South's; the revoke cost "
        "North-South 3 tricks (double dummy from trick 10, following suit against the card "
        "played, and no more than the record shows lost: 9 tricks for declarer had he "
        "followed); the rectification gives back 1 trick: the non-offending side may be due "
        "more (Law 64C)")
    late, figures = board_figures(D3, "3H", EAST_KEEPS_TRUMP_10, discovered="after-round")
    assert figures == (6, 6, 9, True)
    assert late.findings[1].message.endswith(
        "no automatic transfer gives it back: the non-offending side may be due more (Law 64C)")


def test_both_sides_revoked_equity_as_if_neither_had():
    """As above, but dummy (North) too fails to follow: S3 on East's CA at trick 12, holding
    C2.  Both revokes established: 64B7, no automatic transfer for East's; North's, on trick
    12, is corrected (his C2 changes nothing: East's CA and CK win).  Declarer 6.  As if no
    revoke had happened - from trick 10, East following with H2 - declarer makes 9: any
    difference is for the Director under 64C2(b), so the board is flagged."""
    a, figures = board_figures(D3, "3H", BOTH_SIDES_D3)
    assert figures == (6, 6, 9, True)
    (eq,) = [f for f in a.findings if f.code == "EQ001"]
    assert eq.message == (
        "had none of the revokes happened (East on trick 10, North on trick 12), double-dummy "
        "play gives declarer 9 tricks against 6 after the adjustment: both sides "
        "revoked, so the Director assigns an adjusted score (64C2(b))")


def test_repeated_revokes_equity_as_if_neither_had():
    """D2: West discards D5 and D6 on tricks 2 and 3 holding hearts; East wins both.  The
    first moves one trick (64A2), the second none (64B2): 10 played, 11 adjusted.  Had West
    followed both times, East still wins tricks 2 and 3 and West's last heart never gets the
    lead: N-S take the last ten, 10.  The non-offending side (N-S, declarer) does not gain:
    review_64c false, no EQ001."""
    a, figures = board_figures(D2, "3NT", WEST_REVOKES_HEARTS_TWICE)
    assert figures == (10, 11, 10, False)
    assert "EQ001" not in [f.code for f in a.findings]


def test_no_figures_with_no_equity():
    a = audit_board(board(D3, "3H", "S", EAST_KEEPS_TRUMP_10), AuditOptions(equity=False))
    row = board_row(a)
    assert (row["tricks_equity"], row["review_64c"]) == (None, None)


def test_rubber_codes_have_no_64c_review():
    """The 1932 Code has no equity provision: the estimate is given, the review left empty."""
    a, figures = board_figures(D3, "3H", EAST_KEEPS_TRUMP_10, laws="1932")
    assert figures[2:] == (9, None)
    assert "EQ001" not in [f.code for f in a.findings]


# --- against a brute-force double-dummy search on small end positions -----------------------

def brute_force(hands, leader, cards, trump, declarer):
    """Declarer's side's tricks from this position (``cards``: played to the current trick),
    by trying every legal card at every turn: declarer's side maximises, the other minimises."""
    @lru_cache(maxsize=None)
    def value(hands, leader, cards):
        if not cards and not any(hands):
            return 0
        seat = (leader + len(cards)) % 4
        hand = hands[seat]
        legal = hand & SUIT_MASKS[cards[0] // 13] if cards else 0
        results = []
        for card in cards_in(legal or hand):
            after = tuple(h & ~(1 << card) if s == seat else h for s, h in enumerate(hands))
            now = cards + (card,)
            if len(now) == 4:
                w = (leader + winning_index(list(now), trump)) % 4
                results.append((w % 2 == declarer % 2) + value(after, w, ()))
            else:
                results.append(value(after, leader, now))
        return max(results) if seat % 2 == declarer % 2 else min(results)

    return value(tuple(hands), leader, tuple(cards))


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**9), first=st.sampled_from([(10, 1), (10, 2), (10, 3), (11, 1),
                                                           (11, 2), (11, 3)]),
       second=st.sampled_from([None, (11, 1), (11, 3), (12, 2)]),
       strain=st.integers(0, 4), declarer=st.integers(0, 3))
# dummy's two revokes, the first costing nothing and the second one trick (64C2(a): 0 + 1)
@example(seed=16777217, first=(10, 2), second=(11, 1), strain=0, declarer=0)
# a trick-12 revoke corrected in declarer's favour after dummy's (62D gives nothing back)
@example(seed=84595671, first=(10, 3), second=(12, 2), strain=3, declarer=3)
def test_equity_matches_a_brute_force_search(seed, first, second, strain, declarer):
    """Random deals with one or two revokes in the last four tricks.  Each finding's
    equity_tricks is the search from its own trick with that offender following suit; the
    board's tricks_equity the search from the first revoke (as if none had happened), and
    review_64c says whether the revokes' own cost - each the search following suit against the
    search after the card played, no more than its par against the result; several by one side
    summed, no more than the most any one par shows lost (Law 64C2(a)) - exceeds what the
    ruling gives back to the wronged side (or, both sides having revoked, whether the par differs from
    the adjusted result)."""
    wanted = {first} | ({second} if second and second[0] > first[0] else set())
    record, forced = revoking_board(seed, wanted, strain, declarer)
    a = audit_board(record, AuditOptions(discovered="table"))
    rp = a.replay
    assume(forced and rp.coherent and len({t for t, _ in forced}) == len(forced))
    trump = None if strain == 4 else strain

    def search(trick_no, seat, revoke=False):
        trick = rp.tricks[trick_no - 1]
        order = [(trick.leader + k) % 4 for k in range(4)]
        upto = order.index(seat) + (1 if revoke else 0)
        before = [trick.card_of(s) for s in order[:upto]]
        won = sum(1 for t in rp.tricks[:trick_no - 1] if t.winner % 2 == declarer % 2)
        hands = list(rp.hands_at[trick_no - 1])
        for s, card in zip(order, before):
            hands[s] &= ~(1 << card)
        if len(before) == 4:  # the revoke card ended the trick
            w = (trick.leader + winning_index(before, trump)) % 4
            return won + (w % 2 == declarer % 2) + brute_force(hands, w, [], trump, declarer)
        return won + brute_force(hands, trick.leader, before, trump, declarer)

    for f in a.findings:
        if f.code.startswith("RV"):
            assert f.equity_tricks == search(f.trick, f.seat)
    row = board_row(a)
    expected = search(*forced[0])
    assert row["tricks_equity"] == expected
    adjusted, played = row["tricks_adjusted"], row["tricks_played"]
    sides = {seat % 2 for _, seat in forced}
    if len(sides) == 2:
        review = expected != adjusted
    else:
        sign = 1 if forced[0][1] % 2 != declarer % 2 else -1  # N-S tricks lost, as declarer's
        established = [(f.trick, f.seat) for f in a.findings
                       if f.code.startswith("RV") and f.established]
        costs, pars = [], []
        for trick_no, seat in established:  # each from its own position
            par, after = search(trick_no, seat), search(trick_no, seat, revoke=True)
            costs.append(max(0, min(sign * (par - after), sign * (par - played))))
            pars.append(max(0, sign * (par - played)))
        damage = min(sum(costs), max(pars)) if len(costs) > 1 else sum(costs)
        given = max(0, sign * (adjusted - played))  # to the wronged side (a 62D correction
        review = damage > given                      # may move a trick the other way)
    assert row["review_64c"] is review
    assert ("EQ001" in [f.code for f in a.findings]) is review


def test_a_position_the_solver_refuses_changes_nothing_but_the_equity_cells(monkeypatch):
    """The solver refusing a position (DDS: 'Wrong number of remaining cards in a hand') leaves
    the equity cells empty with an EQ002 note; the findings, the ruling and the status are those
    of the run with --no-equity (before, the board became RC099 and lost its revokes)."""
    from revoke_audit.ruling._endplay import DDSError

    from revoke_audit.ruling import equity

    def refuse(*_args, **_kwargs):
        raise DDSError("Wrong number of remaining cards in a hand")

    monkeypatch.setattr(equity, "solve_board", refuse)
    record = board(D2, "3NT", "S", WEST_REVOKES_9)
    plain = audit_board(record, AuditOptions(equity=False))
    refused = audit_board(record)
    notes = [f for f in refused.findings if f.code == "EQ002"]
    assert [f for f in refused.findings if f not in notes] == plain.findings
    assert [f.code for f in plain.findings] == ["RV002"] and len(notes) == 1
    assert "solver refused" in notes[0].message
    plain_row, refused_row = board_row(plain), board_row(refused)
    assert refused_row == plain_row
    assert (refused_row["status"], refused_row["tricks_equity"]) == ("irregular", None)


# --- Law 64C decided: the revoke's own cost, and the result the Director signs ----------------

from deals import BASE1, D1, WEST_RUFFS_2  # noqa: E402


def _decided(deal, contract, tricks, **kw):
    from revoke_audit.ruling.director import ruling_text
    a = audit_board(board(deal, contract, "S", tricks), AuditOptions(**kw))
    row = board_row(a)
    words = [ruling_text(a, f) for f in a.findings if f.code.startswith("RV")]
    return a, tuple(row[c] for c in ("ruling_64c", "tricks_64c", "result_64c",
                                     "score_ns_64c")), words


def test_64c_assigns_what_the_revoke_cost_beyond_the_rectification():
    """EAST_KEEPS_TRUMP_10 (D3, 3H by South, worked out in test_the_automatic_transfer_two_
    tricks_short_of_the_damage): the revoke cost N-S 3 tricks double dummy (4 had East
    followed with H2, 1 after his CQ), and the record shows the same loss against the par (9
    against 6).  The cards do not settle it: after the CQ, East may ruff South's DA or not.
    Found after the round, nothing is given back: 64C assigns 6 + 3 = 9, 3H= +140 (vul none).
    At the table 64A2 gives one back (7): 64C adds the other 2: 9 again."""
    a, cells, words = _decided(D3, "3H", EAST_KEEPS_TRUMP_10, discovered="after-round")
    assert cells == ("adjusted", 9, "3H=", 140)
    assert a.ruling.tricks_adjusted == 6  # the automatic result is not touched
    assert ("the revoke itself cost North-South 3 tricks (double dummy from trick 10"
            in words[0])
    assert ("no automatic transfer gives any back: North-South are due 3 tricks more, the "
            "Director assigns 3H= by South: N-S +140, E-W -140") in words[0]
    a, cells, words = _decided(D3, "3H", EAST_KEEPS_TRUMP_10, discovered="table")
    assert cells == ("adjusted", 9, "3H=", 140) and a.ruling.tricks_adjusted == 7
    assert "the rectification gives back 1 trick: North-South are due 2 tricks more" in words[0]


def test_64c_no_damage_when_the_revoke_cost_nothing():
    """WEST_REVOKES_9 (see above): the revoke cost N-S nothing double dummy: the result as
    ruled stands - 8 after the round (3NT-1, -50), 9 at the table (3NT=, +400)."""
    _a, cells, words = _decided(D2, "3NT", WEST_REVOKES_9, discovered="after-round")
    assert cells == ("no damage", 8, "3NT-1", -50)
    assert "; 64C considered: the revoke itself cost North-South nothing" in words[0]
    assert words[0].endswith("): no damage, the result stands; basis: 64B5.")
    _a, cells, _words = _decided(D2, "3NT", WEST_REVOKES_9, discovered="table")
    assert cells == ("no damage", 9, "3NT=", 400)


def test_a_double_dummy_cost_the_record_does_not_show_is_said_not_cut():
    """WEST_RUFFS_2: double dummy the ruff costs N-S 2 tricks, but they made 12, the par: the
    record shows nothing lost, and the paragraph says both figures."""
    _a, cells, words = _decided(D1, "4H", WEST_RUFFS_2, discovered="after-round")
    assert cells == ("no damage", 12, "4H+2", 480)
    assert "North-South 2 tricks worse off" in words[0]
    assert "the record shows North-South losing 0 tricks against that (declarer 12)" in words[0]


# BASE1 with West's two last cards exchanged: trick 12 S:S9 W:DT N:S4 E:D9 - West throws DT
# holding S7 (a revoke, found after the round: too late for 62D, 64B5) - and trick 13 S:S8 W:S7
# N:S5 E:C9.  Before trick 12: S S9 S8, W S7 DT, N S5 S4, E D9 C9 (no trump left).  Following
# with S7, South's S9 and then S8 win both tricks whatever the others play; after DT, the same.



def test_64c_by_the_cards_when_every_legal_play_gives_the_same():
    _a, cells, words = _decided(D1, "4H", BASE1[:11] + ["S:S9 W:DT N:S4 E:D9",
                                                        "S:S8 W:S7 N:S5 E:C9"],
                                discovered="after-round")
    assert cells == ("no damage", 13, "4H+3", 510)
    assert ("the revoke itself cost North-South nothing (by the cards: from trick 12 on, every "
            "legal play gives North-South 2 had he followed suit, 2 after his DT)") in words[0]


def test_64c_is_not_assessed_without_the_solver():
    _a, cells, words = _decided(D3, "3H", EAST_KEEPS_TRUMP_10, equity=False)
    assert cells == ("not assessed", None, None, None)
    assert "64C considered: not assessed (no double-dummy figures: --no-equity)" in words[0]
    _a, cells, _words = _decided(D2, "3NT", BASE2)
    assert cells == ("none", None, None, None)


# D1 (4H by South), West's two revokes, both found after the round (64B5: no transfer).
# Tricks 1-5 as BASE1 (N, S, S, S, S).  Trick 6: South's HJ, West discards D2 holding H9 (the
# first revoke), North S3, East SK (S wins).  Then, 7 cards each: N S54 DKQ CAKQ, E D987 C9876,
# S S98 HT D5 C543, W S7 H9 DT3 CJT2.  Trick 7: C3 C2 CA C6 (N).  Trick 8: N's CK, E C7, S C4,
# West ruffs with H9 holding CJT (the second revoke; W wins).  West leads CT: N's CQ wins 9; N
# cashes DK (10) and DQ (11, S throws S8); N's S4 to S9 (12); S's HT wins 13.  Winners
# N S S S S S N W N N N S S: declarer 12, 4H+2.
#   Trick 6, before West's card East still holds SK (singleton) and N-S hold S98 (S), S543 (N).
#   Had West followed with H9 (South wins), N-S have six winners outside spades (DKQ CAKQ,
#   HT) for the last seven tricks: East follows to the minors (D987, and clubs after throwing
#   one on trick 6), throws a minor card on HT and keeps SK, which wins whichever spade trick
#   comes; West never gets the lead: 12 (the solver agrees).  After his D2 the same: 12.  This
#   revoke cost N-S nothing, and the par from it (12) is the record: nothing lost against it.
#   But East threw SK on trick 6, which gave N-S back their 13th trick - until trick 8:
#   had West followed (CT or CJ), N's CK wins it (8 tricks); N leads S4 to South's S8 (W must
#   follow with S7), South draws the H9 with HT, D5 to N's DK, DQ, CQ: all 5, 13.  After the
#   ruff West is on lead with S7 DT3 CJT against N-S's top cards (CQ, DKQ, S98, HT): N-S take
#   the last 5, 12.  This revoke cost N-S one trick, and the record (12) shows it lost against
#   its own par (13).  Together: 0 + 1 = 1 (64C2(a)); the par from the first revoke alone (12)
#   would see nothing - the trick East's SK gave N-S is theirs, and the second revoke took it.
WEST_REVOKES_6_AND_8 = BASE1[:5] + ["S:HJ W:D2 N:S3 E:SK", "S:C3 W:C2 N:CA E:C6",
                                    "N:CK E:C7 S:C4 W:H9", "W:CT N:CQ E:C8 S:C5",
                                    "N:DK E:D7 S:D5 W:D3", "N:DQ E:D8 S:S8 W:DT",
                                    "N:S4 E:D9 S:S9 W:S7", "S:HT W:CJ N:S5 E:C9"]


def test_64c_measures_each_of_several_revokes_from_its_own_position():
    """WEST_REVOKES_6_AND_8 (worked out above): the first revoke cost N-S nothing, the second
    one trick.  Law 64C2(a): the damage of both is the sum of their own costs, 0 + 1, no more
    than the record shows lost (12 against 13, the par from trick 8): 64C assigns 13, 4H+3
    (+510), where the par from the first revoke alone would assign nothing.  Each paragraph
    quotes its own revoke's figures (measured from trick 6 and from trick 8)."""
    a, cells, words = _decided(D1, "4H", WEST_REVOKES_6_AND_8, discovered="after-round")
    assert [(f.code, f.trick, f.equity_tricks) for f in a.findings if f.code != "EQ001"] == [
        ("RV002", 6, 12), ("RV002", 8, 13)]
    assert a.ruling.tricks_played == a.ruling.tricks_adjusted == 12
    assert cells == ("adjusted", 13, "4H+3", 510)
    assert ("the revoke on trick 6 itself cost North-South nothing (double dummy from trick 6, "
            "following suit against the card played: North-South 0 tricks worse off; 12 for "
            "declarer had he followed)") in words[0]
    assert "from trick 8" not in words[0]
    assert ("the revoke on trick 8 itself cost North-South 1 trick (double dummy from trick 8, "
            "following suit against the card played: North-South 1 trick worse off; 13 for "
            "declarer had he followed)") in words[1]
    assert "from trick 6" not in words[1]
    for w in words:
        assert ("the 2 revokes together cost North-South 1 trick (64C2(a): the sum of their "
                "own costs); no automatic transfer gives any back: North-South are due 1 "
                "trick more, the Director assigns 4H+3 by South") in w
    (eq,) = [f for f in a.findings if f.code == "EQ001"]
    assert "the 2 revokes cost North-South 1 trick" in eq.message


def test_a_cost_the_cards_do_not_settle_is_seen_without_the_search(monkeypatch):
    """EAST_KEEPS_TRUMP_10 (above): after East's CQ he may ruff South's DA or not, so two plain
    lines of play (``by_cards.played_counts``) already give N-S different counts, and the
    search over positions is never started: the same 64C figures, double dummy."""
    from revoke_audit.ruling import equity

    def no_search(*args, **kw):
        raise AssertionError("the search ran on a cost two plain lines settle")

    equity._settled_cost.cache_clear()
    monkeypatch.setattr(equity, "Search", no_search)
    a, cells, words = _decided(D3, "3H", EAST_KEEPS_TRUMP_10, discovered="after-round")
    assert cells == ("adjusted", 9, "3H=", 140)
    assert "double dummy from trick 10" in words[0]


def test_the_result_64c_assigns_is_the_final_result_everywhere():
    """EAST_KEEPS_TRUMP_10 after the round (see above): no transfer, so the automatic result
    is the 6 played, 3H-3, N-S -150 (not vulnerable: 3 x 50 to E-W); 64C assigns 9, 3H=,
    N-S +140 (3 x 30 + 50 for a partscore).
    The paragraph calls 3H-3 the result before 64C, never the final result; the correction
    line, the explain steps and the director's line go to the 64C result, the one the Director
    signs (boards.csv keeps the automatic score in score_ns_adjusted)."""
    from revoke_audit.reports.corrections import correction
    from revoke_audit.reports.explain import ruling_steps
    from revoke_audit.reports.report import director_line
    from revoke_audit.reports.rows import render
    a, cells, words = _decided(D3, "3H", EAST_KEEPS_TRUMP_10, discovered="after-round")
    assert cells == ("adjusted", 9, "3H=", 140)
    assert "result before 64C 3H-3 by South: N-S -150, E-W +150" in words[0]
    assert "final result 3H-3" not in words[0]
    assert ("the Director assigns 3H= by South: N-S +140, E-W -140: the final result"
            in words[0])
    row = board_row(a)
    assert (row["result_adjusted"], row["score_ns_adjusted"]) == ("3H-3", -150)
    c = correction(render(a))
    assert (c.result_before, c.score_ns_before, c.result_after, c.score_ns_after, c.basis) == \
        ("3H-3", -150, "3H=", 140, "64C")
    steps = ruling_steps(a)
    assert "  result: 3H-3 -> 3H-3 -> 3H= (64C: the final result)" in steps
    assert "  score N-S: -150 -> -150 -> 140 (64C: the final result)" in steps
    assert ": 3H-3 -150 -> 3H= 140 (" in director_line(row)
    assert "64C assigns the result after the arrow" in director_line(row)


def test_the_page_shows_the_result_64c_assigns():
    """The director's page of a board: after = the 64C result where it assigns one
    (EAST_KEEPS_TRUMP_10 after the round: 3H-3, N-S -150 -> 3H=, N-S +140)."""
    from revoke_audit.reports.html_page import section
    from revoke_audit.reports.rows import render
    a, _cells, _words = _decided(D3, "3H", EAST_KEEPS_TRUMP_10, discovered="after-round")
    page = section(render(a), a, 1)
    assert (page["before"], page["after"]) == ("3H-3, N-S -150", "3H=, N-S 140")


def test_each_position_goes_to_the_solver_once_a_process(monkeypatch):
    """A record audited twice (a file read twice in one run) asks DDS once per position - the
    position before West's card and the one after it - and the second audit's figures, from
    the answers kept, are the first's."""
    from revoke_audit.ruling import equity

    calls, real = [], equity.solve
    monkeypatch.setattr(equity, "solve", lambda *position: calls.append(position) or real(
        *position))
    equity._solved.cache_clear()
    record = board(D2, "3NT", "S", WEST_REVOKES_9)
    first, again = audit_board(record), audit_board(record)
    assert len(calls) == len(set(calls)) == 2
    assert board_row(first) == board_row(again) and first.findings == again.findings
    assert first.tricks_equity == 10
