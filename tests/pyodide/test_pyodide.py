"""keizer_xl inside Pyodide (CPython for WebAssembly, 32-bit), as xlwings Lite runs it: the
engine's whole test suite, and every module importing with only the dependencies that
`pip install keizer-xl` selects there."""

from __future__ import annotations

import json

import pytest
from packaging.utils import canonicalize_name

from tests.pyodide.release import NEWEST, OLDEST, REPO, Release, project_requirements
from tests.pyodide.runner import ready_release, run_in_pyodide

pytestmark = pytest.mark.pyodide


def test_core_passes_under_pyodide() -> None:
    done = run_in_pyodide(["-m", "pytest", "tests/core", "-q", "-p", "no:cacheprovider"])
    lines = done.stdout.splitlines() or [""]
    first = next((i for i, line in enumerate(lines) if line.startswith("===")), len(lines))
    said = "\n".join([*lines[first : first + 50], "...", lines[-1], done.stderr])
    assert done.returncode == 0, f"tests/core under Pyodide {OLDEST}:\n{said}"
    assert " passed" in lines[-1]


@pytest.mark.parametrize("version", [OLDEST, NEWEST])
def test_every_module_imports_with_the_dependencies_selected_there(version: str) -> None:
    """A module that needs a desktop-only dependency imports it where it is used (as the
    file reader does python-calamine), so that all of keizer_xl imports in Lite.

    Under a release whose own compiled packages cannot be had here (numpy and pandas of
    Pyodide 314: see docs/lite.md), a module that stops at one of them is not checked;
    every other module must import, on that release's Python."""
    release = Release(version, ready_release().parent)
    requirements = project_requirements()
    environment = release.environment()
    names = [canonicalize_name(r.name) for r in requirements]
    done = run_in_pyodide(["tests/pyodide/sweep.py", *names, "pytest"], bare=True, version=version)
    assert done.returncode == 0, done.stderr
    sweep = json.loads(done.stdout.splitlines()[-1])
    assert sweep["platform"] == "emscripten"
    assert sweep["python"] == release.python
    assert "keizer_xl.core.checks" in sweep["modules"]
    assert sweep["installed"]["pytest"] is None  # nothing but keizer-xl's own
    missing = not_at_hand(release)
    for requirement, name in zip(requirements, names, strict=True):
        selected = requirement.marker is None or requirement.marker.evaluate(environment)
        installed = sweep["installed"][name] is not None
        assert installed == (selected and name not in missing), (
            f"{requirement}: installed {sweep['installed'][name]}"
        )
    # Lite's scripts need the xlwings that Lite itself brings (tests/lite runs them with it)
    expected = {
        f"ModuleNotFoundError: No module named '{module}'"
        for name in missing
        for module in release.imports(name)
    }
    lites_own = {"keizer_xl.lite": "ModuleNotFoundError: No module named 'xlwings'"}
    problems = [
        f"{module}: {f['error']}\n    "
        f"{str(f['file']).removeprefix(f'{REPO}/')}:{f['line']}: {f['code']}"
        for module, f in sweep["failed"].items()
        if f["error"] != lites_own.get(module) and f["error"] not in expected
    ]
    assert not problems, "\n".join(problems)
    checked = len(sweep["modules"]) - len(sweep["failed"])
    assert checked >= len(sweep["modules"]) // 2, f"only {checked} modules imported"


def not_at_hand(release: Release) -> set[str]:
    """The release's packages that its setup could not have here (its manifest says)."""
    with open(release.folder / "manifest.json", encoding="utf-8") as f:
        missing: dict[str, str] = json.load(f)["missing"]
    return set(missing)
