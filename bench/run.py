"""`make bench`: every benchmark in the secretary's Python, then each target against what
was measured.

The figures are taken in a venv made by `pip install` of this checkout (bench/secretary.py),
because what else is installed changes what a click imports. `--here` measures in the
Python running this script instead, as it is. Each script runs in a fresh Python of its
own. The run starts with the date, the machine and its load, which a figure is worthless
without on a shared machine; the whole output is also kept in bench/results/.
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime as dt
import importlib
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

if TYPE_CHECKING:
    from measure import Figure

SCRIPTS = (
    "bench_live",
    "bench_lite",
    "bench_libreoffice",
    "bench_imports",
    "bench_workbook",
    "bench_program",
    "bench_publish",
    "bench_pairing",
    "bench_engine",
    "bench_memory",
)


class Both:
    """Standard output that is also written to the results file."""

    def __init__(self, *streams: TextIO) -> None:
        self.streams = streams

    def write(self, text: str) -> int:
        for stream in self.streams:
            stream.write(text)
            stream.flush()
        return len(text)

    def flush(self) -> None:
        for stream in self.streams:
            stream.flush()


def in_secretary_python(args: list[str]) -> int | None:
    """Run this script again in the secretary's venv; None when that venv cannot be made
    (no network, say), after saying so."""
    import secretary

    try:
        python = secretary.prepare()
    except (OSError, subprocess.CalledProcessError) as error:
        print(
            f"could not make the secretary's venv ({error}); measuring in {sys.executable}"
            " as it is, with whatever else it has installed",
            file=sys.stderr,
        )
        return None
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}  # the installed copy
    return subprocess.run([str(python), __file__, "--here", *args], env=env).returncode


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--here",
        action="store_true",
        help="measure in this Python as it is, not in the secretary's venv",
    )
    parser.add_argument("--figures", type=Path, help=argparse.SUPPRESS)  # see `in_own_process`
    parser.add_argument(
        "scripts", nargs="*", metavar="SCRIPT", help=f"run only these ({', '.join(SCRIPTS)})"
    )
    args = parser.parse_args(argv)
    unknown = sorted(set(args.scripts) - set(SCRIPTS))
    if unknown:
        parser.error(f"no such bench script: {', '.join(unknown)}")
    if args.figures is not None:
        (script,) = args.scripts
        found = importlib.import_module(script).main()
        args.figures.write_text(json.dumps([dataclasses.asdict(f) for f in found]))
        return 0
    if not args.here:
        code = in_secretary_python(args.scripts)
        if code is not None:
            return code

    results = BENCH / "results"
    results.mkdir(exist_ok=True)
    stamp = dt.datetime.now().strftime("%Y-%m-%d-%H%M%S")
    with open(results / f"bench-{stamp}.txt", "w", encoding="utf-8") as kept:
        out = sys.stdout
        sys.stdout = Both(out, kept)
        try:
            return measure(args.scripts or list(SCRIPTS))
        finally:
            sys.stdout = out
            print(f"kept in {kept.name}")


def in_own_process(script: str) -> list[Figure]:
    """One bench script's figures, measured in a Python of its own: what an earlier script
    left in memory (a thousand pages, seasons of 5,000 players) must not slow a later one."""
    from measure import Figure

    with tempfile.TemporaryDirectory() as folder:
        kept = Path(folder) / "figures.json"
        done = subprocess.Popen(
            [sys.executable, __file__, "--here", "--figures", str(kept), script],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        assert done.stdout is not None
        for line in done.stdout:
            print(line, end="")
        if done.wait() != 0:
            raise SystemExit(f"{script} failed")
        return [Figure(**figure) for figure in json.loads(kept.read_text())]


def measure(scripts: list[str]) -> int:
    from measure import load, machine

    print("\n".join(machine()))
    figures: list[Figure] = []
    for name in scripts:
        print(f"\n== {name} (load average now {load()})")
        figures.extend(in_own_process(name))
    print(f"\n== targets against what was measured (load average now {load()})")
    for issue in sorted({f.issue for f in figures if f.issue is not None}):
        print(f"issue {issue}:")
        for figure in figures:
            if figure.issue == issue:
                print("  " + figure.line())
    others = [f for f in figures if f.issue is None]
    if others:
        print("earlier targets:")
        for figure in others:
            print("  " + figure.line())
    missed = sum(not f.met for f in figures)
    print(f"\n{len(figures) - missed} of {len(figures)} targets met")
    return 1 if missed else 0


if __name__ == "__main__":
    raise SystemExit(main())
