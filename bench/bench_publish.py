"""Timing of `keizer-xl publish` (a script, not a test): the whole site from a workbook.

Targets (issue 12): a 60-player, 37-round season under 1 s; 1,000 players × 30 rounds
(1,000 player pages) under 15 s. Both are measured as the secretary runs the command, in a
fresh process that reads the workbook and writes every page; the in-process split says
where the time goes.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from seasons import club_season, write_workbook

CLI = [sys.executable, "-m", "keizer_xl.cli.main", "publish"]
CASES = (("60 players x 37 rounds", 60, 37, 1.0, 5), ("1000 players x 30 rounds", 1000, 30,
                                                     15.0, 3))


def median_time(action: Callable[[], Any], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def command(book: Path, out: Path, *extra: str) -> None:
    done = subprocess.run([*CLI, str(book), "--out", str(out), *extra], capture_output=True,
                          text=True)
    if done.returncode != 0:
        raise SystemExit(f"publish failed:\n{done.stdout}{done.stderr}")


def main() -> list[tuple[str, float, float]]:
    from keizer_xl.core.report import build_report
    from keizer_xl.publish.book import workbook_report
    from keizer_xl.publish.pdf import write_pdfs
    from keizer_xl.publish.site import build_site, write_site
    from keizer_xl.workbook.files import check

    subprocess.run([sys.executable, "-m", "compileall", "-q",
                    str(Path(__file__).resolve().parent.parent / "keizer_xl")], check=True)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for label, players, rounds, target, runs in CASES:
            book = write_workbook(club_season(players, rounds), folder / f"p{players}.xlsx")
            competition = check(book)
            standings = competition.standings()
            report, titles = workbook_report(book)
            read = median_time(lambda: check(book), runs)  # noqa: B023
            engine = median_time(lambda: competition.standings(), runs)  # noqa: B023
            derived = median_time(lambda: build_report(competition.season, standings),  # noqa: B023
                                  runs)
            pages = build_site(report, titles)
            render = median_time(lambda: build_site(report, titles), runs)  # noqa: B023
            written = median_time(lambda: write_site(pages, folder / "site"), runs)  # noqa: B023
            pdf = median_time(lambda: write_pdfs(report, titles, folder / "pdf"),  # noqa: B023
                              1)
            whole = median_time(lambda: command(book, folder / "cli"), runs)  # noqa: B023
            print(f"{label}: publish {whole:.2f} s as a command ({len(pages)} pages); "
                  f"in the process: read and check {read:.2f}, standings {engine:.2f}, "
                  f"derived figures {derived:.2f}, pages {render:.2f}, writing "
                  f"{written:.2f}; PDFs {pdf:.2f}")
            rows.append((f"publish, {label}", whole, target))
    return rows


if __name__ == "__main__":
    for label, value, target in main():
        print(f"{label}: {value:.3f} s (target {target:.1f} s)")
