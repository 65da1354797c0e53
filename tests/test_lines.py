"""``formats.lines``: the bounded line splitter both readers stand on."""
import io
import time

from hypothesis import given, settings
from hypothesis import strategies as st

from revoke_audit.formats import lines as lines_mod
from revoke_audit.formats.lines import LineReader, decode, iter_lines

CONTROL = bytes([*range(0x09), 0x0B, 0x0C, *range(0x0E, 0x20), 0x7F])


def split(data: bytes, max_line: int = 1 << 20, chunk_size: int | None = None) -> list:
    return list(iter_lines(io.BytesIO(data), max_line, chunk_size))


def expected(data: bytes, max_line: int) -> tuple[list, set]:
    """Every line with its number, spelled out on the whole input at once (no line dropped),
    and the numbers of the blank lines (nothing, or only ``\\r``)."""
    parts = data.translate(None, CONTROL).split(b"\n")
    if parts[-1] == b"":
        parts.pop()
    out, blank = [], set()
    for number, raw in enumerate(parts, 1):
        line = raw[:max_line]
        if line.endswith(b"\r"):
            line = line[:-1]
        out.append((number, line, len(raw) > max_line))
        if not raw.strip(b"\r"):
            blank.add(number)
    return out, blank


def test_crlf_and_no_trailing_newline():
    assert split(b"a\r\nb\r\n\r\nlast") == [(1, b"a", False), (2, b"b", False), (3, b"", False),
                                           (4, b"last", False)]
    assert split(b"") == []
    assert split(b"\n") == [(1, b"", False)]
    assert split(b"x\r\r\n") == [(1, b"x\r", False)]  # only one \r is dropped


def test_control_characters_are_deleted():
    assert split(b"a\r\nb\x1a") == [(1, b"a", False), (2, b"b", False)]
    assert split(b"a\x1a\x1a\r\n") == [(1, b"a", False)]
    assert split(b'[Event "a\x00b\x1b[31mc\x7f"]\n\tx\x0c\n') == [
        (1, b'[Event "ab[31mc"]', False), (2, b"\tx", False)]  # tab is kept
    # C1 controls can only be seen after decoding (UTF-8 C2 80..C2 9F); cp1252 bytes 80..9F
    # are letters and stay
    assert decode("Jos\u00e9\u0085\u009b".encode()) == ("Jos\u00e9", False)
    assert decode(b"\x80 \x93x\x94") == ("\u20ac \u201cx\u201d", True)


def test_line_split_across_chunks():
    data = b"first line\r\nsecond, longer line\r\nthird\n"
    want = [(1, b"first line", False), (2, b"second, longer line", False), (3, b"third", False)]
    for size in (1, 2, 3, 5, 7, 64):
        assert split(data, chunk_size=size) == want
    # a CRLF split between chunks: "\r" ends one chunk, "\n" starts the next
    assert split(b"ab\r\ncd", chunk_size=3) == [(1, b"ab", False), (2, b"cd", False)]


def test_chunk_size_follows_the_module_setting(monkeypatch):
    monkeypatch.setattr(lines_mod, "_CHUNK", 2)
    reads = []

    class Spy(io.BytesIO):
        def read(self, n=-1):
            reads.append(n)
            return super().read(n)

    assert list(iter_lines(Spy(b"abc\ndef\n"))) == [(1, b"abc", False), (2, b"def", False)]
    assert set(reads) == {2}


def test_over_long_line_is_cut_once_and_the_rest_skipped():
    data = b"short\n" + b"x" * 25 + b"\r\nnext\n" + b"y" * 11 + b"\nz"
    want = [(1, b"short", False), (2, b"x" * 10, True), (3, b"next", False), (4, b"y" * 10, True),
            (5, b"z", False)]
    for size in (1, 3, 4, 10, 11, 64, 1 << 16):
        assert split(data, max_line=10, chunk_size=size) == want
    # no newline at all: one cut line, whatever the chunk size
    assert split(b"q" * 100, max_line=10, chunk_size=7) == [(1, b"q" * 10, True)]
    # exactly max_line bytes is not cut
    assert split(b"w" * 10 + b"\n", max_line=10, chunk_size=3) == [(1, b"w" * 10, False)]


