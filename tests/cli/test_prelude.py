"""The garbage collector and numpy's linear-algebra threads are set up for one short command
in the program itself, never in a process that runs the commands in turn and goes on (a
test, a script)."""

from __future__ import annotations

import gc
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result

REPO = Path(__file__).resolve().parents[2]
PLAYERS = [{"Name": f"Player {i}", "Rating": 2000 - 10 * i, "Present": "x"} for i in range(1, 7)]
# The program as its console script starts it, telling the collector's state as it ends.
PROGRAM = """
import atexit, gc, sys
atexit.register(lambda: print("collector", *gc.get_threshold(), gc.get_freeze_count() > 0,
                              gc.isenabled()))
from keizer_xl.cli import run
sys.argv[0] = "keizer-xl"
run()
"""


def collector() -> tuple[tuple[int, ...], int]:
    return gc.get_threshold(), gc.get_freeze_count()


def test_commands_run_in_process_leave_the_collector_as_it_was(
    cli: Callable[..., Result], book: Callable[..., Path]
) -> None:
    path = book(PLAYERS)
    before = collector()
    for command in ("pair", "recalc", "check", "standings"):
        assert cli(command, path).exit_code == 0, command
    assert collector() == before


@pytest.mark.programs  # the program in a process of its own
def test_the_program_sets_the_collector_up_for_its_command(book: Callable[..., Path]) -> None:
    path = book(PLAYERS)
    done = subprocess.run(
        [sys.executable, "-c", PROGRAM, "check", str(path)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "collector 50000 20 20 True True"


# The program as its console script starts it, telling what numpy's linear-algebra library
# was told when numpy was first imported, and how often the collector was to run then (it
# waits until the command's work starts).
BLAS = """
import gc, os, sys
seen = []
class Watch:
    def find_spec(self, name, path=None, target=None):
        if name == "numpy" and not seen:
            seen.append([os.environ.get(v) for v in ("OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")])
            seen[0] += [gc.get_threshold()[0], gc.isenabled()]
sys.meta_path.insert(0, Watch())
import atexit
atexit.register(lambda: print("at numpy's import", *seen[0]))
from keizer_xl.cli import run
sys.argv[0] = "keizer-xl"
run()
"""


def blas_threads(path: Path, **environment: str) -> str:
    env = {
        k: v for k, v in os.environ.items() if k not in ("OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")
    }
    done = subprocess.run(
        [sys.executable, "-c", BLAS, "check", str(path)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
        env={**env, **environment},
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()[-1]


@pytest.mark.programs  # the program in a process of its own
def test_the_program_starts_numpy_with_one_blas_thread_and_the_collector_set(
    book: Callable[..., Path],
) -> None:
    path = book(PLAYERS)
    assert blas_threads(path) == "at numpy's import 1 1 50000 False"


@pytest.mark.programs  # the program in a process of its own
def test_the_program_keeps_the_blas_threads_the_user_set(book: Callable[..., Path]) -> None:
    path = book(PLAYERS)
    assert blas_threads(path, OPENBLAS_NUM_THREADS="3") == "at numpy's import 3 1 50000 False"
