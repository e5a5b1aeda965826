"""A file as it was read, to tell later whether another program has saved over it.

keizer_xl's writer lock keeps other keizer-xl runs out, not Excel, LibreOffice or a sync
client; the atomic writer (`safety`) replaces a file it read only while it is still the
file described here.
"""

from __future__ import annotations

import hashlib
import os
import time
from pathlib import Path

# seconds: the coarsest clock of a file system keizer_xl may meet (FAT keeps modification
# times to 2 s); a file changed this soon after it was read may still show the same time
COARSE_CLOCK = 3.0


class Snapshot:
    """A file as it was read: which file it was (device, inode), its size and times, and
    its bytes, to tell later whether another program has saved over it since.

    A program that saves by putting a new file in place gives it another inode (Windows: a
    file index); one that writes into the same file changes its size or modification time.
    Only a change of the same size within the file system's clock tick (`COARSE_CLOCK`) of
    the reading can hide from these, and then the bytes on disk are compared by their hash.
    (The inode's change time is no help: keeping the backup, a second link to the file,
    moves it.)"""

    __slots__ = ("data", "info", "when")

    def __init__(self, info: os.stat_result, data: bytes, when: float) -> None:
        self.info, self.data, self.when = info, data, when

    def still(self, path: Path) -> bool:
        """Is the file at `path` still the one read (not saved over by another program)?"""
        was = self.info
        try:  # no call of ours between the look and the answer: nothing to slip in
            now = os.stat(path)
        except OSError:
            return False
        if (now.st_dev, now.st_ino, now.st_size, now.st_mtime_ns) != (
            was.st_dev,
            was.st_ino,
            was.st_size,
            was.st_mtime_ns,
        ):
            return False
        if self.when - now.st_mtime > COARSE_CLOCK:
            return True  # a save since then would show a later time
        try:
            with open(path, "rb") as found:
                on_disk = hashlib.blake2b(found.read()).digest()
        except OSError:
            return False
        return on_disk == hashlib.blake2b(self.data).digest()


def read_with_snapshot(path: Path) -> tuple[bytes, Snapshot]:
    """The bytes of a file that may be changed later, and its `Snapshot`, both taken through
    one handle: the snapshot describes exactly what was read."""
    with open(path, "rb") as file:
        when = time.time()
        data = file.read()
        info = os.fstat(file.fileno())
    return data, Snapshot(info, data, when)
