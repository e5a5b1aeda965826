"""MS-OVBA 2.4.1: the compression of the dir stream and the module streams.

Chunks of 4096 bytes, each a run of literal and copy tokens; a full chunk that does not
shrink is stored raw, as the specification says.
"""

from __future__ import annotations

import struct

__all__ = ["compress"]


def compress(data: bytes) -> bytes:
    """MS-OVBA compression: chunks of 4096 bytes, each a run of literal and copy tokens."""
    out = bytearray(b"\x01")
    for start in range(0, len(data), 4096):
        out += _compress_chunk(data[start : start + 4096])
    return bytes(out)


def _compress_chunk(chunk: bytes) -> bytes:
    """One chunk; a full chunk that does not shrink is stored raw, as the spec says."""
    body = bytearray()
    seen: dict[bytes, list[int]] = {}  # 3-byte prefix -> earlier positions in this chunk
    pos, size = 0, len(chunk)

    def remember(start: int, stop: int) -> None:
        for at in range(start, min(stop, size - 2)):
            seen.setdefault(chunk[at : at + 3], []).append(at)

    while pos < size:
        flag_at = len(body)
        body.append(0)
        for bit in range(8):
            if pos >= size:
                break
            # A copy token's split of offset and length bits grows with the position.
            bit_count = max((pos - 1).bit_length(), 4)
            limit = min((0xFFFF >> bit_count) + 3, size - pos)
            length, offset = 0, 0
            for candidate in reversed(seen.get(chunk[pos : pos + 3], [])[-256:]):
                run = 0
                while run < limit and chunk[candidate + run] == chunk[pos + run]:
                    run += 1  # may run into the bytes being copied, as the format allows
                if run > length:
                    length, offset = run, pos - candidate
                    if run == limit:
                        break
            if length >= 3:
                body += _u16(((offset - 1) << (16 - bit_count)) | (length - 3))
                body[flag_at] |= 1 << bit
            else:
                length = 1
                body.append(chunk[pos])
            remember(pos, pos + length)
            pos += length
    if len(body) <= 4096:
        return _u16(0xB000 | (len(body) + 2 - 3)) + bytes(body)
    if size == 4096:
        return _u16(0x3FFF) + chunk
    raise ValueError("a final VBA chunk neither compresses nor fills 4096 bytes")


def _u16(value: int) -> bytes:
    return struct.pack("<H", value)
