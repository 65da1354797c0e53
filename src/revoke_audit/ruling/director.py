"""A ruling as a Director reads it out at the table or writes it for an appeal: who (name and
seat), which trick, the suit led and the card played, how the revoke was established (Law 63A),
the Law and what it gives, the tricks, the final contract and result, the score for both sides
- and on what basis (``ruling_basis``: 64A, a 64B clause, the table's ruling in the record).

findings.csv's ``ruling`` column, and ``explain``'s "Director's ruling"."""
from __future__ import annotations

from .audit import BoardAudit
from ..core.cards import card_str, holding_str, seat_name
from ..core.findings import Finding
from ..laws import Scoring
from ..laws.common import ADJUSTED_64C, NO_64C, TABLE_RULING
from ..replay.model import CLAIMED
from ..scoring import result_string, score_ns

_RULED = ("RV001", "RV002", "RV003", "RV004", "DT001", "DT002")


def ruling_text(a: BoardAudit, f: Finding) -> str:
    """The Director's words for a revoke or defective-trick finding (empty for any other)."""
    if f.code not in _RULED or f.seat is None:
        return ""
    parts = [f"{_who(a, f.seat)}, trick {f.trick}: {_what(f)}", _established(a, f),
             _law(f), _tricks(a), _score(a), _law_64c(a, f), confirm_words(a, f),
             f"basis: {a.ruling.basis}"]
    return "; ".join(p for p in parts if p) + "."


def _who(a: BoardAudit, seat: int) -> str:
    name = a.record.names[seat]
    role = f", {_role(a, seat)}" if a.replay.declarer is not None else ""
    return f"{name} ({seat_name(seat)}{role})" if name else f"{seat_name(seat)} ({_role(a, seat)})"


def _role(a: BoardAudit, seat: int) -> str:
    declarer = a.replay.declarer
    if declarer is None:
        return ""
    return "declarer" if seat == declarer else "dummy" if seat == (declarer + 2) % 4 else "defender"


def _what(f: Finding) -> str:
    """What he did (the finding's own words), with the Law it breaks."""
    if f.code.startswith("DT"):
        return f"{f.what} (a defective trick, Law 67)"
    if not f.what:
        return card_str(f.card)
    return f.what if "(Law " in f.what else f"{f.what} (Law 61A)"


def _law(f: Finding) -> str:
    """What the Law gives, naming it first unless the words already do."""
    if not f.law or f"({f.law}" in f.why:
        return f.why
    return f"{f.law}: {f.why}"


def _established(a: BoardAudit, f: Finding) -> str:
    """Law 63A: how the record shows the revoke established (or not)."""
    if f.code.startswith("DT"):
        return ""
    if f.established is False or f.code == "RV004":
        return "not established (Law 63A): the record stops before his side played on"
    rp, t = a.replay, f.trick or 0
    if t < len(rp.tricks):
        nxt = rp.tricks[t]
        side = [s for s, _, _ in nxt.plays if s % 2 == f.seat % 2] + [
            s for s in nxt.unknown if s % 2 == f.seat % 2]
        if side:
            who = "he" if side[0] == f.seat else "his partner"
            return f"established when {who} played to trick {t + 1} (63A1)"
    later = _recorded_after(a, f)
    if later is not None:
        who = "he" if later == f.seat else "his partner"
        return (f"established when {who} played to trick {t + 1} (63A1: the record goes on "
                "past the trick where the replay had to stop)")
    if rp.claim is not None or rp.play_status == CLAIMED:
        return "established by the claim that ends the record (63A3)"
    return "established (63A)"


def _recorded_after(a: BoardAudit, f: Finding) -> int | None:
    """The offender or his partner, when the record gives a card of his on the trick after the
    revoke though the replay stopped before it (a PBN line names each card's trick and seat)."""
    side = [p.seat for p in a.record.play if p.trick == (f.trick or 0) + 1
            and p.card is not None and p.seat is not None and p.seat % 2 == f.seat % 2]
    return (f.seat if f.seat in side else side[0]) if side else None


