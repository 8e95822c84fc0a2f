"""The studio's imports form no circle, and each layer and each behaviour-tree part imports only
what stands below it (docs/architecture.md).

An import counts wherever it is written: at the top, inside a function (a lazy import) or under
``TYPE_CHECKING``, since each of these ties the two modules together all the same. A module's
imports are the modules it names; the packages Python loads on the way are not counted.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import studio

ROOT = Path(studio.__file__).parent

LAYERS = {
    # layer -> the layers it may import (besides itself and the ``studio`` package)
    "engines": set(),
    "storage": {"engines"},
    "sessions": {"engines", "storage"},
    "widgets": {"engines", "storage", "sessions"},
    "screens": {"engines", "storage", "sessions", "widgets"},
    "commands": {"engines", "storage", "sessions", "ssh"},
    "ssh": {"engines", "storage", "sessions", "cli"},
    "openers": {"engines", "storage", "sessions", "widgets", "screens"},
    "app": {"engines", "storage", "sessions", "widgets", "screens", "openers"},
    "cli": {"engines", "storage", "sessions", "commands", "app"},
    "__main__": {"cli"},
}

BTREE_PARTS = {
    # part of engines/btree -> the parts it may import (besides itself)
    "model": set(),
    "compiling": {"model"},
    "runtime": {"model"},
    "search": {"model", "runtime"},
    "play": {"model", "runtime", "search"},
    "editing": {"model", "compiling"},
}

KINDS = ("tilecode", "btree", "haunted")


def module_names(root: Path) -> dict[str, Path]:
    package = root.name
    names = {}
    for path in root.rglob("*.py"):
        parts = [package, *path.relative_to(root).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts.pop()
        names[".".join(parts)] = path
    return names


def _imported(tree: ast.AST, module: str, is_package: bool, names: set[str]) -> Iterator[str]:
    here = module if is_package else module.rpartition(".")[0]
    for node in ast.walk(tree):  # every import, wherever it stands
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = here.split(".")[: len(here.split(".")) - node.level + 1]
                base = ".".join(anchor + ([node.module] if node.module else []))
            for alias in node.names:
                # ``from pkg import mod`` imports the module; ``from pkg import name``, the package
                full = f"{base}.{alias.name}"
                yield full if full in names else base


def import_graph(root: Path) -> dict[str, set[str]]:
    """module -> the modules of the package under ``root`` that it imports."""
    paths = module_names(root)
    names = set(paths)
    graph: dict[str, set[str]] = {}
    for module, path in paths.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        imported = _imported(tree, module, path.name == "__init__.py", names)
        graph[module] = {name for name in imported if name in names and name != module}
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def _layer(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def test_the_studio_has_no_import_circles() -> None:
    assert circles(import_graph(ROOT)) == []


def test_each_layer_imports_only_the_layers_below_it() -> None:
    wrong = []
    for module, targets in import_graph(ROOT).items():
        layer = _layer(module)
        for target in targets:
            other = _layer(target)
            if other not in ("", layer) and other not in LAYERS[layer]:
                wrong.append(f"{module} -> {target}")
    assert wrong == []


def test_the_behaviour_tree_engine_parts_stand_in_order() -> None:
    prefix = "studio.engines.btree."
    wrong = []
    for module, targets in import_graph(ROOT).items():
        if not module.startswith(prefix):
            continue
        part = module[len(prefix):].split(".")[0]
        for target in targets:
            if target.startswith(prefix):
                other = target[len(prefix):].split(".")[0]
                if other != part and other not in BTREE_PARTS.get(part, set()):
                    wrong.append(f"{module} -> {target}")
    assert wrong == []
    top = {p.name for p in (ROOT / "engines" / "btree").iterdir()
           if p.is_dir() and p.name != "__pycache__"}
    assert top == set(BTREE_PARTS), "a new part of engines/btree needs its place in BTREE_PARTS"


def test_no_kind_imports_another_kinds_code() -> None:
    wrong = []
    for module, targets in import_graph(ROOT).items():
        mine = {k for k in KINDS if f".{k}." in f"{module}." and _layer(module) != k}
        for target in targets:
            theirs = {k for k in KINDS if f".{k}." in f"{target}."}
            if mine and theirs and mine != theirs:
                wrong.append(f"{module} -> {target}")
    assert wrong == []


def test_each_kind_has_its_package_in_every_layer_with_kinds() -> None:
    for layer in ("engines", "storage", "sessions", "commands", "screens"):
        flat = sorted(p.name for p in (ROOT / layer).glob("*.py")
                      if any(p.stem.startswith(k) for k in KINDS))
        assert flat == [], f"studio/{layer}/ has kind modules outside a kind's package: {flat}"


# -- the checks themselves ------------------------------------------------------------------


def _package(tmp_path: Path, files: dict[str, str]) -> Path:
    root = tmp_path / "pkg"
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def test_a_circle_through_a_lazy_or_type_only_import_is_found(tmp_path: Path) -> None:
    root = _package(tmp_path, {
        "__init__.py": "",
        "a.py": "def f():\n    from pkg import b\n",
        "b.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg.a import f\n",
        "c.py": "from . import a\n",
    })
    assert circles(import_graph(root)) == [["pkg.a", "pkg.b"]]


def test_a_package_reached_on_the_way_to_its_module_is_no_circle(tmp_path: Path) -> None:
    # pkg/__init__ re-exports sub.x; sub.x names pkg.sub only as the way to pkg.sub.y
    root = _package(tmp_path, {
        "__init__.py": "from pkg.sub.x import X\n",
        "sub/__init__.py": "",
        "sub/x.py": "from pkg.sub import y\nX = 1\n",
        "sub/y.py": "",
    })
    graph = import_graph(root)
    assert graph["pkg.sub.x"] == {"pkg.sub.y"}
    assert circles(graph) == []
    # but importing a name that the package itself defines does tie the two together
    (root / "sub" / "y.py").write_text("from pkg import X\n", encoding="utf-8")
    assert circles(import_graph(root)) == [["pkg", "pkg.sub.x", "pkg.sub.y"]]
