"""The Laws of Duplicate Bridge 2007: what differs from 2017 on revokes and defective tricks.

Only Law 64B7 differs for what a hand record can show:

- 2007 64B7: no automatic transfer "when both sides have revoked on the same board" - the
  2017 words "and both revokes have become established" are not there, so a revoke by one
  side that was never established (the record stops before it could be) still blocks the
  transfer for the other side's revoke.
- 2007 64B3 (failure to play any card faced on the table, including a card of dummy's hand)
  is, for a record of cards played, the same as 2017 64B3: every revoke by dummy, and a
  failure to play a penalty card (known from a director's log).
- There is no 64B8 (62C3, both sides revoking on one trick, was added in 2017); it cannot
  arise in a finished record anyway.
- 67B1 is as in 2017: an omitted card is a deemed revoke, one trick under 64A2 whether or not
  the offender still holds the suit led.

Sources: the 2007 Law 64 as published (Norwegian translation at lovboka.org, 64B1-B7), the
2017 text for comparison (64B7 "... and both revokes have become established").
"""
from __future__ import annotations

from .law2017 import Laws2017


class Laws2007(Laws2017):
    """Laws of Duplicate Bridge 2007 (WBF)."""

    name = "2007"
    title = "the 2007 Laws"
    both_sides_needs_established = False  # 64B7 (2007): "both sides have revoked"
    b3_words = "a failure to play a card faced on the table (a penalty card)"  # 64B3 (2007)
