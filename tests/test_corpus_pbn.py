"""Every PBN file of the shared corpus is read without an exception, and the number of games
agrees with SOURCES.tsv's ``boards`` column except where SOURCES is wrong (listed below)."""
from __future__ import annotations

import csv
import time
from pathlib import Path

import pytest

from revoke_audit.core.codes import CODES
from revoke_audit.formats.pbn import read_pbn

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus"

# SOURCES.tsv counts blocks of text between blank lines.  Where that differs from the games in
# the file, SOURCES is wrong; each entry: path -> (games really in the file, reason).
GLUED = ("two games with no blank line between them (the second starts with a repeated "
         "[Event ...] after the first game's Deal/Auction); SOURCES counts the pair as one; "
         "the reader splits them with PS120 - one PS120 per missing blank line")
CTRL_Z = ("the file ends with a line holding only the DOS end-of-file Ctrl-Z after the last "
          "blank line; SOURCES counts that line as a game, it has no tag")
COUNT_EXCEPTIONS: dict[str, tuple[int, str]] = {
    "ContractBridge__pbn-files/2000-8th_Forbo_Krommenie_International_Bridge_Tournament/"
    "T1BMODRU.PBN": (16, GLUED),
    "ContractBridge__pbn-files/2000-Orbis_Bermuda_Bowl/f2us1bra.pbn": (32, GLUED),
    "ContractBridge__pbn-files/2000-Orbis_Bermuda_Bowl/r03_noit.pbn": (40, GLUED),
    "ContractBridge__pbn-files/2000-Orbis_Bermuda_Bowl/r07_busw.pbn": (40, GLUED),  # 20 pairs
    "ContractBridge__pbn-files/2000-Orbis_Bermuda_Bowl/r14_poin.pbn": (40, GLUED),
    "ContractBridge__pbn-files/2000-Orbis_Bermuda_Bowl/r17_buno.pbn": (40, GLUED),
    "ContractBridge__pbn-files/2001-9th_Forbo_Krommenie_International_Bridge_Tournament/"
    "N3BITAPO.PBN": (40, GLUED),
    "ContractBridge__pbn-files/2001-Den_Bosch_Junior_Test/R9ENGNET.PBN": (20, GLUED),
    "ContractBridge__pbn-files/2001-European_Team_Championships/17PORNET.PBN": (40, GLUED),
    "ContractBridge__pbn-files/2001-Spring_NABC_-_74th_Vanderbilt_Cup_and_Open_Pairs/"
    "1PART1.PBN": (15, GLUED),
    "ContractBridge__pbn-files/2001-Spring_NABC_-_74th_Vanderbilt_Cup_and_Open_Pairs/"
    "2PART1.PBN": (15, GLUED),
    "ContractBridge__pbn-files/2001-Spring_NABC_-_74th_Vanderbilt_Cup_and_Open_Pairs/"
    "3PART1.PBN": (26, GLUED),
    "ContractBridge__pbn-files/singles/2000-Vanderbilt_Final.PBN": (32, GLUED),
    "Rick-Wilson__bridge-wrangler/tests/fixtures/input/ABS2-2 - 4x9.pbn": (36, GLUED),
    "ContractBridge__pbn-files/2001-European_Team_Championships/01denice.pbn": (40, CTRL_Z),
    "ContractBridge__pbn-files/2001-European_Team_Championships/03rusisr.pbn": (40, CTRL_Z),
    "ContractBridge__pbn-files/2001-European_Team_Championships/04spaaus.pbn": (40, CTRL_Z),
    "ContractBridge__pbn-files/2001-European_Team_Championships/05finhun.pbn": (40, CTRL_Z),
    "ContractBridge__pbn-files/2001-European_Team_Championships/06iceswi.pbn": (40, CTRL_Z),
    "ContractBridge__pbn-files/2001-European_Team_Championships/07itaeng.pbn": (40, CTRL_Z),
    "ContractBridge__pbn-files/2001-European_Team_Championships/08bulswe.pbn": (40, CTRL_Z),
    "ContractBridge__pbn-files/2001-European_Team_Championships/32itapol.pbn": (40, CTRL_Z),
    "ContractBridge__pbn-files/2001-European_Team_Championships/34dennor.pbn": (40, CTRL_Z),
    "ContractBridge__pbn-files/2001-European_Team_Championships/35frabul.pbn": (40, CTRL_Z),
    "ContractBridge__pbn-files/2001-European_Team_Championships/w20netau.pbn": (40, CTRL_Z),
    # a PBN-verifier test file: its "game 23" is the text "bad characters" with no tag at all;
    # SOURCES counts it, the reader reports it as PS101 outside any game
    "ContractBridge__pbnj/src/test/resources/errors_10.pbn": (74, "a block without tags"),
}


def pbn_sources() -> list[dict[str, str]]:
    if not (CORPUS / "SOURCES.tsv").exists():
        pytest.skip("shared corpus not present")
    with open(CORPUS / "SOURCES.tsv", newline="", encoding="utf-8") as f:
        return [r for r in csv.DictReader(f, delimiter="\t") if r["format"] == "pbn"]


def test_corpus_pbn_counts():
    rows = pbn_sources()
    start = time.perf_counter()
    wrong: list[str] = []
    boards = 0
    for row in rows:
        path = row["local_path"]
        file_diags: list = []
        with open(CORPUS / path, "rb") as f:
            recs = list(read_pbn(f, path, diagnostics=file_diags))
        boards += len(recs)
        expected = int(row["boards"])
        if path in COUNT_EXCEPTIONS:
            expected, reason = COUNT_EXCEPTIONS[path]
            if reason == GLUED:
                splits = sum(d.code == "PS120" for r in recs for d in r.diagnostics)
                assert splits == expected - int(row["boards"]), path
        if len(recs) != expected:
            wrong.append(f"{path}: read {len(recs)}, expected {expected}")
        for i, rec in enumerate(recs, 1):
            assert rec.game == i and rec.source == path and rec.format == "pbn"
            for d in rec.diagnostics:
                assert d.code in CODES, d
        for d in file_diags:
            assert d.code in CODES, d
    elapsed = time.perf_counter() - start
    print(f"\n{len(rows)} PBN files, {boards} boards read in {elapsed:.1f} s")
    assert not wrong, "\n".join(wrong)
    assert len(rows) > 1000 and boards > 60000


def test_count_exceptions_are_real():
    """Every exception names a corpus PBN file whose SOURCES count really differs."""
    rows = {r["local_path"]: int(r["boards"]) for r in pbn_sources()}
    for path, (count, _reason) in COUNT_EXCEPTIONS.items():
        assert path in rows and rows[path] != count, path
