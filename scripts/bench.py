#!/usr/bin/env python3
"""Throughput of the whole audit against endplay's parsers, PBN and LIN, in one run.

    .venv/bin/python scripts/bench.py [--boards 20000] [--repeat 3] [--large]
                                      [--stdout-format json ...] [--folder PATH]

One generated set of boards (random deals, short realistic auctions, random legal 13-trick
plays, one board in fifty with a revoke forced into it so the law path runs too) is written
twice, as PBN (export layout: tags, Auction, Play in seat columns) and as single-deal LIN lines.
On each file it times, as whole processes with start-up included:

* endplay's parse only: ``endplay.parsers.pbn.load`` / ``endplay.parsers.lin.loads``;
* our whole audit: ``revoke-audit audit FILE -o boards.csv --findings findings.csv`` with
  ``--jobs 1`` and ``--jobs 2``;

and prints boards per second, the ratio to endplay, and each process's peak RSS (``wait4``:
the largest process of the tree).  Then ``--equity``'s cost in ms per revoke, measured in this
process on the boards that have a revoke (audit with minus audit without the solver).
``--large`` is the 200,000-board mode for the ``--jobs`` and memory targets (without endplay,
whose parsers hold the whole file: gigabytes at that size); ``--stdout-format``
adds a single-process run per ``--format`` for its peak RSS (one writing both reports as
Parquet is always made: its row groups go out as they come); ``--folder`` times ``--jobs 1``
against ``--jobs 2`` on a folder of real files (e.g. a vugraph archive slice).
``--unsplittable`` (and ``--large``) adds ``--jobs 1`` and ``--jobs 2`` on the PBN file made one
that cannot be split (a ``%`` line after its first game): the parent reads it (aim: peak RSS
under 150 MB at 100 MB of input).  ``--log`` times the PBN audit with a director's log of
10,000 rows that name no board against none (aim: under 1.2x), and gives the peak RSS of a run
with a 1,000,000-row log (aim: under 150 MB; each of its rows becomes an RC040 finding).
``--watch`` runs ``revoke-audit watch`` on a folder while ``tests/session_writer.py`` plays the
session of ``fixtures/session`` at ``--tables`` tables (one file each, appended, and one shared
file rewritten whole): the delay from the write that establishes each revoke to its announcement
(median and worst), and the CPU the watch uses while nothing changes, before the session and
after it (aim: under 1% of a core).  ``--pace`` seconds between writes (0: at full speed).
``--watch --html``: the same with the watch keeping the director's page (``watch --html``),
and how many times the page was rewritten (each rewrite is a new file renamed into place: its
inode, sampled every 5 ms, so a lower bound) and its size at the end.
``--html`` times the director's page (``--html``): with ``--folder``, the folder's run with the
page against without, and the page's size; and on a generated PBN file of ``--html-boards``
boards (default 200,000) with a wrong stated result on one board in forty (as many RC023
record errors) and a revoke in one in fifty, the same, and the seconds headless Chromium takes
to open the page and render it, against an empty page (aim: a few seconds).
``--against REV --vugraph-archive N`` adds a vugraph archive of N boards or more: copies of the
shared archive's and corpus's LIN files (in the temporary folder), several passes under names
of their own.
``--fields`` (and ``--large``) times the PBN audit with every board number played 10 to 20
times (fields to score after the run) against the same run with rescoring switched off (aim:
under 1.2x), and the file as generated (no field: only the gathering) against the same.
"""
from __future__ import annotations

import argparse
import dataclasses
import os
import random
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass

from revoke_audit.core.cards import SUIT_MASKS, cards_in, trick_winner
from revoke_audit.formats.lin.write import format_lin
from revoke_audit.formats.pbn.write import format_pbn
from revoke_audit.core.record import BoardRecord, Play

STRAIN_NAMES = ("S", "H", "D", "C", "NT")
VULS = ("None", "NS", "EW", "All")
NAMES = ("anna", "bert", "carl", "dora", "emil", "fay", "gus", "hal", "ida", "jon")


# --- the generated boards ----------------------------------------------------------------------

REVOKE_EVERY = 50  # one board in this many gets a revoke (--revoke-every)


def random_record(rnd: random.Random, number: int) -> BoardRecord:
    """One board: a random deal, an auction in which declarer alone bids, a random legal play
    (board ``number`` divisible by ``REVOKE_EVERY`` gets one revoke in tricks 2..10 when it
    can)."""
    deck = list(range(52))
    rnd.shuffle(deck)
    hands = tuple(sum(1 << c for c in deck[i * 13:(i + 1) * 13]) for i in range(4))
    dealer, declarer = rnd.randrange(4), rnd.randrange(4)
    strain = rnd.randrange(5)
    contract = f"{rnd.randint(1, 7)}{STRAIN_NAMES[strain]}"
    auction = ("P",) * ((declarer - dealer) % 4) + (contract, "P", "P", "P")
    revoke_at = rnd.randrange(1, 10) if number % REVOKE_EVERY == 0 else -1
    play, won = _random_play(rnd, hands, declarer, None if strain == 4 else strain, revoke_at)
    return BoardRecord(
        source="bench", line=0, game=number, format="pbn", event="bench", site="nowhere",
        date="2024.01.01", board=str(number), dealer=dealer, vul=rnd.choice(VULS),
        names=tuple(rnd.choice(NAMES) for _ in range(4)), hands=hands, auction=auction,
        contract_stated=contract, declarer_stated=declarer, play_leader=(declarer + 1) % 4,
        play=play, result_stated=won)


