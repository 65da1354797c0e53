"""The streams under the readers: bounded and counted (limits against archive bombs), and
turned into the text the readers want (UTF-8 from UTF-16/32, ``\\n`` line ends).

``Meter`` stops a stream - as if it ended - at a limit of ``Limits`` or at an error of the
stream below it, and says why (a diagnostic's code and message); the caller reports it as a
row.  Nothing here raises on bad input."""
from __future__ import annotations

import codecs
import io
import zlib
from dataclasses import dataclass
from typing import BinaryIO, Callable

HEAD = 4096  # bytes looked at to tell what a stream holds
RATIO_FLOOR = 1 << 20  # the ratio limit applies once a stream has expanded this much
BLANK = b" \t\r\n\x1a"


@dataclass(frozen=True)
class Limits:
    """How much one source may expand (archive bombs); every limit reached is a finding.

    ``member_bytes``: bytes read from one file or archive member (PS008); ``archive_bytes``:
    bytes decompressed from one archive, all members (PS012); ``run_bytes``: bytes decompressed
    in the whole run (PS013); ``ratio``: decompressed over compressed size of one stream, once it
    is past ``RATIO_FLOOR`` (PS014); ``archive_boards``: boards read from one archive (PS015)."""

    member_bytes: int = 512 << 20
    archive_bytes: int = 2 << 30
    run_bytes: int = 32 << 30
    ratio: int = 100
    archive_boards: int = 500_000


class RunBudget:
    """Bytes decompressed so far in a run; shared between worker processes when ``shared`` (a
    ``multiprocessing.Value``) is given."""

    def __init__(self, limit: int, shared=None) -> None:
        self.limit = limit
        self.shared = shared
        self.used = 0

    def left(self) -> int:
        return self.limit - (self.shared.value if self.shared is not None else self.used)

    def take(self, n: int) -> None:
        if self.shared is None:
            self.used += n
        else:
            with self.shared.get_lock():
                self.shared.value += n


class Reading:
    """One source's share of the limits: what its archives expanded, the boards read from
    them, and why reading stopped (an archive-wide limit)."""

    def __init__(self, limits: Limits, run: RunBudget | None, plain: bool = False,
                 texts: bool = False) -> None:
        self.limits = limits
        self.plain = plain  # the plainest games may come as their text (``lane``)
        self.texts = texts  # each PBN or LIN text comes whole, as its bytes (``fix``)
        self.run = run if run is not None else RunBudget(limits.run_bytes)
        self.expanded = 0
        self.boards = 0
        self.nesting = 0  # archives being read, one inside the other
        self.halted = False

    def expand(self, n: int) -> None:
        self.expanded += n
        self.run.take(n)


class Meter(io.RawIOBase):
    """A read-only stream that counts and bounds what it passes on.

    It stops (as at the end of the data) at the per-file limit, and, when ``compressed`` is
    given (the bytes the decompressor below has consumed), at the ratio limit and the archive
    and run totals.  An error of the stream below (a damaged archive, an I/O error) also stops
    it.  ``stopped`` then holds the diagnostic's code and message."""

    def __init__(self, fh: BinaryIO, reading: Reading,
                 compressed: Callable[[], int] | None = None) -> None:
        self.fh, self.reading, self.compressed = fh, reading, compressed
        self.count = 0
        self.stopped: tuple[str, str] | None = None

    def readable(self) -> bool:
        return True

    def readinto(self, buf) -> int:
        if self.stopped is not None:
            return 0
        room, why = self._room()
        if room <= 0:
            if why is not None and self._more():
                self.stopped = why
                if why[0] in ("PS012", "PS013"):
                    self.reading.halted = True
            return 0
        try:
            data = self.fh.read(min(len(buf), room))
        except Exception as exc:  # noqa: BLE001 - any failure below ends this stream
            self.stopped = ("PS001", f"cannot read to the end: {exc or type(exc).__name__}")
            return 0
        n = len(data)
        buf[:n] = data
        self.count += n
        if self.compressed is not None:
            self.reading.expand(n)
        return n

    def _room(self) -> tuple[int, tuple[str, str] | None]:
        """How many bytes may still be read, and the limit that says so."""
        r = self.reading
        lim = r.limits
        if r.halted:
            return 0, None
        room = lim.member_bytes - self.count
        why = ("PS008", f"file larger than {size_text(lim.member_bytes)} decompressed; the rest "
               "was not read")
        if self.compressed is None:
            return room, why
        checks = (
            (max(RATIO_FLOOR, lim.ratio * self.compressed()) - self.count,
             ("PS014", f"expands more than {lim.ratio} times its compressed size "
              "(--max-ratio); the rest was not read")),
            (lim.archive_bytes - r.expanded,
             ("PS012", f"archive larger than {size_text(lim.archive_bytes)} decompressed "
              "(--max-archive-bytes); the rest of it was not read")),
            (r.run.left(),
             ("PS013", f"the run has decompressed more than {size_text(lim.run_bytes)} "
              "(--max-run-bytes); the rest was not read")),
        )
        for left, reason in checks:
            if left < room:
                room, why = left, reason
        return room, why

    def _more(self) -> bool:
        try:
            return bool(self.fh.read(1))
        except Exception:  # noqa: BLE001
            return False


