""".ci/apt-wait: the system packages are installed after another apt has finished, not given
up on at once; a lock held too long ends in a clear message. The package manager is a
stand-in that, like apt-get, fails at once with apt's words while its lock file is held."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
APT_WAIT = ROOT / ".ci" / "apt-wait"

# apt-get's own messages when another process holds its lock (apt 2.6)
APT_GET = """#!/usr/bin/env bash
echo "try" >> "$TRIES"
if ! flock -n "$LOCK" true; then
    echo "E: Could not get lock $LOCK. It is held by process 4242 (unattended-upgr)" >&2
    echo "E: Unable to acquire the dpkg frontend lock ($LOCK), is another process using it?" >&2
    exit 100
fi
echo "installed $*"
"""

pytestmark = [
    pytest.mark.programs("bash", "flock"),
    pytest.mark.skipif(sys.platform == "win32", reason="apt is Debian's"),
]


@contextmanager
def held(lock: Path) -> Iterator[None]:
    """The lock file held, as an apt at work holds its own."""
    import fcntl  # not on Windows

    with open(lock, "w") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def apt_wait(
    tmp_path: Path, *arguments: str, wait: int = 600, apt: str = APT_GET
) -> subprocess.Popen[str]:
    """.ci/apt-wait started on the stand-in apt-get (polling quickly)."""
    apt_get = tmp_path / "apt-get"
    apt_get.write_text(apt, encoding="utf-8")
    apt_get.chmod(0o755)
    env = {
        **os.environ,
        "LOCK": str(tmp_path / "lock-frontend"),
        "TRIES": str(tmp_path / "tries"),
        "KEIZER_XL_APT_WAIT": str(wait),
        "KEIZER_XL_APT_POLL": "0.2",
    }
    return subprocess.Popen(
        ["bash", str(APT_WAIT), str(apt_get), *arguments],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def tries(tmp_path: Path) -> int:
    return len((tmp_path / "tries").read_text(encoding="utf-8").splitlines())


def test_a_free_package_manager_runs_once(tmp_path: Path) -> None:
    with apt_wait(tmp_path, "install", "-y", "poppler-utils") as run:
        out, err = run.communicate(timeout=60)
    assert (run.returncode, out, err) == (0, "installed install -y poppler-utils\n", "")
    assert tries(tmp_path) == 1


def test_a_busy_package_manager_is_waited_for(tmp_path: Path) -> None:
    with held(tmp_path / "lock-frontend"):
        run = apt_wait(tmp_path, "update", "-qq")
        assert run.stderr is not None
        progress = run.stderr.readline()  # said while the lock is still held
    with run:
        out, err = run.communicate(timeout=60)
    assert "busy (held by process 4242 (unattended-upgr)): waiting at most 600 s" in progress
    assert (run.returncode, out) == (0, "installed update -qq\n")
    assert "Could not get lock" not in progress + err  # apt's words only once it gives up
    assert tries(tmp_path) >= 2


def test_a_package_manager_busy_too_long_ends_in_a_clear_message(tmp_path: Path) -> None:
    with held(tmp_path / "lock-frontend"), apt_wait(tmp_path, "update", wait=1) as run:
        out, err = run.communicate(timeout=60)
    assert run.returncode == 1 and out == ""
    assert "still busy after" in err and "(held by process 4242 (unattended-upgr))" in err
    assert "let it finish (or stop it), then run this again" in err
    assert tries(tmp_path) >= 2


def test_another_failure_is_the_commands_own_at_once(tmp_path: Path) -> None:
    missing = "#!/usr/bin/env bash\necho 'E: Unable to locate package chromium' >&2\nexit 100\n"
    with apt_wait(tmp_path, "install", "chromium", apt=missing) as run:
        out, err = run.communicate(timeout=60)
    assert (run.returncode, out, err) == (100, "", "E: Unable to locate package chromium\n")
