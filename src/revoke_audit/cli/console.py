"""The command's process, around ``cli.main``: a stderr that cannot change the exit code, and
Ctrl-C quiet from the first moment.  Light on purpose: it imports nothing of the package, so
that ``__main__`` may set the signal before the modules load."""
from __future__ import annotations

import io
import os
import signal
import sys
from typing import TextIO


class SteadyStream(io.TextIOBase):
    """A text stream that never raises: it writes to ``inner`` until a write fails (a full disk,
    ``2>/dev/full``, a pipe closed), then to nothing; ``inner`` None (``2>&-``) is nothing from
    the start.  What a run decides (its exit code) must not hang on whether it could say so."""

    def __init__(self, inner: TextIO | None) -> None:
        super().__init__()
        self._inner = inner

    @property
    def encoding(self) -> str:
        return getattr(self._inner, "encoding", None) or "utf-8"

    @property
    def errors(self) -> str:
        return getattr(self._inner, "errors", None) or "backslashreplace"

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        if self._inner is not None:
            try:
                self._inner.write(text)
            except (OSError, ValueError):
                self._give_up()
        return len(text)

    def flush(self) -> None:
        if self._inner is not None:
            try:
                self._inner.flush()
            except (OSError, ValueError):
                self._give_up()

    def isatty(self) -> bool:
        try:
            return self._inner is not None and self._inner.isatty()
        except (OSError, ValueError):
            return False

    def fileno(self) -> int:
        if self._inner is None:
            raise io.UnsupportedOperation("stderr is closed")
        return self._inner.fileno()

    def _give_up(self) -> None:
        """No more writes; the descriptor pointed at the null device, so that what is still
        buffered in ``inner`` does not fail again when Python flushes it at exit."""
        try:
            fd = os.open(os.devnull, os.O_WRONLY)
            os.dup2(fd, self._inner.fileno())
            os.close(fd)
        except (OSError, AttributeError, ValueError, io.UnsupportedOperation):
            pass
        self._inner = None


def steady_stderr() -> TextIO:
    """``sys.stderr`` made a ``SteadyStream`` (once); returns what it was, to put back."""
    before = sys.stderr
    if not isinstance(before, SteadyStream):
        sys.stderr = SteadyStream(before)
    return before


def quiet_interrupt() -> None:
    """Until the command sets its own (``cli.exit_on_signals``), Ctrl-C ends the process at
    once, exit 130, as a shell reports it: while the modules load there is nothing to clean up,
    and nothing to say (not Python's KeyboardInterrupt traceback)."""
    try:
        signal.signal(signal.SIGINT, _exit_130)
    except ValueError:  # not the main thread
        pass


def _exit_130(signum: int, frame: object) -> None:
    os._exit(128 + signal.SIGINT)