def _tricks(a: BoardAudit) -> str:
    r = a.ruling
    if r.basis == TABLE_RULING:
        return f"tricks for declarer: {cards_words(a)}, {_n(r.tricks_adjusted)} in the result"
    if r.tricks_played is None and r.tricks_adjusted is None:
        return "tricks not known from the record"
    known = ("" if r.tricks_automatic == r.tricks_adjusted else
             f" ({_n(r.tricks_automatic)} had the table known in time)")
    rp = a.replay
    how = ("by the Result" if rp.stopped_at is not None and rp.play_status == CLAIMED
           and a.record.claim is None else "played")
    return (f"tricks for declarer: {_n(r.tricks_played)} {how}, {_n(r.tricks_adjusted)} "
            f"adjusted{known}")


def cards_words(a: BoardAudit) -> str:
    """With the table's ruling in the result (LW002): declarer's tricks the cards give it
    from - "7 by the cards", or the range they allow and the one total the ruling fits."""
    r = a.ruling
    lo, hi = r.cards_span or (r.tricks_played, r.tricks_played)
    if lo == hi:
        return f"{_n(r.tricks_played)} by the cards"
    return f"{lo} to {hi} by the cards ({_n(r.tricks_played)} the one the table's ruling fits)"


def scored_at_table(a: BoardAudit) -> str:
    """With the table's ruling in the result (LW002): the result as the table scored it is
    the adjusted result - nothing to correct."""
    rec = a.record
    result = result_string(rec.contract, a.ruling.tricks_adjusted) or "?"
    by = f" by {seat_name(rec.declarer)}" if rec.declarer is not None else ""
    ns = score_ns(rec.contract, rec.declarer, rec.vul, a.ruling.tricks_adjusted)
    score = f", N-S {ns:+d}, E-W {-ns:+d}" if ns is not None else ""
    laws = ", ".join(dict.fromkeys(f.law for f in a.ruling.findings if f.transferred))
    return (f"as scored at the table: {result}{by}{score} (the table's {laws or 'own'} "
            "ruling, already in the result); no change")


def _score(a: BoardAudit) -> str:
    rec, r = a.record, a.ruling
    if r.basis == TABLE_RULING:
        return scored_at_table(a)
    if a.ruling_64c == ADJUSTED_64C and a.tricks_64c is not None:
        head = "result before 64C"  # the final result is the one 64C assigns
    else:
        head = "final result"
    result = result_string(rec.contract, r.tricks_adjusted)
    if not result:
        return ""
    by = f" by {seat_name(rec.declarer)}" if rec.declarer is not None else ""
    if r.scoring != Scoring.DUPLICATE:
        return f"{head} {result}{by} (rubber scoring)"
    ns = score_ns(rec.contract, rec.declarer, rec.vul, r.tricks_adjusted)
    if ns is None:
        return f"{head} {result}{by}"
    return f"{head} {result}{by}: N-S {ns:+d}, E-W {-ns:+d}"


#: How the paragraph opens its Law 64C decision (the tool decides it: no referral).
_CONSIDERED = "64C considered: "


def _law_64c(a: BoardAudit, f: Finding) -> str:
    """Law 64C decided, on the paragraph of an established revoke: the revoke's own cost and
    how it was measured, and "no damage, the result stands" or the result 64C assigns.  Each
    revoke's paragraph quotes its own cost (``BoardAudit.words_64c_by``)."""
    if not (f.code.startswith("RV") and f.established) or a.ruling_64c == NO_64C:
        return ""
    words = a.words_64c_by.get((f.trick, f.seat, f.card), a.words_64c)
    words = _CONSIDERED + (words[len("64C: "):] if words.startswith("64C: ") else
                           words.replace(": 64C: ", ": "))
    if a.ruling_64c != ADJUSTED_64C or a.tricks_64c is None:
        return words
    rec = a.record
    result = result_string(rec.contract, a.tricks_64c)
    by = f" by {seat_name(rec.declarer)}" if rec.declarer is not None else ""
    ns = score_ns(rec.contract, rec.declarer, rec.vul, a.tricks_64c)
    score = f": N-S {ns:+d}, E-W {-ns:+d}" if ns is not None else ""
    return f"{words}, the Director assigns {result}{by}{score}: the final result"


_SUIT_WORDS = ("spade", "heart", "diamond", "club")

#: What the Director does about a card that may be the record's slip.
CONFIRM = "confirm the card with the record's source before signing"


