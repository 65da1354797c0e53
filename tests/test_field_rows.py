"""The fields' scoring pass (``rescore._score_all``: the plain fields straight from their rows,
``field_rows``; the others from their entries, ``by_entries``) against the pass it replaced,
kept here as the reference: every field read back as entries, twice (the events scored and
their largest matchpoint field from the entries themselves, then the figures), a teams
match's figures put room by room.  Both must give the same figures, results (in order), notes
(in order) and largest fields, on fields drawn at random with the odd cases among them: a
room missing, a room twice, a ScoreTable board, a record read twice, the same players at two
tables, players not all named, a board number as text ("017", " 2")."""
from __future__ import annotations

from collections import defaultdict

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from revoke_audit.scoring.by_entries import (_cells, once, room_notes, score_field,
                                             score_on_table)
from revoke_audit.scoring.field import teams
from revoke_audit.scoring.figures import Figures, Results, _values
from revoke_audit.scoring.notes import FIELDS, TABLES, UNNAMED, Notes, note
from revoke_audit.scoring.rescore import METHODS, Fields, Scored, _score_all

# --- the reference: the pass as it was ------------------------------------------------------


def reference(fields: Fields) -> Scored:
    """Every field scored from its entries, in two passes over ``Fields.fields``."""
    method, trim = fields.method, fields.trim
    store = fields._store
    figures, results, notes = Figures(store), Results(store, fields.entry), Notes(store)
    tabled, fielded = notes.part(TABLES), notes.part(FIELDS)
    scored: set[tuple] = set()
    largest: dict[tuple, int] = defaultdict(int)
    for key, entries in fields.fields():
        kept, _, asked = once([e for e in entries if e.table is None])
        if len(kept) > 1:
            scored.add(key[:3])
        if (method or asked) == "mp":
            largest[key[:3]] = max(largest[key[:3]], len(kept))
    for key, entries in fields.fields():
        for e in entries:
            if e.table is not None:
                score_on_table(key, e, method, trim, tabled, results, figures)
        kept, copies, asked = once([e for e in entries if e.table is None])
        if key[:3] not in scored:
            continue
        big = largest[key[:3]]  # every event scored is in ``largest`` (0: no matchpoints)
        if (method or asked) == "teams":
            _teams(key, kept, fielded, results, figures)
        else:
            score_field(key, kept, method or asked, big, trim, fielded, results, figures)
        for ordinal, first in copies.items():  # as ``Figures.copy`` did: at once, one by one
            got = next(map(_values, store.figures("WHERE ordinal = ?", first)), None)
            if got is not None:
                figures.put(ordinal, got)
    notes.part(UNNAMED).extend(_unnamed(results))
    return Scored(figures, notes, results, dict(largest), trim)


def _teams(key, entries, notes, results, figures) -> None:
    """A teams field as it was scored: each match's rooms, their figures put one by one."""
    matches = defaultdict(list)
    for e in entries:
        matches[e.match].append(e)
    for rooms in matches.values():
        if len(rooms) != 2 or sorted(e.room.lower() for e in rooms) != ["closed", "open"]:
            notes.extend(room_notes(key, [(e.source, e.line, e.game, e.room) for e in rooms]))
            continue
        o, c = sorted(rooms, key=lambda e: e.room.lower() != "open")
        before, after = teams(o.before, c.before), teams(o.after, c.after)
        figures.put(o.ordinal, _cells(2, "teams", imps=(before[0], after[0])))
        figures.put(c.ordinal, _cells(2, "teams", imps=(before[1], after[1])))
        results.add(o, "teams", before[0], after[0], late=True)
        results.add(c, "teams", before[1], after[1], late=True)


def _unnamed(results: Results):
    for r in results:
        if not all(r.entry.names):
            yield note(r.entry, r.key, "SC003", f"board {r.key[3]} is scored, but its players "
                       "are not all named: this table's pairs cannot be followed across boards "
                       "and are left out of the standings", "scored, but the players are not "
                       "all named: left out of the standings")


# --- the fields ----------------------------------------------------------------------------

EVENTS = [("Cup", "", "2026.11.20"), ("Pairs", "A", ""), ("Hand record", "", "")]
PLAYERS = [("N1", "E1", "S1", "W1"), ("N2", "E2", "S2", "W2"), ("N3", "E3", "S3", "W3"),
           ("N4", "E4", "S4", "W4"), ("", "E5", "S5", "W5"), ("", "", "", "")]
SCORES = [-200, -50, 0, 100, 420, 430, 450, 460, 1430]
# a ScoreTable: 460, 430 twice, 400 (a record of 430 finds its row; one of 420 does not)
TABLE = ("Contract\\5L;Declarer\\1;Score_NS\\5R;Multiplicity",
         ("3NT S 460 1", "3NT S 430 2", "3NT S 400 1"))

table = st.fixed_dictionaries({
    "event": st.integers(0, len(EVENTS) - 1),
    "board": st.sampled_from(["1", "2", "3", "017", " 2"]),
    "source": st.sampled_from(["a.lin", "b.lin"]),
    "room": st.sampled_from(["open", "closed", "Open", "CLOSED", "", "other"]),
    "match": st.sampled_from(["", "Home|Visit|1", "Lions|Tigers|2", "|"]),
    "scoring": st.sampled_from(["", "", "IMP", "MP", "Butler", "Cross-IMPs"]),
    "players": st.integers(0, len(PLAYERS) - 1),
    "before": st.sampled_from(SCORES),
    "adjusted": st.sampled_from([None, None, None, 30, -300]),
    "table": st.sampled_from([None] * 8 + [TABLE]),
})


