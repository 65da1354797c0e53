"""The optional C accelerators, ``_speedups`` (``_speedups*.c``, built by ``setup.py`` where a
compiler works; the package installs and runs without it).  Each C function has a Python twin
that gives exactly the same answer for any input, and the tests compare them:

* ``deal`` and ``column_tricks``: the PBN lane's Deal and replay (``lane/kernel.py``; twins
  ``formats.pbn.lookup.fast_deal`` and ``lane.kernel.py_column_tricks``);
* ``time_tricks``: the LIN lane's replay of cards in the order played (twin
  ``lane.kernel.py_time_tricks``);
* ``lin_deal`` and ``lin_cards``: the LIN lane's md and a line's cards (twins
  ``lane.kernel.py_lin_deal`` and ``lane.kernel.py_lin_cards``);
* ``blank_runs`` and ``newlines``: where a large file's games start and the line number each
  part starts on, for ``--jobs`` (twins ``blank_runs`` and ``newlines`` in ``formats.scans``);
* ``plain_bytes``, ``ascii_from``, ``one_game_each`` and ``lin_splits``: the scans of the check
  that such a file may be split (twins ``plain_bytes``, ``ascii_from``, ``one_game_each``
  and ``lin_splits`` in ``formats.scans``);
* ``plain_tags``: a plain PBN game's tag lines, for the lane (twin
  ``formats.pbn.plain.py_plain_tags``);
* ``lin_line``: whether a LIN line is one plain board, for the lane (twin
  ``formats.lin.plain.py_plain_line``).

The scans of a whole file release the GIL while they run.

``REVOKE_AUDIT_PURE_PYTHON=1`` in the environment keeps to the twins, and so does a build
older than the code (an editable install not rebuilt after ``_speedups.c`` changed: it lacks a
function of ``FUNCTIONS``)."""
from __future__ import annotations

import os
from types import ModuleType

FUNCTIONS = ("deal", "column_tricks", "time_tricks", "blank_runs", "newlines", "plain_bytes",
             "ascii_from", "one_game_each", "lin_splits", "plain_tags", "lin_deal",
             "lin_cards", "lin_line")


def complete(module: ModuleType | None) -> ModuleType | None:
    """``module`` when it has every function of ``FUNCTIONS``, else None."""
    if module is None or not all(hasattr(module, name) for name in FUNCTIONS):
        return None
    return module


compiled: ModuleType | None
try:
    from . import _speedups as _built
except ImportError:  # not built: no compiler where the package was installed
    _built = None
compiled = complete(_built)

PURE = bool(os.environ.get("REVOKE_AUDIT_PURE_PYTHON"))


def wanted() -> ModuleType | None:
    """The C functions, unless they were not built or the twins are asked for."""
    return None if PURE else compiled
