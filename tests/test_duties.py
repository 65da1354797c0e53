"""The revokes only a director's log can show (Law 61A2, 61A3), on hand-built plays of deal D2
(``deals.py``, ``deals_facts.py``), under every edition.

D2: 3NT by South, West leads.
    N AK2.432.AKQJ.543   E QJT9.AKQ.432.876   S 876.JT9.T98.AKQJ   W 543.8765.765.T92
In BASE2 East wins tricks 1-3 (HA HK HQ), North 4-9, South 10-13: declarer 10.

Each docstring works out by hand what the log binds, whether the player could comply, and what
each code then moves (OS = offending side)."""
from dataclasses import replace

import pytest
from builders import board
from deals import BASE1, BASE2, D1, D2, WEST_REVOKES_3
from deals_facts import EAST_KEEPS_C6, EAST_SPADE_AT_3, EAST_SPADE_AT_5, WEST_D6_BEFORE_D5

from revoke_audit.ruling.audit import audit_board, audit_records
from revoke_audit.ruling.options import AuditOptions
from revoke_audit.core.cards import parse_card
from revoke_audit.replay.model import PENALTY_CARD, RESTRICTION
from revoke_audit.laws.table_facts import read_table_facts

HEADER = "source,event,board,room,trick,seat,fact,value\n"


@pytest.fixture
def log(tmp_path):
    """``log("4,E,penalty-card,C6 major", ...)``: a director's log of rows for every board
    (empty keys); each argument is ``trick,seat,fact,value`` (log lines 2, 3, ...)."""
    def make(*rows: str):
        path = tmp_path / "log.csv"
        path.write_text(HEADER + "".join(f",,,,{r}\n" for r in rows))
        return read_table_facts(path)
    return make


def rule(play, facts, laws="2017", discovered="table"):
    a = audit_board(board(D2, "3NT", "S", play), AuditOptions(laws, discovered, table_facts=facts))
    law = [(f.code, f.law, f.trick, "NESW"[f.seat], f.transferred)
           for f in a.findings if f.code[:2] in ("RV", "DT", "RC")]
    return a, law


def bound(a):
    """(trick, seat, outcome) of every binding, in order."""
    return [(b.trick, "NESW"[b.seat], b.outcome) for b in a.replay.bindings]


# --- a major penalty card (Law 50D1) ---------------------------------------------------------

def test_major_penalty_card_not_led_at_the_first_legal_opportunity_2017(log):
    """East's C6 lies face up from trick 4, when East is on lead: leading it is legal, so it is
    due; he leads SQ: a revoke (61A2).  Tricks 5-7 are diamonds, which East must follow: C6 is
    not due.  Trick 8 (DJ) East is out of diamonds and discards C6.  2017 64B3: a failure to
    play a penalty card gets no automatic transfer; 64C review.  Declarer keeps 10."""
    a, law = rule(EAST_KEEPS_C6, log("4,E,penalty-card,C6 major"))
    assert law == [("RV002", "64B3", 4, "E", 0)]
    f = next(f for f in a.findings if f.code == "RV002")
    assert f.message == (
        "trick 4: East (defender) did not play the major penalty card C6 (Law 50D1; log line 2) "
        "but led SQ: a failure to play a penalty card: no automatic transfer (64B3); redress only "
        "under 64C")
    assert (f.log_line, f.established, f.card, f.held) == (2, True, parse_card("SQ"),
                                                           1 << parse_card("C6"))
    assert a.replay.revokes[0].kind == PENALTY_CARD
    assert bound(a) == [(4, "E", "broken"), (5, "E", "unable"), (6, "E", "unable"),
                        (7, "E", "unable"), (8, "E", "kept")]
    assert a.ruling.tricks_adjusted == 10 and a.status == "irregular"


def test_major_penalty_card_under_each_edition(log):
    """2007 and 1997: 64B3, "failing to play any card faced on the table": no transfer.
    1932 and bridge-whist read the row as an exposed card the declarer called to trick 4: East
    could lead it and did not: a revoke.  1932: the side's first revoke takes two tricks from
    those E-W won from trick 4 on - none (they won 1-3 only): no penalty.  Bridge-whist: three
    tricks from any E-W trick (they hold 3): declarer 13."""
    facts = log("4,E,penalty-card,C6 major")
    got = {e: rule(EAST_KEEPS_C6, facts, e) for e in ("2007", "1997", "1932", "bridge-whist")}
    assert got["2007"][1] == got["1997"][1] == [("RV002", "64B3", 4, "E", 0)]
    assert "a card faced on the table" in got["1997"][0].findings[0].message
    assert got["1932"][1] == [("RV002", "1932 penalty", 4, "E", 0)]
    assert got["bridge-whist"][1] == [("RV001", "1907 penalty", 4, "E", 3)]
    assert [got[e][0].ruling.tricks_adjusted for e in got] == [10, 10, 10, 13]
    assert "exposed card C6 the declarer called" in got["1932"][0].findings[0].message


