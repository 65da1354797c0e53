# Shared set-up for scripts/audit and scripts/test: create .venv and install the project when
# missing or when pyproject.toml or the C accelerators (setup.py, _speedups*.c, _speedups.h)
# changed since the last install.  Sourced, not run.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$ROOT/.venv"
# The extra to install comes from REVOKE_AUDIT_EXTRA, never from positional arguments: a
# sourced file sees its caller's "$@", so `scripts/audit archive/` would leak "archive/" here.
EXTRA="${REVOKE_AUDIT_EXTRA:-}"
PY="${PYTHON:-python3}"
if [ ! -x "$VENV/bin/python" ]; then
  "$PY" -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
    || { echo "revoke-audit needs Python 3.11 or newer ($PY is older)" >&2; exit 2; }
  "$PY" -m venv "$VENV"
fi
STAMP="$VENV/.revoke-audit-installed${EXTRA:+-$EXTRA}"
# the C accelerators are built at install time: a change to them is a reason to install again
HASH="$(cat "$ROOT/pyproject.toml" "$ROOT/setup.py" "$ROOT"/src/revoke_audit/core/_speedups*.[ch] \
  | sha1sum | cut -d' ' -f1)"
if [ ! -f "$STAMP" ] || [ "$(cat "$STAMP")" != "$HASH" ]; then
  echo "setting up $VENV (first run, or pyproject.toml changed) ..." >&2
  "$VENV/bin/python" -m pip install --quiet --upgrade pip >&2 || true
  "$VENV/bin/python" -m pip install --quiet -e "$ROOT${EXTRA:+[$EXTRA]}" >&2
  echo "$HASH" > "$STAMP"
  # an install with an extra also holds the plain install
  [ -z "$EXTRA" ] || echo "$HASH" > "$VENV/.revoke-audit-installed"
fi
