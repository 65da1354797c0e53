"""The whole-board fast lane (``lane``) gives exactly the full audit's rows, or leaves the
board to it: on generated files, on games changed one tag or card at a time, under each
edition and option, and on every corpus PBN file; and it is taken for clean plain games."""
from __future__ import annotations

import csv
import io
import random
import re
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from revoke_audit.engine import lane
from revoke_audit.core.cards import SEATS
from revoke_audit.formats.pbn import read_pbn
from revoke_audit.ruling.options import AuditOptions
from revoke_audit.laws.table_facts import read_table_facts
from revoke_audit.reports.report import CsvText

from test_pbn_fast import MUTATIONS, plain_game

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus"


def rows(data: bytes, options: AuditOptions, use_lane: bool, monkeypatch) -> list:
    monkeypatch.setattr(lane, "ENABLED", use_lane)
    return list(lane.render_records(read_pbn(io.BytesIO(data), "x.pbn", plain=True), options))


def taken(monkeypatch) -> list:
    """The rows the lane gives, as they are given."""
    got: list = []
    real = lane.plain_row

    def counting(pg, options, lean=False):
        row = real(pg, options, lean)
        if row is not None:
            got.append(row)
        return row
    monkeypatch.setattr(lane, "plain_row", counting)
    return got


def assert_same(data: bytes, monkeypatch, options: AuditOptions = AuditOptions()) -> None:
    full = rows(data, options, False, monkeypatch)
    fast = rows(data, options, True, monkeypatch)
    assert len(fast) == len(full)
    for a, b in zip(full, fast):
        assert a == b, f"line {a.row and a.row['line']}"
    assert_same_lines(full, fast)


def assert_same_lines(full: list, fast: list) -> None:
    """The lane's boards.csv lines (made from its cells, ``LaneRow.line``) are the writer's
    of the full audit's rows."""
    for a, b in zip(full, fast):
        if b.row is not None:
            assert CsvText().lines(b)[0] == CsvText().lines(a)[0], b.row["line"]


def clean_game(rnd: random.Random, number: int) -> str:
    """``test_pbn_fast.plain_game`` made consistent: the auction starts with the dealer and
    gives the stated contract and declarer, and Result is what the play gives (so a game with
    a full play and no revoke is clean)."""
    text = plain_game(rnd, number)
    tag = dict(re.findall(r'\[(\w+) "([^"]*)"\]', text))
    dealer = rnd.randrange(4)
    declarer = SEATS.index(tag["Declarer"])
    calls = ["Pass"] * ((declarer - dealer) % 4) + [tag["Contract"], "Pass", "Pass", "Pass"]
    text = re.sub(r'\[Auction "\w"\]\n[^\[]*', f'[Auction "{SEATS[dealer]}"]\n'
                  + " ".join(calls) + "\n", text)
    text = change_tag(text, "Dealer", SEATS[dealer])
    row = next(iter(lane.render_records(read_pbn(io.BytesIO(text.encode()), "x.pbn"),
                                        AuditOptions()))).row
    if row["tricks_played"] is not None:
        text = change_tag(text, "Result", str(row["tricks_played"]))
    return text


def clean_file(seed: int, games: int = 30, mutate: float = 0.25) -> bytes:
    """Consistent plain games (``clean_game``), some changed by ``test_pbn_fast.MUTATIONS``."""
    rnd = random.Random(seed)
    texts = [clean_game(rnd, n) for n in range(1, games + 1)]
    texts = [rnd.choice(MUTATIONS)(t) if rnd.random() < mutate else t for t in texts]
    return ("% PBN 2.1\n% EXPORT\n\n" + "\n".join(texts)).encode()


# --- generated files ----------------------------------------------------------------------------

@pytest.mark.parametrize("seed", range(10))
def test_generated_files_give_the_full_audits_rows(seed, monkeypatch):
    data = clean_file(seed)
    got = taken(monkeypatch)
    assert_same(data, monkeypatch)
    assert len(got) >= 5  # the lane was taken, and gave the same rows


@pytest.mark.parametrize("laws", ["auto", "2017", "2007", "1997", "1932", "bridge-whist"])
@pytest.mark.parametrize("discovered", ["table", "after-round"])
def test_every_edition_and_discovery_gives_the_full_audits_rows(laws, discovered, monkeypatch):
    options = AuditOptions(laws=laws, discovered=discovered)
    got = taken(monkeypatch)
    assert_same(clean_file(3), monkeypatch, options)
    assert bool(got) == (laws not in ("1932", "bridge-whist"))  # rubber codes: the full way


