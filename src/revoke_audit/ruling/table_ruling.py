"""Never twice: the table's own ruling found in the record's stated result.  A stated result
the recorded cards cannot give (``replay.by_cards``) but that the automatic rectification of
this board gives - under the edition applied, or the code in force at the record's date - is
the table's ruling: it stands, and nothing more moves (``LW002``); when no ruling explains it,
it is a record error (``not_given``, RC022).  ``discovery.decide`` asks ``in_stated`` once:
when the stated result lies outside what the cards allow, the editions are asked in one step
(``table_ruling``: the ruling that gives it, and whether another total would), then the
words are made from what they said (``as_held``): a trick the record does not have said as
what the cards force, or allow, never as played."""
from __future__ import annotations

import re
from dataclasses import replace
from typing import NamedTuple

from ..core.cards import card_str
from ..core.findings import Finding, tricks
from ..laws import TABLE, Edition, Ruling, get_edition
from ..laws.common import TABLE_RULING
from ..laws.dates import edition_for
from ..core.record import BoardRecord
from ..replay import Replay
from ..replay.by_cards import AtEnd
from ..replay.model import COMPLETE


#: the ways to play the rest that are a handful (the claim's totals): all ruled, to say whether
#: another total gives the stated result too; a full enumeration is not ruled through
_FEW_WAYS = 14


class AtTable(NamedTuple):
    """What the stated result says of the table's own ruling: the ruling it holds (``held``,
    LW002), or the RC022 of a result no ruling gives (``impossible``); neither when the result
    lies within what the cards allow, or there is nothing to rule."""

    held: Ruling | None = None
    impossible: Finding | None = None


def in_stated(rp: Replay, edition: Edition, stated: int | None, cards: AtEnd) -> AtTable:
    """The table's ruling held in a stated result the recorded cards cannot give (``cards``:
    what they allow, ``by_cards.at_end``), found with the editions' rulings in one step, or
    the RC022 of a result no ruling gives when the play stops early (a complete play's Result
    is checked by RC023)."""
    span = cards.span
    if (not (rp.revokes or rp.defects) or span is None or stated is None
            or span[0] <= stated <= span[1]):
        return AtTable()
    held = table_ruling(rp, edition, stated, cards)
    if held is None:
        return AtTable(None, None if rp.play_status == COMPLETE else not_given(rp, span, stated))
    return AtTable(as_held(rp, held, stated, cards.settled, span))


def table_ruling(rp: Replay, edition: Edition, stated: int, cards: AtEnd) -> Held | None:
    """The automatic ruling that gives exactly ``stated`` - under the edition applied first,
    then the code in force at the record's date - for the play as recorded or, when it stops
    early, some legal way of playing the cards left (with every way tried, to say what the
    cards force and what they only allow); None when none does.  Where the ways tried are a
    handful (the claim's totals), every one is ruled under the code that gives ``stated``, to
    say whether another total would give it too (``Held.only``; a full enumeration is not
    ruled through)."""
    editions = [edition]
    dated = get_edition(edition_for(rp.record, "auto")[0])
    if dated.name != edition.name:
        editions.append(dated)
    plays = [rp] if rp.play_status == COMPLETE else cards.ways
    for code in editions:
        held, totals = None, set()  # the ruling that gives ``stated``; the totals that do
        for full in plays:
            if held is not None and len(plays) > _FEW_WAYS:
                break
            ruling = code.rule(full, TABLE)
            if any(f.transferred for f in ruling.findings) and ruling.tricks_adjusted == stated:
                totals.add(full.tricks_played)
                if held is None:
                    held = Held(ruling, full.tricks_played, code.title, plays, code)
        if held is not None:
            return held._replace(only=len(plays) <= _FEW_WAYS and totals == {held.from_cards})
    return None


class Held(NamedTuple):
    """The table's ruling found in the stated result: the ruling, the cards' tricks it starts
    from, the code's title, the plays tried (the record, or the ways its cards allow), the
    code, and whether no other total the cards allow gives the stated result under it."""

    ruling: Ruling
    from_cards: int
    title: str
    plays: list
    code: Edition
    only: bool = False


