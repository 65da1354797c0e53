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

from dataclasses import dataclass
from typing import Iterable

from .audit import BoardAudit, audit_board, audit_records, board_row
from .formats import read_boards
from .replay import replay

__all__ = ["AuditResult", "audit_paths", "audit_board", "audit_records", "board_row",
           "read_boards", "replay", "BoardAudit"]


@dataclass
class AuditResult:
    boards: "object"  # pandas.DataFrame
    findings: "object"  # pandas.DataFrame


def audit_paths(paths: Iterable[str], laws: str = "2017", discovered: str = "table",
                equity: bool = False, jobs: int = 1) -> AuditResult:
    """Audit every board under ``paths``; DataFrames with the report columns."""
    import pandas as pd

    from .report import BOARD_COLUMNS, FINDING_COLUMNS
    from .run import render_sources

    boards, findings = [], []
    for r in render_sources(paths, laws, discovered, equity, jobs):
        boards.append(r.row)
        findings.extend(r.findings)
    return AuditResult(pd.DataFrame(boards, columns=list(BOARD_COLUMNS)),
                       pd.DataFrame(findings, columns=list(FINDING_COLUMNS)))
