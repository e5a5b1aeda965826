"""The buttons on a Dutch, a German and an Italian workbook: they read Spelers/Spieler/
Giocatori, Ronden/Runden/Turni and Instellingen/Einstellungen/Impostazioni, write the
Stand/Tabelle/Classifica and the round in the club's words as the English workbook gets
them, and say their messages in the workbook's language."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import keizer_xl
from keizer_xl.core.model import Absence
from keizer_xl.i18n.names import REST_WORDS, TRANSLATIONS, present_mark
from keizer_xl.workbook import files as workbook
from keizer_xl.workbook.template import build_template
from keizer_xl.workbook.xlsx import SheetEdit, save_edits
from tests.live.test_live import Excel, _trimmed, press, xw

__all__ = ["xw"]  # the fixture, for pytest

# The club's words for a game's results, and what its message boxes say.
CLUBS = {
    "nl": {
        "results": ("1-0", "0-1", "½-½"),
        "title": "Keizercompetitie: Volgende ronde indelen",
        "problem": "Ronden!E2: 'l-0' is geen uitslag",
        "again": "Klik dan opnieuw op 'Volgende ronde indelen'.",
        "published": "Stand na ronde 3",
    },
    "de": {
        "results": ("1:0", "0:1", "remis"),
        "title": "Keizer-Turnier: Nächste Runde auslosen",
        "problem": "Runden!E2: 'l-0' ist kein Ergebnis",
        "again": "Klicken Sie dann erneut auf 'Nächste Runde auslosen'.",
        "published": "Tabelle nach Runde 3",
    },
    "it": {
        "results": ("1-0", "0-1", "patta"),
        "title": "Torneo Keizer: Abbina il prossimo turno",
        "problem": "Turni!E2: 'l-0' non è un risultato",
        "again": "Poi fai di nuovo clic su 'Abbina il prossimo turno'.",
        "published": "Classifica dopo il turno 3",
    },
}
ENGLISH_RESULTS = ("1-0", "0-1", "½-½")


def field(language: str) -> list[dict[str, object]]:
    """Eleven players: most present, a few excused or playing for the club."""
    words = REST_WORDS.get(language, {})
    here = present_mark(language)
    excused = words.get(Absence.EXCUSED, "excused")
    club = words.get(Absence.CLUB, "club")
    return [
        {
            "Name": f"Speler {i:02d}",
            "Rating": 2100 - 15 * i,
            "Present": excused if i % 5 == 0 else club if i % 7 == 0 else here,
        }
        for i in range(1, 12)
    ]


@pytest.mark.parametrize("language", sorted(CLUBS))
def test_a_season_through_the_buttons(xw: Any, tmp_path: Path, language: str) -> None:
    local, says = TRANSLATIONS[language], CLUBS[language]
    rounds, standings_sheet = local["Rounds"], local["Standings"]
    ours, english = tmp_path / f"{language}.xlsx", tmp_path / "en.xlsx"
    build_template(ours, field(language), language=language)
    build_template(english, field("en"))
    excel = Excel.from_file(ours)
    for step in range(3):
        press(xw, excel, keizer_xl.pair_next_round)
        assert all(alert[-2] == "info" for alert in excel.alerts)
        workbook.pair(english)
        file = Excel.from_file(english)
        for r, row in enumerate(excel.sheets[rounds][1:], start=2):
            if len(row) > 3 and row[3] is not None and (len(row) < 5 or row[4] is None):
                typed = (r + step) % 3
                excel.set(rounds, r, 5, says["results"][typed])
                save_edits(
                    english, [SheetEdit("Rounds", {(r, 5): ENGLISH_RESULTS[typed]})], backup=False
                )
        assert [row[:4] for row in excel.sheets[rounds]][1:] == [
            row[:4] for row in file.sheets["Rounds"]
        ][1:]
    press(xw, excel, keizer_xl.recalculate)
    assert all(alert[-2] == "info" for alert in excel.alerts)  # warnings at most
    workbook.recalc(english)
    file = Excel.from_file(english)
    table, standings = _trimmed(excel.sheets[standings_sheet]), _trimmed(file.sheets["Standings"])
    assert table[0][:4] == [local[h] for h in ("Rank", "Name", "Score", "Value")]
    assert table[1:12] == standings[1:12]
    rests = {row[4] for row in excel.sheets[rounds][1:] if row[3] is None}
    words = REST_WORDS[language]
    assert {words[Absence.EXCUSED], words[Absence.CLUB]} <= rests

    excel.alerts.clear()
    excel.name = str(tmp_path / f"{language}.xlsm")
    press(xw, excel, keizer_xl.publish_site)
    index = (tmp_path / f"{language}_site" / "index.html").read_text(encoding="utf-8")
    assert f'<html lang="{language}">' in index and says["published"] in index


@pytest.mark.parametrize("language", sorted(CLUBS))
def test_a_problem_is_said_in_the_workbooks_language(
    xw: Any, tmp_path: Path, language: str
) -> None:
    local, says = TRANSLATIONS[language], CLUBS[language]
    path = tmp_path / "club.xlsx"
    build_template(path, field(language)[:6], language=language)
    excel = Excel.from_file(path)
    press(xw, excel, keizer_xl.pair_next_round)
    excel.alerts.clear()
    excel.set(local["Rounds"], 2, 5, "l-0")
    press(xw, excel, keizer_xl.pair_next_round)
    ((text, title, _, mode, _),) = excel.alerts
    assert (title, mode) == (says["title"], "critical")
    assert says["problem"] in text and text.endswith(says["again"])
    assert "Traceback" not in text
