"""The shape of the package: the layers import only downwards, there are no import cycles, generic
parts name no family, engine code needs only the standard library, and nothing in the project points
outside the repository."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src" / "interboard"
FAMILIES = sorted(p.name for p in (SRC / "games").iterdir() if (p / "__init__.py").exists())


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {module_name(p): p for p in SRC.rglob("*.py") if "migrations" not in p.parts}


def imports_of(name: str) -> set[str]:
    """Every module ``name`` imports (at any depth of its code), resolved to absolute names."""
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                target = ".".join([*base, node.module] if node.module else base)
            else:
                target = node.module or ""
            found.add(target)
            found.update(f"{target}.{alias.name}" for alias in node.names)  # ``from pkg import module``
    return found


def internal_imports(name: str) -> set[str]:
    return {m for m in imports_of(name) if m in MODULES and m != name}


def part(name: str) -> str:
    """The part of the package a module belongs to: a family package, or a generic part."""
    bits = name.split(".")
    if len(bits) > 2 and bits[1] == "games" and bits[2] in FAMILIES:
        return ".".join(bits[:3])
    return ".".join(bits[:2])


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import cycles of ``graph`` (name -> the names it imports): Tarjan's strongly connected
    components, each of two or more names a cycle."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in list(graph):
        if v not in index:
            visit(v)
    return found


def test_no_import_cycles_among_the_parts() -> None:
    graph: dict[str, set[str]] = {}
    for name in MODULES:
        graph.setdefault(part(name), set()).update(
            part(m) for m in internal_imports(name) if part(m) != part(name)
        )
    graph.pop("interboard", None)
    for edges in graph.values():
        edges.discard("interboard")
    found = cycles(graph)
    assert not found, f"import cycles among the parts: {found}"


@pytest.mark.parametrize("generic", ["interboard.service", "interboard.cli"])
def test_no_import_cycles_among_a_parts_modules(generic: str) -> None:
    """Within a part, module by module: none imports, however indirectly, one that imports it back,
    not even for its type hints alone (the accounts named the games' service, which named the
    accounts' notices)."""
    inside = [name for name in MODULES if part(name) == generic]
    graph = {name: {m for m in internal_imports(name) if part(m) == generic} for name in inside}
    assert not cycles(graph), f"import cycles among the modules of {generic}: {cycles(graph)}"


def modules_imported(name: str) -> set[str]:
    """The modules ``name`` imports at any depth of its code (in a function too), as
    :func:`imports_of`, but ``from package import module`` names the module alone: it needs the
    package's ``__init__`` only when it imports a name defined there."""
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            target = node.module or ""
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                target = ".".join([*base, node.module] if node.module else base)
            for alias in node.names:
                found.add(f"{target}.{alias.name}" if f"{target}.{alias.name}" in MODULES else target)
    return {m for m in found if m in MODULES and m != name}


@pytest.mark.parametrize("family", FAMILIES)
def test_no_import_cycles_among_the_modules_of_a_family(family: str) -> None:
    """A family's modules are a downward stack (Axis & Allies: state, moves, capture, combat, rules,
    engine; its rule layers above the base engine), imports inside functions counted: a module that
    needs one above it reaches it through a hook its variant fills (the family's ``layers``)."""
    prefix = f"interboard.games.{family}"
    inside = {name for name in MODULES if name == prefix or name.startswith(prefix + ".")}
    graph = {name: modules_imported(name) & inside for name in inside}
    found = cycles(graph)
    assert not found, f"import cycles among the modules of {family}: {found}"


GENERIC = ("interboard.board", "interboard.render", "interboard.bots", "interboard.service", "interboard.cli")


@pytest.mark.parametrize(
    "generic", [*GENERIC, "interboard.selfplay", "interboard.conformance", "interboard.games"]
)
def test_generic_parts_import_no_family(generic: str) -> None:
    offenders = {
        f"{name} imports {target}"
        for name in MODULES
        if part(name) == generic
        for target in internal_imports(name)
        if part(target).startswith("interboard.games.")
    }
    assert not offenders


@pytest.mark.parametrize("generic", GENERIC)
def test_generic_parts_name_no_family(generic: str) -> None:
    """Generic code never branches on a family's name (the registry's one line per family excepted)."""
    folder = SRC / generic.split(".")[1]
    names = "|".join(FAMILIES)
    pattern = re.compile(rf"""["']({names})["']""")
    hits = [
        f"{p.relative_to(ROOT)}:{k}: {line.strip()}"
        for p in folder.rglob("*")
        if p.suffix in (".py", ".js", ".html")
        for k, line in enumerate(p.read_text(encoding="utf-8").splitlines(), start=1)
        if pattern.search(line)
    ]
    assert not hits


STDLIB = set(sys.stdlib_module_names) | {"__future__"}


@pytest.mark.parametrize("family", FAMILIES)
def test_engine_code_needs_only_the_standard_library(family: str) -> None:
    """A family's modules import the standard library and interboard only; its CLI module (imported
    by the CLI alone) may use the CLI's libraries."""
    outside = {
        f"{name}: {target}"
        for name in MODULES
        if name.startswith(f"interboard.games.{family}") and not name.endswith(".cli")
        for target in imports_of(name)
        if target and target.split(".")[0] not in STDLIB and not target.startswith("interboard")
    }
    assert not outside


def test_importing_the_registry_imports_no_family() -> None:
    code = (
        "import sys, interboard.games; print(sorted(m for m in sys.modules if m.startswith('interboard.g')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "['interboard.games', 'interboard.games.protocol']"


def tracked_files() -> list[Path]:
    listed = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=False)
    if listed.returncode != 0:  # not a git checkout: every text file under the root
        return [
            p for p in ROOT.rglob("*") if p.is_file() and ".venv" not in p.parts and ".git" not in p.parts
        ]
    return [ROOT / line for line in listed.stdout.splitlines()]


def test_no_file_points_outside_the_repository() -> None:
    """A user never has the workplace's shared folder, nor the machine a file was written on."""
    outside = re.compile(r"\.\./shared|shared/(reference|rules|seeds)|/work/|/home/[a-z]|/root/|/Users/[A-Z]")
    hits = []
    for path in tracked_files():
        if path.suffix in (".png", ".sqlite") or not path.is_file() or path == Path(__file__).resolve():
            continue  # this file names the patterns it looks for
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        hits.extend(
            f"{path.relative_to(ROOT)}:{k}"
            for k, line in enumerate(text.splitlines(), 1)
            if outside.search(line)
        )
    assert not hits, hits
