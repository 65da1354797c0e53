"""The optional C accelerators, ``_speedups`` (``_speedups.c``, built by ``setup.py`` where a
compiler works; the package installs and runs without it).  Each C function has a Python twin
that gives exactly the same answer for any input, and the tests compare them:

* ``deal`` and ``column_tricks``: the PBN lane's Deal and replay (``lane/kernel.py``; twins
  ``formats.pbn.lookup.fast_deal`` and ``lane.kernel.py_column_tricks``);
* ``blank_runs``, ``plain_bytes``, ``ascii_from``, ``one_game_each`` and ``lin_splits``: the
  scans of the check that a large file may be split for ``--jobs`` (twins ``_blank_runs``,
  ``_plain_bytes``, ``_ascii_from``, ``_one_game_each`` and ``_lin_splits`` in
  ``formats.parts``).

``REVOKE_AUDIT_PURE_PYTHON=1`` in the environment keeps to the twins."""
from __future__ import annotations

import os
from types import ModuleType

compiled: ModuleType | None
try:
    from . import _speedups as compiled
except ImportError:  # not built: no compiler where the package was installed
    compiled = None

PURE = bool(os.environ.get("REVOKE_AUDIT_PURE_PYTHON"))


def wanted() -> ModuleType | None:
    """The C functions, unless they were not built or the twins are asked for."""
    return None if PURE else compiled
