"""A large PBN file in parts for the worker processes: each part gives exactly the records
the whole file gives for its games (numbers, lines, neighbours), and a file is split only when
nothing carries from one game to the next."""
import os
import re
from dataclasses import replace
from pathlib import Path

import pytest
from builders import revoking_board
from hypothesis import HealthCheck, assume, given, settings, strategies as st
from click.testing import CliRunner

import revoke_audit.engine.units as run
from revoke_audit.core import speedups
from revoke_audit.cli.commands import main
from revoke_audit.formats import Limits
from revoke_audit.formats.lines import MAX_LINE
from revoke_audit.formats import read_file
from revoke_audit.formats.parts import cut, plan, read_part, splittable
from revoke_audit.formats.pbn import format_pbn

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"


def games(n: int, revoke_every: int = 7) -> str:
    """``n`` games of random deals and plays; every ``revoke_every``-th with a revoke."""
    out = []
    for i in range(n):
        wanted = {(5, 2)} if i % revoke_every == 0 else set()
        record, _ = revoking_board(i, wanted, i % 5, i % 4)
        record = replace(record, event="parts", board=str(i + 1), dealer=0)
        out.append(format_pbn(record))
    return "\n".join(out)


def whole_and_parts(path: Path, per_part: int, context: int = 32):
    parts = plan(str(path), per_part, 1 << 30, context)
    whole = list(read_file(str(path)))
    got = [rec for p in parts for rec in list(read_part(p))[p.skip:p.skip + p.count]]
    return whole, got, parts


def audit_with_jobs(path: str, jobs: str) -> tuple[str, bytes, bytes]:
    """The command's output and its two reports for ``path`` (in the current folder)."""
    r = CliRunner().invoke(main, ["audit", path, "--jobs", jobs, "-o", f"b{jobs}.csv",
                                  "--findings", f"f{jobs}.csv"])
    return r.output, Path(f"b{jobs}.csv").read_bytes(), Path(f"f{jobs}.csv").read_bytes()


def test_parts_give_the_records_of_the_whole_file(tmp_path):
    path = tmp_path / "big.pbn"
    path.write_text("% PBN 2.1\n%HRTitleDate 2019.05.04\n\n" + games(40))
    whole, got, parts = whole_and_parts(path, 6)
    assert len(parts) == 7 and [p.count for p in parts] == [6] * 6 + [4]
    assert got == whole and [r.game for r in got] == list(range(1, 41))
    assert got[-1].tags["HRTitleDate"] == "2019.05.04"  # the header is read by every part
    assert [p.skip for p in parts] == [0, 6, 12, 18, 24, 30, 32]  # the games before as context


@pytest.mark.parametrize("change", [
    lambda t: t.replace('[Board "9"]', '[Board "9"]\n{a comment\n\nover a blank line}'),
    lambda t: t.replace('[Event "parts"]\n[Board "9"]', '[Event "#"]\n[Board "9"]'),
    lambda t: t.replace('\n\n[Event "parts"]\n[Board "9"]', '\n[Event "parts"]\n[Board "9"]'),
    lambda t: t.replace('\n\n[Event "parts"]\n[Board "9"]', '\n\nstray text\n\n[Event "p"]\n[Board "9"]'),
    lambda t: t.replace('\n\n[Event "parts"]\n[Board "9"]', '\n\n%Charset "nonsense"\n[Event "p"]\n[Board "9"]'),
    lambda t: '%Charset "nonsense"\n\n' + t,
    lambda t: t.replace("\n", "\r"),
    # a game with its Event but no Deal takes the deal of the game before (PS106)
    lambda t: re.sub(r'(\[Board "9"\]\n(?:.*\n)*?)\[Deal [^\n]*\n', r"\1", t, count=1),
])
def test_a_file_where_something_carries_between_games_is_read_whole(tmp_path, change):
    """A comment over a blank line, inheritance, two games in one block (PS120), a block
    that is no game, a directive after the header, a header with a diagnostic, CR line ends."""
    path = tmp_path / "big.pbn"
    path.write_text(change(games(20)))
    assert plan(str(path), 3, 1 << 30, 32) is None


