"""Safety around a save: lock files, the backup, and the atomic replace.

A workbook open in Excel or LibreOffice is refused (the program would overwrite the save
later), recognised by the lock files those programs keep beside it; `unlock` clears a lock
a program that ended left behind, never while the workbook is really open. A save writes a
hidden temporary file beside the workbook, flushes it to disk, keeps the previous version
as `<name>.backup<ext>` and renames the new file over the old one, so a crash leaves the
old or the new file, never a mix; the folder is flushed too, so the rename itself lasts.

That writer, `write_atomically`, is keizer_xl's only one: new workbooks, exchange files,
pages and PDFs are written through it too (it knows files, nothing of what is in them), and
`write_files_atomically` writes several files (a site's pages) all or none. Its errors name
the file that was to be written, never a temporary or lock file (`NotWritten`), and a folder
nobody may write in is refused before anything is written (`ReadOnlyFolder`).

keizer_xl's own lock keeps other runs out, not Excel, LibreOffice or a sync client, which
save by putting a new file in place. So a file read to be changed is read with its
`Snapshot` (`_snapshot`), and the writer replaces it only while it is still that file
(`SavedMeanwhile` otherwise): another program's save is never thrown away.
"""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
import stat
import time
from collections.abc import Callable, Collection, Iterator, Mapping
from pathlib import Path, PurePath

