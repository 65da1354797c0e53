"""SARIF 2.1.0 output, so code-scanning dashboards can show findings on archived records.

Levels are the codes' own (``codes.annotation_level``), as for ``--format github``.  Each location is a
percent-encoded URI relative to the ``SRCROOT`` base (the folder the run started in), and each
result carries a ``partialFingerprints`` entry built from what identifies a finding on a board -
file, board, room, code, trick, seat, card - never from line numbers, which move when a file is
edited, so a dashboard follows a finding from one run to the next."""
from __future__ import annotations

import hashlib
import json
import os
from collections import Counter
from pathlib import Path, PurePath
from typing import Callable, Iterable, Iterator
from urllib.parse import quote

from ..core.codes import CODES, annotation_level
from .report import finding_text
from .streamed_json import placeholder, write_document

BASE_ID = "SRCROOT"
FINGERPRINT = "revokeAudit/v1"
SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"


def tool_version() -> str:
    """The installed revoke-audit version (``0+unknown`` when run from a bare source tree)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("revoke-audit")
    except PackageNotFoundError:
        return "0+unknown"


def sarif_document(findings: list[dict[str, object]], root: str | None = None) -> dict[str, object]:
    """A SARIF log with one run; ``findings`` are findings.csv rows (dicts).  ``root``: the folder
    relative paths are relative to (the current folder by default)."""
    root = os.path.abspath(root or os.getcwd())
    used = sorted({str(f["code"]) for f in findings})
    doc = _log(used, root)
    doc["runs"][0]["results"] = list(_results(findings, used, root))
    return doc


def write_sarif(write: Callable[[str], None], findings: Iterable[dict[str, object]],
                root: str | None = None) -> None:
    """The SARIF log of ``findings`` (read twice: for the rules, then for the results) written
    as ``json.dumps(sarif_document(findings), indent=1)``, without holding the results."""
    root = os.path.abspath(root or os.getcwd())
    used = sorted({str(f["code"]) for f in findings})
    doc = _log(used, root)
    doc["runs"][0]["results"] = placeholder("results")
    write_document(write, doc, {"results": _results(findings, used, root)})


def _log(used: list[str], root: str) -> dict[str, object]:
    return {
        "version": "2.1.0",
        "$schema": SCHEMA,
        "runs": [{
            "tool": {"driver": {
                "name": "revoke-audit",
                "version": tool_version(),
                "rules": [{"id": c, "shortDescription": {"text": CODES.get(c, c)},
                           "defaultConfiguration": {"level": annotation_level(c)}} for c in used],
            }},
            "originalUriBaseIds": {BASE_ID: {"uri": Path(root).as_uri().rstrip("/") + "/"}},
            "results": [],
        }],
    }


def _results(findings: Iterable[dict[str, object]], used: list[str], root: str
             ) -> Iterator[dict[str, object]]:
    index = {code: i for i, code in enumerate(used)}
    seen: Counter[str] = Counter()
    for f in findings:
        yield _result(f, index, seen, root)


def artifact_location(source: str, root: str) -> dict[str, str]:
    """``{"uri": ..., "uriBaseId": "SRCROOT"}`` for a source as the report names it; a path that
    cannot be made relative to ``root`` (another drive) becomes an absolute ``file:`` URI."""
    path = source
    if os.path.isabs(path):
        try:
            path = os.path.relpath(path, root)
        except ValueError:
            return {"uri": Path(path).as_uri()}
    posix = PurePath(path).as_posix() if os.sep != "/" else path
    return {"uri": quote(posix, safe="/"), "uriBaseId": BASE_ID}


def fingerprint(f: dict[str, object], uri: str, occurrence: int) -> str:
    """A stable identity for one finding: what it is and where on which board, not its line."""
    key = [uri, f["board"], f["room"], f["code"], f["trick"], f["seat"], f["card"], occurrence]
    return hashlib.sha256(json.dumps(key, default=str).encode()).hexdigest()[:32]


def _result(f: dict[str, object], index: dict[str, int], seen: Counter[str],
            root: str) -> dict[str, object]:
    code = str(f["code"])
    location = artifact_location(str(f["source"]), root)
    identity = json.dumps([location["uri"], f["board"], f["room"], code, f["trick"], f["seat"],
                           f["card"]], default=str)
    seen[identity] += 1
    return {
        "ruleId": code,
        "ruleIndex": index[code],
        "level": annotation_level(code),
        "message": {"text": finding_text(f)},
        "locations": [{"physicalLocation": {
            "artifactLocation": location,
            "region": {"startLine": max(1, int(f["line"] or 1))},
        }}],
        "partialFingerprints": {FINGERPRINT: fingerprint(f, location["uri"], seen[identity])},
        "properties": {k: f[k] for k in ("game", "board", "room", "trick", "seat", "player")
                       if f.get(k) not in (None, "")},
    }