def as_held(rp: Replay, held: Held, stated: int, by_cards: int | None,
          span: tuple[int, int] | None) -> Ruling:
    """The stated result holds the table's ruling: it is the adjusted result; the findings say
    what the table gave - a trick the record does not have said as what the cards force, or
    allow, never as played - and the LW002 note which rule it matches, from what the cards
    allow (a range is never stated as the one total the tool picked)."""
    ruling, from_cards = held.ruling, held.from_cards
    ruling.tricks_adjusted = stated
    stop, allow = _stops(rp), _cards_words(rp, span, from_cards)
    ruling.findings = [_unrecorded_words(rp, f, held.plays, stop) for f in ruling.findings]
    laws = ", ".join(dict.fromkeys(f.law for f in ruling.findings if f.transferred))
    moved = tricks(abs(stated - from_cards))
    only = "only " if span is None or span[0] == span[1] or held.only else ""
    ruling.findings.append(Finding(
        "LW002", f"the stated result ({stated}) already holds the table's ruling: "
        f"{allow}; {only}{from_cards} with {laws}'s {moved} "
        f"({held.title}) gives the stated {stated}; no further trick is transferred",
        rp.record.result_line or rp.record.claim_line or rp.record.line))
    ruling.tricks_played = from_cards
    ruling.tricks_by_cards = by_cards
    ruling.tricks_automatic = stated
    ruling.cards_span = span if span is not None else (from_cards, from_cards)
    ruling.basis = TABLE_RULING
    return ruling


def _cards_words(rp: Replay, span: tuple[int, int] | None, from_cards: int) -> str:
    """What the recorded cards give declarer: the play as recorded, a total every legal way of
    playing the rest gives, or the range they allow."""
    if rp.play_status == COMPLETE:
        return f"the cards as played give declarer {from_cards}"
    rest = f"tricks {len(rp.complete_tricks) + 1}-13"
    stop = _stops(rp)
    if span is None or span[0] == span[1]:
        return (f"every legal way of playing {rest} gives declarer {from_cards}, by the cards "
                f"({stop})")
    return f"the cards allow declarer {span[0]} to {span[1]} over {rest} ({stop})"


def _stops(rp: Replay) -> str:
    """"the record stops in trick 11" (a trick under way) or "after trick 8"."""
    done = len(rp.complete_tricks)
    if len(rp.tricks) > done:
        return f"the record stops in trick {done + 1}"
    return f"the record stops after trick {done}"


_WON = re.compile(r"(North|East|South|West) won trick (\d+) with ([SHDC][AKQJT2-9])")


def _unrecorded_words(rp: Replay, f: Finding, plays: list, stop: str) -> Finding:
    """A finding's words about a trick the record does not have ("North won trick 12 with
    C5", from one legal way of playing the rest) said as what the cards force - the tricks
    he wins after the record with cards of the suit he revoked in, the same in every way the
    cards allow - or, when they do not force it, as one way they allow (``stop``: where the
    record stops, ``_stops``)."""
    m = _WON.search(f.why or "")
    if m is None or int(m.group(2)) <= len(rp.tricks) or f.seat is None:
        return f
    fact = next((r for r in rp.revokes if (r.trick, r.seat) == (f.trick, f.seat)), None)
    if fact is None:
        return f
    wins = {_held_wins(full, fact, len(rp.tricks)) for full in plays}
    if len(wins) == 1 and next(iter(wins))[0]:
        ((won, cards),) = wins
        ts = " and ".join(str(t) for t in sorted(won))
        cs = " and ".join(card_str(c) for c in sorted(cards, reverse=True))
        plural = "s" if len(won) > 1 else ""
        words = f"{m.group(1)} must win trick{plural} {ts} with {cs}, by the cards ({stop})"
    else:
        words = f"{m.group(0)} in one legal way of playing the cards left ({stop})"
    if " and " in words:  # two cards: "either of which he could legally have played"
        words += ", either of"
        words, old = words, m.group(0) + ","
    else:
        old = m.group(0)
    return replace(f, why=f.why.replace(old, words), message=f.message.replace(old, words))


def _held_wins(full: Replay, fact, recorded: int) -> tuple[frozenset, frozenset]:
    """The tricks after the record that ``fact``'s player wins in ``full`` with a card of
    the suit he revoked in, held at the revoke, and those cards (in whichever order)."""
    won, cards = set(), set()
    for t in full.tricks[recorded:]:
        card = t.card_of(fact.seat)
        if t.winner == fact.seat and card is not None and fact.held >> card & 1:
            won.add(t.number)
            cards.add(card)
    return frozenset(won), frozenset(cards)


def not_given(rp: Replay, span: tuple[int, int], stated: int) -> Finding:
    """RC022: a stated result the cards cannot give and no ruling explains is a record error,
    kept as the total the table agreed (Laws 69, 71)."""
    rec: BoardRecord = rp.record
    allow = str(span[0]) if span[0] == span[1] else f"{span[0]} to {span[1]}"
    return Finding("RC022", f"Result of {stated} tricks for declarer is not what the recorded "
                   f"cards allow ({allow}), nor what a revoke ruling on this board gives; kept as "
                   "the total the table agreed (Laws 69, 71)", rec.result_line or rec.line)
