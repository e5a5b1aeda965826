"""Timing of the Excel buttons as the secretary waits for them (a script, not a test).

Every click starts a fresh Python, so the time that counts runs from the process start to
the moment the writes for Excel are ready: starting Python, importing keizer_xl, xlwings
and pandas, reading the book, the work itself. Each case runs in a new process on a
60-player, 37-round season handed over as the JSON book an xlwings client sends (the
remote engine, for which xlwings' noncommercial license key is set in that process only).

Run `python bench/bench_live.py`; it prints one line per case and `main()` returns
(name, seconds, target seconds) for each, so a bench runner can collect them.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))  # bench/seasons.py

PLAYERS = 60
ROUNDS = 37
ABSENT_PER_ROUND = 5
TARGET = 1.5  # seconds from process start to the actions being ready
REPEAT = 3

# Runs in the fresh process: argv = book JSON file, entry point name.
CHILD = """
import json, sys, time
import keizer_xl
import xlwings
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


def season_grids(rounds: int, seed: int = 1) -> dict[str, list[list[Any]]]:
    """The club workbook after `rounds` complete rounds (the season generator the other
    benches use, paired by the engine itself), read back as grids, with the Present column
    set for the next round."""
    from python_calamine import CalamineWorkbook
    from seasons import club_season, write_workbook

    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as folder:
        path = write_workbook(club_season(PLAYERS, rounds, seed), Path(folder) / "club.xlsx",
                              {"Top value": round(1.5 * (PLAYERS - 1))})
        book = CalamineWorkbook.from_path(str(path))
        grids = {name: book.get_sheet_by_name(name).to_python(skip_empty_area=False)
                 for name in book.sheet_names}
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
        values = [[("" if v is None else v) for v in row] + [""] * (width - len(row))
                  for row in grid]
        sheets.append({"name": name, "values": values or [[]], "pictures": [], "tables": []})
    return {"client": "Microsoft Office Scripts", "version": xlwings.__version__,
            "book": {"name": "club.xlsm", "active_sheet_index": 0, "selection": "A1"},
            "names": [], "sheets": sheets}


def _fresh_process(book: Path, entry: str) -> float:
    """Seconds from starting a new Python to its actions being ready."""
    env = {**os.environ, "XLWINGS_LICENSE_KEY": "noncommercial"}
    start = time.time()
    run = subprocess.run([sys.executable, "-c", CHILD, str(book), entry], env=env,
                         capture_output=True, text=True)
    if run.returncode:
        raise RuntimeError(f"{entry}: {run.stderr.strip()}")
    return float(run.stdout.strip()) - start


def main() -> list[tuple[str, float, float]]:
    cases = [
        (f"pair round {ROUNDS}, {PLAYERS} players, fresh process", ROUNDS - 1,
         "pair_next_round"),
        (f"recalculate after round {ROUNDS}, {PLAYERS} players, fresh process", ROUNDS,
         "recalculate"),
    ]
    results = []
    with tempfile.TemporaryDirectory() as folder:
        for name, rounds, entry in cases:
            book = Path(folder) / f"{entry}.json"
            book.write_text(json.dumps(book_json(season_grids(rounds))), encoding="utf-8")
            seconds = min(_fresh_process(book, entry) for _ in range(REPEAT))
            print(f"{name}: {seconds * 1000:.0f} ms (target {TARGET * 1000:.0f} ms)")
            results.append((name, seconds, TARGET))
    return results


if __name__ == "__main__":
    main()
