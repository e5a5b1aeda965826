"""Messages about the secretary's files only: a lock is said by who holds it and cleared
with `keizer-xl unlock`, a read-only folder refuses only what must be written there, and an
error of the system names the file on every command and says that nothing was changed.

A full disk is made by the writer's own hook: the bytes are written, then the system's error
comes, naming the temporary file as the system would."""

from __future__ import annotations

import errno
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from keizer_xl.workbook.xlsx import safety, writer_lock_path
from tests.conftest import run_cli
from tests.programs import another_writer
from tests.seasons import golden_book, make_book

REPO = Path(__file__).resolve().parents[2]
PLAYERS = [{"Name": f"Player {i}", "Rating": 2000 - 10 * i, "Present": "x"} for i in range(1, 7)]
HIDDEN = (".keizer-xl", "~$", ".~lock")  # lock and temporary files: never in a message


def said(result: object) -> str:
    output = getattr(result, "output", "")
    for hidden in HIDDEN:
        assert hidden not in output, output
    return output


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.rglob("*") if p.name.startswith((".", "~")))


# -- locks -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("lock", "content", "program", "who"),
    [
        ("~$club.xlsx", b"\x05Annie" + b" " * 48, "Excel", "Annie"),
        (
            ".~lock.club.xlsx#",
            b"Anna de Vries,club-pc,anna,21.11.2024 20:00,file:///x;",
            "LibreOffice",
            "Anna de Vries",
        ),
    ],
)
def test_a_lock_a_crashed_program_left_is_named_by_its_user_and_cleared_by_unlock(
    tmp_path: Path, lock: str, content: bytes, program: str, who: str
) -> None:
    path = make_book(tmp_path / "club.xlsx", PLAYERS)
    (tmp_path / lock).write_bytes(content)
    before = path.read_bytes()
    refused = run_cli("pair", path)
    assert refused.exit_code == 1
    assert f"club.xlsx is open in {program} by {who}. Close it there" in said(refused)
    assert f"keizer-xl unlock {path}" in said(refused)
    assert path.read_bytes() == before
    cleared = run_cli("unlock", path)
    assert cleared.exit_code == 0, cleared.output
    assert f"{path} is unlocked: cleared the lock left by {program} ({who})." in said(cleared)
    assert not (tmp_path / lock).exists()
    assert run_cli("pair", path).exit_code == 0
    again = run_cli("unlock", path)
    assert f"{path} was not locked; nothing to clear." in said(again)


@pytest.mark.programs  # another process has the workbook open
@pytest.mark.skipif(os.name != "posix", reason="LibreOffice's own lock on the file: POSIX")
def test_unlock_refuses_while_the_workbook_is_really_open(tmp_path: Path) -> None:
    """LibreOffice locks the file it has open (as this stand-in does): nothing is cleared."""
    path = make_book(tmp_path / "club.xlsx", PLAYERS)
    lock = tmp_path / ".~lock.club.xlsx#"
    lock.write_bytes(b"Anna,club-pc,anna,21.11.2024 20:00,file:///x;")
    with subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import fcntl, os, sys, time\n"
            "fd = os.open(sys.argv[1], os.O_RDWR); fcntl.lockf(fd, fcntl.LOCK_EX)\n"
            "print('open', flush=True); time.sleep(60)",
            str(path),
        ],
        stdout=subprocess.PIPE,
        text=True,
    ) as office:
        try:
            assert office.stdout is not None and office.stdout.readline() == "open\n"
            result = run_cli("unlock", path)
            assert result.exit_code == 1
            assert (
                "club.xlsx is open in another program right now; close it there first. "
                "Nothing was unlocked." in said(result)
            )
            assert lock.exists()
        finally:
            office.kill()


@pytest.mark.programs  # another process holds the workbook
def test_unlock_refuses_while_keizer_xl_is_changing_the_workbook(tmp_path: Path) -> None:
    path = golden_book(tmp_path / "club.xlsx", "A")
    with another_writer(path):
        result = run_cli("unlock", path)
        assert result.exit_code == 1
        assert "club.xlsx is being changed by another keizer-xl run" in said(result)


@pytest.fixture
def foreign_lock(monkeypatch: pytest.MonkeyPatch) -> Callable[[Path], Path]:
    """A writer lock file another user account (bram) left, which this one may not take."""

    def leave(path: Path) -> Path:
        lock = writer_lock_path(path)
        lock.write_bytes(b"")
        taking = safety.take

        def take(lock_path: Path, wait: float) -> int:
            if Path(lock_path) == lock and lock.exists():
                raise PermissionError(errno.EACCES, "Permission denied", str(lock))
            return taking(lock_path, wait)

        monkeypatch.setattr(safety, "take", take)
        monkeypatch.setattr(safety, "_foreign", lambda found: Path(found) == lock)
        monkeypatch.setattr(safety, "_owner", lambda found: "bram")
        return lock

    return leave


def test_a_lock_another_user_left_names_them_and_unlock_clears_it(
    tmp_path: Path, foreign_lock: Callable[[Path], Path]
) -> None:
    path = golden_book(tmp_path / "club.xlsx", "A")
    lock = foreign_lock(path)
    before = path.read_bytes()
    for command in ("recalc", "pair"):
        refused = run_cli(command, path)
        assert refused.exit_code == 1
        assert (
            "club.xlsx was left locked by a keizer-xl run of bram that has ended. If nobody "
            f"is working on it, clear the lock with: keizer-xl unlock {path}"
        ) in said(refused)
    assert path.read_bytes() == before
    cleared = run_cli("unlock", path)
    assert cleared.exit_code == 0, cleared.output
    assert "cleared the lock left by keizer-xl (bram)" in said(cleared)
    assert not lock.exists()
    assert run_cli("recalc", path).exit_code == 0