def test_runs_of_empty_lines_are_one_line_and_numbers_stay_true():
    data = b"a\n" + b"\n" * 1000 + b"b\r\n" + b"\r\n" * 5 + b"c\n"
    assert split(data) == [(1, b"a", False), (2, b"", False), (1002, b"b", False),
                           (1003, b"", False), (1008, b"c", False)]
    assert split(b"\n\n\nx") == [(1, b"", False), (2, b"", False), (4, b"x", False)]
    assert split(b"a\n\n\n") == [(1, b"a", False), (2, b"", False)]
    # a run ending a chunk: the next line's number is still right
    assert split(b"a\n\n\n\nb\n", chunk_size=5) == [(1, b"a", False), (2, b"", False),
                                                    (5, b"b", False)]
    # a lone "\r" between line ends is blank too
    assert split(b"a\n\r\r\n\n\nb") == [(1, b"a", False), (2, b"", False), (5, b"b", False)]


def test_a_file_of_newlines_costs_no_work_per_line():
    data = b"[Event \"x\"]\n" + b"\n" * (64 << 20) + b"[Event \"y\"]\n"
    start = time.perf_counter()
    got = split(data)
    assert time.perf_counter() - start < 2  # about 0.1 s; one call per line would take 10 s
    assert got[0] == (1, b'[Event "x"]', False) and got[-1] == (2 + (64 << 20), b'[Event "y"]', False)
    assert len(got) < 3000


def test_unterminated_tells_a_file_without_final_newline():
    for data, want in ((b"a\nb", True), (b"a\nb\n", False), (b"", False), (b"a\r\n\x1a", False),
                       (b"x" * 30, True)):
        reader = LineReader(io.BytesIO(data), max_line=10)
        list(reader)
        assert reader.unterminated is want, data


def test_memory_stays_bounded():
    class Endless(io.RawIOBase):
        """20 MiB of one line, produced on the fly."""
        left = 20 << 20

        def readable(self):
            return True

        def readinto(self, buf):
            n = min(len(buf), self.left)
            buf[:n] = b"z" * n
            self.left -= n
            return n

    got = list(iter_lines(io.BufferedReader(Endless()), max_line=1000))
    assert got == [(1, b"z" * 1000, True)]


@settings(max_examples=300, deadline=None)
@given(data=st.lists(st.sampled_from([b"a", b"bc", b"\n", b"\r", b"\r\n", b"\x1a", b"\x00",
                                      b"xyzw", b"\n\n\n"]), max_size=60).map(b"".join),
       max_line=st.integers(1, 12), chunk_size=st.integers(1, 20))
def test_matches_the_contract_for_any_chunking(data, max_line, chunk_size):
    """Every line that is not blank comes with its true number; of a run of blank lines at
    least one comes, each with its true number, as it is or empty."""
    got = split(data, max_line, chunk_size)
    want, blank = expected(data, max_line)
    assert [g for g in got if g[0] not in blank] == [w for w in want if w[0] not in blank]
    wanted = {n: w for n, *w in want}
    assert all(line == b"" or [line, cut] == wanted[n] for n, line, cut in got if n in blank)
    numbers = [n for n, _, _ in got]
    assert numbers == sorted(set(numbers))
    for i, (n, _, _) in enumerate(want):
        if n in blank and (i == 0 or want[i - 1][0] not in blank):
            run = set()
            for m, _, _ in want[i:]:
                if m not in blank:
                    break
                run.add(m)
            assert run & set(numbers), (n, data)


@given(chunk_size=st.integers(1, 40))
def test_a_line_of_carriage_returns_comes_empty_whatever_the_chunking(chunk_size):
    """A line of nothing but CRs is blank: it comes empty in every chunking (it came as
    ``\\r`` when its chunk held no run of blank lines, and as part of an empty run when it did,
    so a game could end there or not, by where the chunks fell)."""
    data = b"[a]\r\n\r\r\n[b]\n\n\n[c]\n\r\r\r\n[d]\n"
    got = split(data, chunk_size=chunk_size)
    assert all(line == b"" for n, line, _ in got if n in (2, 7))
    assert [line for _, line, _ in got if line] == [b"[a]", b"[b]", b"[c]", b"[d]"]


def test_a_cut_line_that_starts_with_carriage_returns_is_not_blank():
    """Its first bytes are CRs but the line goes on: it comes as those bytes, less one CR (it
    came empty, like a blank line, so a PBN game could end inside an over-long line)."""
    assert split(b"\r\ra", max_line=2, chunk_size=1) == [(1, b"\r", True)]
    assert split(b"\r\r\rab\nx", max_line=3) == [(1, b"\r\r", True), (2, b"x", False)]
