"""Open what the user names - files, archives, standard input - and stream the board records
in it.

Whichever way a hand record comes, it reads the same: a file is told PBN or LIN by its content
(then by its name, ``kinds``), and so is a member of a ``.zip``, a ``.tar`` or a gzip stream
(``.gz``, ``.tgz``), which are themselves recognised by their magic bytes, under any name and on
standard input.  Text in UTF-16 or UTF-32 is decoded by its byte order mark, and a file whose
lines end in a lone carriage return is read like any other.  The sources come from ``paths``
(folders walked there).  Archive members are sorted as a folder is walked (tar members stay in
archive order), read in memory-bounded streams and never extracted, so no member name can reach
the disk.

Nothing here raises on bad input: every source yields at least one record - an ``unreadable``
placeholder carrying a diagnostic when it holds no board (a missing file, a folder that cannot
be listed, an empty archive, a member that is not a hand record).  The limits against archive
bombs (``Limits``) stop the reading of one member, one archive or the whole run, each with its
own diagnostic."""
from __future__ import annotations

import codecs
import io
import os
import stat
import struct
import sys
from typing import TYPE_CHECKING, BinaryIO, Iterable, Iterator, NamedTuple

from ..core.findings import Finding
from ..core.record import BoardRecord
from .kinds import SUFFIXES, kind_of, looks_like, text_head, unnamed_text_not_pbn
from .paths import PathArg, iter_sources
from .streams import (BLANK, Gunzip, Limits, Meter, Reading, RunBudget, Text,
                      open_head)

if TYPE_CHECKING:  # imported where an archive or a spool is read: a run of plain text files
    import tarfile  # never loads them (some 10 ms of a process's start)
    import zipfile

MAX_DEPTH = 4  # archives inside archives
_SPOOL = 16 << 20  # a zip read from a stream is held in memory up to this, then on disk


# --- reading ---------------------------------------------------------------------------------

def read_boards(paths: PathArg | Iterable[PathArg], limits: Limits | None = None
                ) -> Iterator[BoardRecord]:
    """Every board record in ``paths``, in order (folders walked, archives opened)."""
    limits = limits or Limits()
    run = RunBudget(limits.run_bytes)
    for source in iter_sources(paths):
        yield from read_file(source, limits, run)


def read_file(path: str, limits: Limits | None = None, run: RunBudget | None = None,
              plain: bool = False, *, _reading: Reading | None = None) -> Iterator[BoardRecord]:
    """Records of one source from ``iter_sources``: a file, an archive, ``-``, or a folder
    with nothing to read (its placeholder row).  ``plain``: the plainest games come as their
    text, ``formats.pbn.PlainGame`` or ``formats.lin.PlainLine`` (for ``lane.render_records``)."""
    reading = _reading or Reading(limits or Limits(), run, plain)
    if path == "-":
        yield from _read_stdin(reading)
        return
    try:
        mode = os.stat(path).st_mode
        if stat.S_ISDIR(mode):
            yield _empty_folder(path)
            return
        fh = open(path, "rb")
    except OSError as exc:
        yield unreadable(path, "PS001", f"cannot read file: {exc}")
        return
    with fh:
        yield from _guarded(_read_blob(Meter(fh, reading), path, path, reading,
                                       seekable=fh if stat.S_ISREG(mode) else None), path)


class SourceText(NamedTuple):
    """One PBN or LIN text, whole, as the readers reached it (``read_texts``): ``source`` as the
    audit names it (``archive.zip!member``), ``name`` (for telling PBN from LIN), its bytes as
    they are (BOM, blank lines and line ends kept), and whether it is inside an archive."""

    source: str
    name: str
    data: bytes
    kind: str
    archive: bool

    @property
    def format(self) -> str:  # as a record's, for the archive's board count (``_bounded``)
        return self.kind


def read_texts(path: str, limits: Limits | None = None, run: RunBudget | None = None
               ) -> Iterator["SourceText | BoardRecord"]:
    """The PBN and LIN texts of one source from ``iter_sources`` (a file, or an archive's
    members), each read whole through the same sniffing and limits as ``read_file``; where
    ``read_file`` would give a row for a problem (a damaged archive, a limit, a text cut short),
    the same ``unreadable`` record.  A text a limit or an error cut short is never given."""
    reading = Reading(limits or Limits(), run, texts=True)
    yield from read_file(path, limits, run, _reading=reading)


def read_stream(fh: BinaryIO, source: str, name: str, limits: Limits | None = None,
                plain: bool = False) -> Iterator[BoardRecord]:
    """Records from one open binary stream (an archive, gzip, PBN or LIN, told by content;
    ``name`` is the fallback for telling)."""
    reading = Reading(limits or Limits(), None, plain)
    yield from _guarded(_read_blob(Meter(fh, reading), source, name, reading), source)


