"""Timing of `keizer-xl publish` (a script, not a test): the whole site from a workbook.

Targets: a 60-player, 37-round season under 1 s and 1,000 players × 30 rounds (1,000
player pages) under 15 s (issue 12); and publishing 1,000 × 30 at most 3 × a `recalc` of
the same workbook (issue 24: the run reads, plans and ranks once). Commands run in fresh
processes as the secretary runs them; publish and recalc take turns. The in-process split
says where the time goes.
"""

from __future__ import annotations

import itertools
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/seasons.py

from measure import Figure, cli, command_on_copy, compile_sources, in_turns, median, run

from tests.seasons import club_season, season_book

CASES = (
    ("60 players × 37 rounds", 60, 37, 1.0, 5),
    ("1,000 players × 30 rounds", 1000, 30, 15.0, 5),
)
RATIO_TARGET = 3.0  # publish 1,000 × 30 / recalc of the same workbook (issue 24)


def median_time(action: Callable[[], Any], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def publish(book: Path, out: Path) -> Callable[[], float]:
    """`keizer-xl publish` into a new folder each run (out-1, out-2, ...), so every run
    writes every page. None is deleted while the runs are timed: on a file system that
    makes each new file step over the files deleted in the last minutes (ext4 without a
    journal does), deleting the last run's thousand pages would slow the next run's."""
    runs = itertools.count(1)

    def action() -> float:
        return run(cli("publish", book, "--out", out.with_name(f"{out.name}-{next(runs)}")))

    return action


def split(book: Path, folder: Path, runs: int) -> str:
    """Where a publish spends its time, in this process (it reads and checks the workbook
    as the command does, once, and makes the standings and the report once)."""
    from keizer_xl.core.report import build_report
    from keizer_xl.publish.book import workbook_report
    from keizer_xl.publish.pdf import write_pdfs
    from keizer_xl.publish.site import build_site, write_site
    from keizer_xl.workbook.files import survey

    competition, _ = survey(book)
    standings = competition.standings()
    report, titles = workbook_report(book)
    read = median_time(lambda: survey(book), runs)
    engine = median_time(lambda: competition.standings(), runs)
    derived = median_time(lambda: build_report(competition.season, standings), runs)
    pages = build_site(report, titles)
    render = median_time(lambda: build_site(report, titles), runs)
    fresh = itertools.count(1)  # a new folder each time, as `publish` above
    written = median_time(
        lambda: write_site(pages, folder / f"{book.stem}_split-{next(fresh)}"), runs
    )
    pdf = median_time(lambda: write_pdfs(report, titles, folder / "pdf"), 1)
    return (
        f"{len(pages)} pages; in the process: read and check {read:.2f}, standings "
        f"{engine:.2f}, derived figures {derived:.2f}, pages {render:.2f}, writing "
        f"{written:.2f}; PDFs {pdf:.2f}"
    )


def main() -> list[Figure]:
    compile_sources()
    figures = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for label, players, rounds, target, runs in CASES:
            book = season_book(
                folder / f"p{players}.xlsx", club_season(players, rounds), present=0.8
            )
            subprocess.run(cli("recalc", book), capture_output=True, check=True)
            copy = folder / "copy.xlsx"
            published, recalc = in_turns(
                runs,
                publish(book, folder / f"{book.stem}_site"),
                command_on_copy(cli("recalc", copy), book, copy),
            )
            whole, again = median(published), median(recalc)
            print(
                f"{label}: publish {whole:.2f} s as a command, recalc of the same "
                f"workbook {again:.2f} s ({whole / again:.2f} x); "
                f"{split(book, folder, runs)}"
            )
            figures.append(Figure(f"publish, {label}", whole, target, "s"))
            if players == 1000:
                figures.append(
                    Figure(
                        "publish 1,000 × 30 / recalc of the same workbook",
                        whole / again,
                        RATIO_TARGET,
                        "x",
                        issue=24,
                    )
                )
    return figures


if __name__ == "__main__":
    for figure in main():
        print(figure.line())