def confirm_words(a: BoardAudit, f: Finding) -> str:
    """Item of the paragraph for a revoke card that may be a slip of the recorder's (Law 61A
    is broken only by a card played): what to confirm, and whether the ruling depends on it."""
    if not f.code.startswith("RV") or f.trick is None or f.seat is None:
        return ""
    reading = a.confirm.get((f.trick, f.seat))
    if reading is None:
        return ""
    if reading.kept:
        return _deal_error_words(a, f, reading)
    if reading.last_line:
        return _last_line_words(a)
    if reading.twin is None:
        return ("a revoke by dummy, whose cards are on view: at championship level usually the "
                f"operator's slip - {CONFIRM}")
    twin = card_str(reading.twin)
    head = f"possibly a recording slip (he held {twin}, of the same rank): {CONFIRM}"
    if reading.tricks_adjusted is None:
        return (f"{head}; read as {twin}, the rest of the record no longer fits the deal (the "
                "card as recorded is the likelier)")
    if reading.winner is not None:
        return f"{head}; read as {twin}, {_next_lead_words(a, f, reading)}"
    return f"{head}; read as {twin}, {_other_ruling(a, f, reading)}"


def _last_line_words(a: BoardAudit) -> str:
    """Declarer's revoke on his own side's lead, on the record's unfinished last trick: a
    likely slip of the operator's; whether the ruling depends on it (without the revoke there
    is no ruling: declarer keeps the tricks the record gives him)."""
    r = a.ruling
    head = ("declarer's card on his own side's lead, on the record's unfinished last trick "
            f"before it ends: very likely the operator's slip - {CONFIRM}")
    if r.tricks_played is None:
        return head
    if r.tricks_adjusted == r.tricks_played and a.ruling_64c != ADJUSTED_64C:
        return (f"{head}; without the revoke there is no ruling and the result stands: the "
                f"ruling is the same either way ({r.tricks_played} tricks for declarer)")
    return (f"{head}; without the revoke there is no ruling: declarer would keep "
            f"{r.tricks_played} tricks, not the ruling's")


def _next_lead_words(a: BoardAudit, f: Finding, reading) -> str:
    """The other reading gives the revoke trick another winner, who would lead the next trick
    (Law 44G): which reading the record's next trick fits, and the ruling that way."""
    t, other, recorded = f.trick, seat_name(reading.winner), seat_name(reading.winner_recorded)
    head = f"{other} would have won trick {t} and led trick {t + 1}"
    if reading.misfit is not None and reading.misfit_recorded is None:
        return (f"{head}, where {_fails(reading.misfit)}; the record's trick {t + 1} fits "
                f"{recorded}'s lead, as the {card_str(f.card)} makes {recorded} the winner of "
                "the trick: the card as recorded is the likelier")
    if reading.misfit_recorded is not None and reading.misfit is None:
        fails = _fails(reading.misfit_recorded, "fails")
        return (f"{head}, and the record's trick {t + 1} fits that lead: as recorded, "
                f"{recorded} wins trick {t}, leads, and {fails}, which {other}'s lead explains: "
                f"the reading {card_str(reading.twin)} is the likelier: read that way, "
                f"{_other_ruling(a, f, reading)}")
    return f"{head}; the record's trick {t + 1} fits either lead; {_other_ruling(a, f, reading)}"


def _fails(fact, verb: str = "would fail") -> str:
    """"West's D5 would fail to follow a heart lead, holding HT"."""
    suit = _SUIT_WORDS[fact.suit_led]
    return (f"{seat_name(fact.seat)}'s {card_str(fact.card)} {verb} to follow a {suit} "
            f"lead, holding {holding_str(fact.held)}")


def _other_ruling(a: BoardAudit, f: Finding, reading) -> str:
    """The ruling on the other reading of a possible slip, against the ruling as recorded."""
    if reading.later is None:  # no revoke at all that way: no ruling, nor any 64C
        return (f"there is no revoke: no ruling, declarer keeps {reading.tricks_adjusted} "
                "tricks")
    fact = reading.later_fact  # the card he plays there that way, not the recorded revoke's
    later = (f"his {card_str(fact.card)} on trick {reading.later} becomes the revoke (holding "
             f"{holding_str(fact.held)}) and ")
    if reading.tricks_adjusted == a.ruling.tricks_adjusted:
        return (f"{later}the ruling is the same either way ({reading.tricks_adjusted} tricks "
                "for declarer)")
    return (f"{later}declarer would have {reading.tricks_adjusted} tricks, not "
            f"{_n(a.ruling.tricks_adjusted)}")


