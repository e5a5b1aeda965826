"""The layout is the architecture: these rules keep the layers honest.

- `keizer_xl.core` is the pure rule book: standard library and numpy only, nothing of
  keizer_xl outside core (no pandas, openpyxl, xlwings, no file formats).
- `keizer_xl.workbook.xlsx` knows nothing of Keizer: nothing of keizer_xl outside itself.
- `keizer_xl.workbook` never imports the outer shells (`live`, `cli`).
- `keizer_xl.engine` is the pandas door over core: core and pandas, nothing else of ours.
- Every package has a rank (`core` < `i18n` < `workbook` < `exchange` < `publish` <
  `live`, `cli` < `lite`, xlwings Lite's scripts over the live buttons' work); a module
  imports only from packages of a lower rank and its own.
- No import cycle between modules (lazy imports count too).
- Privacy lives on modules (h11's way): no module imports a name starting with `_` from
  another module, and a private module (`_name.py`) is imported only inside its package.

Imports are read from the source (every `import` and `from ... import`, also those inside
functions), so a lazy import cannot slip past. Each module is read and parsed once; the
checks try themselves on variants of the package made in memory, each with one import
added to one module.
"""

from __future__ import annotations

import ast
import functools
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import NamedTuple

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "keizer_xl"
CORE_THIRD_PARTY = {"numpy"}
# Each package's rank: a module imports ours only from a lower rank or its own package.
RANKS = {
    "core": 0,
    "engine": 1,
    "i18n": 1,
    "workbook": 2,
    "exchange": 3,
    "publish": 4,
    "live": 5,
    "cli": 5,
    "lite": 6,
    "": 7,
}
OPEN_TO_ALL = {"keizer_xl", "keizer_xl.__version__"}  # the package itself and its version


class Module(NamedTuple):
    """One source file as the checks see it: its parsed source and its imports as
    (module, name): `import a.b` gives ("a.b", None), `from a import b` gives ("a", "b");
    relative imports resolved."""

    name: str
    is_package: bool  # an `__init__.py`
    tree: ast.Module
    imports: list[tuple[str, str | None]]


Package = Mapping[str, Module]  # every module of the package, by dotted name


