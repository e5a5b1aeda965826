"""What every benchmark shares: a figure against its target, fresh processes timed side by
side, the bare floor, and the machine the figures were taken on.

A figure is only worth its comparison. The floor is the least any Python tool that reads
a workbook and writes it back must spend, in one fresh process: starting Python, reading
every sheet with python-calamine and copying the zip package member by member. Commands
and their yardstick run in turns, so a shared machine that slows down meanwhile slows
both alike.
"""

from __future__ import annotations

import datetime as dt
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# argv: the workbook, a path to write the copy to.
FLOOR = """
import os, sys, zipfile
from python_calamine import CalamineWorkbook
book = CalamineWorkbook.from_path(sys.argv[1])
[book.get_sheet_by_name(name).to_python() for name in book.sheet_names]
with zipfile.ZipFile(sys.argv[1]) as old, zipfile.ZipFile(sys.argv[2] + ".tmp", "w") as new:
    for info in old.infolist():
        new.writestr(info, old.read(info))  # compressed as it was
os.replace(sys.argv[2] + ".tmp", sys.argv[2])
"""


@dataclass(frozen=True)
class Figure:
    """One measured figure and the most it may be; `issue` names the issue that set the
    target (the summary lists those first)."""

    label: str
    value: float
    target: float
    unit: str  # "s", "ms", "x" (a ratio) or "MB"
    issue: int | None = None

    @property
    def met(self) -> bool:
        return self.value <= self.target

    def line(self) -> str:
        return (
            f"{'PASS' if self.met else 'FAIL'}  {self.label}: {self.shown(self.value)} "
            f"(target ≤ {self.shown(self.target)})"
        )

    def shown(self, value: float) -> str:
        if self.unit == "x":
            return f"{value:.2f} ×"
        if self.unit == "s" and value >= 1:
            return f"{value:.2f} s"
        if self.unit == "s":
            value, unit = value * 1000, "ms"
        else:
            unit = self.unit
        return f"{value:.0f} {unit}" if value >= 10 else f"{value:.1f} {unit}"


def run(command: Sequence[str], env: dict[str, str] | None = None) -> float:
    """Wall seconds of one fresh process; a failing command stops the bench."""
    start = time.perf_counter()
    done = subprocess.run(list(command), capture_output=True, text=True, env=env)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed:\n{done.stdout}{done.stderr}")
    return elapsed


def in_turns(runs: int, *actions: Callable[[], float]) -> list[list[float]]:
    """Each action `runs` times, taking turns; every action's times."""
    times: list[list[float]] = [[] for _ in actions]
    for _ in range(runs):
        for i, action in enumerate(actions):
            times[i].append(action())
    return times


def median(times: Sequence[float]) -> float:
    return statistics.median(times)


def command_on_copy(command: Sequence[str], source: Path, copy: Path) -> Callable[[], float]:
    """A command that changes the workbook, run on a fresh copy each time so that every
    run really writes."""

    def action() -> float:
        shutil.copy(source, copy)
        return run(command)

    return action


def floor(book: Path, scratch: Path) -> Callable[[], float]:
    return lambda: run([sys.executable, "-c", FLOOR, str(book), str(scratch)])


def bare_python() -> float:
    return run([sys.executable, "-c", "pass"])


def compile_sources() -> None:
    """Compile keizer_xl's modules to bytecode first, as installing the package does.

    Where Python is told not to write bytecode (PYTHONDONTWRITEBYTECODE), every fresh
    process would otherwise compile our sources again, which no installed copy does."""
    import keizer_xl

    package = Path(keizer_xl.__file__).resolve().parent
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(package)], check=True)


def cli(*args: object) -> list[str]:
    """The `keizer-xl` command in a fresh process of this Python."""
    return [sys.executable, "-m", "keizer_xl.cli", *map(str, args)]


# -- the machine ---------------------------------------------------------------------------


def cpu_model() -> str:
    try:
        text = Path("/proc/cpuinfo").read_text(encoding="utf-8")
    except OSError:
        return platform.processor() or platform.machine()
    found = re.search(r"^model name\s*:\s*(.+)$", text, re.MULTILINE)
    return found.group(1).strip() if found else platform.machine()


def cores() -> str:
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None
    total = os.cpu_count()
    return f"{usable} usable of {total}" if usable and usable != total else f"{total}"


def load() -> str:
    """The load average over 1, 5 and 15 minutes: how busy others keep the machine."""
    if not hasattr(os, "getloadavg"):
        return "unknown"
    one, five, fifteen = os.getloadavg()
    return f"{one:.2f}, {five:.2f}, {fifteen:.2f}"


def machine() -> list[str]:
    """Date, machine and load, for the head of a bench run."""
    import keizer_xl

    blas = {k: v for k, v in os.environ.items() if k.startswith(("OPENBLAS", "OMP_", "MKL_"))}
    return [
        f"date: {dt.datetime.now().astimezone().isoformat(timespec='seconds')}",
        f"machine: {cpu_model()}, {cores()} cores, {platform.system()} {platform.release()}",
        f"load average (1, 5, 15 min): {load()}",
        f"python: {sys.executable} ({platform.python_version()})",
        f"keizer_xl from: {Path(keizer_xl.__file__).resolve().parent}",
        f"matplotlib installed here: {'yes' if _installed('matplotlib') else 'no'}",
        "BLAS settings in the environment: "
        + (", ".join(f"{k}={v}" for k, v in sorted(blas.items())) or "none"),
    ]


def _installed(module: str) -> bool:
    import importlib.util

    return importlib.util.find_spec(module) is not None