def test_major_penalty_card_never_legal_until_played_is_no_revoke(log):
    """The same play, C6 face up from trick 5: East must follow diamonds at 5-7 (Law 44C), so C6
    is not due; he plays it at trick 8, the first trick it is legal.  No revoke; explain says
    why at each trick.  Under 1932, "called" to trick 5 it cannot be played without revoking:
    no revoke either."""
    a, law = rule(EAST_KEEPS_C6, log("5,E,penalty-card,C6 major"))
    assert law == [] and a.status == "clean" and a.ruling.tricks_adjusted == 10
    assert bound(a) == [(5, "E", "unable"), (6, "E", "unable"), (7, "E", "unable"),
                        (8, "E", "kept")]
    assert a.replay.bindings[0].text == (
        "major penalty card C6 (Law 50D1; log line 2): not a legal play to this trick (he must "
        "follow in diamonds, Law 44C), so not due: no revoke")
    a, law = rule(EAST_KEEPS_C6, log("5,E,penalty-card,C6 major"), "1932")
    assert law == [] and bound(a) == [(5, "E", "unable")]


def test_two_penalty_cards_are_both_major_and_either_complies(log):
    """West's D5 and D6, both minor, face up from trick 4 - two penalty cards are all major
    (Law 50B).  Trick 4 is spades: not due.  Trick 5 (DA): he must play one of them and plays
    D6; trick 6 (DK): D5, still major, is due and played.  No revoke - where D5 alone, minor,
    makes D6 at trick 5 a revoke (next test)."""
    a, law = rule(WEST_D6_BEFORE_D5, log("4,W,penalty-card,D5 minor", "4,W,penalty-card,D6 minor"))
    assert law == []
    assert bound(a) == [(4, "W", "unable"), (5, "W", "kept"), (6, "W", "kept")]
    assert "since it lay beside another (Law 50B)" in a.replay.bindings[-1].text


def test_partner_lead_restriction_picks_the_penalty_card_up(log):
    """West's S5 is a major penalty card from trick 2; declarer requires East (his partner) to
    lead a spade at trick 2: West picks S5 up (Law 50D2(a)).  East leads HK instead: his revoke.
    At trick 4 (SQ led) West plays S3, not S5 - no longer due.  Without the requirement S5 is
    due at trick 4 and S3 is West's revoke; the card stays face up (Law 52B1(c)), and West
    fails again at trick 8 (DJ led, he is out of diamonds and discards H7) and trick 9 (SA led,
    he plays S4); he plays S5 at trick 13.  Three revokes, each 64B3.  BASE2 all the way."""
    a, law = rule(BASE2, log("2,W,penalty-card,S5 major", "2,E,lead-required,S"))
    assert law == [("RV001", "64A1", 2, "E", 2)]
    assert bound(a) == [(2, "E", "broken")]
    a, law = rule(BASE2, log("2,W,penalty-card,S5 major"))
    assert law == [("RV002", "64B3", n, "W", 0) for n in (4, 8, 9)]


# --- a minor penalty card (Law 50C) ----------------------------------------------------------

def test_minor_penalty_card_played_after_a_lower_card_of_its_suit(log):
    """West's D5, a minor penalty card from trick 4: no other diamond below the ten before it.
    Trick 5 (DA) he plays D6: a revoke (61A2, the penalty card not played), 64B3: no transfer.
    In BASE2 he plays D5 first: no revoke; a card of another suit leaves it lying."""
    a, law = rule(WEST_D6_BEFORE_D5, log("4,W,penalty-card,D5 minor"))
    assert law == [("RV002", "64B3", 5, "W", 0)]
    assert a.findings[0].message.startswith(
        "trick 5: West (defender) played D6 before the minor penalty card D5 (Law 50C; log line 2)")
    a, law = rule(BASE2, log("4,W,penalty-card,D5 minor"))
    assert law == [] and bound(a) == [(4, "W", "kept"), (5, "W", "kept")]
    assert a.replay.bindings[0].text == ("minor penalty card D5 (Law 50C; log line 2) lies face "
                                         "up: he played S3")


# --- a required lead (Laws 26, 50D2) ---------------------------------------------------------

