"""Import time of a button click (a script, not a test).

Every click on a button starts a fresh Python that imports keizer_xl's button module and
the workbook contract it reads the sheets with. What keizer_xl adds is measured against a
floor: the same fresh Python importing only the third-party libraries a click needs anyway
(xlwings and numpy). Both are the median of several fresh processes.

Run `python bench/bench_imports.py`; `main()` returns (name, value, target) rows.
"""

from __future__ import annotations

import statistics
import subprocess
import sys

REPEAT = 9
CLICK = "import keizer_xl, keizer_xl.live.buttons, keizer_xl.workbook.contract"
FLOOR = "import xlwings, numpy"
TARGET_EXTRA = 0.35  # seconds keizer_xl may add to the floor (pandas alone is about 0.3 s)


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
    floor = _seconds(FLOOR)
    click = _seconds(CLICK)
    pandas = _seconds("import pandas")
    print(f"floor (xlwings, numpy): {floor * 1000:.0f} ms; pandas alone: {pandas * 1000:.0f} "
          f"ms; a click's imports: {click * 1000:.0f} ms (+{(click - floor) * 1000:.0f} ms)")
    return [("button click imports beyond xlwings and numpy", click - floor, TARGET_EXTRA)]


if __name__ == "__main__":
    main()
