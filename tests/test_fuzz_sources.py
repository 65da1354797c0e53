"""Damaged inputs of every kind the sources layer opens - plain, gzip, zip, tar, UTF-16, CR line
ends - made from the fixtures with a fixed seed: reading never raises, every source named gets
at least one row, and no board hits an internal error."""
import gzip
import io
import random
import tarfile
import zipfile
from pathlib import Path

from revoke_audit.ruling.audit import audit_board
from revoke_audit.reports.rows import board_row
from revoke_audit.formats import read_boards
from revoke_audit.reports.rows import finding_row

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
TEXTS = [p.read_bytes() for p in sorted(FIXTURES.rglob("*")) if p.is_file() and p.stat().st_size]
SEED = 20261120
INPUTS = 300
INTERNAL = ("RC099", "PS123", "PS211")


def packed(rng: random.Random, texts: list[bytes]) -> bytes:
    """One or more texts, as they may be stored."""
    how = rng.choice(["plain", "gzip", "zip", "tar", "tgz", "utf16", "cr", "nested"])
    first = texts[0]
    if how == "plain":
        return first
    if how == "gzip":
        return gzip.compress(first)
    if how == "utf16":
        return first.decode("utf-8", "replace").encode("utf-16")
    if how == "cr":
        return first.replace(b"\r\n", b"\n").replace(b"\n", b"\r")
    if how in ("zip", "nested"):
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w", rng.choice([zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED])) as z:
            for i, text in enumerate(texts):
                z.writestr(f"d{i % 2}/m{i}{rng.choice(['.pbn', '.lin', '', '.txt', '.gz'])}", text)
            if how == "nested":
                z.writestr("inner.zip", packed(rng, texts[:1]))
        return buf.getvalue()
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz" if how == "tgz" else "w") as t:
        for i, text in enumerate(texts):
            info = tarfile.TarInfo(f"m{i}.pbn")
            info.size = len(text)
            t.addfile(info, io.BytesIO(text))
    return buf.getvalue()


def damaged(rng: random.Random, data: bytes) -> bytes:
    """``data`` after one to four random injuries."""
    b = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        if not b:
            break
        i = rng.randrange(len(b))
        op = rng.randrange(6)
        if op == 0:
            b[i] ^= 1 << rng.randrange(8)  # flip a bit
        elif op == 1:
            del b[i:]  # cut the end off
        elif op == 2:
            b[i:i] = rng.choice([b"\x00", b"\r", b"\xff\xfe", b"\x1f\x8b", b"PK\x03\x04", b"|",
                                 b"[", b"{", b"\n\n\n", bytes(rng.randrange(256) for _ in range(9))])
        elif op == 3:
            del b[i:i + rng.randint(1, 200)]
        elif op == 4:
            b[i:i] = b[i:i + rng.randint(1, 300)]  # a run repeated
        else:
            b[i:i + 8] = bytes(8)
    return bytes(b)


def test_damaged_inputs_of_every_kind_never_raise_and_each_source_gets_a_row(tmp_path):
    rng = random.Random(SEED)
    paths = []
    for n in range(INPUTS):
        texts = [rng.choice(TEXTS) for _ in range(rng.randint(1, 3))]
        data = damaged(rng, packed(rng, texts)) if n % 10 else packed(rng, texts)
        path = tmp_path / f"in{n:03d}{rng.choice(['.pbn', '.lin', '.zip', '.gz', '.txt', ''])}"
        path.write_bytes(data)
        paths.append(str(path))
    boards = 0
    for path in paths:
        records = list(read_boards(path))
        assert records, path
        assert all(r.source == path or r.source.startswith(path + "!") for r in records)
        for record in records:
            audit = audit_board(record)
            board_row(audit)
            for f in audit.findings:
                finding_row(audit, f)
            assert not [f for f in audit.findings if f.code in INTERNAL], (path, audit.findings)
            boards += not record.unreadable
    assert boards > INPUTS  # the injuries leave most boards readable (435 with this seed)
