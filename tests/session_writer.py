"""A session written as scoring programs and vugraph operators write it, for the tests and the
bench of ``revoke-audit watch``: several tables play the boards of ``fixtures/mixed/thursday-pairs.pbn`` at once,
each table into its own file (appended trick by trick, a trick's line sometimes caught with two
of its four cards) and all of them into one shared file (rewritten whole through a temporary
file and a rename on every card, the cards not yet played written ``-``).

Run as a script (``python tests/session_writer.py FOLDER --tables 3``) it writes FOLDER at
full speed; ``--times FILE`` writes, for each revoke, the time of the write that established
it, as JSON lines (``scripts/bench.py`` reads them)."""
from __future__ import annotations

import argparse
import io
import json
import os
import re
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
SESSION = FIXTURES / "mixed" / "thursday-pairs.pbn"


@dataclass(frozen=True)
class Game:
    """One board of the fixture: its tags (without Result, which a live record has not yet)
    and its play, 13 lines of 4 cards in the PBN columns."""

    tags: tuple[str, ...]
    tricks: tuple[tuple[str, ...], ...]
    leaders: tuple[int, ...]  # the column of each trick's leader

    def text(self, table: int, cards: int, placeholders: bool = False) -> str:
        """The board at ``table`` with its first ``cards`` cards.  ``placeholders``: played in
        time order, the leader first, the cards not yet played ``-`` (as a program that saves
        the whole file on every card writes them); else the trick's line cut short after
        ``cards`` in the columns' order (a file caught half appended)."""
        lines = [f'[Table "{table}"]', *self.tags]
        full, rest = divmod(cards, 4)
        lines += ["  ".join(t) for t in self.tricks[:full]]
        if rest and placeholders:
            played = {(self.leaders[full] + i) % 4 for i in range(rest)}
            lines.append("  ".join(c if i in played else "-"
                                   for i, c in enumerate(self.tricks[full])))
        elif rest:
            lines.append("  ".join(self.tricks[full][:rest]))
        return "\n".join(lines) + ("\n" if not rest or placeholders else "")


def session_games(path: Path = SESSION) -> list[Game]:
    """The games of a PBN session file, in order."""
    games = []
    for block in re.split(r"\n\s*\n", path.read_text()):
        lines = [ln for ln in block.splitlines() if ln and not ln.startswith("%")]
        if not lines:
            continue
        play = next(i for i, ln in enumerate(lines) if ln.startswith("[Play"))
        tags = tuple(ln for ln in lines[:play + 1] if not ln.startswith("[Result"))
        tricks = tuple(tuple(ln.split()) for ln in lines[play + 1:play + 14])
        games.append(Game(tags, tricks, _leaders(block)))
    return games


def _leaders(block: str) -> tuple[int, ...]:
    """The column (0 for the first seat of the Play tag) of each trick's leader, from the
    replay of the whole board."""
    from revoke_audit.formats import read_stream
    from revoke_audit.replay import replay

    (record,) = read_stream(io.BytesIO(block.encode()), "game.pbn", "game.pbn")
    first = record.play_leader
    return tuple((t.leader - first) % 4 for t in replay(record).tricks)


def corrected(text: str) -> str:
    """Board 2 with West's revoke corrected: he follows with H6 on trick 3 and plays D5 on
    trick 7 instead (a record entered wrongly, then fixed)."""
    return text.replace("D5  H4  HQ  HJ", "H6  H4  HQ  HJ").replace("H6  DQ  D4  DT",
                                                                    "D5  DQ  D4  DT")


def save_whole(path: Path, text: str) -> None:
    """Write ``text`` as most programs save: a temporary file beside it, renamed over it."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    with os.fdopen(fd, "w") as fh:
        fh.write(text)
    os.replace(tmp, path)


def append(path: Path, text: str) -> None:
    with open(path, "a") as fh:
        fh.write(text)


def write_session(folder: Path, tables: int = 3, games: list[Game] | None = None,
                  on_write=None) -> None:
    """Play every board at every table, one card at a time, tables in turn: ``t<k>.pbn``
    appended (every second card: a trick's line half written, then finished), ``shared.pbn``
    rewritten whole on every card.  ``on_write(path, table, board, cards)`` is called after
    each write (``board``: the game's index)."""
    games = games or session_games()
    done: dict[int, list[str]] = {t: [] for t in range(1, tables + 1)}  # boards finished
    for g, game in enumerate(games):
        for cards in range(1, 53):
            for table in range(1, tables + 1):
                if cards % 2 == 0:
                    own = folder / f"t{table}.pbn"
                    before = "\n".join(done[table] + [game.text(table, cards - 2)]) \
                        if cards > 2 else "\n".join(done[table])
                    after = "\n".join(done[table] + [game.text(table, cards)])
                    append(own, after[len(before):])
                    _call(on_write, own, table, g, cards)
                shared = folder / "shared.pbn"
                boards = [b for t in done for b in done[t]]
                boards += [game.text(t, cards if t <= table else cards - 1, placeholders=True)
                           for t in range(1, tables + 1)]
                save_whole(shared, "\n".join(boards))
                _call(on_write, shared, table, g, cards)
        for table in done:
            done[table].append(game.text(table, 52))


def _call(on_write, *args) -> None:
    if on_write is not None:
        on_write(*args)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--tables", type=int, default=3)
    parser.add_argument("--times", type=Path, help="JSON lines: when each revoke was established")
    args = parser.parse_args()
    args.folder.mkdir(parents=True, exist_ok=True)
    out = open(args.times, "w") if args.times else None

    def note(path, table, board, cards):
        if out is not None:
            out.write(json.dumps({"path": str(path), "table": table, "board": board,
                                  "cards": cards, "time": time.time()}) + "\n")

    write_session(args.folder, args.tables, on_write=note)
    if out is not None:
        out.close()


if __name__ == "__main__":
    sys.exit(main())
