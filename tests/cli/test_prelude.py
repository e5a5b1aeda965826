"""The garbage collector is set up for one short command in the program itself, never in a
process that runs the commands in turn and goes on (a test, a script)."""

from __future__ import annotations

import gc
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result

REPO = Path(__file__).resolve().parents[2]
PLAYERS = [{"Name": f"Player {i}", "Rating": 2000 - 10 * i, "Present": "x"}
           for i in range(1, 7)]
# The program as its console script starts it, telling the collector's state as it ends.
PROGRAM = """
import atexit, gc, sys
atexit.register(lambda: print("collector", *gc.get_threshold(), gc.get_freeze_count() > 0))
from keizer_xl.cli.main import run
sys.argv[0] = "keizer-xl"
run()
"""


def collector() -> tuple[tuple[int, ...], int]:
    return gc.get_threshold(), gc.get_freeze_count()


def test_commands_run_in_process_leave_the_collector_as_it_was(
        cli: Callable[..., Result], book: Callable[..., Path]) -> None:
    path = book(PLAYERS)
    before = collector()
    for command in ("pair", "recalc", "check", "standings"):
        assert cli(command, path).exit_code == 0, command
    assert collector() == before


@pytest.mark.programs  # the program in a process of its own
def test_the_program_sets_the_collector_up_for_its_command(book: Callable[..., Path]) -> None:
    path = book(PLAYERS)
    done = subprocess.run([sys.executable, "-c", PROGRAM, "check", str(path)], cwd=REPO,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "collector 50000 20 20 True"
