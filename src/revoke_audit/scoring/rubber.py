"""Rubber-bridge scoring of one hand in isolation, for the two historic codes.

The rubber's state is unknown, so a hand is scored as if it opened a fresh game: no rubber
bonus, ``game`` means "this hand alone scored game below the line", and honours (and chicane)
are never scored because a hand record does not show who held them.

Strain index: 0 = spades, 1 = hearts, 2 = diamonds, 3 = clubs, 4 = no trump.

**1932 International Contract Bridge Code** (Portland Club, Whist Club of New York, Commission
Francaise; in use from November 1932 to 31 March 1935).  Sources: Time, 25 Mar 1935 ("New
Contract", comparing the 1935 code with the 1932 one); W. Shackle, Christchurch Press, 30 Mar 1935;
"The Revoke", Dominion (Wellington), 2 Sep 1933, for the revoke.

- Trick score (below the line), per odd trick bid and made: clubs, diamonds 20; hearts, spades
  30; no trump 30 for the odd-numbered and 40 for the even-numbered tricks (30, 40, 30, ...:
  1NT = 30, 3NT = 100).  Not 35 a trick: 35 was the no-trump value of Vanderbilt's first
  scoring (1925), and the 1935 code replaced the 30/40 alternation with 40 then 30.  Doubled x2,
  redoubled x4.  Game = 100 below the line.
- Overtricks (above): undoubled at trick value (a no-trump overtrick keeps its 30/40 place);
  doubled 100 each not vulnerable, 200 vulnerable; redoubled twice that.  Time says these were
  unchanged in 1935; the figures themselves are the 1935 ones.
- Undertricks (to the defenders): vulnerable undoubled 100 for the first, then 50 more for each
  further one (100, 150, 200, ...; Time: "100 for the first ..., 150 for the second, etc.",
  and a maximum of 20,800 for 13 down vulnerable redoubled, which this scale gives exactly);
  not vulnerable 50 each (not confirmed: inferred from Vanderbilt's scoring and Shackle's remark
  that the 1935 change raised the penalty for a partscore going down).  Doubled x2, redoubled x4.
- Slams bid and made: small 500 not vulnerable, 750 vulnerable; grand 1500 / 2250 (Time;
  Shackle).  Time prints 1,000 for a vulnerable small slam; 750 is kept as the value never
  reported to have changed.
- No bonus for making a doubled contract (Time, 1 Mar 1943, reports a 50-point bonus "for
  making any doubled or redoubled contract" as a 1943 change; any earlier form is unconfirmed).
- Revoke: tricks are transferred (two, then one per further revoke) and count for the side that
  receives them; there is no point penalty, and the revoking side keeps any contract, game or
  slam its remaining tricks make (Dominion, 2 Sep 1933).  ``tricks`` is declarer's count AFTER transfer.

**Bridge-whist** (Laws of Bridge: Whist Club of New York 1897; club code as printed by
J. B. Elwell, 1906-1907, "The Revoke").

- The maker of trumps (dealer or dummy) is "declarer"; there is no contract.  Whichever side
  wins more than six tricks scores its odd tricks below the line (Elwell 1906: "the trick score
  is made by the side winning more than six tricks"), so the defenders can score toward game.
- Value per odd trick: spades 2, clubs 4, diamonds 6, hearts 8, no trump 12 (Whist Club 1897,
  laws 4-5).  Doubling doubles the trick value, each redouble doubles it again; it does not
  touch honours or slams.  Game = 30.  (Royal spades / "lilies" at 9 belong to auction bridge,
  not to this code, and are not modelled.)
- Slams, scored above the line by either side, "independently of any tricks taken for the
  revoke penalty": grand slam (13 tricks) 40, little slam (12) 20.
- Revoke (Laws of Bridge 1907, "The Revoke"): three tricks per revoke taken from the revoking side and added to the
  other, in all never more than it holds; the revoking side cannot score game that hand: at
  most 28 toward game; if both sides revoke neither can win game by that hand.
"""
from __future__ import annotations

from dataclasses import dataclass

SPADES, HEARTS, DIAMONDS, CLUBS, NOTRUMP = range(5)
_MINORS = (DIAMONDS, CLUBS)


