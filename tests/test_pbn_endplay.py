"""Our PBN records against endplay's PBN parser, on every corpus file endplay can read.

Compared per board: the deal, the contract and declarer, and the play in time order.
endplay ``Board.play`` is a flat list of cards in time order (``linearise_play``: each PBN
row rotated so that the previous trick's winner comes first); an unknown card ``-`` becomes a
padding card of suit NT, and trailing padding is dropped.

Where endplay is wrong or reads differently, the comparison is narrowed, and each case says why:

* endplay stops at the first problem in a file (``^R`` marks, ``^9`` results, 0.8 files whose
  first tag is ``#``, ...): such files are skipped (counted as ``endplay_failed``).
* endplay has no notion of a missing blank line between two games: it merges them, so its
  board count differs (PS120 files): skipped (``count_differs``).
* a second-table game without Deal (PS106): endplay does not take the deal from the game before
  and has an empty deal - the deal is not compared; the rest is.
* ``[Contract ""]`` (BridgeComposer placeholders): endplay reads ``Contract("" or "Pass")``, a
  passed-out board; an empty Contract says nothing - not compared.
* ``[Declarer "?"]``: endplay keeps its Contract's default declarer (North); unknown for us.
* play after a trick whose winner is unknown (a ``-`` in it): endplay guesses a winner by
  treating ``-`` as a card of suit NT - which *wins* the trick in a notrump contract, since its
  trick_winner takes a card of the trump "suit" NT as a trump (e.g. R16FIN2.PBN board 2 closed:
  ``DQ D2 D8 -`` then ``- CA - CK``: endplay decides North won trick 1, but West's card is
  unknown and West, declarer in 4H, could have ruffed).  Only the tricks before the one whose
  leader is unknown are compared.
* a comment left open by BridgeComposer (PS121): endplay's comment handling swallows the tags
  after it (Declarer/Contract/Result), so it reads ``[Contract ""]`` as a pass: skipped.
"""
from __future__ import annotations

import csv
import io
import time
import warnings
from collections import Counter
from pathlib import Path

import pytest

from revoke_audit.formats.pbn import read_pbn

endplay_pbn = pytest.importorskip("endplay.parsers.pbn")
from endplay.types import Denom, Penalty, Player  # noqa: E402

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus"


def _card(c) -> int | None:
    if c.suit == Denom.nt:  # endplay's padding for "-"
        return None
    return int(c.suit) * 13 + int(c.rank).bit_length() - 3  # Rank.R2 == 1 << 2


def _mask(hand) -> int:
    m = 0
    for c in hand:
        m |= 1 << _card(c)
    return m


def _contract(c) -> str | None:
    if c is None:
        return None
    if c.is_passout():
        return "Pass"
    strain = "NT" if c.denom == Denom.nt else "SHDC"[int(c.denom)]
    risk = {Penalty.passed: "", Penalty.doubled: "X", Penalty.redoubled: "XX"}[c.penalty]
    return f"{c.level}{strain}{risk}"


def _strip(cards: list) -> list:
    while cards and cards[-1] is None:
        cards.pop()
    return cards


def test_agrees_with_endplay():
    if not (CORPUS / "SOURCES.tsv").exists():
        pytest.skip("shared corpus not present")
    with open(CORPUS / "SOURCES.tsv", newline="", encoding="utf-8") as f:
        rows = [r for r in csv.DictReader(f, delimiter="\t") if r["format"] == "pbn"]
    start = time.perf_counter()
    n = Counter()
    bad: list[str] = []
    for row in rows:
        path = row["local_path"]
        data = (CORPUS / path).read_bytes()
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            text = data.decode("cp1252", errors="replace")
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                theirs = endplay_pbn.loads(text)
        except Exception:  # noqa: BLE001 - endplay stops at the first problem
            n["endplay_failed"] += 1
            continue
        ours = list(read_pbn(io.BytesIO(data), path))
        if len(theirs) != len(ours):
            n["count_differs"] += 1
            continue
        n["files"] += 1
        for b, rec in zip(theirs, ours):
            codes = {d.code for d in rec.diagnostics}
            if "PS121" in codes:
                n["skipped_open_comment"] += 1
                continue
            n["boards"] += 1
            where = f"{path}:{rec.line}"
            if rec.hands is not None and "PS106" not in codes:
                n["deal"] += 1
                theirs_deal = tuple(_mask(b.deal[p]) for p in Player)
                if theirs_deal != tuple(h or 0 for h in rec.hands):
                    bad.append(f"{where} deal")
            raw_contract = rec.tags.get("Contract")
            if raw_contract != "" and (rec.contract is not None or b.contract is not None):
                n["contract"] += 1
                if _contract(b.contract) != rec.contract:
                    bad.append(f"{where} contract {_contract(b.contract)} != {rec.contract}")
                elif (rec.contract != "Pass" and rec.tags.get("Declarer") != "?"
                      and b.contract is not None):
                    n["declarer"] += 1
                    if int(b.contract.declarer) != rec.declarer:
                        bad.append(f"{where} declarer")
            if rec.play or b.play:
                n["play"] += 1
                ours_play = [p.card for p in rec.play]
                theirs_play = [_card(c) for c in b.play]
                unknown = [p.trick for p in rec.play if p.card is None]
                known_after = unknown and any(p.card is not None and p.trick > unknown[0]
                                              for p in rec.play)
                if known_after:  # who led the next trick is unknown: compare up to it
                    n["play_cut_at_unknown_leader"] += 1
                    keep = sum(p.trick <= unknown[0] for p in rec.play)
                    ours_play, theirs_play = ours_play[:keep], theirs_play[:keep]
                n["cards"] += len(ours_play)
                if _strip(ours_play) != _strip(theirs_play):
                    bad.append(f"{where} play")
    elapsed = time.perf_counter() - start
    print(f"\nendplay comparison in {elapsed:.1f} s: {dict(n)}")
    assert not bad, "\n".join(bad[:50])
    assert n["boards"] > 50000 and n["play"] > 40000
