"""_endplay: Law 64C's solver loaded without endplay's package __init__ (matplotlib, numpy, PIL:
about 65 MB and half a second in every process that rules a revoke), and endplay whole again
for anyone who imports it afterwards."""
import subprocess
import sys

SCRIPT = """
import sys
import revoke_audit.ruling.equity as equity
heavy = sorted(m.split(".")[0] for m in sys.modules
               if m.split(".")[0] in ("matplotlib", "numpy", "PIL"))
print("heavy", set(heavy) or "none")
print("endplay imported", "endplay" in sys.modules)
# the solver works: a position where North (on lead, spades trumps) takes all 13 tricks
deal = equity.Deal("N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432")
deal.trump = equity.Denom.spades
deal.first = equity.Player.north
print("best", max(t for _c, t in equity.solve_board(deal)))
import endplay
from endplay.parsers import pbn
print("whole", hasattr(endplay, "dealer"), endplay.dds.solve_board is not None)
"""


def test_the_solver_loads_without_endplays_plotting_and_endplay_stays_whole():
    done = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[:4] == ["heavy none", "endplay imported False", "best 13",
                                           "whole True True"]
