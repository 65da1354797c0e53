"""Outputs that would destroy an input: every file a run writes (the reports, the baseline)
checked, before anything is read, against every file it reads (the paths and the files found in
its folders, the director's log, the baseline, the settings file) and against each other.

Files are compared by what they are, not by how they are named: device and inode after symbolic
links, so a link, a hard link or ``./sub/../x`` is caught as well as the same name.  An output
that does not exist yet is its folder (device and inode) and its name."""
from __future__ import annotations

import os
from typing import Iterable, NamedTuple, Sequence


class Output(NamedTuple):
    """A file a run writes: the option naming it (``-o``), what it is (``report``), its path."""

    option: str
    kind: str
    path: str


class Input(NamedTuple):
    """A file a run reads: what it is to the run (``an input``, ``the director's log
    (--table-facts)``), its path, and the option of the one output allowed to replace it
    (``--write-baseline`` over ``--baseline``: it is read whole before anything is written)."""

    role: str
    path: str
    replaced_by: str = ""


def identity(path: str) -> tuple:
    """What ``path`` names: ``("file", device, inode)`` for something that exists (after
    symbolic links), else ``("new", device, inode, name)`` of its folder, or its real path when
    the folder is missing too (or the file system gives no inodes)."""
    try:
        st = os.stat(path)
        if st.st_ino:
            return ("file", st.st_dev, st.st_ino)
    except (OSError, ValueError):
        folder, name = os.path.split(os.path.abspath(path))
        try:
            st = os.stat(folder)
            if st.st_ino:
                return ("new", st.st_dev, st.st_ino, name)
        except (OSError, ValueError):
            pass
    return ("path", os.path.realpath(path))


def clash(outputs: Sequence[Output], inputs: Iterable[Input]) -> str | None:
    """The first output that names another output or an input, as a one-line message; None
    when every output is a file of its own."""
    seen: dict[tuple, Output] = {}
    for out in outputs:
        key = identity(out.path)
        if key in seen:
            return (f"{seen[key].option} and {out.option} name the same file "
                    f"({seen[key].path}): each output needs its own")
        seen[key] = out
    if not seen:
        return None
    for source in inputs:
        out = seen.get(identity(source.path))
        if out is not None and out.option != source.replaced_by:
            return f"{out.kind} {out.path} is also {source.role}: it would be overwritten"
    return None
