"""Shared test fixtures: the CLI runner, workbooks from the template (tests/seasons.py), the
programs tier (tests/programs.py), the Hypothesis profiles (tests/profiles.py), and checks
that no test leaves the process changed or starts a process without the `programs` mark."""

from __future__ import annotations

import gc
import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, NamedTuple

import pytest
from click.testing import CliRunner, Result

import tests.profiles  # noqa: F401  (its profiles registered before pytest loads one)
from keizer_xl.cli.main import main
from tests.programs import need
from tests.seasons import make_book


@pytest.fixture(autouse=True)
def _no_language_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    """Messages in the workbook's own language, whatever the machine's KEIZER_XL_LANG says
    (a test that wants it sets it)."""
    monkeypatch.delenv("KEIZER_XL_LANG", raising=False)


def run_cli(*args: str) -> Result:
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


@pytest.fixture
def cli() -> Callable[..., Result]:
    return run_cli


@pytest.fixture
def book(tmp_path: Path) -> Callable[..., Path]:
    def make(*args: Any, name: str = "club.xlsx", **kwargs: Any) -> Path:
        return make_book(tmp_path / name, *args, **kwargs)

    return make


@pytest.fixture
def soffice_installed() -> None:
    """LibreOffice headless, for the tests that open, print or re-save workbooks in it."""
    need("soffice")


@pytest.fixture
def pdftoppm_installed() -> None:
    need("pdftoppm")


PROGRAM_FIXTURES = ("soffice_installed", "pdftoppm_installed")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Tests that need a program, whichever way they say so, are in the `programs` tier."""
    for item in items:
        if item.get_closest_marker("programs"):
            continue
        if item.get_closest_marker("libreoffice"):
            item.add_marker(pytest.mark.programs("soffice"))
        elif (
            item.get_closest_marker("pyodide")  # node and Pyodide: tests/pyodide/runner.py
            or any(f in PROGRAM_FIXTURES for f in getattr(item, "fixturenames", ()))
        ):
            item.add_marker(pytest.mark.programs())


class ProcessState(NamedTuple):
    """What a test must leave as it found it: the garbage collector's settings (a command
    run in the test process must not freeze it or raise its thresholds), the working folder
    and the environment."""

    gc_threshold: tuple[int, int, int]
    gc_frozen: int
    folder: str
    environment: dict[str, str]

    @classmethod
    def now(cls) -> ProcessState:
        # (PYTEST_CURRENT_TEST is pytest's own note of the running test, kept by pytest)
        environment = {k: v for k, v in os.environ.items() if k != "PYTEST_CURRENT_TEST"}
        return cls(gc.get_threshold(), gc.get_freeze_count(), os.getcwd(), environment)

    def restore(self) -> list[str]:
        """Put the process back as it was; say what had changed."""
        now, changed = ProcessState.now(), []
        if now.gc_threshold != self.gc_threshold:
            changed.append(
                f"garbage collector thresholds {self.gc_threshold} -> {now.gc_threshold}"
            )
            gc.set_threshold(*self.gc_threshold)
        if now.gc_frozen != self.gc_frozen:
            changed.append(f"garbage collector frozen objects {self.gc_frozen} -> {now.gc_frozen}")
            gc.unfreeze()
        if now.folder != self.folder:
            changed.append(f"working folder {self.folder} -> {now.folder}")
            os.chdir(self.folder)
        if now.environment != self.environment:
            keys = sorted(
                k
                for k in self.environment.keys() | now.environment.keys()
                if self.environment.get(k) != now.environment.get(k)
            )
            changed.append(f"environment variables {', '.join(keys)}")
            for key in keys:
                if key in self.environment:
                    os.environ[key] = self.environment[key]
                else:
                    del os.environ[key]
        return changed


STATE = pytest.StashKey[ProcessState]()


# The audit events of Python's library reference by which a process is started
PROCESS_EVENTS = frozenset(
    {
        "subprocess.Popen",
        "os.fork",
        "os.forkpty",
        "os.posix_spawn",
        "os.spawn",
        "os.exec",
        "os.system",
    }
)
STARTED: list[str] = []  # the processes the running test started, as their events say


def _watch_processes(event: str, args: tuple[object, ...]) -> None:
    if event in PROCESS_EVENTS:
        STARTED.append(f"{event} {args[0]!r}" if args else event)


sys.addaudithook(_watch_processes)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item: pytest.Item) -> Iterator[None]:
    """A test marked `programs("name", ...)` runs only when those programs are here."""
    item.stash[STATE] = ProcessState.now()  # before any fixture is set up
    STARTED.clear()
    for mark in item.iter_markers("programs"):
        for program in mark.args:
            need(program)
    return (yield)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item) -> Iterator[None]:
    """Fails a test that left the process changed (once its fixtures are torn down), and
    puts the process back for the next test; fails a test that started a process (in the
    test or its fixtures) unless it is marked `programs`."""
    result = yield
    before = item.stash.get(STATE, None)
    changed = before.restore() if before else []
    if changed:
        pytest.fail("the test left the process changed: " + "; ".join(changed), pytrace=False)
    started = list(STARTED)
    STARTED.clear()
    if started and not item.get_closest_marker("programs"):
        pytest.fail(
            "the test started a process without the `programs` mark (make check "
            "leaves such tests out): " + "; ".join(started[:3]),
            pytrace=False,
        )
    return result
