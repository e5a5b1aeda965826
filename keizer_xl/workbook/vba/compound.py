"""MS-CFB: the Compound File (version 3) that holds a VBA project's streams.

Only what a vbaProject.bin needs is written: storages and streams from a mapping of paths,
small streams in the mini stream, the FAT in the header's own DIFAT (no DIFAT sectors, so
at most 109 FAT sectors), siblings as a balanced red-black tree. Times and CLSIDs stay zero,
so the same streams always give the same bytes.
"""

from __future__ import annotations

import struct
from collections.abc import Mapping
from dataclasses import dataclass

__all__ = ["compound_file"]

_SECTOR = 512
_MINI = 64
_CUTOFF = 4096
_FREE, _END, _FATSECT, _NOSTREAM = 0xFFFFFFFF, 0xFFFFFFFE, 0xFFFFFFFD, 0xFFFFFFFF


@dataclass
class _Entry:
    name: str
    data: bytes | None  # None for a storage
    children: list[_Entry]
    sid: int = 0
    left: int = _NOSTREAM
    right: int = _NOSTREAM
    child: int = _NOSTREAM
    red: bool = False
    start: int = _END


def _cfb_key(entry: _Entry) -> tuple[int, str]:
    """MS-CFB sibling order: shorter names first, then by upper-cased name."""
    return len(entry.name), entry.name.upper()


def _link_tree(siblings: list[_Entry], depth: int, deepest: int) -> int:
    """Make a balanced red-black tree of siblings; returns the root's sid."""
    if not siblings:
        return _NOSTREAM
    middle = len(siblings) // 2
    node = siblings[middle]
    # A balanced tree has every level full but perhaps the last; colouring that last level
    # red keeps each path's count of black nodes equal.
    node.red = depth == deepest and depth > 0
    node.left = _link_tree(siblings[:middle], depth + 1, deepest)
    node.right = _link_tree(siblings[middle + 1 :], depth + 1, deepest)
    return node.sid


def _tree_depth(count: int) -> int:
    return max(count.bit_length() - 1, 0)


def _directory(streams: Mapping[str, bytes]) -> list[_Entry]:
    """The directory entries of `streams` in the order they are written, the root first,
    each storage's children linked as the red-black tree the format asks for."""
    root = _Entry("Root Entry", None, [])
    for path, data in streams.items():
        *folders, leaf = path.split("/")
        parent = root
        for folder in folders:
            found = next((c for c in parent.children if c.name == folder), None)
            if found is None:
                found = _Entry(folder, None, [])
                parent.children.append(found)
            parent = found
        parent.children.append(_Entry(leaf, data, []))

    entries: list[_Entry] = []

    def number(entry: _Entry) -> None:
        entry.sid = len(entries)
        entries.append(entry)
        entry.children.sort(key=_cfb_key)
        for child in entry.children:
            number(child)

    number(root)
    for entry in entries:
        if entry.children:
            count = len(entry.children)
            entry.child = _link_tree(entry.children, 0, _tree_depth(count))
    return entries


def compound_file(streams: Mapping[str, bytes]) -> bytes:
    """A version 3 Compound File holding `streams` ("STORAGE/STREAM" paths)."""
    entries = _directory(streams)
    root = entries[0]

    mini = bytearray()
    minifat: list[int] = []
    big: list[_Entry] = []
    for entry in entries[1:]:
        if entry.data is None or not entry.data:
            continue
        if len(entry.data) < _CUTOFF:
            first = len(minifat)
            count = -(-len(entry.data) // _MINI)
            minifat += [first + i + 1 for i in range(count - 1)] + [_END]
            entry.start = first
            mini += entry.data + bytes(count * _MINI - len(entry.data))
        else:
            big.append(entry)

    def sectors(size: int) -> int:
        return -(-size // _SECTOR)

    n_minifat = sectors(len(minifat) * 4)
    n_dir = sectors(len(entries) * 128)
    n_mini = sectors(len(mini))
    n_big = sum(sectors(len(e.data or b"")) for e in big)
    others = n_minifat + n_dir + n_mini + n_big
    n_fat = 1
    while n_fat * (_SECTOR // 4) < n_fat + others:
        n_fat += 1
    if n_fat > 109:
        raise ValueError("VBA project too large for a compound file without DIFAT sectors")

    fat: list[int] = [_FATSECT] * n_fat
    sector_data: list[bytes] = []

    def chain(data: bytes) -> int:
        first = n_fat + len(sector_data)
        count = sectors(len(data))
        fat.extend([first + i + 1 for i in range(count - 1)] + [_END])
        padded = data + bytes(count * _SECTOR - len(data))
        sector_data.extend(padded[i : i + _SECTOR] for i in range(0, len(padded), _SECTOR))
        return first

    minifat_start = (
        chain(
            b"".join(struct.pack("<I", v) for v in minifat)
            + struct.pack("<I", _FREE) * (n_minifat * 128 - len(minifat))
        )
        if minifat
        else _END
    )
    dir_at = n_fat + len(sector_data)  # written below, once the start sectors are known
    fat.extend([dir_at + i + 1 for i in range(n_dir - 1)] + [_END])
    sector_data.extend(bytes(_SECTOR) for _ in range(n_dir))
    root.start = chain(bytes(mini)) if mini else _END
    for entry in big:
        entry.start = chain(entry.data or b"")
    fat += [_FREE] * (n_fat * (_SECTOR // 4) - len(fat))

    directory = bytearray()
    for entry in entries:
        directory += _dir_entry(entry, len(mini) if entry is root else len(entry.data or b""))
    unused = bytes(64) + struct.pack("<HBBIII", 0, 0, 0, _NOSTREAM, _NOSTREAM, _NOSTREAM)
    unused += bytes(128 - len(unused))
    while len(directory) % _SECTOR:
        directory += unused
    for i in range(n_dir):
        sector_data[dir_at - n_fat + i] = bytes(directory[i * _SECTOR : (i + 1) * _SECTOR])

    header = bytearray()
    header += bytes.fromhex("D0CF11E0A1B11AE1") + bytes(16)
    header += struct.pack("<HHHHH", 0x003E, 0x0003, 0xFFFE, 9, 6) + bytes(6)
    header += struct.pack(
        "<IIIIIIIII", 0, n_fat, dir_at, 0, _CUTOFF, minifat_start, n_minifat, _END, 0
    )
    difat = list(range(n_fat)) + [_FREE] * (109 - n_fat)
    header += b"".join(struct.pack("<I", v) for v in difat)
    fat_bytes = b"".join(struct.pack("<I", v) for v in fat)
    return bytes(header) + fat_bytes + b"".join(sector_data)


def _dir_entry(entry: _Entry, size: int) -> bytes:
    """One 128-byte directory entry; times and CLSIDs stay zero so output is reproducible."""
    name = entry.name.encode("utf-16-le") + b"\0\0"
    if len(name) > 64:
        raise ValueError(f"compound file name too long: {entry.name}")
    if entry.sid == 0:
        kind, start = 5, entry.start
    elif entry.data is None:
        kind, start = 1, 0
    else:
        kind, start = 2, entry.start if entry.data else _END
    return (
        name.ljust(64, b"\0")
        + struct.pack("<HBB", len(name), kind, 0 if entry.red else 1)
        + struct.pack("<III", entry.left, entry.right, entry.child)
        + bytes(16 + 4 + 8 + 8)
        + struct.pack("<IQ", start, size)
    )