def test_games_without_an_event_tag_split(tmp_path):
    """Event and Board are optional; a file of games that each hold one Deal splits, and its
    parts give the whole file's records."""
    path = tmp_path / "big.pbn"
    path.write_text(games(20).replace('[Event "parts"]\n', ""))
    whole, got, parts = whole_and_parts(path, 3, context=1)
    assert len(parts) == 7 and got == whole and len(whole) == 20  # 3 games each, then 2


def test_a_small_file_or_a_large_one_beyond_the_limit_is_not_split(tmp_path):
    path = tmp_path / "big.pbn"
    path.write_text(games(20))
    assert plan(str(path), 10, 1 << 30, 32) is None  # two parts' worth or less
    assert plan(str(path), 3, 100, 32) is None  # larger than a file may be read
    assert len(plan(str(path), 3, 1 << 30, 32)) == 7


def test_jobs_2_on_a_file_in_parts_gives_jobs_1_byte_for_byte(tmp_path, monkeypatch):
    monkeypatch.setattr(run, "PART_GAMES", 4)
    monkeypatch.setattr(run, "PART_MIN_BYTES", 1)
    monkeypatch.chdir(tmp_path)
    Path("big.pbn").write_text(games(60, revoke_every=5))
    reports = [audit_with_jobs("big.pbn", jobs) for jobs in ("1", "2")]
    assert len(run.work_units(["big.pbn"], 2, Limits())) == 21  # 13 of 4 games, 8 of 1
    assert reports[0] == reports[1] and b"RV00" in reports[0][2]


@pytest.mark.skipif(not CORPUS.is_dir(), reason="the corpus is not beside the project")
def test_every_corpus_file_that_splits_gives_its_records_in_parts():
    """Real files (51 of the corpus's PBN files split; the rest hold comments, inheritance
    and the like), in parts of three games."""
    split = 0
    for path in sorted(CORPUS.rglob("*")):
        if (path.suffix.lower() != ".pbn" or not path.is_file()
                or not plan(str(path), 3, 1 << 30, 32)):
            continue
        whole, got, _ = whole_and_parts(path, 3)
        assert got == whole, path
        split += 1
    assert split >= 40


# --- LIN: one board per line ------------------------------------------------------------------

def lin_lines(n: int) -> str:
    """``n`` boards, one LIN line each (BBO's export of single deals); every fifth revokes."""
    from revoke_audit.formats.lin import format_lin

    out = []
    for i in range(n):
        record, _ = revoking_board(i, {(5, 2)} if i % 5 == 0 else set(), i % 5, i % 4)
        record = replace(record, board=str(i + 1), dealer=record.declarer_stated,
                         names=("a", "b", "c", "d"),
                         auction=(record.contract_stated, "P", "P", "P"))  # declarer opens
        out.append(format_lin(record).rstrip("\n"))
    return "\n".join(out) + "\n"


def test_a_lin_file_of_one_board_per_line_splits_like_the_whole(tmp_path):
    path = tmp_path / "big.lin"
    path.write_text(lin_lines(40))
    whole, got, parts = whole_and_parts(path, 6)
    assert len(parts) == 7 and {p.kind for p in parts} == {"lin"}
    assert got == whole and [r.game for r in got] == list(range(1, 41))
    assert sum(1 for r in got for p in r.play if p.card is not None) == 40 * 52