def _random_play(rnd: random.Random, hands: tuple[int, ...], declarer: int, trump: int | None,
                 revoke_at: int) -> tuple[tuple[Play, ...], int]:
    """Thirteen tricks of legal cards (one revoke at trick ``revoke_at + 1``, second hand, when
    that player can revoke); returns the plays in time order and declarer's tricks."""
    left = list(hands)
    leader = (declarer + 1) % 4
    plays: list[Play] = []
    won = 0
    for t in range(13):
        cards: list[int] = []
        for i in range(4):
            seat = (leader + i) % 4
            legal = left[seat]
            if cards and legal & SUIT_MASKS[cards[0] // 13]:
                follow = legal & SUIT_MASKS[cards[0] // 13]
                other = legal & ~SUIT_MASKS[cards[0] // 13]
                legal = other if (t == revoke_at and i == 1 and other) else follow
            card = rnd.choice(list(cards_in(legal)))
            left[seat] &= ~(1 << card)
            cards.append(card)
            plays.append(Play(seat, card, (), 0, t + 1))
        leader = trick_winner(leader, cards, trump)
        won += leader % 2 == declarer % 2
    return tuple(plays), won


def write_with_errors(path: str, boards: int, seed: int) -> str:
    """``boards`` boards as PBN, one in forty with a wrong stated result (an RC023 record
    error) besides the revokes of ``random_record``."""
    rnd = random.Random(seed)
    with open(path, "w") as pbn:
        pbn.write("% PBN 2.1\n% EXPORT\n\n")
        for n in range(1, boards + 1):
            record = random_record(rnd, n)
            if n % 40 == 7:
                record = dataclasses.replace(record, result_stated=(record.result_stated + 1) % 14)
            pbn.write(format_pbn(record) + "\n")
    return path


def write_files(folder: str, boards: int, seed: int) -> dict[str, str]:
    """The same boards as ``bench.pbn`` and ``bench.lin`` in ``folder``; returns the paths."""
    rnd = random.Random(seed)
    paths = {"pbn": os.path.join(folder, "bench.pbn"), "lin": os.path.join(folder, "bench.lin")}
    with open(paths["pbn"], "w") as pbn, open(paths["lin"], "w") as lin:
        pbn.write("% PBN 2.1\n% EXPORT\n\n")
        for n in range(1, boards + 1):
            record = random_record(rnd, n)
            pbn.write(format_pbn(record) + "\n")
            lin.write(format_lin(record))
    return paths


# --- whole processes ---------------------------------------------------------------------------

@dataclass
class Run:
    seconds: float
    rss_mb: float  # peak resident set of the largest process of the tree
    cpu: float = 0.0  # user + system seconds of the tree (what a busy machine does not blur)


def run(argv: list[str], stdout: str = os.devnull) -> Run:
    """Run ``argv`` to its end; wall time and peak RSS (from ``wait4``, this child's tree).
    Exit codes 0 and 1 (findings) are fine; anything else stops the bench."""
    with open(stdout, "w") as out:
        t0 = time.perf_counter()
        proc = subprocess.Popen(argv, stdout=out, stderr=subprocess.PIPE)
        _, status, usage = os.wait4(proc.pid, 0)
        seconds = time.perf_counter() - t0
    proc.returncode = os.waitstatus_to_exitcode(status)
    err = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
    if proc.returncode not in (0, 1):
        sys.exit(f"bench: {' '.join(argv)} failed ({proc.returncode}): {err.strip()[-500:]}")
    return Run(seconds, usage.ru_maxrss / 1024, usage.ru_utime + usage.ru_stime)


def best(argv: list[str], repeat: int, stdout: str = os.devnull) -> Run:
    """The fastest of ``repeat`` runs (and the largest peak RSS seen)."""
    return best_of_each([argv], repeat, stdout)[0]


def best_of_each(argvs: list[list[str]], repeat: int, stdout: str = os.devnull) -> list[Run]:
    """``best`` of each command, run in turn (one of each, ``repeat`` times), so that a
    change in the machine's load during the bench weighs on each command alike."""
    rounds = [[run(argv, stdout) for argv in argvs] for _ in range(repeat)]
    return [Run(min(r.seconds for r in runs), max(r.rss_mb for r in runs),
                min(r.cpu for r in runs)) for runs in zip(*rounds)]


def compile_package() -> None:
    """Write the package's bytecode, as ``pip install`` does.  An editable install on a
    machine that sets ``PYTHONDONTWRITEBYTECODE`` (this one does, as many container images do)
    has none, and each process would compile every module again (0.06 s of each start here),
    which is not what an installed ``revoke-audit`` costs."""
    import compileall

    import revoke_audit

    compileall.compile_dir(os.path.dirname(revoke_audit.__file__), quiet=1)


ENDPLAY = {
    "pbn": "import sys\nfrom endplay.parsers import pbn\n"
           "with open(sys.argv[1]) as f: print(len(pbn.load(f)))",
    "lin": "import sys\nfrom endplay.parsers import lin\n"
           "with open(sys.argv[1]) as f: print(len(lin.loads(f.read())))",
}


def audit_command() -> list[str]:
    """The installed ``revoke-audit`` beside this Python, else ``python -m revoke_audit.cli.commands``."""
    script = os.path.join(os.path.dirname(sys.executable), "revoke-audit")
    return [script] if os.path.exists(script) else [sys.executable, "-m", "revoke_audit.cli.commands"]


def audit_argv(path: str, folder: str, jobs: int, *extra: str) -> list[str]:
    """The audit timed against endplay's parser: reading, replaying and ruling, without the Law
    64C figures (``--no-equity``), whose solver cost is measured on its own
    (``equity_ms_per_revoke``): the generated files have a revoke every 50 boards, some twenty
    times a real archive's rate, so it would swamp what is compared here."""
    return audit_command() + ["audit", path, "-o", os.path.join(folder, "boards.csv"),
                              "--findings", os.path.join(folder, "findings.csv"),
                              "--jobs", str(jobs), "-q", "--no-equity", *extra]


def parquet_argv(path: str, folder: str) -> list[str]:
    """A single-process audit writing both reports as Parquet (aim: under 150 MB at 200,000
    boards, as CSV)."""
    return audit_command() + ["audit", path, "-o", os.path.join(folder, "boards.parquet"),
                              "--findings", os.path.join(folder, "findings.parquet"), "-q"]


# --- equity ------------------------------------------------------------------------------------

def equity_ms_per_revoke(path: str) -> tuple[int, float, float]:
    """(revokes, ms per revoke, s to load the solver once) that the Law 64C figures (on by
    default; ``--no-equity`` skips them) add, on the boards of ``path`` with a revoke: audits
    with minus audits without the solver, after loading it."""
    from revoke_audit.ruling.audit import audit_board, audit_records
    from revoke_audit.ruling.options import AuditOptions
    from revoke_audit.formats import read_boards

    without = AuditOptions(equity=False)
    with_revokes = [a.record for a in audit_records(read_boards([path]), without)
                    if a.replay.revokes]
    revokes = sum(len(audit_board(r, without).replay.revokes) for r in with_revokes)
    t0 = time.perf_counter()
    import revoke_audit.ruling.equity  # noqa: F401 - endplay's solver, loaded once per process
    load = time.perf_counter() - t0
    t0 = time.perf_counter()
    for r in with_revokes:
        audit_board(r, without)
    t1 = time.perf_counter()
    for r in with_revokes:
        audit_board(r, AuditOptions(equity=True))
    t2 = time.perf_counter()
    return revokes, ((t2 - t1) - (t1 - t0)) * 1000 / max(revokes, 1), load


# --- against another revision ------------------------------------------------------------------

def export_revision(rev: str, dest: str, repo: str | None = None) -> str:
    """The tree of ``rev`` (any name git knows) written into ``dest`` with ``git archive``: no
    worktree is registered and the repository is left as it was.  Returns the commit's short
    hash."""
    repo = repo or os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    commit = subprocess.run(["git", "-C", repo, "rev-parse", "--short", f"{rev}^{{commit}}"],
                            check=True, capture_output=True, text=True).stdout.strip()
    os.makedirs(dest, exist_ok=True)
    archive = subprocess.Popen(["git", "-C", repo, "archive", commit],
                               stdout=subprocess.PIPE)
    subprocess.run(["tar", "-x", "-C", dest], stdin=archive.stdout, check=True)
    if archive.wait() != 0:
        sys.exit(f"bench: git archive {commit} failed")
    return commit


def install_commands(src: str, venv: str, python: str = sys.executable) -> list[list[str]]:
    """The commands that give ``src`` its own virtual environment in ``venv``, installed as a
    user installs it (not editable; its C accelerators built by ``setup.py``; pip's cache is
    used as usual, so a second build downloads nothing)."""
    pip = [os.path.join(venv, "bin", "python"), "-m", "pip", "install", "--quiet",
           "--disable-pip-version-check"]
    return [[python, "-m", "venv", venv], pip + [src]]


def build_revision(rev: str, tmp: str, runner=subprocess.run) -> tuple[str, list[str]]:
    """``rev`` exported and installed under ``tmp``: (its short hash, the command that runs its
    ``revoke-audit``)."""
    src, venv = os.path.join(tmp, "src"), os.path.join(tmp, "venv")
    commit = export_revision(rev, src)
    for argv in install_commands(src, venv):
        runner(argv, check=True)
    built = runner([os.path.join(venv, "bin", "python"), "-c",
                    "try:\n from revoke_audit.core import speedups\nexcept ImportError:\n"
                    " from revoke_audit import speedups\nprint(bool(speedups.wanted()))"],
                   capture_output=True, text=True)
    if (built.stdout or "").strip() != "True":
        print(f"bench: {commit}'s C accelerators are not in use", file=sys.stderr)
    return commit, [os.path.join(venv, "bin", "revoke-audit")]


def default_audit(command: list[str], path: str, folder: str, jobs: int) -> list[str]:
    """The default audit as a user runs it (``-q`` only keeps the lines off the terminal):
    whatever the revision does by default (its Law 64C figures too, when it has them)."""
    return command + ["audit", path, "-o", os.path.join(folder, "boards.csv"),
                      "--findings", os.path.join(folder, "findings.csv"), "-q",
                      "--jobs", str(jobs)]


def against_pairs(inputs: dict[str, tuple[str, int]], jobs: tuple[int, ...],
                  ours: list[str], theirs: list[str], tmp: str
                  ) -> list[tuple[str, int, list[str], list[str]]]:
    """(label, boards, their argv, our argv) for each input and ``--jobs``; each pair writes
    its reports into a folder of its own."""
    pairs = []
    for label, (path, boards) in inputs.items():
        for n in jobs:
            pairs.append((f"{label} --jobs {n}", boards,
                          default_audit(theirs, path, os.path.join(tmp, "theirs"), n),
                          default_audit(ours, path, os.path.join(tmp, "ours"), n)))
    os.makedirs(os.path.join(tmp, "theirs"), exist_ok=True)
    os.makedirs(os.path.join(tmp, "ours"), exist_ok=True)
    return pairs


def bench_against(rev: str, inputs: dict[str, tuple[str, int]], jobs: tuple[int, ...],
                  repeat: int, tmp: str) -> None:
    """Our default audit against ``rev``'s on the same inputs, run in turn (theirs, ours,
    theirs, ...: a change in the machine's load weighs on both alike); best time of each,
    largest peak RSS, and the ratio (their seconds over ours: above 1, we are faster)."""
    commit, theirs = build_revision(rev, os.path.join(tmp, "rev"))
    here = subprocess.run(["git", "-C", os.path.dirname(os.path.dirname(os.path.abspath(
        __file__))), "describe", "--always", "--dirty"], capture_output=True, text=True)
    print(f"against {commit} (this tree: {here.stdout.strip() or '?'}); best of {repeat}, "
          "interleaved; the default audit (-o boards.csv --findings findings.csv -q)")
    print("speed: their seconds over ours (above 1: faster); cpu: the same of user + system "
          "seconds, which a machine busy with other work blurs less; RSS: ours over theirs")
    print(f"{'':24}{commit + ' s':>10}{'cpu':>7}{'MB':>5}{'this s':>8}{'cpu':>7}{'MB':>5}"
          f"{'speed':>7}{'cpu':>7}{'RSS':>7}")
    for label, boards, their_argv, our_argv in against_pairs(inputs, jobs, audit_command(),
                                                             theirs, tmp):
        them, us = best_of_each([their_argv, our_argv], repeat)
        print(f"{label:24}{them.seconds:10.2f}{them.cpu:7.2f}{them.rss_mb:5.0f}"
              f"{us.seconds:8.2f}{us.cpu:7.2f}{us.rss_mb:5.0f}{them.seconds / us.seconds:6.2f}x"
              f"{them.cpu / max(us.cpu, 1e-9):6.2f}x{us.rss_mb / them.rss_mb:6.2f}x"
              f"  ({boards / us.seconds:.0f} boards/s)")


# --- the report --------------------------------------------------------------------------------

def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--boards", type=int, default=20000, help="boards per file (default 20000)")
    ap.add_argument("--large", action="store_true",
                    help="200,000 boards: the --jobs and memory targets")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=1, help="runs of each process; the best counts")
    ap.add_argument("--formats", nargs="+", choices=("pbn", "lin"), default=["pbn", "lin"])
    ap.add_argument("--stdout-format", action="append", default=[],
                    choices=("text", "csv", "json", "jsonl", "github", "sarif"),
                    help="also run one single-process audit with this --format (peak RSS)")
    ap.add_argument("--folder", help="also time --jobs 1 and --jobs 2 on this folder")
    ap.add_argument("--unsplittable", action="store_true",
                    help="also --jobs 1 and 2 on the PBN file made one that cannot be split")
    ap.add_argument("--log", action="store_true",
                    help="also time a 10,000-row director's log and measure a 1,000,000-row one")
    ap.add_argument("--no-equity", action="store_true", help="skip the --equity measurement")
    ap.add_argument("--html", action="store_true",
                    help="also time the director's page (--html), with --folder too, and its "
                         "opening in headless Chromium; with --fields, also the page of the "
                         "same boards in fields of 10-20 (each section with its field)")
    ap.add_argument("--html-boards", type=int, default=200_000,
                    help="boards of the --html file (default 200000)")
    ap.add_argument("--fields", action="store_true",
                    help="rescoring's cost: every board number played 10 to 20 times")
    ap.add_argument("--no-endplay", action="store_true",
                    help="skip endplay's parsers (--large does: they hold the whole file, GBs)")
    ap.add_argument("--watch", action="store_true",
                    help="only the watch: announcement delays and idle CPU (see above)")
    ap.add_argument("--tables", type=int, default=4, help="--watch: tables playing at once")
    ap.add_argument("--pace", type=float, default=0.0,
                    help="--watch: seconds between writes (default 0: full speed)")
    ap.add_argument("--quiet-seconds", type=float, default=20.0,
                    help="--watch: how long the idle CPU is measured, before and after")
    ap.add_argument("--against", metavar="REV",
                    help="only this: build REV (a commit, branch or tag) in a temporary virtual "
                         "environment and time its default audit against this tree's on the "
                         "same generated PBN and LIN files and a real folder (--folder, else "
                         "the project's archive beside it when present), with --jobs 1 and 2")
    ap.add_argument("--vugraph-archive", type=int, default=0, metavar="N",
                    help="with --against: also time a vugraph archive of at least N boards, "
                         "built of copies of shared/archive's and the corpus's LIN files")
    ap.add_argument("--revoke-every", type=int, default=None, metavar="N",
                    help="one generated board in N has a revoke (default 50; 400 with --against, "
                         "about a real archive's rate)")
    args = ap.parse_args()
    global REVOKE_EVERY
    REVOKE_EVERY = args.revoke_every or (400 if args.against else 50)
    if args.against:
        _against_main(args)
        return
    if args.watch:
        compile_package()
        _bench_watch(args.tables, args.pace, args.quiet_seconds, args.html)
        return
    boards = 200_000 if args.large else args.boards
    args.no_endplay = args.no_endplay or args.large
    tmp = tempfile.mkdtemp(prefix="revoke-audit-bench-")
    try:
        paths = write_files(tmp, boards, args.seed)
        sizes = ", ".join(f"{k.upper()} {os.path.getsize(paths[k]) / 1e6:.1f} MB" for k in args.formats)
        from revoke_audit.core import speedups

        built = "C accelerators " + ("in use" if speedups.wanted() else "not in use (Python twins)")
        compile_package()
        print(f"{boards} boards ({sizes}); best of {args.repeat}, runs interleaved; Python "
              f"{sys.version.split()[0]}, {os.cpu_count()} cores; {built}")
        print(f"{'':28}{'boards/s':>10}{'x endplay':>11}{'seconds':>9}{'peak RSS':>10}")
        for fmt in args.formats:
            _bench_format(fmt, paths[fmt], tmp, boards, args)
        if (args.unsplittable or args.large) and "pbn" in args.formats:
            _bench_unsplittable(paths["pbn"], tmp, boards, args.repeat)
        if not args.no_equity and "pbn" in args.formats:
            revokes, ms, load = equity_ms_per_revoke(paths["pbn"])
            print(f"--equity: {ms:.2f} ms per revoke ({revokes} revokes), and {load:.2f} s once "
                  "per process to load endplay's solver")
        if args.folder:
            _bench_folder(args.folder, tmp, args.repeat)
            if args.html:
                _bench_html(args.folder, tmp, args.repeat, "folder")
        if args.html:
            page_file = write_with_errors(os.path.join(tmp, "errors.pbn"), args.html_boards,
                                          args.seed)
            _bench_html(page_file, tmp, args.repeat, f"{args.html_boards} boards")
            if args.fields:  # every board rescored: each section shows its field
                fielded = write_fields(page_file, os.path.join(tmp, "errors-fields.pbn"),
                                       args.seed)
                _bench_html(fielded, tmp, args.repeat,
                            f"{args.html_boards} boards in fields of 10-20")
        if args.log and "pbn" in args.formats:
            _bench_log(paths["pbn"], tmp, boards, args.repeat)
        if (args.fields or args.large) and "pbn" in args.formats:
            _bench_fields(paths["pbn"], tmp, boards, args.repeat, args.seed)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def default_folder() -> str | None:
    """The vugraph archive beside the project (``../shared/archive``), when it is there."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    folder = os.path.join(os.path.dirname(root), "shared", "archive")
    return folder if os.path.isdir(folder) else None


def vugraph_archive(dest: str, boards: int) -> tuple[str, int]:
    """A folder of at least ``boards`` boards: copies of every LIN file of the shared archive
    and corpus (beside the project), in as many passes as it takes, each pass a folder of its
    own (so each file has a name of its own; copies, not links: a run reads a file linked
    twice once); (the folder, its boards).  It is made in the bench's temporary folder."""
    from revoke_audit.formats import read_boards

    shared = os.path.dirname(default_folder() or sys.exit("bench: no shared/archive folder"))
    files = [os.path.join(root, name) for top in ("archive", "corpus")
             for root, _, names in os.walk(os.path.join(shared, top)) for name in sorted(names)
             if name.lower().endswith(".lin")]
    per_pass = sum(1 for _ in read_boards(files))
    passes = -(-boards // per_pass)
    for k in range(passes):
        for i, path in enumerate(files):
            os.makedirs(os.path.join(dest, f"pass{k}"), exist_ok=True)
            shutil.copyfile(path, os.path.join(dest, f"pass{k}",
                                               f"{i:05d}-{os.path.basename(path)}"))
    return dest, passes * per_pass


def _against_main(args) -> None:
    """``--against REV``: generated PBN and LIN files and a real folder, both revisions."""
    tmp = tempfile.mkdtemp(prefix="revoke-audit-against-")
    try:
        boards = 200_000 if args.large else args.boards
        paths = write_files(tmp, boards, args.seed)
        inputs = {f"{fmt.upper()} {boards}": (paths[fmt], boards) for fmt in args.formats}
        folder = args.folder or default_folder()
        if folder:
            from revoke_audit.formats import read_boards

            inputs[os.path.basename(os.path.normpath(folder))] = (
                folder, sum(1 for _ in read_boards([folder])))
        if args.vugraph_archive:
            built, n = vugraph_archive(os.path.join(tmp, "vugraph"), args.vugraph_archive)
            inputs[f"vugraph {n}"] = (built, n)
        compile_package()
        print(f"generated: {boards} boards, one in {REVOKE_EVERY} with a revoke; folder: "
              f"{folder or 'none'}; Python {sys.version.split()[0]}, {os.cpu_count()} cores")
        bench_against(args.against, inputs, (1, 2), args.repeat, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _bench_watch(tables: int, pace: float, quiet: float, html: bool = False) -> None:
    """``--watch``: announcement delays over a session written live, and idle CPU; ``html``:
    with the director's page kept, and how often it was rewritten."""
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(
        __file__))), "tests"))
    from pathlib import Path

    from session_writer import session_games, write_session

    games = session_games()
    firsts = _establishing(games)
    number = {g: re.search(r'\[Board "([^"]*)"', "\n".join(game.tags)).group(1)
              for g, game in enumerate(games)}
    tmp = tempfile.mkdtemp(prefix="revoke-audit-bench-")
    folder, said = Path(tmp, "club"), os.path.join(tmp, "said.jsonl")
    page = os.path.join(tmp, "page.html")
    folder.mkdir()
    proc = subprocess.Popen([sys.executable, "-m", "revoke_audit", "watch", str(folder),
                             "--jsonl", said, "--no-equity"] + (["--html", page] if html else []),
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    rewrites: set[int] = set()
    sampling = threading.Event()

    def sample() -> None:
        while not sampling.is_set():
            try:
                rewrites.add(os.stat(page).st_ino)
            except OSError:
                pass
            time.sleep(0.005)

    try:
        assert proc.stderr.readline().startswith("watching")
        if html:
            threading.Thread(target=sample, daemon=True).start()
        idle_before = _cpu_share(proc.pid, quiet)
        writes: dict[tuple, float] = {}

        def note(path, table, g, cards):
            key = (str(path), str(table), number[g])
            mode = "shared" if path.name == "shared.pbn" else "own"
            if key not in writes and cards >= firsts.get((mode, g), 99):
                writes[key] = time.time()
            if pace:
                time.sleep(pace)

        started = time.monotonic()
        write_session(folder, tables, games, note)
        took = time.monotonic() - started
        heard = _wait_for(said, len(writes))
        idle_after = _cpu_share(proc.pid, quiet)
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=60)
        sampling.set()
        size = os.path.getsize(page) if os.path.exists(page) else 0
        shutil.rmtree(tmp, ignore_errors=True)
    delays = sorted(heard[k] - t for k, t in writes.items() if k in heard)
    print(f"watch: {tables} tables, {len(games)} boards each, written in {took:.1f} s "
          f"(pace {pace} s a write); {len(delays)} of {len(writes)} revokes announced")
    if delays:
        print(f"  delay from the establishing write to the announcement: median "
              f"{statistics.median(delays) * 1000:.0f} ms, worst {delays[-1] * 1000:.0f} ms")
    print(f"  CPU while nothing changes: {idle_before * 100:.2f}% of a core before the session, "
          f"{idle_after * 100:.2f}% after ({quiet:.0f} s each)")
    if html:
        print(f"  the page (--html): rewritten at least {len(rewrites)} times, "
              f"{size / 1024:.0f} KB at the end")


