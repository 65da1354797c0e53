"""A rescored board's field on the printed page, in headless Chromium (as
tests/test_html_browser.py): a small field prints on the board's page, a large one is never
cut across pages (it moves whole to the next)."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from revoke_audit import audit_paths
from test_html_browser import CHROMIUM, chromium, console, pdf_pages
from test_rescore import DEAL_2, SESSION, result

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(CHROMIUM is None, reason="no Chromium installed (apt-get install "
                       "chromium; .ci/run installs it): the page is not checked in a browser"),
    pytest.mark.skipif(shutil.which("pdftotext") is None,
                       reason="no pdftotext (poppler-utils): the printed pages are not read"),
]

# nine more tables of board 2, with long names that wrap: a field of 13 results
MORE_2 = [result("2", DEAL_2, "3NT", "S", 8 + i % 4,
                 f"Northern{i} Player,East{i},Southern{i} Player,West{i}") for i in range(9)]


def printed(tmp_path: Path, games: list[str]) -> Path:
    """The session's page (one irregular board, board 2 with its field) printed to PDF."""
    src = tmp_path / "session.pbn"
    src.write_text("".join(games))
    page = tmp_path / "page.html"
    audit_paths([src], discovered="table", html=page)
    pdf = tmp_path / "page.pdf"
    stderr = chromium(tmp_path, f"--print-to-pdf={pdf}", "--no-pdf-header-footer",
                      page.resolve().as_uri())
    assert console(stderr) == []
    return pdf


def pages_text(pdf: Path) -> list[str]:
    out = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True,
                         text=True, check=True).stdout
    return out.split("\f")


def field_page(pdf: Path, names: list[str]) -> int:
    """The page that holds the field: its heading and every pair named, on no other page of
    the board (the summary's rank changes name pairs too)."""
    texts = pages_text(pdf)
    (at,) = [i for i, t in enumerate(texts) if "The field: before and after" in t]
    assert all(name in texts[at] for name in names)
    assert not any(name in t for i, t in enumerate(texts) if i not in (0, at) for name in names)
    return at


NAMES = ["Lu N & Ned S", "Mo E & Oz W", "Hal N & Jo S", "Pat N & Ray S"]


def test_a_small_field_prints_on_its_boards_page(tmp_path):
    # the summary, then board 2 - deal, play, ruling and its field of four - on one A4 page
    pdf = printed(tmp_path, SESSION)
    assert pdf_pages(pdf) == 2 and field_page(pdf, NAMES) == 1


def test_a_large_field_is_never_cut_across_pages(tmp_path):
    pdf = printed(tmp_path, SESSION + MORE_2)
    # moved whole to the page after the board's
    assert field_page(pdf, NAMES + [f"East{i} & West{i}" for i in range(9)]) == 2
