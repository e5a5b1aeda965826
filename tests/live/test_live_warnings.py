"""The buttons tell their warnings in the message after the work, and never write them on
the Standings sheet, which is printed for the notice board; in English and Dutch."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import keizer_xl
from keizer_xl.i18n.names import TRANSLATIONS, local_setting
from keizer_xl.workbook.template import build_template
from tests.live.test_live import Excel, press, xw

__all__ = ["xw"]  # the fixture, for pytest

WARNED = {
    "en": ("Warning: Settings!B", "Bye 2/3 is the default anyway"),
    "nl": ("Waarschuwing: Instellingen!B", "Vrije ronde 2/3 is toch al de standaard"),
}


@pytest.mark.parametrize("language", sorted(WARNED))
def test_a_warning_is_in_the_message_and_not_on_the_standings(
    xw: Any, tmp_path: Path, language: str
) -> None:
    local = TRANSLATIONS.get(language, {})
    path = tmp_path / "club.xlsx"
    build_template(
        path,
        [{"Name": f"Player {i}", "Rating": 2000 - 10 * i, "Present": "x"} for i in range(1, 7)],
        language=language,
    )
    excel = Excel.from_file(path)
    settings = local.get("Settings", "Settings")
    bye = local_setting("Bye", language)
    row = next(
        r for r, cells in enumerate(excel.sheets[settings], start=1) if cells and cells[0] == bye
    )
    excel.set(settings, row, 2, "2/3")  # the default, typed: allowed, probably not meant
    press(xw, excel, keizer_xl.recalculate)
    ((text, _, _, mode, _),) = excel.alerts
    start, words = WARNED[language]
    assert mode == "info" and start in text and words in text, text
    standings = excel.sheets[local.get("Standings", "Standings")]
    shown = " ".join(str(cell) for cells in standings for cell in cells if cell is not None)
    assert "Player 6" in shown and ("Rules" in shown or "Regels" in shown)  # it was written
    assert words not in shown and start.split(":")[0] not in shown
