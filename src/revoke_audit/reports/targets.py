"""The files a run writes (the reports, the baseline): each to a temporary file beside its
target, renamed when every output is complete (``report.Reports``), or written in place when
the target is a device or FIFO; and none of them over an input or over each other.

``clash`` checks, before anything is read, every output against every file the run reads (the
paths and the files found in its folders, the director's log, the baseline, the settings file)
and against the other outputs.  Files are compared by what they are, not by how they are named:
device and inode after symbolic links, so a link, a hard link or ``./sub/../x`` is caught as
well as the same name.  An output that does not exist yet is its folder (device and inode) and
its name."""
from __future__ import annotations

import os
import stat
from typing import IO, Iterable, NamedTuple, Sequence


class ReportError(Exception):
    """An output (a report, the baseline, a document spooled for stdout) that cannot be
    written; the message names it, never a temp file."""

    def __init__(self, target: str, exc: OSError):
        self.target = target
        reason = exc.strerror or str(exc)
        super().__init__(f"cannot write {target}: {reason}")


class FileTarget:
    """An output file (a report, the baseline) written to a temporary name in the target's
    folder, then renamed.

    The temp file is created with the user's umask (0666 & ~umask), or with the mode of the
    file it replaces.  A target that exists and is not a regular file (``/dev/null``, a FIFO)
    is written in place: renaming over it would replace the device.  ``binary``: ``fh`` takes
    bytes (Parquet), else UTF-8 text."""

    def __init__(self, path: str, binary: bool = False):
        self.name = path
        self.tmp: str | None = None
        try:
            st = os.stat(path)
        except OSError:
            st = None
        if st is not None and not stat.S_ISREG(st.st_mode):
            self.fh: IO = _open(path, binary)
            return
        folder = os.path.dirname(os.path.abspath(path))
        while True:
            # os.urandom is what secrets.token_hex(6) reads, without secrets' imports (random,
            # hmac, base64: about 1 ms of every run's start)
            tmp = os.path.join(folder, f".revoke-audit-{os.urandom(6).hex()}.tmp")
            try:
                fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
                break
            except FileExistsError:
                continue
        self.tmp = tmp
        try:
            if st is not None:
                os.chmod(tmp, stat.S_IMODE(st.st_mode))
            self.fh = _open(fd, binary)
        except BaseException:
            os.close(fd)
            os.unlink(tmp)
            raise

    def finish(self) -> None:
        """Everything on disk (flushed and synced) and closed: the output is complete."""
        self.fh.flush()
        if self.tmp is not None:
            os.fsync(self.fh.fileno())
        self.fh.close()

    def replace(self) -> None:
        if self.tmp is not None:
            os.replace(self.tmp, self.name)
            self.tmp = None

    def discard(self) -> None:
        try:
            self.fh.close()
        except OSError:
            pass
        if self.tmp is not None:
            try:
                os.unlink(self.tmp)
            except OSError:
                pass
            self.tmp = None


def _open(file: str | int, binary: bool) -> IO:
    """``file`` (a path or a descriptor) open for writing, bytes or UTF-8 text."""
    if binary:
        return os.fdopen(file, "wb") if isinstance(file, int) else open(file, "wb")
    if isinstance(file, int):
        return os.fdopen(file, "w", encoding="utf-8", newline="")
    return open(file, "w", encoding="utf-8", newline="")


def file_target(path: str, binary: bool = False) -> FileTarget:
    """The temp file (or device) an output at ``path`` is written to; a ``ReportError`` naming
    ``path`` when it cannot be made (a missing folder): found before anything is read."""
    try:
        return FileTarget(path, binary)
    except OSError as exc:
        raise ReportError(path, exc) from exc


class Output(NamedTuple):
    """A file a run writes: the option naming it (``-o``), what it is (``report``), its path."""

    option: str
    kind: str
    path: str


class Input(NamedTuple):
    """A file a run reads: what it is to the run (``an input``, ``the director's log
    (--table-facts)``), its path, and the option of the one output allowed to replace it
    (``--write-baseline`` over ``--baseline``: it is read whole before anything is written)."""

    role: str
    path: str
    replaced_by: str = ""


def identity(path: str) -> tuple:
    """What ``path`` names: ``("file", device, inode)`` for something that exists (after
    symbolic links), else ``("new", device, inode, name)`` of its folder, or its real path when
    the folder is missing too (or the file system gives no inodes)."""
    try:
        st = os.stat(path)
        if st.st_ino:
            return ("file", st.st_dev, st.st_ino)
    except (OSError, ValueError):
        folder, name = os.path.split(os.path.abspath(path))
        try:
            st = os.stat(folder)
            if st.st_ino:
                return ("new", st.st_dev, st.st_ino, name)
        except (OSError, ValueError):
            pass
    return ("path", os.path.realpath(path))


def inside(path: str, folders: Iterable[str]) -> str | None:
    """The first of ``folders`` that holds ``path`` at any depth (compared by device and inode,
    after symbolic links, as ``identity``), or None."""
    wanted: dict[tuple, str] = {}
    for folder in folders:
        try:
            st = os.stat(folder)
        except (OSError, ValueError):
            continue
        wanted[(st.st_dev, st.st_ino)] = folder
    at = os.path.dirname(os.path.realpath(path))
    while wanted:
        try:
            st = os.stat(at)
        except (OSError, ValueError):
            st = None
        if st is not None and (st.st_dev, st.st_ino) in wanted:
            return wanted[(st.st_dev, st.st_ino)]
        up = os.path.dirname(at)
        if up == at:
            break
        at = up
    return None


def clash(outputs: Sequence[Output], inputs: Iterable[Input]) -> str | None:
    """The first output that names another output or an input, as a one-line message; None
    when every output is a file of its own."""
    seen: dict[tuple, Output] = {}
    for out in outputs:
        key = identity(out.path)
        if key in seen:
            return (f"{seen[key].option} and {out.option} name the same file "
                    f"({seen[key].path}): each output needs its own")
        seen[key] = out
    if not seen:
        return None
    for source in inputs:
        out = seen.get(identity(source.path))
        if out is not None and out.option != source.replaced_by:
            return f"{out.kind} {out.path} is also {source.role}: it would be overwritten"
    return None
