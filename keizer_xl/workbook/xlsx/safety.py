"""Safety around a save: lock files, the backup, and the atomic replace.

A workbook open in Excel or LibreOffice is refused (the program would overwrite the save
later), recognised by the lock files those programs keep beside it. A save writes a
hidden temporary file beside the workbook, flushes it to disk, keeps the previous version
as `<name>.backup<ext>` and renames the new file over the old one, so a crash leaves the
old or the new file, never a mix; the folder is flushed too, so the rename itself lasts.

That writer, `write_atomically`, is keizer_xl's only one: new workbooks, exchange files,
pages and PDFs are written through it too (it knows files, nothing of what is in them).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
import time
from collections.abc import Callable, Collection, Iterator
from pathlib import Path, PurePath

from keizer_xl.workbook.xlsx.errors import WorkbookBusy, WorkbookLocked

TEMP_SUFFIX = ".keizer-xl.tmp"
LOCK_SUFFIX = ".keizer-xl.lock"
WAIT = 10.0  # seconds a second run waits for the first to finish with the workbook


def writer_lock_path(path: Path) -> Path:
    """The lock file keizer_xl takes beside a workbook while it reads and saves it."""
    target = Path(os.path.realpath(path))
    return target.with_name(f".{target.name}{LOCK_SUFFIX}")


@contextlib.contextmanager
def one_writer(path: Path, wait: float | None = None) -> Iterator[None]:
    """Hold the workbook's writer lock: one keizer_xl run at a time reads and saves it.

    The lock is the operating system's lock on the lock file (`filelock`), which ends with
    the process that held it: a file left behind by a run that was killed is no lock, and
    the next run takes it at once. A second run waits up to `wait` seconds (`WAIT`), then
    refuses.

    The file is removed when the work is done, just before the lock is let go: a run
    waiting on the removed file finds it gone once it gets the lock (filelock checks) and
    starts over on a fresh one, so two runs never work at once.
    """
    from filelock import FileLock, Timeout

    wait = WAIT if wait is None else wait
    lock_path = writer_lock_path(path)
    lock = FileLock(lock_path, timeout=wait)
    try:
        lock.acquire()
    except Timeout:
        raise WorkbookBusy(
            "{file} is being changed by another keizer-xl run or button (waited {seconds} "
            "seconds). Try again when it has finished.", file=Path(path).name,
            seconds=f"{wait:g}") from None
    try:
        yield
    finally:
        with contextlib.suppress(OSError):
            os.unlink(lock_path)
        lock.release()


def lock_files(path: Path) -> list[Path]:
    """The lock files Excel (`~$name`) and LibreOffice (`.~lock.name#`) keep beside an open file."""
    return [path.with_name("~$" + path.name), path.with_name(f".~lock.{path.name}#")]


def check_not_open(path: Path) -> None:
    """Refuse to touch a workbook that is open: the program would overwrite our save later."""
    path = Path(path)
    for lock in lock_files(path):
        if lock.exists():
            program = "Excel" if lock.name.startswith("~$") else "LibreOffice"
            who = _lock_owner(lock)
            if who:
                raise WorkbookLocked(
                    "{file} is open in {program} by {who} (lock file {lock} is present). Close "
                    "it there and try again. If it is not open anywhere, delete the leftover "
                    "lock file {path}.", file=path.name, program=program, who=who,
                    lock=lock.name, path=lock)
            raise WorkbookLocked(
                "{file} is open in {program} (lock file {lock} is present). Close it there "
                "and try again. If it is not open anywhere, delete the leftover lock file "
                "{path}.", file=path.name, program=program, lock=lock.name, path=lock)



def _lock_owner(lock: Path) -> str:
    """Who has the file open, from LibreOffice's lock file (name, user, ...); '' if unknown."""
    if not lock.name.startswith(".~lock."):
        return ""
    try:
        fields = lock.read_text(encoding="utf-8", errors="replace").split(",")
    except OSError:
        return ""
    return next((f.strip() for f in fields[:2] if f.strip()), "")


def backup_path(path: Path) -> Path:
    """Where the previous version is kept: `club.xlsx` -> `club.backup.xlsx` (still opens)."""
    path = Path(path)
    return path.with_name(f"{path.stem}.backup{path.suffix}")


def write_atomically(target: Path, write: Callable[[Path], None], *, backup: bool = False,
                     sync: bool = True, keep_suffix: bool = False,
                     in_use: Callable[[PermissionError], OSError] | None = None,
                     tidy: bool = True) -> None:
    """Make the file `target` whole or not at all, the one way keizer_xl writes a file.

    `write(temp)` fills a new hidden file beside `target`, which then replaces it in one
    rename: a reader, or a crash, sees the old file or the whole new one, never a mix; if
    `write` fails, nothing changes. A file that was there keeps its permissions, a new one
    gets the ordinary ones.

    `backup` keeps the old version as `backup_path(target)`. `sync` flushes the file and the
    folder to disk first (pages written again at every publish can do without).
    `keep_suffix` ends the temporary name in `target`'s suffix too, for writers that go by
    it. `in_use` makes the error to raise when another program holds `target` open (Windows
    then refuses the rename); without it, the system's is raised. Temporary files that a
    killed earlier write of `target` left are removed first (`tidy`; a caller writing many
    files into one folder removes them all at once with `remove_stale_temps`).
    """
    def fill(temp: Path, new: int) -> None:
        os.close(new)
        write(temp)
        if sync:
            _sync_file(temp)

    _replace(Path(target), fill, backup=backup, sync=sync, keep_suffix=keep_suffix,
             in_use=in_use, tidy=tidy)


