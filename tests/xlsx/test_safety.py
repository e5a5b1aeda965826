"""Saving is atomic and keeps a backup; a killed save leaves the old or the new file;
an open or read-only workbook is refused and left as it was."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import threading
import time
import zipfile
from pathlib import Path

import pytest

from keizer_xl.workbook.xlsx import (
    SheetEdit,
    WorkbookLocked,
    backup_path,
    check_not_open,
    save_edits,
    write_atomically,
    write_bytes_atomically,
)
from tests.helpers_package import (
    REPO,
    TOP_VALUE_CELL,
    add_big_photo,
    big_edits,
    child_command,
    copy_fixture,
    members,
    product_edits,
)
from tests.xlsx.grids import calamine_grid

# openpyxl, used here only to read, says it would drop LibreOffice's extensions; we do not
pytestmark = pytest.mark.filterwarnings("ignore:.*extension is not supported:UserWarning")


def test_backup_is_the_previous_version(club: Path) -> None:
    original = club.read_bytes()
    save_edits(club, product_edits())
    first = club.read_bytes()
    backup = club.with_name("club.backup.xlsm")
    assert backup_path(club) == backup
    assert backup.read_bytes() == original
    save_edits(club, [SheetEdit("Settings", {TOP_VALUE_CELL: 41})])
    assert backup.read_bytes() == first
    assert sorted(p.name for p in club.parent.iterdir()) == ["club.backup.xlsm", "club.xlsm"]


def test_without_backup(club: Path) -> None:
    save_edits(club, product_edits(), backup=False)
    assert [p.name for p in club.parent.iterdir()] == ["club.xlsm"]


def test_failed_replace_leaves_the_original_and_no_temp(
    club: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    original = club.read_bytes()

    def refuse(src: object, dst: object) -> None:
        raise PermissionError("the file is in use")

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(PermissionError):
        save_edits(club, product_edits(), backup=False)
    assert club.read_bytes() == original
    assert [p.name for p in club.parent.iterdir()] == ["club.xlsm"]


POSIX_ONLY = pytest.mark.skipif(os.name != "posix", reason="needs POSIX modes, links, signals")


@POSIX_ONLY
def test_file_mode_and_symlink_are_kept(club: Path) -> None:
    club.chmod(0o640)
    link = club.with_name("link.xlsm")
    link.symlink_to(club.name)
    assert save_edits(link, product_edits()) is True
    assert link.is_symlink()
    assert (club.stat().st_mode & 0o777) == 0o640
    assert calamine_grid(club, "Settings")[TOP_VALUE_CELL] == 40.0
    assert club.with_name("club.backup.xlsm").exists()


def test_read_only_workbook_is_refused(club: Path) -> None:
    club.chmod(0o444)
    original = club.read_bytes()
    with pytest.raises(PermissionError, match="read-only"):
        save_edits(club, product_edits())
    assert club.read_bytes() == original
    assert [p.name for p in club.parent.iterdir()] == ["club.xlsm"]


def _states(original: Path, scratch: Path) -> list[dict[str, bytes]]:
    """Every version the kill test's saving loop can leave: the original, then A, B, A, B."""
    path = scratch / original.name
    path.write_bytes(original.read_bytes())
    found = [members(path)]
    for step in range(4):
        save_edits(path, big_edits(step % 2), backup=False)
        found.append(members(path))
    return found


