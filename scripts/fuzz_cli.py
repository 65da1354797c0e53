#!/usr/bin/env python3
"""Fuzz the whole command: damaged copies of the files in fixtures/ (bytes overwritten,
inserted, deleted, lines shuffled, files cut short, some gzipped, zipped or in a tar, hostile
characters and bytes that are not UTF-8 in the names of files and of archive members, zip
members under the UTF-8 flag or not, tar links and FIFOs), and hostile content on top
(``HOSTILE``: UTF-16/32 with a byte-order mark, some broken; ScoreTables with odd
Multiplicities; numbers of thousands of digits; games longer than the 5,000-line limit; gzip
bombs), with a FIFO and a link to /dev/zero in the folder, run through the real
``revoke-audit`` process: ``audit`` in every output format, then (``check_commands``) ``audit``
with ``--html``, ``--standings``, ``--scoring``, ``--table-facts`` and ``--config``, ``fix``
(and ``fix --write`` on a copy), ``explain`` (text and ``--html``) of a sample of the files,
and ``watch`` (``--jsonl``, ``--html``, ended by ``--idle``).

    .venv/bin/python scripts/fuzz_cli.py [--files 3000] [--seed 1] [--jobs 2]

Checks, for each run: no traceback and no ``internal error`` on stderr, an exit code in
{0, 1, 2, 130, 143} (2 only with a message of its own), every input file has at least one row
in boards.csv, and stdout CSV is byte for byte the boards.csv file; every report is removed
before each run, so a run that writes none is seen (never a stale one read); the baseline the
json run writes names only sources of boards.csv, and a run against it exits 0.  The test suite
runs a few hundred inputs with a fixed seed (tests/test_cli_fuzz.py); this script runs as many
as asked.  Exit code 0 when every check passed."""
from __future__ import annotations

import argparse
import codecs
import csv
import re
import shutil
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
from collections import Counter
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


HOSTILE = ("utf16", "utf32", "scoretable", "digits", "oversized", "bomb")
MULTIPLICITIES = ["0", "-3", "1", "2", "1000000000000", "1e3", "9" * 5000, "x", ""]
DIGITS = "7" * 5000
_BOMB: list[bytes] = []


def hostile(data: bytes, suffix: str, rnd: random.Random, kind: str | None = None
            ) -> tuple[str, bytes]:
    """One kind of hostile content (``HOSTILE``; ``kind`` when given) made of ``data``: its
    kind and bytes."""
    kind = kind or rnd.choice(HOSTILE)
    text = data.decode("utf-8", "surrogateescape")
    if kind in ("utf16", "utf32"):
        codec = f"{kind[:3]}-{kind[3:]}-{rnd.choice(['le', 'be'])}"
        bom = {"utf-16-le": codecs.BOM_UTF16_LE, "utf-16-be": codecs.BOM_UTF16_BE,
               "utf-32-le": codecs.BOM_UTF32_LE, "utf-32-be": codecs.BOM_UTF32_BE}[codec]
        out = bom + data.decode("utf-8", "replace").encode(codec)
        broken = rnd.randrange(4)
        if broken == 1:
            out = out[:-1]  # an odd length
        elif broken == 2 and kind == "utf16":  # a lone surrogate
            out += b"\x00\xd8" if codec.endswith("le") else b"\xd8\x00"
        return kind, out
    if kind == "scoretable" and suffix == ".pbn":
        rows = "".join(f"{rnd.choice(['430', '400', '-50', DIGITS[:rnd.choice([3, 4400])]])} "
                       f"{rnd.choice(MULTIPLICITIES)}\n" for _ in range(rnd.randint(1, 4)))
        table = f'[ScoreTable "Score_NS\\5R;Multiplicity\\10R"]\n{rows}'
        at = text.find("[Auction")
        at = at if at >= 0 else len(text)
        return kind, (text[:at] + table + text[at:]).encode("utf-8", "surrogateescape")
    if kind == "oversized":
        pad = "".join(f"% padding {i}\n" for i in range(5100))
        at = text.find("[Play" if suffix == ".pbn" else "pc|")
        at = at if at >= 0 else len(text) // 2
        if suffix == ".lin":
            pad = pad.replace("% padding", "nt|padding").replace("\n", "|\n")
        return kind, (text[:at] + pad + text[at:]).encode("utf-8", "surrogateescape")
    if kind == "bomb":
        if not _BOMB:  # 64 MiB of spaces in about 64 KB: past the ratio limit (PS014)
            _BOMB.append(gzip.compress(b" " * (64 << 20), compresslevel=9, mtime=0))
        return kind, _BOMB[0]
    # numbers of thousands of digits in the values that hold numbers
    pattern = (r'\[(Result|Board|Score|Round|Table|Date) "[^"]*"\]' if suffix == ".pbn"
               else r"(rs|mc|sv|qx|mb|ah|md)\|[^|]*\|")
    found = list(re.finditer(pattern, text))
    if not found:
        return "digits", (DIGITS + text).encode("utf-8", "surrogateescape")
    m = rnd.choice(found)
    value = (f'[{m.group(1)} "{DIGITS}"]' if suffix == ".pbn" else f"{m.group(1)}|{DIGITS}|")
    return "digits", (text[:m.start()] + value + text[m.end():]).encode("utf-8",
                                                                         "surrogateescape")


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


