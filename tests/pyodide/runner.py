"""Python inside Pyodide, for the tests: `run_in_pyodide(["-m", "pytest", ...])`.

Pyodide is made ready once per test run by `.ci/pyodide-setup` (see release.py). Where it
cannot be had (no node, no network for the first download), the tests that need it are
skipped with the reason, except in CI (CI=true), where they fail: CI must test under
Pyodide. A file that is not the release's own always fails.
"""

from __future__ import annotations

import functools
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest

from tests.programs import in_ci
from tests.pyodide.release import MISSING, OLDEST, REPO

RUNNER = Path(__file__).with_name("run.mjs")


@functools.cache
def _setup() -> tuple[int, str]:
    done = subprocess.run(
        [sys.executable, str(REPO / ".ci" / "pyodide-setup"), "--print-dir"],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode == 0:
        return 0, done.stdout.strip()
    return done.returncode, done.stderr.strip()


def ready_release(version: str = OLDEST) -> Path:
    """The folder of a Pyodide release the tests run in (the oldest, unless another is
    named), ready offline."""
    status, said = _setup()
    if status == 0:
        return Path(said).parent / f"pyodide-{version}"
    if status == MISSING and not in_ci():
        pytest.skip(f"Pyodide is not at hand: {said}")
    pytest.fail(f".ci/pyodide-setup failed:\n{said}", pytrace=False)


def run_in_pyodide(
    args: Sequence[str],
    *,
    mounts: Sequence[Path] = (),
    cwd: Path = REPO,
    bare: bool = False,
    version: str = OLDEST,
    timeout: float = 1800,
) -> subprocess.CompletedProcess[str]:
    """`python ARGS` inside Pyodide (e.g. `-m pytest tests/core`, `-c CODE`, a script), with
    the repository, `cwd` and `mounts` at their own paths; its status and output. `bare`:
    keizer-xl's dependencies alone, without pytest, Hypothesis and xlwings. `version`: the
    release to run in (what of keizer-xl's dependencies it has at hand is in its
    manifest)."""
    release = ready_release(version)
    command = ["node", str(RUNNER), "--release", str(release), *(["--bare"] if bare else [])]
    for folder in mounts:
        command += ["--mount", str(folder)]
    return subprocess.run(
        [*command, "--", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