@dataclass(frozen=True)
class RubberScore:
    """One hand's rubber score.  ``below_defenders`` / ``game_defenders`` are only ever set by
    bridge-whist, where the defenders also score their odd tricks toward game."""

    below_declarer: int     # trick points below the line for declarer's side
    above_declarer: int     # overtricks, bonuses above the line for declarer's side
    above_defenders: int    # undertrick penalties and bonuses for the defenders
    game: bool              # declarer's side scored game on this hand
    notes: tuple[str, ...]
    below_defenders: int = 0
    game_defenders: bool = False


# --- 1932 International Code ---------------------------------------------------------------

_MULT_1932 = {"": 1, "X": 2, "XX": 4}
_GAME_1932 = 100
_SMALL_SLAM_1932 = {False: 500, True: 750}
_GRAND_SLAM_1932 = {False: 1500, True: 2250}
_DOUBLED_OVERTRICK_1932 = {False: 100, True: 200}   # x2 again when redoubled
_HONOURS_NOTE = "honours not scored: a hand record does not show who held them"


def _check_common(strain: int, tricks: int) -> None:
    if strain not in range(5):
        raise ValueError(f"strain must be 0-4 (S, H, D, C, NT), not {strain!r}")
    if tricks not in range(14):
        raise ValueError(f"tricks must be 0-13, not {tricks!r}")


def trick_value_1932(strain: int, nth: int) -> int:
    """Undoubled value of the ``nth`` odd trick (1-based) under the 1932 code."""
    if strain == NOTRUMP:
        return 30 if nth % 2 else 40
    return 20 if strain in _MINORS else 30


def undertricks_1932(down: int, vulnerable: bool, doubled: str) -> int:
    """Penalty for ``down`` undertricks (1932 code; see the module docstring)."""
    if vulnerable:
        base = sum(50 * (n + 1) for n in range(1, down + 1))
    else:
        base = 50 * down
    return base * _MULT_1932[doubled]


def _made_1932(level: int, strain: int, doubled: str, vul: bool,
               tricks: int) -> tuple[int, int, list[str]]:
    mult = _MULT_1932[doubled]
    below = sum(trick_value_1932(strain, n) for n in range(1, level + 1)) * mult
    over = tricks - 6 - level
    if doubled:
        above = over * _DOUBLED_OVERTRICK_1932[vul] * mult // 2
    else:
        above = sum(trick_value_1932(strain, n) for n in range(level + 1, level + over + 1))
    notes = []
    if level == 6:
        above += _SMALL_SLAM_1932[vul]
        notes.append(f"small slam bid and made: {_SMALL_SLAM_1932[vul]}")
    elif level == 7:
        above += _GRAND_SLAM_1932[vul]
        notes.append(f"grand slam bid and made: {_GRAND_SLAM_1932[vul]}")
    if doubled:
        notes.append("no bonus for making a doubled contract (a 50 bonus dates from 1943; "
                     "any 1932 form is unconfirmed)")
    return below, above, notes


def score_1932(level: int, strain: int, doubled: str, declarer_vul: bool, tricks: int, *,
               revoke_by_declarer_side: bool = False) -> RubberScore:
    """Score a contract under the 1932 International Code.  ``tricks`` are declarer's tricks
    after any revoke transfer; transferred tricks count like tricks won (Dominion, 2 Sep 1933)."""
    _check_common(strain, tricks)
    if level not in range(1, 8):
        raise ValueError(f"level must be 1-7, not {level!r}")
    if doubled not in _MULT_1932:
        raise ValueError(f"doubled must be '', 'X' or 'XX', not {doubled!r}")
    notes = [_HONOURS_NOTE]
    if strain == NOTRUMP:
        notes.append("1932 no-trump tricks score 30 and 40 alternately")
    if revoke_by_declarer_side:
        notes.append("1932: revoke tricks were transferred, with no point penalty; the revoking "
                     "side keeps any contract, game or slam its remaining tricks make")
    if tricks >= 6 + level:
        below, above, extra = _made_1932(level, strain, doubled, declarer_vul, tricks)
        return RubberScore(below, above, 0, below >= _GAME_1932, tuple(notes + extra))
    down = 6 + level - tricks
    penalty = undertricks_1932(down, declarer_vul, doubled)
    return RubberScore(0, 0, penalty, False, tuple(notes))


# --- bridge-whist (Laws of Bridge) ---------------------------------------------------------

