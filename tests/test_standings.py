"""The standings (``standings``): a teams event's teams and matches, and the pair that played
too few boards to be ranked; every figure worked out by hand from files written for it."""
import csv
import io
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from revoke_audit.cli.commands import main
from revoke_audit.scoring.field import victory_points

TEAMS = Path(__file__).resolve().parents[1] / "fixtures" / "teams"
SUBSTITUTE = Path(__file__).resolve().parents[1] / "fixtures" / "pairs" / "substitute-pairs.pbn"

# The two matches of round 1 of Club Teams (fixtures/teams, both rooms of boards 1 and 2 each),
# the IMPs of each board worked out on the WBF scale (a difference of 20-40 points is 1 IMP,
# 50-80 2, ..., 430-490 10):
#   Lions (home, N-S in the open room) v Tigers:
#     board 1: open +420, closed -50: +470 to the open room's N-S, 10 IMPs to Lions;
#     board 2: open +430, closed +400: +30, 1 IMP to Lions; after the revoke's trick (64A2,
#              found at the table) the open room is +460: +60, 2 IMPs.
#     Lions 11-0 before, 12-0 after.
#   Bears (home) v Wolves:
#     board 1: open +450, closed +420: +30, 1 IMP to Bears;
#     board 2: open -50, closed +430: -480, 10 IMPs to Wolves.
#     Bears 1-10, no board adjusted.
# Each board's figures: the open room's N-S IMPs, the closed room's their negative.
BOARD_FIGURES = {  # (file, board, room) -> imps_ns, imps_ns_adjusted, field
    ("round1-bears-wolves.pbn", "1", "open"): ("1.0", "1.0", "2"),
    ("round1-bears-wolves.pbn", "1", "closed"): ("-1.0", "-1.0", "2"),
    ("round1-bears-wolves.pbn", "2", "open"): ("-10.0", "-10.0", "2"),
    ("round1-bears-wolves.pbn", "2", "closed"): ("10.0", "10.0", "2"),
    ("round1-lions-tigers.pbn", "1", "open"): ("10.0", "10.0", "2"),
    ("round1-lions-tigers.pbn", "1", "closed"): ("-10.0", "-10.0", "2"),
    ("round1-lions-tigers.pbn", "2", "open"): ("1.0", "2.0", "2"),
    ("round1-lions-tigers.pbn", "2", "closed"): ("-1.0", "-2.0", "2"),
}


def audit(tmp_path: Path, *args: str) -> tuple[str, list[dict], list[dict], str]:
    """The run's text output, boards.csv and standings rows, and findings.csv."""
    out = CliRunner().invoke(main, ["audit", *args, "--discovered", "table",
                                    "-o", str(tmp_path / "b.csv"),
                                    "--findings", str(tmp_path / "f.csv"),
                                    "--standings", str(tmp_path / "s.csv")])
    assert out.exit_code in (0, 1), out.output
    read = lambda name: list(csv.DictReader(io.StringIO((tmp_path / name).read_text())))
    return out.output, read("b.csv"), read("s.csv"), (tmp_path / "f.csv").read_text()


def unnamed(tmp_path: Path) -> Path:
    """The two matches with their HomeTeam and VisitTeam tags taken away."""
    folder = tmp_path / "round1"
    folder.mkdir()
    for path in TEAMS.glob("*.pbn"):
        text = re.sub(r'\[(HomeTeam|VisitTeam) "[^"]*"\]\n', "", path.read_text())
        (folder / path.name).write_text(text)
    return folder


def figures(boards: list[dict]) -> dict:
    return {(Path(b["source"]).name, b["board"], b["room"]):
            (b["imps_ns"], b["imps_ns_adjusted"], b["field"]) for b in boards}


def test_two_matches_of_a_round_in_two_files_are_two_fields(tmp_path):
    # without the teams' names, each file is one match: the two rooms of a board in one
    # file are its field, never the four rooms of the round's two files
    text, boards, table, findings = audit(tmp_path, str(unnamed(tmp_path)))
    assert figures(boards) == BOARD_FIGURES
    assert "SC001" not in findings


def test_a_match_whose_teams_are_not_named_gives_its_imps(tmp_path):
    text, boards, table, _ = audit(tmp_path, str(unnamed(tmp_path)))
    got = [(r["direction"], r["pair"], r["boards"], r["score"], r["score_adjusted"], r["rank"],
            r["rank_adjusted"]) for r in table]
    assert got == [
        ("match", "round1-bears-wolves.pbn round 1: home (N-S in the open room)", "2",
         "1.0", "1.0", "2", "2"),
        ("match", "round1-bears-wolves.pbn round 1: visitors (E-W in the open room)", "2",
         "10.0", "10.0", "1", "1"),
        ("match", "round1-lions-tigers.pbn round 1: home (N-S in the open room)", "2",
         "11.0", "12.0", "1", "1"),
        ("match", "round1-lions-tigers.pbn round 1: visitors (E-W in the open room)", "2",
         "0.0", "0.0", "2", "2"),
    ]
    assert "round1-lions-tigers.pbn round 1: 11-0 -> 12-0 IMPs (home, visitors)" in text


