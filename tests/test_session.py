"""The bundled sample session (``fixtures/session``) as a director reads it: a three-table
Mitchell (three rounds of two boards) with every table's play, its director's log, and two
revokes - one noticed at the table that changes the winner, one only the audit finds.  Every
score and percentage below is worked out by hand from the records (the working is in the
comments), not taken from a run."""
import csv
import io
from pathlib import Path

from click.testing import CliRunner

from revoke_audit import audit_paths
from revoke_audit.cli.commands import main
from revoke_audit.formats import read_file
from revoke_audit.formats.lin.write import format_lin

SESSION = Path(__file__).resolve().parents[1] / "fixtures" / "session"
PBN = SESSION / "thursday-pairs.pbn"
LOG = SESSION / "director-log.csv"

# Board 2, table 1: 3S by North, vulnerable. Trick 4: North leads H6, East HK, South H5, West
# ruffs with S5 holding H9 and wins; West's DJ wins trick 5 (the revoke is established) and
# East wins tricks 6 to 8. Declarer took 8 tricks (1-3 and 9-13): 3S-1, N-S -100. The log says
# North called the Director at the table, so 64A1 applies: West won the revoke trick (one
# trick) and his side won a later trick (one more): 10 tricks, 3S+1, N-S +170.
# Board 3, table 1: 3C by North. Trick 3: South leads C8, West C5, North C2, East discards D2
# holding CK alone; South wins; East wins trick 8 with CK (64A2 would transfer one). Nobody
# noticed at the table: after the round, no transfer (64B5): 3C= stays +110.
#
# N-S scores and matchpoints (2 per score beaten, 1 per tie; top 4; percent = MP / 4):
# board 1 (3C by East): t1 -150, t2 -130, t3 -110 -> 0 2 4 -> 0 / 50 / 100
# board 2 (3S by North): t1 -100, t2 +140, t3 +170 -> 0 2 4 -> 0 / 50 / 100;
#         after: t1 +170 -> 3 0 3 -> 75 / 0 / 75
# board 3 (3C by North): t1 +110, t2 +110, t3 -100 -> 3 3 0 -> 75 / 75 / 0
# board 4 (3NT by East, all vul): t1 +300 (6 tricks), t2 -600, t3 -630 -> 100 / 50 / 0
# board 5 (2H by North, N-S vul): t1 +110, t2 +140, t3 -100 -> 50 / 100 / 0
# board 6 (3NT by East): -630 at every table -> 50 / 50 / 50
BOARDS = {  # (board, table): (N-S score, adjusted, MP% before, after)
    ("1", "1"): (-150, -150, 0.0, 0.0), ("1", "2"): (-130, -130, 50.0, 50.0),
    ("1", "3"): (-110, -110, 100.0, 100.0),
    ("2", "1"): (-100, 170, 0.0, 75.0), ("2", "2"): (140, 140, 50.0, 0.0),
    ("2", "3"): (170, 170, 100.0, 75.0),
    ("3", "1"): (110, 110, 75.0, 75.0), ("3", "2"): (110, 110, 75.0, 75.0),
    ("3", "3"): (-100, -100, 0.0, 0.0),
    ("4", "1"): (300, 300, 100.0, 100.0), ("4", "2"): (-600, -600, 50.0, 50.0),
    ("4", "3"): (-630, -630, 0.0, 0.0),
    ("5", "1"): (110, 110, 50.0, 50.0), ("5", "2"): (140, 140, 100.0, 100.0),
    ("5", "3"): (-100, -100, 0.0, 0.0),
    ("6", "1"): (-630, -630, 50.0, 50.0), ("6", "2"): (-630, -630, 50.0, 50.0),
    ("6", "3"): (-630, -630, 50.0, 50.0),
}
# Standings: N-S pair k sits at table k all session. Mean of the six percentages:
# pair 1 (0 0 75 100 50 50) = 45.83, after (0 75 75 100 50 50) = 58.33
# pair 2 (50 50 75 50 100 50) = 62.50, after (50 0 75 50 100 50) = 54.17
# pair 3 (100 100 0 0 0 50) = 41.67, after (100 75 0 0 0 50) = 37.50
# E-W pairs (100 - the N-S figure of the table they sat at): Baker-Dunn play board 2 at
# table 1 (100 -> 25), Ford-Hunt at table 3 (0 -> 25), Jones-Lamb at table 2 (50 -> 100):
# Baker-Dunn 18 MP of 24 = 75.00 -> 15 = 62.50; Jones-Lamb 11 = 45.83 -> 13 = 54.17;
# Ford-Hunt 7 = 29.17 -> 8 = 33.33.
STANDINGS = [
    ("NS", "Ann Archer & Cy Cole", "45.83", "58.33", "2", "1"),
    ("NS", "Ed Evans & Gus Grant", "62.5", "54.17", "1", "2"),
    ("NS", "Ivy Irving & Kay Kemp", "41.67", "37.5", "3", "3"),
    ("EW", "Bob Baker & Di Dunn", "75.0", "62.5", "1", "1"),
    ("EW", "Jo Jones & Lu Lamb", "45.83", "54.17", "2", "2"),
    ("EW", "Flo Ford & Hal Hunt", "29.17", "33.33", "3", "3"),
]


