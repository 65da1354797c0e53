"""The lane for plain LIN lines (``lane.lin``, ``formats.lin.plain``) gives exactly the full
audit's rows, or leaves the board to it; and the reader's ``PlainLine`` gives the records of
the reader pair by pair: on generated single-deal files, lines changed one pair at a time,
lines around them that carry state, and every corpus LIN file."""
from __future__ import annotations

import io
import random
import re

import pytest
from hypothesis import given, settings, strategies as st

from revoke_audit.engine import lane
from revoke_audit.formats.lin import PlainLine, read_lin
from revoke_audit.formats.lin.write import format_lin
from revoke_audit.formats.pbn import read_pbn
from revoke_audit.ruling.options import AuditOptions

from test_lane import clean_game, corpus_rows_both_ways, taken



def rows(data: bytes, use_lane: bool, monkeypatch, options=AuditOptions()) -> list:
    monkeypatch.setattr(lane, "ENABLED", use_lane)
    return list(lane.render_records(read_lin(io.BytesIO(data), "x.lin", plain=True), options))


def assert_same(data: bytes, monkeypatch, options=AuditOptions()) -> list:
    """Lane rows = full rows, and the plain items' records = the reader's pair by pair; the
    items read."""
    full = rows(data, False, monkeypatch, options)
    fast = rows(data, True, monkeypatch, options)
    assert fast == full
    items = list(read_lin(io.BytesIO(data), "x.lin", plain=True))
    records = [i.record() if isinstance(i, PlainLine) else i for i in items]
    assert records == list(read_lin(io.BytesIO(data), "x.lin"))
    return items


def clean_lines(seed: int, boards: int = 20) -> list[str]:
    """Single-deal LIN lines of consistent boards (``test_lane.clean_game`` written by
    ``format_lin``), each with a claim now and then: where its play stops, or at the end."""
    rnd = random.Random(seed)
    out = []
    for n in range(1, boards + 1):
        record = next(read_pbn(io.BytesIO(clean_game(rnd, n).encode()), "x.pbn"))
        out.append(claimed_now_and_then(format_lin(record).rstrip("\n"), rnd, 0.3))
    return out


def claimed_now_and_then(line: str, rnd: random.Random, chance: float) -> str:
    """``line`` with its play cut at a random card and a random claim there (``mc|``), with
    this chance, when it has no claim of its own."""
    if rnd.random() < chance and "mc|" not in line:
        cut = [m.start() for m in re.finditer(r"pc\|", line)]
        if cut:
            line = line[:rnd.choice(cut)] + f"mc|{rnd.randint(0, 13)}|"
    return line


@pytest.mark.parametrize("seed", range(8))
def test_generated_lines_give_the_full_audits_rows(seed, monkeypatch):
    data = ("\n".join(clean_lines(seed)) + "\n").encode()
    got = taken(monkeypatch)
    assert_same(data, monkeypatch)
    assert len(got) >= 5 and {r.row["play"] for r in got} <= {"complete", "claimed"}


def test_the_lane_is_taken_for_every_clean_line(monkeypatch):
    data = ("\n".join(clean_lines(11, 40)) + "\n").encode()
    got = taken(monkeypatch)
    full = rows(data, True, monkeypatch)
    clean = [r for r in full if r.status == "clean" and r.row["play"] != "partial"]
    assert got == clean and len(clean) > 15


def test_every_edition_gives_the_full_audits_rows(monkeypatch):
    data = ("\n".join(clean_lines(2)) + "\n").encode()
    for laws in ("auto", "2017", "2007", "1997", "1932", "bridge-whist"):
        assert_same(data, monkeypatch, AuditOptions(laws=laws))


