"""The LIN reader over every real LIN file in the shared corpus (skipped when it is absent).

Checks: no exception, the board count equals SOURCES.tsv's ``boards`` column, and cross-checks
that need no hand-worked values: every vugraph ``rs`` entry names the contract and declarer that
our auction gives (which pins down the rs indexing: entry ``2 * (board - first) + room``), every
complete deal places every card played, and only the teaching file has partial deals."""
from __future__ import annotations

import csv
import re
import time
from pathlib import Path

import pytest

from revoke_audit.formats.lin import read_lin

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus"

# Files whose SOURCES.tsv ``boards`` count is wrong, with the right count and why.  Every LIN
# file was checked (counts of pn/qx/md keys, vugraph qx lists, the teaching file's 56 qx labels):
# SOURCES.tsv is right for all 1,157 LIN files, so this stays empty.
COUNT_EXCEPTIONS: dict[str, tuple[int, str]] = {}

TEACHING = "Anakin100100__zaobridge/example.lin"  # partial deals by design
_RS = re.compile(r"^([1-7])([NSHDC])([NESW])(x{0,2})(=|[+-]\d+)$", re.IGNORECASE)


def lin_rows() -> list[dict[str, str]]:
    if not (CORPUS / "SOURCES.tsv").exists():
        pytest.skip("shared corpus not present")
    with open(CORPUS / "SOURCES.tsv", newline="", encoding="utf-8") as f:
        rows = [r for r in csv.DictReader(f, delimiter="\t") if r["format"] in ("lin", "lin-vugraph")]
    return rows


def test_corpus_lin_counts_and_consistency():
    rows = lin_rows()
    # 1,157 files: 1,149 single-deal/teaching + 8 vugraph; 4 vugraph files have no extension
    assert len(rows) == 1157
    assert sum(1 for r in rows if not r["local_path"].endswith(".lin")) == 4
    t0 = time.perf_counter()
    wrong = []
    boards = rs_checked = plays_checked = 0
    for row in rows:
        path = CORPUS / row["local_path"]
        with open(path, "rb") as f:
            recs = list(read_lin(f, row["local_path"]))  # read_lin never raises
        boards += len(recs)
        expected = int(row["boards"])
        if row["local_path"] in COUNT_EXCEPTIONS:
            expected = COUNT_EXCEPTIONS[row["local_path"]][0]
        if len(recs) != expected:
            wrong.append((row["local_path"], len(recs), expected))
        assert [r.game for r in recs] == list(range(1, len(recs) + 1))
        assert all(r.source == row["local_path"] and r.format == "lin" and r.line >= 1 for r in recs)
        assert [r.line for r in recs] == sorted(r.line for r in recs)
        if row["local_path"] == TEACHING:
            continue
        for r in recs:
            # real deals: complete (4 x 13 distinct cards) and no diagnostics at all
            assert r.diagnostics == (), (row["local_path"], r.board, r.diagnostics)
            assert r.hands is not None and None not in r.hands
            assert sum(h.bit_count() for h in r.hands) == 52
            assert r.dealer is not None and r.vul is not None
            # a complete deal places every card played
            assert all(p.seat is not None and p.card is not None for p in r.play)
            plays_checked += len(r.play)
            if row["format"] == "lin-vugraph":
                assert r.room in ("open", "closed") and r.board.isdigit()
                assert r.event == r.tags.get("event", "")
                m = _RS.match(r.lin_result or "")
                assert m, (row["local_path"], r.board, r.room, r.lin_result)
                strain = "NT" if m[2].upper() == "N" else m[2].upper()
                contract = m[1] + strain + m[4].upper()
                assert (contract, "NESW".index(m[3].upper())) == (r.contract_derived, r.declarer_derived)
                rs_checked += 1
            else:
                assert r.room == "" and r.lin_result is None
    elapsed = time.perf_counter() - t0
    assert wrong == []
    assert boards == 1388
    assert rs_checked == 177
    print(f"\ncorpus LIN: {len(rows)} files, {boards} boards, {plays_checked} cards, "
          f"{rs_checked} rs results agree, {elapsed:.2f}s")
    assert elapsed < 60


def test_corpus_teaching_file():
    rows = lin_rows()
    (row,) = [r for r in rows if r["local_path"] == TEACHING]
    with open(CORPUS / TEACHING, "rb") as f:
        recs = list(read_lin(f, TEACHING))
    assert len(recs) == int(row["boards"]) == 56
    assert [r.board for r in recs[:3]] == ["A1", "A2", "A3"] and recs[-1].board == "F56"
    assert all(r.auction[-3:] == ("P", "P", "P") and r.contract_derived for r in recs)
    # every board is a partial deal; a few are malformed (a rank before any suit letter, one
    # card twice), each reported on its md line
    assert all(any(d.code == "PS205" for d in r.diagnostics) or r.board == "D34" for r in recs)
    bad = {r.board: sorted({d.code for d in r.diagnostics} - {"PS205"}) for r in recs}
    assert {b: c for b, c in bad.items() if c} == {
        "A1": ["PS201"], "A2": ["PS203"], "B17": ["PS203"], "D34": ["PS204"], "E43": ["PS203"]}
