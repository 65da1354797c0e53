"""The lane for plain vugraph boards (``lane.vugraph``, ``formats.lin.block``) gives exactly the
full audit's rows, or leaves the board to it; and the reader's ``PlainBlock`` gives the record
the reader builds pair by pair: on generated vugraph files (header, 8 names, ``rs`` results,
boards over several lines in both rooms), files changed one pair or line at a time, and every
file of the shared vugraph archive."""
from __future__ import annotations

import io
import random
import re
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from revoke_audit.engine import lane
from revoke_audit.formats.lin.block import PlainBlock
from revoke_audit.formats.lin.write import format_lin
from revoke_audit.formats.pbn import read_pbn
from revoke_audit.ruling.options import AuditOptions

from test_lane import clean_game, taken
from test_lane_lin import assert_same, claimed_now_and_then, rows

ARCHIVE = Path(__file__).resolve().parents[2] / "shared" / "archive"
_PAIR = re.compile(r"(\w\w)\|([^|]*)\|")


def board_text(line: str, room: str, number: int, rnd: random.Random) -> str:
    """A single-deal line (``format_lin``) written as a vugraph board: ``qx``, the deal, the
    calls (an alert now and then), then the cards four to a line with ``pg||``."""
    pairs = _PAIR.findall(line)
    get = dict(pairs)
    out = [f"qx|{room}{number}|st||md|{get['md']}|sv|{get['sv']}|"]
    for key, value in pairs:
        if key == "mb":
            out.append(f"mb|{value}|" + ("an|5+ cards|" if rnd.random() < 0.1 else ""))
    out.append("pg||\n")
    cards = [(k, v) for k, v in pairs if k in ("pc", "mc")]
    for i in range(0, len(cards), 4):
        out.append("".join(f"{k}|{v}|" for k, v in cards[i:i + 4]) + "pg||\n")
    return "".join(out)


def vugraph_file(seed: int, boards: int = 6, results: str = "right") -> str:
    """A vugraph file of consistent boards, each played in both rooms (the same deal, its own
    auction and play), the rs results as the play gives them (``right``), changed, or none;
    a claim now and then where a room's play stops."""
    rnd = random.Random(seed)
    body, rs = [], []
    for n in range(1, boards + 1):
        for room in "oc":
            record = next(read_pbn(io.BytesIO(clean_game(rnd, n).encode()), "x.pbn"))
            line = claimed_now_and_then(format_lin(record).rstrip("\n"), rnd, 0.4)
            body.append(board_text(line, room, n, rnd))
            rs.append(_result(record, line, results, rnd))
    head = (f"vg|Bermuda Bowl 2019,Final,I,1,{boards},Home,0,Away,0|\n"
            f"rs|{','.join(rs)}|\n"
            "pn|Anna,Bert,Carl,Dora,Emil,Fay,Gus,Hal|pg||\n")
    return head + "".join(body)


def _result(record, line: str, how: str, rnd: random.Random) -> str:
    """The rs entry of a board: contract, declarer and tricks (``4SN=``), from its claim or
    its play; changed or left out as ``how`` says."""
    if how == "none" or record.contract is None:
        return ""
    m = re.search(r"mc\|(\d+)\|", line)
    row = next(iter(lane.render_records([record], AuditOptions()))).row
    tricks = int(m.group(1)) if m else row["tricks_played"]
    if tricks is None:
        return ""
    if how == "wrong" or (how == "mixed" and rnd.random() < 0.3):
        tricks = (tricks + 1) % 14
    if how == "mixed" and rnd.random() < 0.2:
        return rnd.choice(["PASS", "A", "?", "4Z"])
    diff = tricks - 6 - int(record.contract[0])
    seat = "NESW"[record.declarer]
    return f"{record.contract}{seat}{'=' if diff == 0 else f'{diff:+d}'}"


@pytest.mark.parametrize("seed", range(6))
def test_generated_vugraph_files_give_the_full_audits_rows(seed, monkeypatch):
    got = taken(monkeypatch)
    items = assert_same(vugraph_file(seed).encode(), monkeypatch)
    assert sum(type(i) is PlainBlock for i in items) == 12
    assert len(got) >= 5 and {r.row["room"] for r in got} == {"open", "closed"}
    assert {r.row["event"] for r in got} == {"Bermuda Bowl 2019"}
    # the names of each room from the 8-name pn (S, W, N, E of the open room, then closed)
    for r in got:
        want = ("Carl", "Dora", "Anna", "Bert") if r.row["room"] == "open" else (
            "Gus", "Hal", "Emil", "Fay")
        assert (r.row["north"], r.row["east"], r.row["south"], r.row["west"]) == want


