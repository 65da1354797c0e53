"""A rescored board's field (its traveller) before and after, as the director sees it: one
function gives it (``standings.Travellers``), ``explain`` prints it and both pages show it in
the board's section; the run's page adds the rank changes to its summary.  The session and
its figures are tests/test_rescore.py's, worked out by hand there and again here."""
from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from revoke_audit import audit_paths
from revoke_audit.ruling.audit import audit_board
from revoke_audit.cli.commands import main
from revoke_audit.reports.explain import field_lines, field_of, find_board
from revoke_audit.ruling.options import AuditOptions
from test_html import HOSTILE_NAME, Node, page_of
from test_rescore import (DEAL_1, DEAL_2, RANK_CHANGES as RANKS, SCORE_TABLE, SESSION, TABLE_1,
                          result)

# Board 2 of the session, highest N-S score first (the audited table before the table that
# tied it, as the records come): (N-S, E-W, contract, declarer, result before, after,
# score before, after, N-S % before, after, the audited table?).  Before 460 430 430 400:
# 6 3 3 0 of 6; after 460 460 430 400: 5 5 2 0 of 6.
BOARD_2 = [
    ("Lu N & Ned S", "Mo E & Oz W", "3NT", "S", "3NT+2", "3NT+2", 460, 460, 100.0, 83.33, False),
    ("Ed North & Gus South", "Flo East & =1+2", "3NT", "S", "3NT+1", "3NT+2", 430, 460, 50.0,
     83.33, True),
    ("Hal N & Jo S", "Ida E & Kim W", "3NT", "S", "3NT+1", "3NT+1", 430, 430, 50.0, 33.33, False),
    ("Pat N & Ray S", "Quin E & Sal W", "3NT", "S", "3NT=", "3NT=", 400, 400, 0.0, 0.0, False),
]
MP_LINE = "matchpoints: 2 per score beaten, 1 per tie, over a top of 2 x (4 - 1) = 6"
SAMPLE = Path(__file__).resolve().parents[1] / "fixtures" / "session"
TABLE = ("N-S", "E-W", "contract", "result", "N-S score", "N-S %")


@pytest.fixture
def session(tmp_path) -> Path:
    path = tmp_path / "session.pbn"
    path.write_text("".join(SESSION))
    return path


def rows_of(traveller) -> list[tuple]:
    return [(r.ns, r.ew, r.contract, r.declarer, r.result, r.result_adjusted, r.score,
             r.score_adjusted, round(r.figure, 2), round(r.figure_adjusted, 2), r.own)
            for r in traveller.rows]


def traveller(path: Path, board: str = "2", **options):
    (record,) = [r for r in find_board([path], board) if r.names[0] == "Ed North"]
    return field_of(path, audit_board(record, AuditOptions(**options)), AuditOptions(**options))


def test_the_field_of_the_revoke_board_by_hand(session):
    t = traveller(session, discovered="table")
    assert rows_of(t) == BOARD_2
    assert (t.method, t.results, t.how()) == ("mp", 4, MP_LINE)
    assert t.key == ("Thursday Pairs", "", "2026.11.20", "2")


def test_after_the_round_the_field_is_shown_unchanged(session):
    t = traveller(session)  # --discovered after-round: no transfer, the same scores
    assert [(r.score, r.score_adjusted, round(r.figure_adjusted, 2)) for r in t.rows] == [
        (460, 460, 100.0), (430, 430, 50.0), (430, 430, 50.0), (400, 400, 0.0)]


def test_a_board_without_a_field_has_none(tmp_path):
    path = tmp_path / "one.pbn"
    path.write_text(TABLE_1)
    (record,) = find_board([path], "2")
    assert field_of(path, audit_board(record, AuditOptions()), AuditOptions()) is None


# Neuberg: three more tables play board 1, which makes the event's largest field 6; board 2's
# four results are each taken for 6/4: MP' = (MP + 1) x 6 / 4 - 1 over 2 x 5 = 10.
# Before 6 3 3 0 -> 9.5 5 5 0.5: 95 50 50 5; after 5 5 2 0 -> 8 8 3.5 0.5: 80 80 35 5.
MORE_1 = [result("1", DEAL_1, "4H", "S", 10, f"N{i},E{i},S{i},W{i}") for i in range(3)]


