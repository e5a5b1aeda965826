"""Timing of the command line on real workbook files (a script, not a test).

The yardstick is the *floor*: starting Python, importing pandas and reading every sheet
with python-calamine, the least any Python tool reading the workbook must spend. Each
command runs in a fresh process, as the secretary runs it; the figure is the median of
several runs on fresh copies, so every run really writes.
"""

from __future__ import annotations

import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from seasons import club_season, write_workbook

CLI = [sys.executable, "-m", "keizer_xl.cli.main"]
FLOOR = ("import sys, pandas; from python_calamine import CalamineWorkbook; "
         "wb = CalamineWorkbook.from_path(sys.argv[1]); "
         "[wb.get_sheet_by_name(n).to_python() for n in wb.sheet_names]")


def timed(floor: list[str], command: list[str], prepare: Path, source: Path,
          runs: int = 7) -> tuple[float, float]:
    """Median wall times of the floor and of a command, each in a fresh process.

    The two take turns, so that a machine that slows down or speeds up meanwhile (a shared
    one does) affects both alike; `prepare` is refreshed from `source` before each run of
    the command."""
    floors, times = [], []
    for _ in range(runs):
        floors.append(run(floor))
        shutil.copy(source, prepare)
        times.append(run(command))
    return statistics.median(floors), statistics.median(times)


def run(command: list[str]) -> float:
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{command} failed:\n{done.stdout}{done.stderr}")
    return elapsed


def compile_sources() -> None:
    """Compile keizer_xl's modules to bytecode first, as installing the package does.

    Where Python is told not to write bytecode (PYTHONDONTWRITEBYTECODE), every fresh
    process would otherwise compile our sources again, which no installed copy does."""
    package = Path(__file__).resolve().parent.parent / "keizer_xl"
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(package)], check=True)


def main() -> list[tuple[str, float, float]]:
    compile_sources()
    out: list[tuple[str, float, float]] = []
    work = Path(tempfile.mkdtemp(prefix="keizer-bench-"))
    try:
        season = write_workbook(club_season(60, 37), work / "season.xlsx")
        copy = work / "copy.xlsx"
        floor, recalc = timed([sys.executable, "-c", FLOOR, str(season)],
                              [*CLI, "recalc", str(copy)], copy, season)
        print(f"floor (python + pandas + calamine, 60x37): {floor * 1000:.0f} ms")
        print(f"keizer-xl recalc 60 players x 37 rounds: {recalc * 1000:.0f} ms = "
              f"{recalc / floor:.2f} x floor (target 1.30)")
        out.append(("recalc 60x37 / floor", recalc / floor, 1.3))

        big = write_workbook(club_season(1000, 30), work / "big.xlsx")
        big_copy = work / "big_copy.xlsx"
        big_floor, pair = timed([sys.executable, "-c", FLOOR, str(big)],
                                [*CLI, "pair", str(big_copy)], big_copy, big, runs=5)
        print(f"floor (1000 players x 30 rounds): {big_floor * 1000:.0f} ms")
        print(f"keizer-xl pair 1000 players after 30 rounds: {pair * 1000:.0f} ms = "
              f"{pair / big_floor:.2f} x floor (target 2.00)")
        out.append(("pair 1000x30 / floor", pair / big_floor, 2.0))

        # the usual week: last week's Standings are on the sheet and get rewritten
        subprocess.run([*CLI, "recalc", str(big)], capture_output=True, check=True)
        weekly_floor, weekly = timed([sys.executable, "-c", FLOOR, str(big)],
                                     [*CLI, "pair", str(big_copy)], big_copy, big, runs=5)
        print(f"keizer-xl pair 1000 players after 30 rounds, Standings already filled: "
              f"{weekly * 1000:.0f} ms = {weekly / weekly_floor:.2f} x floor (target 2.00)")
        out.append(("pair 1000x30, Standings filled / floor", weekly / weekly_floor, 2.0))

        batch = work / "batch"
        batch.mkdir()
        files = []
        for i in range(200):
            files.append(batch / f"club{i:03d}.xlsx")
            shutil.copy(season, files[-1])
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        done = subprocess.run([*CLI, "recalc", *map(str, files)], capture_output=True,
                              text=True)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if done.returncode != 0:
            raise SystemExit(done.stdout + done.stderr)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        print(f"keizer-xl recalc of 200 season files: {wall:.1f} s, "
              f"{wall / 200 * 1000:.0f} ms per file, cores busy {cpu / wall:.2f} "
              f"(of {len(__import__('os').sched_getaffinity(0))})")
        out.append(("batch 200 files, seconds per file", wall / 200, recalc))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return out


if __name__ == "__main__":
    main()
