"""Another program's save is never thrown away: Excel, LibreOffice and sync clients save by
putting a new file in place (or by writing into the old one), and a `pair` or `recalc`
that read the workbook before that save must not write its own over it.

The other program's save is made at many points of a run, chosen by counting the calls of
keizer_xl's own functions (`sys.settrace`), not by timing: at the n-th call the workbook
is replaced. If the run read the workbook before that point, the other save must be left
exactly as it was, and the secretary told in the workbook's language; if it read the new
file, whatever it writes must still hold the other program's change.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from typing import Any

import pytest
from click.testing import Result

import keizer_xl
from keizer_xl.workbook.newbook import create
from keizer_xl.workbook.xlsx import SheetEdit, Snapshot, Workbook, read_with_snapshot, save_edits
from tests.conftest import run_cli

PACKAGE = str(Path(keizer_xl.__file__).parent)
THEIR_SHEET = "Their notes"  # the other program's change: a sheet of the secretary's own
SAID = {
    "en": "was saved by another program while keizer-xl worked; nothing was written",
    "nl": "is door een ander programma opgeslagen terwijl keizer-xl ermee bezig was; er "
    "is niets geschreven",
}


def workbook(path: Path, language: str) -> Path:
    """A new club workbook of eight players, all present: ready to pair round 1."""
    create(
        path,
        [{"Name": f"Player {i}", "Rating": 2100 - 10 * i, "Present": "x"} for i in range(1, 9)],
        language=language,
    )
    return path


def their_save(path: Path, into: Path) -> bytes:
    """The workbook as another program saved it: a sheet of the secretary's own added."""
    into.write_bytes(path.read_bytes())
    save_edits(
        into, [SheetEdit(THEIR_SHEET, {(1, 1): "bring the clocks"}, create=True)], backup=False
    )
    return into.read_bytes()


@contextmanager
def counting(at: int | None, swap: Callable[[], None]) -> Iterator[dict[str, int]]:
    """Count the calls of keizer_xl's functions; at call number `at`, `swap()` first.
    Gives the number of calls, and the call at which the workbook was read."""
    seen = {"calls": 0, "read": -1, "swapped": 0}

    def trace(frame: FrameType, event: str, arg: Any) -> None:
        code = frame.f_code
        if event != "call" or not code.co_filename.startswith(PACKAGE):
            return
        seen["calls"] += 1
        if code.co_name == "read_with_snapshot":
            seen["read"] = seen["calls"]
        if seen["calls"] == at:
            swap()
            seen["swapped"] = at

    sys.settrace(trace)
    try:
        yield seen
    finally:
        sys.settrace(None)


def run(
    command: str, path: Path, at: int | None = None, swap: Callable[[], None] = lambda: None
) -> tuple[Result, dict[str, int]]:
    with counting(at, swap) as seen:
        result = run_cli(command, path)
    return result, seen