def make_inputs(folder: Path, count: int, seed: int, kinds: dict[str, str] | None = None
                ) -> list[Path]:
    """``count`` damaged files in ``folder``; about one in eight gzipped, one in eight a zip,
    one in eight a tar; one in five also hostile (``hostile``: ``kinds`` is told each such
    file's kind, by name), the first of them one of each kind in turn, made of a PBN sample
    (so a few files hold every kind whatever the samples are).  A FIFO and a link to /dev/zero beside them (not among those
    returned: no row is due for them)."""
    rnd = random.Random(seed)
    pool = [(p.suffix, p.read_bytes()) for p in samples()]
    folder.mkdir(parents=True, exist_ok=True)
    pbn = [item for item in pool if item[0] == ".pbn"]
    made = []
    for n in range(count):
        suffix, data = rnd.choice(pool if n >= len(HOSTILE) else pbn)
        data = damage(data, rnd)
        content = None
        if n < len(HOSTILE):
            content, data = hostile(data, suffix, rnd, HOSTILE[n])
        elif rnd.random() < 0.2:
            content, data = hostile(data, suffix, rnd)
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
        if content is not None and kinds is not None:
            kinds[path.name] = content
    if hasattr(os, "mkfifo") and not (folder / "zz-pipe.pbn").exists():
        os.mkfifo(folder / "zz-pipe.pbn")
        (folder / "zz-zero.pbn").symlink_to("/dev/zero")
    return made


@dataclass
class Outcome:
    runs: int = 0
    boards: int = 0
    failures: list[str] = field(default_factory=list)


def run_cli(args: list[str], cwd: Path, timeout: float = 900) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "revoke_audit.cli.commands", *args], cwd=cwd,
                          capture_output=True, timeout=timeout, stdin=subprocess.DEVNULL)


def check(folder: Path, files: list[Path], formats=FORMATS, jobs: int = 1) -> Outcome:
    """Audit ``folder`` once per format; every check of the module docstring."""
    from revoke_audit.reports.report import safe_cell

    out = Outcome()
    work = folder.parent
    for fmt in formats:
        baseline = ["--write-baseline", "baseline.json"] if fmt == "json" else []
        _clear(work)
        done = run_cli(["audit", folder.name, "--format", fmt, "--jobs", str(jobs),
                        "-o", "boards.csv", "--findings", "findings.csv", *baseline], work)
        out.runs += 1
        err = done.stderr.decode("utf-8", "replace")
        if done.returncode not in EXIT_CODES:
            out.failures.append(f"--format {fmt}: exit code {done.returncode}")
        if "Traceback" in err or "Error:" in err or INTERNAL in err:
            out.failures.append(f"--format {fmt}: stderr {err[-2000:]!r}")
        if not (work / "boards.csv").exists():
            out.failures.append(f"--format {fmt}: no boards.csv written (exit code "
                                f"{done.returncode})")
            continue
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


