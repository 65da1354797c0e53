"""What a director's log obliged each player to do, checked trick by trick against the replay.

Law 61A: besides failing to follow suit, it is a revoke to fail, *when able*, to lead or play a
card or suit required by law (a penalty card, Law 50) or specified by an opponent in
rectification (lead restrictions, Laws 26, 50D2, 54-56; highest or lowest card, Law 57A).
A player unable to comply may play any otherwise legal card (Law 59): no revoke.  Following suit
comes first (Law 44C), so a card that would not follow suit is never required.

At each card a bound player plays, his duties are weighed in this order, each narrowing the
cards he may play when he is able to comply with it: the lead restrictions (he is on lead), his
highest or lowest card of a suit, his penalty cards.  The first duty his card breaks is his
revoke (one card, one revoke); a card that already fails to follow suit is that revoke (61A1).

Penalty cards, as each code has them (``style``):

- ``law50`` (the Laws of Duplicate Bridge 1997, 2007, 2017): a defender's major penalty card
  must be played at the first legal opportunity, leading, following, discarding or trumping
  (50D1); with two or more penalty cards all are major (50B) and any of them that is legal
  complies (declarer designates which, 50D1(b)).  A minor penalty card (50C): no other card of
  its suit below the rank of an honour may be played before it.  When declarer requires or
  forbids the offender's partner a lead of the suit of a major penalty card, the offender picks
  the cards of that suit up (50D2(a)): from the trick that lead restriction applies to, they
  no longer bind.
- ``called`` (the 1932 Code; the Laws of Bridge 1907): an exposed card is one the declarer
  (dealer) may call; the log's trick is the trick it was called to, and it must be played then
  if he can do so without revoking.  Major and minor mean nothing there.

The log's trick is the first trick the fact binds: for a penalty card exposed after the player
had already played to a trick, that is the next trick.  The replay gains a ``RevokeFact`` of
kind 61A2 (penalty card) or 61A3 (lead or play restriction) per broken duty, and a ``Binding``
per duty and trick for ``explain``; a row that does not fit the board is an ``RC040`` finding.
"""
from __future__ import annotations

from dataclasses import dataclass
from ..core.cards import CARD_NAMES, RANKS, SUIT_MASKS, holding_str, mask_of, seat_name
from ..replay.model import PENALTY_CARD as KIND_PENALTY, RESTRICTION, Replay, RevokeFact, Trick
from ..core.findings import Finding
from .table_facts import (LEAD_FORBIDDEN, LEAD_REQUIRED, LOG_CODE, PENALTY_CARD, PLAY_HIGHEST,
                          PLAY_LOWEST, BoardFacts, FactRow)

LAW50, CALLED = "law50", "called"
KEPT, BROKEN, UNABLE = "kept", "broken", "unable"
HONOUR = RANKS.index("T")  # ten and above are honours (Law 50B)
#: each suit's cards below the rank of an honour (Law 50C)
_BELOW_HONOUR = tuple(mask_of(suit * 13 + r for r in range(HONOUR)) for suit in range(4))
_SUIT_WORD = ("spade", "heart", "diamond", "club")


@dataclass(frozen=True, slots=True)
class Style:
    """How an edition reads a log: ``penalty`` is ``law50`` or ``called`` (module docstring);
    ``cite`` names the rule a broken restriction offends (``Law 61A``, ``the 1932 Code``)."""

    penalty: str = LAW50
    cite: str = "Law 61A"


@dataclass(frozen=True, slots=True)
class Binding:
    """One duty of one player at one trick, and how he met it (for ``explain``)."""

    trick: int
    seat: int
    log_line: int
    outcome: str  # kept / broken / unable
    text: str


@dataclass(frozen=True, slots=True)
class _Board:
    """What the log's rows are weighed with, gathered from the replay once before any is (each
    seat's role is the replay's own, ``Replay.roles``): the trick each player's card went to."""

    rp: Replay
    played_to: dict[tuple[int, int], int]  # (seat, card) -> the first trick he played it to


@dataclass(frozen=True, slots=True)
class _Turn:
    """One card to judge: who played what, and what he could legally play (Law 44C)."""

    board: _Board
    trick: Trick
    seat: int
    card: int
    line: int
    hand: int  # before the trick
    legal: int  # the cards that follow suit (all, on lead or when void)

    @property
    def leads(self) -> bool:
        return self.trick.leader == self.seat

    def played(self) -> str:
        return f"{'led' if self.leads else 'played'} {CARD_NAMES[self.card]}"