def _read_stdin(reading: "Reading") -> Iterator[BoardRecord]:
    stdin = getattr(sys.stdin, "buffer", None)
    if stdin is None:
        yield unreadable("<stdin>", "PS001", "cannot read standard input: it is closed")
        return
    yield from _guarded(_read_blob(Meter(stdin, reading), "<stdin>", "", reading), "<stdin>")


def _guarded(records: Iterator[BoardRecord], source: str) -> Iterator[BoardRecord]:
    """A reader bug must not stop the run: the source still gets a row."""
    try:
        yield from records
    except Exception as exc:  # noqa: BLE001 - the edge of the reading layer
        yield unreadable(source, "PS001", f"internal error reading file "
                         f"({type(exc).__name__}: {exc})")


def _empty_folder(path: str) -> BoardRecord:
    """The row of a folder with no hand record in it, or that cannot be listed."""
    try:
        os.scandir(path).close()
    except OSError as exc:
        return unreadable(path, "PS001", f"cannot read folder: {exc}")
    return unreadable(path, "PS011", "no PBN or LIN file in this folder")


def _read_blob(meter: Meter, source: str, name: str, reading: Reading, *,
               member: bool = False, depth: int = 0, seekable: BinaryIO | None = None
               ) -> Iterator[BoardRecord]:
    """Records of one stream, whatever it holds; then a row for why it stopped, if it did.

    ``member``: the stream is inside an archive (then content that is no hand record, under a
    name that is not one either, is a skipped member, PS010).  ``seekable``: the file itself,
    for a zip on disk."""
    head, blank, stream = open_head(meter, keep=reading.texts)
    n = 0
    if not head.strip(BLANK) and meter.stopped is None:
        if member and not name.lower().endswith(SUFFIXES):
            yield unreadable(source, "PS010", "archive member skipped: empty")
        else:
            yield unreadable(source, "PS007", "the file holds only blank lines" if blank
                             else "the file is empty")
        return
    kind = kind_of(head, name, blank) if head else None
    if kind == "pbn" and unnamed_text_not_pbn(head, name):
        kind = None  # a JSON or INI file named on the command line, as in a folder
    if kind is None and head:
        if member and not name.lower().endswith(SUFFIXES):
            yield unreadable(source, "PS010", "archive member skipped: neither PBN nor LIN nor "
                             "an archive")
        else:
            yield unreadable(source, "PS003", "content is neither PBN nor LIN" + looks_like(head))
        return
    if kind in ("gzip", "zip", "tar") and depth >= MAX_DEPTH:
        yield unreadable(source, "PS010", f"archive member skipped: archives nested more than "
                         f"{MAX_DEPTH} deep")
        return
    if kind == "gzip":
        records = _read_gzip(stream, source, name, reading, member, depth)
    elif kind == "zip":
        records = _read_zip(stream, source, reading, depth, seekable)
    elif kind == "tar":
        records = _read_tar(stream, source, reading, depth)
    elif kind is not None and reading.texts:
        records = _whole_text(stream, meter, source, name, kind, depth > 0 or member)
    elif kind is not None:
        records = _read_text(stream, head, source, kind, reading, depth > 0 or member)
    else:
        records = iter(())
    for record in records:
        n += 1
        yield record
    if meter.stopped is not None:
        code, message = meter.stopped
        yield unreadable(source, code, message, game=n + 1)


def _read_text(stream: io.BufferedReader, head: bytes, source: str, kind: str,
               reading: Reading, in_archive: bool) -> Iterator[BoardRecord]:
    """Boards of a PBN or LIN stream; within an archive, counted against its board limit."""
    encoding, text = text_head(head)
    if encoding is None and head.startswith(codecs.BOM_UTF8):
        stream.read(len(codecs.BOM_UTF8))
    lines = text.lstrip(BLANK)
    cr_lines = b"\r" in lines and b"\n" not in lines
    if encoding or cr_lines:
        stream = io.BufferedReader(Text(stream, encoding, cr_lines), 1 << 16)
    if kind == "pbn":
        from .pbn import read_pbn

        records = read_pbn(stream, source, plain=reading.plain)
    else:
        from .lin import read_lin

        records = read_lin(stream, source, plain=reading.plain)
    n = 0
    limit = reading.limits.archive_boards
    for record in records:
        if in_archive:
            if reading.boards >= limit:
                reading.halted = True
                yield _too_many(source, limit, n + 1)
                return
            reading.boards += 1
        n += 1
        yield record
    if n == 0:
        yield unreadable(source, "PS003", f"no board found in this {kind.upper()} file")


