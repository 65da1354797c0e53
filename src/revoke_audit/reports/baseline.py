"""A baseline: the findings an archive is known to have, so a CI job fails only on new ones.

A finding is keyed by where it is and what it is - file, board, room, code, trick, seat - never
by its line number, which moves when a file is edited above it.  Keys are counted: a board with
two PS103 findings in the baseline and three now has one new one.  The file is JSON, one entry
per key with its count, sorted, so it diffs well in version control."""
from __future__ import annotations

import json
import os
from collections import Counter

VERSION = 1
KEY_FIELDS = ("source", "board", "room", "code", "trick", "seat")

Key = tuple[str, str, str, str, int | None, str]


def finding_key(f: dict[str, object]) -> Key:
    """The baseline key of one findings row.  ``source`` is normalised (``./a/../b.pbn`` is
    ``b.pbn``); a board without a number is named by its index in the file (``#3``)."""
    source = str(f["source"])
    if not source.startswith("<"):
        source = os.path.normpath(source).replace(os.sep, "/")
    board = str(f["board"] or "") or f"#{f['game']}"
    trick = f["trick"]
    return (source, board, str(f["room"] or ""), str(f["code"]),
            int(trick) if trick not in (None, "") else None, str(f["seat"] or ""))


class Baseline:
    """Known findings, counted by key.  ``known(f)`` consumes one occurrence of ``f``'s key."""

    def __init__(self, keys: Counter[Key] | None = None, path: str = ""):
        self.keys: Counter[Key] = Counter(keys or {})
        self.path = path
        self.matched = 0

    @classmethod
    def load(cls, path: str | os.PathLike) -> "Baseline":
        """Read a baseline file; ValueError naming the file when it is not one."""
        try:
            with open(path, encoding="utf-8") as fh:
                doc = json.load(fh)
            keys: Counter[Key] = Counter()
            for entry in doc["findings"]:
                keys[tuple(entry[k] for k in KEY_FIELDS)] += _count(entry)
        except OSError as exc:
            raise ValueError(f"cannot read baseline {os.fspath(path)}: {exc.strerror or exc}") from exc
        except RecursionError as exc:  # the JSON decoder recurses into nested arrays
            raise ValueError(f"{os.fspath(path)} is not a revoke-audit baseline "
                             "(nested too deep)") from exc
        except (ValueError, KeyError, TypeError) as exc:
            why = exc.args[0] if isinstance(exc, _BadEntry) else f"{type(exc).__name__}: {exc}"
            raise ValueError(f"{os.fspath(path)} is not a revoke-audit baseline ({why})") from exc
        return cls(keys, os.fspath(path))

    def known(self, f: dict[str, object]) -> bool:
        """True (and one occurrence used up) when ``f`` is in the baseline."""
        key = finding_key(f)
        if self.keys[key] <= 0:
            return False
        self.keys[key] -= 1
        self.matched += 1
        return True


class _BadEntry(ValueError):
    """A baseline entry's value that cannot be used (its message says which)."""


def _count(entry: dict) -> int:
    """An entry's ``count`` (1 when left out): a whole number, never ``1e400``."""
    count = entry.get("count", 1)
    if isinstance(count, bool) or not isinstance(count, int):
        raise _BadEntry(f"count {json.dumps(count)} is not a number of findings")
    return count


class BaselineRecorder:
    """Collects findings rows as they pass (``keep`` always says yes), for ``text``."""

    def __init__(self) -> None:
        self.keys: Counter[Key] = Counter()

    def __call__(self, f: dict[str, object]) -> bool:
        self.keys[finding_key(f)] += 1
        return True

    @property
    def count(self) -> int:
        return sum(self.keys.values())

    def text(self) -> str:
        """The baseline file of the findings seen (``baseline_text``)."""
        return baseline_text(self.keys)


def baseline_text(keys: Counter[Key]) -> str:
    """Counted keys as a baseline file, one entry a line (``report.Reports`` writes it with the
    reports: all of them, or none)."""
    entries = [json.dumps(dict(zip(KEY_FIELDS, key), count=n), ensure_ascii=False)
               for key, n in sorted(keys.items(), key=lambda kv: _sort_key(kv[0])) if n > 0]
    body = "[\n  " + ",\n  ".join(entries) + "\n ]" if entries else "[]"
    return f'{{\n "tool": "revoke-audit",\n "version": {VERSION},\n "findings": {body}\n}}\n'


def _sort_key(key: Key) -> tuple:
    """File, then board in number order (``2`` before ``10``; by length and digits, so a
    board number of thousands of digits is no ``int()`` past its 4,300-digit limit), then
    the rest."""
    source, board, room, code, trick, seat = key
    digits = board.lstrip("0") or "0"
    number = (0, len(digits), digits) if board.isascii() and board.isdigit() else (1, 0, board)
    return (source, number, room, code, -1 if trick is None else trick, seat)

