"""What every command does around its work on a file, so no command writes it by hand: the
garbage collector set for a short program (see `program`), a failure said in lines the
secretary can act on (never a traceback) and exit code 1.

Exit codes: 0 all went well, 1 a workbook has problems (each listed with its cell) or could
not be used, 2 the command was typed wrongly.
"""

from __future__ import annotations

import functools
import gc
import sys
from collections.abc import Callable
from pathlib import Path
from typing import NoReturn, TypeVar, cast

from keizer_xl.cli.program import COLLECTOR, is_program
from keizer_xl.cli.speech import say, speaking, t

T = TypeVar("T")
OK, PROBLEMS = 0, 1  # the exit statuses; click itself exits with 2 on a usage error

Advice = Callable[[BaseException], list[str]]  # the lines a command adds to a refusal


def attempt(action: Callable[[], T], advice: Advice | None = None) -> tuple[T | None, list[str]]:
    """Run one file's work; return its result or the lines that explain what was wrong
    (with the command's own `advice` on what to do, when it has some for that error)."""
    from keizer_xl.core.errors import KeizerXLError
    from keizer_xl.i18n import say as in_language

    if is_program():
        _tune_gc()
    try:
        return action(), []
    except KeizerXLError as exc:
        return None, [in_language(exc.message, speaking()), *(advice(exc) if advice else [])]
    except OSError as exc:  # the system's: said naming the file, as every command says it
        from keizer_xl.workbook.files import system_message

        return None, [in_language(system_message(exc), speaking())]
    except Exception as exc:  # a bug: say so plainly, without a traceback
        return None, [
            t(
                "keizer-xl could not finish ({cause}). Your file was not changed. "
                "Please report this.",
                cause=f"{type(exc).__name__}: {exc}",
            )
        ]


def perform(action: Callable[[], T], advice: Advice | None = None) -> T:
    """The command's work on a file; when it cannot be done, its problems are said (with
    the command's `advice`, see `attempt`) and the command ends with exit code 1."""
    result, lines = attempt(action, advice)
    if lines:
        refuse(lines)
    return cast(T, result)


def read_as_saved(file: Path) -> None:
    """Before a command that only reads a workbook (check, standings, publish, export, new
    --from): when Excel or LibreOffice has it open, it is read as last saved there; say so.
    The commands that write refuse such a workbook instead."""
    from keizer_xl.cli.speech import note
    from keizer_xl.workbook.files import open_elsewhere

    for line in open_elsewhere(file):
        note(line)


def refuse(lines: list[str]) -> NoReturn:
    """Say what is wrong (on stderr) and end the command with exit code 1."""
    for line in lines:
        say(line, err=True)
    sys.exit(PROBLEMS)


@functools.cache
def _tune_gc() -> None:
    """Set the garbage collector for one short command, once pandas and keizer_xl are in.

    Reading a large season makes a few hundred thousand objects and hardly any garbage
    cycles, yet the collector, tuned for long-running programs, would walk them (and the
    imports' as many) hundreds of times: some 70 ms of a large pairing. The objects alive
    now are left out of its walks (`freeze`) and it runs every 50,000 new objects, not 700,
    from now on (the program paused it for its imports, see `program`)."""
    gc.freeze()
    gc.set_threshold(*COLLECTOR)
    gc.enable()
