"""The codes the auditor can apply, by name (``--laws``)."""
from __future__ import annotations

from .bridge_whist import BridgeWhist
from .common import AFTER_ROUND, TABLE, Ruling
from .law1932 import Laws1932
from .law1997 import Laws1997
from .law2007 import Laws2007
from .law2017 import Laws2017

EDITIONS = {"2017": Laws2017, "2007": Laws2007, "1997": Laws1997, "1932": Laws1932,
            "bridge-whist": BridgeWhist}


def get_code(name: str):
    """The code object for an edition name; KeyError for an unknown one."""
    return EDITIONS[name]()


__all__ = ["EDITIONS", "get_code", "Ruling", "TABLE", "AFTER_ROUND"]