# -- a read-only folder ----------------------------------------------------------------------


@pytest.fixture
def read_only(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[Path], None]]:
    """Make a folder read-only: by its mode, and (for a run as root, which modes do not
    stop) by refusing, as the system would, anything made or removed in it."""
    folders: list[Path] = []
    opening, checking, unlinking = os.open, os.access, os.unlink

    def inside(path: Any) -> bool:
        return Path(os.fspath(path)).parent in folders

    def open_(path: Any, flags: int, *args: Any, **kwargs: Any) -> int:
        if flags & os.O_CREAT and inside(path) and not os.path.exists(path):
            raise PermissionError(errno.EACCES, "Permission denied", os.fspath(path))
        return opening(path, flags, *args, **kwargs)

    def access(path: Any, mode: int, **kwargs: Any) -> bool:
        if mode & os.W_OK and Path(os.fspath(path)) in folders:
            return False
        return checking(path, mode, **kwargs)

    def unlink(path: Any, **kwargs: Any) -> None:
        if inside(path):
            raise PermissionError(errno.EACCES, "Permission denied", os.fspath(path))
        unlinking(path, **kwargs)

    monkeypatch.setattr(os, "open", open_)
    monkeypatch.setattr(os, "access", access)
    monkeypatch.setattr(os, "unlink", unlink)

    def make(folder: Path) -> None:
        folders.append(folder.resolve())
        folder.chmod(0o555)

    yield make
    for folder in folders:
        folder.chmod(0o755)


def test_a_read_only_folder_refuses_only_what_must_write_there(
    tmp_path: Path, read_only: Callable[[Path], None]
) -> None:
    folder = tmp_path / "season"
    folder.mkdir()
    path = make_book(folder / "club.xlsx", PLAYERS, ROUND_1)
    assert run_cli("recalc", path).exit_code == 0
    read_only(folder)
    before = path.read_bytes()
    for command in ("check", "recalc", "standings"):  # nothing to write: done as ever
        result = run_cli(command, path)
        assert result.exit_code == 0, (command, result.output)
    refused = run_cli("pair", path)
    assert refused.exit_code == 1
    assert (
        f"the folder {folder.resolve()} is read-only, so {path} cannot be written there; "
        "nothing was changed"
    ) in said(refused)
    assert path.read_bytes() == before
    assert leftovers(folder) == []


# -- errors of the system, on every command --------------------------------------------------


@pytest.fixture
def full_disk(monkeypatch: pytest.MonkeyPatch) -> Callable[[str], None]:
    """The disk fills up while a file of this name is written (after its bytes)."""

    def fill(name: str) -> None:
        making = safety._new_temp

        def made(target: Path, fill: Callable[[Path, int], None], *args: Any) -> Path:
            def full(temp: Path, new: int) -> None:
                fill(temp, new)
                raise OSError(errno.ENOSPC, "No space left on device", str(temp))

            return making(target, full if target.name == name else fill, *args)

        monkeypatch.setattr(safety, "_new_temp", made)

    return fill


ROUND_1 = [
    [1, 1, "Player 1", "Player 2", "1-0"],
    [1, 2, "Player 3", "Player 4", "½-½"],
    [1, 3, "Player 5", "Player 6", "0-1"],
]


@pytest.fixture
def season(tmp_path: Path) -> Path:
    """A season of one round played, everyone present for the next."""
    path = make_book(tmp_path / "club.xlsx", PLAYERS, ROUND_1)
    assert run_cli("recalc", path).exit_code == 0
    return path


def test_a_full_disk_while_publishing_changes_no_page(
    season: Path, tmp_path: Path, full_disk: Callable[[str], None]
) -> None:
    site = tmp_path / "club_site"
    assert run_cli("publish", season, "--out", site).exit_code == 0
    pages = {p: p.read_bytes() for p in site.rglob("*") if p.is_file()}
    full_disk("pairings.html")  # written after index.html and before the player pages
    result = run_cli("publish", season, "--out", site)
    assert result.exit_code == 1
    assert f"disk full while writing {site / 'pairings.html'}; nothing was changed" in said(result)
    assert {p: p.read_bytes() for p in site.rglob("*") if p.is_file()} == pages
    assert leftovers(tmp_path) == []


def test_a_full_disk_on_a_first_publish_leaves_no_folder(
    season: Path, tmp_path: Path, full_disk: Callable[[str], None]
) -> None:
    full_disk("index.html")
    result = run_cli("publish", season, "--out", tmp_path / "club_site")
    assert result.exit_code == 1
    assert f"disk full while writing {tmp_path / 'club_site' / 'index.html'}" in said(result)
    assert not (tmp_path / "club_site").exists()


@pytest.mark.parametrize(
    ("command", "name"),
    [
        (["publish", "{book}", "--pdf", "--out", "{out}"], "pairings.pdf"),
        (["export", "{book}", "--trf", "{out}/season.trf"], "season.trf"),
        (["pair", "{book}"], "club.xlsx"),
        (["new", "{out}/new.xlsx"], "new.xlsx"),
    ],
)
def test_a_full_disk_is_said_naming_the_file_on_every_command(
    season: Path, tmp_path: Path, full_disk: Callable[[str], None], command: list[str], name: str
) -> None:
    out = tmp_path / "out"
    out.mkdir()
    before = season.read_bytes()
    full_disk(name)
    result = run_cli(*[arg.format(book=season, out=out) for arg in command])
    assert result.exit_code == 1
    written = season if name == "club.xlsx" else out / name
    assert f"disk full while writing {written}; nothing was changed" in said(result)
    assert "Traceback" not in result.output and "report" not in result.output
    assert season.read_bytes() == before
    assert list(out.iterdir()) == []
    assert leftovers(tmp_path) == []