@pytest.mark.parametrize("name, text", [
    ("big.pbn", "% PBN 2.1\n%HRTitleDate 2019.05.04\n\n" + games(40)),
    ("big.lin", lin_lines(40)),
])
def test_a_part_is_read_from_its_own_bytes_numbered_from_its_line(tmp_path, monkeypatch, name,
                                                                   text):
    """A part far into a file is read as its header, one blank line and its bytes, numbered
    from the part's line: not with a blank line for each line before it (millions at the end
    of a large file, read one by one), and still with the whole file's line numbers."""
    import revoke_audit.formats.parts as parts_module

    path = tmp_path / name
    path.write_text(text)
    streams = []
    for reader in ("read_pbn", "read_lin"):
        real = getattr(parts_module, reader)

        def spy(stream, *args, real=real, **kwargs):
            if "games_before" in kwargs:  # a part (not the header's check)
                streams.append((len(stream.getvalue()), kwargs["first_line"]))
            return real(stream, *args, **kwargs)

        monkeypatch.setattr(parts_module, reader, spy)
    whole, got, parts = whole_and_parts(path, 6)
    assert got == whole and [r.line for r in got] == [r.line for r in whole]
    assert len(streams) == len(parts)
    header_lines = path.read_bytes()[:parts[0].header].count(b"\n")
    for part, (size, first_line) in zip(parts, streams):
        assert size <= part.header + 1 + part.end - part.start
        # the header's lines, then one blank line (after the first part), end at the part's line
        blank = 1 if part.line - 1 - header_lines > 0 else 0
        assert first_line + header_lines + blank == part.line
    assert streams[-1][1] > 1  # the last part is not read from line 1


@pytest.mark.parametrize("change", [
    lambda t: t.replace("\npn|", "\nvg|Final,Seg 1,I,1,40,A,0,B,0|\npn|", 1),  # a vugraph header
    lambda t: t.replace("pn|c,d,a,b|", "pn|c,d,a,b,e,f,g,h|", 1),  # names for both rooms
    lambda t: t.replace("|pg||\n", "|pg||\npc|S2|", 1),  # a board over two lines
    lambda t: t.replace("|st||", "|st||md|", 1),  # two md pairs on one line
    lambda t: t.replace("pn|c,d,a,b|", "pn|c,d,\u00e9,b|", 1),  # not ASCII
    lambda t: t.replace("\npn|", "\njunk pn|", 1),  # text that is no pair
    # keys in capitals, which the reader takes as they are in lower case: a vugraph header, a
    # second md, names for both rooms
    lambda t: t.replace("|st||", "|st||VG|Final,Seg 1,I,1,40,A,0,B,0|", 1),
    lambda t: t.replace("|st||", "|st||MD|3S2,,,|", 1),
    lambda t: t.replace("|st||", "|st||PN|c,d,a,b,e,f,g,h|", 1),
    # a line the reader cuts (PS005): the rest of the pair it was in goes on to the next line
    lambda t: t.replace("|st||", "|st||nt|" + "x" * MAX_LINE + "|", 1),
])
def test_a_lin_file_with_state_between_lines_is_read_whole(tmp_path, change):
    path = tmp_path / "big.lin"
    text = lin_lines(20)
    assert change(text) != text
    path.write_text(change(text))
    assert plan(str(path), 3, 1 << 30, 32) is None


def test_jobs_2_on_a_lin_file_in_parts_gives_jobs_1_byte_for_byte(tmp_path, monkeypatch):
    monkeypatch.setattr(run, "PART_GAMES", 4)
    monkeypatch.setattr(run, "PART_MIN_BYTES", 1)
    monkeypatch.chdir(tmp_path)
    Path("big.lin").write_text(lin_lines(30))
    reports = [audit_with_jobs("big.lin", jobs) for jobs in ("1", "2")]
    assert len(run.work_units(["big.lin"], 2, Limits())) == 15  # 5 of 4 games, 10 of 1
    assert reports[0] == reports[1] and b"RV00" in reports[0][2]


