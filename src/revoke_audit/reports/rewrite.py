"""A hand record replaced by its mended bytes (``fix --write``), only while it is still the file
that was read, and only when the replacement is the same file to everyone who uses it.

``fix`` reads a file, proves its repair (seconds, for a large file) and then writes: meanwhile
a scoring program may have appended boards, or rotated the file away.  So just before writing
the file is read again and compared with what was planned from (its bytes), and just before
the rename its identity (device, inode, size, modification time) is compared again; a file
that changed, or is gone, is left as it is, with the reason.  The mended file keeps the mode,
the owner and the group of the one it replaces (as root, a file owned by another user stays
theirs); a file with several names (hard links) is left, since a new file under one name
would part it from the others.  The temp file never outlives the command: it is removed on
any error or signal before the rename."""
from __future__ import annotations

import os
import stat

from .targets import file_target


class Left(Exception):
    """The file is left as it is: the message says why (for ``fix`` to show)."""


def rewrite(path: str, original: bytes, data: bytes) -> None:
    """``path`` (a symbolic link: the file it points to) replaced whole by ``data``, if it
    still holds ``original``.  ``Left`` when it is left as it is; ``OSError`` or
    ``targets.ReportError`` when it cannot be written (the original is then intact)."""
    real = os.path.realpath(path)
    st = _still_the_one(real, original)
    if st.st_nlink > 1:
        raise Left(f"it has {st.st_nlink} names (hard links), which a rewritten file would "
                   "part: left as it is")
    target = file_target(real, binary=True)
    try:
        _keep_owner(target.fh.fileno(), st)
        target.fh.write(data)
        target.finish()
        if _identity(os.stat(real)) != _identity(st):
            raise Left("it changed while the mended file was written: left as it is")
        target.replace()
    except BaseException:  # an error, Left, or a signal (SIGINT, SIGTERM): no temp file left
        target.discard()
        raise


def _still_the_one(real: str, original: bytes) -> os.stat_result:
    """The file's status, read again now: it must be a regular file holding ``original``."""
    try:
        fd = os.open(real, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        raise Left("it is gone since it was read (renamed or removed): not written "
                   "again") from None
    with os.fdopen(fd, "rb") as fh:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise Left("it is no longer a regular file: left as it is")
        if st.st_size != len(original) or fh.read(len(original) + 1) != original:
            raise Left("it changed since it was read (written to meanwhile?): left as it is; "
                       "run fix again")
    return st


def _keep_owner(fd: int, st: os.stat_result) -> None:
    """The temp file given the owner and group of the file it replaces; ``Left`` when they
    cannot be kept (another user's file, written by someone who may not give it to them)."""
    mine = os.fstat(fd)
    if (mine.st_uid, mine.st_gid) == (st.st_uid, st.st_gid):
        return
    try:
        os.fchown(fd, st.st_uid, st.st_gid)
    except OSError:
        raise Left(f"its owner or group (uid {st.st_uid}, gid {st.st_gid}) could not be kept "
                   "by a rewritten file: left as it is") from None


def _identity(st: os.stat_result) -> tuple[int, int, int, int]:
    return st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns
