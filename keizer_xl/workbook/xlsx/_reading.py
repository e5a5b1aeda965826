"""Reading the values of a few sheets with bounded memory.

Each sheet is scanned first as it is unpacked (see `_scan`), and only sheets within the
limits are handed to python-calamine, inside a small package of just the parts it needs:
the sheets as they are stored (calamine unpacks what was scanned; a small one is handed on
as it was unpacked), the shared-string table counted (and told its true size where it
claims more), the other parts unpacked under `MAX_PART`, so calamine never unpacks anything
unchecked.
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, NamedTuple

from keizer_xl.workbook.xlsx._scan import (
    MAX_CELLS,
    MAX_COLUMNS,
    MAX_ROWS,
    Budget,
    ErrorCell,
    Scan,
    scan_sheet,
)
from keizer_xl.workbook.xlsx._strings import MAX_TABLE, count_strings, told_its_size
from keizer_xl.workbook.xlsx.errors import NotAWorkbook, Reason, SheetTooLarge

if TYPE_CHECKING:
    from python_calamine import CalamineSheet

    from keizer_xl.workbook.xlsx._package import Package
    from keizer_xl.workbook.xlsx._zipcopy import Member


class SheetValues(NamedTuple):
    """One sheet's values (row 0 = sheet row 1, column 0 = column A, "" for empty), the
    cells holding a formula whose value was never saved, as (row, column), 1-based, and the
    cells holding an error value (also "" among the values)."""

    rows: Sequence[Sequence[object]]
    unsaved: list[tuple[int, int]]
    errors: list[ErrorCell]


_KEPT = 8 << 20  # bytes: a sheet this small is handed to calamine unpacked (no second inflate)


def _as_stored(package: Package, part: str) -> Member:
    """A part for calamine's package as it is stored in the file (calamine unpacks it: it
    was counted as it was unpacked here), or unpacked where it cannot be taken over."""
    from keizer_xl.workbook.xlsx._zipcopy import Packed, stored_data

    info = package.infos[part]
    stored = stored_data(package.blob, info)
    return (
        (info, None, Packed(stored, info.CRC, info.file_size))
        if stored is not None
        else (_stored(info), package.content(part), None)
    )


def _stored(info: zipfile.ZipInfo) -> zipfile.ZipInfo:
    """An entry for a part handed to calamine unpacked: stored, not packed again."""
    entry = zipfile.ZipInfo(info.filename, info.date_time)
    entry.compress_type = zipfile.ZIP_STORED
    return entry


def _pieces(
    package: Package, part: str, kept: dict[str, list[bytes]] | None
) -> Callable[[], Iterable[bytes]]:
    """The part's pieces as they are unpacked, each time asked for; kept in `kept` too."""

    def pieces() -> Iterable[bytes]:
        if kept is None:
            yield from package.stream(part)
            return
        kept[part] = []
        for piece in package.stream(part):
            kept[part].append(piece)
            yield piece

    return pieces


def read_values(
    package: Package,
    wanted: dict[str, str],
    others: Sequence[str],
    strings: str | None,
    where: str,
    rows: Mapping[str, int] | None = None,
) -> dict[str, SheetValues]:
    """The values of the sheets `wanted` (sheet name -> its part) of `package`; `others`
    are the package parts calamine needs besides (workbook, relationships, styles),
    `strings` the shared-string table's part if there is one; `rows` the most rows of each
    sheet, where it is not `MAX_ROWS`.

    The table is counted and each sheet scanned first; sheets past the limits raise
    SheetTooLarge naming the first cell of each past them. Calamine then reads a package
    holding only these parts, never the original file.
    """
    from keizer_xl.workbook.xlsx._zipcopy import write_members_to

    rows = rows or {}
    table = None
    if strings is not None:
        table = count_strings(package.stream(strings, MAX_TABLE), where, strings)
    budget = Budget()
    scans: dict[str, Scan] = {}
    kept: dict[str, list[bytes]] = {}  # the pieces of small sheets, handed on unpacked
    far: list[tuple[str, str, Reason]] = []
    for name, part in wanted.items():
        size = package.infos[part].file_size
        scans[name] = scan_sheet(
            _pieces(package, part, kept if size <= _KEPT else None),
            name,
            where,
            rows.get(name, MAX_ROWS),
            budget,
            table,
            size,
        )
        far += scans[name].far
    package.scanned.update({part: scans[name].formulas for name, part in wanted.items()})
    if far:
        raise SheetTooLarge(
            far,
            "keizer_xl reads at most {rows} rows, {columns} columns and "
            "{cells} cells of a sheet. Clear what is there (and any "
            "formatting) and try again.",
            rows=f"{rows.get(far[0][0], MAX_ROWS):,}",
            columns=f"{MAX_COLUMNS:,}",
            cells=f"{MAX_CELLS:,}",
        )
    members: list[Member] = []
    for part in others:
        members.append((_stored(package.infos[part]), package.content(part, MAX_TABLE), None))
    if strings is not None and table is not None and table.honest:
        members.append(_as_stored(package, strings))  # counted as it was unpacked
    elif strings is not None and table is not None:
        content = told_its_size(package.content(strings, MAX_TABLE), table)
        members.append((_stored(package.infos[strings]), content, None))
    for part in wanted.values():
        if part in kept:
            members.append((_stored(package.infos[part]), b"".join(kept.pop(part)), None))
        else:
            members.append(_as_stored(package, part))  # scanned as it was unpacked
    small = io.BytesIO()
    write_members_to(small, members, lambda info: package.content(info.filename))
    small.seek(0)
    try:
        from python_calamine import CalamineWorkbook

        book = CalamineWorkbook.from_filelike(small)
        return {
            name: SheetValues(
                _rows(book.get_sheet_by_name(name)), scans[name].unsaved, scans[name].errors
            )
            for name in wanted
        }
    except Exception as exc:  # calamine raises its own types for damaged parts
        raise NotAWorkbook(
            "{where} could not be read as a workbook ({reason}).", where=where, reason=exc
        ) from None


def _rows(sheet: CalamineSheet) -> Sequence[Sequence[object]]:
    """The sheet's values from A1 (calamine's `to_python(skip_empty_area=False)`), each
    text and number one object however often the sheet repeats it: a season's Rounds sheet
    names every player hundreds of times, which as copies would cost hundreds of MB."""
    start = sheet.start
    if start is None:  # nothing in it (calamine has no rows to go through)
        return sheet.to_python(skip_empty_area=False)
    pad: list[object] = [""] * start[1]  # `iter_rows` starts at the first used column
    texts: dict[str, str] = {}
    numbers: dict[float, float] = {}  # not 0.0, which would stand for -0.0 too
    text, number = texts.setdefault, numbers.setdefault
    rows: list[Sequence[object]] = []
    for row in sheet.iter_rows():
        values: list[object] = [
            text(v, v) if type(v) is str else number(v, v) if type(v) is float and v else v
            for v in row
        ]
        rows.append(pad + values if pad else values)
    return rows
