"""_endplay: Law 64C's solver - the DDS library endplay ships, called through ctypes - loaded
without any of endplay's Python modules (its package __init__: matplotlib, numpy, PIL, about
65 MB and half a second; its solver's own modules: 30-80 ms), giving endplay's answers, and
endplay whole for anyone who imports it afterwards."""
import random
import subprocess
import sys

from revoke_audit.core.cards import SUIT_MASKS, card_str, deal_str

SCRIPT = """
import sys
import revoke_audit.ruling.equity as equity
loaded = sorted({m.split(".")[0] for m in sys.modules
                 if m.split(".")[0] in ("endplay", "matplotlib", "numpy", "PIL")})
print("loaded", loaded or "none")
# the solver works: a position where North (on lead, spades trumps) takes all 13 tricks
hands = tuple(0x1FFF << (13 * suit) for suit in range(4))  # N spades, E hearts, S diamonds..
print("best", max(t for _c, t in equity.solve_board((hands, 0, 0, ()))))
import endplay
from endplay.parsers import pbn
print("whole", hasattr(endplay, "dealer"), endplay.dds.solve_board is not None)
"""


def test_the_solver_loads_without_endplay_and_endplay_stays_whole():
    done = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[:3] == ["loaded none", "best 13", "whole True True"]


def _position(rnd: random.Random):
    """A random position of 1 to 13 cards a hand, with 0 to 3 cards of its trick played
    (each legal: following suit when able)."""
    tricks = rnd.randint(1, 13)
    deck = rnd.sample(range(52), 4 * tricks)
    hands = [sum(1 << c for c in deck[s::4]) for s in range(4)]
    leader, trick = rnd.randrange(4), []
    for i in range(rnd.randrange(4) if tricks > 1 else 0):
        seat = (leader + i) % 4
        legal = hands[seat] & SUIT_MASKS[trick[0] // 13] if trick else hands[seat]
        card = rnd.choice([c for c in range(52) if (legal or hands[seat]) >> c & 1])
        hands[seat] &= ~(1 << card)
        trick.append(card)
    return tuple(hands), leader, rnd.randrange(5), tuple(trick)


def test_the_solver_gives_endplays_answers():
    """On 60 random positions of 1 to 13 cards, the trick begun or not, every strain: the cards
    and counts ``_endplay.solve`` gives are those of endplay's own ``solve_board`` (its
    ``Deal``, ``SolveMode.OptimalOne``) in the same order, card for card."""
    from endplay.dds.solve import SolveMode, solve_board
    from endplay.types import Card, Deal, Denom, Player

    from revoke_audit.ruling._endplay import solve

    rnd = random.Random(64)
    for _ in range(60):
        hands, leader, strain, trick = _position(rnd)
        whole = list(hands)
        for i, card in enumerate(trick):
            whole[(leader + i) % 4] |= 1 << card
        deal = Deal(deal_str(tuple(whole)))
        deal.first, deal.trump = Player(leader), Denom(strain)
        for card in trick:
            deal.play(Card(card_str(card)))
        theirs = [(f"{'SHDC'[int(c.suit)]}{c.rank.abbr}", t)
                  for c, t in solve_board(deal, SolveMode.OptimalOne)]
        ours = [(card_str(c), t) for c, t in solve(hands, leader, strain, trick)]
        assert ours == theirs