from keizer_xl.workbook.xlsx._oslock import NO_LOCKS, let_go, take, would_wait
from keizer_xl.workbook.xlsx._snapshot import Snapshot
from keizer_xl.workbook.xlsx.errors import (
    NotWritten,
    ReadOnlyFolder,
    SavedMeanwhile,
    WorkbookBusy,
    WorkbookLocked,
    WriteRefused,
)
from keizer_xl.workbook.xlsx.typed import typed

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

    The lock is the operating system's lock on the lock file (`_oslock`), which ends with
    the process that held it: a file left behind by a run that was killed is no lock, and
    the next run takes it at once. A second run waits up to `wait` seconds (`WAIT`), then
    refuses.

    The file is removed when the work is done, just before the lock is let go: a run
    waiting on the removed file finds it gone once it gets the lock and starts over on a
    fresh one, so two runs never work at once.

    In a folder nobody may write in, no run can change the workbook: it is read without
    the lock, and a save refuses naming the folder (`ReadOnlyFolder`). On a file system
    that keeps no locks, the work is done without one. A lock file another user account
    left, which this one may not take, is refused naming that user.
    """
    wait = WAIT if wait is None else wait
    lock_path = writer_lock_path(path)
    held: int | None = None  # the lock file's handle while the lock is held
    try:
        held = take(lock_path, wait)
    except TimeoutError:
        raise WorkbookBusy(
            "{file} is being changed by another keizer-xl run or button (waited {seconds} "
            "seconds). Try again when it has finished.",
            file=Path(path).name,
            seconds=f"{wait:g}",
        ) from None
    except OSError as exc:
        if exc.errno not in NO_LOCKS and _read_only_folder(lock_path) is None:
            if os.path.lexists(lock_path):
                raise _taken_by_another(Path(path), lock_path) from None
            raise _not_written(exc, Path(path)) from None
    try:
        yield
    finally:
        if held is not None:
            let_go(lock_path, held)


def _taken_by_another(path: Path, lock_path: Path) -> WorkbookBusy | WorkbookLocked:
    """Why the writer lock file another user account left cannot be taken: that user's
    run is changing the workbook, or it ended and left the file (`keizer-xl unlock`)."""
    user = _owner(lock_path)
    if _held(lock_path):
        return WorkbookBusy(
            "{file} is being changed by a keizer-xl run of {user}. Try again when it has finished.",
            file=path.name,
            user=user,
        )
    return WorkbookLocked(
        "{file} was left locked by a keizer-xl run of {user} that has "
        "ended. If nobody is working on it, clear the lock with: keizer-xl "
        "unlock {path}",
        file=path.name,
        user=user,
        path=typed(path),
    )


def _held(lock_path: Path) -> bool:
    """Does a live process hold the lock on this lock file (which this account may not
    write)? A file that cannot even be read counts as held."""
    try:
        return would_wait(lock_path, "flock")
    except OSError:
        return True


def _foreign(path: Path) -> bool:
    """Is this a file of another user account?"""
    try:
        return hasattr(os, "geteuid") and os.stat(path).st_uid != os.geteuid()
    except OSError:
        return False


def _owner(path: Path) -> str:
    """The user account a file belongs to, by name where the system says it."""
    try:
        uid = os.stat(path).st_uid
    except OSError:
        return "?"
    if os.name != "posix":  # pragma: no cover - Windows keeps owners elsewhere
        return "another user"
    import pwd

    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:
        return f"user {uid}"


def lock_files(path: Path) -> list[Path]:
    """The lock files Excel (`~$name`) and LibreOffice (`.~lock.name#`) keep beside an open file."""
    return [path.with_name("~$" + path.name), path.with_name(f".~lock.{path.name}#")]


def check_not_open(path: Path) -> None:
    """Refuse to touch a workbook that is open: the program would overwrite our save later.

    The message names the program and who has the file open, never the lock file; a lock
    file left by a program that crashed is cleared by `keizer-xl unlock` (see `unlock`)."""
    path = Path(path)
    for lock in lock_files(path):
        if lock.exists():
            program = _program(lock)
            who = _lock_owner(lock)
            if who:
                raise WorkbookLocked(
                    "{file} is open in {program} by {who}. Close it there and try again. If "
                    "it is not open anywhere, clear the lock {program} left with: keizer-xl "
                    "unlock {path}",
                    file=path.name,
                    program=program,
                    who=who,
                    path=typed(path),
                )
            raise WorkbookLocked(
                "{file} is open in {program}. Close it there and try again. If it is not open "
                "anywhere, clear the lock {program} left with: keizer-xl unlock {path}",
                file=path.name,
                program=program,
                path=typed(path),
            )


def _program(lock: Path) -> str:
    return "Excel" if lock.name.startswith("~$") else "LibreOffice"


def _lock_owner(lock: Path) -> str:
    """Who has the file open, from the lock file: LibreOffice's (name, host, user, ...) or
    Excel's (the user's name after a byte giving its length); '' if unknown."""
    try:
        with open(lock, "rb") as found:
            data = found.read(4096)
    except OSError:
        return ""
    if not lock.name.startswith(".~lock."):
        size = data[0] if data else 0
        name = data[1 : 1 + size].decode("cp1252", "replace").strip()
        return name if 0 < size <= 53 and len(data) > size and name.isprintable() else ""
    fields = data.decode("utf-8", errors="replace").split(",")
    return next((f.strip() for f in fields[:2] if f.strip()), "")


def unlock(path: Path) -> list[str]:
    """Clear the locks that programs which have ended left beside the workbook (Excel,
    LibreOffice, a keizer-xl run of another user account); who left each, as `Excel`,
    `LibreOffice (Anna)` or `keizer-xl (bram)`.

    Refuses, clearing nothing, while the workbook is really open (WorkbookLocked: Excel on
    Windows keeps others from writing it, LibreOffice locks it) or a keizer-xl run is
    changing it (WorkbookBusy)."""
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(errno.ENOENT, "There is no workbook at this place", str(path))
    target = Path(os.path.realpath(path))
    _check_folder(target)
    if _in_use(target):
        raise WorkbookLocked(
            "{file} is open in another program right now; close it there "
            "first. Nothing was unlocked.",
            file=path.name,
        )
    writer = writer_lock_path(path)
    left: list[str] = []
    theirs = _foreign(writer)
    held: int | None = None  # the lock taken here; None for a lock file it cannot take
    try:
        held = take(writer, 0)
    except TimeoutError:
        raise WorkbookBusy(
            "{file} is being changed by another keizer-xl run or button. Try "
            "again when it has finished.",
            file=path.name,
        ) from None
    except OSError as exc:  # another account's lock file: cleared when no run holds it
        if exc.errno not in NO_LOCKS:
            if not os.path.lexists(writer):
                raise _not_written(exc, path) from None
            if _held(writer):
                raise _taken_by_another(path, writer) from None
    try:
        for stale in dict.fromkeys([*lock_files(path), *lock_files(target)]):
            if stale.exists():
                who = _lock_owner(stale)
                _clear(stale, path)
                left.append(f"{_program(stale)} ({who})" if who else _program(stale))
        if theirs:
            left.append(f"keizer-xl ({_owner(writer)})")
    finally:
        if held is not None:
            let_go(writer, held)
        else:
            _clear(writer, path)
    return left


def _clear(lock: Path, path: Path) -> None:
    """Remove a lock file; its failure is said as the workbook's (never the lock file's)."""
    try:
        os.unlink(lock)
    except FileNotFoundError:
        pass
    except OSError as exc:
        raise _not_written(exc, path) from None


def _in_use(path: Path) -> bool:
    """Does another program have the workbook open right now? Excel on Windows opens it so
    that nobody else may write it; LibreOffice on Linux and macOS locks it. A file this
    account may not write gives no sign either way (False)."""
    if not os.access(path, os.W_OK):
        return False
    try:
        return would_wait(path, "lockf", writing=True)
    except PermissionError:  # pragma: no cover - Windows: held by Excel
        return True
    except OSError:
        return False


def backup_path(path: Path) -> Path:
    """Where the previous version is kept: `club.xlsx` -> `club.backup.xlsx` (still opens)."""
    path = Path(path)
    return path.with_name(f"{path.stem}.backup{path.suffix}")


def write_atomically(
    target: Path,
    write: Callable[[Path], None],
    *,
    backup: bool = False,
    sync: bool = True,
    keep_suffix: bool = False,
    in_use: Callable[[PermissionError], OSError] | None = None,
    tidy: bool = True,
    expect: Snapshot | None = None,
) -> None:
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

    A failure of the system is raised as `NotWritten` naming `target` (never the temporary
    file), `ReadOnlyFolder` when its folder cannot be written in at all.
    """

    def fill(temp: Path, new: int) -> None:
        os.close(new)
        write(temp)
        if sync:
            _sync_file(temp)

    _replace(
        Path(target),
        fill,
        backup=backup,
        sync=sync,
        keep_suffix=keep_suffix,
        in_use=in_use,
        tidy=tidy,
        expect=expect,
    )