INTERNAL = "internal error"
REPORTS = ("boards.csv", "findings.csv", "baseline.json", "page.html", "standings.csv",
           "watch.jsonl", "watch.html", "explain.html")


def _clear(work: Path) -> None:
    """Every report of an earlier run removed: a run that writes none is seen as such."""
    for name in REPORTS:
        (work / name).unlink(missing_ok=True)


def _rows_for_every_file(work: Path, folder: Path, files: list[Path], what: str) -> list[str]:
    from revoke_audit.reports.report import safe_cell

    if not (work / "boards.csv").exists():
        return [f"{what}: no boards.csv written"]
    rows = list(csv.DictReader(io.StringIO((work / "boards.csv").read_text("utf-8"))))
    sources = {r["source"] for r in rows}
    missing = [str(safe_cell(f"{folder.name}/{p.name}")) for p in files]
    missing = [n for n in missing
               if n not in sources and not any(s.startswith(n + "!") for s in sources)]
    return [f"{what}: no row for {n!r}" for n in missing]


def _stderr_failures(done: subprocess.CompletedProcess, what: str,
                     codes: set[int] = EXIT_CODES) -> list[str]:
    err = done.stderr.decode("utf-8", "replace")
    failures = []
    if done.returncode not in codes:
        failures.append(f"{what}: exit code {done.returncode}: {err[-500:]!r}")
    if "Traceback" in err or INTERNAL in err:
        failures.append(f"{what}: stderr {err[-2000:]!r}")
    return failures


LOG = ("source,event,board,room,trick,seat,fact,value,note\n"
       ",,1,,,,discovered,table,\"=HYPERLINK(\"\"x\"\")\"\n"
       ",,2,,1,E,penalty-card,C6 major,\x1b]0;x\x07\n"
       ",,3,,2,E,lead-forbidden,S,\n"
       ",,4,,0,E,lead-required,S,\n")
HOSTILE_LOG = LOG + f",,{DIGITS},,{DIGITS},N,penalty-card,SA major,\n"
CONFIG = 'laws = "auto"\nmax-ratio = 50\nmax-archive-boards = 20000\nselect = ["RV", "DT", "PS"]\n'


