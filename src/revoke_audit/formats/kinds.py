"""What a stream holds - ``gzip``, ``zip``, ``tar``, ``pbn`` or ``lin`` - told by its first bytes
(magic bytes, a byte order mark, the first characters of a PBN or LIN text), then by its name.

A text that is no hand record is named for its message (JSON, a file with no PBN tag).  It
reads no file: ``sources`` and ``paths`` hand it the head they read.  Its layer: formats; it
imports nothing of the package."""
from __future__ import annotations

import codecs
import re


TEXT_SUFFIXES = (".pbn", ".lin")
ARCHIVE_SUFFIXES = (".gz", ".tgz", ".zip", ".tar")
SUFFIXES = TEXT_SUFFIXES + ARCHIVE_SUFFIXES
_LIN_START = re.compile(rb"^\s*[a-zA-Z]{2}\|")
_PBN_START = re.compile(rb"^\s*(%|\[|;|\{)")
_LIN_KEY = re.compile(rb"\b(md|pn|qx|vg)\|")
_PBN_TAG = re.compile(rb'(?:\A|[\r\n])[ \t]*\[[A-Za-z][A-Za-z0-9_]*[ \t]+"')  # CR ends too
_JSON_START = re.compile(rb'^(\{\s*("|\})|\[\s*[\[\{"\d\]-])')
_BOMS = ((codecs.BOM_UTF32_LE, "utf-32"), (codecs.BOM_UTF32_BE, "utf-32"),
         (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16"))


def unnamed_text_not_pbn(head: bytes, name: str) -> bool:
    """True when a file or archive member whose name does not say PBN or LIN looks like PBN
    only by its first character (a ``pyproject.toml``, a JSON file, an INI file): without a PBN
    tag (``[Name "value"]``) in its first bytes it is not taken for a hand record."""
    if name.lower().endswith(SUFFIXES) or kind_of(head, name) != "pbn":
        return False
    return _PBN_TAG.search(text_head(head)[1]) is None


def looks_like(head: bytes) -> str:
    """What a text that is no hand record seems to be, for its message (`` (it looks like
    JSON)``), or nothing."""
    text = text_head(head)[1].lstrip(b"\xef\xbb\xbf \t\r\n")
    if _JSON_START.match(text):
        return " (it looks like JSON)"
    if _PBN_START.match(text):
        return " (no PBN tag like [Event \"...\"] in its first 4 KiB)"
    return ""


def kind_of(head: bytes, name: str, blank: int = 0) -> str | None:
    """``gzip``, ``zip``, ``tar``, ``pbn`` or ``lin`` from the content, else from the name."""
    if not blank:
        if head[:2] == b"\x1f\x8b":
            return "gzip"
        if head[:4] in (b"PK\x03\x04", b"PK\x05\x06", b"PK\x07\x08"):
            return "zip"
        if _tar_header(head):
            return "tar"
    kind = sniff(text_head(head)[1], name)
    if kind is not None:
        return kind
    low = name.lower()
    if low.endswith((".gz", ".tgz")):
        return "gzip"
    if low.endswith(".zip"):
        return "zip"
    if low.endswith(".tar"):
        return "tar"
    return None


def _tar_header(head: bytes) -> bool:
    """A tar's first header: ``ustar`` at byte 257 *and* a header checksum that holds, so that
    a text with ``ustar`` there (a PBN comment) stays text (POSIX.1-1988 ustar header)."""
    if head[257:262] != b"ustar" or len(head) < 512:
        return False
    import tarfile  # here: only for a head that may be a tar's (most runs never load it)

    try:
        return tarfile.nti(head[148:156]) in tarfile.calc_chksums(head[:512])
    except Exception:  # noqa: BLE001 - tarfile.InvalidHeaderError on a field that is no number
        return False


def text_head(head: bytes) -> tuple[str | None, bytes]:
    """The encoding given by a BOM (None for UTF-8 and no BOM) and the head as UTF-8."""
    for bom, encoding in _BOMS:
        if head.startswith(bom):
            return encoding, head.decode(encoding, errors="replace").encode("utf-8")
    return None, head


def sniff(head: bytes, name: str) -> str | None:
    """``pbn`` or ``lin`` from the first bytes of a text (content first, then the file name)."""
    text = head.lstrip(b"\xef\xbb\xbf \t\r\n\x1a")
    if _LIN_START.match(text):
        return "lin"
    if _PBN_START.match(text):
        return "pbn"
    low = name.lower()
    if low.endswith(".lin"):
        return "lin"
    if low.endswith(".pbn"):
        return "pbn"
    if b"|" in text[:200] and _LIN_KEY.search(text):
        return "lin"
    return None