def write_bytes_atomically(
    target: Path, data: bytes, *, sync: bool = True, tidy: bool = True
) -> None:
    """A file of these bytes, written as `write_atomically` writes (an exchange file, a page,
    a PDF), through the new file's own handle: a site's thousand pages are not each
    opened twice."""
    _replace(Path(target), _bytes(data, sync), sync=sync, tidy=tidy)


def _bytes(data: bytes, sync: bool) -> Callable[[Path, int], None]:
    """A `fill` writing these bytes through the new file's handle."""

    def fill(temp: Path, new: int) -> None:
        with open(new, "wb") as file:
            file.write(data)
            if sync:
                file.flush()
                os.fsync(file.fileno())

    return fill


def write_files_atomically(files: Mapping[Path, bytes], *, sync: bool = True) -> None:
    """Several files made as `write_bytes_atomically` makes one, together: all of them are
    written beside their places first (missing folders made, what killed earlier runs left
    cleared once per folder), and only then renamed into place, so a failure while writing
    them (a full disk) leaves every one as it was and removes the folders it made."""
    made: list[tuple[Path, Path]] = []  # (temporary file, its target)
    folders: list[Path] = []
    names: dict[Path, list[str]] = {}  # folder -> the names of the files written there
    for target in files:
        _check_folder(target)
        names.setdefault(target.parent, []).append(target.name)
    try:
        for folder, in_it in names.items():
            target = folder / in_it[0]  # said of its first file, should the folder fail
            folders += _make_folders(folder)
            remove_stale_temps(folder, in_it)
        for target, data in files.items():
            made.append((_new_temp(target, _bytes(data, sync)), target))
        for temp, target in made:
            os.chmod(temp, _mode_for(target))
    except BaseException as exc:
        for temp, _ in made:
            with contextlib.suppress(OSError):
                os.unlink(temp)
        for folder in reversed(folders):
            with contextlib.suppress(OSError):
                folder.rmdir()
        if isinstance(exc, OSError):
            raise _not_written(exc, target) from exc
        raise
    for at, (temp, target) in enumerate(made):
        try:
            os.replace(temp, target)
        except OSError as exc:
            for left, _ in made[at:]:
                with contextlib.suppress(OSError):
                    os.unlink(left)
            raise _not_written(exc, target) from exc
    if sync:
        for folder in names:
            _sync_folder(folder)


