"""The director's page of a watch (``watch --html``): the page ``audit --html`` writes, over the
boards the watch follows, rewritten whole (a temporary file beside it, renamed over it) once a
burst of changes that announced something has settled.  The boards' rows and audits are taken
as they stand then; the page is made and written by a thread of its own, so that a large page
(a second for a couple of hundred irregular boards) does not hold up the announcements, and a
page asked for while one is written replaces any other waiting.

Each board's section is the audit the watch made of it, so each carries its own discovery: a
revoke announced while its round was on is ruled as found at the table (64A), one first read
after the round 64B5 and "64C review".  Its findings are those last announced (a withdrawn one
is gone from the page).  The watch keeps the audit of an irregular board only; other boards are
counted by their status."""
from __future__ import annotations

import threading
import time
from typing import Callable

from ..reports.html_page import Page, board_key, run_settings, write_page
from .watch import Watch

#: Seconds after the first change not yet on the page by which it is written, even while
#: batches that announce something keep coming.
PAGE_DELAY = 1.0


class LivePage:
    """The page at ``path`` kept up to date with ``watch``: ``after(said)`` after each batch of
    changes; ``flush()`` when the watch ends.  A batch that announced something marks the page;
    it is refreshed when a batch announces nothing (the burst is over, or the wait for events
    timed out), or ``delay`` seconds after the first mark while announcements go on.  An error
    writing it (a ``ReportError``) is raised by the next call."""

    def __init__(self, path: str, watch: Watch, round_minutes: float | None = None,
                 delay: float = PAGE_DELAY, clock: Callable[[], float] = time.monotonic):
        self.path, self.watch, self.delay, self.clock = path, watch, delay, clock
        self.round_minutes = watch.round_seconds / 60 if round_minutes is None else round_minutes
        self.since: float | None = None  # when the first change not on the page was announced
        self.writes = 0  # pages asked for
        self._lock = threading.Lock()
        self._waiting: Page | None = None  # the page to write next
        self._writer: threading.Thread | None = None
        self._idle = threading.Event()  # set while no page is being written
        self._idle.set()
        self._error: Exception | None = None

    def after(self, said: bool) -> None:
        """A batch of changes has been read; ``said``: it announced something."""
        self._raise()
        now = self.clock()
        if said and self.since is None:
            self.since = now
        if self.since is not None and (not said or now - self.since >= self.delay):
            self.refresh()

    def flush(self) -> None:
        """Write what is not yet on the page, and wait until it is written (the watch ends)."""
        if self.since is not None:
            self.refresh()
        self.wait()

    def write(self) -> None:
        """The page as the watch stands now, written before this returns."""
        self.refresh()
        self.wait()

    def refresh(self) -> None:
        """The page as the watch stands now, handed to the writer thread."""
        self._raise()
        page = self.page()
        self.since = None
        self.writes += 1
        with self._lock:
            self._waiting = page
            if self._writer is None:
                self._idle.clear()
                self._writer = threading.Thread(target=self._write, name="revoke-audit page",
                                                daemon=True)
                self._writer.start()

    def wait(self) -> None:
        """Until the pages asked for are written.  On an ``Event``, not ``Thread.join``: a
        signal that interrupts a join marks the thread ended on Python 3.11 (bpo-45274), so
        the wait after a Ctrl-C would return at once and the page be cut off, its temporary
        file left beside it."""
        while not self._idle.wait(0.5):
            pass
        self._raise()

    def page(self) -> Page:
        """The page of the boards as they stand: their rows and the irregular ones' audits."""
        w = self.watch
        page = Page(sorted(w.files), w.options, self.settings(), audits={})
        for r, audit in w.boards():
            page.add(r)
            if audit is not None:
                page.audits[board_key(r.row)] = audit
        return page

    def _write(self) -> None:
        """The writer thread: the page waiting, until none is (each atomically written)."""
        while True:
            with self._lock:
                page, self._waiting = self._waiting, None
                if page is None:
                    self._writer = None
                    self._idle.set()
                    return
            try:
                write_page(self.path, page.pieces())
            except Exception as exc:  # said by the watch's thread (ReportError: cannot write)
                self._error = exc

    def _raise(self) -> None:
        error, self._error = self._error, None
        if error is not None:
            raise error

    def settings(self) -> list[tuple[str, str, str]]:
        """The options that rule the watch: ``audit``'s, the round in place of
        ``--discovered``, and when the page was written."""
        rows = [s for s in run_settings(self.watch.options) if s[0] != "--discovered"]
        rows.insert(1, ("--round-minutes", f"{self.round_minutes:g}",
                        "each board as the watch found it: a revoke announced while its round "
                        "was on is ruled at the table (64A), one first read after the round "
                        "64B5, 64C may restore equity; a log row 'discovered table' says "
                        "table for its board (a ^R mark does not)"))
        rows.append(("watch", time.strftime("%H:%M:%S"), "when this page was written; it is "
                     "written again after each burst of changes that announced something"))
        return rows


__all__ = ["LivePage", "PAGE_DELAY"]
