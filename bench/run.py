"""`make bench`: every benchmark script, one after the other, and a summary at the end."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

SCRIPTS = ("bench_engine", "bench_pairing", "bench_workbook", "bench_live", "bench_imports",
           "bench_publish", "bench_memory")


def main() -> int:
    rows: list[tuple[str, float, float]] = []
    for name in SCRIPTS:
        print(f"== {name}")
        rows.extend(importlib.import_module(name).main())
    print("\n== summary (value, target; seconds unless a ratio)")
    missed = 0
    for label, value, target in rows:
        ok = value <= target
        missed += not ok
        print(f"{'ok  ' if ok else 'SLOW'} {label}: {value:.3f} (target {target:.3f})")
    return 1 if missed else 0


if __name__ == "__main__":
    raise SystemExit(main())
