"""Whether a LIN line is one plain board, read in C (``_speedups.lin_line``), is exactly what
the Python twin says (``formats.lin.plain.py_plain_line``: ``LINE.fullmatch``), on generated
lines (with claims) and on every kind of change to them: a separator, a key, a digit or any
byte put in, changed or taken out anywhere; and the twin's own rules, each on a small line.
The C part is skipped where the extension was not built (no compiler)."""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings, strategies as st

from revoke_audit.core import speedups
from revoke_audit.formats.lin.plain import py_plain_line

from test_lane_lin import clean_lines

C = speedups.compiled
needs_c = pytest.mark.skipif(C is None, reason="the C accelerator was not built here")
PIECES = [b"|", b"||", b",", b"\n", b"\r", b"\x00", b"\xe9", b" ", b"mc|", b"mc|7|", b"mc|123|",
          b"pg||", b"pg|", b"mb|", b"pc|", b"pn|", b"st||", b"md|", b"0", b"1", b"5", b"9", b"x"]


def changed(rnd: random.Random, line: bytes) -> bytes:
    for _ in range(rnd.choice([1, 1, 2, 3])):
        k = rnd.randrange(len(line) + 1)
        line = line[:k] + rnd.choice(PIECES + [b""]) + line[k + rnd.choice([0, 1, 2]):]
    return line


@needs_c
@pytest.mark.parametrize("seed", range(4))
def test_c_reads_generated_and_changed_lines_as_the_twin(seed):
    rnd = random.Random(seed)
    for line in clean_lines(seed, 40):
        raw = line.encode()
        assert C.lin_line(raw) is py_plain_line(raw) is True
        for _ in range(20):
            other = changed(rnd, raw)
            assert C.lin_line(other) is py_plain_line(other), other


@needs_c
@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(PIECES + [b"a,b,c,d", b"st||md|3", b"|rh||ah|Board 1|sv|o|",
                                          b"mb|1S|", b"pc|SA|", b"SA"]), max_size=30))
def test_c_reads_any_sequence_of_pieces_as_the_twin(pieces):
    raw = b"pn|" + b"".join(pieces)
    assert C.lin_line(raw) is py_plain_line(raw)


@pytest.mark.parametrize("line, plain", [
    (b"pn|s,w,n,e|st||md|3SA,HA,DA,|rh||ah|Board 1|sv|o|mb|p|pg||pc|SA|mc|13|", True),
    (b"pn|s,w,n,e|st||md|3SA,HA,DA,|rh||ah|Board 1|sv|o|", True),  # no call yet
    (b"pn|s,w,n,e|st||md|3SA|rh||ah||sv||pg||pg||", True),
    (b"pn|s,w,n,e|st||md|5SA|rh||ah||sv||", False),  # dealer 5
    (b"pn|s,w,n|st||md|3SA|rh||ah||sv||", False),  # three names
    (b"pn|s,w,n,e,x|st||md|3SA|rh||ah||sv||", False),  # five
    (b"pn|s,w,n,e|st||md|3SA|rh||ah||sv||mc|123|", False),  # a claim of three digits
    (b"pn|s,w,n,e|st||md|3SA|rh||ah||sv||mc|1|pc|SA|", False),  # a card after the claim
    (b"pn|s,w,n,e|st||md|3SA|rh||ah||sv||pc|SA", False),  # a pair not closed
    (b"pn|s,w,n,e|st||md|3SA|rh||ah||sv||nt|hi|", False),  # another key
    (b"pn|s,w,n,e|st||md|3S\nA|rh||ah||sv||", False),  # a newline in a value
])
def test_the_twin_takes_one_plain_board_and_nothing_else(line, plain):
    assert py_plain_line(line) is plain
    if C is not None:
        assert C.lin_line(line) is plain
