"""A click on an Excel button as the secretary waits for it (a script, not a test).

Every click starts a fresh Python, so the time that counts runs from starting the process
to the actions for Excel being ready: starting Python, importing xlwings (and whatever it
imports: pandas, and matplotlib where it is installed), keizer_xl's button module, reading
the book, the work itself. No Excel runs here, so the click goes through the door the
tests use: xlwings' remote engine builds the book from the JSON an xlwings client sends
(its noncommercial licence key set in that process only) and collects the actions it
would send back. The book is a 60-player club after 37 rounds, from the season generator
the other benches use.

Run `python bench/bench_live.py`; `main()` returns the figures for the bench runner.
"""

from __future__ import annotations

import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/seasons.py

from measure import Figure, bare_python, compile_sources

PLAYERS = 60
ROUNDS = 37
ABSENT_PER_ROUND = 5
TARGET = 0.5  # seconds from process start to the actions being ready (issue 24)
REPEAT = 7

# The fresh process of one click. argv: the book's JSON file, the button's entry point.
CLICK = """
import json, sys, time
import xlwings
import keizer_xl
with open(sys.argv[1], encoding="utf-8") as f:
    book = xlwings.Book(json=json.load(f))
book.set_mock_caller()
getattr(keizer_xl, sys.argv[2])()
actions = json.dumps(book.json())
ready = time.time()
alerts = [a["args"][0] for a in book.json()["actions"]
          if a["func"] == "alert" and a["args"][3] == "critical"]
if alerts:
    sys.exit("the button failed: " + alerts[0])
print(ready)
"""

BUTTONS = (
    ("Pair next round", ROUNDS - 1, "pair_next_round"),
    ("Recalculate", ROUNDS, "recalculate"),
)


def season_grids(rounds: int, seed: int = 1, players: int = PLAYERS) -> dict[str, list[list[Any]]]:
    """The club workbook after `rounds` complete rounds, read back as grids, with the
    Present column set for the next round."""
    from python_calamine import CalamineWorkbook

    from tests.seasons import club_season, season_book

    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as folder:
        path = season_book(
            Path(folder) / "club.xlsx",
            club_season(players, rounds, seed),
            {"Top value": round(1.5 * (players - 1))},
            present=0.8,
        )
        book = CalamineWorkbook.from_path(str(path))
        grids = {
            name: book.get_sheet_by_name(name).to_python(skip_empty_area=False)
            for name in book.sheet_names
        }
    names = [row[0] for row in grids["Players"][1:] if row and row[0]]
    away = set(rng.sample(names, ABSENT_PER_ROUND))
    for row in grids["Players"][1:]:
        if row and row[0]:
            row[4] = "" if row[0] in away else "x"
    return grids


def book_json(grids: dict[str, list[list[Any]]]) -> dict[str, Any]:
    """The book as an xlwings Office Scripts client posts it: values from A1 to the last
    used cell, "" for an empty cell."""
    import xlwings

    sheets = []
    for name, grid in grids.items():
        width = max((len(row) for row in grid), default=0)
        values = [
            [("" if v is None else v) for v in row] + [""] * (width - len(row)) for row in grid
        ]
        sheets.append({"name": name, "values": values or [[]], "pictures": [], "tables": []})
    return {
        "client": "Microsoft Office Scripts",
        "version": xlwings.__version__,
        "book": {"name": "club.xlsm", "active_sheet_index": 0, "selection": "A1"},
        "names": [],
        "sheets": sheets,
    }


def click_command(book: Path, entry: str, *python_options: str) -> tuple[list[str], dict[str, str]]:
    """The command line and environment of one click's fresh process."""
    env = {**os.environ, "XLWINGS_LICENSE_KEY": "noncommercial"}
    return [sys.executable, *python_options, "-c", CLICK, str(book), entry], env


def click(book: Path, entry: str) -> float:
    """Seconds from starting a new Python to its actions being ready."""
    command, env = click_command(book, entry)
    start = time.time()
    done = subprocess.run(command, env=env, capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(f"{entry}: {done.stderr.strip()}")
    return float(done.stdout.strip()) - start


def write_books(folder: Path) -> dict[str, Path]:
    """Each button's book as JSON in `folder`, by entry point."""
    books = {}
    for _, rounds, entry in BUTTONS:
        books[entry] = folder / f"{entry}.json"
        books[entry].write_text(json.dumps(book_json(season_grids(rounds))), encoding="utf-8")
    return books


def main() -> list[Figure]:
    compile_sources()
    figures = []
    with tempfile.TemporaryDirectory() as folder:
        books = write_books(Path(folder))
        times: dict[str, list[float]] = {entry: [] for entry in books}
        bare = []
        for _ in range(REPEAT):  # the buttons take turns, with a bare Python for scale
            bare.append(bare_python())
            for entry, book in books.items():
                times[entry].append(click(book, entry))
    print(
        f"python -c pass in the same turns: median {statistics.median(bare) * 1000:.0f} ms, "
        f"best {min(bare) * 1000:.0f} ms"
    )
    for label, _, entry in BUTTONS:
        middle, best = statistics.median(times[entry]), min(times[entry])
        print(
            f'click "{label}", {PLAYERS} players after {ROUNDS} rounds, fresh Python with '
            f"xlwings: median {middle * 1000:.0f} ms, best {best * 1000:.0f} ms "
            f"(target {TARGET * 1000:.0f} ms)"
        )
        figures.append(
            Figure(
                f'click "{label}", {PLAYERS} × {ROUNDS}, fresh Python, median',
                middle,
                TARGET,
                "s",
                issue=24,
            )
        )
    return figures


if __name__ == "__main__":
    for figure in main():
        print(figure.line())