@pytest.mark.programs  # saving in child processes killed midway
@POSIX_ONLY
def test_kill_during_save_leaves_old_or_new_file(tmp_path: Path) -> None:
    folder = tmp_path / "club"
    folder.mkdir()
    club = copy_fixture("club.xlsm", folder)
    add_big_photo(club)
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    started = time.perf_counter()
    states = _states(club, scratch)
    one_save = (time.perf_counter() - started) / 4

    rng = random.Random(20240901)
    outcomes: dict[str, int] = {}
    # 24 kills at random moments; then, should a loaded machine have made every save too
    # slow to finish before its kill, a few later kills so that completed saves are seen too
    delays = [rng.uniform(0, 2.5 * one_save) for _ in range(24)]
    extra = [one_save * (3 + 2 * i) for i in range(8)]
    while delays:
        delay = delays.pop(0)
        with subprocess.Popen(  # closes the pipes
            child_command(club), cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE
        ) as child:
            assert child.stdout is not None and child.stdout.readline() == b"ready\n"
            time.sleep(delay)
            os.kill(child.pid, signal.SIGKILL)
            child.wait()
            assert child.returncode == -signal.SIGKILL, child.stderr.read() if child.stderr else ""

        with zipfile.ZipFile(club) as package:
            assert package.testzip() is None
        content = members(club)
        assert content in states
        outcomes[f"version {states.index(content)}"] = (
            outcomes.get(f"version {states.index(content)}", 0) + 1
        )
        for leftover in folder.iterdir():
            if leftover.name in ("club.xlsm", "club.backup.xlsm"):
                continue
            # a killed write may leave its temporary file: hidden, and ours by name
            assert leftover.name.startswith(".club.xlsm.") and leftover.name.endswith(
                ".keizer-xl.tmp"
            ), leftover.name
            outcomes["temp left"] = outcomes.get("temp left", 0) + 1
        if backup_path(club).exists():
            assert members(backup_path(club)) in states
        if not delays and extra and not set(outcomes) - {"version 0", "temp left"}:
            delays.append(extra.pop(0))

    assert set(outcomes) - {"version 0", "temp left"}, outcomes  # some saves completed
    save_edits(club, [SheetEdit("Settings", {TOP_VALUE_CELL: 7})])
    assert sorted(p.name for p in folder.iterdir()) == ["club.backup.xlsm", "club.xlsm"]


@pytest.mark.parametrize(
    ("lock_name", "program"),
    [("~$club.xlsm", "Excel"), (".~lock.club.xlsm#", "LibreOffice")],
)
def test_open_workbook_is_refused(club: Path, lock_name: str, program: str) -> None:
    lock = club.with_name(lock_name)
    lock.write_text("Jan Secretaris,club-pc,jan,21.11.2024 20:00,file:///home/jan/.config;")
    original, stamp = club.read_bytes(), club.stat().st_mtime_ns
    with pytest.raises(WorkbookLocked) as refused:
        save_edits(club, product_edits())
    message = str(refused.value)
    assert program in message and f"keizer-xl unlock {club}" in message
    assert lock_name not in message  # the secretary's files only, never a lock file
    if program == "LibreOffice":
        assert "Jan Secretaris" in message
    assert club.read_bytes() == original and club.stat().st_mtime_ns == stamp
    assert not backup_path(club).exists()
    with pytest.raises(WorkbookLocked):
        check_not_open(club)
    lock.unlink()
    check_not_open(club)


@pytest.mark.programs  # processes alive and gone
@POSIX_ONLY
def test_temporary_files_of_a_live_run_are_kept_and_left_over_ones_removed(club: Path) -> None:
    """A save removes the temporary files of runs that are gone, never of one still
    writing: their names carry the writer's process id."""
    alive = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    try:
        live_temp = club.with_name(f".{club.name}.{alive.pid}-0a1b2c3d.keizer-xl.tmp")
        dead_temp = club.with_name(f".{club.name}.{dead.pid}-0a1b2c3d.keizer-xl.tmp")
        old_temp = club.with_name(f".{club.name}.{alive.pid}-99999999.keizer-xl.tmp")
        for temp in (live_temp, dead_temp, old_temp):
            temp.write_bytes(b"half a workbook")
        hours_ago = time.time() - 2 * 3600
        os.utime(old_temp, (hours_ago, hours_ago))
        assert save_edits(club, product_edits())
        assert live_temp.exists()
        assert not dead_temp.exists() and not old_temp.exists()
    finally:
        alive.kill()
        alive.wait()


def test_the_writer_lock_is_taken_once_and_its_file_removed(tmp_path: Path) -> None:
    from keizer_xl.workbook.xlsx import WorkbookBusy, one_writer, writer_lock_path

    club = copy_fixture("club.xlsm", tmp_path)
    with one_writer(club):
        assert writer_lock_path(club).exists()
        with (
            pytest.raises(WorkbookBusy, match=r"club\.xlsm is being changed by another"),
            one_writer(club, wait=0.2),
        ):
            pass  # pragma: no cover - the lock is held
    assert sorted(p.name for p in tmp_path.iterdir()) == ["club.xlsm"]


