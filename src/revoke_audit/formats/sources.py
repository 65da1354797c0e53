"""Open paths (files, folders, ``.gz``, ``.zip``, ``-`` for stdin), tell PBN from LIN by
content, and stream board records.

Nothing here raises on bad input: a file that cannot be opened or read still yields one
``unreadable`` record carrying a diagnostic, so it shows in the report.  Archive members are
read in memory-bounded streams, never extracted, so no member name can escape to the disk."""
from __future__ import annotations

import gzip
import io
import os
import re
import sys
import zipfile
from typing import BinaryIO, Callable, Iterable, Iterator

from ..record import BoardRecord, Diagnostic

SUFFIXES = (".pbn", ".lin", ".gz", ".zip")
MAX_MEMBER_BYTES = 512 << 20  # decompressed bytes read from one archive member or .gz file
_LIN_START = re.compile(rb"^\s*[a-zA-Z]{2}\|")
_PBN_START = re.compile(rb"^\s*(%|\[|;|\{)")


def read_boards(paths: str | os.PathLike | Iterable[str | os.PathLike]) -> Iterator[BoardRecord]:
    """Every board record in ``paths`` (one path, or several), in order; folders are walked
    recursively (sorted)."""
    for source in iter_sources(paths):
        if source == "-":
            yield from read_stream(sys.stdin.buffer, "<stdin>", "")
        else:
            yield from read_file(source)


def iter_sources(paths: str | os.PathLike | Iterable[str | os.PathLike]) -> Iterator[str]:
    """The files ``paths`` stand for, in reading order (``-`` for stdin stays ``-``).  One
    ``str`` or path-like is one path.  A file named twice (or met again through a folder) is
    read once."""
    if isinstance(paths, (str, bytes, os.PathLike)):
        paths = [paths]
    seen: set[str] = set()
    for path in paths:
        p = os.fsdecode(path)
        for source in (_walk(p) if p != "-" and os.path.isdir(p) else [p]):
            key = source if source == "-" else os.path.realpath(source)
            if key not in seen:
                seen.add(key)
                yield source


def missing_paths(paths: str | os.PathLike | Iterable[str | os.PathLike]) -> list[str]:
    """The paths that name nothing that can be read (no such file or folder)."""
    if isinstance(paths, (str, bytes, os.PathLike)):
        paths = [paths]
    return [os.fsdecode(p) for p in paths
            if os.fsdecode(p) != "-" and not os.path.exists(os.fsdecode(p))]


def _walk(folder: str) -> Iterator[str]:
    """Regular files under ``folder`` that hold hand records, sorted; hidden folders (``.git``)
    are skipped, and so is anything that is not a regular file (a FIFO would block the run)."""
    for root, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(files):
            path = os.path.join(root, name)
            if not os.path.isfile(path):
                continue
            if name.lower().endswith(SUFFIXES) or ("." not in name and _looks_like_record(path)):
                yield path


def _looks_like_record(path: str) -> bool:
    """A file without an extension inside a folder counts when its content is PBN or LIN."""
    try:
        with open(path, "rb") as fh:
            return sniff(fh.read(4096), "") is not None
    except OSError:
        return False


def read_file(path: str) -> Iterator[BoardRecord]:
    """Records of one file (plain, ``.gz`` or ``.zip``)."""
    low = path.lower()
    try:
        if low.endswith(".zip"):
            yield from _read_zip(path)
            return
        opener: Callable[[], BinaryIO] = (
            (lambda: gzip.open(path, "rb")) if low.endswith(".gz") else (lambda: open(path, "rb")))
        with opener() as fh:
            inner = path[:-3] if low.endswith(".gz") else path
            yield from read_stream(_Limited(fh), path, inner)
    except (OSError, EOFError, zipfile.BadZipFile, gzip.BadGzipFile) as exc:
        yield unreadable(path, "PS001", f"cannot read file: {exc}")
    except Exception as exc:  # a reader bug must not stop the run; the file still gets a row
        yield unreadable(path, "PS001", f"internal error reading file ({type(exc).__name__}: {exc})")


