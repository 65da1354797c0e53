"""Input: hand records from PBN and LIN, as ``BoardRecord``s and diagnostics, streaming.

``sources`` opens paths (files, folders, archives, stdin) and tells PBN from LIN by content,
``streams`` bounds and decodes what it opens (the limits against archive bombs); the ``pbn`` and
``lin`` packages read one stream each; ``lines`` is the bounded line reading both share.
Nothing here raises on bad input: problems are ``PS`` diagnostics with a line, and a source
that yields no board still yields one ``unreadable`` record.

Its layer: above core only; it may import core, nothing else of the package."""
from .kinds import SUFFIXES, sniff
from .paths import as_paths, iter_sources, missing_paths, recognised
from .sources import (Limits, RunBudget, read_boards, read_file, read_stream, read_texts,
                      unreadable, SourceText)

__all__ = ["read_boards", "read_texts", "SourceText", "iter_sources", "missing_paths", "read_file", "read_stream", "sniff",
           "unreadable", "as_paths", "Limits", "RunBudget", "SUFFIXES", "recognised"]
