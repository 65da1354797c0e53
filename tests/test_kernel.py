"""The lane's C accelerator gives exactly what its Python twins give (``lane/kernel.py``), on
generated deals and plays and on every kind of change to them: other whitespace (Unicode
too), ``*``, lower case, ``10``, short, long, repeated and foreign tokens, cards moved between
hands.  Skipped where the extension was not built (no compiler); the lane then runs on the
twins, which the lane's own tests cover, as does ``test_the_lane_gives_the_same_rows_both_ways``
here."""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings, strategies as st

from revoke_audit.core.cards import RANKS, SEATS, SUITS
from revoke_audit.engine.lane import kernel

C = kernel._kernel
needs_c = pytest.mark.skipif(C is None, reason="the C accelerator was not built here")

SPACES = [" ", "  ", "\t", "\n", "\r\n", "\x0b", "\x0c", "\x1c", "\x1f", "\xa0", "\u2003",
          "\u3000", "\x85"]
JUNK = ["s", "h", "10", "S", "*", "-", "SX", "S10", "SAK", "\u00e9", "S\u00c1", "Sa", "\x00",
        ".", ":", "N:", "S2"]


def random_deal(rnd: random.Random) -> list[list[int]]:
    cards = list(range(52))
    rnd.shuffle(cards)
    return [sorted(cards[13 * i:13 * i + 13]) for i in range(4)]