def _establishing(games) -> dict[tuple[str, int], int]:
    """(mode, game) -> how many cards in the record establish its first revoke: ``own``
    files are written two cards at a time (a trick's line cut short), ``shared`` card by card
    with ``-`` for the cards not yet played."""
    import io

    from revoke_audit.ruling.audit import audit_board
    from revoke_audit.formats import read_stream
    from revoke_audit.ruling.options import AuditOptions

    firsts = {}
    for g, game in enumerate(games):
        for mode, counts, placeholders in (("own", range(2, 53, 2), False),
                                           ("shared", range(1, 53), True)):
            for cards in counts:
                text = game.text(1, cards, placeholders).encode()
                (record,) = read_stream(io.BytesIO(text), "x.pbn", "x.pbn")
                audit = audit_board(record, AuditOptions(equity=False))
                if any(f.code.startswith("RV") and f.established for f in audit.findings):
                    firsts[(mode, g)] = cards
                    break
    return firsts


def _cpu_share(pid: int, seconds: float) -> float:
    """The share of one core process ``pid`` used over the next ``seconds``."""
    def used() -> float:
        with open(f"/proc/{pid}/stat") as fh:
            fields = fh.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    before, t0 = used(), time.monotonic()
    time.sleep(seconds)
    return (used() - before) / (time.monotonic() - t0)


