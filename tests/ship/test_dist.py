"""What `make dist` builds and a release publishes: the sdist carries what a build needs
(the wheel is built from it), the wheel carries the package with its templates and
catalogs, and installed into a fresh virtual environment, outside the source tree, it
works: `keizer-xl demo`, `new --lite`, `lite`."""

from __future__ import annotations

import subprocess
import sys
import sysconfig
import tarfile
import zipfile
from pathlib import Path

import pytest

import keizer_xl
from tests.programs import in_ci
from tests.pyodide.release import NETWORK_TROUBLE
from tests.ship import wheel

SOURCE = wheel.SOURCE
pytestmark = pytest.mark.programs  # builds in a process of its own, installs, runs commands


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The sdist, and the wheel built from it, as `python -m build` makes them (its build
    environment gets hatchling from the package index, or pip's cache)."""
    out = tmp_path_factory.mktemp("dist")
    done = subprocess.run(
        [sys.executable, "-m", "build", "--outdir", str(out), str(SOURCE)],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        said = done.stdout + done.stderr
        reason = f"python -m build failed:\n{said[-3000:]}"
        if in_ci() or not any(sign in said for sign in NETWORK_TROUBLE):
            pytest.fail(reason, pytrace=False)
        pytest.skip("python -m build could not fetch hatchling: no package index at hand")
    (sdist,) = out.glob("*.tar.gz")
    (wheel_file,) = out.glob("*.whl")
    return sdist, wheel_file


def source_files(folder: str) -> set[str]:
    return {
        str(p.relative_to(SOURCE)).replace("\\", "/")
        for p in (SOURCE / folder).rglob("*")
        if p.is_file() and "__pycache__" not in p.parts
    }


def test_both_carry_this_version(built: tuple[Path, Path]) -> None:
    sdist, wheel_file = built
    assert sdist.name == f"keizer_xl-{keizer_xl.__version__}.tar.gz"
    assert wheel_file.name == f"keizer_xl-{keizer_xl.__version__}-py3-none-any.whl"


def test_the_wheel_carries_the_package_its_templates_and_catalogs(built: tuple[Path, Path]) -> None:
    with zipfile.ZipFile(built[1]) as zf:
        names = set(zf.namelist())
        entry_points = zf.read(f"keizer_xl-{keizer_xl.__version__}.dist-info/entry_points.txt")
    package = source_files("keizer_xl")
    templates = {"keizer_xl/" + name for name in source_files("templates")}
    catalogs = {name for name in package if name.endswith(".mo")}
    assert (
        len(catalogs) >= 3
        and {"keizer_xl/templates/keizer_xl.xlsx", "keizer_xl/templates/keizer_xl_lite.xlsx"}
        <= templates
    )
    assert package - names == set()
    assert templates - names == set()
    assert b"keizer-xl = keizer_xl.cli:run" in entry_points
    assert not any(name.startswith(("tests/", "docs/", "bench/")) for name in names)


def test_the_sdist_carries_what_a_build_needs(built: tuple[Path, Path]) -> None:
    with tarfile.open(built[0]) as tar:
        top = f"keizer_xl-{keizer_xl.__version__}/"
        names = {m.name.removeprefix(top) for m in tar.getmembers() if m.isfile()}
    needed = (
        {"pyproject.toml", "README.md", "CHANGELOG.md"}
        | source_files("keizer_xl")
        | source_files("templates")
    )
    assert needed - names == set()


def test_the_wheel_works_installed_in_a_fresh_environment(
    built: tuple[Path, Path], tmp_path: Path
) -> None:
    """Installed alone, beside this environment's dependencies (no registry asked), used
    from a folder outside the source tree."""
    python = wheel.fresh_environment(tmp_path / "venv")
    wheel.install(python, built[1], beside=Path(sysconfig.get_paths()["purelib"]))
    work = tmp_path / "club"
    work.mkdir()
    assert wheel.check(python, keizer_xl.__version__, work) == []
    assert (work / "keizer_demo.xlsx").exists() and (work / "club_nl.xlsx").exists()


def test_a_copy_that_is_not_the_wheel_is_noticed() -> None:
    """The judgement on what installed.py found: the source tree, a wrong version, a
    missing template or catalog, a module that does not import."""
    found = {
        "version": "0.0.1",
        "package": str(SOURCE / "keizer_xl"),
        "installed": False,
        "from_source": True,
        "templates": ["keizer_xl.xlsx"],
        "catalogs": [],
        "failed": {"keizer_xl.lite": "ModuleNotFoundError: No module named 'xlwings'"},
        "lite_workbooks": {"en": 21000, "nl": 21000, "de": "OSError: no room"},
    }
    problems = wheel.inspected(found, "0.2.0")
    assert any("imported from" in p for p in problems)
    assert any("__version__ is 0.0.1" in p for p in problems)
    assert any("keizer_xl_lite.xlsx" in p for p in problems)
    assert any("nl/LC_MESSAGES/keizer_xl.mo" in p for p in problems)
    assert any("keizer_xl.lite does not import" in p for p in problems)
    assert any("no Lite workbook in de: OSError: no room" in p for p in problems)
    assert any("no Lite workbook in it: not tried" in p for p in problems)


@pytest.mark.pyodide
def test_the_wheel_loads_under_pyodide(built: tuple[Path, Path], tmp_path: Path) -> None:
    """As the release checks it: unpacked into Pyodide's site-packages, every module of it
    imports there, and it carries its templates and catalogs."""
    from tests.pyodide.runner import ready_release

    ready_release()  # skipped where Pyodide cannot be had, outside CI
    assert wheel.check_in_pyodide(built[1], tmp_path) == []
