"""The director's page in a real browser: headless Chromium (Debian's ``chromium``; ``.ci/run``
installs it) renders the sample session's page to PNG and to PDF, with no console message, and
the PDF has one page for the summary and one per irregular board."""
from __future__ import annotations

import re
import shutil
import struct
import subprocess
from pathlib import Path

import pytest

from revoke_audit import audit_paths

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--enable-logging=stderr", "--v=0", "--host-resolver-rules=MAP * ~NOTFOUND"]

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(CHROMIUM is None, reason="no Chromium installed (apt-get install "
                       "chromium; .ci/run installs it): the page is not checked in a browser"),
]


def chromium(tmp_path: Path, *args: str) -> str:
    """Run headless Chromium with a fresh profile; its stderr (console messages among it)."""
    profile = tmp_path / f"profile-{len(list(tmp_path.iterdir()))}"
    done = subprocess.run([CHROMIUM, *FLAGS, f"--user-data-dir={profile}", *args],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stderr


def console(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if ":CONSOLE" in line]


def pdf_pages(path: Path) -> int:
    """Pages of a PDF: pdfinfo's count when poppler-utils is there, else the page objects."""
    if shutil.which("pdfinfo"):
        out = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True,
                             check=True).stdout
        return int(re.search(r"^Pages:\s+(\d+)", out, re.M).group(1))
    return len(re.findall(rb"/Type\s*/Page(?![a-z])", path.read_bytes()))


def test_the_session_page_renders_to_png_and_one_pdf_page_per_board(tmp_path):
    page = tmp_path / "report.html"
    session = ROOT / "fixtures" / "session"
    result = audit_paths([session], html=page, table_facts=session / "director-log.csv")
    irregular = int((result.boards.status == "irregular").sum())
    url = page.resolve().as_uri()

    png = tmp_path / "page.png"
    stderr = chromium(tmp_path, f"--screenshot={png}", "--window-size=1100,1600", url)
    assert console(stderr) == []
    head = png.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n"
    assert struct.unpack(">II", head[16:24]) == (1100, 1600)

    pdf = tmp_path / "page.pdf"
    stderr = chromium(tmp_path, f"--print-to-pdf={pdf}", "--no-pdf-header-footer", url)
    assert console(stderr) == []
    assert pdf_pages(pdf) == 1 + irregular == 3  # the summary, boards 2 and 3


def test_a_console_message_would_be_seen(tmp_path):
    """The check above can fail: a page whose script errs shows up in the console lines."""
    bad = tmp_path / "bad.html"
    bad.write_text("<p>x</p><script>undefinedFunction();</script>")
    stderr = chromium(tmp_path, f"--screenshot={tmp_path / 'bad.png'}", bad.resolve().as_uri())
    assert any("undefinedFunction" in line for line in console(stderr))