def test_a_waiting_run_gets_the_lock_once_the_first_lets_it_go(tmp_path: Path) -> None:
    """The first run removes the lock file as it lets go; the waiting one, which opened
    the removed file, starts over on a fresh one and never works beside the first."""
    from keizer_xl.workbook.xlsx import one_writer, writer_lock_path

    club = copy_fixture("club.xlsm", tmp_path)
    said: list[str] = []
    holding = threading.Event()

    def first() -> None:
        with one_writer(club):
            holding.set()
            time.sleep(0.3)
            said.append("first done")

    runner = threading.Thread(target=first)
    runner.start()
    assert holding.wait(10)
    with one_writer(club, wait=10):
        said.append("second in")
        assert writer_lock_path(club).exists()
    runner.join()
    assert said == ["first done", "second in"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["club.xlsm"]


@POSIX_ONLY
def test_a_file_system_without_locks_is_worked_on_without_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import errno
    import fcntl

    from keizer_xl.workbook.xlsx import one_writer, unlock

    def flock(fd: int, operation: int) -> None:
        raise OSError(errno.ENOLCK, "No locks available")

    monkeypatch.setattr(fcntl, "flock", flock)
    club = copy_fixture("club.xlsm", tmp_path)
    with one_writer(club):
        assert save_edits(club, product_edits())
    assert unlock(club) == []
    assert sorted(p.name for p in tmp_path.iterdir()) == ["club.backup.xlsm", "club.xlsm"]


def test_every_file_is_written_whole_or_not_at_all(tmp_path: Path) -> None:
    """The one writer behind workbooks, pages, PDFs and exchange files: a write that fails
    halfway changes nothing and leaves no temporary file; one that finishes replaces the
    file whole."""
    page = tmp_path / "index.html"
    page.write_bytes(b"old")

    def half(temp: Path) -> None:
        temp.write_bytes(b"ne")
        raise RuntimeError("disk full")

    with pytest.raises(RuntimeError, match="disk full"):
        write_atomically(page, half)
    assert page.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["index.html"]
    write_bytes_atomically(page, b"new", sync=False)
    assert page.read_bytes() == b"new"
    assert [p.name for p in tmp_path.iterdir()] == ["index.html"]


@POSIX_ONLY
def test_a_replaced_file_keeps_its_permissions_and_a_new_one_gets_the_ordinary_ones(
    tmp_path: Path,
) -> None:
    old = tmp_path / "standings.pdf"
    old.write_bytes(b"old")
    old.chmod(0o640)
    write_bytes_atomically(old, b"new")
    assert (old.stat().st_mode & 0o777) == 0o640
    new = tmp_path / "season.trf"
    write_bytes_atomically(new, b"new")
    mask = os.umask(0)
    os.umask(mask)
    assert (new.stat().st_mode & 0o777) == 0o666 & ~mask


def test_a_writer_that_goes_by_the_suffix_is_given_it(tmp_path: Path) -> None:
    """A new workbook is filled in by code that opens it as a workbook (by its suffix)."""
    temps: list[Path] = []

    def write(temp: Path) -> None:
        temps.append(temp)
        temp.write_bytes(b"a workbook")

    write_atomically(tmp_path / "club.xlsx", write, keep_suffix=True)
    (temp,) = temps
    assert temp.parent == tmp_path and temp.name.startswith(".club.xlsx.")
    assert temp.suffix == ".xlsx" and not temp.exists()
    assert (tmp_path / "club.xlsx").read_bytes() == b"a workbook"


@POSIX_ONLY
def test_a_write_clears_what_killed_writes_of_the_same_file_left(tmp_path: Path) -> None:
    # no process has this pid (past the largest Linux or macOS gives): its temporaries
    # are left over, as a killed process's are
    gone = 4_194_305
    left = [
        tmp_path / f".club.xlsx.{gone}-0a1b2c3d.keizer-xl.tmp",
        tmp_path / f".club.xlsx.{gone}-0a1b2c3d.keizer-xl.tmp.xlsx",
    ]
    kept = [
        tmp_path / f".club.xlsx.{os.getppid()}-0a1b2c3d.keizer-xl.tmp",  # still writing
        tmp_path / f".club.xlsx.x.{gone}-0a1b2c3d.keizer-xl.tmp",  # another file's
        tmp_path / f".other.xlsx.{gone}-0a1b2c3d.keizer-xl.tmp",
    ]
    for path in (*left, *kept):
        path.write_bytes(b"half")
    write_bytes_atomically(tmp_path / "club.xlsx", b"whole", sync=False)
    assert [path for path in left if path.exists()] == []
    assert [path for path in kept if path.exists()] == kept