def _wait_for(path: str, count: int, timeout: float = 120) -> dict[tuple, float]:
    """The first announcement time of each revoke in the ``--jsonl`` file, once ``count`` of
    them are there (or ``timeout`` seconds have passed)."""
    import json
    from datetime import datetime

    heard: dict[tuple, float] = {}
    end = time.monotonic() + timeout
    while len(heard) < count and time.monotonic() < end:
        time.sleep(0.05)
        if not os.path.exists(path):
            continue
        with open(path) as fh:
            for line in fh:
                a = json.loads(line)
                if a["kind"] == "new" and a["code"].startswith("RV"):
                    key = (a["source"], str(a["room"]), a["board"])
                    heard.setdefault(key, datetime.fromisoformat(a["time"]).timestamp())
    return heard


def _line(label: str, boards: int, r: Run, base: Run | None) -> None:
    ratio = f"{r.seconds and base.seconds / r.seconds:10.2f}x" if base else f"{'':11}"
    print(f"{label:28}{boards / r.seconds:10.0f}{ratio}{r.seconds:9.2f}{r.rss_mb:7.0f} MB"
          f"{r.cpu:8.2f} cpu s")


def _bench_format(fmt: str, path: str, tmp: str, boards: int, args) -> None:
    # --no-equity at --jobs 1 and 2, and the default audit as a user runs it (its Law 64C
    # figures too: the target, with --revoke-every 400, about a real archive's rate)
    audits = [audit_argv(path, tmp, jobs) for jobs in (1, 2)] + [
        default_audit(audit_command(), path, tmp, 1)]
    if args.no_endplay:
        base, runs = None, best_of_each(audits, args.repeat)
    else:
        base, *runs = best_of_each([[sys.executable, "-c", ENDPLAY[fmt], path]] + audits,
                                   args.repeat)
        _line(f"{fmt.upper()} endplay parse only", boards, base, None)
    for jobs, r in zip((1, 2), runs):
        _line(f"{fmt.upper()} audit --jobs {jobs}", boards, r, base)
    _line(f"{fmt.upper()} default audit", boards, runs[2], base)
    print(f"{fmt.upper()} --jobs 2 against --jobs 1: {runs[0].seconds / runs[1].seconds:.2f}x")
    for out in args.stdout_format:
        r = best(audit_argv(path, tmp, 1, "--format", out), args.repeat)
        _line(f"{fmt.upper()} audit --format {out}", boards, r, base)
    _line(f"{fmt.upper()} audit -o .parquet", boards, best(parquet_argv(path, tmp), args.repeat),
          base)


