"""The codes the auditor can apply, by name (``--laws``)."""
from __future__ import annotations

from .common import AFTER_ROUND, TABLE, Ruling
from .law2017 import Laws2017

EDITIONS = {"2017": Laws2017}


def get_code(name: str):
    """The code object for an edition name; KeyError for an unknown one."""
    return EDITIONS[name]()


__all__ = ["EDITIONS", "get_code", "Ruling", "TABLE", "AFTER_ROUND"]
