"""``pbn.blocks.Pieces`` gives the line reader's lines, with plain blocks whole; and the PBN
reader reads the same records with blocks as line by line, whatever the chunks."""
from __future__ import annotations

import io

import pytest
from hypothesis import given, settings, strategies as st

from revoke_audit.formats.lines import LineReader
from revoke_audit.formats.pbn import PlainGame, as_record, blocks, lookup as pbn_lookup, read_pbn
from revoke_audit.formats.pbn.blocks import Block, Pieces

from test_pbn_fast import generated_file


def as_lines(pieces) -> list[tuple[int, bytes, bool]]:
    """Blocks expanded into their lines and the blank line after them."""
    out = []
    for p in pieces:
        if type(p) is Block:
            out += [(p.first + i, line, False) for i, line in enumerate(p.lines())]
            out.append((p.blank, b"", False))
        else:
            out.append(p)
    return out


def merged(lines: list[tuple[int, bytes, bool]]) -> list[tuple[int, bytes, bool]]:
    """Two blank lines in a row as one (the line reader may give a run of blank lines as
    two, by where its chunks fall; the readers read both the same)."""
    out = []
    for item in lines:
        if out and not item[1] and not out[-1][1] and not item[2]:
            continue
        out.append(item)
    return out


LINES = st.sampled_from([b'[Event "x"]', b'[Deal "N:AKQ.JT9.876.5432 - - -"]', b"SA SK SQ SJ",
                         b"", b"", b"\r", b"a\rb", b"\x00x", b"\t", b"  ", b"%c", b"\xc3\xa9",
                         b'[Event "x"]\r', b"SA SK\r", b"\r\r", b"\rx", b"x\r\r", b"\r\x00"])


@settings(max_examples=300, deadline=None)
@given(st.lists(LINES, max_size=40), st.booleans(), st.integers(2, 40), st.integers(1, 60),
       st.sampled_from([1, 2, 1_000_003]))
def test_pieces_give_the_line_readers_lines(lines, newline_at_end, chunk, hold, first_line):
    data = b"\n".join(lines) + (b"\n" if newline_at_end else b"")
    want = LineReader(io.BytesIO(data), chunk_size=1 << 20, first_line=first_line)
    want_lines = merged(list(want))
    got = Pieces(io.BytesIO(data), chunk_size=chunk, hold=hold, first_line=first_line)
    got_lines = list(got)
    assert merged(as_lines(got_lines)) == want_lines
    assert got.unterminated == want.unterminated
    for p in got_lines:
        if type(p) is Block:
            assert b"\r" not in p.data and not p.data.startswith(b"\n")


def test_plain_blocks_come_whole():
    data = b'[Event "a"]\n[Board "1"]\n\n\n[Event "b"]\n\n[Event "c"]\n'
    got = list(Pieces(io.BytesIO(data)))
    assert [(p.data, p.first, p.nlines, p.blank) for p in got if type(p) is Block] == [
        (b'[Event "a"]\n[Board "1"]', 1, 2, 3), (b'[Event "b"]', 5, 1, 6)]
    assert got[-1] == (7, b'[Event "c"]', False)  # the last block: line by line


def test_crlf_blocks_come_whole_without_their_crs():
    data = b'[Event "a"]\r\n[Board "1"]\r\n\r\n\r\n[Event "b"]\r\n\n[Event "c"]\r\n'
    got = list(Pieces(io.BytesIO(data)))
    assert [(p.data, p.first, p.nlines, p.blank) for p in got if type(p) is Block] == [
        (b'[Event "a"]\n[Board "1"]', 1, 2, 3), (b'[Event "b"]', 5, 1, 6)]
    assert got[-1] == (7, b'[Event "c"]', False)


def test_a_file_without_blank_lines_is_read_line_by_line_past_the_hold():
    data = b"x" * 50 + b"\n" + b"y\n" * 30
    got = list(Pieces(io.BytesIO(data), chunk_size=16, hold=32))
    assert got == list(LineReader(io.BytesIO(data)))