def test_neuberg_is_said_with_its_numbers(tmp_path):
    path = tmp_path / "session.pbn"
    path.write_text("".join(SESSION + MORE_1))
    t = traveller(path, discovered="table")
    assert [(round(r.figure, 2), round(r.figure_adjusted, 2)) for r in t.rows] == [
        (95.0, 80.0), (50.0, 80.0), (50.0, 35.0), (5.0, 5.0)]
    assert t.method == "mp-neuberg"
    assert t.how() == ("matchpoints, Neuberg's formula (the event's largest field is 6): "
                       "(MP + 1) x 6 / 4 - 1, over a top of 2 x (6 - 1) = 10")


# --scoring butler (tests/test_rescore.py): before 400 430 430 460, datum the mean of 430 430;
# after 400 430 460 460, datum of 430 460 = 445, rounded to 450.
def test_butler_says_its_datum_before_and_after(session):
    out = Path(session).parent / "page.html"
    audit_paths([session], discovered="table", scoring="butler", html=out)
    (field,) = page_of(out).root.all("table", "field")
    assert heads(field) == ["N-S", "E-W", "contract", "result", "N-S score", "N-S IMPs"]
    assert [cells(tr)[-1] for tr in body(field)] == [
        "+1.00 → +0.00", "+0.00 → +0.00", "+0.00 → -1.00", "-1.00 → -2.00"]
    how = " ".join(page_of(out).root.all("p", "how")[0].text().split())
    assert ("Butler: IMPs (WBF scale) against the datum, the mean of the field without its top "
            "and bottom result, rounded to 10: datum N-S +430 before, +450 after") in how


def heads(table: Node) -> list[str]:
    return [" ".join(th.text().split()) for th in table.all("thead")[0].all("th")]


def body(table: Node) -> list[Node]:
    return table.all("tbody")[0].all("tr")


def cells(tr: Node) -> list[str]:
    return [" ".join(c.text().split()) for c in tr.children
            if isinstance(c, Node) and c.tag in ("td", "th")]


def expected_cells(row: tuple) -> list[str]:
    """A row of BOARD_2 as the page writes it: the audited table's first cell marked with a
    symbol (and words for a screen reader), a changed value ``before → after``, the figures
    always both."""
    ns, ew, contract, declarer, res, res_adj, score, score_adj, fig, fig_adj, own = row

    def change(a: str, b: str) -> str:
        return a if a == b else f"{a} → {b}"
    return [f"▶ {ns} (this table)" if own else ns, ew, f"{contract} {declarer}",
            change(res, res_adj), change(f"{score:+d}", f"{score_adj:+d}"),
            f"{fig:.2f} → {fig_adj:.2f}"]


def check_field_section(section: Node) -> None:
    (field,) = section.all("table", "field")
    assert heads(field) == list(TABLE)
    rows = body(field)
    assert [cells(tr) for tr in rows] == [expected_cells(r) for r in BOARD_2]
    # the audited table's row is marked by more than colour: a class, a symbol and words
    own = [tr for tr in rows if "own" in tr.classes()]
    assert own == [rows[1]] and "▶" in own[0].text()
    assert " ".join(section.all("p", "how")[0].text().split()) == (
        "4 results, " + MP_LINE + ".")


def test_the_run_page_shows_the_field_and_the_rank_changes(tmp_path, session):
    out = tmp_path / "page.html"
    audit_paths([session], discovered="table", html=out)
    tree = page_of(out)
    (section,) = tree.root.all("section", "board")
    check_field_section(section)
    summary = tree.root.all("section", "summary")[0]
    (ranks,) = summary.all("ul", "ranks")
    assert [" ".join(li.text().split()) for li in ranks.all("li")] == RANKS


def test_the_page_says_the_same_as_the_text_output(tmp_path, session):
    out = tmp_path / "page.html"
    res = CliRunner().invoke(main, ["audit", str(session), "--discovered", "table",
                                    "--html", str(out)])
    lines = res.output.splitlines()
    assert all(line in lines for line in RANKS)
    tree = page_of(out)
    check_field_section(tree.root.all("section", "board")[0])
    ranks = tree.root.all("ul", "ranks")[0]
    assert [" ".join(li.text().split()) for li in ranks.all("li")] == RANKS


