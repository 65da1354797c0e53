"""endplay's double-dummy solver without the rest of endplay.

``import endplay`` runs its package ``__init__``, which imports every part of it, the dealer's
HTML and LaTeX actions among them, and with those matplotlib, numpy and PIL: about 65 MB of
memory and 0.5 s (several seconds on a loaded machine) in every process that rules a revoke,
for a solver that needs none of it.  Importing this module first loads only the parts Law 64C
uses (``endplay.dds``, ``endplay.types``, and the DDS library under them), and hands on the
names ``equity`` uses: the package module is made from its spec without running its
``__init__`` while they load, then they are all taken out of ``sys.modules`` again, so a later
``import endplay`` (a test, a library user) loads the whole package as it always did (its own
copy of these modules, over the same DDS library)."""
from __future__ import annotations

import importlib
import importlib.util
import sys

SOLVER_MODULES = ("endplay.dds", "endplay.dds.solve", "endplay.types")
LOADED: dict[str, object] = {}  # the modules, kept out of sys.modules


def load_solver() -> None:
    """Import ``SOLVER_MODULES`` without endplay's package ``__init__`` (when endplay is not
    imported already), and ask DDS for one thread (``_one_thread``): calls are made one at a
    time (``equity._SOLVER``)."""
    if "endplay" in sys.modules:  # loaded whole already: nothing to save
        LOADED.update((name, importlib.import_module(name)) for name in SOLVER_MODULES)
        return
    spec = importlib.util.find_spec("endplay")
    if spec is None:
        raise ImportError("endplay is not installed (Law 64C's double-dummy solver)",
                          name="endplay")
    sys.modules["endplay"] = importlib.util.module_from_spec(spec)
    try:
        for name in SOLVER_MODULES:
            LOADED[name] = importlib.import_module(name)
        _one_thread(sys.modules["endplay._dds"])
    finally:  # a later ``import endplay`` loads the whole package, as if this had not run
        for name in [m for m in sys.modules if m == "endplay" or m.startswith("endplay.")]:
            del sys.modules[name]


def _one_thread(dds) -> None:
    """DDS set to one thread with a small transposition table: ``SetResources(50, 1)`` (its
    own entry point, which endplay does not wrap) keeps the table at its small size, where the
    default lets it grow by 20-40 MB over the first few dozen solves (a run's peak RSS 78 ->
    42 MB on 20,000 boards); the answers are the same (a table only saves work; checked on 60
    positions of 1 to 13 cards), the time per solve about the same.  Below some 20 MB DDS
    runs no thread and fails: 50 keeps well clear.  An older DDS without it: one thread."""
    set_resources = getattr(dds._dll, "SetResources", None)
    if set_resources is not None:
        set_resources(50, 1)
    else:
        dds.SetMaxThreads(1)


load_solver()
# the names equity uses, from the modules loaded (``from endplay...`` would run the __init__)
solve_board = LOADED["endplay.dds.solve"].solve_board
SolveMode = LOADED["endplay.dds.solve"].SolveMode
Card, Deal, Denom, Player = (getattr(LOADED["endplay.types"], name)
                             for name in ("Card", "Deal", "Denom", "Player"))