BRIDGE_WHIST_VALUES = {SPADES: 2, CLUBS: 4, DIAMONDS: 6, HEARTS: 8, NOTRUMP: 12}
_GAME_BW = 30
_REVOKE_CAP_BW = 28
_SLAMS_BW = {13: ("grand slam", 40), 12: ("little slam", 20)}


def _multiplier_bw(doubled: str) -> int:
    if doubled.strip("X"):
        raise ValueError(f"doubled must be '' or a run of 'X' (each a further redouble), "
                         f"not {doubled!r}")
    return 2 ** len(doubled)


def _apply_penalty_bw(tricks: int, to_decl: int, to_def: int) -> tuple[int, list[str]]:
    """Declarer's tricks after revoke penalties: each side gives up at most what it holds."""
    if to_decl < 0 or to_def < 0:
        raise ValueError("penalty tricks cannot be negative")
    taken_from_decl = min(to_def, tricks)
    taken_from_def = min(to_decl, 13 - tricks)
    notes = []
    if (taken_from_decl, taken_from_def) != (to_def, to_decl):
        notes.append("revoke penalty limited to the tricks the revoking side held")
    return tricks - taken_from_decl + taken_from_def, notes


def _side_below_bw(points: int, revoked: bool, side: str) -> tuple[int, bool, list[str]]:
    if revoked and points > _REVOKE_CAP_BW:
        return _REVOKE_CAP_BW, False, [
            f"{side} revoked: capped at {_REVOKE_CAP_BW} toward game ({points} won; the excess "
            f"is not scored toward game)"]
    return points, points >= _GAME_BW and not revoked, []


def _slam_bw(play_tricks: int, final_tricks: int, revoked: bool,
             side: str) -> tuple[int, list[str]]:
    """Slam bonus on tricks won in play only ("independently of tricks taken for the revoke")."""
    notes = []
    if final_tricks >= 12 and final_tricks > play_tricks:
        notes.append(f"penalty tricks do not count toward a slam ({side})")
    if play_tricks not in _SLAMS_BW:
        return 0, notes
    name, bonus = _SLAMS_BW[play_tricks]
    notes.append(f"{side}: {name} {bonus}")
    if revoked:
        notes.append(f"{side} revoked yet won {play_tricks} tricks in play: the code reckons "
                     "slams on tricks won in play and does not bar the revoking side")
    return bonus, notes


def score_bridge_whist(strain: int, doubled: str, tricks_declarer: int, *,
                       penalty_tricks_to_declarer: int = 0,
                       penalty_tricks_to_defenders: int = 0,
                       declarer_side_revoked: bool = False,
                       defenders_revoked: bool = False) -> RubberScore:
    """Score a bridge-whist hand.  ``tricks_declarer`` are the tricks the trump-maker's side won
    in play; the penalty arguments are the tricks each side receives for the other's revokes
    (three per revoke, Laws of Bridge 1907).  A penalty implies that the other side revoked."""
    _check_common(strain, tricks_declarer)
    mult = _multiplier_bw(doubled)
    decl_rev = declarer_side_revoked or penalty_tricks_to_defenders > 0
    def_rev = defenders_revoked or penalty_tricks_to_declarer > 0
    final, notes = _apply_penalty_bw(tricks_declarer, penalty_tricks_to_declarer,
                                     penalty_tricks_to_defenders)
    notes.insert(0, "honours and chicane not scored: a hand record does not show who held them")
    value = BRIDGE_WHIST_VALUES[strain] * mult
    below_decl, game_decl, n1 = _side_below_bw(max(final - 6, 0) * value, decl_rev,
                                               "declarer's side")
    below_def, game_def, n2 = _side_below_bw(max(7 - final, 0) * value, def_rev, "defenders")
    slam_decl, n3 = _slam_bw(tricks_declarer, final, decl_rev, "declarer's side")
    slam_def, n4 = _slam_bw(13 - tricks_declarer, 13 - final, def_rev, "defenders")
    notes += n1 + n2 + n3 + n4
    if decl_rev and def_rev:
        notes.append("both sides revoked: neither can win the game by this hand")
    return RubberScore(below_decl, slam_decl, slam_def, game_decl, tuple(notes),
                       below_defenders=below_def, game_defenders=game_def)
