"""Screens before any ruling: a coherent record that still cannot bear a ruling.

The replay may find failures to follow suit in a record that is wrong in a way the cards alone
do not show.  Before the Laws are applied to them, a board with a revoke or defective trick is
screened; when a screen fires, the board keeps one record-error finding (``RC017``) that names
it, and nothing is ruled (as for ``RC016``).  The screens, each tested on the corpus:

- **the deal does not fit its auction and play**, in a way one rotation of the hands explains:
  at least two of (declarer's side holds five or fewer trumps of its suit contract; the
  defenders lead trumps at three tricks or more, as a declarer drawing trumps does; the player
  who opened at the one level holds seven or fewer high-card points, or a 2NT opener twelve or
  fewer; a player who passed before the opening bid holds 16 or more), and some rotation of the
  four hands breaks none of them;
- **too many revokes to be real**: three or more players revoke, or more than three revokes;
- **a claim the play makes impossible** (``RC022``: more tricks than declarer won plus those
  left, or fewer than he won): a ruling would start from a claim corrected by the audit, which
  nobody agreed to;
- **too little play**: less than one whole trick recorded establishes nothing; fewer than two
  establish a ruling only when the producer's own ``^R`` mark agrees with the replay (a mark is
  the producer's reading of the play, not the table's knowledge: it decides no discovery);
- **a later trick that cannot be**: where the replay had to stop, a trick recorded after it
  shows four different suits (three players failing to follow);
- **a record its own marks call unreliable**: the stated declarer disagrees with the auction
  (``RC021``) and a later trick is led out of turn (a ``^L`` lead from a player who did not
  win the trick before, Law 44G): two irregularities of the record itself beside the revoke,
  so neither the sides nor the order of play can be trusted to rule on (a test record's
  "all irregularities" game; no real revoke board of the corpus has both).
"""
from __future__ import annotations

from ..core.auction import normalise_call
from ..core.cards import SUIT_MASKS, Hand, count
from ..core.record import BoardRecord
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
    for check in (_too_many, _too_little, _impossible_trick, _rotated, _impossible_claim,
                  _unreliable):
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


def _impossible_claim(r: Replay) -> str | None:
    """The replay's own check calls the claim (or the Result after an unfinished play)
    impossible (RC022): any ruling would rest on a total nobody agreed to."""
    bad = next((f for f in r.findings if f.code == "RC022"), None)
    if bad is None:
        return None
    return f"the stated total cannot be the play's ({bad.message}), so no ruling can start from it"


def _unreliable(r: Replay) -> str | None:
    """The stated declarer against the auction (RC021) and a trick after the first led by a
    player who did not win the trick before (Law 44G): the record's sides and order of play are
    both in doubt."""
    against = next((f for f in r.findings if f.code == "RC021"), None)
    if against is None:
        return None
    done = r.tricks
    wrong = next((t for prev, t in zip(done, done[1:])
                  if prev.winner is not None and t.leader != prev.winner), None)
    if wrong is None:
        return None
    return (f"{against.message}, and trick {wrong.number} is led out of turn (Law 44G: the "
            f"winner of trick {wrong.number - 1} leads), so neither the sides nor the order of "
            "play can be trusted")


def _too_little(r: Replay) -> str | None:
    """Less than one whole trick: nothing is established (two cards then ``*``).  Fewer than
    two whole tricks - unless the producer's ``^R`` mark agrees with the replay's revoke."""
    done = len(r.complete_tricks)
    whole = sum(1 for t in r.complete_tricks if not t.unknown)  # all four cards recorded
    if whole < 1 and done < 2:
        return (f"only {whole} whole trick{'s' if whole != 1 else ''} recorded: less than one "
                "establishes nothing")
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
        leads = _defenders_trump_leads(rec, hands, declarer, suit)
        if leads >= 3:
            out.append(f"the defenders lead trumps at {leads} tricks")
    for i, call in enumerate(rec.auction):
        seat = (rec.dealer + i) % 4
        call = normalise_call(call) or ""
        if call[:1].isdigit():
            points = hcp(hands[seat])
            if (call[0] == "1" and points <= 7) or (call.upper() == "2NT" and points <= 12):
                out.append(f"the opener holds {points} points")
            break
        if call.upper() in ("P", "PASS") and hcp(hands[seat]) >= 16:
            out.append(f"a player who passed before the opening holds {hcp(hands[seat])} points")
    return out


def _defenders_trump_leads(rec: BoardRecord, hands: tuple[Hand, ...], declarer: int,
                           suit: int) -> int:
    """Tricks the record has led with a trump from a hand of ``hands`` on the defenders' side
    (each trick's first card in time order: PBN puts them in time order)."""
    leads, seen = 0, set()
    for p in rec.play:
        if p.trick is None or p.trick in seen:
            continue
        seen.add(p.trick)  # the trick's first card: its lead
        if p.card is None or p.card // 13 != suit:
            continue
        holder = next((s for s in range(4) if hands[s] >> p.card & 1), None)
        if holder is not None and holder % 2 != declarer % 2:
            leads += 1
    return leads


def hcp(hand: Hand) -> int:
    """High-card points (4-3-2-1)."""
    return sum(_HCP.get(c % 13, 0) for c in range(52) if hand >> c & 1)
