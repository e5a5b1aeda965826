"""Where start-up goes: a click's imports against pandas, and `python -X importtime` of
`recalc`, `pair` and a click (a script, not a test).

A click's imports are what xlwings and keizer_xl's button module load; they are measured
against importing pandas alone, in fresh processes taking turns (so a busy machine does
not blur the ratio). The importtime summaries list the packages that cost most, each with
everything it pulled in when it was first imported (so the rows overlap: pandas includes
the numpy it imports); the import clock itself adds to these figures, so read them as
shares of the total.

Run `python bench/bench_imports.py`; `main()` returns the figures for the bench runner.
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/seasons.py

from measure import Figure, cli, compile_sources, in_turns

REPEAT = 9
CLICK_IMPORTS = "import xlwings, keizer_xl.live.buttons"
TARGET_RATIO = 1.8  # a click's imports / importing pandas alone (issue 24)
SHOWN = 8  # packages listed per importtime summary
STDLIB = "(standard library)"


def import_seconds(statement: str) -> float:
    """Seconds the statement takes in a fresh Python (its start-up left out)."""
    code = f"import time; t = time.perf_counter(); {statement}; print(time.perf_counter() - t)"
    env = {**os.environ, "XLWINGS_LICENSE_KEY": "noncommercial"}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env
    ).stdout
    return float(out)


@dataclass
class Imported:
    """One line of `-X importtime`: a module, its own and cumulative microseconds."""

    name: str
    own: int
    cumulative: int
    depth: int
    parent: Imported | None = field(default=None, repr=False)

    @property
    def package(self) -> str:
        """Its top-level package; Python's own modules count as one."""
        top = self.name.split(".")[0]
        return STDLIB if top in sys.stdlib_module_names else top


def parse_importtime(stderr: str) -> list[Imported]:
    """The modules in the order Python reports them (each after what it imported), each
    with the module that imported it."""
    modules: list[Imported] = []
    waiting: dict[int, list[Imported]] = {}  # reported, parent not yet seen, by depth
    for line in stderr.splitlines():
        if not line.startswith("import time:") or "imported package" in line:
            continue
        own, cumulative, name = line[len("import time:") :].split("|")
        depth = (len(name) - len(name.lstrip()) - 1) // 2
        module = Imported(name.strip(), int(own), int(cumulative), depth)
        for child in waiting.pop(depth + 1, []):
            child.parent = module
        waiting.setdefault(depth, []).append(module)
        modules.append(module)
    return modules


def summary(
    modules: list[Imported], shown: int = SHOWN
) -> tuple[float, list[tuple[str, float, float]]]:
    """Total import seconds, and the costliest packages: for each, what bringing it in
    cost (the cumulative time of its imports from outside it, what it imported included)
    and its own modules' time alone."""
    total = sum(m.cumulative for m in modules if m.depth == 0) / 1e6
    brought: dict[str, int] = {}
    own: dict[str, int] = {}
    for m in modules:
        own[m.package] = own.get(m.package, 0) + m.own
        if m.parent is None or m.parent.package != m.package:
            brought[m.package] = brought.get(m.package, 0) + m.cumulative
    top = sorted(brought, key=lambda name: -brought[name])[:shown]
    return total, [(name, brought[name] / 1e6, own[name] / 1e6) for name in top]


def importtime(
    command: list[str], env: dict[str, str] | None = None
) -> tuple[float, list[Imported]]:
    """Wall seconds of the command under `-X importtime`, and its imports."""
    start = time.perf_counter()
    done = subprocess.run(
        [command[0], "-X", "importtime", *command[1:]], capture_output=True, text=True, env=env
    )
    wall = time.perf_counter() - start
    if done.returncode:
        raise SystemExit(f"{' '.join(command)}: {done.stderr[-2000:]}")
    return wall, parse_importtime(done.stderr)


def show(label: str, wall: float, modules: list[Imported]) -> None:
    total, top = summary(modules)
    print(
        f"importtime, {label}: imports {total * 1000:.0f} ms of {wall * 1000:.0f} ms wall "
        f"({total / wall:.0%}); per package: bringing it in (share), its own modules"
    )
    for name, brought, own in top:
        print(
            f"    {name:<24.24} {brought * 1000:7.1f} ms ({brought / total:4.0%})  "
            f"{own * 1000:7.1f} ms"
        )


def main() -> list[Figure]:
    compile_sources()
    click, pandas = in_turns(
        REPEAT, lambda: import_seconds(CLICK_IMPORTS), lambda: import_seconds("import pandas")
    )
    click_s, pandas_s = statistics.median(click), statistics.median(pandas)
    print(
        f"a click's imports ({CLICK_IMPORTS}): {click_s * 1000:.0f} ms; "
        f"import pandas: {pandas_s * 1000:.0f} ms ({click_s / pandas_s:.2f} x, target "
        f"{TARGET_RATIO})"
    )
    figures = [
        Figure("a click's imports / import pandas", click_s / pandas_s, TARGET_RATIO, "x", issue=24)
    ]

    from bench_live import BUTTONS, click_command, write_books

    from tests.seasons import club_season, season_book

    work = Path(tempfile.mkdtemp(prefix="keizer-bench-"))
    try:
        season = season_book(work / "season.xlsx", club_season(60, 37), present=0.8)
        for name in ("recalc", "pair"):
            copy = work / "copy.xlsx"
            shutil.copy(season, copy)
            show(f"keizer-xl {name}, 60 x 37", *importtime(cli(name, copy)))
        label, _, entry = BUTTONS[0]
        command, env = click_command(write_books(work)[entry], entry)
        show(f'click "{label}", 60 x 37', *importtime(command, env))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return figures


if __name__ == "__main__":
    for figure in main():
        print(figure.line())