def _read_zip(path: str) -> Iterator[BoardRecord]:
    with zipfile.ZipFile(path) as zf:
        for info in zf.infolist():
            if info.is_dir() or not info.filename.lower().endswith(SUFFIXES[:2]):
                continue
            source = f"{path}!{info.filename}"
            try:
                with zf.open(info) as fh:
                    yield from read_stream(_Limited(fh), source, info.filename)
            except (OSError, EOFError, zipfile.BadZipFile, RuntimeError, NotImplementedError) as exc:
                yield unreadable(source, "PS001", f"cannot read archive member: {exc}")


class _Limited(io.RawIOBase):
    """A read-only stream that stops after ``MAX_MEMBER_BYTES`` (zip/gzip bombs)."""

    def __init__(self, fh: BinaryIO, limit: int | None = None):
        self.fh, self.cut = fh, False
        self.left = MAX_MEMBER_BYTES if limit is None else limit

    def readable(self) -> bool:
        return True

    def readinto(self, buf) -> int:
        if self.left <= 0:
            self.cut = self.cut or bool(self.fh.read(1))
            return 0
        data = self.fh.read(min(len(buf), self.left))
        n = len(data)
        buf[:n] = data
        self.left -= n
        return n


def sniff(head: bytes, name: str) -> str | None:
    """``pbn`` or ``lin`` from the first bytes (content first, then the file name)."""
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
    if b"|" in text[:200] and re.search(rb"\b(md|pn|qx|vg)\|", text):
        return "lin"
    return None


def read_stream(fh: BinaryIO, source: str, name: str) -> Iterator[BoardRecord]:
    """Records from one open binary stream, format sniffed from its content.  A UTF-16 file
    (told by its byte-order mark) is read as UTF-8, and a file whose lines end in a bare
    ``\r`` (old Mac) as one with ``\n``."""
    buffered = fh if isinstance(fh, io.BufferedReader) else io.BufferedReader(fh, 1 << 16)
    head = buffered.peek(4096)[:4096]
    if head.startswith((b"\xff\xfe", b"\xfe\xff")):
        buffered = io.BufferedReader(_Recoded(buffered, "utf-16"), 1 << 16)
        head = buffered.peek(4096)[:4096]
    if b"\r" in head and b"\n" not in head:
        buffered = io.BufferedReader(_CrToLf(buffered), 1 << 16)
        head = buffered.peek(4096)[:4096]
    if not head.strip(b" \t\r\n\x1a"):
        yield unreadable(source, "PS007", "the file is empty")
        return
    kind = sniff(head, name or source)
    if kind is None:
        yield unreadable(source, "PS003", "content is neither PBN nor LIN")
        return
    if kind == "pbn":
        from .pbn import read_pbn as reader
    else:
        from .lin import read_lin as reader
    n = 0
    for record in reader(buffered, source):
        n += 1
        yield record
    if isinstance(fh, _Limited) and fh.cut:
        yield unreadable(source, "PS008", f"file larger than {MAX_MEMBER_BYTES >> 20} MiB "
                         "decompressed; the rest was not read", game=n + 1)
    elif n == 0:
        yield unreadable(source, "PS003", f"no board found in this {kind.upper()} file")


def unreadable(source: str, code: str, message: str, line: int = 1, game: int = 1) -> BoardRecord:
    """A placeholder record so that a file that yields nothing still has its row."""
    return BoardRecord(source=source, line=line, game=game, format="", unreadable=True,
                       diagnostics=(Diagnostic(code, message, source, line),))


class _Recoded(io.RawIOBase):
    """A binary stream in another encoding (UTF-16 with its BOM) read as UTF-8, in chunks."""

    def __init__(self, raw: BinaryIO, encoding: str):
        self.text = io.TextIOWrapper(raw, encoding=encoding, errors="replace", newline="")
        self.pending = b""

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        while not self.pending:
            chunk = self.text.read(1 << 14)
            if not chunk:
                return 0
            self.pending = chunk.encode("utf-8")
        n = min(len(buffer), len(self.pending))
        buffer[:n], self.pending = self.pending[:n], self.pending[n:]
        return n


class _CrToLf(io.RawIOBase):
    """A stream whose lines end in a bare CR, read with LF line ends."""

    def __init__(self, raw: BinaryIO):
        self.raw = raw

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        data = self.raw.read(len(buffer)).replace(b"\r", b"\n")
        buffer[:len(data)] = data
        return len(data)
