"""Calls and contracts (``auction.py``), shared by both readers."""

from revoke_audit.core.auction import all_pass, derive_contract


def test_all_pass_ends_the_auction_for_both_readers():
    """``AP`` stands for the passes that end the auction: four when nobody bid, three after
    the last bid (fewer when some passes are already there).  Both readers expand it here."""
    assert all_pass([]) == ["P"] * 4 and all_pass(["P", "P"]) == ["P", "P"]
    assert all_pass(["1S"]) == ["P"] * 3 and all_pass(["1S", "P", "P"]) == ["P"]
    assert all_pass(["1S", "P", "P", "P"]) == []
    assert derive_contract(["P", "1H", "X", "AP"], 0) == ("1HX", 1)
    assert derive_contract(["AP"], 0) == ("Pass", None)