def _bench_unsplittable(path: str, tmp: str, boards: int, repeat: int) -> None:
    """``--jobs 1`` and ``--jobs 2`` on ``path`` with a ``%`` line after its first game (state
    that may carry on: the file is read whole, by the parent)."""
    whole = os.path.join(tmp, "unsplittable.pbn")
    with open(path, "rb") as src, open(whole, "wb") as dst:
        head = src.read(1 << 20)
        at = head.index(b"\n\n[", head.index(b"[Deal")) + 2
        dst.write(head[:at] + b"%\n" + head[at:])
        shutil.copyfileobj(src, dst)
    runs = best_of_each([audit_argv(whole, tmp, jobs) for jobs in (1, 2)], repeat)
    for jobs, r in zip((1, 2), runs):
        _line(f"PBN unsplittable --jobs {jobs}", boards, r, None)


def _bench_folder(folder: str, tmp: str, repeat: int) -> None:
    from revoke_audit.formats import read_boards

    n = sum(1 for _ in read_boards([folder]))
    runs = best_of_each([audit_argv(folder, tmp, jobs) for jobs in (1, 2)], repeat)
    for jobs, r in zip((1, 2), runs):
        _line(f"folder audit --jobs {jobs}", n, r, None)
    print(f"(folder: {folder}, {n} boards; --jobs 2 against --jobs 1: "
          f"{runs[0].seconds / runs[1].seconds:.2f}x)")