def module_name(where: Path) -> str:
    """`core/rows.py` is `keizer_xl.core.rows`, `core/__init__.py` is `keizer_xl.core`."""
    parts = ("keizer_xl", *where.with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def parsed(where: Path, source: str) -> Module:
    """The module at `where` (relative to the package) with this source."""
    name = module_name(where)
    tree = ast.parse(source)
    here = name.split(".") if where.name == "__init__.py" else name.split(".")[:-1]
    found: list[tuple[str, str | None]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((alias.name, None) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = here[: len(here) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            found.extend((base, alias.name) for alias in node.names)
    return Module(name, where.name == "__init__.py", tree, found)


@functools.cache
def sources() -> dict[Path, str]:
    """Each module's source, by its path inside the package: read once per test run."""
    return {
        path.relative_to(PACKAGE): path.read_text(encoding="utf-8")
        for path in sorted(PACKAGE.rglob("*.py"))
    }


@functools.cache
def package() -> Package:
    """The package as it is, each module parsed once."""
    return {(m := parsed(where, source)).name: m for where, source in sources().items()}


def with_import(where: str, line: str) -> Package:
    """The package with one import added to the module at `where` (inside a function when
    the line is indented); only that module is parsed again."""
    source = sources()[Path(where)]
    if line.startswith(" "):
        source += f"\n\ndef _added() -> None:\n{line}\n"
    else:
        source += f"\n{line}\n"
    changed = parsed(Path(where), source)
    return {**package(), changed.name: changed}


def imports(module: Module) -> set[str]:
    """Every module a source file imports (and every name, as `module.name`)."""
    found: set[str] = set()
    for imported, name in module.imports:
        found.add(imported)
        if name is not None:
            found.add(f"{imported}.{name}")
    return found


def package_of(module: str) -> str:
    """The package a module of ours belongs to for the ranks: `keizer_xl.workbook.xlsx.book`
    is in `workbook`, `keizer_xl.engine` in `engine`, `keizer_xl` itself in ``."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def rank_violations(modules: Package) -> list[str]:
    """Imports from a package of the same or a higher rank than the importer's own."""
    out: list[str] = []
    for name, module in sorted(modules.items()):
        mine = package_of(name)
        for imported in sorted(imports(module)):
            if imported.split(".")[0] != "keizer_xl" or imported in OPEN_TO_ALL:
                continue
            theirs = package_of(imported)
            if theirs != mine and RANKS[theirs] >= RANKS[mine]:
                out.append(
                    f"{name} imports {imported} (rank: {mine or 'keizer_xl'} "
                    f"{RANKS[mine]} may not import {theirs} {RANKS[theirs]})"
                )
    return out


def private_violations(modules: Package) -> list[str]:
    """Underscore names taken from another module; private modules used outside their
    package."""
    out: list[str] = []
    for name, module in sorted(modules.items()):
        home = name if module.is_package else name.rpartition(".")[0]
        for imported, what in module.imports:
            if imported.split(".")[0] != "keizer_xl":
                continue
            parts = imported.split(".") + ([what] if what else [])
            for i, part in enumerate(parts):
                if not part.startswith("_") or part.startswith("__"):
                    continue
                owner = ".".join(parts[:i])
                if ".".join(parts[: i + 1]) not in modules:
                    out.append(f"{name} imports {part} from {owner} (a private name)")
                elif not (home == owner or home.startswith(owner + ".")):
                    out.append(
                        f"{name} imports {owner}.{part} (a private module of another package)"
                    )
    return out


def cycles(modules: Package) -> list[list[str]]:
    """Groups of modules that import each other, directly or around (Tarjan's strongly
    connected components of the import graph, lazy imports included)."""
    graph: dict[str, set[str]] = {}
    for name, module in sorted(modules.items()):
        targets: set[str] = set()
        for imported, what in module.imports:
            candidates = [f"{imported}.{what}", imported] if what else [imported]
            target = next((c for c in candidates if c in modules), None)
            if target is not None and target != name:
                targets.add(target)
        graph[name] = targets
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def violations(modules: Package) -> list[str]:
    """Each broken rule as `module imports name (rule)`."""
    stdlib = set(sys.stdlib_module_names) | {"__future__"}
    out: list[str] = []
    for name, module in sorted(modules.items()):
        for imported in sorted(imports(module)):
            top = imported.split(".")[0]
            ours = top == "keizer_xl"
            if name.startswith("keizer_xl.core"):
                if ours and not imported.startswith("keizer_xl.core"):
                    out.append(f"{name} imports {imported} (core imports nothing above it)")
                elif not ours and top not in stdlib and top not in CORE_THIRD_PARTY:
                    out.append(f"{name} imports {imported} (core: stdlib and numpy only)")
            if (
                name.startswith("keizer_xl.workbook.xlsx")
                and ours
                and not imported.startswith("keizer_xl.workbook.xlsx")
            ):
                out.append(f"{name} imports {imported} (xlsx knows nothing of Keizer)")
            if name.startswith("keizer_xl.workbook") and imported.startswith(
                ("keizer_xl.live", "keizer_xl.cli")
            ):
                out.append(f"{name} imports {imported} (workbook never imports the shells)")
            if name == "keizer_xl.engine" and ours and not imported.startswith("keizer_xl.core"):
                out.append(f"{name} imports {imported} (engine: core and pandas only)")
    return out


def test_imports_point_only_downwards() -> None:
    assert violations(package()) == []


def test_every_package_imports_only_lower_ranks() -> None:
    assert rank_violations(package()) == []


def test_no_import_cycles() -> None:
    assert cycles(package()) == []


def test_no_private_name_crosses_a_module() -> None:
    assert private_violations(package()) == []


@pytest.mark.parametrize(
    ("where", "line", "check"),
    [
        ("core/rows.py", "    from keizer_xl.core.season import Season", "cycle"),
        ("cli/speech.py", "    from keizer_xl.cli.prelude import perform", "cycle"),
        ("cli/main.py", "from keizer_xl.cli.prelude import _tune_gc", "private"),
        ("publish/site.py", "from keizer_xl.workbook.xlsx._package import Package", "private"),
        ("i18n/__init__.py", "    from keizer_xl.workbook.layout import read_book", "rank"),
        ("exchange/trf.py", "from keizer_xl.publish import site", "rank"),
    ],
)
def test_the_checks_catch_a_cycle_a_private_or_an_upward_import(
    where: str, line: str, check: str
) -> None:
    """Tried on a broken variant: one added import makes the named check fail."""
    broken = with_import(where, line)
    found = {
        "cycle": cycles(broken),
        "private": private_violations(broken),
        "rank": rank_violations(broken),
    }
    assert found[check], found


@pytest.mark.parametrize(
    ("where", "line", "rule"),
    [
        ("core/scoring.py", "import pandas", "stdlib and numpy only"),
        ("core/pairing.py", "from keizer_xl.workbook import contract", "nothing above it"),
        ("core/model.py", "    from ..engine import standings", "nothing above it"),
        (
            "workbook/xlsx/__init__.py",
            "from keizer_xl.core.model import Season",
            "nothing of Keizer",
        ),
        ("workbook/xlsx/_package.py", "from .. import contract", "nothing of Keizer"),
        ("workbook/files.py", "from keizer_xl.cli import main", "never imports the shells"),
        ("engine.py", "from keizer_xl.workbook import files", "core and pandas only"),
    ],
)
def test_the_rules_catch_a_forbidden_import(where: str, line: str, rule: str) -> None:
    """Tried: the package with one forbidden import added fails the check."""
    found = violations(with_import(where, line))
    assert any(rule in v for v in found), found


def test_a_variant_leaves_the_package_as_read() -> None:
    """The variants are made beside the package, so each check above sees it whole."""
    before = package()["keizer_xl.engine"]
    broken = with_import("engine.py", "from keizer_xl.workbook import files")
    assert broken["keizer_xl.engine"] is not before
    assert package()["keizer_xl.engine"] is before
    assert ("keizer_xl.workbook", "files") not in before.imports


def test_every_package_states_its_face() -> None:
    """Each package's `__init__` lists what it offers in `__all__` (h11's way)."""
    silent = [
        name
        for name, module in package().items()
        if module.is_package
        and not any(
            isinstance(node, ast.Assign | ast.AnnAssign)
            and "__all__"
            in ast.unparse(node.targets[0] if isinstance(node, ast.Assign) else node.target)
            for node in module.tree.body
        )
    ]
    assert silent == []
