#!/usr/bin/env python3
"""Fuzz the whole command: damaged copies of the files in fixtures/ (bytes overwritten,
inserted, deleted, lines shuffled, files cut short, some gzipped, zipped or in a tar, hostile
characters and bytes that are not UTF-8 in the names of files and of archive members, zip
members under the UTF-8 flag or not, tar links and FIFOs), audited by the real ``revoke-audit``
process in every output format.

    .venv/bin/python scripts/fuzz_cli.py [--files 3000] [--seed 1] [--jobs 2]

Checks, for each run: no traceback on stderr, an exit code in {0, 1, 2, 130, 143}, every input
file has at least one row in boards.csv, and stdout CSV is byte for byte the boards.csv file;
the baseline the json run writes names only sources of boards.csv, and a run against it exits 0.
The test suite runs a few hundred inputs with a fixed seed (tests/test_cli_fuzz.py); this script
runs as many as asked.  Exit code 0 when every check passed."""
from __future__ import annotations

import argparse
import csv
import gzip
import io
import json
import os
import random
import struct
import subprocess
import sys
import tarfile
import time
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "fixtures"
FORMATS = ("text", "csv", "json", "jsonl", "github", "sarif")
EXIT_CODES = {0, 1, 2, 130, 143}
NAME_NOISE = ["", "", "", " ", ",", ":", "%", "=", "\n", "'", '"', "#", "?", "\t", "%0A", "::",
              "\udcff", "\udce9t\udce9", "\udcc3", "\x1b]0;x\x07"]  # bytes not UTF-8: os.fsdecode
BYTE_NOISE = [b"\x00", b"\n", b"\r", b"\r\n", b"|", b"[", b"]", b'"', b"=", b"\xff", b"\xc3",
              b"%", b"^R", b"pc|", b"mc|", b"{", b"}", b"*", b"-", b"\x1b", b"\xef\xbb\xbf"]


def samples() -> list[Path]:
    """Every hand record in fixtures/, sorted (the seed alone decides what is built)."""
    return sorted(p for p in FIXTURES.rglob("*") if p.is_file() and p.suffix in (".pbn", ".lin"))


def damage(data: bytes, rnd: random.Random) -> bytes:
    """One to six random edits of ``data``."""
    buf = bytearray(data)
    for _ in range(rnd.randint(1, 6)):
        i = rnd.randrange(len(buf) + 1)
        kind = rnd.randrange(7)
        blob = rnd.choice(BYTE_NOISE) if rnd.random() < 0.7 else rnd.randbytes(rnd.randint(1, 8))
        if kind == 0:
            buf[i:i + len(blob)] = blob  # overwrite
        elif kind == 1:
            buf[i:i] = blob  # insert
        elif kind == 2:
            del buf[i:i + rnd.randint(1, 200)]  # delete a run
        elif kind == 3:
            del buf[i:]  # cut short
        elif kind == 4:
            j = rnd.randrange(len(buf) + 1)
            buf[j:j] = buf[i:i + rnd.randint(1, 300)]  # repeat a slice elsewhere
        elif kind == 5:
            lines = bytes(buf).split(b"\n")
            rnd.shuffle(lines)  # lines out of order
            buf = bytearray(b"\n".join(lines))
        else:
            buf = buf.swapcase() if rnd.random() < 0.5 else buf.replace(b"\n", b"\r")
    return bytes(buf)


def raw_names(data: bytes, names: dict[str, bytes], flag: bool) -> bytes:
    """A zip with the members named by the keys of ``names`` (placeholders, as long as their
    values) renamed to those bytes, in their own headers and in the central directory, and
    marked UTF-8 (``flag``, bit 11) or not, whatever the bytes are."""
    buf = bytearray(data)
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        pos, offsets = zf.start_dir, [i.header_offset for i in zf.infolist()]
    for off in offsets:
        n = struct.unpack_from("<H", buf, off + 26)[0]
        name = bytes(buf[off + 30:off + 30 + n]).decode()
        if name in names:
            buf[off + 30:off + 30 + n] = names[name]
            buf[off + 7] = buf[off + 7] | 0x08 if flag else buf[off + 7] & ~0x08
    while buf[pos:pos + 4] == b"PK\x01\x02":
        n, m, k = struct.unpack_from("<HHH", buf, pos + 28)
        name = bytes(buf[pos + 46:pos + 46 + n]).decode()
        if name in names:
            buf[pos + 46:pos + 46 + n] = names[name]
            buf[pos + 9] = buf[pos + 9] | 0x08 if flag else buf[pos + 9] & ~0x08
        pos += 46 + n + m + k
    return bytes(buf)


def write_zip(path: Path, members: list[tuple[str, bytes]], rnd: random.Random) -> None:
    """A zip of ``members``; a name that is not UTF-8 is written as its bytes, under the
    UTF-8 flag or not."""
    raw: dict[str, bytes] = {}
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for i, (name, data) in enumerate(members):
            try:
                name.encode("utf-8")
            except UnicodeEncodeError:  # a stand-in as long as its bytes, renamed below
                encoded = os.fsencode(name)
                name = f"{i:0{len(encoded)}d}"
                raw[name] = encoded
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))  # not the clock:
            info.external_attr = 0o600 << 16  # a seed gives the same bytes whenever it runs
            zf.writestr(info, data)
    path.write_bytes(raw_names(buf.getvalue(), raw, rnd.random() < 0.5))