def _bench_html(path: str, tmp: str, repeat: int, label: str) -> None:
    """The run with ``--html`` against the same without, the page's size and what it holds,
    and (with Chromium installed) the seconds a browser takes to open and render it."""
    page = os.path.join(tmp, "page.html")
    plain, html = best_of_each([audit_argv(path, tmp, 1), audit_argv(path, tmp, 1, "--html", page)],
                               repeat)
    with open(page, encoding="utf-8") as fh:
        text = fh.read()
    sections = text.count('<section class="board"')
    errors = text.count('<td class="code">RC')
    print(f"{label} --html: {html.seconds:.2f} s against {plain.seconds:.2f} s without "
          f"(+{html.seconds - plain.seconds:.2f} s), peak RSS {html.rss_mb:.0f} MB against "
          f"{plain.rss_mb:.0f} MB; page "
          f"{os.path.getsize(page) / 1e6:.2f} MB, {sections} boards in full, {errors} record "
          "error rows")
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser is None:
        print("(no Chromium: the page's opening is not timed)")
        return
    empty = os.path.join(tmp, "empty.html")
    with open(empty, "w") as fh:
        fh.write("<!DOCTYPE html><title>empty</title><p>empty</p>")
    opened, blank = [min(_open_seconds(browser, p, tmp) for _ in range(max(repeat, 2)))
                     for p in (page, empty)]
    print(f"{label} page opened and rendered by headless Chromium in {opened:.2f} s (an empty "
          f"page: {blank:.2f} s; the page's own cost {opened - blank:.2f} s)")


