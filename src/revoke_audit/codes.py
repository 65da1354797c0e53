"""Every diagnostic and finding code, with its family and a one-line title.

Codes are stable once released: never renumber, only add.  The README's table of codes is
checked against this registry by a test.  Families: ``PS`` parse problems (readers), ``RC``
record consistency, ``RV`` revokes, ``DT`` defective tricks (Law 67)."""
from __future__ import annotations

CODES: dict[str, str] = {
    # --- shared by all readers (PS0xx) ---
    "PS001": "file cannot be read (missing, unreadable, or an archive member that cannot be opened)",
    "PS002": "text is not in the declared charset or UTF-8; decoded as cp1252",
    "PS003": "content is neither PBN nor LIN (binary or unknown text)",
    "PS004": "file ends in the middle of a board (truncated)",
    "PS005": "line too long; cut at the limit",
    "PS006": "board too large; the rest of it was skipped",
    # --- PBN reader (PS1xx) ---
    # --- LIN reader (PS2xx) ---
}


def family(code: str) -> str:
    """``RV``, ``DT``, ``RC`` or ``PS``."""
    return code[:2]