@pytest.mark.parametrize("change", [
    lambda t: t.replace('[Event "parts"]\n[Board "9"]', '[Event "#"]\n[Board "9"]'),
    lambda t: t.replace('\n\n[Event "parts"]\n[Board "9"]', '\n[Event "parts"]\n[Board "9"]'),
])
def test_jobs_2_on_a_file_cut_but_not_splittable_reads_it_whole(tmp_path, monkeypatch, change):
    """The processes start on a large file's parts before the check that it may be split; a
    file that fails the check (here: inheritance, two games in one block) is read whole after
    all, and the reports are those of --jobs 1."""
    monkeypatch.setattr(run, "PART_GAMES", 4)
    monkeypatch.setattr(run, "PART_MIN_BYTES", 1)
    monkeypatch.chdir(tmp_path)
    Path("big.pbn").write_text(change(games(30, revoke_every=5)))
    assert cut("big.pbn", 4, 1 << 30, 32) and not splittable("big.pbn")
    reports = [audit_with_jobs("big.pbn", jobs) for jobs in ("1", "2")]
    assert reports[0] == reports[1] and reports[0][1].count(b"\n") > 25


# --- the split check, whatever is mixed in ----------------------------------------------------

LIN_ODD = ["md|3S2,,,|", "MD|3S2,,,|", "vg|a,b|", "VG|a,b|", "Vg|a,b|", "rs|4HE=|", "pn|a,b,c,d,e,f,g,h|",
           "PN|a,b,c,d,e,f,g,h|", "pn|w,x,y,z|", "pc|S2|", "an|md|", "xx|vg|", "nt|hello, there|",
           "junk ", "|", "\r", "é"]
PBN_ODD = ['[Event "x"]\n', '[Board "77"]\n', '[Deal "N:AKQJT98765432... - - -"]\n', "{note}\n",
           "{a comment\n\nover a blank line}\n", "%Charset cp1252\n", "\n", '[Event "#"]\n',
           "; remark\n", "stray\n", '[Note "x"]\n', "\r\n", '[Event"y"]\n', '[Board"78"]\n',
           '[Site "s"][Event "z"]\n', "[Event #]\n", "[Board 79]\n", '[Dealer "N"] [Board "80"]\n',
           '[Deal"N:AKQJT98765432... - - -"]\n', '[Event  "w"]\n', '[Event "##x"]\n',
           '[Note "a\n\nb"]\n', '[Note "a\n[Event \\"q\\"]"]\n', '[Event\n"v"]\n', "%\n",
           "[Board \"81\"\n", '[Note "open\n', "\x00\n", "*\n", '[Play "N"]\n',
           '[Note "caf\udce9"]\n', "caf\udce9\n",  # \udce9: the byte 0xE9, not UTF-8
           "\r\r\n", "x\r\r\n"]  # CRs that end no line


def _mixed(text: str, odd: list[str], picks: list[tuple[int, int, int]]) -> str:
    """``text`` changed by each pick (which change, which line, where on it): an ``odd`` piece
    put at the start of the line or after its n-th ``|``, or the line deleted, or cut short
    after its n-th ``|`` (the two changes after the pieces)."""
    lines = text.split("\n")
    for change, at, where in picks:
        i = at % max(len(lines) - 1, 1)
        line = lines[i]
        bars = [k + 1 for k, ch in enumerate(line) if ch == "|"]
        pos = bars[where % len(bars)] if where and bars else 0
        change %= len(odd) + 2
        if change == len(odd):
            del lines[i]
        elif change == len(odd) + 1:
            lines[i] = line[:pos] if pos else line[:where]
        else:
            lines[i] = line[:pos] + odd[change] + line[pos:]
    return "\n".join(lines)


PICKS = st.lists(st.tuples(st.integers(0, 99), st.integers(0, 999), st.integers(0, 40)),
                 min_size=1, max_size=3)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(picks=PICKS)
