#!/usr/bin/env python3
"""Throughput of the audit (read -> replay -> rule -> row) against endplay's PBN parser, on the
same generated file, in one run.

    .venv/bin/python scripts/bench.py [--boards 20000] [--seed 1]

The file holds random deals with random legal 13-trick plays (one board in fifty has a revoke
forced into it, so the law path runs too), written in PBN import format with seat columns.
"""
from __future__ import annotations

import argparse
import io
import random
import tempfile
import time

from revoke_audit.audit import audit_board, board_row
from revoke_audit.cards import SEATS, SUIT_MASKS, STRAINS, card_str, cards_in, deal_str, trick_winner
from revoke_audit.formats import read_boards


def random_board(rnd: random.Random, number: int) -> str:
    deck = list(range(52))
    rnd.shuffle(deck)
    hands = [sum(1 << c for c in deck[i * 13:(i + 1) * 13]) for i in range(4)]
    dealer, declarer = rnd.randrange(4), rnd.randrange(4)
    strain = rnd.randrange(5)
    trump = None if strain == 4 else strain
    contract = f"{rnd.randint(1, 7)}{STRAINS[strain]}"
    deal = deal_str(tuple(hands))
    leader = first = (declarer + 1) % 4
    left = list(hands)
    revoke_at = rnd.randrange(1, 11) if number % 50 == 0 else -1
    lines = []
    for t in range(13):
        cards = []
        for i in range(4):
            seat = (leader + i) % 4
            legal = left[seat]
            if cards and legal & SUIT_MASKS[cards[0] // 13]:
                follow = legal & SUIT_MASKS[cards[0] // 13]
                other = legal & ~SUIT_MASKS[cards[0] // 13]
                legal = other if (t == revoke_at and i == 1 and other) else follow
            card = rnd.choice(list(cards_in(legal)))
            left[seat] &= ~(1 << card)
            cards.append(card)
        by_seat = {(leader + i) % 4: c for i, c in enumerate(cards)}
        lines.append(" ".join(card_str(by_seat[(first + i) % 4]) for i in range(4)))
        leader = trick_winner(leader, cards, trump)
    return (f'[Event "bench"]\n[Board "{number}"]\n[Dealer "{SEATS[dealer]}"]\n'
            f'[Vulnerable "None"]\n[Deal "{deal}"]\n[Declarer "{SEATS[declarer]}"]\n'
            f'[Contract "{contract}"]\n[Play "{SEATS[first]}"]\n' + "\n".join(lines) + "\n")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--boards", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rnd = random.Random(args.seed)
    text = "\n".join(random_board(rnd, n + 1) for n in range(args.boards))
    with tempfile.NamedTemporaryFile("w", suffix=".pbn", delete=False) as fh:
        fh.write(text)
        path = fh.name
    print(f"{args.boards} boards, {len(text) / 1e6:.1f} MB of PBN")

    t0 = time.perf_counter()
    n_ours = sum(1 for _ in read_boards([path]))
    t1 = time.perf_counter()
    revokes = 0
    for record in read_boards([path]):
        a = audit_board(record)
        board_row(a)
        revokes += a.count("RV")
    t2 = time.perf_counter()
    print(f"revoke-audit read only    : {n_ours / (t1 - t0):10.0f} boards/s ({t1 - t0:.2f} s)")
    print(f"revoke-audit full audit   : {n_ours / (t2 - t1):10.0f} boards/s ({t2 - t1:.2f} s), "
          f"{revokes} revoke findings")

    from endplay.parsers import pbn as endplay_pbn
    t3 = time.perf_counter()
    with open(path) as fh:
        boards = endplay_pbn.load(io.StringIO(fh.read()))
    t4 = time.perf_counter()
    print(f"endplay pbn.load (parse)  : {len(boards) / (t4 - t3):10.0f} boards/s ({t4 - t3:.2f} s)")


if __name__ == "__main__":
    main()
