"""revoke-audit: find uncaught revokes and defective tricks in bridge hand records.

The public API::

    from revoke_audit import audit_paths
    result = audit_paths(["session.pbn"], laws="2017")
    result.boards      # pandas DataFrame, the columns of boards.csv
    result.findings    # pandas DataFrame, the columns of findings.csv

Lower levels: ``read_boards`` (records from files), ``replay`` (one record, trick by trick),
``audit_board`` (replay + ruling + score for one record).
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Iterable

from .audit import BoardAudit, audit_board, audit_records, board_row
from .formats import read_boards
from .replay import replay
from .table_facts import TableFacts, TableFactsError, read_table_facts

__all__ = ["AuditResult", "audit_paths", "audit_board", "audit_records", "board_row",
           "read_boards", "replay", "BoardAudit", "read_table_facts", "TableFacts",
           "TableFactsError"]


@dataclass
class AuditResult:
    boards: "object"  # pandas.DataFrame
    findings: "object"  # pandas.DataFrame


def audit_paths(paths: Iterable[str], laws: str = "2017", discovered: str = "table",
                equity: bool = False, jobs: int = 1,
                table_facts: "str | os.PathLike | TableFacts | None" = None) -> AuditResult:
    """Audit every board under ``paths``; DataFrames with the report columns.
    ``table_facts``: a director's log (a path, or ``read_table_facts``' result) - a malformed
    one raises ``TableFactsError`` (a ``ValueError``) before anything is audited."""
    import pandas as pd

    from .report import BOARD_COLUMNS, FINDING_COLUMNS, render_sources

    if table_facts is not None and not isinstance(table_facts, TableFacts):
        table_facts = read_table_facts(table_facts)
    boards, findings = [], []
    for r in render_sources(paths, laws, discovered, equity, jobs, table_facts):
        if r.row is not None:
            boards.append(r.row)
        findings.extend(r.findings)
    return AuditResult(pd.DataFrame(boards, columns=list(BOARD_COLUMNS)),
                       pd.DataFrame(findings, columns=list(FINDING_COLUMNS)))