def _open_seconds(browser: str, page: str, tmp: str) -> float:
    """Wall seconds for headless Chromium to load ``page`` and write a screenshot of it."""
    profile = tempfile.mkdtemp(dir=tmp)
    argv = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
            "--no-first-run", "--disable-background-networking", "--disable-component-update",
            "--disable-sync", f"--user-data-dir={profile}", "--window-size=1200,1600",
            f"--screenshot={os.path.join(tmp, 'shot.png')}", "file://" + os.path.abspath(page)]
    t0 = time.perf_counter()
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True,
                   timeout=300)
    return time.perf_counter() - t0


def write_log(path: str, rows: int) -> str:
    """A director's log of ``rows`` rows naming boards 1-36 of 100 files not in the input."""
    with open(path, "w") as fh:
        fh.write("source,event,board,room,trick,seat,fact,value\n")
        for i in range(rows):
            fh.write(f"s{i % 100}.pbn,,{i % 36 + 1},,{i % 13 + 1},{'NESW'[i % 4]},penalty-card,"
                     f"{'SHDC'[i % 4]}{i % 9 + 2} major\n")
    return path


def _bench_log(path: str, tmp: str, boards: int, repeat: int) -> None:
    small = write_log(os.path.join(tmp, "log10k.csv"), 10_000)
    none, with_log = best_of_each([audit_argv(path, tmp, 1),
                                   audit_argv(path, tmp, 1, "--table-facts", small)], repeat)
    _line("PBN audit, no log", boards, none, None)
    _line("PBN audit, 10,000-row log", boards, with_log, None)
    print(f"a 10,000-row log that names no board against none: "
          f"{with_log.seconds / none.seconds:.2f}x")
    big = write_log(os.path.join(tmp, "log1m.csv"), 1_000_000)
    r = run(audit_argv(path, tmp, 1, "--table-facts", big))
    print(f"a 1,000,000-row log (as many RC040 findings): {r.seconds:.1f} s, peak RSS "
          f"{r.rss_mb:.0f} MB")