def test_a_lin_file_that_splits_reads_as_the_whole_whatever_is_mixed_in(tmp_path, picks):
    """Odd pairs (keys in any case, a second md, a vugraph header, names for both rooms),
    stray text and bytes put into a file of one board per line, lines deleted or cut short:
    whenever ``plan`` still splits it, the parts give exactly the records of the whole file."""
    path = tmp_path / "mixed.lin"
    path.write_bytes(_mixed(LIN_TEXT, LIN_ODD, picks).encode("utf-8"))
    if plan(str(path), 3, 1 << 30, 1) is not None:
        whole, got, _ = whole_and_parts(path, 3, context=1)  # parts do not read the whole file
        assert got == whole


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(picks=PICKS)
def test_a_pbn_file_that_splits_reads_as_the_whole_whatever_is_mixed_in(tmp_path, picks):
    """Tags that start a new game, inheritance, comments over blank lines, directives, blank
    lines and stray text put into a PBN file, lines deleted or cut short: whenever ``plan``
    still splits it, the parts give exactly the records of the whole file."""
    path = tmp_path / "mixed.pbn"
    path.write_bytes(_mixed(PBN_TEXT, PBN_ODD, picks)
                     .encode("utf-8", "surrogateescape"))
    if plan(str(path), 3, 1 << 30, 1) is not None:
        whole, got, _ = whole_and_parts(path, 3, context=1)  # parts do not read the whole file
        assert got == whole


LIN_TEXT = lin_lines(12)
PBN_TEXT = games(12)
TAG_ODD = ["[", "[ Event", "[\tBoard", "[Deal", "[Deal]", "[Dealer", "[Event_", "[Board1",
           "[Eventx]", '[Deal "', "]", "[]", "[[Event]", "[Board]]", "\n\n", "\r\n\r\n", "x"]


@pytest.mark.skipif(speedups.compiled is None, reason="the C accelerators were not built here")
@settings(max_examples=300, deadline=None)
@given(picks=st.lists(st.tuples(st.integers(0, 99), st.integers(0, 999), st.integers(0, 40)),
                      min_size=0, max_size=4), cut_at=st.integers(0, 3000))