@pytest.mark.parametrize("seed", range(6))
def test_the_reader_reads_the_same_with_blocks_in_any_chunks(seed, monkeypatch):
    data = generated_file(seed, games=40).replace(b"\n\n", b"\n\n\n", 3)
    monkeypatch.setattr(pbn_lookup, "ENABLED", False)
    want = list(read_pbn(io.BytesIO(data), "x.pbn"))
    monkeypatch.setattr(pbn_lookup, "ENABLED", True)
    for chunk, hold in ((1 << 20, 4 << 20), (97, 200), (1000, 1000), (5, 5)):
        monkeypatch.setattr(blocks, "_CHUNK", chunk)
        monkeypatch.setattr(blocks, "_HOLD", hold)
        assert list(read_pbn(io.BytesIO(data), "x.pbn")) == want, (chunk, hold)


def read_as_records(data: bytes) -> list:
    items = list(read_pbn(io.BytesIO(data), "x.pbn", plain=True))
    assert any(type(i) is PlainGame for i in items) or b"[Deal" not in data
    return [as_record(i) for i in items]


@pytest.mark.parametrize("seed", range(8))
def test_plain_games_give_the_records_of_the_reader(seed):
    data = generated_file(seed, games=60)
    assert read_as_records(data) == list(read_pbn(io.BytesIO(data), "x.pbn"))


@pytest.mark.parametrize("plain", [True, False])
def test_the_reader_numbers_lines_from_the_first_line_given(plain):
    """A part of a file is read numbered from its line in the file (``formats.parts``)."""
    data = generated_file(3, games=10)
    base = read_as_records(data)
    got = [as_record(i) for i in read_pbn(io.BytesIO(data), "x.pbn", plain=plain,
                                          first_line=1001)]
    assert [r.line for r in got] == [r.line + 1000 for r in base]
    assert [r.hands for r in got] == [r.hands for r in base]


def test_a_game_after_a_plain_one_inherits_from_it():
    data = (b'[Event "e"]\n[Board "1"]\n[Deal "N:AKQJT98765432 - - -"]\n\n'
            b'[Event "#"]\n[Board "1"]\n[Auction "N"]\n1S Pass Pass Pass\n\n'
            b'[Event "##sticky"]\n[Board "2"]\n[Deal "N:AKQJT98765432 - - -"]\n\n'
            b'[Board "3"]\n[Deal "N:AKQJT98765432 - - -"]\n\n')
    items = list(read_pbn(io.BytesIO(data), "x.pbn", plain=True))
    assert type(items[0]) is PlainGame and type(items[3]) is not PlainGame  # ## is pending
    records = [as_record(i) for i in items]
    assert records == list(read_pbn(io.BytesIO(data), "x.pbn"))
    assert records[1].event == "e" and records[1].hands == records[0].hands  # # and no Deal
    assert records[3].event == "sticky"


def test_a_long_run_of_blank_lines_costs_no_memory():
    """A part of a large file starts with its line number's worth of newlines (``parts``):
    the separator's pattern must not keep a backtracking stack over them (it took 16 MB for
    160,000 newlines)."""
    import tracemalloc

    data = b'[Event "a"]\n' + b"\n" * 1_000_000 + b'[Event "b"]\n\n[Event "c"]\n'
    tracemalloc.start()
    try:
        got = [p for p in Pieces(io.BytesIO(data)) if type(p) is Block]
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert [p.first for p in got] == [1, 1_000_002]
    assert peak < 8 << 20


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from([b"\n", b"\n\n", b"\n\n\n", b"\r\n", b"\r", b"\x00", b"\x7f",
                                 b"\t", b"[Event \"x\"]", b"SA SK", b"a"]), max_size=40))
def test_separators_are_the_regexs_matches(parts):
    """``_separators`` finds the runs of blank lines ``_SEPARATOR`` finds - by ``find`` in
    data without a carriage return or control character (``plain``), by the regex otherwise -
    and ``plain`` is ``_CHANGED`` finding nothing."""
    data = b"".join(parts)
    plain = len(data.translate(None, blocks._CHANGED_BYTES)) == len(data)
    assert plain == (blocks._CHANGED.search(data) is None)
    want = [m.span() for m in blocks._SEPARATOR.finditer(data)]
    assert list(blocks._separators(data, plain)) == want