def apply_table_facts(rp: Replay, facts: BoardFacts | None,
                      style: Style = Style()) -> list[Finding]:
    """Check every player's duties under the log's rows for this board; add the revokes to
    ``rp.revokes`` and the bindings to ``rp.bindings``.  Returns the ``RC040`` findings for
    rows that do not fit the board.  Nothing is checked on a board the replay could not
    audit, or whose record is not the play of its deal (``coherence``)."""
    if facts is None or not facts.rows or not rp.auditable or not rp.coherent:
        return []
    board = _gather(rp)
    findings: list[Finding] = []
    rows = []
    for row in facts.rows:
        problem = _misfit(board, row)
        if problem:
            findings.append(Finding(LOG_CODE, f"director's log {facts.log} line {row.line}: "
                                    f"{problem}; the row ({row.describe()}) is ignored",
                                    rp.record.deal_line or rp.record.line, seat=row.seat,
                                    card=row.card, log_line=row.line))
        else:
            rows.append(row)
    if rows:
        _check(board, rows, style)
    return findings


def _gather(rp: Replay) -> _Board:
    """The ``_Board`` of ``rp``."""
    played_to: dict[tuple[int, int], int] = {}
    for t in rp.tricks:
        for seat, card, _ in t.plays:
            played_to.setdefault((seat, card), t.number)
    return _Board(rp, played_to)


def _misfit(board: _Board, row: FactRow) -> str | None:
    """Why a penalty-card row cannot be true of this board, or None: declarer's and dummy's
    cards are never penalty cards (Law 48A, Law 50: "by a defender"), and the card must still
    be in the player's hand when the row starts to bind."""
    if row.fact != PENALTY_CARD:
        return None
    rp, name, card = board.rp, seat_name(row.seat), CARD_NAMES[row.card]
    role = rp.roles[row.seat]
    if role != "defender":
        return f"{name} is {role}: only a defender's card can be a penalty card (Laws 48A, 50)"
    if not rp.record.hands[row.seat] >> row.card & 1:
        return f"{name} never held {card} on this board"
    start = max(row.trick, 1)
    if start <= len(rp.hands_at) and not rp.hands_at[start - 1][row.seat] >> row.card & 1:
        number = board.played_to.get((row.seat, row.card))
        when = "already" if number is None else f"to trick {number}"
        return f"{name} played {card} {when}, before trick {start} where the log has it face up"
    return None


def _check(board: _Board, rows: list[FactRow], style: Style) -> None:
    """Walk the play; judge each card a bound player plays."""
    rp = board.rp
    leads = _lead_duties(rp, rows)
    pickups = _pickups(rp, rows, leads) if style.penalty == LAW50 else {}
    follow = {(f.trick, f.seat) for f in rp.revokes}
    promoted: set[int] = set()  # penalty cards made major by a second one (Law 50B): lines
    new: list[RevokeFact] = []
    for trick in rp.tricks:
        hands = rp.hands_at[trick.number - 1]
        for seat, card, line in trick.plays:
            penalties = _penalty_rows(rp, rows, trick.number, seat, style, pickups)
            if len(penalties) > 1:
                promoted.update(r.line for r in penalties)
            duties = (leads.get((trick.number, seat), [])
                      + [r for r in rows if r.fact in (PLAY_HIGHEST, PLAY_LOWEST)
                         and (r.trick, r.seat) == (trick.number, seat)] + penalties)
            if not duties:
                continue
            turn = _Turn(board, trick, seat, card, line, hands[seat],
                         _legal(trick, seat, hands[seat]))
            fact = _judge(rp, turn, duties, style, (trick.number, seat) in follow, promoted)
            if fact:
                new.append(fact)
    rp.revokes[:] = sorted(rp.revokes + new, key=lambda f: (f.trick, (f.seat - rp.tricks[
        f.trick - 1].leader) % 4))


def _legal(trick: Trick, seat: int, hand: int) -> int:
    """The cards that follow suit (Law 44C): all of them on lead or when void."""
    if trick.leader == seat or not trick.plays:
        return hand
    led = hand & SUIT_MASKS[trick.suit_led]
    return led or hand


def _lead_duties(rp: Replay, rows: list[FactRow]) -> dict[tuple[int, int], list[FactRow]]:
    """(trick, seat) -> the lead restrictions binding him there.  A required lead binds the
    first trick from the log's trick on that he leads; a forbidden lead binds that trick and
    every next one while he keeps the lead (Laws 26, 50D2(a): "for as long as he retains the
    lead")."""
    out: dict[tuple[int, int], list[FactRow]] = {}
    for row in rows:
        if row.fact not in (LEAD_REQUIRED, LEAD_FORBIDDEN):
            continue
        for number in _lead_tricks(rp, row):
            out.setdefault((number, row.seat), []).append(row)
    return out


