# Shared set-up for scripts/audit and scripts/test: create .venv and install the project when
# missing or when pyproject.toml changed since the last install.  Sourced, not run.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$ROOT/.venv"
EXTRA="${1:-}"
PY="${PYTHON:-python3}"
if [ ! -x "$VENV/bin/python" ]; then
  "$PY" -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
    || { echo "revoke-audit needs Python 3.11 or newer ($PY is older)" >&2; exit 2; }
  "$PY" -m venv "$VENV"
fi
STAMP="$VENV/.revoke-audit-installed${EXTRA:+-$EXTRA}"
HASH="$(cat "$ROOT/pyproject.toml" | sha1sum | cut -d' ' -f1)"
if [ ! -f "$STAMP" ] || [ "$(cat "$STAMP")" != "$HASH" ]; then
  echo "setting up $VENV (first run, or pyproject.toml changed) ..." >&2
  "$VENV/bin/python" -m pip install --quiet --upgrade pip >&2 || true
  "$VENV/bin/python" -m pip install --quiet -e "$ROOT${EXTRA:+[$EXTRA]}" >&2
  echo "$HASH" > "$STAMP"
fi
