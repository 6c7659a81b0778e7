"""The package's shape, checked from its own source: the rules ARCHITECTURE.md states.

Every import is read with ``ast`` (top-level and inside functions: a lazy
import is still a run-time dependency); imports under ``if TYPE_CHECKING:``
are for type checkers only and are left out. Nothing is imported, so these
tests see the tree as it is on disk.
"""

from __future__ import annotations

import ast
import os

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PKG = os.path.join(REPO, "cudaenv")

# What the package top level may hold: entry points, the error type, the context.
TOP_LEVEL = {"__init__", "__main__", "main", "errors", "context"}
# The flow, lowest first; beside it, packages any layer at or above commands may use.
UPPER = ("commands", "cli")


def _module_name(path: str) -> str:
    rel = os.path.relpath(path, REPO)[:-3].replace(os.sep, ".")
    return rel[: -len(".__init__")] if rel.endswith(".__init__") else rel


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _runtime_imports(tree: ast.AST):
    """Import nodes, skipping the bodies of ``if TYPE_CHECKING:``."""
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            stack.extend(node.orelse)
            continue
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        stack.extend(ast.iter_child_nodes(node))


def modules() -> dict[str, str]:
    """Module name -> file, for every module of the package."""
    out = {}
    for dp, _dn, fn in os.walk(PKG):
        for f in fn:
            if f.endswith(".py"):
                p = os.path.join(dp, f)
                out[_module_name(p)] = p
    return out


def import_graph() -> tuple[dict[str, set[str]], list[tuple[str, str, str]]]:
    """(module -> modules it imports at run time, [(importer, module, private name)]).

    ``from pkg import name`` is an edge to ``pkg.name`` when that is a module,
    else to ``pkg`` itself (its ``__init__``).
    """
    mods = modules()
    graph: dict[str, set[str]] = {m: set() for m in mods}
    private: list[tuple[str, str, str]] = []
    for m, path in mods.items():
        pkg = m if path.endswith("__init__.py") else m.rsplit(".", 1)[0]
        with open(path, encoding="utf-8") as f:
            tree = ast.parse(f.read(), path)
        for node in _runtime_imports(tree):
            if isinstance(node, ast.Import):
                for a in node.names:
                    if a.name.split(".")[0] == "cudaenv":
                        graph[m].add(a.name)
                continue
            if node.level:
                parts = pkg.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1] + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            if base.split(".")[0] != "cudaenv":
                continue
            for a in node.names:
                sub = f"{base}.{a.name}"
                if sub in mods:
                    graph[m].add(sub)
                else:
                    graph[m].add(base)
                    if a.name.startswith("_") and not a.name.startswith("__") and base != m:
                        private.append((m, base, a.name))
    return graph, private


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (or a self-import)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on: set[str] = set()
    stack: list[str] = []
    out: list[list[str]] = []
    counter = [0]

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in graph:
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1 or v in graph.get(v, ()):
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def _layer(mod: str) -> str:
    parts = mod.split(".")
    return parts[1] if len(parts) > 1 else ""