def test_required_lead_not_made_wins_the_trick_64a1(log):
    """East must lead a spade at trick 2 and holds four; he cashes HK and wins the trick with
    it - no ruff needed.  64A1: the offender won the revoke trick: it moves, plus one more
    because E-W won trick 3 too.  Declarer 10 + 2 = 12, 3NT+3 (630 not vulnerable)."""
    a, law = rule(BASE2, log("2,E,lead-required,S"))
    assert law == [("RV001", "64A1", 2, "E", 2)]
    f = a.findings[0]
    assert f.message == (
        "trick 2: East (defender) did not lead a spade as required (Law 61A; log line 2) but led "
        "HK holding SQ SJ ST S9: East won the revoke trick and his side won a later one: 2 tricks "
        "transferred to North-South (64A1)")
    assert a.replay.revokes[0].kind == RESTRICTION
    assert a.ruling.tricks_adjusted == 12


def test_required_lead_from_the_auction_binds_his_first_lead(log):
    """Trick 0 (Law 26: a withdrawn call): the duty binds East's first lead, trick 2 (West made
    the opening lead).  The same revoke as above."""
    a, law = rule(BASE2, log("0,E,lead-required,S"))
    assert law == [("RV001", "64A1", 2, "E", 2)]


def test_required_lead_under_each_edition(log):
    """2007 and 1997: 64A1 as 2017: 12.  1932: the first revoke of E-W, two tricks from those
    they won from trick 2 on (2 and 3): 12.  Bridge-whist: three from any E-W trick: 13."""
    facts = log("2,E,lead-required,S")
    got = {e: rule(BASE2, facts, e)[0].ruling.tricks_adjusted
           for e in ("2007", "1997", "1932", "bridge-whist")}
    assert got == {"2007": 12, "1997": 12, "1932": 12, "bridge-whist": 13}


def test_required_lead_he_cannot_make_is_no_revoke(log):
    """East must lead a heart at trick 4, but he has played HA HK HQ: none left, so any lead
    is legal (Law 59).  No revoke; declarer 10."""
    a, law = rule(BASE2, log("4,E,lead-required,H"))
    assert law == [] and a.ruling.tricks_adjusted == 10
    assert a.replay.bindings[0].text == ("must lead a heart (Law 61A; log line 2): he has none, "
                                         "so he may lead any card (Law 59): no revoke")


# --- a forbidden lead, for as long as he keeps the lead ---------------------------------------

def test_forbidden_lead_lasts_while_he_keeps_the_lead(log):
    """Spades forbidden to East from trick 2.  He leads HK (allowed), wins, and still on lead
    leads SQ at trick 3: a revoke (61A3).  North wins trick 3; E-W win trick 4 later: 64A2,
    one trick: declarer 10 + 1 = 11."""
    a, law = rule(EAST_SPADE_AT_3, log("2,E,lead-forbidden,S"))
    assert law == [("RV001", "64A2", 3, "E", 1)]
    assert bound(a) == [(2, "E", "kept"), (3, "E", "broken")]
    assert a.ruling.tricks_adjusted == 11


def test_forbidden_lead_ends_when_he_loses_the_lead(log):
    """East leads HK (2), then D2 (3), which North wins: East has lost the lead and the
    prohibition ends.  Back on lead at trick 5 he may lead SQ.  No revoke."""
    a, law = rule(EAST_SPADE_AT_5, log("2,E,lead-forbidden,S"))
    assert law == [] and bound(a) == [(2, "E", "kept"), (3, "E", "kept")]


def test_forbidden_lead_under_the_older_codes(log):
    """1932: a revoke; E-W's first, two tricks from those they won from trick 3 on - only
    trick 4: one, all they had left: 11.  Bridge-whist (1907): leading a forbidden suit is no
    revoke: no penalty, 10."""
    facts = log("2,E,lead-forbidden,S")
    a, law = rule(EAST_SPADE_AT_3, facts, "1932")
    assert law == [("RV001", "1932 penalty", 3, "E", 1)] and a.ruling.tricks_adjusted == 11
    a, law = rule(EAST_SPADE_AT_3, facts, "bridge-whist")
    assert law == [("RV002", "1907 no revoke", 3, "E", 0)] and a.ruling.tricks_adjusted == 10


# --- highest or lowest card (Law 57A; the 1932 Code) -----------------------------------------

def test_play_lowest_not_obeyed_wins_the_trick(log):
    """East must play his lowest heart to trick 1, HQ; he plays HA and wins the trick with it.
    2017 64A1: two tricks (E-W won tricks 2 and 3): 12.  1932: two: 12.  Bridge-whist: 13."""
    facts = log("1,E,play-lowest,H")
    assert rule(BASE2, facts)[1] == [("RV001", "64A1", 1, "E", 2)]
    got = {e: rule(BASE2, facts, e)[0].ruling.tricks_adjusted for e in ("1932", "bridge-whist")}
    assert got == {"1932": 12, "bridge-whist": 13}


