"""Making a fresh competition workbook from the template (`keizer-xl new`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from keizer_xl.workbook.layout import Grid, Layout
    from keizer_xl.workbook.xlsx import CellValue, SheetEdit


def create(
    path: Path,
    players: Sequence[Mapping[str, object]] = (),
    fill: Callable[[Path], None] | None = None,
    language: str = "en",
    lite: bool = False,
) -> None:
    """Write a new workbook: .xlsx plain, .xlsm with the VBA module and the buttons, or with
    `lite` an .xlsx with the buttons of xlwings Lite.

    Built beside the target and moved into place, so a failure leaves nothing half-made.
    `fill`, if given, writes more into the new workbook (rounds, own columns, standings)
    before it is moved into place. `language`: the workbook's, one of `i18n.LANGUAGES`.
    """
    from keizer_xl.workbook.template import CODE_NAMES, build_template
    from keizer_xl.workbook.xlsx import write_atomically

    vba = None
    if path.suffix.lower() == ".xlsm":
        from keizer_xl.workbook.vba import vba_project

        # one document module per sheet, as Excel keeps; the messages in the workbook's language
        vba = vba_project(sheets=CODE_NAMES, language=language)

    def build(temp: Path) -> None:
        build_template(temp, players, vba_project=vba, language=language, lite=lite)
        if fill is not None:
            fill(temp)

    # `fill` reads it as a workbook; a failure is said of `path`, never of its temporary
    write_atomically(path, build, keep_suffix=True)


OwnColumn = tuple[object, Sequence["CellValue"]]  # a header and its values


def add_own_columns(path: Path, own: Sequence[OwnColumn]) -> None:
    """The club's own Players columns (header, then one value per player from row 2), in
    their order after keizer_xl's: a member list's phone numbers, last season's columns."""
    from keizer_xl.workbook.files import read_grids
    from keizer_xl.workbook.layout import read_book
    from keizer_xl.workbook.xlsx import save_edits

    grids = read_grids(path)
    _, layout = read_book(grids)
    save_edits(path, [own_columns_edit(grids, layout, own)], backup=False)


def own_columns_edit(
    grids: Mapping[str, Grid], layout: Layout, own: Sequence[OwnColumn]
) -> SheetEdit:
    """The Players sheet's edit that writes the own columns after the last header."""
    from keizer_xl.workbook.xlsx import SheetEdit

    sheet = layout.sheet["Players"]
    first = len(grids[sheet][0]) + 1
    cells: dict[tuple[int, int], CellValue] = {}
    for c, (title, values) in enumerate(own, start=first):
        cells[(1, c)] = str(title)
        cells.update({(r, c): v for r, v in enumerate(values, start=2) if v is not None})
    return SheetEdit(sheet, cells)
