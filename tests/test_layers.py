"""The house's layers (ARCHITECTURE.md), enforced: ``lint-imports`` runs the contracts of
pyproject.toml (``[tool.importlinter]``: core < formats < replay < laws < scoring < ruling <
reports < engine < cli, and two ``forbidden`` ones) and passes; a copy of the package with one
deliberate upward import makes it fail, so the check can fail; the package root keeps at most
five modules, every layer package says in its docstring what it owns, and no source file
is over 500 lines."""
import ast
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "revoke_audit"
LAYERS = ["core", "formats", "replay", "laws", "scoring", "ruling", "reports", "engine", "cli"]
LINT = Path(sys.executable).with_name("lint-imports")

needs_linter = pytest.mark.skipif(not LINT.exists(), reason="import-linter is not installed "
                                  "(pip install -e .[test])")


def lint(src: Path, config: Path) -> subprocess.CompletedProcess:
    """``lint-imports`` over the package found in ``src`` (first on the path), with ``config``."""
    env = dict(os.environ, PYTHONPATH=str(src))
    return subprocess.run([str(LINT), "--config", str(config), "--no-cache"], cwd=config.parent,
                          env=env, capture_output=True, text=True, timeout=300)


@needs_linter
def test_the_layers_hold():
    done = lint(ROOT / "src", ROOT / "pyproject.toml")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "BROKEN" not in done.stdout


@needs_linter
def test_an_upward_import_breaks_them(tmp_path):
    """core/cards.py importing reports' rows: the layers contract and both forbidden contracts
    must each report it."""
    shutil.copytree(PACKAGE, tmp_path / "src" / "revoke_audit",
                    ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    cards = tmp_path / "src" / "revoke_audit" / "core" / "cards.py"
    cards.write_text(cards.read_text() + "\nfrom ..reports import rows  # deliberate: upward\n")
    shutil.copyfile(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    done = lint(tmp_path / "src", tmp_path / "pyproject.toml")
    assert done.returncode != 0
    out = done.stdout
    assert "revoke_audit.core.cards -> revoke_audit.reports.rows" in out
    assert re.search(r"layers: each imports only the layers below it\s+BROKEN", out)
    assert re.search(r"core imports nothing of the package\s+BROKEN", out)
    assert re.search(r"nothing below reports imports it\s+BROKEN", out)


def test_the_root_keeps_at_most_five_modules():
    root = sorted(p.name for p in PACKAGE.glob("*.py"))
    assert len(root) <= 5, root
    assert {"__init__.py", "__main__.py", "api.py"} <= set(root)


def test_every_layer_is_a_package_that_says_what_it_owns():
    for layer in LAYERS:
        init = PACKAGE / layer / "__init__.py"
        doc = ast.get_docstring(ast.parse(init.read_text()))
        assert doc and len(doc) > 80, f"{layer}/__init__.py has no docstring saying what it owns"


def test_the_contract_names_every_layer_in_order():
    text = (ROOT / "pyproject.toml").read_text()
    layers = re.search(r'^layers = \[(.*?)\]', text, re.M).group(1)
    assert re.findall(r'"revoke_audit\.(\w+)"', layers) == LAYERS[::-1]


def test_no_source_file_is_over_500_lines():
    """Modules split by concern (issue 36): the C kernel is one module from a file per concern
    (``core/_speedups*.c``), the Python packages a module per step."""
    sources = [p for p in PACKAGE.rglob("*") if p.suffix in (".py", ".c", ".h")]
    assert len(sources) > 100 and any(p.suffix == ".c" for p in sources)
    long = {str(p.relative_to(PACKAGE)): n for p in sources
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > 500}
    assert not long, long