def check_commands(folder: Path, files: list[Path], jobs: int = 1, explain: int = 40,
                   kinds: dict[str, str] | None = None) -> Outcome:
    """The commands and options beyond the six formats: ``audit`` with the page, standings,
    the scorings, a director's log and a settings file; ``fix`` and ``fix --write`` (on a
    copy); ``explain`` of ``explain`` files spread over the list; ``watch`` to its idle end."""
    out = Outcome()
    work = folder.parent
    (work / "log.csv").write_text(LOG, encoding="utf-8")
    (work / "hostile-log.csv").write_text(HOSTILE_LOG, encoding="utf-8")
    (work / "fuzz.toml").write_text(CONFIG, encoding="utf-8")
    audits = [
        ["--html", "page.html", "--standings", "standings.csv", "--scoring", "cross-imp",
         "--table-facts", "log.csv"],
        ["--config", "fuzz.toml", "--scoring", "butler", "--discovered", "table",
         "--html", "page.html", "--format", "json"],
        ["--scoring", "mp", "--standings", "standings.csv", "--table-facts",
         "hostile-log.csv"],
    ]
    for extra in audits:
        _clear(work)
        what = "audit " + " ".join(extra)
        done = run_cli(["audit", folder.name, "--jobs", str(jobs), "-o", "boards.csv",
                        "--findings", "findings.csv", *extra], work)
        out.runs += 1
        out.failures += _stderr_failures(done, what)
        if "hostile-log.csv" in extra and done.returncode == 2:
            continue  # the log refused, with its own one-line message: no reports due
        out.failures += _rows_for_every_file(work, folder, files, what)
        for name in ("page.html", "standings.csv"):
            if name in extra and not (work / name).exists():
                out.failures.append(f"{what}: no {name} written")
    done = run_cli(["fix", folder.name], work)
    out.runs += 1
    out.failures += _stderr_failures(done, "fix", {0, 1})
    copy = work / "mended"
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(folder, copy, symlinks=True, ignore=shutil.ignore_patterns("zz-pipe.pbn"))
    if hasattr(os, "mkfifo"):
        os.mkfifo(copy / "zz-pipe.pbn")
    done = run_cli(["fix", "--write", copy.name], work)
    out.runs += 1
    out.failures += _stderr_failures(done, "fix --write", {0, 1})
    shutil.rmtree(copy, ignore_errors=True)
    step = max(1, len(files) // max(1, explain))
    for i, path in enumerate(files[::step][:explain]):
        _clear(work)
        html = ["--html", "explain.html"] if i % 2 else []
        which = ["--game", "1"] if i % 3 else ["--board", "1"]
        done = run_cli(["explain", f"{folder.name}/{path.name}", *which, *html], work)
        out.runs += 1
        kind = f" ({kinds[path.name]})" if kinds and path.name in kinds else ""
        out.failures += _stderr_failures(done, f"explain {path.name!r}{kind}", {0, 1, 2})
    _clear(work)
    done = run_cli(["watch", folder.name, "--idle", "0.5", "--no-equity", "--jsonl",
                    "watch.jsonl", "--html", "watch.html"], work)
    out.runs += 1
    out.failures += _stderr_failures(done, "watch", {0})
    for name in ("watch.jsonl", "watch.html"):
        if not (work / name).exists():
            out.failures.append(f"watch: no {name} written")
    if (work / "watch.jsonl").exists():
        for n, line in enumerate((work / "watch.jsonl").read_text("utf-8").splitlines(), 1):
            try:
                json.loads(line)
            except ValueError:
                out.failures.append(f"watch: watch.jsonl line {n} is not JSON")
                break
    return out


def _baseline_failures(folder: Path, sources: set[str], jobs: int) -> list[str]:
    """The baseline written names only sources of boards.csv, and knows every finding."""
    work = folder.parent
    if not (work / "baseline.json").exists():
        return ["--write-baseline: no baseline written"]
    from revoke_audit.reports.report import safe_cell

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
    ap.add_argument("--explain", type=int, default=200, help="files explained (a process each)")
    ap.add_argument("--work", type=Path, help="folder to build the inputs in (default: a temp folder)")
    args = ap.parse_args()
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        work = args.work or Path(tmp)
        t0 = time.perf_counter()
        kinds: dict[str, str] = {}
        files = make_inputs(work / "in", args.files, args.seed, kinds)
        outcome = check(work / "in", files, jobs=args.jobs)
        more = check_commands(work / "in", files, jobs=args.jobs, explain=args.explain,
                              kinds=kinds)
        took = time.perf_counter() - t0
    failures = outcome.failures + more.failures
    print(f"{len(files)} damaged files ({len(kinds)} hostile: "
          f"{', '.join(f'{k} {n}' for k, n in sorted(Counter(kinds.values()).items()))}), "
          f"{outcome.boards} boards, {outcome.runs + more.runs} runs ({', '.join(FORMATS)}; "
          f"audit with the page, standings, scorings, logs and settings; fix; explain; watch), "
          f"{took:.1f} s: {len(failures)} failures")
    for failure in failures[:100]:
        print("  " + failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
