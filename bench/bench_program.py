"""What the program's own settings save (a script, not a test): `keizer_xl.cli.program`
pauses the garbage collector through the imports and tunes it for one short command, and
keeps numpy's linear algebra to one thread. Each is kept only while it pays, so each is
measured here against the program without it.

CPU time (user and system, the process and its threads) of fresh processes in turns,
medians: a spinning BLAS thread costs CPU more than wall time, and on a shared machine CPU
time is the steadier figure.
"""

from __future__ import annotations

import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/seasons.py

from measure import Figure, compile_sources, in_turns

from tests.seasons import club_season, season_book

BLAS = ("OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")
# The program as its console script runs it, with all its settings.
PROGRAM = "from keizer_xl.cli import run; run()"
# Without the collector's settings: the collector as Python sets it, BLAS kept to one thread.
NO_COLLECTOR = f"""
import os
for name in {BLAS!r}:
    os.environ.setdefault(name, "1")
from keizer_xl.cli.main import main
main()
"""
# Without the BLAS setting: the collector set up as the program does, numpy's threads as
# numpy's library starts them (a thread per core).
NO_BLAS = f"""
import os
from keizer_xl.cli.program import as_program
as_program()
for name in {BLAS!r}:
    del os.environ[name]
from keizer_xl.cli.main import main
main()
"""


def cpu(script: str, *args: object, source: Path, copy: Path) -> Callable[[], float]:
    """A fresh process running `script` with `keizer-xl ARGS` on a fresh copy of `source`:
    its CPU seconds."""
    env = {k: v for k, v in os.environ.items() if k not in BLAS}

    def action() -> float:
        shutil.copy(source, copy)
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        done = subprocess.run(
            [sys.executable, "-c", script, *map(str, args), str(copy)],
            capture_output=True,
            text=True,
            env=env,
        )
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if done.returncode != 0:
            raise SystemExit(f"{script} failed:\n{done.stdout}{done.stderr}")
        return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)

    return action


def compared(command: str, book: Path, work: Path, runs: int) -> list[Figure]:
    """`keizer-xl COMMAND book` with every setting, without the collector's, without the
    BLAS one: the program's CPU time against each, which is at most 1 while the setting
    pays."""
    copy = work / "copy.xlsx"
    program, no_collector, no_blas = (
        statistics.median(t)
        for t in in_turns(
            runs,
            *(cpu(s, command, source=book, copy=copy) for s in (PROGRAM, NO_COLLECTOR, NO_BLAS)),
        )
    )
    print(
        f"keizer-xl {command} {book.stem}: {program * 1000:.0f} ms of CPU; without the "
        f"collector's settings {no_collector * 1000:.0f} ms, without the BLAS setting "
        f"{no_blas * 1000:.0f} ms"
    )
    return [
        Figure(
            f"{command} {book.stem}, the program / without the collector's settings",
            program / no_collector,
            1.0,
            "x",
        ),
        Figure(
            f"{command} {book.stem}, the program / without the BLAS setting",
            program / no_blas,
            1.0,
            "x",
        ),
    ]


def main() -> list[Figure]:
    compile_sources()
    work = Path(tempfile.mkdtemp(prefix="keizer-bench-"))
    try:
        club = season_book(work / "60x37.xlsx", club_season(60, 37), present=0.8)
        big = season_book(work / "1000x30.xlsx", club_season(1000, 30), present=0.8)
        return [*compared("recalc", club, work, runs=15), *compared("pair", big, work, runs=7)]
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    for figure in main():
        print(figure.line())
