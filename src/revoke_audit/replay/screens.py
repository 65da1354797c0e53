"""Screens before any ruling: a coherent record that still cannot bear a ruling.

The replay may find failures to follow suit in a record that is wrong in a way the cards alone
do not show.  Before the Laws are applied to them, a board with a revoke or defective trick is
screened; when a screen fires, the board keeps one record-error finding (``RC017``) that names
it, and nothing is ruled (as for ``RC016``).  The screens, each tested on the corpus:

- **the deal does not fit its auction**, in a way one rotation of the hands explains: at least
  two of (declarer's side holds five or fewer trumps of its suit contract; the player who opened
  at the one level holds seven or fewer high-card points; a player who passed before the opening
  bid holds 16 or more), and some rotation of the four hands breaks none of them;
- **too many revokes to be real**: three or more players revoke, or more than three revokes;
- **too little play**: fewer than two whole tricks recorded (nothing to establish a ruling on),
  unless the record marks the revoke ``^R`` (the table saw it);
- **a later trick that cannot be**: where the replay had to stop, a trick recorded after it
  shows four different suits (three players failing to follow).
"""
from __future__ import annotations

from ..auction import normalise_call
from ..cards import SUIT_MASKS, Hand, count
from ..record import BoardRecord
from .model import Replay

_HCP = {12: 4, 11: 3, 10: 2, 9: 1}  # ace, king, queen, jack (rank index 12 = ace)


def screen(r: Replay) -> None:
    """Leave one RC017 finding and drop the revoke and defect facts when a screen fires."""
    if not r.coherent or not (r.revokes or r.defects):
        return
    why = _why(r)
    if why is None:
        return
    r.add("RC017", f"the record cannot bear a ruling: {why}; no revoke or defective trick is "
          "ruled", r.record.play_line or r.record.line)
    r.revokes.clear()
    r.defects.clear()
    r.coherent = False


def _why(r: Replay) -> str | None:
    for check in (_too_many, _too_little, _impossible_trick, _rotated):
        why = check(r)
        if why:
            return why
    return None


def _too_many(r: Replay) -> str | None:
    players = {f.seat for f in r.revokes} | {d.seat for d in r.defects}
    n = len(r.revokes) + len(r.defects)
    if len(players) >= 3 or n > 3:
        return (f"{n} revokes or defective tricks by {len(players)} players: more than a table "
                "commits, so the record is probably wrong")
    return None


def _too_little(r: Replay) -> str | None:
    """Fewer than two whole tricks - unless the record marks the revoke ``^R``: then the
    table itself says it happened."""
    done = len(r.complete_tricks)
    if done < 2 and not any(f.marked for f in r.revokes):
        return (f"only {done} whole trick{'s' if done != 1 else ''} recorded, too little play to "
                "rule on")
    return None


def _impossible_trick(r: Replay) -> str | None:
    """Where the replay stopped, a later recorded trick of four cards in four suits."""
    if r.stopped_at is None:
        return None
    for number, cards in _recorded_tricks(r.record):
        if number > r.stopped_at and len(cards) == 4 and len({c // 13 for c in cards}) == 4:
            return (f"trick {number} is recorded with a card of each suit (three players failing "
                    "to follow), after the replay had to stop")
    return None


def _recorded_tricks(rec: BoardRecord) -> list[tuple[int, list[int]]]:
    """The record's cards by trick (a PBN line's trick, else four at a time in order)."""
    grouped: dict[int, list[int]] = {}
    for i, p in enumerate(rec.play):
        number = p.trick if p.trick is not None else i // 4 + 1
        if p.card is not None:
            grouped.setdefault(number, []).append(p.card)
    return sorted(grouped.items())


def _rotated(r: Replay) -> str | None:
    """The deal against its auction: misfits as recorded, none once the hands are rotated."""
    rec = r.record
    if rec.hands is None or any(h is None for h in rec.hands) or rec.dealer is None:
        return None
    found = misfits(rec, rec.hands)
    if len(found) < 2:
        return None
    for turn in (1, 2, 3):
        if not misfits(rec, tuple(rec.hands[(s + turn) % 4] for s in range(4))):
            return ("the deal does not fit its auction (" + "; ".join(found) + "), and it does "
                    f"when every hand is moved {turn} seat{'s' if turn > 1 else ''} clockwise")
    return None


def misfits(rec: BoardRecord, hands: tuple[Hand, ...]) -> list[str]:
    """What in ``hands`` does not fit the record's auction and contract (see the module)."""
    out: list[str] = []
    contract, declarer = rec.contract, rec.declarer
    if contract and declarer is not None and contract[0].isdigit() and contract[1] in "SHDC":
        suit = "SHDC".index(contract[1])
        held = count(hands[declarer] & SUIT_MASKS[suit]) + count(
            hands[(declarer + 2) % 4] & SUIT_MASKS[suit])
        if held <= 5:
            out.append(f"declarer's side holds {held} trumps")
    for i, call in enumerate(rec.auction):
        seat = (rec.dealer + i) % 4
        call = normalise_call(call) or ""
        if call[:1].isdigit():
            if call[0] == "1" and hcp(hands[seat]) <= 7:
                out.append(f"the opener holds {hcp(hands[seat])} points")
            break
        if call.upper() in ("P", "PASS") and hcp(hands[seat]) >= 16:
            out.append(f"a player who passed before the opening holds {hcp(hands[seat])} points")
    return out


def hcp(hand: Hand) -> int:
    """High-card points (4-3-2-1)."""
    return sum(_HCP.get(c % 13, 0) for c in range(52) if hand >> c & 1)
