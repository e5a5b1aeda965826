"""Import time of a button click (a script, not a test).

Every click on a button starts a fresh Python that imports keizer_xl's button module and
the workbook contract it reads the sheets with. Before the layout change that path
imported pandas on every click; now it reaches the checks without it. The figure is
measured against importing pandas alone in the same run (so a busy machine does not blur
it): a click's imports must cost less than pandas did. Medians of fresh processes.

Run `python bench/bench_imports.py`; `main()` returns (name, value, target) rows.
"""

from __future__ import annotations

import statistics
import subprocess
import sys

REPEAT = 9
CLICK = "import keizer_xl, keizer_xl.live.buttons, keizer_xl.workbook.plans"
TARGET_RATIO = 1.0  # a click's imports / importing pandas alone


def _seconds(statement: str) -> float:
    code = ("import time; t = time.perf_counter(); "
            f"{statement}; print(time.perf_counter() - t)")
    times = []
    for _ in range(REPEAT):
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             check=True).stdout
        times.append(float(out))
    return statistics.median(times)


def main() -> list[tuple[str, float, float]]:
    click = _seconds(CLICK)
    pandas = _seconds("import pandas")
    print(f"a click's imports: {click * 1000:.0f} ms; pandas alone: {pandas * 1000:.0f} ms "
          f"({click / pandas:.2f} x)")
    return [("button click imports / importing pandas", click / pandas, TARGET_RATIO)]


if __name__ == "__main__":
    main()