def _audit(tmp_path, *args, log: bool = True):
    out = {name: tmp_path / f"{name}.csv"
           for name in ("boards", "findings", "standings", "corrections")}
    args = ["audit", *map(str, args), "-o", str(out["boards"]), "--findings",
            str(out["findings"]), "--standings", str(out["standings"]), "--corrections",
            str(out["corrections"])]
    r = CliRunner().invoke(main, args + (["--table-facts", str(LOG)] if log else []))
    assert r.exit_code == 1, r.output  # revokes were found
    return r, {k: list(csv.DictReader(io.StringIO(p.read_text()))) for k, p in out.items()}


def _boards(rows):
    return {(r["board"], r["room"]): (int(r["score_ns"]), int(r["score_ns_adjusted"]),
                                      float(r["mp_pct_ns"]), float(r["mp_pct_ns_adjusted"]))
            for r in rows}


def _standings(rows):
    return [(r["direction"], r["pair"], r["score"], r["score_adjusted"], r["rank"],
             r["rank_adjusted"]) for r in rows]


def test_the_session_is_a_mitchell_with_every_tables_play():
    records = list(read_file(str(PBN)))
    assert len(records) == 18 and all(len(r.play) == 52 for r in records)
    seen = {(r.board, r.room) for r in records}
    assert seen == set(BOARDS)
    pairs = {(r.names[0], r.names[1]) for r in records}  # (North, East): each meets once
    assert len(pairs) == 9


def test_the_revoke_noticed_at_the_table_changes_the_winner(tmp_path):
    r, out = _audit(tmp_path, SESSION)
    assert _boards(out["boards"]) == BOARDS
    assert _standings(out["standings"]) == STANDINGS
    rulings = {(f["board"], f["code"], f["law"]) for f in out["findings"]}
    assert rulings == {("2", "RV001", "64A1"), ("3", "RV002", "64B5")}
    assert r.output.splitlines()[-4:-2] == [
        "Ann Archer & Cy Cole (NS): 2nd -> 1st (45.83 -> 58.33)",
        "Ed Evans & Gus Grant (NS): 1st -> 2nd (62.50 -> 54.17)",
    ]
    assert "2 tricks transferred to North-South (64A1)" in r.output
    assert "board 3 table 1: RV002 [64B5]" in r.output and "64C" in r.output