def folder(mod: str) -> str:
    """The folder (or top-level module) a module belongs to: ``cudaenv.toolkit.probe`` -> ``toolkit``.

    The package's own ``__init__`` is ``__init__``; a top-level module is its own folder.
    """
    parts = mod.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def folder_graph(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    """Folder -> folders it imports at run time (the module graph, folded; no self-edges)."""
    out: dict[str, set[str]] = {}
    for m, deps in graph.items():
        out.setdefault(folder(m), set())
        for d in deps:
            if folder(d) != folder(m):
                out[folder(m)].add(folder(d))
    return out


def folder_order() -> dict[str, int]:
    """Folder -> its line in ARCHITECTURE.md's "Folders, lowest first" block (0 = lowest)."""
    with open(os.path.join(REPO, "ARCHITECTURE.md"), encoding="utf-8") as f:
        text = f.read()
    start, end = text.index("<!-- folder-order -->"), text.index("<!-- /folder-order -->")
    rank: dict[str, int] = {}
    lines = [ln.split("#")[0].strip() for ln in text[start:end].splitlines()[1:]]
    for i, line in enumerate(ln for ln in lines if ln and not ln.startswith("```")):
        for name in line.split(","):
            assert name.strip() not in rank, f"{name.strip()} is listed twice in ARCHITECTURE.md"
            rank[name.strip()] = i
    return rank


def upward(fgraph: dict[str, set[str]], rank: dict[str, int]) -> list[str]:
    """Folder imports that do not go strictly down the order (same line counts as up)."""
    return sorted(f"{a} -> {b}" for a, deps in fgraph.items() for b in deps if rank[b] >= rank[a])


def test_no_folder_import_cycles():
    """Folded to folders (run-time imports only), the import graph has no cycle either."""
    graph, _ = import_graph()
    found = cycles(folder_graph(graph))
    assert not found, "folder import cycles (run-time imports):\n" + "\n".join(" <-> ".join(c) for c in found)


def test_every_folder_is_placed_in_the_order():
    fgraph = folder_graph(import_graph()[0])
    rank = folder_order()
    assert set(fgraph) <= set(rank), f"not in ARCHITECTURE.md's folder order: {sorted(set(fgraph) - set(rank))}"
    assert set(rank) <= set(fgraph), f"in ARCHITECTURE.md's folder order but not in the tree: {sorted(set(rank) - set(fgraph))}"


def test_lower_folders_never_import_higher_ones():
    """ARCHITECTURE.md's order, lowest first: a folder imports only folders on lower lines."""
    fgraph = folder_graph(import_graph()[0])
    bad = upward(fgraph, folder_order())
    assert not bad, "imports that run up (or sideways) ARCHITECTURE.md's folder order:\n" + "\n".join(bad)


def test_the_folder_checks_can_fail():
    """Folding finds a cycle that no two modules form alone; a same-line or upward import is caught."""
    graph = {"cudaenv.a.x": {"cudaenv.b.y"}, "cudaenv.b.y": set(), "cudaenv.b.z": {"cudaenv.a.w"},
             "cudaenv.a.w": set(), "cudaenv.errors": set()}
    assert cycles(graph) == []
    assert cycles(folder_graph(graph)) == [["a", "b"]]
    assert folder("cudaenv") == "__init__" and folder("cudaenv.errors") == "errors"
    fg = {"a": {"b"}, "b": {"c"}, "c": set()}
    assert upward(fg, {"c": 0, "b": 1, "a": 2}) == []
    assert upward(fg, {"c": 0, "b": 1, "a": 1}) == ["a -> b"]
    assert upward(fg, {"c": 2, "b": 1, "a": 3}) == ["b -> c"]


def test_no_import_cycles():
    graph, _ = import_graph()
    found = cycles(graph)
    assert not found, "import cycles (run-time imports):\n" + "\n".join(" <-> ".join(c) for c in found)


def test_the_checker_sees_a_cycle():
    """The cycle finder itself can fail: a two-module circle and a lazy self-import are found."""
    assert cycles({"a": {"b"}, "b": {"a"}, "c": set()}) == [["a", "b"]]
    assert cycles({"a": {"a"}}) == [["a"]]
    tree = ast.parse("TYPE_CHECKING = False\nif TYPE_CHECKING:\n    import x\nelse:\n    import y\n"
                     "def f():\n    import z\n")
    names = sorted(a.name for n in _runtime_imports(tree) for a in n.names)
    assert names == ["y", "z"]


def test_nothing_below_commands_imports_upward():
    graph, _ = import_graph()
    bad = []
    for m, deps in graph.items():
        if _layer(m) in UPPER or m in ("cudaenv.main", "cudaenv.__main__"):
            continue
        for d in deps:
            if _layer(d) in UPPER or d == "cudaenv.main":
                bad.append(f"{m} -> {d}")
    assert not bad, "\n".join(sorted(bad))


def test_commands_do_not_import_cli():
    graph, _ = import_graph()
    bad = [f"{m} -> {d}" for m, deps in graph.items() if _layer(m) == "commands" for d in deps
           if _layer(d) == "cli" or d == "cudaenv.main"]
    assert not bad, "\n".join(sorted(bad))


def test_no_private_names_across_modules():
    _, private = import_graph()
    assert not private, "\n".join(f"{m} imports {name} from {src}" for m, src, name in private)


def test_top_level_holds_only_entry_points_errors_and_context():
    names = {os.path.splitext(n)[0] for n in os.listdir(PKG) if n.endswith(".py")}
    assert names == TOP_LEVEL, sorted(names ^ TOP_LEVEL)


@pytest.mark.parametrize("name", sorted(TOP_LEVEL - {"__main__"}))
def test_top_level_modules_have_docstrings(name):
    with open(os.path.join(PKG, f"{name}.py"), encoding="utf-8") as f:
        assert ast.get_docstring(ast.parse(f.read())), name


def test_the_source_parses_as_the_oldest_python_pyproject_allows():
    """requires-python says 3.9 (RHEL 9's python3): no newer syntax (match, except*, ...) in the package.

    Only this machine's Python runs the suite, so the grammar is checked here, from the source.
    """
    import re
    import sys

    with open(os.path.join(REPO, "pyproject.toml"), encoding="utf-8") as f:
        m = re.search(r'requires-python\s*=\s*">=\s*3\.(\d+)"', f.read())
    assert m, "requires-python is not a plain >=3.N"
    oldest = (3, int(m.group(1)))
    bad = []
    for name, path in sorted(modules().items()):
        with open(path, encoding="utf-8") as f:
            src = f.read()
        try:
            ast.parse(src, path, feature_version=oldest)
        except SyntaxError as exc:
            bad.append(f"{name}:{exc.lineno}: {exc.msg}")
    assert not bad, f"syntax newer than Python {oldest[0]}.{oldest[1]}:\n" + "\n".join(bad)
    assert sys.version_info >= oldest


# The context holds facts and settings passed down; the layers that compute own their caches.
CONTEXT_BUILDERS = ("commands", "cli")


def test_only_commands_and_above_import_the_context():
    graph, _ = import_graph()
    bad = sorted(m for m, deps in graph.items() if "cudaenv.context" in deps
                 and _layer(m) not in CONTEXT_BUILDERS and m not in ("cudaenv.main", "cudaenv.__main__"))
    assert not bad, "below commands/ the context is a parameter (imported under TYPE_CHECKING only): " + ", ".join(bad)


def _context_writes(tree: ast.AST) -> list[int]:
    """Lines assigning to ``ctx.X`` or ``ctx.X[...]`` (a context is filled by its own class only)."""

    def on_ctx(t: ast.expr) -> bool:
        if isinstance(t, ast.Subscript):
            t = t.value
        return isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "ctx"

    out = []
    for node in ast.walk(tree):
        targets = (node.targets if isinstance(node, ast.Assign) else
                   [node.target] if isinstance(node, (ast.AugAssign, ast.AnnAssign)) else [])
        out += [node.lineno for t in targets if on_ctx(t)]
        if isinstance(node, ast.Attribute) and node.attr == "memo" and isinstance(node.value, ast.Name) \
                and node.value.id == "ctx":
            out.append(node.lineno)
    return out


def test_nothing_writes_into_the_context():
    bad = []
    for m, path in modules().items():
        with open(path, encoding="utf-8") as f:
            src = f.read()
        # A module that names no cudaenv Context has other ``ctx``s (click's, ssl's).
        if m != "cudaenv.context" and ("from ..context import Context" in src or "from .context import Context" in src):
            bad += [f"{m}:{n}" for n in _context_writes(ast.parse(src, path))]
    assert not bad, "pass what a layer needs as an argument or keep it in the layer's cache object: " + ", ".join(bad)


def test_the_context_write_check_can_fail():
    src = 'ctx.memo["python_env"] = e\nx = ctx.memo.get("d")\nctx.python = p\nctx.index.data.setdefault("t", {})\n'
    assert sorted(set(_context_writes(ast.parse(src)))) == [1, 2, 3]


def test_the_context_has_no_string_keyed_memo():
    with open(os.path.join(PKG, "context.py"), encoding="utf-8") as f:
        assert "memo" not in f.read()
