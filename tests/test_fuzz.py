"""No input can crash the audit: mutated real-shaped records go through read -> replay -> rule
-> report without an exception or an internal-error finding."""
import io
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from revoke_audit.ruling.audit import audit_board
from revoke_audit.reports.rows import board_row
from revoke_audit.formats import read_stream
from revoke_audit.reports.rows import finding_row

SESSION = Path(__file__).resolve().parents[1] / "fixtures" / "mixed"
SAMPLES = [(SESSION / "thursday-pairs.pbn").read_bytes(), (SESSION / "thursday-pairs-bbo.lin").read_bytes()]


def audit_bytes(data: bytes) -> list:
    out = []
    for record in read_stream(io.BytesIO(data), "fuzz", "fuzz"):
        a = audit_board(record)
        board_row(a)
        for f in a.findings:
            finding_row(a, f)
        assert not [f for f in a.findings if f.code in ("RC099", "PS123", "PS211")], a.findings
        out.append(a)
    return out


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sample=st.sampled_from(SAMPLES), edits=st.lists(
    st.tuples(st.floats(0, 1), st.integers(0, 3), st.binary(min_size=0, max_size=4)), max_size=6))
def test_mutated_records_never_crash(sample, edits):
    data = bytearray(sample)
    for where, kind, blob in edits:
        i = int(where * len(data))
        if kind == 0:
            data[i:i + len(blob)] = blob  # overwrite
        elif kind == 1:
            data[i:i] = blob  # insert
        elif kind == 2:
            del data[i:i + 1 + len(blob) * 7]  # delete a run
        else:
            data = data[:i]  # truncate
    assert len(audit_bytes(bytes(data))) >= 1


@settings(max_examples=100, deadline=None)
@given(st.binary(max_size=2000))
def test_random_bytes_never_crash(data):
    audit_bytes(data)