# The corrections to enter, worked from the record and the rulings above: only board 2 at
# table 1 changes (round 1; N-S Archer-Cole, E-W Baker-Dunn): 3S by North, 8 tricks = 3S-1,
# N-S -100 (vulnerable, one down); 64A1 gives N-S two tricks: 10 = 3S+1, N-S +170 (90 for
# three spades, 50 partscore, 30 for one overtrick). Board 3's revoke was found after the
# round (64B5): nothing moves, nothing to enter.
CORRECTIONS = [{
    "event": "Thursday Pairs", "section": "", "round": "1", "table": "1", "board": "2",
    "ns_pair": "Ann Archer & Cy Cole", "ew_pair": "Bob Baker & Di Dunn", "declarer": "N",
    "result_before": "3S-1", "score_ns_before": "-100", "result_after": "3S+1",
    "score_ns_after": "170", "basis": "64A1", "source": "thursday-pairs.pbn", "line": "51",
}]


def test_the_corrections_to_enter_are_the_one_board_the_ruling_changes(tmp_path):
    r, out = _audit(tmp_path, SESSION)
    got = [{**row, "source": Path(row["source"]).name} for row in out["corrections"]]
    assert got == CORRECTIONS
    # the same list ends the text output, one line a board
    assert r.output.splitlines()[-2:] == [
        "score corrections to enter (1 board):",
        "  Thursday Pairs, round 1, table 1, board 2: N-S Ann Archer & Cy Cole, E-W Bob Baker "
        "& Di Dunn: 3S-1 by N (N-S -100) -> 3S+1 (N-S +170); 64A1",
    ]


def test_the_corrections_head_the_directors_page(tmp_path):
    page = tmp_path / "page.html"
    _audit(tmp_path, SESSION, "--html", page)
    html = page.read_text()
    top = html.index('id="corrections-h"')
    assert top < html.index("Irregular boards")  # at the top, before the boards
    table = html[top:html.index("</table>", top)]
    assert table.count("<tr>") == 2  # the header and board 2
    assert "<td>3S-1 by N (-100)</td><td>3S+1 (+170)</td><td>64A1</td>" in table


def test_without_the_log_only_law_64c_corrects(tmp_path):
    """Without the log both revokes are found after the round (64B5: no transfer), and the
    only correction is board 2 at table 1, where Law 64C assigns a result (see below): 3S-1,
    N-S -100 as played -> 3S= (nine tricks, vulnerable: 90 + 50 partscore), N-S +140, the
    result the Director signs."""
    r, out = _audit(tmp_path, SESSION, log=False)
    assert [(c["board"], c["table"], c["result_before"], c["score_ns_before"],
             c["result_after"], c["score_ns_after"], c["basis"])
            for c in out["corrections"]] == [("2", "1", "3S-1", "-100", "3S=", "140", "64C")]
    assert "3S-1 by N (N-S -100) -> 3S= (N-S +140); 64C" in r.output


def test_without_the_log_both_revokes_are_after_the_round_and_only_64c_moves(tmp_path):
    r, out = _audit(tmp_path, SESSION, log=False)
    # board 2 after the round: following with H9, trick 4 is East's (HK) instead of West's,
    # and the solver gives declarer 9 tricks from there, not the 8 he took: the revoke cost
    # N-S a trick and no transfer gives it back, so 64C assigns 3S=, N-S +140.  The
    # automatic score (score_ns_adjusted) stays -100; the field scores the signed +140:
    # board 2: t1 +140, t2 +140, t3 +170 -> 1 1 4 MP of 4 -> 25 / 25 / 100.
    assert {(f["board"], f["code"], f["law"]) for f in out["findings"]} == \
        {("2", "RV002", "64B5"), ("2", "EQ001", "64C"), ("3", "RV002", "64B5")}
    want = {k: (v[0], v[0], v[2], v[2]) for k, v in BOARDS.items()}
    want[("2", "1")], want[("2", "2")] = (-100, -100, 0.0, 25.0), (140, 140, 50.0, 25.0)
    assert _boards(out["boards"]) == want
    signed = {(b["board"], b["room"]): (b["result_64c"], b["score_ns_64c"])
              for b in out["boards"] if b["ruling_64c"] == "adjusted"}
    assert signed == {("2", "1"): ("3S=", "140")}
    # N-S pair 1 (0 25 75 100 50 50) = 50.00, pair 2 (50 25 75 50 100 50) = 58.33, pair 3
    # unchanged 41.67; E-W: Baker-Dunn 18 -> 17 MP of 24 = 70.83, Jones-Lamb 11 -> 12 = 50.00,
    # Ford-Hunt 7 = 29.17 unchanged.  Ranks stay as they were.
    got = {(s[0], s[1]): (s[3], s[4], s[5]) for s in _standings(out["standings"])}
    assert got[("NS", "Ann Archer & Cy Cole")] == ("50.0", "2", "2")
    assert got[("NS", "Ed Evans & Gus Grant")] == ("58.33", "1", "1")
    assert got[("EW", "Bob Baker & Di Dunn")] == ("70.83", "1", "1")
    assert got[("EW", "Jo Jones & Lu Lamb")] == ("50.0", "2", "2")


