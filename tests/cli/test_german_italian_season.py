"""A German and an Italian club's season from their own files to the notice board, through
the command: the member list as the club's administration exports it (`new --players`),
attendance and results typed in the club's words (`pair`, `recalc`), the German DWZ list
(`ratings`), and `publish` (pages and chat text), every message and number in the club's
language: its words, its decimal comma. (The same through the buttons:
tests/live/test_live_languages.py.)"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from python_calamine import CalamineWorkbook

from keizer_xl.i18n.names import TRANSLATIONS, present_mark
from keizer_xl.workbook.xlsx import SheetEdit, save_edits
from tests.conftest import run_cli

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"

# The club's own files, its words for results, and what the command says in its language.
CLUBS = {
    "de": {
        "members": FIXTURES / "de" / "mitglieder.csv",
        "ratings": FIXTURES / "de" / "spieler.csv",
        "results": ("1:0", "remis", "0:1"),
        "read": "Name als Nachname",
        "rated": "Wertungszahlen in club.xlsx geschrieben",
        "standings": "Tabelle nach Runde 2",
    },
    "it": {
        "members": FIXTURES / "it" / "soci.csv",
        "ratings": None,  # no list of the Italian federation is read (docs/files.md)
        "results": ("1-0", "patta", "0-1"),
        "read": "Elo Italia",
        "rated": None,
        "standings": "Classifica dopo il turno 2",
    },
}


def sheet(path: Path, name: str) -> list[list[object]]:
    book = CalamineWorkbook.from_path(str(path))
    return book.get_sheet_by_name(name).to_python()  # type: ignore[no-any-return]


def mark_everyone_present(path: Path, language: str) -> None:
    players = TRANSLATIONS[language]["Players"]
    grid = sheet(path, players)
    column = grid[0].index(TRANSLATIONS[language]["Present"]) + 1
    here = present_mark(language)
    cells = {(r, column): here for r, row in enumerate(grid[1:], start=2) if row[0]}
    save_edits(path, [SheetEdit(players, cells)], backup=False)  # type: ignore[arg-type]


def type_results(path: Path, language: str, round_no: int) -> None:
    rounds = TRANSLATIONS[language]["Rounds"]
    typed = CLUBS[language]["results"]
    cells = {
        (r, 5): typed[(r + round_no) % 3]  # type: ignore[index]
        for r, row in enumerate(sheet(path, rounds)[1:], start=2)
        if row[0] == round_no and row[3]
    }
    assert cells, f"round {round_no} has games"
    save_edits(path, [SheetEdit(rounds, cells)], backup=False)  # type: ignore[arg-type]


@pytest.mark.parametrize("language", sorted(CLUBS))
def test_a_season_from_the_clubs_own_files_to_the_notice_board(
    language: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # the messages name the files as typed
    club, book = CLUBS[language], Path("club.xlsx")
    made = run_cli("--lang", language, "new", book, "--players", club["members"])
    assert made.exit_code == 0, made.output
    assert str(club["read"]) in made.output.splitlines()[0]  # how the list was taken
    names = [row[0] for row in sheet(book, TRANSLATIONS[language]["Players"])[1:] if row[0]]
    assert len(names) == len(set(names)) > 4  # first name and surname, not bare surnames

    if club["ratings"] is not None:  # the federation's newest list, before round 1
        rated = run_cli("ratings", book, club["ratings"])
        assert rated.exit_code == 0, rated.output
        assert str(club["rated"]) in rated.output
    for round_no in (1, 2):
        mark_everyone_present(book, language)
        paired = run_cli("pair", book)
        assert paired.exit_code == 0, paired.output
        type_results(book, language, round_no)
    recalculated = run_cli("recalc", book)
    assert recalculated.exit_code == 0, recalculated.output

    scores = [row[2] for row in sheet(book, TRANSLATIONS[language]["Standings"])[1:] if row[1]]
    halves = [s for s in scores if isinstance(s, float) and s != int(s)]
    assert halves, scores  # draws give fractions, shown below with a comma

    text = run_cli("publish", book, "--text")
    assert text.exit_code == 0, text.output
    assert str(club["standings"]) in text.output
    numbers = re.findall(r"\b\d+[.,]\d+\b", text.output)
    assert numbers and all("," in n for n in numbers), numbers  # a decimal comma, no point

    site = run_cli("publish", book)
    assert site.exit_code == 0, site.output
    index = Path("club_site", "index.html").read_text(encoding="utf-8")
    assert f'<html lang="{language}">' in index
    cells = re.findall(r">\s*(\d+[.,]\d+)\s*<", index)
    assert cells and all("," in c for c in cells), cells
