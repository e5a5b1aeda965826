"""The buttons on a Dutch workbook: the xlwings objects the buttons use read Spelers, Ronden
and Instellingen and write Stand and Ronden as the English workbook gets them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import keizer_xl
from keizer_xl.workbook import files as workbook
from keizer_xl.workbook.template import build_template
from keizer_xl.workbook.xlsx import SheetEdit, save_edits
from tests.live.test_live import Excel, _trimmed, press, xw

__all__ = ["xw"]  # the fixture, for pytest

def field(language: str) -> list[dict[str, object]]:
    """Eleven players: most present, a few excused or playing for the club."""
    here, excused, club = {"en": ("x", "excused", "club"),
                           "nl": ("ja", "afgemeld", "extern")}[language]
    return [{"Name": f"Speler {i:02d}", "Rating": 2100 - 15 * i,
             "Present": excused if i % 5 == 0 else club if i % 7 == 0 else here}
            for i in range(1, 12)]


def test_a_dutch_season_through_the_buttons(xw: Any, tmp_path: Path) -> None:
    dutch, english = tmp_path / "nl.xlsx", tmp_path / "en.xlsx"
    build_template(dutch, field("nl"), language="nl")
    build_template(english, field("en"))
    excel = Excel.from_file(dutch)
    for step in range(3):
        press(xw, excel, keizer_xl.pair_next_round)
        assert all(alert[-2] == "info" for alert in excel.alerts)
        workbook.pair(english)
        file = Excel.from_file(english)
        for r, row in enumerate(excel.sheets["Ronden"][1:], start=2):
            if len(row) > 3 and row[3] is not None and (len(row) < 5 or row[4] is None):
                result = ("1-0", "0-1", "½-½")[(r + step) % 3]
                excel.set("Ronden", r, 5, result)
                save_edits(english, [SheetEdit("Rounds", {(r, 5): result})], backup=False)
        assert [row[:4] for row in excel.sheets["Ronden"]][1:] == [
            row[:4] for row in file.sheets["Rounds"]][1:]
    press(xw, excel, keizer_xl.recalculate)
    assert all(alert[-2] == "info" for alert in excel.alerts)  # warnings at most
    workbook.recalc(english)
    file = Excel.from_file(english)
    stand, standings = _trimmed(excel.sheets["Stand"]), _trimmed(file.sheets["Standings"])
    assert stand[0][:4] == ["Plaats", "Naam", "Score", "Waarde"]
    assert stand[1:12] == standings[1:12]
    rests = {row[4] for row in excel.sheets["Ronden"][1:] if row[3] is None}
    assert {"afgemeld", "extern"} <= rests
