"""The lock (requirements/dev.txt) pins what pyproject.toml asks for, on every system and
Python that CI runs, within pyproject's lower bounds; `make` installs through it."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from packaging.markers import Marker
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

if sys.version_info >= (3, 11):
    import tomllib
else:  # the same module, under its old name (in the lock for Python 3.10)
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[1]
LOCK = ROOT / "requirements" / "dev.txt"
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
MAKEFILE = (ROOT / "Makefile").read_text(encoding="utf-8")

# CI's Pythons (3.10 and the newest) and those between, on its three systems.
PYTHONS = ["3.10.0", "3.11.9", "3.12.8", "3.13.1", "3.14.0"]
SYSTEMS = {"linux": ("posix", "Linux"), "win32": ("nt", "Windows"), "darwin": ("posix", "Darwin")}


def environment(python: str, system: str) -> dict[str, str]:
    os_name, platform_system = SYSTEMS[system]
    return {
        "python_full_version": python,
        "python_version": python.rsplit(".", 1)[0],
        "sys_platform": system,
        "os_name": os_name,
        "platform_system": platform_system,
        "platform_python_implementation": "CPython",
        "implementation_name": "cpython",
    }


def pins() -> list[tuple[str, Version, Marker | None]]:
    """The lock's lines: name, exact version, marker."""
    found = []
    for line in LOCK.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        requirement = Requirement(line)
        (specifier,) = requirement.specifier  # one, and exact
        assert specifier.operator == "==", line
        found.append(
            (canonicalize_name(requirement.name), Version(specifier.version), requirement.marker)
        )
    return found


def wanted() -> list[Requirement]:
    return [
        Requirement(r) for r in [*PROJECT["dependencies"], *PROJECT["optional-dependencies"]["dev"]]
    ]


def test_the_lock_is_exact_and_names_no_index_of_one_machine() -> None:
    text = LOCK.read_text(encoding="utf-8")
    assert len(pins()) >= 40
    assert not re.search(r"^\s*-|file:|://", text, re.MULTILINE)  # no index, links, paths


@pytest.mark.parametrize("system", sorted(SYSTEMS))
@pytest.mark.parametrize("python", PYTHONS)
def test_every_requirement_has_one_pin_within_its_bounds(python: str, system: str) -> None:
    """Each package the project asks for, here, is pinned once, at a version pyproject.toml
    allows: a lower bound raised past the lock fails until `make lock` is run."""
    env = environment(python, system)
    here: dict[str, list[Version]] = {}
    for name, version, marker in pins():
        if marker is None or marker.evaluate(env):
            here.setdefault(name, []).append(version)
    assert not {n: v for n, v in here.items() if len(v) > 1}, "two pins for one package"
    for requirement in wanted():
        if requirement.marker is not None and not requirement.marker.evaluate(
            {**env, "extra": "dev"}
        ):
            continue
        name = canonicalize_name(requirement.name)
        assert name in here, f"{name} is not in the lock: run `make lock`"
        assert requirement.specifier.contains(here[name][0], prereleases=True), (
            f"{name} {here[name][0]} is outside {requirement.specifier}: run `make lock`"
        )


def test_make_installs_through_the_lock_for_the_oldest_python() -> None:
    """Every target that sets up .venv goes through the stamp, which installs the lock; the
    lock is made for the oldest Python pyproject.toml allows, and every one after it."""
    stamp = MAKEFILE.split("$(STAMP): pyproject.toml $(LOCK)\n", 1)[1].split("\n\n", 1)[0]
    assert "pip install --quiet -r $(LOCK) -e '.[dev]'" in stamp
    assert re.search(r"^LOCK := requirements/dev\.txt$", MAKEFILE, re.MULTILINE)
    oldest = re.fullmatch(r">=(3\.\d+)", PROJECT["requires-python"])
    assert oldest is not None
    assert f"--universal --python-version {oldest.group(1)} " in MAKEFILE
    for line in MAKEFILE.splitlines():  # pip itself aside: the lock's uv, or the lock
        if "pip install" in line and "$(BIN)" in line and "--upgrade pip" not in line:
            assert "$(LOCK)" in line, line
