"""Inside Pyodide (run by run.mjs): installs the pure-Python wheels, then runs the command
as `python ARGS` would, and gives back its exit status.

Wheels are unpacked into site-packages rather than installed by micropip, which would want
the network. Bytecode is never written: the repository is the host's, mounted as it is.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import runpy
import site
import sys
import traceback
import zipfile
from pathlib import Path


def install(wheel: Path, target: Path) -> None:
    """A pure-Python wheel's files where `pip install` puts them (scripts and data aside)."""
    with zipfile.ZipFile(wheel) as zf:
        for member in zf.infolist():
            parts = member.filename.split("/")
            if parts[0].endswith(".data"):
                if len(parts) < 3 or parts[1] not in ("purelib", "platlib"):
                    continue
                parts = parts[2:]
            if member.is_dir():
                continue
            dest = target.joinpath(*parts)
            dest.parent.mkdir(parents=True, exist_ok=True)
            dest.write_bytes(zf.read(member))


def status(exit: SystemExit) -> int:
    if exit.code is None:
        return 0
    if isinstance(exit.code, int):
        return exit.code
    print(exit.code, file=sys.stderr)
    return 1


def run(argv: list[str]) -> None:
    if argv[0] == "-m":
        sys.argv = [argv[1], *argv[2:]]
        sys.path.insert(0, os.getcwd())
        runpy.run_module(argv[1], run_name="__main__", alter_sys=True)
    elif argv[0] == "-c":
        sys.argv = ["-c", *argv[2:]]
        sys.path.insert(0, os.getcwd())
        exec(compile(argv[1], "<string>", "exec"), {"__name__": "__main__"})
    else:
        sys.argv = list(argv)
        sys.path.insert(0, str(Path(argv[0]).resolve().parent))
        runpy.run_path(argv[0], run_name="__main__")


def main(argv: list[str], wheels: list[str], cwd: str) -> int:
    sys.dont_write_bytecode = True
    target = Path(site.getsitepackages()[0])
    for wheel in wheels:
        install(Path(wheel), target)
    importlib.invalidate_caches()
    os.chdir(cwd)
    try:
        run(list(argv))
    except SystemExit as exit:
        return status(exit)
    except BaseException as exc:
        tb = exc.__traceback__
        skipped = (run.__code__.co_filename, "<frozen runpy>")  # this file, runpy
        while tb is not None and tb.tb_frame.f_code.co_filename in skipped:
            tb = tb.tb_next  # the program's own lines only, as `python` shows them
        traceback.print_exception(type(exc), exc, tb)
        return 1
    finally:
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(OSError):  # a reader gone (`| head`) is no failure
                stream.flush()
    return 0