def test_play_highest_of_another_suit_than_the_lead_is_not_due(log):
    """West must play his highest heart to trick 4, but spades are led and he holds S543: he
    must follow suit first (Law 44C), so the heart is not a legal play: no revoke.  His highest
    spade, S5, is due there: he plays S3 - a revoke; North wins trick 4 and E-W win nothing
    later: 2017 64B1, no transfer; 1932 no penalty; bridge-whist three tricks (E-W hold 1-3)."""
    a, law = rule(BASE2, log("4,W,play-highest,H"))
    assert law == [] and bound(a) == [(4, "W", "unable")]
    facts = log("4,W,play-highest,S")
    assert rule(BASE2, facts)[1] == [("RV002", "64B1", 4, "W", 0)]
    assert rule(BASE2, facts, "1932")[0].ruling.tricks_adjusted == 10
    assert rule(BASE2, facts, "bridge-whist")[0].ruling.tricks_adjusted == 13


# --- rows that do not fit the board ----------------------------------------------------------

def test_penalty_card_never_held_or_of_declarer(log):
    """East never held S2 (North's); South is declarer; West played S3 to trick 4 before the
    log has it face up at trick 6: each row gets RC040 and is ignored."""
    a, law = rule(BASE2, log("2,E,penalty-card,S2 major", "2,S,penalty-card,S6 major",
                             "6,W,penalty-card,S3 minor"))
    assert law == [("RC040", "", None, "E", None), ("RC040", "", None, "S", None),
                   ("RC040", "", None, "W", None)]
    assert [f.message for f in a.findings] == [
        f"director's log {a.table_facts.log} line 2: East never held S2 on this board; the row "
        "(trick 2, East: penalty-card S2 major) is ignored",
        f"director's log {a.table_facts.log} line 3: South is declarer: only a defender's card "
        "can be a penalty card (Laws 48A, 50); the row (trick 2, South: penalty-card S6 major) "
        "is ignored",
        f"director's log {a.table_facts.log} line 4: West played S3 to trick 4, before trick 6 "
        "where the log has it face up; the row (trick 6, West: penalty-card S3 minor) is ignored"]
    assert [f.log_line for f in a.findings] == [2, 3, 4] and a.status == "inconsistent"


def test_a_card_that_fails_to_follow_is_one_revoke_not_two(log):
    """West must play his highest heart to trick 3, H7; he discards D5 (WEST_REVOKES_3: a failure
    to follow, 61A1).  One revoke, ruled as the failure to follow (64A2, one trick)."""
    a, law = rule(WEST_REVOKES_3, log("3,W,play-highest,H"))
    assert law == [("RV001", "64A2", 3, "W", 1)]
    assert bound(a) == [(3, "W", "broken")]
    assert a.replay.bindings[0].text.endswith("which is the revoke (Law 61A1)")


# --- discovered, per board -------------------------------------------------------------------

def test_discovered_per_board_overrides_the_option(tmp_path):
    """Boards 1 and 2 carry the same revoke (West, trick 3, East wins it: 64A2, one trick).
    The log says board 2 was found after the round: 64B5, no transfer, the finding names log
    line 2.  Board 1 follows --discovered: table -> one trick; after-round -> none, unless a
    row for board 1 says table."""
    one = board(D2, "3NT", "S", WEST_REVOKES_3)
    two = replace(one, board="2", line=40)
    path = tmp_path / "log.csv"
    path.write_text(HEADER + ",,2,,,,discovered,after-round\n")

    def run(discovered):
        return [[(f.code, f.law, f.transferred, f.log_line) for f in a.findings]
                for a in audit_records([one, two], AuditOptions(
                    "2017", discovered, table_facts=read_table_facts(path)))]
    assert run("table") == [[("RV001", "64A2", 1, None)], [("RV002", "64B5", 0, 2)]]
    assert run("after-round") == [[("RV002", "64B5", 0, None)], [("RV002", "64B5", 0, 2)]]
    path.write_text(HEADER + ",,2,,,,discovered,after-round\n,,1,,,,discovered,table\n")
    assert run("after-round") == [[("RV001", "64A2", 1, 3)], [("RV002", "64B5", 0, 2)]]