def test_one_lin_per_table_gives_the_same_figures(tmp_path):
    """The session as a club's BBO tables would write it: one LIN file per table, the
    records in the order played (LIN carries no event or date, so its field is the run's)."""
    by_table: dict[str, list[str]] = {}
    for record in read_file(str(PBN)):
        by_table.setdefault(record.room, []).append(format_lin(record))
    folder = tmp_path / "lin"
    folder.mkdir()
    for table, lines in by_table.items():
        (folder / f"table-{table}.lin").write_text("".join(lines))
    log = tmp_path / "log.csv"
    log.write_text("source,event,board,room,trick,seat,fact,value\ntable-1.lin,,2,,,,discovered,table\n")
    out = tmp_path / "boards.csv"
    r = CliRunner().invoke(main, ["audit", str(folder), "-o", str(out), "--table-facts", str(log),
                                  "--standings", str(tmp_path / "standings.csv")])
    assert r.exit_code == 1, r.output
    rows = list(csv.DictReader(io.StringIO(out.read_text())))
    tables = {Path(row["source"]).stem.split("-")[1] for row in rows}
    assert tables == {"1", "2", "3"}
    got = {(row["board"], Path(row["source"]).stem.split("-")[1]):
           (int(row["score_ns"]), int(row["score_ns_adjusted"]), float(row["mp_pct_ns"]),
            float(row["mp_pct_ns_adjusted"])) for row in rows}
    assert got == BOARDS
    standings = list(csv.DictReader(io.StringIO((tmp_path / "standings.csv").read_text())))
    assert [(s[1], s[2], s[3]) for s in _standings(standings)] == \
        [(s[1], s[2], s[3]) for s in STANDINGS]


def test_jobs_and_the_library_give_the_same_figures(tmp_path):
    r, out = _audit(tmp_path, SESSION, "--jobs", "2")
    assert _boards(out["boards"]) == BOARDS and _standings(out["standings"]) == STANDINGS
    result = audit_paths([str(SESSION)], table_facts=str(LOG))
    got = [(s.direction, s.pair, f"{s.score:g}", f"{s.score_adjusted:g}", str(s.rank),
            str(s.rank_adjusted)) for s in result.standings.itertuples()]
    assert got == [(d, p, f"{float(a):g}", f"{float(b):g}", r1, r2)
                   for d, p, a, b, r1, r2 in STANDINGS]


def test_the_readme_shows_what_the_first_command_prints(tmp_path, monkeypatch):
    """The Quick start's output block is the sample run's output, word for word."""
    root = SESSION.parents[1]
    readme = (root / "README.md").read_text()
    block = readme.split("The\nfirst command prints:\n\n```text\n", 1)[1].split("\n```", 1)[0]
    monkeypatch.chdir(root)
    r = CliRunner().invoke(main, ["audit", "fixtures/session", "--table-facts",
                                  "fixtures/session/director-log.csv", "-o", str(tmp_path / "b.csv"),
                                  "--findings", str(tmp_path / "f.csv"), "--standings",
                                  str(tmp_path / "s.csv"), "--corrections",
                                  str(tmp_path / "c.csv"), "--exit-zero"])
    reports = "reports: out/boards.csv out/findings.csv out/standings.csv out/corrections.csv"
    assert block == r.output.rstrip("\n") + "\n" + reports
