"""`pip install keizer-xl` in xlwings Lite: every dependency that the environment markers
select under Pyodide is one Pyodide ships, or a pure-Python wheel (what Lite's installer can
take from PyPI); checked against the lock files of the oldest release keizer-xl supports
and of the newest on npm. On a desktop the markers change nothing."""

from __future__ import annotations

import pytest
from packaging.utils import canonicalize_name

from tests.pyodide.release import NEWEST, OLDEST, Release, project_requirements, resolve
from tests.pyodide.runner import ready_release

pytestmark = pytest.mark.pyodide
NOT_IN_LITE = {"python-calamine", "xlwings"}  # issue: why, in pyproject


@pytest.mark.parametrize("version", [OLDEST, NEWEST])
def test_every_selected_dependency_can_be_installed(version: str) -> None:
    release = Release(version, ready_release().parent)
    plan = resolve(release, project_requirements())
    hint = "; if Lite can do without it, mark it `; sys_platform != 'emscripten'`"
    assert not plan.missing, "\n".join(f"{name}: {why}{hint}" for name, why in plan.missing.items())
    assert {"numpy", "pandas"} <= plan.lock  # Pyodide's own builds, not some wheel


def test_the_desktop_only_ones_are_left_out() -> None:
    environment = Release(OLDEST, ready_release().parent).environment()
    left_out = {
        canonicalize_name(r.name)
        for r in project_requirements()
        if r.marker is not None and not r.marker.evaluate(environment)
    }
    assert left_out == NOT_IN_LITE


@pytest.mark.parametrize("platform", ["linux", "win32", "darwin"])
def test_a_desktop_gets_every_dependency(platform: str) -> None:
    system = {"linux": "Linux", "win32": "Windows", "darwin": "Darwin"}[platform]
    for requirement in project_requirements():
        assert requirement.marker is None or requirement.marker.evaluate(
            {"sys_platform": platform, "platform_system": system}
        ), requirement
