"""The operating system's locks on files, which end with the process that holds them.

keizer_xl's writer lock (`safety.one_writer`) is such a lock on a lock file beside the
workbook: `flock` on POSIX, the file's first byte locked on Windows. Only what that needs
is here (taking it, waiting for it, letting it go, asking whether another process holds
one), with the system's own calls, which cost a command nothing to import.
"""

from __future__ import annotations

import contextlib
import errno
import os
import sys
import time
from pathlib import Path

# The system's errors where a file system keeps no locks at all.
NO_LOCKS = frozenset({errno.ENOLCK, errno.ENOSYS, errno.EOPNOTSUPP, errno.ENOTSUP})
# ... and those that say another process holds the lock.
HELD = frozenset({errno.EACCES, errno.EAGAIN, errno.EWOULDBLOCK, errno.EDEADLK})
POLL = 0.05  # seconds between a waiting run's attempts


def take(lock_path: Path, wait: float) -> int:
    """Lock the lock file, made if missing, and return its open handle.

    Tried every `POLL` seconds until `wait` seconds have passed, then `TimeoutError`. A
    lock got on a file that was removed meanwhile (by the run before, letting it go) is no
    lock: the next attempt opens the file now at the path. Where the file system keeps no
    locks, the file is removed again and the system's error (an errno in `NO_LOCKS`)
    raised; any other error of the system is raised as it comes."""
    deadline = time.monotonic() + wait
    while True:
        fd = os.open(lock_path, os.O_RDWR | os.O_CREAT | getattr(os, "O_BINARY", 0), 0o666)
        try:
            if _lock(fd):
                with contextlib.suppress(FileNotFoundError):
                    if os.path.samestat(os.fstat(fd), os.stat(lock_path)):
                        return fd
                _unlock(fd)
        except BaseException as exc:
            os.close(fd)
            if isinstance(exc, OSError) and exc.errno in NO_LOCKS:
                with contextlib.suppress(OSError):
                    os.unlink(lock_path)
            raise
        os.close(fd)
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError(errno.ETIMEDOUT, "locked by another process", str(lock_path))
        time.sleep(min(POLL, left))


def let_go(lock_path: Path, fd: int) -> None:
    """Remove the lock file and let its lock go. On POSIX the file goes first, while still
    held, so no run can get the lock on a file about to go; Windows cannot remove a file
    that is open, so there it goes after, unless a waiting run has it open by then."""
    if sys.platform != "win32":
        with contextlib.suppress(OSError):
            os.unlink(lock_path)
    try:
        _unlock(fd)
    finally:
        os.close(fd)
    if sys.platform == "win32":  # pragma: no cover
        with contextlib.suppress(OSError):
            os.unlink(lock_path)


def would_wait(path: Path, kind: str, writing: bool = False) -> bool:
    """Would an exclusive lock on this file wait for another process? `flock` asks about
    keizer_xl's own lock files, `lockf` about the record locks LibreOffice puts on a
    workbook (two kinds of lock that do not see each other; `lockf` needs the file opened
    for `writing`). Not on Windows, where opening the file is the sign instead. OSError
    when the file cannot be opened."""
    fd = os.open(path, (os.O_RDWR if writing else os.O_RDONLY) | getattr(os, "O_BINARY", 0))
    try:
        if sys.platform == "win32":  # pragma: no cover
            return False
        import fcntl

        lock = fcntl.flock if kind == "flock" else fcntl.lockf
        try:
            lock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            return True
        lock(fd, fcntl.LOCK_UN)
        return False
    finally:
        os.close(fd)


def _lock(fd: int) -> bool:
    """Lock this open file if no other process holds it (False when one does)."""
    try:
        if sys.platform == "win32":  # pragma: no cover
            import msvcrt

            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        else:
            import fcntl

            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as exc:
        if exc.errno in HELD:
            return False
        raise
    return True


def _unlock(fd: int) -> None:
    if sys.platform == "win32":  # pragma: no cover
        import msvcrt

        msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)
    else:
        import fcntl

        fcntl.flock(fd, fcntl.LOCK_UN)
