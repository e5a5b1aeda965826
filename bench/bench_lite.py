"""A click on a button in xlwings Lite, timed inside Pyodide and in CPython (a script, not
a test).

Lite runs Python inside Excel with Pyodide (CPython built for WebAssembly); the tests run
that Pyodide in node (.ci/pyodide-setup makes it ready), and so does this bench, in Pyodide
0.27.7: the numpy and pandas of Pyodide 314, which current Lite runs, cannot be had here
(docs/lite.md). Lite starts its Python and loads xlwings once, when it starts (by itself
once the workbook is saved, or when its pane opens), so what a click costs
is the script's own time: the book built from the add-in's JSON, the work, the actions
back (`lite_click.py`). Warm is any click after the first; first is importing main.py
(keizer_xl's first import) and the first click, which imports what the work needs on its
way. The same clicks in CPython give the scale. The books are bench_live's: a 60-player club
after 37 rounds (Pair next round on the season before its last round, Recalculate after
it), and a 200-player club after 40.

Run `python bench/bench_lite.py`; `main()` returns the figures for the bench runner.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_live import PLAYERS, ROUNDS, book_json, season_grids
from measure import ROOT, Figure

CLICKS = 8  # in one Python: the first, then seven warm ones
# The clubs clicked: players, rounds, and the most a warm click and a first click (with
# importing main.py) may take under Pyodide, in seconds, and the issue that set them. The
# usual club (issue 20); a 200-player club after 40 rounds (issue 29 asks for its figures,
# no target: these bounds only catch a click that got much slower).
CLUBS: tuple[tuple[int, int, tuple[float, float, int | None]], ...] = (
    (PLAYERS, ROUNDS, (0.2, 2.0, 20)),
    (200, 40, (1.0, 4.0, None)),
)
SETUP = ROOT / ".ci" / "pyodide-setup"
MISSING = 2  # .ci/pyodide-setup's status when something could not be downloaded


def project_python() -> str:
    """The Python that makes Pyodide ready (it needs `packaging`, as the dev extra has it):
    $PYTHON, else the checkout's .venv, else this one."""
    venv = ROOT / ".venv" / "bin" / "python"
    return os.environ.get("PYTHON") or (str(venv) if venv.exists() else sys.executable)


def session(python: list[str], folder: Path, book: Path, script: str) -> dict[str, Any]:
    """One Python's clicks on the book (`lite_click.py`): its times."""
    main_py, out = folder / "main.py", folder / f"{script}.out.json"
    if not main_py.exists():
        from keizer_xl.cli.lite import main_py as text

        main_py.write_text(text("en"), encoding="utf-8")
    done = subprocess.run(
        [
            *python,
            str(Path(__file__).with_name("lite_click.py")),
            str(book),
            str(main_py),
            script,
            str(CLICKS),
            str(out),
        ],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHON": project_python()},
    )
    if done.returncode:
        raise SystemExit(f"{script} in {python[0]}: {done.stderr.strip()[-2000:]}")
    result: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    return result


def main() -> list[Figure]:
    ready = subprocess.run(
        [project_python(), str(SETUP), "--print-dir"], capture_output=True, text=True
    )
    if ready.returncode:
        if ready.returncode != MISSING:
            raise SystemExit(f".ci/pyodide-setup failed:\n{ready.stderr}")
        print(f"Pyodide is not at hand, no Lite figures: {ready.stderr.strip()}")
        return []
    pyodide = [str(ROOT / ".ci" / "pyodide-run")]
    figures = []
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        pyodide += ["--mount", str(folder)]
        for players, rounds, targets in CLUBS:
            for label, played, script in buttons(rounds):
                book = folder / f"{script}-{players}.json"
                book.write_text(
                    json.dumps(book_json(season_grids(played, players=players))), encoding="utf-8"
                )
                inside = session(pyodide, folder, book, script)
                here = session([sys.executable], folder, book, script)
                if not inside["said"].startswith(("Round ", "The Standings")):
                    raise SystemExit(f"{script} under Pyodide failed: {inside['said']}")
                club = f"{players} × {rounds}"
                for where, found in (("Pyodide in node", inside), ("CPython", here)):
                    first, warm = found["clicks"][0], statistics.median(found["clicks"][1:])
                    print(
                        f'Lite click "{label}", {club}, {where} ({found["platform"]}): '
                        f"warm median {warm * 1000:.0f} ms, best "
                        f"{min(found['clicks'][1:]) * 1000:.0f} ms; first click "
                        f"{first * 1000:.0f} ms after importing main.py in "
                        f"{found['import'] * 1000:.0f} ms (xlwings, loaded before: "
                        f"{found['xlwings']:.2f} s)"
                    )
                warm = statistics.median(inside["clicks"][1:])
                scale = warm / statistics.median(here["clicks"][1:])
                figures.append(
                    Figure(
                        f'Lite click "{label}", {club}, Pyodide, warm, median '
                        f"({scale:.1f} × CPython)",
                        warm,
                        targets[0],
                        "s",
                        issue=targets[2],
                    )
                )
                first = inside["import"] + inside["clicks"][0]
                scale = first / (here["import"] + here["clicks"][0])
                figures.append(
                    Figure(
                        f'Lite first click "{label}", {club}, with importing '
                        f"main.py, Pyodide ({scale:.1f} × CPython)",
                        first,
                        targets[1],
                        "s",
                        issue=targets[2],
                    )
                )
    return figures


def buttons(rounds: int) -> list[tuple[str, int, str]]:
    """Pair next round on the season before its last round, Recalculate after it."""
    return [
        ("Pair next round", rounds - 1, "pair_next_round"),
        ("Recalculate", rounds, "recalculate"),
    ]


if __name__ == "__main__":
    for figure in main():
        print(figure.line())
