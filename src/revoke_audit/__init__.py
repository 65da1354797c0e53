"""revoke-audit: find uncaught revokes and defective tricks in bridge hand records.

The public API::

    from revoke_audit import audit_paths, load_report
    result = audit_paths(["session.pbn"], laws="2017")
    result.boards      # pandas DataFrame, the columns of boards.csv, typed
    result.findings    # pandas DataFrame, the columns of findings.csv, typed
    boards = load_report("boards.csv")   # a written report back, with the same dtypes

Lower levels: ``read_boards`` (records from files), ``replay`` (one record, trick by trick),
``audit_board`` (replay + ruling + score for one record).

Each name is loaded when first used (``__getattr__``), so that importing the package loads
nothing else: the command then makes Ctrl-C quiet before its modules load (``__main__``).
"""
from __future__ import annotations

import importlib
import sys
import types
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .api import AuditResult, audit_paths
    from .ruling.audit import BoardAudit, audit_board, audit_records
    from .reports.baseline import Baseline
    from .formats import Limits, read_boards
    from .reports.frames import load_report
    from .ruling.options import AuditOptions
    from .ruling.repair import Repair, repairs
    from .replay import replay
    from .reports.rows import board_row
    from .reports.selection import Selection
    from .laws.table_facts import TableFacts, TableFactsError, read_table_facts

__all__ = ["AuditResult", "audit_paths", "audit_board", "audit_records", "AuditOptions", "board_row",
           "read_boards", "replay", "BoardAudit", "load_report", "Selection", "Baseline",
           "read_table_facts", "TableFacts", "TableFactsError", "Limits", "repairs", "Repair"]

#: Where each name of the API lives.
_HOMES = {"AuditResult": "api", "audit_paths": "api", "BoardAudit": "ruling.audit",
          "audit_board": "ruling.audit", "audit_records": "ruling.audit", "Baseline": "reports.baseline",
          "Limits": "formats", "read_boards": "formats", "load_report": "reports.frames",
          "AuditOptions": "ruling.options", "board_row": "reports.rows", "repairs": "ruling.repair", "Repair": "ruling.repair", "Selection": "reports.selection",
          "TableFacts": "laws.table_facts", "TableFactsError": "laws.table_facts",
          "read_table_facts": "laws.table_facts"}


def __getattr__(name: str) -> object:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{home}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


class _Package(types.ModuleType):
    """The package's module: ``replay`` is the function, not the subpackage of that name,
    which the import system would otherwise bind here when it is first loaded (the subpackage
    stays in ``sys.modules``, and ``from revoke_audit.replay import ...`` finds it there)."""

    @property
    def replay(self):  # noqa: D401 - the function
        from .replay import replay

        return replay

    @replay.setter
    def replay(self, module: types.ModuleType) -> None:
        pass


sys.modules[__name__].__class__ = _Package