def _lead_tricks(rp: Replay, row: FactRow) -> list[int]:
    start = max(row.trick, 1)
    first = next((t.number for t in rp.tricks[start - 1:] if t.plays and t.leader == row.seat),
                 None)
    if first is None:
        return []
    if row.fact == LEAD_REQUIRED:
        return [first]
    out = [first]
    for t in rp.tricks[first:]:
        if not t.plays or t.leader != row.seat:
            break
        out.append(t.number)
    return out


def _pickups(rp: Replay, rows: list[FactRow], leads) -> dict[int, int]:
    """Law 50D2(a): a lead of a major penalty card's suit required of (or forbidden to) the
    offender's partner - row line -> the trick from which that penalty card no longer binds."""
    out: dict[int, int] = {}
    for row in rows:
        if row.fact != PENALTY_CARD or row.grade != "major":
            continue
        partner = (row.seat + 2) % 4
        for (number, seat), restrictions in leads.items():
            if seat == partner and number >= max(row.trick, 1) and any(
                    r.suit == row.card // 13 for r in restrictions):
                out[row.line] = min(out.get(row.line, 99), number)
    return out


def _penalty_rows(rp: Replay, rows: list[FactRow], number: int, seat: int, style: Style,
                  pickups: dict[int, int]) -> list[FactRow]:
    """The penalty cards binding ``seat`` at trick ``number``: face up from the row's trick
    until played or picked up (``law50``); called to exactly that trick (``called``)."""
    hand = rp.hands_at[number - 1][seat]
    out = []
    for row in rows:
        if row.fact != PENALTY_CARD or row.seat != seat or not hand >> row.card & 1:
            continue
        start = max(row.trick, 1)
        if style.penalty == CALLED:
            if number == start:
                out.append(row)
        elif start <= number < pickups.get(row.line, 99):
            out.append(row)
    return out


# --- one card --------------------------------------------------------------------------------

def _judge(rp: Replay, turn: _Turn, duties: list[FactRow], style: Style, already: bool,
           promoted: set[int]) -> RevokeFact | None:
    """Weigh the duties in order (module docstring), each recorded as a binding; the first
    one broken while able is the revoke, unless the card already fails to follow suit."""
    allowed = turn.legal
    verdicts: list[tuple[FactRow, str, int, str]] = []
    restrictions = ([d for d in duties if d.fact in (LEAD_REQUIRED, LEAD_FORBIDDEN)]
                    + [d for d in duties if d.fact in (PLAY_HIGHEST, PLAY_LOWEST)])
    for row in restrictions:
        outcome, able, text = _restriction(row, turn, allowed, style)
        verdicts.append((row, outcome, able, text))
        if outcome == BROKEN:
            break
        if outcome == KEPT:
            allowed = able
    penalties = [d for d in duties if d.fact == PENALTY_CARD]
    if penalties and not any(v[1] == BROKEN for v in verdicts):
        verdicts.append((penalties[0], *_penalty(penalties, turn, allowed, style, promoted)))
    fact = None
    for row, outcome, able, text in verdicts:
        note = text + (": no revoke" if outcome == UNABLE else "")
        if outcome == BROKEN:
            note += ("; the card already fails to follow suit, which is the revoke (Law 61A1)"
                     if already else ": a revoke (Law 61A)")
            if not already:
                fact = _revoke(turn, row, able, text)
        rp.bindings.append(Binding(turn.trick.number, turn.seat, row.line, outcome, note))
    return fact


def _revoke(turn: _Turn, row: FactRow, able: int, text: str) -> RevokeFact:
    kind = KIND_PENALTY if row.fact == PENALTY_CARD else RESTRICTION
    led = turn.card // 13 if turn.leads else turn.trick.suit_led
    return RevokeFact(turn.trick.number, turn.seat, turn.card, led, able, turn.line, False,
                      kind=kind, duty=text, obligation=row.fact, log_line=row.line)


def _restriction(row: FactRow, turn: _Turn, allowed: int, style: Style) -> tuple[str, int, str]:
    """(outcome, the cards that comply, the sentence) for a lead or play restriction."""
    word, cite = _SUIT_WORD[row.suit], f"{style.cite}; log line {row.line}"
    law59 = "Law 59" if style.penalty == LAW50 else style.cite
    mine = turn.hand & SUIT_MASKS[row.suit]
    if row.fact == LEAD_REQUIRED:
        able = allowed & mine
        if not able:
            return UNABLE, 0, (f"must lead a {word} ({cite}): he has none, so he may lead any "
                               f"card ({law59})")
        if able >> turn.card & 1:
            return KEPT, able, f"must lead a {word} ({cite}): {turn.played()}"
        return BROKEN, able, (f"did not lead a {word} as required ({cite}) but {turn.played()} "
                              f"holding {holding_str(able)}")
    if row.fact == LEAD_FORBIDDEN:
        able = allowed & ~mine
        duty = f"may not lead a {word} while he keeps the lead ({cite})"
        if not able:
            return UNABLE, 0, f"{duty}: he holds nothing else, so he may ({law59})"
        if able >> turn.card & 1:
            return KEPT, able, f"{duty}: {turn.played()}"
        return BROKEN, able, (f"{turn.played()} when a {word} lead was forbidden ({cite}), "
                              f"holding {holding_str(able)}")
    which = "highest" if row.fact == PLAY_HIGHEST else "lowest"
    if not mine:
        return UNABLE, 0, f"must play his {which} {word} ({cite}): he has none ({law59})"
    # a suit's cards rise with the card int (``core.cards``): the highest is the mask's top bit
    target = mine.bit_length() - 1 if row.fact == PLAY_HIGHEST else (mine & -mine).bit_length() - 1
    duty = f"his {which} {word}, {CARD_NAMES[target]}"
    if not allowed >> target & 1:
        return UNABLE, 0, (f"must play {duty} ({cite}): not a legal play to this trick, so he "
                           f"need not ({law59})")
    if turn.card == target:
        return KEPT, 1 << target, f"must play {duty} ({cite}): played it"
    return BROKEN, 1 << target, f"did not play {duty}, as required ({cite}) but {turn.played()}"


def _penalty(rows: list[FactRow], turn: _Turn, allowed: int, style: Style,
             promoted: set[int]) -> tuple[str, int, str]:
    """(outcome, the cards that comply, the sentence) for the penalty cards lying face up.
    A minor penalty card that once lay beside another is major for good (Law 50B: "all such
    cards become major penalty cards")."""
    lines = ", ".join(str(r.line) for r in rows)
    log = f"log line{'s' if len(rows) > 1 else ''} {lines}"
    minor = len(rows) == 1 and rows[0].grade == "minor" and rows[0].line not in promoted
    if minor and style.penalty != CALLED:  # its own rule (Law 50C)
        return _minor(rows[0], turn, allowed, log)
    cards = mask_of(r.card for r in rows)
    article = "the"
    if style.penalty == CALLED:
        label = f"exposed card {holding_str(cards)} the declarer called ({style.cite}; {log})"
    elif len(rows) == 1:
        why = "" if rows[0].grade == "major" else ", major since it lay beside another (Law 50B)"
        label = f"major penalty card {CARD_NAMES[rows[0].card]} (Law 50D1{why}; {log})"
    else:
        article = "a"
        names = " or ".join(CARD_NAMES[r.card] for r in rows)
        label = f"penalty card, {names} (two or more are all major, Law 50B; 50D1; {log})"
    required = allowed & cards
    if not required:
        why = ("he cannot play it without revoking, so he need not" if style.penalty == CALLED
               else f"not a legal play to this trick{_why_not(turn, allowed)}, so not due")
        return UNABLE, 0, f"{label}: {why}"
    if required >> turn.card & 1:
        return KEPT, required, f"{label}: played it"
    return BROKEN, required, f"did not play {article} {label} but {turn.played()}"


def _minor(row: FactRow, turn: _Turn, allowed: int, log: str) -> tuple[str, int, str]:
    """Law 50C: no other card of its suit below the rank of an honour before it."""
    card = CARD_NAMES[row.card]
    low = turn.hand & _BELOW_HONOUR[row.card // 13]
    label = f"minor penalty card {card} (Law 50C; {log})"
    if turn.card == row.card:
        return KEPT, 1 << row.card, f"{label}: played it"
    if low >> turn.card & 1 and allowed >> row.card & 1:
        return BROKEN, 1 << row.card, (f"played {CARD_NAMES[turn.card]} before the minor penalty "
                                       f"card {card} (Law 50C; {log})")
    return KEPT, 1 << row.card, f"{label} lies face up: he {turn.played()}"


def _why_not(turn: _Turn, allowed: int) -> str:
    if not turn.leads and turn.legal != turn.hand:
        return f" (he must follow in {_SUIT_WORD[turn.trick.suit_led]}s, Law 44C)"
    return " (a lead restriction rules it out)" if allowed != turn.legal else ""