def write_bytes_atomically(target: Path, data: bytes, *, sync: bool = True,
                           tidy: bool = True) -> None:
    """A file of these bytes, written as `write_atomically` writes (an exchange file, a page,
    a PDF), through the new file's own handle: a site's thousand pages are not each
    opened twice."""
    def fill(temp: Path, new: int) -> None:
        with open(new, "wb") as file:
            file.write(data)
            if sync:
                file.flush()
                os.fsync(file.fileno())

    _replace(Path(target), fill, sync=sync, tidy=tidy)


def _replace(target: Path, fill: Callable[[Path, int], None], *, backup: bool = False,
             sync: bool = True, keep_suffix: bool = False,
             in_use: Callable[[PermissionError], OSError] | None = None,
             tidy: bool = True) -> None:
    """`write_atomically`'s way: `fill(temp, handle)` fills the new hidden file, just made
    for this write alone (and closes the handle)."""
    if tidy:
        remove_stale_temps(target.parent, [target.name])
    temp = _temp_name(target, keep_suffix)
    new = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0),
                  0o600)
    try:
        fill(temp, new)
        os.chmod(temp, _mode_for(target))
        if backup:
            _keep_backup(target)
        try:
            os.replace(temp, target)
        except PermissionError as exc:  # Windows: another program holds the file open
            if in_use is None:
                raise
            raise in_use(exc) from exc
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise
    if sync:
        _sync_folder(target.parent)


def _temp_name(target: Path, keep_suffix: bool = False) -> Path:
    """A hidden name beside `target` for a file being written, with this process's id in it
    so that another run can tell whether its writer is still alive (see `_stale`)."""
    end = TEMP_SUFFIX + (target.suffix if keep_suffix else "")
    return target.with_name(f".{target.name}.{os.getpid()}-{os.urandom(4).hex()}{end}")


STALE_AFTER = 3600  # seconds: a temporary file this old is left over, whoever wrote it


def remove_stale_temps(folder: Path, names: Collection[str]) -> None:
    """Delete the temporary files killed earlier writes of the files `names` in `folder`
    left; never those of a run still writing (its process is alive and its file is fresh).

    One look at the folder for all of them: a site's thousand pages share one folder."""
    wanted = set(names)
    with contextlib.suppress(OSError):
        for entry in os.scandir(folder):
            name = entry.name
            if not name.startswith(".") or TEMP_SUFFIX not in name:
                continue
            body, _, rest = name[1:].rpartition(TEMP_SUFFIX)  # .<file>.<middle><end>
            target, _, middle = body.rpartition(".")
            if target in wanted and rest in ("", PurePath(target).suffix):
                with contextlib.suppress(OSError):
                    if _stale(middle, entry.stat()):
                        os.unlink(entry.path)


def _stale(middle: str, info: os.stat_result) -> bool:
    """Is the temporary file named `.<file>.<middle>.keizer-xl.tmp` left over?

    `middle` is `<pid>-<random>`: the file is left over when that process is gone. Where
    that cannot be asked (Windows; names without a pid), only old files are."""
    if time.time() - info.st_mtime > STALE_AFTER:
        return True
    pid, dash, _ = middle.partition("-")
    if not (dash and pid.isdigit()) or os.name != "posix":
        return False
    if int(pid) == os.getpid():
        return False
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return True
    except OSError:  # alive, but another user's
        return False
    return False


def _mode_for(target: Path) -> int:
    """The permissions of the file being replaced; for a new file, the ordinary ones (what
    the user's umask leaves of rw-rw-rw-)."""
    try:
        return stat.S_IMODE(os.stat(target).st_mode)
    except FileNotFoundError:
        mask = os.umask(0)
        os.umask(mask)
        return 0o666 & ~mask


def _sync_file(path: Path) -> None:
    """Flush a file's content to disk."""
    fd = os.open(path, os.O_RDWR | getattr(os, "O_BINARY", 0))
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _keep_backup(target: Path) -> None:
    """Make `backup_path(target)` the current (old) version, atomically.

    A hard link costs no copying and keeps the old file's dates; where links are not
    supported (FAT-formatted sticks, some network drives) the file is copied instead.
    """
    temp = _temp_name(target)
    try:
        try:
            os.link(target, temp)
        except OSError:
            shutil.copyfile(target, temp)
            shutil.copystat(target, temp)
            with open(temp, "rb+") as copy:
                os.fsync(copy.fileno())
        try:
            os.replace(temp, backup_path(target))
        except PermissionError as exc:  # Windows: the backup is open in Excel
            raise PermissionError(
                exc.errno, "Cannot replace the backup; is it open?", str(backup_path(target))
            ) from exc
    finally:
        # rename() does nothing when both names are links to the same file already
        with contextlib.suppress(OSError):
            os.unlink(temp)


def _sync_folder(folder: Path) -> None:
    """Make the rename itself durable (POSIX); Windows has no directory handles for this."""
    if os.name != "posix":
        return
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
