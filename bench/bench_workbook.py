"""The command line on real workbook files, against the bare floor (a script, not a test).

The floor (measure.FLOOR) is starting Python, reading every sheet with python-calamine
and copying the zip package: no pandas, which no command imports. Each command runs in a
fresh process, as the secretary runs it, on a fresh copy, so every run really writes;
floor and command take turns and the figures are medians.
"""

from __future__ import annotations

import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/seasons.py

from measure import (
    ROOT,
    Figure,
    bare_python,
    cli,
    command_on_copy,
    compile_sources,
    floor,
    in_turns,
    median,
)

from tests.seasons import club_season, season_book

RECALC_TARGET = 3.5  # × the floor, 60 × 37 (issue 24)
PAIR_TARGET = 4.0  # × the floor, 1,000 × 30 (issue 24)
SAVE_TARGET = 2.0  # seconds: a season's Standings and a round saved into a real workbook


def against_floor(command: str, book: Path, work: Path, runs: int) -> tuple[float, float, float]:
    """Medians of `python -c pass`, the floor and `keizer-xl COMMAND` on copies of `book`,
    in turns."""
    copy = work / f"copy-{book.name}"
    bare, base, timed = in_turns(
        runs,
        bare_python,
        floor(book, work / "floor.xlsx"),
        command_on_copy(cli(command, copy), book, copy),
    )
    return median(bare), median(base), median(timed)


def floor_figure(
    what: str,
    label: str,
    seconds: float,
    floor_seconds: float,
    target: float,
    issue: int | None = None,
) -> Figure:
    """Print a command's time against the floor, and the figure for it."""
    print(
        f"keizer-xl {what}: {seconds * 1000:.0f} ms = {seconds / floor_seconds:.2f} x the "
        f"floor (target {target})"
    )
    return Figure(f"{label} / the floor", seconds / floor_seconds, target, "x", issue=issue)


def main() -> list[Figure]:
    compile_sources()
    out: list[Figure] = []
    work = Path(tempfile.mkdtemp(prefix="keizer-bench-"))
    try:
        season = season_book(work / "season.xlsx", club_season(60, 37), present=0.8)
        bare, base, recalc = against_floor("recalc", season, work, runs=9)
        print(
            f"python -c pass: {bare * 1000:.0f} ms; the floor (python, calamine read of "
            f"every sheet, zip copy), 60 x 37: {base * 1000:.0f} ms"
        )
        out.append(
            floor_figure(
                "recalc 60 players x 37 rounds",
                "recalc 60 × 37",
                recalc,
                base,
                RECALC_TARGET,
                issue=24,
            )
        )

        big = season_book(work / "big.xlsx", club_season(1000, 30), present=0.8)
        _, big_base, pair = against_floor("pair", big, work, runs=5)
        print(f"the floor, 1000 x 30 ({big.stat().st_size / 1e6:.1f} MB): {big_base * 1000:.0f} ms")
        out.append(
            floor_figure(
                "pair 1000 players after 30 rounds",
                "pair 1,000 × 30",
                pair,
                big_base,
                PAIR_TARGET,
                issue=24,
            )
        )

        # the usual week: last week's Standings are on the sheet and get rewritten
        subprocess.run(cli("recalc", big), capture_output=True, check=True)
        _, weekly_base, weekly = against_floor("pair", big, work, runs=5)
        out.append(
            floor_figure(
                "pair 1000 x 30, last week's Standings on the sheet",
                "pair 1,000 × 30, Standings already filled",
                weekly,
                weekly_base,
                PAIR_TARGET,
            )
        )

        out.append(batch(season, work, recalc))
        out.append(season_save(work))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return out


def batch(season: Path, work: Path, one: float) -> Figure:
    """200 season files in one `recalc`: at most what one file costs alone, per file."""
    folder = work / "batch"
    folder.mkdir()
    files = []
    for i in range(200):
        files.append(folder / f"club{i:03d}.xlsx")
        shutil.copy(season, files[-1])
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(cli("recalc", *files), capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(done.stdout + done.stderr)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    print(
        f"keizer-xl recalc of 200 season files: {wall:.1f} s, {wall / 200 * 1000:.0f} ms "
        f"per file, cores busy {cpu / wall:.2f} (of {len(os.sched_getaffinity(0))})"
    )
    return Figure("recalc of 200 files, per file", wall / 200, one, "s")


def season_save(work: Path, runs: int = 7) -> Figure:
    """A 60-player season's Standings (60 × 41 cells) and 35 rows of Rounds saved into the
    LibreOffice-made club workbook of the tests, in this process (the package writer
    alone). Median of fresh copies."""
    from keizer_xl.workbook.xlsx import CellValue, SheetEdit, save_edits

    fixture = ROOT / "tests" / "fixtures" / "club_libreoffice.xlsm"
    standings: dict[tuple[int, int], CellValue] = {
        (r, c): (f"Player {r}" if c == 2 else Fraction(r * c, 3))
        for r in range(1, 62)
        for c in range(1, 42)
    }
    rounds: dict[tuple[int, int], CellValue] = {
        (r, c): f"P{r}-{c}" for r in range(5, 40) for c in range(1, 6)
    }
    edits = [SheetEdit("Standings", standings, clear_below=1), SheetEdit("Rounds", rounds)]
    times = []
    for i in range(runs):
        club = work / f"save{i}.xlsm"
        shutil.copy(fixture, club)
        start = time.perf_counter()
        save_edits(club, edits)
        times.append(time.perf_counter() - start)
    seconds = statistics.median(times)
    print(
        f"saving a season into the club workbook (package writer, in process): "
        f"{seconds * 1000:.1f} ms (target {SAVE_TARGET * 1000:.0f} ms)"
    )
    return Figure(
        "saving a 60-player season's cells into a club workbook", seconds, SAVE_TARGET, "s"
    )


if __name__ == "__main__":
    for figure in main():
        print(figure.line())
