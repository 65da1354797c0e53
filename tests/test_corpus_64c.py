"""Law 64C on real boards with several revokes by one side (../shared/corpus; skipped when it
is absent): each revoke measured from its own position, and each ruling paragraph quoting its
own figures.  The expected figures are the solver's, checked by a Director against the play."""
from pathlib import Path

import pytest

from revoke_audit.core.findings import Finding
from revoke_audit.formats import read_boards
from revoke_audit.ruling.audit import audit_board
from revoke_audit.ruling.director import ruling_text

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus" / \
    "ContractBridge__pbn-files"
pytestmark = pytest.mark.skipif(not CORPUS.is_dir(), reason="corpus absent")


def _game(path: str, game: int):
    """The ``game``-th board of the file (1-based, as ``explain --game``) and its revoke
    paragraphs by trick."""
    boards = list(read_boards([CORPUS / path]))
    a = audit_board(boards[game - 1])
    words = {f.trick: ruling_text(a, f) for f in a.findings
             if isinstance(f, Finding) and f.code.startswith("RV") and f.established}
    return a, words


def test_a_dummy_revoke_after_an_earlier_one_is_redressed():
    """Board 9, 4S by North: dummy (South) revokes on trick 4 (costing nothing: 8 from there,
    8 made) and ruffs West's CA on trick 8 holding C7: 7 for declarer had he followed, 8 after
    the ruff, 8 made.  The trick-8 revoke cost E-W one trick: 64C assigns 4S-3."""
    a, words = _game("1997-European_Team_Championship/O1o10505.pbn", 66)
    assert (a.ruling_64c, a.tricks_64c) == ("adjusted", 7)
    assert "the revoke on trick 4 itself cost East-West nothing" in words[4]
    assert "the revoke on trick 8 itself cost East-West 1 trick (double dummy from trick 8" \
        in words[8]
    assert "7 for declarer had he followed" in words[8]
    assert all("the Director assigns 4S-3 by North" in w for w in words.values())


@pytest.mark.parametrize("path, game, later, first", [
    ("1998-16th_European_Youth_Team_Championships/A1A10202.PBN", 6, 7, 1),
    ("1998-16th_European_Youth_Team_Championships/A1A11515.PBN", 32, 7, 6)])
def test_each_paragraph_quotes_its_own_revoke(path, game, later, first):
    """A1A10202 board 3 (South's revokes on tricks 1 and 7: 9 and 8 for declarer had he
    followed) and A1A11515 board 16 (dummy's on tricks 6 and 7): the later paragraph measures
    from its own trick, and its figure is its finding's ``equity_tricks``."""
    a, words = _game(path, game)
    (finding,) = [f for f in a.findings if f.code.startswith("RV") and f.trick == later]
    assert f"double dummy from trick {later}, " in words[later]
    assert f"from trick {first}" not in words[later]
    assert f"; {finding.equity_tricks} for declarer had he followed" in words[later]
    assert f"double dummy from trick {first}, " in words[first]