def test_a_run_that_changes_no_rank_says_so(tmp_path, session):
    out = tmp_path / "page.html"
    audit_paths([session], html=out)  # after the round: no transfer, no rank changes
    summary = page_of(out).root.all("section", "summary")[0]
    assert not summary.all("ul", "ranks")
    assert "No pair's rank changes." in " ".join(summary.text().split())


def test_a_page_without_fields_has_no_field_table(tmp_path):
    out = tmp_path / "page.html"
    audit_paths([Path(__file__).resolve().parents[1] / "fixtures" / "mixed"], html=out)
    tree = page_of(out)
    assert not tree.root.all("table", "field") and not tree.root.all("ul", "ranks")
    assert "rank changes" not in tree.root.text()  # nothing said of rescoring when none is done


EXPLAIN_FIELD = """\
The field: board 2 of Thursday Pairs 2026.11.20, 4 results (> the table above)
  matchpoints: 2 per score beaten, 1 per tie, over a top of 2 x (4 - 1) = 6
  N-S Lu N & Ned S, E-W Mo E & Oz W: 3NT+2 by S, N-S +460; 100.00% -> 83.33%
> N-S Ed North & Gus South, E-W Flo East & =1+2: 3NT+1 by S -> 3NT+2,
    N-S +430 -> +460; 50.00% -> 83.33%
  N-S Hal N & Jo S, E-W Ida E & Kim W: 3NT+1 by S, N-S +430; 50.00% -> 33.33%
  N-S Pat N & Ray S, E-W Quin E & Sal W: 3NT= by S, N-S +400; 0.00% -> 0.00%
"""


def test_explain_shows_the_field_in_text_and_html(tmp_path, session):
    out = tmp_path / "board.html"
    res = CliRunner().invoke(main, ["explain", str(session), "--board", "2", "--game", "1",
                                    "--discovered", "table", "--html", str(out)])
    assert res.exit_code == 0, res.output
    assert res.output.endswith("\n\n" + EXPLAIN_FIELD)
    (section,) = page_of(out).root.all("section", "board")
    check_field_section(section)


def test_explain_of_a_board_without_a_field_says_nothing_of_one(tmp_path):
    path = tmp_path / "one.pbn"
    path.write_text(TABLE_1)
    res = CliRunner().invoke(main, ["explain", str(path), "--board", "2"])
    assert res.exit_code == 0, res.output
    assert "The field" not in res.output


# The record's ScoreTable (tests/test_rescore.py): 460, 430 twice (one is this record's), 400.
# Before: 100, 50, 50, 0; after (this record 460): 460 460 430 400 -> 83.33 83.33 33.33 0.
def test_a_score_table_field_shows_its_rows_and_the_record_apart(tmp_path):
    path = tmp_path / "table.pbn"
    path.write_text(TABLE_1 + SCORE_TABLE.format(mine=" 50.00") + "\n")
    t = traveller(path, discovered="table")
    assert t.from_table and t.how().startswith("the record's ScoreTable; matchpoints")
    assert [(r.ns, r.result, r.result_adjusted, r.score, r.score_adjusted,
             round(r.figure, 2), round(r.figure_adjusted, 2), r.own, r.times)
            for r in t.rows] == [
        ("", "3NT+2", "3NT+2", 460, 460, 100.0, 83.33, False, 1),
        ("Ed North & Gus South", "3NT+1", "3NT+2", 430, 460, 50.0, 83.33, True, 1),
        ("", "3NT+1", "3NT+1", 430, 430, 50.0, 33.33, False, 1),
        ("", "3NT=", "3NT=", 400, 400, 0.0, 0.0, False, 1)]
    # explain names a row without pair ids as the table it is
    assert "  another table: 3NT+1 by S, N-S +430; 50.00% -> 33.33%" in field_lines(t)