def test_the_compiled_scans_give_the_twins_answers(picks, cut_at):
    """``_speedups``' ``blank_runs``, ``newlines``, ``plain_bytes`` and ``one_game_each`` = their
    twins in ``scans`` on PBN text with tags, blank lines, brackets, comments, directives, CRs
    and control characters put in anywhere, and cut anywhere."""
    from revoke_audit.formats.parts import _games
    from revoke_audit.formats.scans import (ascii_from, blank_runs, newlines, one_game_each,
                                            plain_bytes)

    c = speedups.compiled
    data = _mixed(PBN_TEXT, PBN_ODD + TAG_ODD, picks).encode("utf-8", "surrogateescape")
    data = data[:len(data) - cut_at] if cut_at < len(data) else data
    kind, first, starts = _games(data)
    for text in (data, data.replace(b"\n", b"\r\n")):  # and as a CRLF file
        for at in (0, first, len(text) // 2):
            assert c.blank_runs(text, at) == blank_runs(text, at)
            assert c.plain_bytes(text, at) == plain_bytes(text, at)
            assert c.ascii_from(text, at) == ascii_from(text, at)
            for end in (at + 1, at + 300, len(text) - 1, len(text)):
                assert c.newlines(text, at, end) == newlines(text, at, end)
    if kind != "pbn" or not starts:
        return
    assert c.one_game_each(data, first, starts) == one_game_each(data, first, starts)


LIN_PAIR_ODD = ["qx|o1|", "QX|c2|", "pn|a,b|", "pn|a,b,c,d,e|", "Pn|x|", "mb|p|", "MC|9|",
                "Pc|D4|", "st||", "rh||", "ah|Board 3|", "sv|o|", "x|", "abc|", "md|", "|", "\r",
                "\r\r", "\t", "~", "\x7f", "{}", "p,c|", "rs|x|", "\n", "\n\n"]


@pytest.mark.skipif(speedups.compiled is None, reason="the C accelerators were not built here")
@settings(max_examples=400, deadline=None)
@given(picks=st.lists(st.tuples(st.integers(0, 99), st.integers(0, 999), st.integers(0, 40)),
                      min_size=0, max_size=4),
       cut_at=st.one_of(st.just(0), st.integers(0, 2000)), crlf=st.booleans())
def test_the_compiled_lin_check_gives_the_patterns_answer(picks, cut_at, crlf):
    """``_speedups.lin_splits`` = ``_LIN_SPLITS.fullmatch`` on LIN lines with pairs, pieces of
    pairs, CRs, tabs and newlines put in anywhere, cut anywhere, with LF or CRLF line ends."""
    from revoke_audit.formats.scans import lin_splits

    data = _mixed(LIN_TEXT, LIN_ODD + LIN_PAIR_ODD, picks).encode("utf-8", "surrogateescape")
    data = data.replace(b"\n", b"\r\n") if crlf else data
    data = data[:len(data) - cut_at] if cut_at < len(data) else data
    assert speedups.compiled.lin_splits(data) == lin_splits(data)


@pytest.mark.skipif(speedups.compiled is None, reason="the C accelerators were not built here")
@pytest.mark.parametrize("line, splits", [
    ("pn|a,b,c,d|st||md|1S2,,,|mb|p|", True),
    ("qx|o1|pn|a,b|md|1S2,,,|sv|o|pc|S2|an|x|\r", True),
    ("pn|a,b|qx|o1|st||md|1S2,,,|rh||MC|9|", True),
    ("md|1S2,,,|mb|p|", True),
    ("pn|a,b,c,d,e|md|1S2,,,|mb|p|", False),  # names for both rooms
    ("pn|a,b|pn|a,b,c,d,e|md|1S2,,,|mb|p|", False),
    ("qx|o1|qx|o2|md|1S2,,,|mb|p|", False),
    ("st||md|1S2,,,|mb|p|", False),  # no pn, qx or md first
    ("pn|a,b|vg|x|md|1S2,,,|mb|p|", False),
    ("pn|a,b|md|1S2,,,|st||", False),  # no call, card or claim
    ("pn|a,b|md|1S2,,,|\r", False),
    ("pn|a,b|mb|p|md|1S2,,,|pc|S2|", False),  # a call before the deal
    ("pn|a,b|md|1S2,,,|mb|p|md|2S3,,,|", False),  # a second deal
    ("pn|a,b|md|1S2,,,|mb|p|\r\r", False),
    ("pn|a,b|md|1S2,,,|mb|p", False),
])
def test_the_compiled_lin_check_on_lines_worked_out_by_hand(line, splits):
    from revoke_audit.formats.scans import lin_splits

    data = (line + "\n" + line + "\n").encode()
    assert lin_splits(data) is splits
    assert speedups.compiled.lin_splits(data) is splits


@pytest.mark.skipif(speedups.compiled is None, reason="the C accelerators were not built here")
@pytest.mark.parametrize("move", ["Deal", "Event", "Board"])
def test_the_compiled_tag_scan_sees_a_tag_moved_to_another_block(move):
    """As many Deal tags as blocks, but two in one and none in the next: not one game each
    (and two Events or Boards in one block)."""
    from revoke_audit.formats.parts import _games
    from revoke_audit.formats.scans import one_game_each

    blocks = PBN_TEXT.split("\n\n")
    line = next(x for x in blocks[2].split("\n") if x.startswith(f"[{move} "))
    blocks[2] = blocks[2].replace(line + "\n", "")
    blocks[1] = blocks[1] + "\n" + line
    data = "\n\n".join(blocks).encode()
    kind, first, starts = _games(data)
    assert one_game_each(data, first, starts) is False
    assert speedups.compiled.one_game_each(data, first, starts) is False



def test_a_file_with_crlf_line_ends_splits_like_the_whole(tmp_path):
    """CRLF line ends (Windows tools) are plain: such a file splits, and its parts give the
    whole file's records (a CR anywhere else keeps a file whole)."""
    path = tmp_path / "crlf.pbn"
    path.write_bytes(games(20).replace("\n", "\r\n").encode())
    whole, got, parts = whole_and_parts(path, 3, context=1)
    assert len(parts) == 7 and got == whole and len(whole) == 20



@pytest.mark.skipif(speedups.compiled is None, reason="the C accelerators were not built here")
def test_the_scans_of_a_whole_file_let_other_threads_run():
    """The C scans of a whole file release the GIL, so that the parent's threads feeding the
    workers and taking their results run meanwhile (``_counted_during``).  The control: a
    scan that keeps the GIL (``bytes.count``) lets the counter count nothing."""
    from revoke_audit.formats.parts import _games

    c = speedups.compiled
    pbn = (PBN_TEXT.rstrip("\n") + "\n\n").encode() * (20_000_000 // len(PBN_TEXT))
    lin = LIN_TEXT.encode() * (20_000_000 // len(LIN_TEXT))
    kind, first, starts = _games(pbn)
    assert kind == "pbn" and c.one_game_each(pbn, first, starts) and c.lin_splits(lin)
    scans = {"blank_runs": lambda: c.blank_runs(pbn, first),
             "newlines": lambda: c.newlines(pbn, 0, len(pbn)),
             "plain_bytes": lambda: c.plain_bytes(pbn, first),
             "ascii_from": lambda: c.ascii_from(pbn, first),
             "one_game_each": lambda: c.one_game_each(pbn, first, starts),
             "lin_splits": lambda: c.lin_splits(lin)}
    counted = {name: _counted_during(_ten_times(scan)) for name, scan in scans.items()}
    assert all(counted.values()), counted
    assert _counted_during(_ten_times(lambda: pbn.count(b"\n"))) == 0


def _ten_times(call):
    """``call`` made ten times in a row: a fast scan (``ascii_from`` takes milliseconds) gives
    the counter, on a busy machine, more than one short chance to be scheduled."""
    return lambda: [call() for _ in range(10)]


def _counted_during(call) -> int:
    """How often another thread counts while ``call`` runs.  The switch interval made huge,
    this thread gives up the GIL only where C releases it; the counter gives it back after
    each count, so it counts nothing across a call that keeps the GIL."""
    import sys
    import threading
    import time

    stop, counted = threading.Event(), [0]

    def count() -> None:
        while not stop.is_set():
            counted[0] += 1
            time.sleep(0)  # the GIL back at once

    interval = sys.getswitchinterval()
    counter = threading.Thread(target=count)
    sys.setswitchinterval(1000.0)
    counter.start()
    try:
        time.sleep(0.01)  # the counter is counting
        before = counted[0]
        call()
        return counted[0] - before
    finally:
        stop.set()
        sys.setswitchinterval(interval)
        counter.join()


# --- a file that changes while it is split or read ----------------------------------------------

TRUNCATING = """
import os, sys
from revoke_audit.formats import parts

path, which = sys.argv[1], sys.argv[2]
real = parts._scans


class Truncating:
    # each scan first cuts the file to a third of its size (once): as another program might
    done = False

    def __getattr__(self, name):
        def call(*args):
            if not Truncating.done:
                Truncating.done = True
                os.truncate(path, os.path.getsize(path) // 3)
            return getattr(real, name)(*args)
        return call


if which == "cut":
    parts._scans = Truncating()
    print(parts.cut(path, 50, 1 << 30, 32) is not None)
else:
    assert parts.cut(path, 50, 1 << 30, 32)
    parts._scans = Truncating()
    print(parts.splittable(path))
"""


@pytest.mark.parametrize("which", ["cut", "splittable"])
@pytest.mark.parametrize("name", ["big.pbn", "big.lin"])
def test_a_file_cut_short_while_it_is_split_ends_nothing(tmp_path, which, name):
    """Another program truncates a large file while ``--jobs`` plans its parts: the plan must
    not die of it (a mapped file's pages past the new end kill the process with SIGBUS); the
    check says the file is not to be split, so it is read whole, as it now is."""
    import subprocess
    import sys

    path = tmp_path / name
    text = PBN_TEXT.rstrip("\n") + "\n\n" if name.endswith(".pbn") else LIN_TEXT
    path.write_text(text * (6_000_000 // len(text)))  # more than one piece of the scans
    done = subprocess.run([sys.executable, "-c", TRUNCATING, str(path), which],
                          capture_output=True, text=True, timeout=300)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == ("False\n" if which == "splittable" else done.stdout)


@pytest.mark.parametrize("name, text", [("big.pbn", games(60, revoke_every=5)),
                                        ("big.lin", lin_lines(60))])
@pytest.mark.parametrize("keep", [0.1, 0.45, 0.7])
def test_a_file_cut_short_after_it_was_split_loses_no_game_silently(tmp_path, name, text, keep):
    """Truncated after its parts were planned: the parts past the new end read nothing, one
    may end inside its games.  Each part that misses games it was to audit says so in a row
    of its own (PS004, game numbers), so that every game planned is a board row or named."""
    from revoke_audit.ruling.options import AuditOptions

    path = tmp_path / name
    path.write_text(text)
    parts = plan(str(path), 4, 1 << 30, 2)
    assert parts and sum(p.count for p in parts) == 60
    os.truncate(path, int(path.stat().st_size * keep))
    rows = [r for p in parts for r in run.render_part(p, AuditOptions())]
    boards = [int(r.row["game"]) for r in rows if not any(f["code"] == "PS004" for f in r.findings)]
    told = [re.search(r"games (\d+) to (\d+) were not read", f["message"])
            for r in rows for f in r.findings if f["code"] == "PS004"]
    named = set()
    for first, last in (map(int, m.groups()) for m in told if m):
        named |= set(range(first, last + 1))
    cut_inside = {int(r.row["game"]) for r in rows for f in r.findings if f["code"] == "PS004"
                  and "were not read" not in f["message"]}
    assert named and set(boards) | named | cut_inside == set(range(1, 61))
    assert not named & set(boards)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(picks=PICKS, chunk=st.integers(1, 400), lin=st.booleans())
def test_the_scans_read_in_pieces_answer_as_on_the_whole_file(tmp_path, picks, chunk, lin):
    """The file is read a piece at a time (``_CHUNK`` bytes, cut where no run of line ends or
    game is split): with pieces of a few bytes (but longer than any run of line ends), the
    plan and the check are those of pieces larger than the file."""
    from unittest import mock

    from revoke_audit.formats import parts

    path = tmp_path / ("mixed.lin" if lin else "mixed.pbn")
    text = _mixed(LIN_TEXT, LIN_ODD, picks) if lin else _mixed(PBN_TEXT, PBN_ODD, picks)
    path.write_bytes(text.encode("utf-8", "surrogateescape"))
    assume(max(map(len, re.findall(r"[\r\n]+", text)), default=0) < chunk)  # else: next test

    def answers():
        parts._games_cached.cache_clear()
        return parts._games_of(str(path)), cut(str(path), 3, 1 << 30, 1), splittable(str(path))

    whole = answers()
    with mock.patch.object(parts, "_CHUNK", chunk):
        assert answers() == whole


@pytest.mark.parametrize("header", ["", "% PBN 2.1\n\n"])
@pytest.mark.parametrize("mark", [b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff"])
def test_a_file_with_a_byte_order_mark_is_read_whole(tmp_path, header, mark):
    path = tmp_path / "big.pbn"
    path.write_bytes(mark + (header + games(20)).encode())
    assert plan(str(path), 3, 1 << 30, 32) is None


@pytest.mark.parametrize("blank", ["\n", "\r\n"])
def test_a_run_of_blank_lines_longer_than_a_piece_keeps_the_file_whole(tmp_path, blank):
    """Megabytes of blank lines between two games (hostile) are not held whole while the
    file is scanned; the file is not split, and is read whole."""
    from unittest import mock

    from revoke_audit.formats import parts

    text = games(20)
    path = tmp_path / "big.pbn"
    path.write_text(text.replace("\n\n", blank * 5000, 1), newline="")
    with mock.patch.object(parts, "_CHUNK", 1000):
        assert plan(str(path), 3, 1 << 30, 1) is None
        pieces = list(parts._content_pieces(path.open("rb")))
    assert max(len(p) for _, p in pieces) <= 2000
    assert b"".join(p for _, p in pieces) == path.read_bytes()