@pytest.mark.parametrize("results", ["none", "wrong", "mixed"])
def test_the_rs_result_is_the_stated_one(results, monkeypatch):
    """A right rs result is the stated tricks; a wrong one (RC024) is the full audit's; an
    unreadable one states nothing."""
    for seed in range(3):
        assert_same(vugraph_file(seed, results=results).encode(), monkeypatch)


def test_a_right_rs_result_is_taken_and_stated(monkeypatch):
    got = taken(monkeypatch)
    assert_same(vugraph_file(7).encode(), monkeypatch)
    assert got and all(r.row["tricks_stated"] == r.row["tricks_played"] for r in got)


def test_a_wrong_rs_result_is_never_taken(monkeypatch):
    got = taken(monkeypatch)
    full = rows(vugraph_file(8, results="wrong").encode(), True, monkeypatch)
    assert not got and any(f["code"] == "RC024" for r in full for f in r.findings)


# what makes a board not plain, or not clean, or carries state to or from it
EDITS = [
    lambda t: t.replace("|sv|", "|sv|q", 1),                        # PS209
    lambda t: t.replace("|md|", "|md|7", 1),                        # a bad dealer digit
    lambda t: t.replace("|mb|", "|mb|zz|mb|", 1),                   # PS206
    lambda t: re.sub(r"pc\|(\w\w)\|pc\|(\w\w)\|", r"pc|\2|pc|\1|", t, count=1),  # order
    lambda t: t.replace("|pc|", "|pc|SZ|pc|", 1),                   # an unreadable card
    lambda t: t.replace("pc|", "pc|s", 1),                          # lower case, longer
    lambda t: t.replace("pg||\n", "mc|7|pg||\n", 1),                # a claim in the auction
    lambda t: t.replace("pg||\n", "mc|14|pg||\n", 1),               # PS208
    lambda t: t.replace("pg||\n", "mc|9|pg||\nmc|10|pg||\n", 1),     # two claims
    lambda t: t.replace("|st||", "|st||ah|Board 9|", 1),            # a title
    lambda t: t.replace("|st||", "|st||pn|a,b,c,d|", 1),            # the board's own names
    lambda t: t.replace("qx|c", "pn|a,b,c,d|\nqx|c", 1),            # names before a board
    lambda t: t.replace("qx|c", "rs|4SN=,4SN=|\nqx|c", 1),          # results changed between
    lambda t: t.replace("qx|c", "vg|Other,Seg,I,1,9,A,0,B,0|\nqx|c", 1),  # a new header
    lambda t: t.replace("qx|c", "md|1SAKQJT98765432H,,,|\nqx|c", 1),  # a deal alone
    lambda t: t.replace("qx|o", "QX|o", 1),                         # an upper-case key
    lambda t: t.replace("|sv|", "| sv|", 1),                        # a spaced key
    lambda t: t.replace("pg||\n", "pg|\n|", 1),                     # a pair over two lines
    lambda t: t.replace("pg||\n", "nt|Vel\nkommen|pg||\n", 1),     # a value over two lines
    lambda t: t.replace("pg||\n", "nt|Müller spielt\x85 gut|pg||\n", 1),  # not ASCII, C1
    lambda t: t.replace("pg||\n", "nt|\xe9\xff|pg||\n", 1),         # not UTF-8 (below)
    lambda t: t.replace("pg||\n", "pg||\n\n\n", 1),                 # blank lines
    lambda t: t.replace("pg||\n", "pg||\r\n"),                      # CRLF
    lambda t: t.replace("pg||\n", "pg|| \n", 1),                    # a space after the pair
    lambda t: t.replace("pg||\n", "stray text\n", 1),               # PS201
    lambda t: t.replace("pg||\n", "pg||\x00\n", 1),                 # a control character
    lambda t: t.replace("|mb|", "|mb|p!|mb|", 1),                   # an alerted pass
    lambda t: t.replace("qx|o1|", "qx|o1|qx|o1|", 1),               # two qx
    lambda t: t.replace("|sv|", "|sv|b|sv|", 1),                    # two sv
    lambda t: t.replace("qx|o2", "qx|o02", 1),                      # a zero before the number
    lambda t: t.replace("qx|c2", "qx|X7", 1),                       # a teaching label
    lambda t: re.sub(r"mb\|[^|]*\|pg\|\|\n", "pg||\n", t, count=1),  # the auction cut short
    lambda t: t.rstrip("\n").rstrip("|"),                           # an open pair at the end
    lambda t: t + "qx|o9",                                          # a board begun at the end
    lambda t: t + "qx|",                                            # a key at the end
]


