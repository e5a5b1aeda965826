"""keizer_xl inside Pyodide (CPython for WebAssembly, 32-bit), as xlwings Lite runs it: the
engine's whole test suite, and every module importing with only the dependencies that
`pip install keizer-xl` selects there."""

from __future__ import annotations

import json

import pytest
from packaging.utils import canonicalize_name

from tests.pyodide.release import OLDEST, REPO, Release, project_requirements
from tests.pyodide.runner import ready_release, run_in_pyodide

pytestmark = pytest.mark.pyodide


def test_core_passes_under_pyodide() -> None:
    done = run_in_pyodide(["-m", "pytest", "tests/core", "-q", "-p", "no:cacheprovider"])
    lines = done.stdout.splitlines() or [""]
    first = next((i for i, line in enumerate(lines) if line.startswith("===")), len(lines))
    said = "\n".join([*lines[first:first + 50], "...", lines[-1], done.stderr])
    assert done.returncode == 0, f"tests/core under Pyodide {OLDEST}:\n{said}"
    assert " passed" in lines[-1]


def test_every_module_imports_with_the_dependencies_selected_there() -> None:
    """A module that needs a desktop-only dependency imports it where it is used (as the
    file reader does python-calamine), so that all of keizer_xl imports in Lite."""
    requirements = project_requirements()
    environment = Release(OLDEST, ready_release().parent).environment()
    names = [canonicalize_name(r.name) for r in requirements]
    done = run_in_pyodide(["tests/pyodide/sweep.py", *names, "pytest"], bare=True)
    assert done.returncode == 0, done.stderr
    sweep = json.loads(done.stdout.splitlines()[-1])
    assert sweep["platform"] == "emscripten"
    assert "keizer_xl.core.checks" in sweep["modules"]
    assert sweep["installed"]["pytest"] is None  # nothing but keizer-xl's own
    for requirement, name in zip(requirements, names, strict=True):
        selected = requirement.marker is None or requirement.marker.evaluate(environment)
        installed = sweep["installed"][name] is not None
        assert installed == selected, f"{requirement}: installed {sweep['installed'][name]}"
    # Lite's scripts need the xlwings that Lite itself brings (tests/lite runs them with it)
    lites_own = {"keizer_xl.lite": "ModuleNotFoundError: No module named 'xlwings'"}
    problems = [f"{module}: {f['error']}\n    "
                f"{str(f['file']).removeprefix(f'{REPO}/')}:{f['line']}: {f['code']}"
                for module, f in sweep["failed"].items() if f["error"] != lites_own.get(module)]
    assert not problems, "\n".join(problems)
