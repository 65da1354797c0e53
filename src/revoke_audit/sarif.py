"""SARIF 2.1.0 output, so code-scanning dashboards can show findings on archived records."""
from __future__ import annotations

from .codes import CODES

_LEVEL = {"RV": "error", "DT": "error", "RC": "warning", "PS": "note"}


def sarif_document(findings: list[dict[str, object]]) -> dict[str, object]:
    """A SARIF log with one run; ``findings`` are findings.csv rows (dicts)."""
    used = sorted({str(f["code"]) for f in findings})
    return {
        "version": "2.1.0",
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "runs": [{
            "tool": {"driver": {
                "name": "revoke-audit",
                "rules": [{"id": c, "shortDescription": {"text": CODES.get(c, c)}} for c in used],
            }},
            "results": [_result(f) for f in findings],
        }],
    }


def _result(f: dict[str, object]) -> dict[str, object]:
    code = str(f["code"])
    return {
        "ruleId": code,
        "level": _LEVEL.get(code[:2], "note"),
        "message": {"text": str(f["message"])},
        "locations": [{"physicalLocation": {
            "artifactLocation": {"uri": str(f["source"])},
            "region": {"startLine": int(f["line"] or 1)},
        }}],
    }
