"""A season typed into a workbook in either language, as a club secretary has it: made by
`keizer-xl new` (the template in that language), its rounds on the Rounds sheet, then
`keizer-xl recalc`."""

from __future__ import annotations

import subprocess
from pathlib import Path

from keizer_xl.core.model import Game
from keizer_xl.core.season import Season
from keizer_xl.i18n.names import local_name, rest_word
from keizer_xl.workbook.newbook import create
from keizer_xl.workbook.xlsx import CellValue, SheetEdit, save_edits
from tests.conftest import run_cli


def season_workbook(path: Path, season: Season, language: str) -> Path:
    """The season's players and rounds in a new workbook in `language`, recalculated."""
    create(
        path,
        [
            {
                "Name": p.name,
                "Rating": p.rating or None,
                "Joined": p.joined if p.joined > 1 else None,
                "Left": p.left,
            }
            for p in season.players
        ],
        language=language,
    )
    cells: dict[tuple[int, int], CellValue] = {}
    for r, e in enumerate(season.entries, start=2):
        row: list[CellValue] = (
            [e.round, e.board, e.white, e.black, e.result.value if e.result else None]
            if isinstance(e, Game)
            else [e.round, None, e.player, None, rest_word(e.reason, language)]
        )
        cells.update({(r, c): v for c, v in enumerate(row, start=1) if v not in (None, "")})
    save_edits(path, [SheetEdit(local_name("Rounds", language), cells)], backup=False)
    done = run_cli("recalc", path)
    assert done.exit_code == 0, done.output
    return path


def pdf_words(path: Path) -> str:
    """The PDF's text as poppler reads it, laid out as on the page."""
    return subprocess.run(
        ["pdftotext", "-layout", str(path), "-"], check=True, capture_output=True, text=True
    ).stdout