def _replace(
    target: Path,
    fill: Callable[[Path, int], None],
    *,
    backup: bool = False,
    sync: bool = True,
    keep_suffix: bool = False,
    in_use: Callable[[PermissionError], OSError] | None = None,
    tidy: bool = True,
    expect: Snapshot | None = None,
) -> None:
    """`write_atomically`'s way: `fill(temp, handle)` fills the new hidden file, just made
    for this write alone (and closes the handle); then it replaces `target`, if it is still
    the file `expect` describes: looked at before the backup (which would keep the other
    program's file in place of ours) and again as the last thing before the rename."""
    _check_folder(target)
    if tidy:
        remove_stale_temps(target.parent, [target.name])
    try:
        temp = _new_temp(target, fill, keep_suffix)
    except OSError as exc:
        raise _not_written(exc, target) from exc
    try:
        os.chmod(temp, _mode_for(target))
        _still(target, expect)
        if backup:
            _keep_backup(target)
            _still(target, expect)
        try:
            os.replace(temp, target)
        except PermissionError as exc:  # Windows: another program holds the file open
            if in_use is None:
                raise
            raise in_use(exc) from exc
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        if isinstance(exc, OSError):
            raise _not_written(exc, target) from exc
        raise
    if sync:
        _sync_folder(target.parent)


def _still(target: Path, expect: Snapshot | None) -> None:
    """Refuse to replace a file another program saved after it was read (`expect`)."""
    if expect is not None and not expect.still(target):
        raise SavedMeanwhile(target.name)


def _new_temp(target: Path, fill: Callable[[Path, int], None], keep_suffix: bool = False) -> Path:
    """A new hidden file beside `target`, made for this write alone and filled by `fill`
    (which closes its handle); removed again if that fails."""
    temp = _temp_name(target, keep_suffix)
    new = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o600)
    try:
        fill(temp, new)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise
    return temp


def _make_folders(folder: Path) -> list[Path]:
    """Make `folder` and any missing folders above it; those made, the highest first."""
    missing = []
    while not folder.exists() and folder != folder.parent:
        missing.append(folder)
        folder = folder.parent
    for each in reversed(missing):
        each.mkdir(exist_ok=True)
    return list(reversed(missing))


def _read_only_folder(target: Path) -> Path | None:
    """The folder a file `target` would be written in, or the nearest one above it that
    exists, when nobody may write in it (None when the file can be written there)."""
    folder = Path(target).parent
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    return None if os.access(folder, os.W_OK) else folder


def _check_folder(target: Path) -> None:
    """Refuse a file that cannot be written where it is to be, naming the folder."""
    folder = _read_only_folder(target)
    if folder is not None:
        raise ReadOnlyFolder(errno.EACCES, "read-only folder", str(target), None, str(folder))


def _not_written(exc: OSError, target: Path) -> NotWritten:
    """The system's error while writing `target`, naming it (and no temporary file)."""
    if isinstance(exc, NotWritten):  # perhaps of a file written into the temporary one
        exc.filename = str(target)
        return exc
    kind = WriteRefused if isinstance(exc, PermissionError) else NotWritten
    error = kind(exc.errno, exc.strerror or str(exc), str(target))
    error.__cause__ = exc
    return error


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
