"""The `keizer-xl` program itself: a process that runs one command and ends, set up for
that before anything else is imported (`keizer_xl.cli.run`, the console script's entry).

Importing the command line (click, the commands, and through them keizer_xl's rule book
and numpy) makes many thousands of objects and hardly any garbage; the collector, tuned for
long-running programs, would walk them again and again meanwhile. So the program sets it up
first, and the command line is imported after: the collector waits until the command's
work starts (see `prelude`), which leaves the imports' objects out of its walks. Only the
program does: tests and scripts run the commands inside their own long process, which must
be left as it was. What each setting saves is measured by `bench/bench_program.py` and
written down in docs/speed.md.

The program ends the ordinary way, through the interpreter's own shutdown.
"""

from __future__ import annotations

import gc
import os

_program = [False]  # this process is the keizer-xl program (see `as_program`)

# The linear-algebra libraries numpy is built with (OpenBLAS in its wheels, MKL in conda's)
# start a thread per core as numpy is imported, and spin them a while; keizer_xl multiplies
# no matrices, so on a busy machine they only take the command's own core from it.
BLAS_THREADS = ("OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")
COLLECTOR = (50_000, 20, 20)  # the collector's thresholds for one short command


def as_program() -> None:
    """Mark this process as the `keizer-xl` program itself (or one of its workers), which
    ends with its command: only then is the garbage collector tuned (paused from here
    until the command's work starts, so the command's imports are not walked at all; see
    `prelude`), and numpy's linear algebra kept to one thread (before numpy is imported; a
    number the user set stays, and so does a numpy imported already)."""
    _program[0] = True
    gc.disable()  # until the command's work starts (see `prelude`)
    gc.set_threshold(*COLLECTOR)
    for name in BLAS_THREADS:
        os.environ.setdefault(name, "1")


def is_program() -> bool:
    """Is this process the `keizer-xl` program (see `as_program`)?"""
    return _program[0]
