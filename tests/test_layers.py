"""The house's layers, as ARCHITECTURE.md draws them: imports run one way, type-only imports
included, and no module imports a later layer."""
import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "revoke_audit"

#: Layers in ARCHITECTURE.md's order; a module may import its own layer and earlier ones.
LAYERS = [
    ["cards", "record", "codes", "findings", "visible", "auction", "scoring", "duplicate", "rubber",
     "speedups", "_speedups"],
    ["formats"],
    ["replay"],
    ["table_facts", "duties"],
    ["laws"],
    ["equity", "_endplay"],
    ["options", "checks", "discovery"],
    ["audit"],
    ["director", "rows", "selection", "baseline", "repair"],
    ["lane"],
    ["units"],
    ["report", "sarif", "streamed_json", "frames", "targets", "rewrite"],
    ["rescore", "standings", "field_reports", "corrections"],
    ["workers", "run", "dask_engine", "watch"],
    ["explain", "html_page", "watch_page", "config", "api", "console", "cli", "__init__", "__main__"],
]
RANK = {name: i for i, layer in enumerate(LAYERS) for name in layer}


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE).with_suffix("").parts
    return ".".join(p for p in parts if p != "__init__") or "__init__"


def imports(path: Path) -> set[str]:
    """The package's modules that ``path`` imports, at any depth (inside functions and
    ``if TYPE_CHECKING:`` blocks too)."""
    here = module_name(path).split(".")
    package = here if path.name == "__init__.py" else here[:-1]
    if here == ["__init__"]:
        package = []
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.level:
            base = package[:len(package) - node.level + 1]
            target = base + (node.module.split(".") if node.module else [])
            names = [".".join(target)] if node.module else [
                ".".join(target + [a.name]) for a in node.names]
            found.update(n for n in names if n)
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("revoke_audit."):
            found.add(node.module[len("revoke_audit."):])
    return {_existing(n) for n in found} - {None}


def _existing(name: str) -> str | None:
    """``name`` as a module of the package (an imported name may be a function in it)."""
    parts = name.split(".")
    while parts:
        p = PACKAGE.joinpath(*parts)
        # a ``.c`` file is a compiled module (``_speedups.c``): a leaf, it imports nothing
        if (p.with_suffix(".py").is_file() or (p / "__init__.py").is_file()
                or p.with_suffix(".c").is_file()):
            return ".".join(parts)
        parts.pop()
    return None


def graph() -> dict[str, set[str]]:
    return {module_name(p): imports(p) - {module_name(p)} for p in PACKAGE.rglob("*.py")}


def top(name: str) -> str:
    return name.split(".")[0]


def test_no_module_imports_a_later_layer():
    wrong = [(m, i) for m, targets in graph().items() for i in targets
             if RANK[top(i)] > RANK[top(m)]]
    assert wrong == []


def test_every_module_has_its_layer():
    assert {top(m) for m in graph()} <= set(RANK)


def test_there_is_no_import_cycle():
    g = graph()
    state: dict[str, int] = {}

    def visit(m, path):
        if state.get(m) == 1:
            raise AssertionError("import cycle: " + " -> ".join(path + [m]))
        if state.get(m) == 2:
            return
        state[m] = 1
        for t in sorted(g.get(m, ())):
            visit(t, path + [m])
        state[m] = 2

    for m in sorted(g):
        visit(m, [])