def _fields(tables: list[dict], method: str | None) -> Fields:
    fields = Fields(method)
    n = len(tables)
    fields.add(range(0, 2 * n, 2), [EVENTS[t["event"]] for t in tables],
               [t["board"] for t in tables], [t["before"] for t in tables],
               [t["before"] + (t["adjusted"] or 0) for t in tables], range(1, n + 1),
               [1 + i % 3 for i in range(n)],
               [(t["source"], t["room"], t["match"], t["scoring"], "3NT", "S", "None")
                for t in tables], [PLAYERS[t["players"]] for t in tables],
               [t["table"] for t in tables])
    return fields


def _seen(scored: Scored) -> tuple:
    return (list(scored.figures.items()), scored.figures.count,
            [(r.key, r.entry, r.method, r.before, r.after) for r in scored.results],
            list(scored.notes), scored.notes.counted(), scored.largest)


def _same(tables: list[dict], method: str | None) -> tuple:
    with _fields(tables, method) as old, _fields(tables, method) as new:
        want, got = _seen(reference(old)), _seen(_score_all(new))
    assert got == want
    return got


def _t(event=0, board="1", source="a.lin", room="open", match="Home|Visit|1", scoring="",
       players=0, before=420, adjusted=None, table=None) -> dict:
    return dict(event=event, board=board, source=source, room=room, match=match,
                scoring=scoring, players=players, before=before, adjusted=adjusted,
                table=table)


# The odd cases by name, each worked out: what the pass must give besides equal the reference.
def test_a_match_of_two_rooms_scores_both_on_the_imp_scale():
    # open 620 (after: 700) against closed 170: 450 is 10 IMPs (430-490); after, 530 is 11
    # (500-590); the closed room's the same negated
    figures, _, results, notes, _, _ = _same([_t(before=620, adjusted=80),
                                               _t(room="closed", players=1, before=170)], None)
    assert [v for _, v in figures] == [(2, None, None, 10.0, 11.0, "teams"),
                                       (2, None, None, -10.0, -11.0, "teams")]
    assert [r[2:] for r in results] == [("teams", 10, 11), ("teams", -10, -11)] and not notes


@pytest.mark.parametrize("rooms, cause", [
    (["open"], "not scored: a room is missing"),
    (["open", "open"], "not scored: a match has a room twice, or more than two rooms"),
    (["open", "closed", "closed"], "not scored: a match has a room twice, or more than two rooms"),
])
def test_a_match_without_its_two_rooms_once_each_is_noted(rooms, cause):
    # the other match of the board is scored; this one's tables each get SC001
    tables = [_t(room=room, players=i) for i, room in enumerate(rooms)]
    tables += [_t(match="Lions|Tigers|2", players=4, before=100),
               _t(match="Lions|Tigers|2", room="closed", players=5, before=-50)]
    figures, _, _, notes, _, _ = _same(tables, None)
    assert [n["code"] for n in notes] == ["SC001"] * len(rooms) + ["SC003", "SC003"]
    assert {n.cause for n in notes[:len(rooms)]} == {cause}
    assert [o for o, _ in figures] == [2 * len(rooms), 2 * len(rooms) + 2]


def test_a_score_table_board_a_record_twice_and_the_same_players():
    tables = [_t(scoring="MP", room="", match="", before=430, table=TABLE),  # on its table
              _t(scoring="MP", room="", match="", board="2", players=0, before=420),
              _t(scoring="MP", room="", match="", board="2", players=0, before=420),  # twice
              _t(scoring="MP", room="", match="", board="2", players=1, before=450),
              _t(scoring="MP", room="", match="", board="3", players=2, before=420),
              _t(scoring="MP", room="", match="", board="3", players=2, before=450)]
    figures, _, _, notes, _, largest = _same(tables, None)
    # board 1: 430 of 460 430 430 400 -> 3 of 6, 50%; board 2: 420 (and its copy) 0%, 450
    # 100%; board 3: the same players at two tables with different results (SC002)
    assert dict(figures)[0][:3] == (4, 50.0, 50.0)
    assert [dict(figures)[o][1] for o in (2, 4, 6)] == [0.0, 0.0, 100.0]
    assert [n["code"] for n in notes] == ["SC002", "SC002"]
    assert largest == {EVENTS[0]: 2}


def test_board_numbers_as_text_are_fields_of_their_own():
    tables = [_t(board=b, players=i, room=r, before=s) for i, (b, r, s) in enumerate(
        [("017", "open", 420), ("017", "closed", 450), (" 2", "open", 100),
         ("2", "closed", 140)])]
    figures, _, results, notes, _, _ = _same(tables, None)
    assert [r[0][3] for r in results] == ["017", "017"]  # " 2" and "2": a room missing each
    assert [n["board"] for n in notes] == [" 2", "2"]


def test_a_hand_record_of_one_table_a_board_is_not_scored():
    assert _same([_t(event=2, board=str(b)) for b in range(1, 5)], None)[:4] == ([], 0, [], [])


@pytest.mark.parametrize("method", [None, *METHODS])
@settings(max_examples=100, deadline=None)
@given(tables=st.lists(table, min_size=1, max_size=24))
@example(tables=[_t(), _t(room="closed", players=1), _t(room="closed", players=1)])
@example(tables=[_t(), _t(room="closed", players=1),  # a match, its results numbered in a
                 _t(board="2"), _t(board="2"), _t(board="2", room="closed", players=1),
                 _t(board="3", players=2), _t(board="3", room="closed", players=3)])
def test_the_pass_scores_every_field_as_the_reference_does(method, tables):
    _same(tables, method)
