"""The layout is the architecture: these rules keep the layers honest.

- `keizer_xl.core` is the pure rule book: standard library and numpy only, nothing of
  keizer_xl outside core (no pandas, openpyxl, xlwings, no file formats).
- `keizer_xl.workbook.xlsx` knows nothing of Keizer: nothing of keizer_xl outside itself.
- `keizer_xl.workbook` never imports the outer shells (`live`, `cli`).
- `keizer_xl.engine` is the pandas door over core: core and pandas, nothing else of ours.
- No module grows past 600 lines (one job each; split by job before then).

Imports are read from the source (every `import` and `from ... import`, also those inside
functions), so a lazy import cannot slip past.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "keizer_xl"
CORE_THIRD_PARTY = {"numpy"}
MAX_LINES = 600


def module_name(path: Path, root: Path = PACKAGE) -> str:
    parts = path.relative_to(root.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path, root: Path = PACKAGE) -> set[str]:
    """Every module a source file imports, relative imports resolved."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    here = module_name(path, root).split(".")
    if path.name != "__init__.py":
        here = here[:-1]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = here[: len(here) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return found


def violations(root: Path = PACKAGE) -> list[str]:
    """Each broken rule as `module imports name (rule)`."""
    stdlib = set(sys.stdlib_module_names) | {"__future__"}
    out: list[str] = []
    for path in sorted(root.rglob("*.py")):
        name = module_name(path, root)
        for imported in sorted(imports(path, root)):
            top = imported.split(".")[0]
            ours = top == "keizer_xl"
            if name.startswith("keizer_xl.core"):
                if ours and not imported.startswith("keizer_xl.core"):
                    out.append(f"{name} imports {imported} (core imports nothing above it)")
                elif not ours and top not in stdlib and top not in CORE_THIRD_PARTY:
                    out.append(f"{name} imports {imported} (core: stdlib and numpy only)")
            if name.startswith("keizer_xl.workbook.xlsx") and ours and not imported.startswith(
                    "keizer_xl.workbook.xlsx"):
                out.append(f"{name} imports {imported} (xlsx knows nothing of Keizer)")
            if name.startswith("keizer_xl.workbook") and imported.startswith(
                    ("keizer_xl.live", "keizer_xl.cli")):
                out.append(f"{name} imports {imported} (workbook never imports the shells)")
            if name == "keizer_xl.engine" and ours and not imported.startswith(
                    "keizer_xl.core"):
                out.append(f"{name} imports {imported} (engine: core and pandas only)")
    return out


def test_imports_point_only_downwards() -> None:
    assert violations() == []


def test_no_module_is_over_600_lines() -> None:
    long = {module_name(p): n for p in PACKAGE.rglob("*.py")
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert long == {}


@pytest.mark.parametrize(("where", "line", "rule"), [
    ("core/scoring.py", "import pandas", "stdlib and numpy only"),
    ("core/pairing.py", "from keizer_xl.workbook import contract", "nothing above it"),
    ("core/model.py", "    from ..engine import standings", "nothing above it"),
    ("workbook/xlsx/__init__.py", "from keizer_xl.core.model import Season", "nothing of Keizer"),
    ("workbook/xlsx/_package.py", "from .. import contract", "nothing of Keizer"),
    ("workbook/files.py", "from keizer_xl.cli import main", "never imports the shells"),
    ("engine.py", "from keizer_xl.workbook import files", "core and pandas only"),
])
def test_the_rules_catch_a_forbidden_import(tmp_path: Path, where: str, line: str,
                                             rule: str) -> None:
    """Tried: a copy of the package with one forbidden import added fails the check."""
    import shutil

    copy = tmp_path / "keizer_xl"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    target = copy / where
    source = target.read_text(encoding="utf-8")
    if line.startswith(" "):
        source += f"\n\ndef _added() -> None:\n{line}\n"
    else:
        source += f"\n{line}\n"
    target.write_text(source, encoding="utf-8")
    found = violations(copy)
    assert any(rule in v for v in found), found
    assert violations(PACKAGE) == []
