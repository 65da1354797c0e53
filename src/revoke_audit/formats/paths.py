"""The paths a user names - files, folders, ``-`` for standard input - as the sources to read,
in reading order, each once.

Folders are walked in name order (a folder's files, then its subfolders), skipping hidden
entries (``.git``) and everything that is not a regular file (a FIFO would hang the run);
a file that is not named ``.pbn``/``.lin`` or an archive is taken when its content is a hand
record (``kinds``).  Its layer: formats; it may import core."""
from __future__ import annotations

import os
from typing import Iterable, Iterator, Union

from .kinds import SUFFIXES, kind_of, unnamed_text_not_pbn
from .streams import HEAD


PathArg = Union[str, bytes, os.PathLike]


def as_paths(paths: PathArg | Iterable[PathArg]) -> list[str]:
    """``paths`` as a list of strings; one ``str``/``bytes``/``PathLike`` is one path."""
    if isinstance(paths, (str, bytes, os.PathLike)):
        paths = [paths]
    return [os.fsdecode(p) for p in paths]


def missing_paths(paths: PathArg | Iterable[PathArg]) -> list[str]:
    """The paths that name nothing (no such file or folder); ``-`` is standard input."""
    return [p for p in as_paths(paths) if p != "-" and not os.path.exists(p)]


def iter_sources(paths: PathArg | Iterable[PathArg]) -> Iterator[str]:
    """The sources ``paths`` stand for, in reading order, each once (``-`` is stdin).

    A folder gives the files found in it; a folder with nothing to read, or that cannot be
    listed, gives itself (``read_file`` turns it into its row).  A file named twice, or named
    and also found in a folder, is read at its first place only."""
    seen: set[object] = set()
    for path in as_paths(paths):
        if path != "-" and os.path.isdir(path):
            if not _first(path, seen):
                continue
            found = False
            for src in _walk(path):
                found = True
                if src == path or _first(src, seen):
                    yield src
            if not found:
                yield path
        elif _first(path, seen):
            yield path


def _first(path: str, seen: set[object]) -> bool:
    """Whether ``path`` (the same file or folder, by device and inode) is new to ``seen``."""
    try:
        st = os.stat(path)
        key: object = (st.st_dev, st.st_ino) if st.st_ino else os.path.realpath(path)
    except OSError:
        key = os.path.normpath(path)
    if key in seen:
        return False
    seen.add(key)
    return True


def _walk(folder: str) -> Iterator[str]:
    """Recognised regular files under ``folder``, depth first in name order; a folder that
    cannot be listed is yielded itself.  Hidden entries and symbolic links to folders are
    skipped; no recursion, so no depth is too deep."""
    stack = [folder]
    while stack:
        current = stack.pop()
        try:
            with os.scandir(current) as it:
                entries = sorted(it, key=lambda e: e.name)
        except OSError:
            yield current
            continue
        subfolders = []
        for entry in entries:
            if entry.name.startswith("."):
                continue
            try:
                if entry.is_dir(follow_symlinks=False):
                    subfolders.append(entry.path)
                elif entry.is_file() and recognised(entry.path, entry.name):
                    yield entry.path
            except OSError:
                continue
        stack.extend(reversed(subfolders))


def recognised(path: str, name: str) -> bool:
    """A file in a folder is read when its name says PBN, LIN or an archive, or its content is
    one of them."""
    if name.lower().endswith(SUFFIXES):
        return True
    try:
        with open(path, "rb") as fh:
            head = fh.read(HEAD)
    except OSError:
        return True  # it gets its row: the file exists but cannot be read
    return kind_of(head, "") is not None and not unnamed_text_not_pbn(head, "")