def deal_text(hands: list[list[int]], first: int) -> str:
    def hand(cards: list[int]) -> str:
        return ".".join("".join(RANKS[c % 13] for c in sorted(cards, reverse=True)
                                if c // 13 == s) for s in range(4))
    return SEATS[first] + ":" + " ".join(hand(hands[(first + i) % 4]) for i in range(4))


def random_play(rnd: random.Random, hands: list[list[int]], leader: int, trump: int | None,
                follow: float) -> list[str]:
    """Tokens in seat columns from ``leader``: each player follows suit with probability
    ``follow`` when he can (else any card: a revoke), the winner leads the next trick."""
    held = [list(h) for h in hands]
    seat, columns = leader, []
    for _ in range(13):
        trick, led = [], None
        for step in range(4):
            s = (seat + step) % 4
            same = [c for c in held[s] if led is not None and c // 13 == led]
            card = rnd.choice(same if same and rnd.random() < follow else held[s])
            held[s].remove(card)
            led = card // 13 if led is None else led
            trick.append((s, card))
        def power(c):
            return (2 if c // 13 == trump else 1 if c // 13 == led else 0, c % 13)
        seat = max(trick, key=lambda sc: power(sc[1]))[0]
        by_seat = dict(trick)
        columns += [SUITS[by_seat[(leader + i) % 4] // 13] + RANKS[by_seat[(leader + i) % 4] % 13]
                    for i in range(4)]
    return columns


def changed(rnd: random.Random, tokens: list[str], text_joiner: str) -> str:
    """The tokens with a few random changes, joined by whitespace of several kinds."""
    tokens = list(tokens)
    for _ in range(rnd.choice([0, 0, 1, 2, 3])):
        kind = rnd.randrange(7)
        k = rnd.randrange(len(tokens)) if tokens else 0
        if kind == 0 and tokens:
            tokens[k] = rnd.choice(JUNK)
        elif kind == 1:
            del tokens[k:k + rnd.choice([1, 4, 20])]
        elif kind == 2:
            tokens += rnd.choice([["*"], ["*", "*"], ["SA"], ["SA", "HK", "D2", "C3"]])
        elif kind == 3 and tokens:
            tokens.insert(k, tokens[rnd.randrange(len(tokens))])
        elif kind == 4 and len(tokens) > 1:
            j = rnd.randrange(len(tokens))
            tokens[k], tokens[j] = tokens[j], tokens[k]
        elif kind == 5:
            tokens.insert(k, "*")
        else:  # stopped after a whole trick (a claim), with or without its "*"
            tokens = tokens[:4 * rnd.randrange(1, 13)] + rnd.choice([[], ["*"]])
    return "".join(t + (text_joiner if rnd.random() < 0.8 else rnd.choice(SPACES))
                   for t in tokens)


@needs_c
@settings(max_examples=400, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from([None, 0, 1, 2, 3]), st.integers(0, 3),
       st.sampled_from([1.0, 0.97, 0.5]), st.sampled_from(SPACES[:6]))
def test_the_replay_gives_the_twins_answer(seed, trump, leader, follow, joiner):
    rnd = random.Random(seed)
    hands = random_deal(rnd)
    masks = tuple(sum(1 << c for c in h) for h in hands)
    play = changed(rnd, random_play(rnd, hands, leader, trump, follow), joiner)
    side = rnd.randrange(2)
    want = kernel.py_column_tricks(masks, play, leader, trump, side)
    assert C.column_tricks(masks, play, leader, trump, side) == want


@needs_c
def test_the_replay_sees_a_revoke_and_counts_tricks():
    """Hand-checked: North holds the four aces and S2-ST, East the hearts but the ace and the
    S J, South the diamonds and the S Q, West the clubs and the S K.  In no trump North leads
    the S A (all follow), then the other aces (the rest discard): North-South win all four
    tricks.  East's S J on the H A while he holds hearts stops the replay (a revoke, Law 61A:
    the full audit rules it)."""
    hands = [[12, 25, 38, 51] + list(range(0, 9)), list(range(13, 25)) + [9],
             list(range(26, 38)) + [10], list(range(39, 51)) + [11]]
    masks = tuple(sum(1 << c for c in h) for h in hands)
    four = "SA SJ SQ SK HA H2 D2 C2 DA H3 D3 C3 CA H4 D4 C4"  # columns N E S W
    for replay in (C.column_tricks, kernel.py_column_tricks):
        assert replay(masks, four, 0, None, 0) == (4, 4)
        assert replay(masks, four, 0, None, 1) == (0, 4)
        assert replay(masks, "HA SJ D2 C2", 0, None, 0) is None
        # with spades trumps, the S J ruffs the D A: East-West win that trick
        assert replay(masks, "DA SJ D2 C2", 0, 0, 0) == (0, 1)


@needs_c
@settings(max_examples=400, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 3))
def test_a_deal_gives_the_twins_hands(seed, first):
    rnd = random.Random(seed)
    hands = random_deal(rnd)
    text = deal_text(hands, first)
    for _ in range(rnd.choice([0, 0, 1, 2])):
        k = rnd.randrange(len(text) + 1)
        change = rnd.choice([rnd.choice(JUNK), rnd.choice(SPACES), "", text[k:k + 1].lower()])
        text = text[:k] + change + text[k + rnd.choice([0, 1, 2]):]
    assert C.deal(text) == kernel.py_deal(text)


@needs_c
@pytest.mark.parametrize("text", [
    "N:AKQ.JT9.876.5432 5432.AKQ.JT9.876 876.5432.AKQ.JT9 JT9.876.5432.AKQ",
    "E:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432",
    "N:AKQ.JT9.876.5432 5432.AKQ.JT9.876 876.5432.AKQ.JT9 JT9.876.5432.AKQ\n",
    "N:AKQ.JT9.876.5432  5432.AKQ.JT9.876 876.5432.AKQ.JT9 JT9.876.5432.AKQ",
    "N:AKQ.JT9.876.5432 5432.AKQ.JT9.876 876.5432.AKQ.JT9 JT9.876.5432.AK",
    "N:KAQ.JT9.876.5432 5432.AKQ.JT9.876 876.5432.AKQ.JT9 JT9.876.5432.AKQ",
    "N:AKQ.JT9.876.5432 5432.AKQ.JT9.876 876.5432.AKQ.JT9 JT9.876.5432.AKQ.",
    "N:AKQ.JT9.876.5432 5432.AKQ.JT9.876 876.5432.AKQ.JT9",
    "X:AKQ.JT9.876.5432 5432.AKQ.JT9.876 876.5432.AKQ.JT9 JT9.876.5432.AKQ",
    "N:AKQ.JT9.876.5432 5432.AKQ.JT9.876 876.5432.AKQ.JT9 JT9.876.5432.AKQ ",
    "N:AKQ.JT9.876.5432 5432.AKQ.JT9.876 876.5432.AKQ.JT9 JT9.876.5432.AKQ N",
    "N:AKQ.JT9.876.5432 - - -", "", "N", "N:", "\x00:", "N:\u00e9",
    "N:AKQ.JT9.876.5432 AKQ.JT9.876.5432 876.5432.AKQ.JT9 JT9.876.5432.AKQ",
])
def test_deals_written_otherwise_give_the_twins_answer(text):
    assert C.deal(text) == kernel.py_deal(text)


@pytest.mark.parametrize("compiled", [False, True])
def test_the_lane_gives_the_same_rows_both_ways(compiled, monkeypatch):
    """The lane's rows are the full audit's with the twins and with C (when built)."""
    from test_lane import assert_same, clean_file, taken

    if compiled and C is None:
        pytest.skip("the C accelerator was not built here")
    before = kernel.column_tricks is not kernel.py_column_tricks
    try:
        assert kernel.use(compiled) == compiled
        got = taken(monkeypatch)
        assert_same(clean_file(11, games=40), monkeypatch)
        assert len(got) >= 10
    finally:
        kernel.use(before)


def test_a_build_older_than_the_code_is_not_used():
    """An editable install not rebuilt after ``_speedups.c`` gained a function would fail at
    the first call of it: such a module counts as not built (the Python twins run)."""
    from types import ModuleType

    from revoke_audit.core import speedups

    stale = ModuleType("_speedups")
    for name in speedups.FUNCTIONS[:-1]:
        setattr(stale, name, len)
    assert speedups.complete(stale) is None and speedups.complete(None) is None
    setattr(stale, speedups.FUNCTIONS[-1], len)
    assert speedups.complete(stale) is stale


@needs_c
def test_every_compiled_function_is_listed():
    from revoke_audit.core import speedups

    public = {name for name in dir(speedups.compiled) if not name.startswith("_")}
    assert public == set(speedups.FUNCTIONS)


ALPHABET = b'[]\n\r\t {}%#EventBoardDeal"NESW:.AKQJT98765432SHDC|pnmdqxvgrsmbpcmc,x\x00\x7f\xe9'


@needs_c
@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(list(ALPHABET)), max_size=200).map(bytes),
       st.tuples(*[st.integers(0, 2**52 - 1)] * 4), st.integers(0, 3),
       st.sampled_from([None, 0, 1, 2, 3]), st.integers(0, 1))
def test_every_compiled_function_gives_its_twins_answer_on_any_bytes(data, hands, leader,
                                                                     trump, side):
    """Bytes from the characters the formats care about, in any order: every C function
    answers as its twin (and none crashes)."""
    from revoke_audit.formats import parts, scans

    kind, first, starts = parts._games(data)
    for at in (0, first, len(data) // 2):
        assert C.blank_runs(data, at) == scans.blank_runs(data, at)
        assert C.plain_bytes(data, at) == scans.plain_bytes(data, at)
        assert C.ascii_from(data, at) == scans.ascii_from(data, at)
        for end in (at, len(data) // 3, len(data), 10**9):
            assert C.newlines(data, at, end) == scans.newlines(data, at, end)
    assert C.lin_splits(data) == scans.lin_splits(data)
    if kind == "pbn" and starts:
        assert C.one_game_each(data, first, starts) == scans.one_game_each(data, first, starts)
    text = data.decode("latin-1")
    assert C.deal(text) == kernel.py_deal(text)
    assert C.lin_deal(text) in (None, kernel.py_lin_deal(text))
    assert (C.column_tricks(hands, text, leader, trump, side)
            == kernel.py_column_tricks(hands, text, leader, trump, side))


def time_play(rnd: random.Random, hands: list[list[int]], leader: int, trump: int | None,
              follow: float) -> list[int]:
    """Cards in the order played (LIN): each player follows suit with probability ``follow``
    when he can (else any card: a revoke), the winner of a trick leads the next."""
    held = [list(h) for h in hands]
    seat, cards = leader, []
    for _ in range(13):
        trick = []
        for step in range(4):
            s = (seat + step) % 4
            same = [c for c in held[s] if trick and c // 13 == trick[0][1] // 13]
            card = rnd.choice(same if same and rnd.random() < follow else held[s])
            held[s].remove(card)
            trick.append((s, card))
        led = trick[0][1] // 13
        seat = max(trick, key=lambda sc: (2 if sc[1] // 13 == trump else 1 if sc[1] // 13 == led
                                          else 0, sc[1] % 13))[0]
        cards += [c for _, c in trick]
    return cards


@needs_c
@settings(max_examples=400, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from([None, 0, 1, 2, 3]), st.integers(0, 3),
       st.sampled_from([1.0, 0.97, 0.5]))
def test_the_replay_in_time_order_gives_the_twins_answer(seed, trump, leader, follow):
    """The LIN lane's replay: whole and short plays (a last trick begun), a card moved out of
    its place or replaced by one another player holds, and the hands left as they were."""
    rnd = random.Random(seed)
    hands = random_deal(rnd)
    masks = tuple(sum(1 << c for c in h) for h in hands)
    cards = time_play(rnd, hands, leader, trump, follow)
    kind = rnd.randrange(4)
    if kind == 1:
        cards = cards[:rnd.randrange(0, 53)]
    elif kind == 2:
        i, j = rnd.randrange(52), rnd.randrange(52)
        cards[i], cards[j] = cards[j], cards[i]
    elif kind == 3:
        cards[rnd.randrange(52)] = rnd.randrange(52)
    side = rnd.randrange(2)
    want = kernel.py_time_tricks(masks, cards, leader, trump, side)
    assert C.time_tricks(masks, list(cards), leader, trump, side) == want


@needs_c
def test_the_replay_in_time_order_counts_tricks_and_sees_a_revoke():
    """The hands of ``test_the_replay_sees_a_revoke_and_counts_tricks``, the same four tricks in
    the order played: North's S A (all follow), then his H A, D A and C A, the others
    discarding (North-South 4 of 4); a short fifth trick begun counts no trick; East's S J on
    the H A while he holds hearts stops the replay (Law 61A)."""
    hands = [[12, 25, 38, 51] + list(range(0, 9)), list(range(13, 25)) + [9],
             list(range(26, 38)) + [10], list(range(39, 51)) + [11]]
    masks = tuple(sum(1 << c for c in h) for h in hands)
    # N:SA E:SJ S:SQ W:SK, N:HA E:H2 S:D2 W:C2, N:DA E:H3 S:D3 W:C3, N:CA E:H4 S:D4 W:C4
    four = [12, 9, 10, 11, 25, 13, 26, 39, 38, 14, 27, 40, 51, 15, 28, 41]
    for replay in (C.time_tricks, kernel.py_time_tricks):
        assert replay(masks, four, 0, None, 0) == (4, 4)
        assert replay(masks, four, 0, None, 1) == (0, 4)
        assert replay(masks, four + [0], 0, None, 0) == (4, 4)  # North leads S2: trick 5 begun
        assert replay(masks, [25, 9, 26, 39], 0, None, 0) is None  # H A, East's S J: a revoke
    assert masks == tuple(sum(1 << c for c in h) for h in hands)  # the hands left as they were


def md_text(hands: list[list[int]], dealer_digit: str, rnd: random.Random) -> str:
    """A LIN md value: the dealer digit, then South, West, North and East, each suit's ranks in
    any order; East left out now and then (the reader gives it the rest of the deck)."""
    def hand(cards: list[int]) -> str:
        out = ""
        for s in range(4):
            ranks = [RANKS[c % 13] for c in cards if c // 13 == s]
            rnd.shuffle(ranks)
            out += SUITS[s] + "".join(ranks)
        return out
    south, west, north, east = (hand(hands[s]) for s in (2, 3, 0, 1))
    last = rnd.choice([east, east, "", None])
    return dealer_digit + ",".join([south, west, north] + ([] if last is None else [last]))


MD_JUNK = ["s", "h", "10", "S", "H", ",", ",,", " ", "SA", "HA", "x", "\u00e9", "\x00", "0", "5",
           "1"]


@needs_c
@settings(max_examples=500, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from("12345x"))
def test_an_md_gives_the_twins_dealer_and_hands(seed, digit):
    """The C reading of an md written the usual way is the reader's; any other it leaves to
    the twin (None), which files its problems: never a different answer."""
    rnd = random.Random(seed)
    text = written = md_text(random_deal(rnd), digit, rnd)
    for _ in range(rnd.choice([0, 0, 1, 2])):
        k = rnd.randrange(len(text) + 1)
        change = rnd.choice([rnd.choice(MD_JUNK), text[k:k + 1].lower(), ""])
        text = text[:k] + change + text[k + rnd.choice([0, 1, 2]):]
    want = kernel.py_lin_deal(text)
    got = C.lin_deal(text)
    assert got == want or got is None
    if text == written and digit in "1234":
        assert got == want and got is not None  # the usual way: C reads it itself


@needs_c
@pytest.mark.parametrize("text", [
    "3SAKQJT98765432HDC,SHAKQJT98765432DC,SHDAKQJT98765432C,SHDCAKQJT98765432",
    "3SAKQJT98765432HDC,SHAKQJT98765432DC,SHDAKQJT98765432C,",
    "3SAKQJT98765432HDC,SHAKQJT98765432DC,SHDAKQJT98765432C",
    "3SAKQJT98765432HDC,SHAKQJT98765432DC,,SHDCAKQJT98765432",
    "3SAKQJT98765432HDC,,,SHDCAKQJT98765432",
    "3SAKQJT98765432HDC,SHAKQJT98765432DC,SHDAKQJT98765432C,SHDCAKQJT9876543",
    "3SAKQJT98765432HDC,SHAKQJT98765432DC,SHDAKQJT98765432C,SHDCAKQJT98765432,",
    "3SAKQJT98765432HDC,SHAKQJT98765432DC,SHDAKQJT98765432C,SHDCAKQJT98765432,x",
    "3SAKQJT9876543HDC2,SHAKQJT98765432DC,SHDAKQJT98765432C,",
    "3HSAKQJT98765432DC,SHAKQJT98765432DC,SHDAKQJT98765432C,",
    "3SAAKQJT9876543HDC,SHAKQJT98765432DC,SHDAKQJT98765432C,",
    "3SAKQJT98765432HDC,SAHKQJT98765432DC,SHDAKQJT98765432C,",
    "0SAKQJT98765432HDC,SHAKQJT98765432DC,SHDAKQJT98765432C,", "", "3", "3,,,", "3SHDC",
    " 3SAKQJT98765432HDC,SHAKQJT98765432DC,SHDAKQJT98765432C,",
])
def test_mds_written_otherwise_give_the_twins_answer(text):
    got = C.lin_deal(text)
    assert got is None or got == kernel.py_lin_deal(text)
    assert kernel._c_lin_deal(text) == kernel.py_lin_deal(text)


LIN_JUNK = ["|", "||", "pc", "|pc|", "|pc||", "|mb|", "10", "S10", "s1", "1", "0", "x", "SX",
            "\u00e9", "\u017f", "\x00", "S", "h", "mc|", "|pc|S", "sA", "Ha", "\u0130"]


def lin_cards_text(rnd: random.Random) -> str:
    """A LIN line's tail: calls, ``pg`` and 0-52 cards as ``pc`` values (either case, ``10``
    now and then), perhaps a claim."""
    cards = rnd.sample(range(52), rnd.randint(0, 52))
    text = "|mb|1S|mb|p|mb|p|mb|p|pg|"
    for i, c in enumerate(cards):
        rank = RANKS[c % 13]
        rank = "10" if rank == "T" and rnd.random() < 0.3 else rank
        card = SUITS[c // 13] + rank
        text += "|pc|" + (card.lower() if rnd.random() < 0.1 else card)
        if i % 4 == 3:
            text += "|pg|"
    return text + rnd.choice(["|", "|mc|9|", ""])


@needs_c
@settings(max_examples=500, deadline=None)
@given(st.integers(0, 2**32))
def test_a_lines_cards_are_the_twins(seed):
    """``lin_cards`` finds the ``pc`` values as the twin's ``re.findall`` does and reads each
    as ``CARD_OF``, on written tails and on tails changed anywhere (junk in, text cut out)."""
    rnd = random.Random(seed)
    text = written = lin_cards_text(rnd)
    for _ in range(rnd.choice([0, 0, 1, 2, 3])):
        k = rnd.randrange(len(text) + 1)
        text = text[:k] + rnd.choice(LIN_JUNK + [""]) + text[k + rnd.choice([0, 1, 2]):]
    want = kernel.py_lin_cards(text)
    assert C.lin_cards(text) == want
    if text == written:
        assert want is not None and len(want) == written.count("|pc|")


@needs_c
@pytest.mark.parametrize("text, cards", [
    ("", []), ("|pc|SA|pc|h10|pc|dK|", [12, 21, 37]), ("||pc|c2||pc|CT|", [39, 47]),
    ("|pc|", None), ("|pc|pc|SA|", None), ("|pc|S1|", None), ("|pc|SA\u00e9|pc|H2", None),
    ("|pc|\u017fA|", None), ("pc|SA|", []), ("|pc|SA|pc", [12]),
])
def test_lin_cards_of_hand_picked_tails(text, cards):
    """SA is card 12 (spades first, ranks 2..A), H10 13 + 8; a value that is no card (empty,
    ``pc`` itself when a key was taken for a value, a long s) makes the whole answer None."""
    assert kernel.py_lin_cards(text) == cards
    assert C.lin_cards(text) == cards