def write_fields(path: str, out: str, seed: int) -> str:
    """``path`` with its board numbers in runs of 10 to 20 (one event): each board a field of
    that many results to score, the rest of the file as it is."""
    rnd = random.Random(seed)
    number, left = 0, 0
    with open(path) as src, open(out, "w") as dst:
        for line in src:
            if line.startswith('[Board "'):
                if not left:
                    number, left = number + 1, rnd.randint(10, 20)
                left -= 1
                line = f'[Board "{number}"]\n'
            dst.write(line)
    return out


#: The audit with rescoring switched off (no record's field tags read, the fields neither
#: gathered nor scored): the reference the cost of rescoring is measured against.
NO_RESCORING = """import sys
from revoke_audit.scoring import rescore
from revoke_audit.reports import gather, rows
from revoke_audit.engine.lane import pbn
rows.field_tags = pbn.field_tags = lambda tags, score_table=(): None
gather.noted = lambda fields, rendered: rendered
rescore.Fields.score = lambda self: rescore.Scored(rescore.Figures(self._store), [],
                                                   rescore.Results(self._store, self.entry))
from revoke_audit.__main__ import main
sys.argv[0] = "revoke-audit"
sys.exit(main())
"""


def _bench_fields(path: str, tmp: str, boards: int, repeat: int, seed: int) -> None:
    """Rescoring's cost: the PBN audit of the same boards in fields of 10 to 20 results
    against the same run with rescoring switched off (``NO_RESCORING``; aim: under 1.2x), and
    the file as generated (no board played twice: no field, only the gathering) against the
    same; with their peak RSS."""
    fields = write_fields(path, os.path.join(tmp, "fields.pbn"), seed)
    args = audit_argv(fields, tmp, 1)[len(audit_command()):]
    off, plain_off = [[sys.executable, "-c", NO_RESCORING, *a]
                      for a in (args, audit_argv(path, tmp, 1)[len(audit_command()):])]
    base, scored, plain_base, plain = best_of_each(
        [off, audit_argv(fields, tmp, 1), plain_off, audit_argv(path, tmp, 1)], repeat)
    _line("PBN fields, no rescoring", boards, base, None)
    _line("PBN fields of 10-20", boards, scored, None)
    _line("PBN no field, no rescoring", boards, plain_base, None)
    _line("PBN no field", boards, plain, None)
    print(f"rescoring fields of 10-20 results against no rescoring: "
          f"{scored.seconds / base.seconds:.2f}x, peak RSS {scored.rss_mb:.0f} MB against "
          f"{base.rss_mb:.0f} MB; with no field (the gathering alone): "
          f"{plain.seconds / plain_base.seconds:.2f}x, {plain.rss_mb:.0f} MB against "
          f"{plain_base.rss_mb:.0f} MB")


if __name__ == "__main__":
    main()
