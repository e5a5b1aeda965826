"""Run by the Python that has keizer-xl installed from its wheel (a fresh virtual
environment, or Pyodide): checks that keizer_xl is imported from there and not from a source
tree, that it carries its templates, catalogs and every module, and that it makes a workbook
for xlwings Lite in every language (in Pyodide too, where no command runs in a process of
its own). Prints what it found as JSON; needs nothing but the standard library and
keizer_xl itself.

`python installed.py SOURCE [WHEEL]`: SOURCE is the source tree, which keizer_xl must not
come from. Under Pyodide, which has no pip, the WHEEL is first unpacked into site-packages
(keizer_xl's wheel is pure Python and has no scripts or data to place elsewhere).
"""

from __future__ import annotations

import importlib
import json
import sys
import sysconfig
import tempfile
import zipfile
from pathlib import Path

LANGUAGES = ("en", "nl", "de", "it")


def lite_workbooks() -> dict[str, int | str]:
    """The size of a new Lite workbook in each language, or why it could not be made."""
    from keizer_xl.workbook.newbook import create

    made: dict[str, int | str] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for language in LANGUAGES:
            path = Path(tmp) / f"club_{language}.xlsx"
            try:
                create(path, [], language=language, lite=True)
                made[language] = path.stat().st_size
            except Exception as exc:  # said, with the others
                made[language] = f"{type(exc).__name__}: {exc}"
    return made


def main(source: Path) -> dict[str, object]:
    import keizer_xl

    package = Path(keizer_xl.__file__).resolve().parent
    site = {Path(sysconfig.get_paths()[key]).resolve() for key in ("purelib", "platlib")}
    modules, failed = [], {}
    for path in sorted(package.rglob("*.py")):
        parts = path.relative_to(package.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        if parts[-1] == "__main__":
            continue  # runs the program when imported
        modules.append(name)
        try:
            importlib.import_module(name)
        except Exception as exc:  # every failure is reported, not only the first
            failed[name] = f"{type(exc).__name__}: {exc}"
    return {
        "version": keizer_xl.__version__,
        "package": str(package),
        "installed": package.parent in site,
        "from_source": package.is_relative_to(source.resolve()),
        "templates": sorted(
            str(p.relative_to(package / "templates")).replace("\\", "/")
            for p in (package / "templates").rglob("*")
            if p.is_file()
        ),
        "catalogs": sorted(
            str(p.relative_to(package / "i18n" / "locale")).replace("\\", "/")
            for p in (package / "i18n" / "locale").rglob("*.mo")
        ),
        "modules": len(modules),
        "failed": failed,
        "lite_workbooks": lite_workbooks(),
    }


if __name__ == "__main__":
    if len(sys.argv) > 2:
        with zipfile.ZipFile(sys.argv[2]) as wheel:
            wheel.extractall(sysconfig.get_paths()["purelib"])
        importlib.invalidate_caches()
    print(json.dumps(main(Path(sys.argv[1]))))
