"""The program in a fresh process, with its peak memory: for the memory tests and the
memory bench alike (standard library only, as the bench's own venv has no test tools).

The peak is the process image's resident high-water mark, VmHWM. Not ru_maxrss, which
Linux carries over from the parent (a large test or bench process) through fork and exec.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

MEASURED = """
import re, sys
from keizer_xl.cli import run
try:
    run()  # the program as its console script starts it; it ends with SystemExit
finally:
    with open("/proc/self/status") as status:
        found = re.search(r"VmHWM:\\s*(\\d+) kB", status.read()).group(1)
    print("peak", found, file=sys.stderr)
"""


def measured(
    *args: object, cwd: Path | None = None, timeout: float | None = None
) -> tuple[int, str, int, float]:
    """`keizer-xl ARGS` in a fresh process, in `cwd`: (exit code, what it said on stdout and
    stderr, peak memory in bytes, wall seconds). The bench leaves `cwd` alone, so that the
    installed keizer_xl is the one measured, not the checkout's."""
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", MEASURED, *map(str, args)],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    seconds = time.perf_counter() - start
    lines = done.stderr.splitlines()
    peak = int(lines[-1].split()[1]) * 1024
    return done.returncode, done.stdout + "\n".join(lines[:-1]), peak, seconds