def test_discovered_rows_that_disagree(tmp_path):
    """Two rows for one board: the later applies and RC040 says so."""
    path = tmp_path / "log.csv"
    path.write_text(HEADER + ",,,,,,discovered,after-round\n,,1,,,,discovered,table\n")
    a = audit_board(board(D2, "3NT", "S", WEST_REVOKES_3),
                    AuditOptions(table_facts=read_table_facts(path)))
    assert [(f.code, f.transferred, f.log_line) for f in a.findings] == [
        ("RC040", None, 3), ("RV001", 1, 3)]
    assert "discovered table contradicts line 2 (after-round) for this board; line 3 applies" \
        in a.findings[0].message


# --- what each code says besides ------------------------------------------------------------

def test_a_lead_required_of_dummy(log):
    """North (dummy) must lead a club at trick 5 and leads DA.  2017: any revoke by dummy gets no
    automatic transfer (64B3).  1932: dummy's failure to follow is no revoke, but a lead
    required from dummy is declarer's duty: N-S's first revoke, two tricks from those they won
    from trick 5 on: 10 - 2 = 8.  Bridge-whist: "Dummy is not liable": no penalty."""
    facts = log("5,N,lead-required,C")
    assert rule(BASE2, facts)[1] == [("RV002", "64B3", 5, "N", 0)]
    a, law = rule(BASE2, facts, "1932")
    assert law == [("RV001", "1932 penalty", 5, "N", 2)] and a.ruling.tricks_adjusted == 8
    assert rule(BASE2, facts, "bridge-whist")[1] == [("RV002", "1907 dummy", 5, "N", 0)]


def test_a_duty_broken_on_trick_12(log):
    """D1 (4H by South), BASE1: before trick 12 East holds D9 C9; spades are led and he has
    none, so his lowest club, C9, is a legal play and due - he plays D9.  2017: 64B6, no
    automatic transfer.  1932: a 12th-trick revoke is never established: no penalty.
    Bridge-whist has no 12th-trick rule: three tricks, but E-W won none: no penalty."""
    facts = log("12,E,play-lowest,C")

    def run(laws):
        a = audit_board(board(D1, "4H", "S", BASE1), AuditOptions(laws, "table", table_facts=facts))
        return [(f.code, f.law, f.trick, f.transferred) for f in a.findings]
    assert run("2017") == [("RV002", "64B6", 12, 0)]
    assert run("1932") == [("RV003", "1932 12th trick", 12, 0)]
    assert run("bridge-whist") == [("RV002", "1907 penalty", 12, 0)]


def test_1932_a_duty_is_established_once_partner_plays_to_it(log):
    """The record stops inside trick 2, after East's HK (a spade was required) and West's H5.
    2017: not established (no card of the next trick): RV004.  1932: a revoke "made in execution
    of a penalty requirement becomes established as soon as the offender's partner has played
    to the revoking card": established.  North has only H4 H3 left and must follow: East's HK
    wins trick 2 whatever he plays, so the cards settle that E-W won a trick from the revoke on
    (issue 32: an unfinished trick's winner when every legal completion gives it), and the 1932
    penalty of two tricks is capped by the one trick they won from it on: 1 trick."""
    play = BASE2[:1] + ["E:HK S:HT W:H5"]
    facts = log("2,E,lead-required,S")
    assert rule(play, facts)[1] == [("RV004", "63A", 2, "E", 0)]
    a, law = rule(play, facts, "1932")
    assert law == [("RV001", "1932 penalty", 2, "E", 1)]
    assert a.findings[0].established is True


def test_nothing_is_checked_on_a_record_that_is_not_the_play_of_its_deal(log):
    """The deal's hands moved one seat: the play cannot be this deal's (RC016): no duty is
    checked and the log's rows get no finding of their own."""
    moved = "E:" + D2[2:]
    a = audit_board(board(moved, "3NT", "S", BASE2), AuditOptions(table_facts=log(
        "2,E,lead-required,S", "2,E,penalty-card,S2 major")))
    assert [f.code for f in a.findings] == ["RC016"] and a.replay.bindings == []


def test_a_producer_that_marks_revokes_is_not_asked_to_mark_the_logs(log):
    """West's failure to follow on trick 3 is marked ^R; East's broken lead requirement at trick
    2 is unmarked - no RC031 for it (the producer marks the play, not the log's duties).
    East won trick 2 and E-W trick 3: 64A1 takes both; nothing is left for West's (64B1)."""
    play = BASE2[:2] + ["E:HQ S:HJ W:^RD5 N:H4"] + WEST_REVOKES_3[3:]
    a, law = rule(play, log("2,E,lead-required,S"))
    assert law == [("RV001", "64A1", 2, "E", 2), ("RV002", "64B1", 3, "W", 0)]
    assert "RC031" not in [f.code for f in a.findings]
