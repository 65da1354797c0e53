"""The director's page of a watch (``watch --html``): the page ``audit --html`` writes, over the
boards the watch follows, rewritten whole (a temporary file beside it, renamed over it) once a
burst of changes that announced something has settled.

Each board's section is the audit the watch made of it, so each carries its own discovery: a
revoke announced while its round was on is ruled as found at the table (64A), one first read
after the round 64B5 and "64C review".  Its findings are those last announced (a withdrawn one
is gone from the page).  The watch keeps the audit of an irregular board only; other boards are
counted by their status."""
from __future__ import annotations

import time
from typing import Callable, Iterator

from .html_page import Page, run_settings, write_page
from .watch import Watch

#: Seconds after the first change not yet on the page by which it is written, even while
#: batches that announce something keep coming.
PAGE_DELAY = 1.0


class LivePage:
    """The page at ``path`` kept up to date with ``watch``: ``after(said)`` after each batch of
    changes; ``flush()`` when the watch ends.  A batch that announced something marks the page;
    it is written when a batch announces nothing (the burst is over, or the wait for events
    timed out), or ``delay`` seconds after the first mark while announcements go on."""

    def __init__(self, path: str, watch: Watch, round_minutes: float | None = None,
                 delay: float = PAGE_DELAY, clock: Callable[[], float] = time.monotonic):
        self.path, self.watch, self.delay, self.clock = path, watch, delay, clock
        self.round_minutes = watch.round_seconds / 60 if round_minutes is None else round_minutes
        self.since: float | None = None  # when the first change not on the page was announced
        self.writes = 0

    def after(self, said: bool) -> None:
        """A batch of changes has been read; ``said``: it announced something."""
        now = self.clock()
        if said and self.since is None:
            self.since = now
        if self.since is not None and (not said or now - self.since >= self.delay):
            self.write()

    def flush(self) -> None:
        """Write what is not yet on the page (the watch ends)."""
        if self.since is not None:
            self.write()

    def write(self) -> None:
        """The page written now, atomically (a ``ReportError`` when it cannot be)."""
        write_page(self.path, self.pieces())
        self.since = None
        self.writes += 1

    def pieces(self) -> Iterator[str]:
        w = self.watch
        page = Page(sorted(w.files), w.options, self.settings(), audits={})
        for r, audit in w.boards():
            page.add(r)
            if audit is not None:
                page.audits[(r.row["source"], r.row["line"], r.row["game"])] = audit
        return page.pieces()

    def settings(self) -> list[tuple[str, str, str]]:
        """The options that rule the watch: ``audit``'s, the round in place of
        ``--discovered``, and when the page was written."""
        rows = [s for s in run_settings(self.watch.options) if s[0] != "--discovered"]
        rows.insert(1, ("--round-minutes", f"{self.round_minutes:g}",
                        "each board as the watch found it: a revoke announced while its round "
                        "was on is ruled at the table (64A), one first read after the round "
                        "64B5, 64C may restore equity; a ^R mark or a log row 'discovered "
                        "table' says table for its board"))
        rows.append(("watch", time.strftime("%H:%M:%S"), "when this page was written; it is "
                     "written again after each burst of changes that announced something"))
        return rows


__all__ = ["LivePage", "PAGE_DELAY"]
