"""Every code the source emits is registered in ``codes.CODES``, and every registered code is
emitted somewhere (no dead entries, no undocumented codes)."""
import re
from pathlib import Path

from revoke_audit.core.codes import CODES

SRC = Path(__file__).resolve().parents[1] / "src" / "revoke_audit"


def test_emitted_codes_are_registered_and_registered_codes_emitted():
    used = set()
    for path in SRC.rglob("*.py"):
        if path.name == "codes.py":
            continue
        used |= set(re.findall(r'"((?:PS|RC|RV|DT|LW|EQ|DU|SC)\d{3})"', path.read_text()))
    assert used - set(CODES) == set(), "emitted but not registered"
    assert set(CODES) - used == set(), "registered but never emitted"


def test_a_board_without_play_is_unchecked_never_clean():
    """Nothing found because nothing was played in the record is not "clean": ``unchecked``;
    a passed-out board had nothing to play (clean); findings decide as before."""
    from revoke_audit.core.codes import board_status, play_checked

    assert board_status((), checked=play_checked("none", "4H")) == "unchecked"
    assert board_status((), checked=play_checked("none", "")) == "unchecked"
    assert board_status(("PS116",), checked=play_checked("none", "4H")) == "unchecked"
    assert board_status((), checked=play_checked("none", "Pass")) == "clean"
    assert board_status((), checked=play_checked("complete", "4H")) == "clean"
    assert board_status(("RC023",), checked=False) == "inconsistent"
    assert board_status((), unreadable=True, checked=False) == "unreadable"
