"""Reading a sheet's cells back with calamine and openpyxl, the two readers the writer's
output must satisfy."""

from __future__ import annotations

from pathlib import Path

import pytest
from openpyxl import load_workbook
from python_calamine import CalamineWorkbook


def calamine_grid(path: Path, sheet: str) -> dict[tuple[int, int], object]:
    rows = CalamineWorkbook.from_path(str(path)).get_sheet_by_name(sheet).to_python()
    return {
        (r, c): float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else v
        for r, row in enumerate(rows, start=1)
        for c, v in enumerate(row, start=1)
        if v not in ("", None)
    }


def openpyxl_grid(path: Path, sheet: str) -> dict[tuple[int, int], object]:
    book = load_workbook(path, read_only=True, data_only=True)
    try:
        return {
            (cell.row, cell.column): float(cell.value)
            if isinstance(cell.value, (int, float))
            else cell.value
            for row in book[sheet].iter_rows()
            for cell in row
            if getattr(cell, "value", None) not in (None, "")
        }
    finally:
        book.close()


def approx_grid(grid: dict[tuple[int, int], object]) -> dict[tuple[int, int], object]:
    return {k: pytest.approx(v, rel=1e-12) if isinstance(v, float) else v for k, v in grid.items()}
