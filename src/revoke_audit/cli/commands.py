"""The ``revoke-audit`` command: the group (``cli.main``) with its four commands, each in its
own module - ``audit``, ``explain``, ``fix``, ``watch`` - registered on it when imported here.
``python -m revoke_audit.cli.commands`` runs it (``__main__`` is the installed entry point)."""
from __future__ import annotations

from . import audit, explain, fix, watch  # noqa: F401 (each registers its command on main)
from .main import CONFIG_KEYS, main

__all__ = ["main", "CONFIG_KEYS"]

if __name__ == "__main__":  # pragma: no cover
    main()
