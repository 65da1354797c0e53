"""The replay's fast path for plain plays (``order_fast``) gives the same replay as ``order``
alone, on every corpus and archive board, the fixtures and generated plays; and it is taken."""
from __future__ import annotations

import importlib
import random
from pathlib import Path

import pytest

from revoke_audit.replay import fast as order_fast
from revoke_audit.core.cards import SUIT_MASKS, cards_in, trick_winner
from revoke_audit.formats import read_boards
from revoke_audit.core.record import BoardRecord, Play
from revoke_audit.replay import replay

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
replay_module = importlib.import_module("revoke_audit.replay")  # the package exports a function of that name


def assert_same(records, monkeypatch) -> int:
    """Each record replayed with and without the fast path; returns how many took it."""
    taken = []

    def counted(r, plays):
        done = order_fast.replay_plain(r, plays)
        taken.append(done)
        return done

    monkeypatch.setattr(replay_module, "replay_plain", counted)
    for record in records:  # (the deals of neighbouring boards only name repairs: left out)
        monkeypatch.setattr(order_fast, "ENABLED", False)
        slow = replay(record)
        monkeypatch.setattr(order_fast, "ENABLED", True)
        fast = replay(record)
        assert fast == slow, f"{record.source}:{record.line} replays differently"
    return sum(taken)


# --- generated plays ------------------------------------------------------------------------------

def random_record(rnd: random.Random, lin: bool) -> BoardRecord:
    """A random deal and a legal play of some tricks (a revoke now and then), in time order,
    with one thing that is not plain one time in three."""
    deck = list(range(52))
    rnd.shuffle(deck)
    hands = tuple(sum(1 << c for c in deck[i * 13:(i + 1) * 13]) for i in range(4))
    declarer, strain = rnd.randrange(4), rnd.randrange(5)
    trump = None if strain == 4 else strain
    leader, left, plays = (declarer + 1) % 4, list(hands), []
    for number in range(1, rnd.choice([14, 14, rnd.randint(2, 13)])):
        cards = []
        for i in range(rnd.choice([4, 4, 4, 4, rnd.randint(1, 4)]) if number > 1 else 4):
            seat = (leader + i) % 4
            legal = left[seat]
            if cards and legal & SUIT_MASKS[cards[0] // 13] and rnd.random() > 0.05:
                legal &= SUIT_MASKS[cards[0] // 13]
            card = rnd.choice(list(cards_in(legal)))
            left[seat] &= ~(1 << card)
            cards.append(card)
            plays.append(Play(seat, card, (), 10 + number, None if lin else number))
        if len(cards) < 4:
            break
        leader = trick_winner(leader, cards, trump)
    plays = _spoil(rnd, plays) if rnd.random() < 0.35 else plays
    contract = f"{rnd.randint(1, 7)}{('S', 'H', 'D', 'C', 'NT')[strain]}"
    return BoardRecord(source="gen", line=1, game=1, format="lin" if lin else "pbn", hands=hands,
                       contract_stated=contract, declarer_stated=declarer,
                       play_leader=None if lin else plays[0].seat, play=tuple(plays),
                       vul="None", dealer=0)


def _spoil(rnd: random.Random, plays: list[Play]) -> list[Play]:
    """One thing a plain play has not: an unknown, marked, missing, doubled or swapped card,
    a wrong seat or trick number."""
    k = rnd.randrange(len(plays))
    p = plays[k]
    how = rnd.randrange(7)
    if how == 0:
        plays[k] = p._replace(card=None)
    elif how == 1:
        plays[k] = p._replace(marks=(rnd.choice("RL"),))
    elif how == 2:
        del plays[k]
    elif how == 3:
        plays.insert(k, p)
    elif how == 4 and k:
        plays[k - 1], plays[k] = plays[k], plays[k - 1]
    elif how == 5:
        plays[k] = p._replace(seat=(p.seat + 1) % 4)
    elif p.trick is not None:
        plays[k] = p._replace(trick=p.trick + 1)
    return plays or [p]


@pytest.mark.parametrize("lin", [False, True])
def test_generated_plays_replay_the_same(lin, monkeypatch):
    rnd = random.Random(7 + lin)
    records = [random_record(rnd, lin) for _ in range(600)]
    taken = assert_same(records, monkeypatch)
    assert 150 < taken < 600  # both paths are exercised


def test_fixtures_replay_the_same(monkeypatch):
    records = list(read_boards([ROOT / "fixtures"]))
    assert len(records) > 20
    assert assert_same(records, monkeypatch) > 5


def test_plain_plays_take_the_fast_path(monkeypatch):
    """A plain play never reaches ``order``'s replays."""
    monkeypatch.setattr(replay_module, "replay_grouped", lambda *a: pytest.fail("replay_grouped"))
    monkeypatch.setattr(replay_module, "replay_sequence", lambda *a: pytest.fail("replay_sequence"))
    rnd = random.Random(3)
    for lin in (False, True):
        record = random_record(rnd, lin)
        while len(record.play) != 52 or any(p.marks for p in record.play):
            record = random_record(rnd, lin)
        assert len(replay(record).complete_tricks) == 13


@pytest.mark.parametrize("folder", ["corpus", "archive"])
def test_real_boards_replay_the_same(folder, monkeypatch):
    if not (SHARED / folder).is_dir():
        pytest.skip(f"shared {folder} not present")
    assert assert_same(read_boards([SHARED / folder]), monkeypatch) > 10000