def _whole_text(stream: io.BufferedReader, meter: Meter, source: str, name: str, kind: str,
                archive: bool) -> Iterator["SourceText"]:
    """The text whole, unless a limit or an error stopped it (``_read_blob`` then gives its
    row)."""
    data = stream.read()
    if meter.stopped is None:
        yield SourceText(source, name, data, kind, archive)


def _read_gzip(stream: io.BufferedReader, source: str, name: str, reading: Reading,
               member: bool, depth: int) -> Iterator[BoardRecord]:
    """A gzip stream: what it holds, under the name without ``.gz`` (``.tgz`` -> ``.tar``)."""
    gunzip = Gunzip(stream)
    inner = Meter(gunzip, reading, lambda: gunzip.count)
    low = name.lower()
    inner_name = name[:-3] if low.endswith(".gz") else name[:-4] + ".tar" if low.endswith(
        ".tgz") else name
    yield from _read_blob(inner, source, inner_name, reading, member=member, depth=depth + 1)


def _read_zip(stream: io.BufferedReader, source: str, reading: Reading, depth: int,
              seekable: BinaryIO | None) -> Iterator[BoardRecord]:
    """Every member of a zip, in folder order; a zip read from a stream is held first (a zip
    needs its end)."""
    held = _spool(stream) if seekable is None else None
    try:
        if seekable is not None:
            seekable.seek(0)
        zf = _open_zip(held if held is not None else seekable)
    except Exception as exc:  # noqa: BLE001 - BadZipFile, OSError, and worse on hostile input
        yield unreadable(source, "PS001", f"cannot read archive: {exc}")
    else:
        with zf:
            members = sorted((i for i in zf.infolist() if not i.is_dir()
                              and _visible(i.filename)), key=lambda i: _folder_order(i.filename))
            yield from _bounded((_read_zip_member(zf, i, source, reading, depth)
                                 for i in members), source, reading)
    finally:
        if held is not None:
            held.close()


def _open_zip(fh: BinaryIO) -> zipfile.ZipFile:
    """A zip, opened; one whose member name is not UTF-8 under the UTF-8 flag (which
    ``zipfile`` refuses whole) is opened again through ``_Utf8FlagCleared``, and the flagged
    names decoded as UTF-8 keeping their undecodable bytes (``surrogateescape``), as a file
    name on disk is."""
    import zipfile  # here: see the imports

    try:
        return zipfile.ZipFile(fh)
    except UnicodeDecodeError:
        fh.seek(0)
    view = _Utf8FlagCleared(fh)
    zf = zipfile.ZipFile(view)  # type: ignore[arg-type]
    for info, flagged in zip(zf.filelist, view.flagged):
        if flagged:  # orig_filename stays: a member's own header is checked against it
            info.filename = info.orig_filename.encode("cp437").decode("utf-8", "surrogateescape")
    return zf


class _Utf8FlagCleared:
    """A zip file as ``zipfile`` reads it, with the UTF-8 name flag (bit 11) cleared in the
    central directory and in each member's header, so that every name decodes (cp437 maps each
    byte to a character, and back); ``flagged``: which central directory entries had it."""

    _CENTRAL, _LOCAL, _BIT = b"PK\x01\x02", b"PK\x03\x04", 0x08  # bit 11: byte 2 of flags, 0x08

    def __init__(self, fh: BinaryIO) -> None:
        self.fh = fh
        self.flagged: list[bool] = []

    def seek(self, *args: int) -> int:
        return self.fh.seek(*args)

    def tell(self) -> int:
        return self.fh.tell()

    def seekable(self) -> bool:
        return True

    def read(self, n: int = -1) -> bytes:
        data = self.fh.read(n)
        if data[:4] == self._CENTRAL:
            return self._central(data)
        if len(data) == 30 and data[:4] == self._LOCAL:  # a member's header, as zipfile reads it
            out = bytearray(data)
            out[7] &= ~self._BIT & 0xFF
            return bytes(out)
        return data

    def _central(self, data: bytes) -> bytes:
        """The central directory (read whole, as ``zipfile`` reads it) with the flag cleared;
        anything that is not exactly a run of its entries is passed on untouched."""
        out, pos, flagged = bytearray(data), 0, []
        while pos + 46 <= len(out) and out[pos:pos + 4] == self._CENTRAL:
            flagged.append(bool(out[pos + 9] & self._BIT))
            out[pos + 9] &= ~self._BIT & 0xFF
            name, extra, comment = struct.unpack_from("<HHH", out, pos + 28)
            pos += 46 + name + extra + comment
        if pos != len(out):
            return data
        self.flagged = flagged
        return bytes(out)


