"""The PBN reader's fast path (``pbn_fast``, ``pbn_lookup``) gives the same records as the
lenient reader alone, on every corpus game, the fixtures and generated files; and it is taken
for plain games."""
from __future__ import annotations

import csv
import io
import random
from pathlib import Path

import pytest

from revoke_audit.core.cards import SEATS, SUIT_MASKS, cards_in, card_str, deal_str, trick_winner
from revoke_audit.formats.pbn import build as pbn_build, lookup as pbn_lookup
from revoke_audit.formats.pbn import read_pbn
from revoke_audit.formats.pbn.lexer import Lexer

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus"


def read(data: bytes, fast: bool, monkeypatch) -> list:
    monkeypatch.setattr(pbn_lookup, "ENABLED", fast)
    return list(read_pbn(io.BytesIO(data), "x.pbn"))


def assert_same(data: bytes, monkeypatch, where: str = "") -> int:
    """Both ways, record by record; returns the number of records."""
    slow, fast = read(data, False, monkeypatch), read(data, True, monkeypatch)
    assert len(fast) == len(slow), where
    for a, b in zip(slow, fast):
        assert a == b, f"{where}: game {a.game} (line {a.line}) differs"
    return len(slow)


# --- generated games ------------------------------------------------------------------------------

def plain_game(rnd: random.Random, number: int) -> str:
    """A plain game: tags one per line, an auction, a random legal play of 1..13 tricks with
    ``*`` when it stops early (a revoke now and then)."""
    hands = list(range(52))
    rnd.shuffle(hands)
    masks = [sum(1 << c for c in hands[i * 13:(i + 1) * 13]) for i in range(4)]
    declarer, strain = rnd.randrange(4), rnd.randrange(5)
    trump = None if strain == 4 else strain
    contract = f"{rnd.randint(1, 7)}{('S', 'H', 'D', 'C', 'NT')[strain]}"
    first = (declarer + 1) % 4
    tricks = rnd.choice([13, 13, 13, rnd.randint(0, 12)])
    lines, leader, left = [], first, list(masks)
    for _ in range(tricks):
        cards = []
        for i in range(4):
            seat = (leader + i) % 4
            legal = left[seat]
            if cards and legal & SUIT_MASKS[cards[0] // 13] and rnd.random() > 0.02:
                legal &= SUIT_MASKS[cards[0] // 13]
            card = rnd.choice(list(cards_in(legal)))
            left[seat] &= ~(1 << card)
            cards.append(card)
        by_seat = {(leader + i) % 4: c for i, c in enumerate(cards)}
        lines.append(" ".join(card_str(by_seat[(first + i) % 4]) for i in range(4)))
        leader = trick_winner(leader, cards, trump)
    if tricks < 13:
        lines.append("*")
    calls = ["Pass"] * rnd.randrange(4) + [contract, "Pass", "Pass", "Pass"]
    return "\n".join([
        '[Event "gen"]', f'[Board "{number}"]', f'[Dealer "{SEATS[rnd.randrange(4)]}"]',
        f'[Vulnerable "{rnd.choice(["None", "NS", "EW", "All"])}"]',
        f'[Deal "{deal_str(tuple(masks), rnd.randrange(4))}"]',
        f'[Declarer "{SEATS[declarer]}"]', f'[Contract "{contract}"]',
        f'[Result "{rnd.randint(0, 13)}"]', f'[Auction "{SEATS[rnd.randrange(4)]}"]',
        " ".join(calls), f'[Play "{SEATS[first]}"]', *lines]) + "\n"


def unknown_card(text: str, k: int = 17) -> str:
    """The play with its k-th card (or the last) written ``-``: the winners after it are
    unknown."""
    head, _, play = text.partition('[Play "')
    tokens = play.split(" ")
    k = min(k, len(tokens) - 2)
    if k > 0 and len(tokens[k]) == 2:
        tokens[k] = "-"
    return head + '[Play "' + " ".join(tokens)


# what makes a game not plain, one at a time (each must read the same both ways)
MUTATIONS = [
    lambda t: t.replace("[Event", "{a comment}\n[Event", 1),
    lambda t: t.replace('[Board "', '[Board "#', 1) if "#" not in t else t,
    lambda t: t.replace('[Event "gen"]', '[Event "#"]'),
    lambda t: t.replace('[Event "gen"]', '[Event "##gen"]'),
    lambda t: t.replace('[Event "gen"]', r'[Event "g\"e\"n"]'),
    lambda t: t.replace('[Event "gen"]\n', '[Event "gen"] [Site "x"]\n'),
    lambda t: t.replace('[Event "gen"]', '[Event gen]'),
    lambda t: t.replace("\n", "\r\n"),
    lambda t: t.replace("\n[Play", "\n  \n[Play", 1),
    lambda t: t.replace("\n[Play", "\n; a note\n[Play", 1),
    lambda t: t.replace("\n[Play", "\n%directive\n[Play", 1),
    lambda t: t.replace("\n[Play", "\nnot a call\n[Play", 1),
    lambda t: t.replace('[Event "gen"]\n', '[Event "gen"]\nstray text\n', 1),
    lambda t: t.replace("\n[Play", '\n[Event "again"]\n[Play', 1),
    lambda t: t.replace("\n[Play", '\n[Board "99"]\n[Play', 1),
    lambda t: t.replace('[Deal "', '[Deal "', 1).replace(" ", "  ", 1),
    lambda t: t.replace("[Deal", "[Deal", 1).replace("A", "a", 1),
    lambda t: t.replace("S", "s", 3),
    lambda t: t.replace("Result", "Note"),
    lambda t: t.replace("H", "^RH", 1),
    lambda t: t.rsplit("\n", 3)[0] + "\n- - - -\n*\n",
    lambda t: t + "SA SK\n",
    lambda t: t.replace('[Play "', '[Play "^', 1),
    lambda t: t.replace('[Contract "', '[Contract "Q', 1),
    lambda t: t.replace("[Declarer", "[Declarer", 1).replace('[Declarer "', '[Declarer "^', 1),
    lambda t: t.replace("[Deal", "[OptimumResultTable \"x\"]\nNS S 3\nEW H 4\n[Deal", 1),
    lambda t: t.replace("T", "10", 2),
    lambda t: t.replace("[Deal", '[Deal "N:- - - -"]\n[X', 1),
    lambda t: t.replace("\n[Play", '\n[Note "1:x"]\n[Play', 1),
    unknown_card,
    lambda t: unknown_card(t, 2),
    lambda t: unknown_card(unknown_card(t, 30), 5),
]


def generated_file(seed: int, games: int = 60, mutate: float = 0.3, glue: float = 0.05) -> bytes:
    rnd = random.Random(seed)
    out = ["% PBN 2.1\n% EXPORT\n"]
    for n in range(1, games + 1):
        text = plain_game(rnd, n)
        if rnd.random() < mutate:
            text = rnd.choice(MUTATIONS)(text)
        if rnd.random() < glue:  # no blank line before the next game
            out[-1] = out[-1].rstrip("\n") + "\n"
            out.append(text)
            continue
        out.append("\n" + text)
    return "".join(out).encode("utf-8")


@pytest.mark.parametrize("seed", range(12))
def test_generated_files_read_the_same_both_ways(seed, monkeypatch):
    assert assert_same(generated_file(seed), monkeypatch, f"seed {seed}") > 0


@pytest.mark.parametrize("n", range(len(MUTATIONS)))
def test_each_unusual_game_reads_the_same(n, monkeypatch):
    rnd = random.Random(n)
    games = [plain_game(rnd, i) for i in range(1, 5)]
    games[1] = MUTATIONS[n](games[1])
    assert_same("\n".join(games).encode(), monkeypatch, f"mutation {n}")


def test_fixtures_read_the_same_both_ways(monkeypatch):
    files = sorted((ROOT / "fixtures").rglob("*.pbn"))
    assert files
    for path in files:
        assert_same(path.read_bytes(), monkeypatch, str(path))


def test_declared_charsets_read_the_same(monkeypatch):
    game = plain_game(random.Random(5), 1).replace('"gen"', '"Müller"')
    for charset, encoding in (("ISO-8859-1", "latin-1"), ("UTF-8", "utf-8"), ("UTF-16", "utf-8"),
                              ("UTF-8", "cp1252"), ("nonsense", "utf-8")):
        data = f"%Content-type: text/x-pbn; charset={charset}\n\n{game}\n{game}".encode(encoding)
        assert assert_same(data, monkeypatch, charset) == 2


def test_plain_games_take_the_fast_path(monkeypatch):
    """On plain games the lexer sees only the blank lines, and neither the lenient deal reader
    nor the lenient play reader runs."""
    fed = []
    real_feed = Lexer.feed
    monkeypatch.setattr(Lexer, "feed", lambda self, raw, cut, n: (fed.append(raw), real_feed(self, raw, cut, n)))
    monkeypatch.setattr(pbn_build, "parse_deal", lambda *a: pytest.fail("slow deal reader used"))
    monkeypatch.setattr(pbn_build, "read_play", lambda *a: pytest.fail("slow play reader used"))
    data = generated_file(3, games=40, mutate=0, glue=0).replace(b"% PBN 2.1\n% EXPORT\n", b"")
    records = list(read_pbn(io.BytesIO(data), "x.pbn"))
    assert len(records) == 40 and sum(1 for r in records if r.play) > 30
    assert [raw for raw in fed if raw] == []


def test_corpus_reads_the_same_both_ways(monkeypatch):
    if not (CORPUS / "SOURCES.tsv").exists():
        pytest.skip("shared corpus not present")
    with open(CORPUS / "SOURCES.tsv", newline="", encoding="utf-8") as f:
        rows = [r for r in csv.DictReader(f, delimiter="\t") if r["format"] == "pbn"]
    games = 0
    for row in rows:
        data = (CORPUS / row["local_path"]).read_bytes()
        games += assert_same(data, monkeypatch, row["local_path"])
    assert games > 50000