class Gunzip(io.RawIOBase):
    """A gzip stream, decompressed (member after member; zero padding between them skipped).

    Unlike ``gzip.GzipFile``, a stream cut short gives everything up to the cut before its
    error, so a truncated ``.gz`` keeps its boards.  ``count`` is the compressed bytes taken so
    far (for the ratio limit); no call expands more than ``_OUT`` bytes at once."""

    _OUT = 1 << 16

    def __init__(self, fh: BinaryIO) -> None:
        self.fh = fh
        self.count = 0
        self.inflate = None  # the member being read; None before one and between two
        self.pending = b""  # compressed bytes not yet given to a member

    def readable(self) -> bool:
        return True

    def readinto(self, buf) -> int:
        want = min(len(buf), self._OUT)
        while True:
            d = self.inflate
            if d is None:
                self.pending = self.pending.lstrip(b"\x00")
                if not self.pending:
                    self.pending = self._read()
                    if not self.pending:
                        return 0
                    continue
                d = self.inflate = zlib.decompressobj(31)
                data = d.decompress(self.pending, want)
                self.pending = b""
            elif d.eof:
                self.pending = d.unused_data + self.pending
                self.inflate = None
                continue
            elif d.unconsumed_tail:
                data = d.decompress(d.unconsumed_tail, want)
            else:
                raw = self._read()
                if not raw:
                    raise EOFError("compressed file ended before the end-of-stream marker")
                data = d.decompress(raw, want)
            if data:
                buf[:len(data)] = data
                return len(data)

    def _read(self) -> bytes:
        raw = self.fh.read(self._OUT)
        self.count += len(raw)
        return raw


class Replay(io.RawIOBase):
    """A stream from its start, after its first bytes were looked at: ``blank`` newlines (a
    blank prefix that was skipped), then ``head``, then the rest of ``raw``."""

    def __init__(self, blank: int, head: bytes, raw: io.RawIOBase) -> None:
        self.blank, self.head, self.raw = blank, head, raw

    def readable(self) -> bool:
        return True

    def readinto(self, buf) -> int:
        if self.blank:
            n = min(len(buf), self.blank)
            buf[:n] = b"\n" * n
            self.blank -= n
            return n
        if self.head:
            n = min(len(buf), len(self.head))
            buf[:n] = self.head[:n]
            self.head = self.head[n:]
            return n
        return self.raw.readinto(buf)


class Text(io.RawIOBase):
    """Text as the readers want it: UTF-8 (from UTF-16/32, by the BOM) and ``\\n`` line ends
    (for files whose lines end in a lone ``\\r``)."""

    def __init__(self, fh: BinaryIO, encoding: str | None, cr_lines: bool) -> None:
        self.fh = fh
        self.decoder = codecs.getincrementaldecoder(encoding)("replace") if encoding else None
        self.cr_lines = cr_lines
        self.rest = b""

    def readable(self) -> bool:
        return True

    def readinto(self, buf) -> int:
        while not self.rest:
            raw = data = self.fh.read(1 << 16)
            if self.decoder is not None:
                data = self.decoder.decode(raw, final=not raw).encode("utf-8")
            if self.cr_lines:
                data = data.replace(b"\r", b"\n")
            if not raw and not data:
                return 0
            self.rest = data
        n = min(len(buf), len(self.rest))
        buf[:n] = self.rest[:n]
        self.rest = self.rest[n:]
        return n


def open_head(raw: io.RawIOBase, keep: bool = False) -> tuple[bytes, int, io.BufferedReader]:
    """The first ``HEAD`` bytes after any blank prefix, the number of newlines in that prefix,
    and a buffered stream that gives everything from the start again.

    A file of nothing but blank lines is read to its end here, a chunk at a time, with no work
    per line.  ``keep``: the stream gives the blank prefix as its own bytes (``fix`` rewrites
    them), not as newlines."""
    head = b""
    blank = 0
    prefix: list[bytes] = []
    while len(head) < HEAD:
        chunk = raw.read(HEAD)
        if not chunk:
            break
        if not head and not chunk.strip(BLANK):
            blank += chunk.count(b"\n") or chunk.count(b"\r")
            if keep:
                prefix.append(chunk)
            continue
        head += chunk
    if keep:
        return head, blank, io.BufferedReader(Replay(0, b"".join(prefix) + head, raw), 1 << 16)
    return head, blank, io.BufferedReader(Replay(blank, head, raw), 1 << 16)


def size_text(n: int) -> str:
    for unit, shift in (("GiB", 30), ("MiB", 20), ("KiB", 10)):
        if n >= 1 << shift and n % (1 << shift) == 0:
            return f"{n >> shift} {unit}"
    return f"{n} bytes"
