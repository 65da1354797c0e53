"""Input: hand records from PBN and LIN, as ``BoardRecord``s and diagnostics, streaming.

``paths`` turns the paths a user names into sources (folders walked), ``sources`` opens them
(files, archives, stdin) and ``kinds`` tells what a stream holds (PBN, LIN, an archive) by its
content; ``streams`` bounds and decodes what is opened (the limits against archive bombs); the
``pbn`` and ``lin`` packages read one stream each; ``lines`` is the bounded line reading both
share; ``parts`` splits a large file for ``--jobs``, over the byte ``scans``.
Nothing here raises on bad input: problems are ``PS`` diagnostics with a line, and a source
that yields no board still yields one ``unreadable`` record.

Its layer: above core only; it may import core, nothing else of the package."""
from .kinds import SUFFIXES, sniff
from .paths import as_paths, iter_sources, missing_paths, recognised
from .sources import (Limits, RunBudget, read_boards, read_file, read_stream, read_texts,
                      unreadable, SourceText)

__all__ = ["read_boards", "read_texts", "SourceText", "iter_sources", "missing_paths", "read_file", "read_stream", "sniff",
           "unreadable", "as_paths", "Limits", "RunBudget", "SUFFIXES", "recognised"]
