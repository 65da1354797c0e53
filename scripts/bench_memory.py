#!/usr/bin/env python3
"""Peak memory against the number of boards: is it flat?

    .venv/bin/python scripts/bench_memory.py [--sizes 200000 1000000] [--against main]

Generated PBN boards (``bench.py``'s: random deals and plays, one board in 400 with a revoke)
with their board numbers in runs of 10 to 20 (``bench.write_fields``: every board a field to
score), at each size (the first 200,000 boards repeated, renumbered), through three
single-process audits (``--jobs 1 --no-equity``, the solver's cost being per revoke, not per
board): boards.csv, findings.csv and --standings; ``--format json`` to stdout; ``--format
jsonl`` to stdout.  Prints each run's seconds and peak RSS (the aim: at most 100 MB, and the
same at every size).  ``--against REV``: the same runs of REV (built as ``bench.py --against``
builds it), interleaved with ours, and the ratio of the times.
"""
from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile

import bench


def _files(tmp: str, sizes: list[int], seed: int) -> dict[int, str]:
    """A generated PBN file of each size in fields of 10 to 20."""
    base_size = min(200_000, min(sizes))
    base = bench.write_files(tmp, base_size, seed)["pbn"]
    out = {}
    for size in sizes:
        whole = os.path.join(tmp, f"whole-{size}.pbn")
        with open(whole, "w") as dst:
            for _ in range(size // base_size):
                with open(base) as src:
                    shutil.copyfileobj(src, dst)
        out[size] = bench.write_fields(whole, os.path.join(tmp, f"fields-{size}.pbn"), seed)
        os.remove(whole)
    return out


def _argvs(command: list[str], path: str, folder: str) -> dict[str, list[str]]:
    """The three audits of ``path``, their reports in ``folder``."""
    os.makedirs(folder, exist_ok=True)
    audit = command + ["audit", path, "--jobs", "1", "--no-equity", "-q"]
    return {
        "csv + standings": audit + ["-o", os.path.join(folder, "boards.csv"), "--findings",
                                    os.path.join(folder, "findings.csv"), "--standings",
                                    os.path.join(folder, "standings.csv")],
        "--format json": audit + ["--format", "json"],
        "--format jsonl": audit + ["--format", "jsonl"],
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--sizes", type=int, nargs="+", default=[200_000, 1_000_000])
    ap.add_argument("--against", metavar="REV", help="also REV's runs, interleaved")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    bench.REVOKE_EVERY = 400
    tmp = tempfile.mkdtemp(prefix="revoke-audit-memory-")
    try:
        files = _files(tmp, args.sizes, args.seed)
        bench.compile_package()
        theirs = None
        if args.against:
            commit, theirs = bench.build_revision(args.against, os.path.join(tmp, "rev"))
            print(f"against {commit}")
        print(f"{'':34}{'seconds':>9}{'peak RSS':>10}" + (
            f"{'theirs s':>10}{'MB':>6}{'speed':>7}" if theirs else ""))
        for size, path in files.items():
            ours = _argvs(bench.audit_command(), path, os.path.join(tmp, "ours"))
            other = _argvs(theirs, path, os.path.join(tmp, "theirs")) if theirs else {}
            for label, argv in ours.items():
                if theirs:
                    them, us = bench.best_of_each([other[label], argv], 1)
                    print(f"{size:>9,} boards {label:17}{us.seconds:9.1f}{us.rss_mb:7.0f} MB"
                          f"{them.seconds:10.1f}{them.rss_mb:6.0f}"
                          f"{them.seconds / us.seconds:6.2f}x", flush=True)
                else:
                    us = bench.run(argv)
                    print(f"{size:>9,} boards {label:17}{us.seconds:9.1f}{us.rss_mb:7.0f} MB",
                          flush=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