@pytest.mark.parametrize("run_boards", [1, 3, 1000])
def test_runs_hold_the_lanes_rows_in_order(run_boards, monkeypatch):
    """``runs=True`` gives consecutive boards of the lane as CleanRuns of at most RUN_BOARDS
    boards.csv lines, the other boards in their places: the same lines in the same order."""
    from revoke_audit.reports.rows import CleanRun

    monkeypatch.setattr(lane, "RUN_BOARDS", run_boards)
    data = clean_file(4, games=40)
    writer = CsvText()
    want = [writer.lines(r)[0] for r in rows(data, AuditOptions(), True, monkeypatch)]
    got = list(lane.render_records(read_pbn(io.BytesIO(data), "x.pbn", plain=True),
                                   AuditOptions(), runs=True))
    flat = [line for r in got for line in writer.lines(r)[0].splitlines(keepends=True)]
    assert flat == want  # a run's lines are the lines of the rows the lane gives one by one
    runs = [r for r in got if type(r) is CleanRun]
    assert runs and all(r.boards == r.csv[0].count("\n") <= run_boards for r in runs)
    if run_boards < 40:
        assert any(r.boards == run_boards for r in runs)  # the bound is reached, not passed
    assert sum(r.boards for r in got) == len(want)
    assert any(type(r) is not CleanRun for r in got)  # boards the full way, in between


def test_the_lane_is_taken_for_clean_plain_games(monkeypatch):
    """Every clean game but the last (read line by line) takes the lane: played out, or
    stopped after a whole trick with a Result (a claim)."""
    data = clean_file(7, games=40, mutate=0)
    got = taken(monkeypatch)
    full = rows(data, AuditOptions(), True, monkeypatch)
    clean = [r for r in full[:-1] if r.status == "clean"]
    assert got == clean and len(clean) > 15
    assert {r.row["play"] for r in got} == {"complete", "claimed"}


# --- one change at a time ------------------------------------------------------------------------

CHANGES = [
    ("Dealer", ["N", "E", "S", "W", "n", "North", "X", "", "?"]),
    ("Vulnerable", ["None", "NS", "EW", "All", "Both", "Love", "-", "ns", "Q", ""]),
    ("Declarer", ["N", "E", "S", "W", "s", "South", "^N", "", "?"]),
    ("Contract", ["1S", "3NT", "4HX", "2DXX", "Pass", "7C", "8S", "", "4 S", "3N"]),
    ("Result", ["0", "7", "9", "13", "14", "NS 9", "EW 4", "^9", "", "x"]),
    ("Auction", ["N", "E", "S", "W", "", "Q"]),
    ("Play", ["N", "E", "S", "W", "", "x"]),
    ("Date", ["2024.01.01", "1990.05.05", "1933.01.01", "2017", "", "?"]),
    ("Board", ["1", " 2 ", "", "x"]),
]


def change_tag(text: str, name: str, value: str | None) -> str:
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if line.startswith(f"[{name} "):
            if value is None:
                del lines[i]
            else:
                lines[i] = f'[{name} "{value}"]'
            break
    return "\n".join(lines)


def change_card(text: str, k: int, token: str) -> str:
    head, _, play = text.partition('[Play "')
    seat, _, cards = play.partition("\n")
    tokens = cards.split()
    if tokens:
        tokens[k % len(tokens)] = token
    return head + '[Play "' + seat + "\n" + "\n".join(
        " ".join(tokens[i:i + 4]) for i in range(0, len(tokens), 4)) + "\n"


def swap_cards(text: str, a: int, b: int) -> str:
    head, _, play = text.partition('[Play "')
    seat, _, cards = play.partition("\n")
    tokens = cards.split()
    if tokens:
        a, b = a % len(tokens), b % len(tokens)
        tokens[a], tokens[b] = tokens[b], tokens[a]
    return head + '[Play "' + seat + "\n" + "\n".join(
        " ".join(tokens[i:i + 4]) for i in range(0, len(tokens), 4)) + "\n"


def cut_play(text: str, cards: int, star: bool) -> str:
    """The play cut after ``cards`` cards, with or without a ``*`` after them."""
    head, _, play = text.partition('[Play "')
    seat, _, rest = play.partition("\n")
    tokens = [t for t in rest.split() if t != "*"][:cards] + (["*"] if star else [])
    return head + '[Play "' + seat + "\n" + "\n".join(
        " ".join(tokens[i:i + 4]) for i in range(0, len(tokens), 4)) + "\n"


