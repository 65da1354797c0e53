"""Following hand records through the system's file events (``revoke-audit watch``): which
paths are followed (``followed``), and the loop that reads each change into a ``Watch`` and says
what it announces (``follow``; the ``watchfiles`` library, the ``watch`` extra)."""
from __future__ import annotations

import os
import stat
import sys
import time
from typing import TYPE_CHECKING, Callable, Iterable, Iterator

from ..formats import iter_sources, recognised

if TYPE_CHECKING:
    from .watch import Announcement, Watch

#: Names a program saves through before it renames the file into place: never followed.
TEMPORARY = (".tmp", ".temp", ".part", ".partial", ".swp", ".swx", "~", ".bak", ".crdownload")


def _install_hint() -> str:
    """The command that installs the ``watch`` extra where this copy runs: into a copy of the
    project (``scripts/audit`` makes ``.venv`` and installs it editable there), the project's
    own ``.venv/bin/pip``; elsewhere this Python's pip."""
    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # src/revoke_audit
    root = os.path.dirname(os.path.dirname(package))  # -> the project
    pip = os.path.join(os.path.dirname(sys.executable), "pip")
    if os.path.basename(os.path.dirname(package)) == "src" and os.path.isfile(
            os.path.join(root, "pyproject.toml")):
        return f"{pip} install -e '{root}[watch]'"
    return f"{pip} install 'revoke-audit[watch]'"


MISSING = ("revoke-audit watch needs the watchfiles library (the watch extra); install it with: "
           + _install_hint())


# --- following the files ---------------------------------------------------------------------

def followed(path: str, named: dict[str, str], folders: dict[str, str]) -> str | None:
    """The name to read ``path`` (absolute, from an event) by: as a named file was given, or
    below a named folder when it is a hand record there (not hidden, not a temporary file);
    None when it is not followed."""
    if path in named:
        return named[path]
    name = os.path.basename(path)
    if name.startswith(".") or name.lower().endswith(TEMPORARY):
        return None
    for folder, given in folders.items():
        if path.startswith(folder.rstrip(os.sep) + os.sep):
            rest = os.path.relpath(path, folder)
            if any(part.startswith(".") for part in rest.split(os.sep)):
                return None
            shown = os.path.join(given, rest)
            if not os.path.isfile(path) or recognised(path, name):
                return shown
    return None


def follow(watch: Watch, paths: list[str], say: Callable[[Announcement], None],
           idle: float | None = None, poll: float | None = None,
           ready: Callable[[], None] | None = None,
           settled: Callable[[bool], None] | None = None) -> None:
    """Announce changes under ``paths`` (files or folders, read once by ``Watch.start``)
    through ``say`` (by ``Watch.tell``) until ``idle`` seconds pass without a change to a
    file followed (forever when None).  File events come from the system; ``poll`` seconds:
    poll instead (network filesystems, where events do not arrive).  A named folder is watched
    with all below it, a named file's folder alone.  A folder (or a named file's folder) that
    vanishes is watched again, and read whole, once it is back.  ``ready``: called once the
    events are watched and what changed before that has been read.  ``settled(said)``: called
    after each batch of events has been read (and each wait without one, at most a second
    apart), ``said`` whether it announced anything or a file followed changed."""
    try:
        import watchfiles
    except ImportError as exc:
        raise ImportError(MISSING) from exc
    named = {os.path.abspath(p): p for p in paths if not os.path.isdir(p)}
    folders = {os.path.abspath(p): p for p in paths if os.path.isdir(p)}
    wanted = sorted(set(folders) | {os.path.dirname(p) for p in named})
    timeout = 1000 if idle is None else max(20, int(min(idle, 1) * 1000))
    if poll is not None:  # the poller misses a file rewritten at the same size within its
        timeout = min(timeout, max(10, int(poll * 1000)))  # clock's tick: stat those known
    last, started = time.monotonic(), False
    while True:
        roots = _present(wanted)
        changes = _events(watchfiles, sorted(roots), bool(folders), timeout, poll)
        try:
            for again, batch in changes:
                shown = {followed(p, named, folders) for _change, p in batch} - {None}
                heard = bool(shown)
                if again:  # the events are watched now: read what changed while they were not
                    shown |= set(iter_sources(list(paths))) | set(watch.files)
                elif poll is not None:
                    shown |= set(watch.files)
                spoke = False
                for path in _in_order(shown):
                    spoke = watch.tell(watch.read(path), say) or spoke
                if settled is not None:
                    settled(spoke or heard)
                if not started:
                    started = True
                    if ready is not None:
                        ready()
                elif heard or spoke:
                    last = time.monotonic()
                elif idle is not None and time.monotonic() - last >= idle:
                    return
                if _present(wanted) != roots or any(p in roots for _change, p in batch):
                    break  # a folder vanished, is back, or was made anew: watched again
        finally:
            close = getattr(changes, "close", None)
            if close is not None:
                close()


def _events(watchfiles, roots: list[str], recursive: bool, timeout: int,
            poll: float | None) -> Iterator[tuple[bool, set]]:
    """(again, batch): batches of (change, path) under ``roots``, one at least every
    ``timeout`` ms (empty when nothing happened); ``again`` for the first, which comes once
    the roots are watched.  With no root to watch (every one has vanished), empty batches
    only, until the watch is made again."""
    if not roots:
        again = True
        while True:
            yield again, set()
            again = False
            time.sleep(timeout / 1000)
    again = True
    for batch in watchfiles.watch(
            *roots, watch_filter=None, debounce=100, step=20, rust_timeout=timeout,
            yield_on_timeout=True, force_polling=True if poll is not None else None,
            poll_delay_ms=int((poll or 0.3) * 1000), raise_interrupt=True,
            ignore_permission_denied=True, recursive=recursive):
        yield again, batch
        again = False


def _present(folders: list[str]) -> dict[str, int]:
    """Those of ``folders`` that are there, each with its inode (a folder deleted and made
    again is a new one: the system's watch of the old one ended with it)."""
    there = {}
    for folder in folders:
        try:
            st = os.stat(folder)
        except OSError:
            continue
        if stat.S_ISDIR(st.st_mode):
            there[folder] = st.st_ino
    return there


def _in_order(paths: Iterable[str]) -> list[str]:
    """The paths of a batch, those gone first: a file renamed is forgotten under its old
    name before it is read under its new one, so its boards are known again there, whatever
    the names' order."""
    return sorted(paths, key=lambda p: (os.path.lexists(p), p))