def _encode(text: str) -> bytes:
    return text.encode("utf-8", "surrogateescape").replace("\xe9\xff".encode(), b"\xe9\xff")


@settings(max_examples=120, deadline=None)
@given(st.integers(0, 10_000), st.lists(st.integers(0, len(EDITS) - 1), min_size=1, max_size=3))
def test_a_changed_file_gives_the_full_audits_rows(seed, edits):
    text = vugraph_file(seed % 30, 3, results="mixed")
    for e in edits:
        text = EDITS[e](text)
    with pytest.MonkeyPatch.context() as mp:
        assert_same(_encode(text), mp)


@pytest.mark.parametrize("n", range(len(EDITS)))
def test_each_edit_gives_the_full_audits_rows(n, monkeypatch):
    text = EDITS[n](vugraph_file(n, 3))
    assert_same(_encode(text), monkeypatch)
    assert_same(_encode(text.rstrip("\n")), monkeypatch)  # no final newline


def test_a_board_longer_than_the_hold_is_read_pair_by_pair(monkeypatch):
    """A board over more lines than ``block.MAX_LINES`` (commentary) is read pair by pair, and
    the same."""
    from revoke_audit.formats.lin import block
    monkeypatch.setattr(block, "MAX_LINES", 3)
    items = assert_same(vugraph_file(3).encode(), monkeypatch)
    blocks = [i for i in items if type(i) is PlainBlock]
    assert all(len(i.lines) <= 3 for i in blocks) and len(blocks) < 12


def test_every_archive_file_gives_the_full_audits_rows(monkeypatch):
    """Every file of the shared vugraph archive (skipped without it): the same rows with and
    without the lane, the same records, and most boards taken by it."""
    if not ARCHIVE.is_dir():
        pytest.skip("shared archive not present")
    got = taken(monkeypatch)
    boards = 0
    for path in sorted(ARCHIVE.rglob("*.lin"))[::3]:  # a third of the files: a minute
        boards += len(assert_same(path.read_bytes(), monkeypatch))
    assert boards > 10000 and len(got) > 0.7 * boards  # 14,393 and 11,2xx when written


def test_the_reports_are_the_same_bytes_both_ways(tmp_path, monkeypatch):
    """boards.csv and findings.csv written by the command, with and without the lane, on
    vugraph files whose claims stop with two tricks or fewer left (the cards settle some of
    them: a cell the lane sets after the row is made, which its CSV line must say too)."""
    from click.testing import CliRunner

    from revoke_audit.cli.commands import main

    text = "".join(_late_claims(vugraph_file(seed, 8)) for seed in range(4))
    path = tmp_path / "match.lin"
    path.write_text(text)
    got = taken(monkeypatch)
    out = []
    for use_lane in (False, True):
        monkeypatch.setattr(lane, "ENABLED", use_lane)
        boards, findings = tmp_path / f"b{use_lane}.csv", tmp_path / f"f{use_lane}.csv"
        result = CliRunner().invoke(main, ["audit", str(path), "-o", str(boards), "--findings",
                                           str(findings), "-q", "--jobs", "1", "--exit-zero"])
        assert result.exit_code == 0, result.output
        out.append((boards.read_bytes(), findings.read_bytes()))
    assert out[0] == out[1]
    assert any(r.row["play"] == "claimed" and r.row["tricks_by_cards"] is not None for r in got)


def _late_claims(text: str) -> str:
    """Each board's play cut after its 44th card with a claim of the tricks declarer then
    has plus one (a claim within what is left: the full audit asks the cards)."""
    out = []
    for board in re.split(r"(?=qx\|)", text):
        cards = [m.start() for m in re.finditer(r"pc\|", board)]
        if len(cards) == 52 and "mc|" not in board:
            board = board[:cards[44]] + "mc|7|pg||\n"
        out.append(board)
    return "".join(out)
