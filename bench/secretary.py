"""The secretary's Python: a virtual environment made by `pip install` of this checkout.

What a click costs depends on what else is installed: xlwings imports matplotlib and
pandas whenever they are there, and a developer's environment holds test and lint tools
besides. So `make bench` measures in a venv holding keizer_xl and its dependencies only,
as `pip install keizer-xl` makes it. The venv is kept in build/ between runs and made again
when the dependency list changes; keizer_xl itself is installed afresh from this checkout
on every run, so the figures are those of the code as it is now.
"""

from __future__ import annotations

import hashlib
import re
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENV = ROOT / "build" / "bench-venv"
STAMP = VENV / "keizer-xl-dependencies"


def python() -> Path:
    return VENV / ("Scripts/python.exe" if sys.platform == "win32" else "bin/python")


def dependencies() -> str:
    """A digest of the project's dependency list, as pyproject.toml has it."""
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    listed = re.search(r"^dependencies = \[(.*?)^\]", text, re.MULTILINE | re.DOTALL)
    if listed is None:
        raise SystemExit("pyproject.toml has no dependency list")
    return hashlib.sha256(listed.group(1).encode()).hexdigest()


def prepare() -> Path:
    """The venv with this checkout installed; made or brought up to date first."""
    wanted = dependencies()
    fresh = not python().exists() or not STAMP.exists() or STAMP.read_text() != wanted
    if fresh:
        print(
            f"making the secretary's venv in {VENV} (pip install of this checkout) ...", flush=True
        )
        venv.create(VENV, clear=True, with_pip=True)
        pip("install", "--quiet", str(ROOT))
        STAMP.write_text(wanted)
    else:
        pip("install", "--quiet", "--no-deps", "--force-reinstall", str(ROOT))
    return python()


def pip(*args: str) -> None:
    subprocess.run([str(python()), "-m", "pip", "--disable-pip-version-check", *args], check=True)
