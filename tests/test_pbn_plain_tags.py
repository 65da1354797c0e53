"""A plain PBN game's tag lines read in C (``_speedups.plain_tags``) give exactly what the
Python twin gives (``formats.pbn.plain.py_plain_tags``), on generated games and on every kind
of change to them (a character put in, changed or taken out anywhere: brackets, quotes,
backslashes, newlines, spaces, CR, non-ASCII letters); and the twin's own rules, each on a
small text.  The C part is skipped where the extension was not built (no compiler)."""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings, strategies as st

from revoke_audit.core import speedups
from revoke_audit.formats.pbn.plain import py_plain_tags

from test_lane import clean_game

C = speedups.compiled
needs_c = pytest.mark.skipif(C is None, reason="the C accelerator was not built here")
PIECES = ["[", "]", '"', "\\", "\n", " ", "  ", "A", "z", "9", "*", "#", "Auction", "Play", "\r",
          "\t", "\u00e9", "\u20ac", "\U0001f0a1", "-", '[X "y"]\n', "S2 H3\n"]


def changed(rnd: random.Random, text: str) -> str:
    k = rnd.randrange(len(text) + 1)
    how = rnd.randrange(3)
    if how == 0:
        return text[:k] + rnd.choice(PIECES) + text[k:]
    if how == 1:
        return text[:k] + rnd.choice(PIECES) + text[k + 1:]
    return text[:k] + text[k + 1:]


@needs_c
@pytest.mark.parametrize("seed", range(4))
def test_c_reads_generated_and_changed_games_as_the_twin(seed):
    rnd = random.Random(seed)
    for n in range(1, 60):
        text = clean_game(rnd, n).strip("\n") + "\n"
        assert C.plain_tags(text) == py_plain_tags(text) is not None
        for _ in range(40):
            text2 = changed(rnd, text)
            for _ in range(rnd.randrange(3)):
                text2 = changed(rnd, text2)
            assert C.plain_tags(text2) == py_plain_tags(text2), repr(text2)


@needs_c
@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(PIECES + ['[Event "x"]\n', '[Play "N"]\n', "\n\n"]),
                max_size=30))
def test_c_reads_any_text_as_the_twin(pieces):
    text = "".join(pieces)
    assert C.plain_tags(text) == py_plain_tags(text)


def test_the_twin_takes_tags_and_the_auction_and_play_lines():
    text = '[Event "A b"]\n[Auction "N"]\n1S Pass\nPass Pass  \n[Play "E"]\nS2 S3 S4 S5\n*\n'
    tags, auction, play = py_plain_tags(text)
    assert list(tags.items()) == [("Event", "A b"), ("Auction", "N"), ("Play", "E")]
    assert auction == "1S Pass\nPass Pass  \n" and play == "S2 S3 S4 S5\n*\n"
    assert py_plain_tags('[Event "x"]\n') == ({"Event": "x"}, "", "")


@pytest.mark.parametrize("text", [
    "", "\n", '[Event "x"]', '[Event "x"]\n\n', '[Event "x"]\n[Event "y"]\n',  # a tag twice
    '[Event "x"]\nS2\n',  # token lines after another tag
    '[Event "x\\y"]\n', '[Event "x"y"]\n', '[Event  "x"]\n', '[Ev1 "x"]\n', '[ "x"]\n',
    '[Play "N"]\nS2  S3\n', '[Auction "N"]\n1S\nPass  Pass\n',  # two spaces in a line
    '[Play "N"]\n S2\n', '[Play "N"]\nS2-S3\n', ' [Event "x"]\n',
])
def test_the_twin_refuses_what_is_not_plain(text):
    assert py_plain_tags(text) is None
    if C is not None:
        assert C.plain_tags(text) is None
