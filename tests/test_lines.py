"""``formats.lines.iter_lines``: the bounded line splitter both readers stand on."""
import io

from hypothesis import given, settings
from hypothesis import strategies as st

from revoke_audit.formats import lines as lines_mod
from revoke_audit.formats.lines import iter_lines


def split(data: bytes, max_line: int = 1 << 20, chunk_size: int | None = None) -> list:
    return list(iter_lines(io.BytesIO(data), max_line, chunk_size))


def expected(data: bytes, max_line: int) -> list:
    """The contract, spelled out on the whole input at once."""
    parts = data.split(b"\n")
    if parts[-1] == b"":
        parts.pop()
    out = []
    for raw in parts:
        cut = len(raw) > max_line
        line = raw[:max_line]
        if line.endswith(b"\r"):
            line = line[:-1]
        out.append((line.rstrip(b"\x1a"), cut))
    return out


def test_crlf_and_no_trailing_newline():
    assert split(b"a\r\nb\r\n\r\nlast") == [(b"a", False), (b"b", False), (b"", False),
                                           (b"last", False)]
    assert split(b"") == []
    assert split(b"\n") == [(b"", False)]
    assert split(b"x\r\r\n") == [(b"x\r", False)]  # only one \r is dropped


def test_ctrl_z_at_the_end():
    assert split(b"a\r\nb\x1a") == [(b"a", False), (b"b", False)]
    assert split(b"a\n\x1a") == [(b"a", False), (b"", False)]
    assert split(b"a\x1a\x1a\r\n") == [(b"a", False)]


def test_line_split_across_chunks():
    data = b"first line\r\nsecond, longer line\r\nthird\n"
    want = [(b"first line", False), (b"second, longer line", False), (b"third", False)]
    for size in (1, 2, 3, 5, 7, 64):
        assert split(data, chunk_size=size) == want
    # a CRLF split between chunks: "\r" ends one chunk, "\n" starts the next
    assert split(b"ab\r\ncd", chunk_size=3) == [(b"ab", False), (b"cd", False)]


def test_chunk_size_follows_the_module_setting(monkeypatch):
    monkeypatch.setattr(lines_mod, "_CHUNK", 2)
    reads = []

    class Spy(io.BytesIO):
        def read(self, n=-1):
            reads.append(n)
            return super().read(n)

    assert list(iter_lines(Spy(b"abc\ndef\n"))) == [(b"abc", False), (b"def", False)]
    assert set(reads) == {2}


def test_over_long_line_is_cut_once_and_the_rest_skipped():
    data = b"short\n" + b"x" * 25 + b"\r\nnext\n" + b"y" * 11 + b"\nz"
    want = [(b"short", False), (b"x" * 10, True), (b"next", False), (b"y" * 10, True),
            (b"z", False)]
    for size in (1, 3, 4, 10, 11, 64, 1 << 16):
        assert split(data, max_line=10, chunk_size=size) == want
    # no newline at all: one cut line, whatever the chunk size
    assert split(b"q" * 100, max_line=10, chunk_size=7) == [(b"q" * 10, True)]
    # exactly max_line bytes is not cut
    assert split(b"w" * 10 + b"\n", max_line=10, chunk_size=3) == [(b"w" * 10, False)]


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
    assert got == [(b"z" * 1000, True)]


@settings(max_examples=300, deadline=None)
@given(data=st.lists(st.sampled_from([b"a", b"bc", b"\n", b"\r", b"\r\n", b"\x1a", b"xyzw"]),
                     max_size=60).map(b"".join),
       max_line=st.integers(1, 12), chunk_size=st.integers(1, 20))
def test_matches_the_contract_for_any_chunking(data, max_line, chunk_size):
    assert split(data, max_line, chunk_size) == expected(data, max_line)
