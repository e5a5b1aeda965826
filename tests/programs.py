"""The programs some tests drive (LibreOffice, poppler, Chromium), and one policy for when
one is missing: in CI (`CI=true`) the test fails, because .ci/system-packages installs them
all and a missing one means the tests did not run; elsewhere it is skipped with the reason,
so a machine without LibreOffice still runs everything else.

Tests that drive a program or another process carry the `programs` marker, with the
programs they need: `@pytest.mark.programs("pdftotext")`; `make check` leaves them out, and
conftest fails a test that starts a process without it."""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

# Where a program comes from: the Debian package .ci/system-packages installs
PACKAGES = {
    "soffice": "libreoffice-calc-nogui",
    "pdftoppm": "poppler-utils",
    "pdftotext": "poppler-utils",
    "pdfinfo": "poppler-utils",
    "chromium": "chromium",
    "node": "nodejs",
}
# Other names a program goes by
ALIASES = {"soffice": ("soffice", "libreoffice")}


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() in ("true", "1", "yes")


def need(program: str) -> str:
    """The program's path; without it the test fails in CI and is skipped elsewhere."""
    for name in ALIASES.get(program, (program,)):
        found = shutil.which(name)
        if found:
            return found
    package = PACKAGES.get(program, program)
    reason = f"needs {program} (Debian package {package}; `bash .ci/system-packages` installs it)"
    if in_ci():
        pytest.fail(f"{reason}: CI must run every test", pytrace=False)
    pytest.skip(reason)


HOLD = (
    "import sys, time; from pathlib import Path; "
    "from keizer_xl.workbook.xlsx import one_writer\n"
    "with one_writer(Path(sys.argv[1])):\n print('held', flush=True); time.sleep(60)"
)


@contextlib.contextmanager
def another_writer(path: Path) -> Iterator[None]:
    """Another keizer_xl process holding the writer lock of the workbook at `path` (as a
    run or a button busy with it would) until the block ends; then it is killed, and its
    lock ends with it."""
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(path)],
        cwd=Path(__file__).resolve().parents[1],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        yield
    finally:
        holder.kill()
        holder.communicate()  # waits, and closes the pipe
