"""Every code the source emits is registered in ``codes.CODES``, and every registered code is
emitted somewhere (no dead entries, no undocumented codes)."""
import re
from pathlib import Path

from revoke_audit.codes import CODES

SRC = Path(__file__).resolve().parents[1] / "src" / "revoke_audit"


def test_emitted_codes_are_registered_and_registered_codes_emitted():
    used = set()
    for path in SRC.rglob("*.py"):
        if path.name == "codes.py":
            continue
        used |= set(re.findall(r'"((?:PS|RC|RV|DT|LW|EQ|DU|SC)\d{3})"', path.read_text()))
    assert used - set(CODES) == set(), "emitted but not registered"
    assert set(CODES) - used == set(), "registered but never emitted"
