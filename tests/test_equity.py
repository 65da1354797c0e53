"""Double-dummy estimates for Law 64C (``--equity``), on positions worked out by hand."""
from functools import lru_cache

from builders import board, revoking_board
from deals import (BASE2, BOTH_SIDES_D3, D2, D3, EAST_KEEPS_TRUMP_10, WEST_REVOKES_3,
                   WEST_REVOKES_9, WEST_REVOKES_HEARTS_TWICE)
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from revoke_audit.audit import audit_board
from revoke_audit.options import AuditOptions
from revoke_audit.rows import board_row
from revoke_audit.cards import SUIT_MASKS, cards_in, winning_index


def equity_findings(tricks):
    a = audit_board(board(D2, "3NT", "S", tricks), AuditOptions(equity=True))
    return a, [(f.code, f.trick, f.equity_tricks) for f in a.findings]


def test_no_review_when_the_transfer_covers_the_damage():
    """W revokes on trick 3.  Had he followed (H6/H7), E still wins trick 3 and N-S take the
    other ten (W's last heart has no entry): 10 tricks.  The automatic result is 11: no 64C."""
    a, got = equity_findings(WEST_REVOKES_3)
    assert got == [("RV001", 3, 10)]
    assert a.ruling.tricks_adjusted == 11


def test_review_when_following_would_have_given_more():
    """W revokes on trick 9 (see deals.WEST_REVOKES_9): 8 played, 9 after 64A2, but had he
    followed, N-S take all of the last five tricks: 10.  EQ001 asks for a 64C review."""
    a, got = equity_findings(WEST_REVOKES_9)
    assert got == [("RV001", 9, 10), ("EQ001", 9, 10)]
    assert (a.replay.tricks_played, a.ruling.tricks_adjusted) == (8, 9)
    assert "64C" in a.findings[-1].message and a.findings[-1].law == "64C"


def test_no_equity_without_the_option_or_without_a_revoke():
    a = audit_board(board(D2, "3NT", "S", WEST_REVOKES_9))
    assert [f.equity_tricks for f in a.findings] == [None]
    assert audit_board(board(D2, "3NT", "S", BASE2), AuditOptions(equity=True)).findings == []


# --- the board's figures: tricks_equity and review_64c --------------------------------------

def board_figures(deal, contract, tricks, **kw):
    a = audit_board(board(deal, contract, "S", tricks), AuditOptions(equity=True, **kw))
    row = board_row(a)
    return a, (row["tricks_played"], row["tricks_adjusted"], row["tricks_equity"],
               row["review_64c"])


def test_the_automatic_transfer_two_tricks_short_of_the_damage():
    """D3, 3H by South.  Before trick 10 South (on lead) holds HA DA DK DQ, East H2 CA CK CQ,
    West S4 D5 D4 D3, North S3 S2 C3 C2; declarer has won 5 tricks.  South cashes HA and East
    keeps his H2, discarding CQ (a revoke); East ruffs South's DA and cashes CA CK: declarer 6.
    64A2: South won the revoke trick, E-W won later ones: one trick, 7.  Had East followed with
    H2, South's HA and three diamonds are all winners (West follows, East has only clubs): 9.
    The automatic transfer is two tricks short: review_64c, EQ001."""
    a, figures = board_figures(D3, "3H", EAST_KEEPS_TRUMP_10)
    assert figures == (6, 7, 9, True)
    assert [(f.code, f.law, f.equity_tricks) for f in a.findings] == [
        ("RV001", "64A2", 9), ("EQ001", "64C", 9)]
    assert a.findings[1].message == (
        "had East followed suit on trick 10, double-dummy play gives declarer 9 tricks against 7 "
        "after the automatic adjustment: the non-offending side may be due more (Law 64C)")


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
        "play gives declarer 9 tricks against 6 after the automatic adjustment: both sides "
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


def test_no_figures_without_the_option():
    a = audit_board(board(D3, "3H", "S", EAST_KEEPS_TRUMP_10))
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
def test_equity_matches_a_brute_force_search(seed, first, second, strain, declarer):
    """Random deals with one or two revokes in the last four tricks.  Each finding's
    equity_tricks is the search from its own trick with that offender following suit; the
    board's tricks_equity the search from the first revoke (as if none had happened), and
    review_64c says whether that beats the automatic result for the non-offending side (or,
    both sides having revoked, differs from it)."""
    wanted = {first} | ({second} if second and second[0] > first[0] else set())
    record, forced = revoking_board(seed, wanted, strain, declarer)
    a = audit_board(record, AuditOptions(equity=True))
    rp = a.replay
    assume(forced and rp.coherent and len({t for t, _ in forced}) == len(forced))
    trump = None if strain == 4 else strain

    def search(trick_no, seat):
        trick = rp.tricks[trick_no - 1]
        order = [(trick.leader + k) % 4 for k in range(4)]
        before = [trick.card_of(s) for s in order[:order.index(seat)]]
        won = sum(1 for t in rp.tricks[:trick_no - 1] if t.winner % 2 == declarer % 2)
        hands = list(rp.hands_at[trick_no - 1])
        for s, card in zip(order, before):
            hands[s] &= ~(1 << card)
        return won + brute_force(hands, trick.leader, before, trump, declarer)

    for f in a.findings:
        if f.code.startswith("RV"):
            assert f.equity_tricks == search(f.trick, f.seat)
    row = board_row(a)
    expected = search(*forced[0])
    assert row["tricks_equity"] == expected
    adjusted = row["tricks_adjusted"]
    sides = {seat % 2 for _, seat in forced}
    if len(sides) == 2:
        review = expected != adjusted
    elif sides == {declarer % 2}:
        review = expected < adjusted
    else:
        review = expected > adjusted
    assert row["review_64c"] is review
    assert ("EQ001" in [f.code for f in a.findings]) is review


def test_a_position_the_solver_refuses_changes_nothing_but_the_equity_cells(monkeypatch):
    """The solver refusing a position (DDS: 'Wrong number of remaining cards in a hand') leaves
    the equity cells empty with an EQ002 note; the findings, the ruling and the status are those
    of the run without --equity (before, the board became RC099 and lost its revokes)."""
    from endplay._dds import DDSError

    from revoke_audit import equity

    def refuse(*_args, **_kwargs):
        raise DDSError("Wrong number of remaining cards in a hand")

    monkeypatch.setattr(equity, "solve_board", refuse)
    record = board(D2, "3NT", "S", WEST_REVOKES_9)
    plain, refused = audit_board(record), audit_board(record, AuditOptions(equity=True))
    notes = [f for f in refused.findings if f.code == "EQ002"]
    assert [f for f in refused.findings if f not in notes] == plain.findings
    assert [f.code for f in plain.findings] == ["RV001"] and len(notes) == 1
    assert "solver refused" in notes[0].message
    plain_row, refused_row = board_row(plain), board_row(refused)
    assert refused_row == plain_row
    assert (refused_row["status"], refused_row["tricks_equity"]) == ("irregular", None)
