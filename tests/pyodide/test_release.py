"""The setup's own rules, on a made-up release: files unlike the lock file are refused, and
requirements are met as Lite's installer meets them (the release first, then pure wheels)."""

from __future__ import annotations

import hashlib
import json
import zipfile
from pathlib import Path

import pytest
from packaging.requirements import Requirement

from tests.pyodide.release import Carrier, Refused, Release, resolve

PYTHON = "3.12.7"


def made_up(tmp_path: Path, packages: dict[str, tuple[str, bytes, list[str]]]) -> Release:
    """A release whose lock file lists `packages`: name -> (version, content, depends)."""
    release = Release("1.0", tmp_path)
    release.folder.mkdir()
    lock = {
        "info": {"python": PYTHON, "platform": "emscripten_3_1_58"},
        "packages": {
            name: {
                "name": name,
                "version": version,
                "file_name": f"{name}-{version}.whl",
                "sha256": hashlib.sha256(content).hexdigest(),
                "depends": depends,
            }
            for name, (version, content, depends) in packages.items()
        },
    }
    release.lock_file.write_text(json.dumps(lock), encoding="utf-8")
    return release


def pure_wheel(folder: Path, name: str, version: str, *requires: str) -> None:
    folder.mkdir(exist_ok=True)
    metadata = "".join(
        [
            f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n",
            *(f"Requires-Dist: {r}\n" for r in requires),
        ]
    )
    with zipfile.ZipFile(folder / f"{name}-{version}-py3-none-any.whl", "w") as zf:
        zf.writestr(f"{name}-{version}.dist-info/METADATA", metadata)


def test_a_file_unlike_the_lock_file_is_refused_and_removed(tmp_path: Path) -> None:
    release = made_up(tmp_path, {"a": ("1.0", b"a's", []), "b": ("1.0", b"b's", [])})
    (release.folder / "a-1.0.whl").write_bytes(b"a's")
    (release.folder / "b-1.0.whl").write_bytes(b"not b's")
    with pytest.raises(Refused, match=r"b-1\.0\.whl: its sha256 is .* pyodide-lock\.json says"):
        release.verify()
    assert not (release.folder / "b-1.0.whl").exists()
    assert release.verify() == ["a-1.0.whl"]


def test_the_carrier_s_files_are_checked_before_they_are_copied(tmp_path: Path) -> None:
    release = made_up(tmp_path, {"a": ("1.0", b"a's", []), "b": ("1.0", b"b's", [])})
    with zipfile.ZipFile(tmp_path / "carrier.whl", "w") as zf:
        zf.writestr("assets/a-1.0.whl", b"a's")
        zf.writestr("assets/b-1.0.whl", b"not b's")
    carrier = Carrier(release)
    carrier.requirement, carrier.prefix = "carrier==1", "assets/"
    carrier._zip = zipfile.ZipFile(tmp_path / "carrier.whl")
    carrier.extract(["a-1.0.whl"])
    with pytest.raises(Refused, match=r"carrier==1 holds b-1\.0\.whl with sha256"):
        carrier.extract(["b-1.0.whl"])
    carrier.close()
    assert (release.folder / "a-1.0.whl").read_bytes() == b"a's"
    assert not (release.folder / "b-1.0.whl").exists()


def test_the_release_s_packages_first_then_pure_wheels(tmp_path: Path) -> None:
    release = made_up(
        tmp_path,
        {
            "a": ("1.0", b"", ["b"]),
            "b": ("2.0", b"", []),
            "c": ("1.0", b"", []),
            "h": ("1.0", b"", []),
        },
    )
    pure_wheel(
        release.pypi,
        "d",
        "1.0",
        "a>=1",
        "e; sys_platform != 'emscripten'",
        "f; extra == 'more'",
        "c>=2",
    )
    pure_wheel(release.pypi, "c", "2.0")
    pure_wheel(release.pypi, "h", "1.0", "i")  # Pyodide's own build is at hand: not used
    plan = resolve(
        release,
        [
            Requirement("d"),
            Requirement("g>=1"),
            Requirement("h"),
            Requirement("j; sys_platform != 'emscripten'"),
        ],
    )
    assert plan.lock == {"a", "b", "h"}
    assert {name: path.name for name, path in plan.wheels.items()} == {
        "d": "d-1.0-py3-none-any.whl",
        "c": "c-2.0-py3-none-any.whl",
    }
    assert list(plan.missing) == ["g"]
    assert "not in Pyodide 1.0, and no pure-Python wheel in the cache" in plan.missing["g"]


def test_without_the_release_s_own_build_its_version_from_pypi(tmp_path: Path) -> None:
    release = made_up(tmp_path, {"a": ("1.0", b"", [])})
    pure_wheel(release.pypi, "a", "1.0")
    pure_wheel(release.pypi, "a", "3.0")
    carrier = Carrier(release)
    carrier.files = set()  # the carrier holds nothing of it
    plan = resolve(release, [Requirement("a")], carrier=carrier)
    assert plan.lock == set()
    assert plan.wheels["a"].name == "a-1.0-py3-none-any.whl"  # what Lite would load