def test_named_teams_are_ranked_by_their_imps(tmp_path):
    # net IMPs (won less lost): Lions +11 -> +12, Wolves +9, Bears -9, Tigers -11 -> -12
    text, boards, table, _ = audit(tmp_path, str(TEAMS))
    assert figures(boards) == BOARD_FIGURES
    got = [(r["direction"], r["pair"], r["boards"], r["score"], r["score_adjusted"], r["rank"],
            r["rank_adjusted"]) for r in table]
    assert got == [("", "Lions", "2", "11.0", "12.0", "1", "1"),
                   ("", "Wolves", "2", "9.0", "9.0", "2", "2"),
                   ("", "Bears", "2", "-9.0", "-9.0", "3", "3"),
                   ("", "Tigers", "2", "-11.0", "-12.0", "4", "4")]
    # the adjusted board shows its own match's two rooms, not the other match's
    assert "N-S Lions: +1.00 IMPs -> +2.00 IMPs, E-W Tigers: -1.00 IMPs -> -2.00 IMPs" in text
    assert "Bears" not in text


def test_named_teams_are_ranked_by_victory_points_when_asked(tmp_path):
    # a match of 2 boards: blitz B = 15 sqrt 2 = 21.2132; tau = 0.618034, 1 - tau^3 = 0.763932
    # Lions by 11: tau^(33 / 21.2132) = tau^1.55563 = 0.47302: 10 + 10 x 0.52698 / 0.763932
    #   = 16.898 -> 16.90 (Tigers 3.10); by 12 after: tau^1.69706 = 0.44191: 17.3055 -> 17.31
    #   (Tigers 2.69)
    # Wolves by 9: tau^1.27279 = 0.54201: 15.9951 -> 16.00 (Bears 4.00)
    text, boards, table, _ = audit(tmp_path, str(TEAMS), "--victory-points")
    got = [(r["pair"], r["score"], r["score_adjusted"], r["rank"]) for r in table]
    assert got == [("Lions", "16.9", "17.31", "1"), ("Wolves", "16.0", "16.0", "2"),
                   ("Bears", "4.0", "4.0", "3"), ("Tigers", "3.1", "2.69", "4")]


@pytest.mark.parametrize("margin, boards, vp", [
    # 16 boards: B = 60; 1 IMP: tau^(3/60) = 0.976226, 10 + 10 x 0.023774 / 0.763932 = 10.31
    (0, 16, 10.0), (1, 16, 10.31), (-1, 16, 9.69),
    # 20 IMPs is B/3: tau^1 = 0.618034, 10 + 10 x 0.381966 / 0.763932 = 15.00
    (20, 16, 15.0),
    (60, 16, 20.0), (75, 16, 20.0), (-75, 16, 0.0),  # the blitz and beyond
])
def test_victory_points_on_the_wbf_scale(margin, boards, vp):
    assert victory_points(margin, boards) == vp


def test_a_missing_room_is_one_line_per_event_and_cause(tmp_path):
    # the closed room of board 1 of both matches taken away: two notes (SC001) in
    # findings.csv, one line in the text output
    folder = unnamed(tmp_path)
    for path in folder.glob("*.pbn"):
        games = path.read_text().split("\n\n")
        path.write_text("\n\n".join(g for g in games
                                    if not ('[Board "1"]' in g and '"Closed"' in g)))
    text, boards, _, findings = audit(tmp_path, str(folder))
    assert findings.count("SC001") == 2
    lines = [line for line in text.splitlines() if "SC001" in line]
    assert lines == ["Club Teams: 2 boards: not scored: a room is missing (SC001; each board "
                     "in the findings report)"]


# Substitute pairs (fixtures/pairs/substitute-pairs.pbn): a Mitchell of 4 boards, N-S pairs
# Ann & Al, Bo & Bea, Cy & Cat (boards 1-3) and the substitutes Sal & Sue (board 4), each board
# at three tables (top 4 matchpoints: 2 a score beaten, 1 a tie):
#   board 1: Ann +450, Bo +420, Cy -50    -> 4 2 0 of 4: 100, 50, 0
#   board 2: Ann +420, Bo +450, Cy +420   -> 1 4 1: 25, 100, 25
#   board 3: Ann +420, Bo -50, Cy +450    -> 2 0 4: 50, 0, 100
#   board 4: Ann +420, Bo -50, Sal +450   -> 2 0 4: 50, 0, 100
# N-S means: Ann 225 / 4 = 56.25, Bo 150 / 4 = 37.5, Cy 125 / 3 = 41.67, Sal 100 / 1 = 100.
# Sal & Sue played 1 of the event's 4 boards, less than half: listed after the others, with
# their board and score, not ranked (else first).  Cy & Cat played 3: ranked.
# E-W (100 less N-S): Xo & Xi 0 75 50 50 = 43.75, Yu & Ya 50 0 100 100 = 62.5,
# Zed & Zoe 100 75 0 0 = 43.75: Yu 1st, Xo and Zed 2nd.
def test_a_pair_that_played_less_than_half_the_boards_is_not_ranked(tmp_path):
    _, _, table, _ = audit(tmp_path, str(SUBSTITUTE))
    got = [(r["direction"], r["pair"], r["boards"], r["score"], r["rank"]) for r in table]
    assert got == [("NS", "Ann & Al", "4", "56.25", "1"),
                   ("NS", "Cy & Cat", "3", "41.67", "2"),
                   ("NS", "Bo & Bea", "4", "37.5", "3"),
                   ("NS", "Sal & Sue", "1", "100.0", ""),
                   ("EW", "Yu & Ya", "4", "62.5", "1"),
                   ("EW", "Xo & Xi", "4", "43.75", "2"),
                   ("EW", "Zed & Zoe", "4", "43.75", "2")]
