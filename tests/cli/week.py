"""Helpers for the secretary's week: workbooks as other programs write them (openpyxl, as
Excel-like writers do, and XlsxWriter through `keizer-xl new`), re-saved by LibreOffice
headless, and read back as a viewer sees them."""

from __future__ import annotations

import shutil
from collections.abc import Mapping, Sequence
from pathlib import Path

from python_calamine import CalamineWorkbook

from tests.helpers_package import libreoffice_convert
from tests.seasons import ROUND_HEADERS

PLAYER_HEADERS = ("Name", "Rating", "Joined", "Left", "Present")


def openpyxl_book(
    path: Path,
    players: Sequence[Mapping[str, object]],
    rounds: Sequence[Sequence[object]] = (),
    settings: Mapping[str, object] | None = None,
    player_headers: Sequence[str] = PLAYER_HEADERS,
) -> Path:
    """A club workbook typed from scratch in another program: the four sheets, headers in
    row 1, no template (openpyxl writes the package the way Excel-like writers do)."""
    from openpyxl import Workbook

    book = Workbook()
    first = book.active
    assert first is not None
    first.title = "Players"
    first.append(list(player_headers))
    for player in players:
        first.append([player.get(h) for h in player_headers])
    sheet = book.create_sheet("Rounds")
    sheet.append(list(ROUND_HEADERS))
    for row in rounds:
        sheet.append(list(row))
    book.create_sheet("Standings")
    sheet = book.create_sheet("Settings")
    sheet.append(["Setting", "Value"])
    for name, value in (settings or {}).items():
        sheet.append([name, value])
    book.save(path)
    return path


def libreoffice_resave(path: Path, profile: Path) -> Path:
    """Open and save the workbook in LibreOffice (headless), as a secretary on Linux or a
    Mac without Excel does; the re-saved file replaces the original."""
    out = path.parent / f"lo-{path.stem}"
    out.mkdir(exist_ok=True)
    macro = path.suffix.lower() == ".xlsm"
    filter_name = "xlsm:Calc MS Excel 2007 VBA XML" if macro else "xlsx:Calc MS Excel 2007 XML"
    done = libreoffice_convert(path, filter_name, out, profile)
    saved = out / f"{path.stem}{'.xlsm' if macro else '.xlsx'}"
    assert done.returncode == 0 and saved.exists(), done.stdout + done.stderr
    shutil.move(saved, path)
    return path


def sheet(path: Path, name: str) -> list[list[object]]:
    rows: list[list[object]] = (
        CalamineWorkbook.from_path(str(path))
        .get_sheet_by_name(name)
        .to_python(skip_empty_area=False)
    )
    return rows


def standings(path: Path) -> list[tuple[str, object]]:
    """(name, score) of each ranked row of the Standings sheet."""
    rows = sheet(path, "Standings")
    return [(str(r[1]), r[2]) for r in rows[1:] if r and isinstance(r[0], float)]