def _bounded(members: Iterator[Iterator[BoardRecord]], source: str, reading: Reading
             ) -> Iterator[BoardRecord]:
    """The rows of an archive's members, one member after another, until an archive-wide limit
    stops them; PS011 when the archive gives no row at all.  The outermost archive counts the
    rows that are not boards (skipped members and such) against the board limit too: a zip of
    a million empty members is a bomb as well."""
    n = 0
    limit = reading.limits.archive_boards
    reading.nesting += 1
    try:
        for records in members:
            if reading.halted:
                break
            if reading.boards >= limit:
                reading.halted = True
                n += 1
                yield _too_many(source, limit)
                break
            for record in records:
                if record.format == "" and reading.nesting == 1:
                    reading.boards += 1
                n += 1
                yield record
    finally:
        reading.nesting -= 1
    if n == 0:
        yield unreadable(source, "PS011", "no file in this archive (hidden ones aside)")


def _too_many(source: str, limit: int, game: int = 1) -> BoardRecord:
    return unreadable(source, "PS015", f"more than {limit} boards in one archive "
                      "(--max-archive-boards); the rest of it was not read", game=game)


def _read_zip_member(zf: zipfile.ZipFile, info: zipfile.ZipInfo, source: str,
                     reading: Reading, depth: int) -> Iterator[BoardRecord]:
    msource = f"{source}!{info.filename}"
    try:
        fh = zf.open(info)
    except Exception as exc:  # noqa: BLE001 - encrypted, unknown method, bad header
        yield unreadable(msource, "PS001", f"cannot read archive member: {exc}")
        return
    with fh:
        meter = Meter(fh, reading, lambda: max(1, info.compress_size))
        yield from _read_blob(meter, msource, info.filename, reading, member=True,
                              depth=depth + 1)


def _read_tar(stream: io.BufferedReader, source: str, reading: Reading, depth: int
              ) -> Iterator[BoardRecord]:
    """Every regular, visible member of a tar, in archive order (read as a stream); a link,
    device or FIFO among them gets its PS010 row, as a zip's skipped member does."""
    yield from _bounded(_tar_members(stream, source, reading, depth), source, reading)


def _tar_members(stream: io.BufferedReader, source: str, reading: Reading, depth: int
                 ) -> Iterator[Iterator[BoardRecord]]:
    """The records of each member, lazily; a tar that cannot be read to its end gives a last
    "member" with its row (unless a limit stopped it, which has its own row)."""
    import tarfile  # here: see the imports

    try:
        with tarfile.open(fileobj=stream, mode="r|") as tf:
            for info in tf:
                if info.isdir() or not _visible(info.name):
                    continue
                msource = f"{source}!{info.name}"
                fh = tf.extractfile(info) if info.isreg() else None
                if fh is None:
                    yield iter([unreadable(msource, "PS010", "archive member skipped: "
                                           + _tar_kind(info))])
                    continue
                yield _read_blob(Meter(fh, reading), msource, info.name, reading,
                                 member=True, depth=depth + 1)
    except Exception as exc:  # noqa: BLE001 - tarfile.TarError and a stream cut short
        if not reading.halted:
            yield iter([unreadable(source, "PS001", f"cannot read archive to the end: {exc}")])


def _tar_kind(info: tarfile.TarInfo) -> str:
    """What a tar member that is no regular file is, in words."""
    if info.issym():
        return "a symbolic link"
    if info.islnk():
        return "a hard link"
    if info.isdev() and not info.isfifo():
        return "a device"
    return "a FIFO" if info.isfifo() else f"not a regular file (type {info.type!r})"


def _spool(stream: BinaryIO) -> BinaryIO:
    """The rest of ``stream`` in a seekable file (memory first, then disk)."""
    import tempfile  # here: see the imports

    spool = tempfile.SpooledTemporaryFile(max_size=_SPOOL)
    while True:
        chunk = stream.read(1 << 16)
        if not chunk:
            break
        spool.write(chunk)
    spool.seek(0)
    return spool


def _visible(member: str) -> bool:
    """Not hidden: no part of the path starts with a dot (``.`` and ``..`` aside), and not the
    ``__MACOSX`` folder of resource forks."""
    parts = member.replace("\\", "/").split("/")
    return not any(p.startswith(".") and p not in (".", "..") or p == "__MACOSX" for p in parts)


def _folder_order(member: str) -> tuple[tuple[int, str], ...]:
    """Sort key that puts archive members in the order a folder is walked: a folder's files by
    name, then its subfolders by name."""
    parts = member.split("/")
    return tuple((1, p) for p in parts[:-1]) + ((0, parts[-1]),)


def unreadable(source: str, code: str, message: str, line: int = 1, game: int = 1) -> BoardRecord:
    """A placeholder record so that a source that yields no board still has its row."""
    return BoardRecord(source=source, line=line, game=game, format="", unreadable=True,
                       diagnostics=(Finding(code, message, line),))