def points(calls: int, read: int, count: int) -> list[int]:
    """`count` calls spread over the run after the reading, the last few calls before its
    end among them (where the file is replaced), and one before the reading."""
    after = [read + 1 + (calls - read - 1) * k // count for k in range(count)]
    return sorted({max(1, read - 1), *after, *range(max(read + 1, calls - 4), calls + 1)})


@pytest.mark.parametrize(
    ("command", "language", "count"),
    [("pair", "en", 12), ("pair", "nl", 8), ("recalc", "en", 8), ("recalc", "nl", 5)],
)
def test_another_programs_save_is_kept_at_every_point(
    tmp_path: Path, command: str, language: str, count: int
) -> None:
    original = workbook(tmp_path / "club.xlsx", language)
    theirs = their_save(original, tmp_path / "theirs.xlsx")
    first = original.read_bytes()
    trial = tmp_path / "trial.xlsx"
    trial.write_bytes(first)
    plain, _ = run(command, trial)
    assert plain.exit_code == 0, plain.output
    assert trial.read_bytes() != first  # the command writes: there is a save to lose
    trial.write_bytes(first)
    _, seen = run(command, trial)  # counted once what is done once a process is warm
    checked = 0
    for n, at in enumerate(points(seen["calls"], seen["read"], count)):
        path = tmp_path / f"run-{n}" / "club.xlsx"
        path.parent.mkdir()
        path.write_bytes(first)

        def swap(path: Path = path, in_place: bool = n % 2 == 1) -> None:
            if in_place:  # written into the same file, as some programs save
                with open(path, "r+b") as file:
                    file.truncate(0)
                    file.write(theirs)
            else:  # a new file put in its place, as Excel and LibreOffice save
                new = path.with_name("saved-elsewhere.xlsx")
                new.write_bytes(theirs)
                os.replace(new, path)

        result, during = run(command, path, at, swap)
        assert during["swapped"] == at, f"call {at} of {during['calls']}"
        if at > during["read"]:
            assert path.read_bytes() == theirs, f"call {at} of {during['calls']}"
            if result.exit_code != 0:
                assert SAID[language] in result.output, result.output
                assert "club.xlsx" in result.output
                assert not any(".tmp" in p.name for p in path.parent.iterdir())
                checked += 1
        else:  # it read their save, and kept their change in what it wrote
            assert result.exit_code == 0, result.output
            assert THEIR_SHEET in Workbook(path, write=False).worksheets()
    assert checked >= count // 2  # most points fell between reading and saving


def test_a_save_into_the_same_file_of_the_same_size_is_told_by_its_content(tmp_path: Path) -> None:
    path = tmp_path / "club.xlsx"
    path.write_bytes(b"A" * 100)
    _, snapshot = read_with_snapshot(path)
    assert snapshot.still(path)
    info = os.stat(path)
    with open(path, "r+b") as file:  # the same size, the same modification time
        file.write(b"B" * 100)
    os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns))
    assert not snapshot.still(path)
    assert Snapshot(os.stat(path), b"B" * 100, time.time()).still(path)


def test_an_old_file_unchanged_is_told_without_reading_it_again(tmp_path: Path) -> None:
    path = tmp_path / "club.xlsx"
    path.write_bytes(b"A" * 100)
    long_ago = time.time() - 3600
    os.utime(path, (long_ago, long_ago))
    _, snapshot = read_with_snapshot(path)
    snapshot.data = b"not what is on disk"  # would differ, were it compared
    assert snapshot.still(path)
    os.utime(path, (long_ago + 1, long_ago + 1))  # saved again since
    assert not snapshot.still(path)


@pytest.mark.programs
@pytest.mark.libreoffice
@pytest.mark.usefixtures("soffice_installed")
def test_a_libreoffice_save_while_pair_works_is_kept_and_the_next_run_reads_it(
    tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    from tests.cli.week import libreoffice_resave

    profile = tmp_path_factory.mktemp("lo-profile")
    path = libreoffice_resave(workbook(tmp_path / "club.xlsx", "nl"), profile)
    their_save(path, tmp_path / "theirs.xlsx")
    theirs = libreoffice_resave(tmp_path / "theirs.xlsx", profile).read_bytes()
    first = path.read_bytes()
    _, seen = run("pair", path)  # counted once; then the same run from the start again
    path.write_bytes(first)

    def swap() -> None:
        new = path.with_name("saved-by-libreoffice.xlsx")
        new.write_bytes(theirs)
        os.replace(new, path)

    at = (seen["read"] + seen["calls"]) // 2  # between reading and saving
    result, during = run("pair", path, at, swap)
    assert during["swapped"] == at
    assert result.exit_code == 1
    assert SAID["nl"] in result.output
    assert path.read_bytes() == theirs
    again = run_cli("pair", path)
    assert again.exit_code == 0, again.output
    assert THEIR_SHEET in Workbook(path, write=False).worksheets()