CHANGE = st.one_of(
    st.sampled_from(CHANGES).flatmap(
        lambda nv: st.tuples(st.just("tag"), st.just(nv[0]),
                             st.one_of(st.none(), st.sampled_from(nv[1])))),
    st.tuples(st.just("card"), st.integers(0, 51), st.sampled_from(["SA", "H2", "DT", "CK", "-",
                                                                      "sa", "S10", "*"])),
    st.tuples(st.just("swap"), st.integers(0, 51), st.integers(0, 51)),
    st.tuples(st.just("cut"), st.integers(0, 52), st.booleans()),
)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 10_000), st.lists(CHANGE, min_size=1, max_size=3))
def test_a_changed_game_gives_the_full_audits_row(seed, changes):
    """Each change either leaves the game clean (and the lane's row is the full audit's) or
    gives the full audit something to say (and the lane leaves the board to it)."""
    games = clean_file(seed % 50, games=4).decode().split("\n\n")
    text = games[1]
    for kind, a, b in changes:
        if kind == "tag":
            text = change_tag(text, a, b)
        elif kind == "card":
            text = change_card(text, a, b)
        elif kind == "cut":
            text = cut_play(text, a, b)
        else:
            text = swap_cards(text, a, b)
    games[1] = text
    data = "\n\n".join(games).encode()
    with pytest.MonkeyPatch.context() as mp:
        assert_same(data, mp)


def test_a_director_log_sends_the_boards_it_names_the_full_way(monkeypatch, tmp_path):
    """A log may add revokes only it shows: a board one of its rows names (here board 1, and
    any board in a file it names without a board) goes the full way; the others keep the
    lane, and every row is the full audit's."""
    log = tmp_path / "log.csv"
    log.write_text("source,event,board,room,trick,seat,fact,value\n"
                   "x.pbn,,1,,2,E,penalty-card,D8 major\n"
                   "other.pbn,,,,2,E,penalty-card,D8 major\n")
    options = AuditOptions(table_facts=read_table_facts(log))
    data = clean_file(1, mutate=0)
    assert_same(data, monkeypatch, options)
    audited: list = []
    real = lane.audit_board
    monkeypatch.setattr(lane, "audit_board", lambda r, *a: audited.append(r.board) or real(r, *a))
    rows(data, AuditOptions(), True, monkeypatch)  # the boards the lane leaves anyway
    alone = list(audited)
    assert 0 < len(alone) < 20 and "1" not in alone
    del audited[:]
    rows(data, options, True, monkeypatch)
    assert audited == ["1"] + alone
    log.write_text("source,event,board,room,trick,seat,fact,value\n"
                   "x.pbn,,,,2,E,penalty-card,D8 major\n")
    del audited[:]
    rows(data, AuditOptions(table_facts=read_table_facts(log)), True, monkeypatch)
    assert audited == [str(n) for n in range(1, 31)]


def test_a_board_with_another_boards_deal_is_named_from_plain_games_around_it(monkeypatch):
    """Board 3's record carries board 2's deal; its play is that of the deal a later plain
    game (board 6) has.  The finding names board 6's deal as the repair, as when every board
    went the full way: ``coherence.with_neighbours`` asks the plain game for its hands."""
    rnd = random.Random(4)
    games = [clean_game(rnd, n) for n in range(1, 6)]
    games.append(change_tag(games[2], "Board", "6"))
    games.append(clean_game(rnd, 7))  # the last game is read line by line: board 6 is plain
    deal = re.search(r'\[Deal "[^"]*"\]', games[1]).group(0)
    games[2] = re.sub(r'\[Deal "[^"]*"\]', deal, games[2])
    data = "\n".join(games).encode()
    got = taken(monkeypatch)
    assert_same(data, monkeypatch)
    third = rows(data, AuditOptions(), True, monkeypatch)[2]
    assert third.status == "inconsistent" and "board 6" in third.findings[0]["message"]
    assert any(r.row["board"] == "2" for r in got)  # board 2 itself took the lane


# --- the corpus ----------------------------------------------------------------------------------

def corpus_rows_both_ways(fmt: str, rows_of, monkeypatch) -> tuple[int, list]:
    """Every corpus file of ``fmt`` audited without and with the lane (``rows_of(data,
    use_lane)``), asserted equal; (boards, the lane's rows).  Skips without the corpus."""
    if not (CORPUS / "SOURCES.tsv").exists():
        pytest.skip("shared corpus not present")
    with open(CORPUS / "SOURCES.tsv", newline="", encoding="utf-8") as f:
        paths = [CORPUS / r["local_path"] for r in csv.DictReader(f, delimiter="\t")
                 if r["format"] == fmt]
    got = taken(monkeypatch)
    boards = 0
    for path in paths:
        data = path.read_bytes()
        full = rows_of(data, False)
        fast = rows_of(data, True)
        assert fast == full, path
        assert_same_lines(full, fast)
        boards += len(full)
    return boards, got


def test_every_corpus_pbn_file_gives_the_full_audits_rows(monkeypatch):
    boards, got = corpus_rows_both_ways(
        "pbn", lambda data, use: rows(data, AuditOptions(), use, monkeypatch), monkeypatch)
    assert boards > 50000 and len(got) > 20000  # 27,589 when written