# what makes a line not plain, or its board not clean, or carries state to or from it
EDITS = [
    lambda t: t.replace("|sv|", "|sv|q", 1),                       # PS209
    lambda t: t.replace("|md|", "|md|7", 1),                       # a bad dealer digit
    lambda t: re.sub(r"md\|\d", "md|", t, count=1),                # no dealer
    lambda t: t.replace("|mb|", "|mb|zz|mb|", 1),                  # PS206
    lambda t: re.sub(r"\|pc\|(\w\w)\|pc\|(\w\w)\|", r"|pc|\2|pc|\1|", t, count=1),  # order
    lambda t: t.replace("|pc|", "|pc|SZ|pc|", 1),                  # an unreadable card
    lambda t: t.replace("|pc|", "|pc|s", 1),                       # lower case, longer
    lambda t: t + "mc|7|",                                         # a claim after the play
    lambda t: t + "mc|14|",                                        # PS208
    lambda t: t.replace("|ah|Board ", "|ah|Bd ", 1),               # no board number
    lambda t: t.replace("|st||", "|st||qx|o1|", 1),                # a room
    lambda t: t.replace("pn|", "PN|", 1),                          # an upper-case key
    lambda t: "qx|o3|" + t,                                        # qx before pn
    lambda t: t + "\npc|SA|",                                      # a card on the next line
    lambda t: t + "\nnt|a comment|",                               # a key the reader skips
    lambda t: t + "\n\n\n",                                        # blank lines after it
    lambda t: t[:-1],                                              # an open pair at its end
    lambda t: "vg|Match,Seg,I,1,2,A,0,B,0|\nrs|4SN=,3NE-1|\n" + t,  # a vugraph header
    lambda t: t.replace("|rh||", "|rh||\x00", 1),                  # a control character
    lambda t: t.replace("pn|", "pn|Müller", 1),                    # not ASCII
    lambda t: t.replace("|mb|p|", "|mb|p!|", 1),                   # an alerted pass
    lambda t: re.sub(r"\|mb\|[^|]*\|pg\|\|", "|pg||", t, count=1),  # the auction cut short
]


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 10_000), st.lists(st.integers(0, len(EDITS) - 1), min_size=1, max_size=3),
       st.integers(0, 4))
def test_a_changed_line_gives_the_full_audits_rows(seed, edits, where):
    lines = clean_lines(seed % 40, 5)
    for e in edits:
        lines[where] = EDITS[e](lines[where])
    with pytest.MonkeyPatch.context() as mp:
        assert_same(("\n".join(lines) + "\n").encode(), mp)


@pytest.mark.parametrize("n", range(len(EDITS)))
def test_each_edit_gives_the_full_audits_rows(n, monkeypatch):
    lines = clean_lines(n, 4)
    lines[1] = EDITS[n](lines[1])
    assert_same(("\n".join(lines) + "\n").encode(), monkeypatch)
    assert_same("\n".join(lines).encode(), monkeypatch)  # no final newline


def test_a_board_continued_on_the_next_line_is_read_pair_by_pair(monkeypatch):
    """A plain line whose board goes on in the next line is no plain board: the card on the
    next line belongs to it (a revoke or not, it is the full audit's)."""
    lines = clean_lines(5, 3)
    head, _, tail = lines[1].rpartition("|pc|")
    lines[1:2] = [head + "|", "pc|" + tail]
    got = taken(monkeypatch)
    assert_same(("\n".join(lines) + "\n").encode(), monkeypatch)
    assert all(r.row["line"] != 2 for r in got)


def test_every_corpus_lin_file_gives_the_full_audits_rows(monkeypatch):
    boards, got = corpus_rows_both_ways(
        "lin", lambda data, use: rows(data, use, monkeypatch), monkeypatch)
    assert boards > 1000 and len(got) > 500  # 1,211 and 724 when written


def test_plain_boards_inside_archives_take_the_lane(tmp_path, monkeypatch):
    """A zip (and a gzip inside it) of plain PBN and LIN files: the same rows both ways, and
    the lane taken for boards of both formats (the archive reader counts them as boards)."""
    import gzip
    import zipfile

    from revoke_audit.formats.sources import read_file
    from test_lane import clean_file

    lin = ("\n".join(clean_lines(3)) + "\n").encode()
    path = tmp_path / "season.zip"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("a.pbn", clean_file(4, mutate=0))
        zf.writestr("b.lin", lin)
        zf.writestr("c.lin.gz", gzip.compress(lin))
    got = taken(monkeypatch)
    out = []
    for use_lane in (False, True):
        monkeypatch.setattr(lane, "ENABLED", use_lane)
        out.append(list(lane.render_records(read_file(str(path), plain=True), AuditOptions())))
    assert out[0] == out[1] and len(out[0]) > 60
    assert {r.row["source"].rsplit(".", 1)[-1] for r in got} == {"pbn", "lin", "gz"}
