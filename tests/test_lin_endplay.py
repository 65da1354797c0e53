"""Our LIN reader against endplay's (``endplay.parsers.lin``) on the shared corpus.

Where endplay reads a file without error and finds the same number of boards, every board must
agree on the deal, the contract and declarer, and the order of the cards played.

endplay's reader, as read in endplay 0.5.x, and what that means for the comparison:
* it splits the file into boards only at the text ``pn|`` and drops all newlines: vugraph
  archives (one 8-name ``pn`` for the whole file) fail on unpacking 8 names ("too many values to
  unpack") and the teaching file (no ``pn`` at all) gives 0 boards - those files are not compared
  (different board count or an exception);
* it computes a result from the play with ``total_tricks``, which crashes on an incomplete last
  trick without a claim (``'NoneType' object has no attribute 'suit'``) - those files raise and
  are not compared;
* it rejects ``sv|0|`` (Vul.from_lin knows only o/n/e/b) and lower-case ``pc`` suits; none of the
  files it reads has them;
* it derives a contract from any auction, even an unfinished one, where we give None; a board
  with no calls gives ``contract=None`` on both sides.  Its ``Hand.from_lin`` assumes every hand
  starts with ``S`` (it drops the first character), which holds for every real deal it reads.
"""
from __future__ import annotations

import csv
import time
from pathlib import Path

import pytest

from revoke_audit.formats.lin import read_lin

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus"

endplay_lin = pytest.importorskip("endplay.parsers.lin")
from endplay.types import Denom, Penalty, Player  # noqa: E402

_SEAT = {Player.north: 0, Player.east: 1, Player.south: 2, Player.west: 3}
_STRAIN = {Denom.spades: "S", Denom.hearts: "H", Denom.diamonds: "D", Denom.clubs: "C", Denom.nt: "NT"}
_RISK = {Penalty.passed: "", Penalty.doubled: "X", Penalty.redoubled: "XX"}


def card_int(c) -> int:
    """endplay Card -> our int: the suit order is the same (S H D C), Rank.R2 = 1 << 2 ..."""
    return int(c.suit) * 13 + int(c.rank).bit_length() - 3


def their_contract(c):
    if c is None:
        return None, None
    if c.level == 0:
        return "Pass", None
    return f"{c.level}{_STRAIN[c.denom]}{_RISK[c.penalty]}", _SEAT[c.declarer]


def test_agrees_with_endplay():
    if not (CORPUS / "SOURCES.tsv").exists():
        pytest.skip("shared corpus not present")
    with open(CORPUS / "SOURCES.tsv", newline="", encoding="utf-8") as f:
        rows = [r for r in csv.DictReader(f, delimiter="\t") if r["format"] in ("lin", "lin-vugraph")]
    t0 = time.perf_counter()
    files = compared = unfinished = 0
    skipped: dict[str, str] = {}
    disagreements = []
    for row in rows:
        path = CORPUS / row["local_path"]
        try:
            with open(path, encoding="utf-8", errors="replace") as f:
                theirs = endplay_lin.load(f)
        except Exception as exc:  # endplay gives up on this file: nothing to compare
            skipped[row["local_path"]] = f"endplay: {type(exc).__name__}"
            continue
        with open(path, "rb") as f:
            ours = list(read_lin(f, row["local_path"]))
        if len(theirs) != len(ours):
            skipped[row["local_path"]] = f"endplay found {len(theirs)} boards, we {len(ours)}"
            continue
        files += 1
        for b, r in zip(theirs, ours):
            compared += 1
            deal = tuple(sum(1 << card_int(c) for c in b.deal[p])
                         for p in (Player.north, Player.east, Player.south, Player.west))
            problems = []
            if deal != r.hands:
                problems.append("deal")
            if r.auction and r.contract_derived is None:
                # an unfinished auction (the record stops mid-auction): endplay makes a contract
                # of the last bid anyway; we give none.  Not a disagreement about the file.
                assert r.auction[-3:] != ("P", "P", "P") and not r.play
                unfinished += 1
            elif their_contract(b.contract) != (r.contract_derived, r.declarer_derived):
                problems.append(f"contract {their_contract(b.contract)} vs "
                                f"{(r.contract_derived, r.declarer_derived)}")
            if [card_int(c) for c in b.play] != [p.card for p in r.play]:
                problems.append("play")
            if problems:
                disagreements.append((row["local_path"], r.board, problems))
    elapsed = time.perf_counter() - t0
    print(f"\nendplay: {files} files, {compared} boards compared, "
          f"{compared - len(disagreements)} agree ({unfinished} with an unfinished auction: deal "
          f"and play only); {len(skipped)} files skipped; {elapsed:.2f}s")
    assert disagreements == []
    # what is skipped is exactly what the module docstring explains
    reasons = sorted(set(v.split(":")[0] if v.startswith("endplay:") else "count" for v in skipped.values()))
    assert reasons == ["count", "endplay"]
    assert sum(1 for v in skipped.values() if v.startswith("endplay found")) == 1  # teaching file
    assert compared >= 1100
    assert elapsed < 60
