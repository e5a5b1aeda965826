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
    """The club workbook after `rounds` complete rounds: the template's sheets with 60
    players, a Rounds sheet of games (top-down by a running score, no rematch within three
    rounds), a bye when needed and excused rows for the players away that round, and the
    Present column set for the next round."""
    from python_calamine import CalamineWorkbook

    from keizer_xl.template import build_template

    rng = random.Random(seed)
    names = [f"Player {i:02d}" for i in range(1, PLAYERS + 1)]
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "club.xlsx"
        build_template(path, players=[{"Name": n, "Rating": 2400 - 13 * i}
                                      for i, n in enumerate(names)])
        book = CalamineWorkbook.from_path(str(path))
        grids = {name: book.get_sheet_by_name(name).to_python(skip_empty_area=False)
                 for name in book.sheet_names}

    score = {n: 0.0 for n in names}
    last_met: dict[frozenset[str], int] = {}
    played = grids["Rounds"]
    for rnd in range(1, rounds + 1):
        away = set(rng.sample(names, ABSENT_PER_ROUND))
        waiting = [n for n in sorted(names, key=lambda n: -score[n]) if n not in away]
        rests = [(n, "excused") for n in names if n in away]
        if len(waiting) % 2:
            rests.insert(0, (waiting.pop(), "bye"))
        board = 0
        while waiting:
            top = waiting.pop(0)
            pick = next((i for i, other in enumerate(waiting)
                         if rnd - last_met.get(frozenset((top, other)), -99) > 3), 0)
            other = waiting.pop(pick)
            board += 1
            result = rng.choice(("1-0", "0-1", "½-½"))
            played.append([rnd, board, top, other, result])
            last_met[frozenset((top, other))] = rnd
            score[top] += {"1-0": 1.0, "½-½": 0.5}.get(result, 0.0)
            score[other] += {"0-1": 1.0, "½-½": 0.5}.get(result, 0.0)
        played.extend([rnd, "", name, "", why] for name, why in rests)

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
