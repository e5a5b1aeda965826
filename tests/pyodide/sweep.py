"""Run inside Pyodide: imports every module of keizer_xl and says, as JSON on stdout, which
fail and at which line of keizer_xl; and which of the given distributions are installed."""

from __future__ import annotations

import importlib
import importlib.metadata
import json
import sys
import traceback
from pathlib import Path


def module_names(package: Path) -> list[str]:
    names = []
    for path in sorted(package.rglob("*.py")):
        parts = path.relative_to(package.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        if parts[-1] != "__main__":  # runs the program when imported
            names.append(".".join(parts))
    return names


def failure(exc: BaseException) -> dict[str, object]:
    """The error, and the line of keizer_xl that raised it (where an import must move)."""
    frames = traceback.extract_tb(exc.__traceback__)
    ours = [f for f in frames if "/keizer_xl/" in f.filename] or frames
    return {
        "error": f"{type(exc).__name__}: {exc}",
        "file": ours[-1].filename,
        "line": ours[-1].lineno,
        "code": ours[-1].line,
    }


def main(distributions: list[str]) -> None:
    import keizer_xl

    names = module_names(Path(keizer_xl.__file__).parent)
    failed = {}
    for name in names:
        try:
            importlib.import_module(name)
        except Exception as exc:
            failed[name] = failure(exc)
    installed: dict[str, str | None] = {}
    for distribution in distributions:
        try:
            installed[distribution] = importlib.metadata.version(distribution)
        except importlib.metadata.PackageNotFoundError:
            installed[distribution] = None
    print(
        json.dumps(
            {
                "platform": sys.platform,
                "python": sys.version.split()[0],
                "modules": names,
                "failed": failed,
                "installed": installed,
            }
        )
    )


if __name__ == "__main__":
    main(sys.argv[1:])