def write_tar(path: Path, members: list[tuple[str, bytes]], rnd: random.Random) -> None:
    """A tar (sometimes gzipped) of ``members`` (names as their bytes), and now and then a
    symbolic link, a hard link or a FIFO (each gets its PS010 row)."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.GNU_FORMAT,
                      encoding="utf-8", errors="surrogateescape") as tf:
        for name, data in members:
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tf.addfile(info, io.BytesIO(data))
        if rnd.random() < 0.3:
            info = tarfile.TarInfo(f"odd{rnd.choice(NAME_NOISE)}.pbn")
            info.type = rnd.choice([tarfile.SYMTYPE, tarfile.LNKTYPE, tarfile.FIFOTYPE])
            info.linkname = members[0][0]
            tf.addfile(info)
    data = buf.getvalue()
    path.write_bytes(gzip.compress(data, mtime=0) if rnd.random() < 0.3 else data)


def make_inputs(folder: Path, count: int, seed: int) -> list[Path]:
    """``count`` damaged files in ``folder``; about one in eight gzipped, one in eight a zip,
    one in eight a tar."""
    rnd = random.Random(seed)
    pool = [(p.suffix, p.read_bytes()) for p in samples()]
    folder.mkdir(parents=True, exist_ok=True)
    made = []
    for n in range(count):
        suffix, data = rnd.choice(pool)
        data = damage(data, rnd)
        name = f"{n:05d}{rnd.choice(NAME_NOISE)}{rnd.choice(NAME_NOISE)}x{suffix}"
        kind = rnd.randrange(8)
        members = [(f"a{rnd.choice(NAME_NOISE)}{suffix}", data)]
        if kind in (1, 2) and rnd.random() < 0.5:
            members.append((f"b{suffix}", damage(data, rnd)))
        if kind == 0:
            path = folder / (name + ".gz")
            path.write_bytes(gzip.compress(data, mtime=0))
        elif kind == 1:
            path = folder / (name + ".zip")
            write_zip(path, members, rnd)
        elif kind == 2:
            path = folder / (name + ".tar")
            write_tar(path, members, rnd)
        else:
            path = folder / name
            path.write_bytes(data)
        made.append(path)
    return made


@dataclass
class Outcome:
    runs: int = 0
    boards: int = 0
    failures: list[str] = field(default_factory=list)


def run_cli(args: list[str], cwd: Path, timeout: float = 900) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "revoke_audit.cli", *args], cwd=cwd,
                          capture_output=True, timeout=timeout, stdin=subprocess.DEVNULL)


def check(folder: Path, files: list[Path], formats=FORMATS, jobs: int = 1) -> Outcome:
    """Audit ``folder`` once per format; every check of the module docstring."""
    from revoke_audit.report import safe_cell

    out = Outcome()
    work = folder.parent
    for fmt in formats:
        baseline = ["--write-baseline", "baseline.json"] if fmt == "json" else []
        done = run_cli(["audit", folder.name, "--format", fmt, "--jobs", str(jobs),
                        "-o", "boards.csv", "--findings", "findings.csv", *baseline], work)
        out.runs += 1
        err = done.stderr.decode("utf-8", "replace")
        if done.returncode not in EXIT_CODES:
            out.failures.append(f"--format {fmt}: exit code {done.returncode}")
        if "Traceback" in err or "Error:" in err:
            out.failures.append(f"--format {fmt}: stderr {err[-2000:]!r}")
        boards_csv = (work / "boards.csv").read_bytes()
        if fmt == "csv" and done.stdout != boards_csv:
            out.failures.append("--format csv: stdout differs from boards.csv")
        rows = list(csv.DictReader(io.StringIO(boards_csv.decode("utf-8"))))
        out.boards = len(rows)
        sources = {r["source"] for r in rows}
        for path in files:
            name = str(safe_cell(f"{folder.name}/{path.name}"))
            if name not in sources and not any(s.startswith(name + "!") for s in sources):
                out.failures.append(f"--format {fmt}: no row for {name!r}")
        if baseline:
            out.failures += _baseline_failures(folder, sources, jobs)
    return out


def _baseline_failures(folder: Path, sources: set[str], jobs: int) -> list[str]:
    """The baseline written names only sources of boards.csv, and knows every finding."""
    work = folder.parent
    if not (work / "baseline.json").exists():
        return ["--write-baseline: no baseline written"]
    from revoke_audit.report import safe_cell

    known = {str(safe_cell(e["source"]))  # as the CSV shows it: control characters escaped
             for e in json.loads((work / "baseline.json").read_text())["findings"]}
    failures = [f"--write-baseline: source {s!r} not in boards.csv"
                for s in sorted(known - sources)]
    done = run_cli(["audit", folder.name, "--baseline", "baseline.json", "-q",
                    "--jobs", str(jobs), "--fail-on", "any"], work)
    if done.returncode != 0:
        failures.append(f"--baseline: exit code {done.returncode}: "
                        f"{done.stderr.decode('utf-8', 'replace')[-500:]!r}")
    return failures


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--files", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--work", type=Path, help="folder to build the inputs in (default: a temp folder)")
    args = ap.parse_args()
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        work = args.work or Path(tmp)
        t0 = time.perf_counter()
        files = make_inputs(work / "in", args.files, args.seed)
        outcome = check(work / "in", files, jobs=args.jobs)
        took = time.perf_counter() - t0
    print(f"{len(files)} damaged files, {outcome.boards} boards, {outcome.runs} runs "
          f"({', '.join(FORMATS)}), {took:.1f} s: {len(outcome.failures)} failures")
    for failure in outcome.failures[:50]:
        print("  " + failure)
    return 1 if outcome.failures else 0


if __name__ == "__main__":
    sys.exit(main())
