"""The face is complete: whatever one package takes from another is in that package's
`__all__` (as httpx's tests/test_exported_members.py holds its exports), so `__all__` says
truly what the rest of keizer_xl leans on, and what is left out may change freely.

Every `import` and `from ... import` is read from the source, also those inside functions.
For `from keizer_xl.core.rows import Row` in a module outside core, `rows` must be in
`core.__all__`; for `from keizer_xl.workbook.xlsx import Sheet` outside workbook, `xlsx`
must be in `workbook.__all__` and `Sheet` in `xlsx.__all__`.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "keizer_xl"


def dotted(path: Path, root: Path) -> str:
    """The module a file is: `keizer_xl/core/rows.py` is `keizer_xl.core.rows`."""
    parts = path.relative_to(root.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path, root: Path) -> list[str]:
    """What a module imports, as dotted chains (`keizer_xl.core.rows.Row`), relative imports
    resolved."""
    here = dotted(path, root).split(".")
    if path.name != "__init__.py":
        here = here[:-1]
    found: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = here[: len(here) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            found.extend(f"{base}.{alias.name}" for alias in node.names)
    return found


def exported(init: Path) -> set[str]:
    """The names in a package's `__all__` (a literal list or tuple of strings)."""
    for node in ast.parse(init.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets
        ):
            return set(ast.literal_eval(node.value))
    return set()


def unexported(root: Path) -> list[str]:
    """Each import across packages under `root` that names a module or name its package's
    `__all__` leaves out, as "importer: keizer_xl.pkg.name"."""
    found: list[str] = []
    top = root.name
    for path in sorted(root.rglob("*.py")):
        importer = dotted(path, root)
        home = importer if path.name == "__init__.py" else importer.rpartition(".")[0]
        for chain in imports(path, root):
            parts = chain.split(".")
            if parts[0] != top:
                continue
            for i in range(2, len(parts)):
                package = root.parent.joinpath(*parts[:i])
                inside = home == ".".join(parts[:i]) or home.startswith(".".join(parts[:i]) + ".")
                if not (package / "__init__.py").is_file() or inside:
                    continue  # a module's own names, or the importer's own package
                if parts[i] not in exported(package / "__init__.py"):
                    found.append(f"{importer}: {'.'.join(parts[: i + 1])}")
                    break
    return found


def test_every_import_across_packages_is_exported() -> None:
    missing = unexported(PACKAGE)
    assert not missing, "add these to their package's __all__:\n" + "\n".join(missing)


def write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root.joinpath(*name.split("/"))
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def test_the_check_finds_what_a_package_does_not_export(tmp_path: Path) -> None:
    root = tmp_path / "pkg"
    write(
        root,
        {
            "__init__.py": "",
            "core/__init__.py": '__all__ = ["model"]\n',
            "core/model.py": "from pkg.core.rows import Row\n",  # inside core: free
            "core/rows.py": "Row = 1\n",
            "shell/__init__.py": '__all__ = ["door"]\n',
            "shell/door.py": "from pkg.core.model import Player\n"
            "def late():\n    from pkg.core.rows import Row\n"
            "    from ..core import rows\n    import pkg.core.rows\n",
            "shell/inner/__init__.py": '__all__ = ["Sheet"]\nfrom .sheet import Sheet, Hidden\n',
            "shell/inner/sheet.py": "Sheet = Hidden = 1\n",
            "outer.py": "from pkg.shell.inner import Sheet, Hidden\nfrom pkg.shell import inner\n",
        },
    )
    assert unexported(root) == [
        "pkg.outer: pkg.shell.inner",
        "pkg.outer: pkg.shell.inner",
        "pkg.outer: pkg.shell.inner",
        "pkg.shell.door: pkg.core.rows",
        "pkg.shell.door: pkg.core.rows",
        "pkg.shell.door: pkg.core.rows",
    ]
    write(root, {"shell/__init__.py": '__all__ = ["door", "inner"]\n'})
    assert unexported(root)[0] == "pkg.outer: pkg.shell.inner.Hidden"
