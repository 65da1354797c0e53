"""The house's layers (ARCHITECTURE.md), enforced: ``lint-imports`` runs the contracts of
pyproject.toml (``[tool.importlinter]``: core < formats < replay < laws < scoring < ruling <
reports < engine < cli, and two ``forbidden`` ones) and passes; a copy of the package with one
deliberate upward import makes it fail, so the check can fail; the package root keeps at most
five modules, every layer package says in its docstring what it owns, no source file is over
500 lines, and no layer imports another layer's private names (a leading ``_``): what a layer
gives the others is its public surface."""
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


def private_imports(package: Path) -> list[str]:
    """``module <- source.name`` for every name with one leading ``_`` a module of ``package``
    imports from a module of another layer (relative or absolute imports)."""
    found = []
    for path in package.rglob("*.py"):
        parts = path.relative_to(package.parent).with_suffix("").parts
        here = parts[:-1] if path.name == "__init__.py" else parts
        base = here if path.name == "__init__.py" else here[:-1]  # where ``from .`` starts
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.ImportFrom):
                continue
            named = tuple(filter(None, (node.module or "").split(".")))
            source = base[:len(base) - node.level + 1] + named if node.level else named
            if source[:1] != (package.name,) or source[1:2] == here[1:2]:
                continue  # not ours, or the same layer
            found += [f"{'.'.join(here)} <- {'.'.join(source)}.{a.name}" for a in node.names
                      if a.name.startswith("_") and not a.name.startswith("__")]
    return sorted(found)


def test_no_layer_imports_another_layers_private_names():
    assert private_imports(PACKAGE) == []


def test_a_private_import_across_layers_is_found(tmp_path):
    """The check can fail: the lane importing a private helper of ``replay`` is reported; one
    inside a layer (``replay.tricks`` from ``replay.unrecorded``) is that layer's own affair."""
    copy = tmp_path / "revoke_audit"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    lane = copy / "engine" / "lane" / "vugraph.py"
    lane.write_text(lane.read_text() + "\nfrom ...replay.by_cards import _from_lead\n")
    tricks = copy / "replay" / "tricks.py"
    tricks.write_text(tricks.read_text() + "\nfrom .unrecorded import _close\n")
    assert private_imports(copy) == [
        "revoke_audit.engine.lane.vugraph <- revoke_audit.replay.by_cards._from_lead"]