def _deal_error_words(a: BoardAudit, f: Finding, reading) -> str:
    """A player failing twice to follow a suit while keeping a card of it: a likely deal error,
    naming the card the deal probably misplaces - or one recording slip, the kept card at the
    first of those tricks, with the ruling read that way."""
    kept, suit = holding_str(reading.kept), _SUIT_WORDS[f.suit_led]
    on = ", ".join(str(t) for t in reading.tricks[:-1]) + f" and {reading.tricks[-1]}"
    if reading.slip is not None:
        return _one_slip_words(a, f, reading, suit, on)
    head = (f"likely a deal error, not {len(reading.tricks)} revokes: he failed to follow a "
            f"{suit} lead on tricks {on} while keeping {kept}")
    if reading.unplayed:
        return (f"{head}, which the record never shows him playing: the deal probably "
                f"misplaces his {kept} - {CONFIRM}")
    return f"{head} each time: a card of his in the deal is probably misplaced - {CONFIRM}"


def _one_slip_words(a: BoardAudit, f: Finding, reading, suit: str, on: str) -> str:
    """One slip explains every revoke of the group: say it, the ruling that way, and what the
    Director must confirm before signing (the 64C adjustment rests on it, where there is one)."""
    slip, first = card_str(reading.slip), reading.tricks[0]
    who = "dummy" if _is_dummy(a, f) else "he"
    same = " (the trick's winner and the next lead are unchanged)" if reading.slip_same_winner \
        else ""
    head = (f"{who} failed to follow a {suit} lead on tricks {on} while keeping {slip}: "
            f"likely one recording slip, {slip} at trick {first}{same}, or a misplaced {slip} "
            "in the deal, not {n} revokes".format(n=len(reading.tricks)))
    rec, tricks = a.record, reading.tricks_adjusted
    if reading.slip_revokes or tricks is None:
        that_way = f"read that way, {seat_name(f.seat)} has no revoke"
    else:
        res = result_string(rec.contract, tricks)
        by = f" by {seat_name(rec.declarer)}" if rec.declarer is not None else ""
        ns = score_ns(rec.contract, rec.declarer, rec.vul, tricks)
        score = f", N-S {ns:+d}" if ns is not None else ""
        that_way = f"read that way, there is no revoke and no 64C: {res}{by}{score} stands"
    what = ("before signing the 64C adjustment, which rests on it" if
            a.ruling_64c == ADJUSTED_64C else "before signing")
    return f"{head}; {that_way}; confirm trick {first} with the record's source {what}"


def _is_dummy(a: BoardAudit, f: Finding) -> bool:
    d = a.replay.declarer
    return d is not None and f.seat == (d + 2) % 4


def confirm_cells(a: BoardAudit) -> str | None:
    """boards.csv ``confirm_card``: the revoke cards to confirm with the record's source before
    signing, as "trick 5 West DQ (SQ?)" (dummy's: "trick 3 North C3 (dummy)"; a likely deal
    error: "trick 1 South D2 (kept HJ: deal error?)"), joined by "; "."""
    out = []
    for (trick, seat), reading in sorted(a.confirm.items()):
        card = next((f.card for f in a.replay.revokes if (f.trick, f.seat) == (trick, seat)),
                    None)
        what = "dummy" if reading.twin is None else f"{card_str(reading.twin)}?"
        if reading.last_line:
            what = "declarer: last line"
        if reading.kept:
            what = f"kept {holding_str(reading.kept)}: deal error?"
        if reading.slip is not None:
            rests = " - the 64C adjustment rests on it" if a.ruling_64c == ADJUSTED_64C else ""
            what = (f"{card_str(reading.slip)} at trick {reading.tricks[0]}? one slip: no "
                    f"revoke{rests}")  # no comma: the boards.csv cells after the field's are plain
        out.append(f"trick {trick} {seat_name(seat)} {card_str(card)} ({what})")
    return "; ".join(out) or None


def _n(n: int | None) -> str:
    return "?" if n is None else str(n)


__all__ = ["ruling_text", "confirm_words", "confirm_cells", "cards_words", "scored_at_table",
           "CONFIRM"]