def test_a_hostile_pair_name_in_the_field_prints_as_text(tmp_path):
    path = tmp_path / "session.pbn"
    path.write_text("".join(SESSION).replace("Lu N", HOSTILE_NAME))
    out = tmp_path / "page.html"
    audit_paths([path], discovered="table", html=out)
    tree = page_of(out)
    assert [t for t, _ in tree.tags].count("script") == 1
    field = tree.root.all("table", "field")[0]
    assert cells(body(field)[0])[0] == f"{HOSTILE_NAME} & Ned S"
    ranks = [li.text() for li in tree.root.all("ul", "ranks")[0].all("li")]
    assert f"{HOSTILE_NAME} & Ned S (NS): 2nd -> 3rd (52.78 -> 44.44)" in ranks


# A team match (tests/test_rescore.py): the open room's 430 -> 460 against the closed room's
# 400: +30, 1 IMP, then +60, 2 IMPs; each match's open room first.
def test_a_team_match_is_shown_room_by_room_in_imps(tmp_path):
    path = tmp_path / "match.pbn"
    path.write_text(TABLE_1.replace('[Scoring "MP"]', '[Room "Open"]') + "\n"
                    + result("2", DEAL_2, "3NT", "S", 9, "Pat N,Quin E,Ray S,Sal W",
                             room="Closed"))
    (record,) = find_board([path], "2", room="open")
    options = AuditOptions(discovered="table")
    t = field_of(path, audit_board(record, options), options)
    assert t.method == "teams" and t.imps
    lines = field_lines(t)
    assert lines[1:] == [
        "  teams: the IMPs (WBF scale) of each match's open room N-S score against its",
        "    closed room's",
        "> open room: N-S Ed North & Gus South, E-W Flo East & =1+2: 3NT+1 by S -> 3NT+2,",
        "    N-S +430 -> +460; +1.00 -> +2.00 IMPs",
        "  closed room: N-S Pat N & Ray S, E-W Quin E & Sal W: 3NT= by S, N-S +400;",
        "    -1.00 -> -2.00 IMPs"]


def test_the_sample_session_page_shows_its_fields_and_rank_changes(tmp_path):
    """fixtures/session as README's first command runs it (tests/test_session.py works its
    figures out by hand): board 2's transfer at table 1 and board 3's finding without one."""
    out = tmp_path / "page.html"
    res = CliRunner().invoke(main, ["audit", str(SAMPLE), "--table-facts",
                                    str(SAMPLE / "director-log.csv"), "--html", str(out)])
    tree = page_of(out)
    sections = tree.root.all("section", "board")
    assert [s.all("h2")[0].text().split(" ·")[0] for s in sections] == [
        "Board 2, table 1", "Board 3, table 1"]
    figures = []
    for section in sections:
        (field,) = section.all("table", "field")
        assert heads(field) == ["table", *TABLE]
        figures.append([(cells(tr)[0], cells(tr)[5], cells(tr)[6], "own" in tr.classes())
                        for tr in body(field)])
    # highest N-S score first, this table first of those alike
    assert figures == [
        [("3", "+170", "100.00 → 75.00", False), ("2", "+140", "50.00 → 0.00", False),
         ("1", "-100 → +170", "0.00 → 75.00", True)],
        [("1", "+110", "75.00 → 75.00", True), ("2", "+110", "75.00 → 75.00", False),
         ("3", "-100", "0.00 → 0.00", False)]]
    ranks = [" ".join(li.text().split()) for li in tree.root.all("ul", "ranks")[0].all("li")]
    lines = res.output.splitlines()
    assert ranks == lines[lines.index(ranks[0]):][:len(ranks)] and len(ranks) == 2


def test_the_docs_explain_example_is_what_explain_prints():
    readme = (SAMPLE.parents[1] / "docs" / "guides" / "after-the-session.md").read_text()
    start = readme.index("The field: board 2 of Thursday Pairs 2026.11.19")
    shown = readme[start:readme.index("```", start)]
    res = CliRunner().invoke(main, ["explain", str(SAMPLE / "thursday-pairs.pbn"), "--board",
                                    "2", "--table", "1", "--table-facts",
                                    str(SAMPLE / "director-log.csv")])
    assert res.exit_code == 0, res.output
    assert res.output.endswith("\n\n" + shown)
    for line in readme[readme.rindex("```text", 0, start):start].splitlines()[2:4]:
        assert line in res.output.splitlines()  # the trick lines of the revoke
