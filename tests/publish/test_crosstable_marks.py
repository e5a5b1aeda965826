"""The crosstable in the club's language: the colour letters its players use (Dutch w/z,
German w/s, Italian b/n), bye and absence marks in its words, and a legend that says them,
on the Crosstable sheet and on the crosstable page alike; results typed the German way
(`1:0`) read as any other."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from python_calamine import CalamineWorkbook

from keizer_xl.i18n.names import local_name
from keizer_xl.workbook.template import build_template
from keizer_xl.workbook.xlsx import SheetEdit, save_edits
from tests.conftest import run_cli
from tests.publish.html import parse, tag, text

PLAYERS = [
    {"Name": n, "Rating": r}
    for n, r in (
        ("Anna", 2000),
        ("Bernd", 1900),
        ("Clara", 1800),
        ("Dieter", 1700),
        ("Eva", 1600),
        ("Fritz", 1500),
        ("Greta", 1400),
    )
]
# Every kind of cell: won, drawn, lost, forfeits, a bye and the three absences.
ROUNDS = [
    [1, 1, "Anna", "Bernd", "1-0"],
    [1, 2, "Clara", "Dieter", "½-½"],
    [1, 3, "Eva", "Fritz", "0-1"],
    [1, "", "Greta", "", "bye"],
    [2, 1, "Bernd", "Clara", "+-"],
    [2, 2, "Dieter", "Greta", "0-1"],
    [2, "", "Anna", "", "excused"],
    [2, "", "Eva", "", "club"],
    [2, "", "Fritz", "", "unexcused"],
]
# German clubs write 1:0: the same season typed so gives the same crosstable.
GERMAN_WAY = {"1-0": "1:0", "½-½": "½:½", "0-1": "0:1", "+-": "+:-"}

# (white, black, bye, excused, club duty) as each language's crosstable writes them.
MARKS = {
    "en": ("w", "b", "bye", "exc", "club"),
    "nl": ("w", "z", "vrij", "afgem.", "extern"),
    "de": ("w", "s", "spielfrei", "entsch.", "Mannsch."),
    "it": ("b", "n", "riposo", "giust.", "squadra"),
}
# What the legend says of the colours.
COLOURS = {
    "en": "(w white, b black)",
    "nl": "(w wit, z zwart)",
    "de": "(w Weiß, s Schwarz)",
    "it": "(b bianco, n nero)",
}


def season(path: Path, language: str, german_way: bool = False) -> Path:
    build_template(path, PLAYERS, language=language)
    cells = {
        (r, c): (GERMAN_WAY.get(str(value), value) if german_way else value)
        for r, row in enumerate(ROUNDS, start=2)
        for c, value in enumerate(row, start=1)
        if value != ""
    }
    save_edits(
        path,
        [SheetEdit(local_name("Rounds", language), cells)],  # type: ignore[arg-type]
        backup=False,
    )
    result = run_cli("recalc", path)
    assert result.exit_code == 0, result.output
    return path


def crosstable(path: Path, language: str) -> list[list[object]]:
    return (
        CalamineWorkbook.from_path(str(path))
        .get_sheet_by_name(  # type: ignore[no-any-return]
            local_name("Crosstable", language)
        )
        .to_python()
    )


@pytest.mark.parametrize("language", sorted(MARKS))
def test_the_crosstable_sheet_and_page_write_the_languages_marks(
    tmp_path: Path, language: str
) -> None:
    white, black, bye, excused, club = MARKS[language]
    book = season(tmp_path / "club.xlsx", language)
    grid = crosstable(book, language)
    rows = {str(row[1]): [str(v) for v in row[2:4]] for row in grid[1:8]}
    games = [cell for cells in rows.values() for cell in cells if cell[:1].isdigit()]
    assert games and all(re.fullmatch(rf"\d+[{white}{black}][10½+-]", g) for g in games)
    assert {g[-2] for g in games} == {white, black}
    assert rows["Greta"][0] == bye
    assert (rows["Anna"][1], rows["Eva"][1], rows["Fritz"][1]) == (excused, club, "—")
    legend = next(str(row[0]) for row in grid[8:] if row and row[0])
    assert COLOURS[language] in legend
    assert all(f"{mark} (" in legend for mark in (bye, excused, club))
    if language != "en":  # no English word is left in a Dutch, German or Italian crosstable
        shown = {str(v) for row in grid[1:8] for v in row}
        assert not {"bye", "exc", "club"} & shown
        assert not re.search(r"\bexc\b|\bw white\b", legend)
    if language == "it":
        assert "b Nero" not in legend and "w Bianco" not in legend

    out = tmp_path / "site"
    published = run_cli("publish", book, "--out", out)
    assert published.exit_code == 0, published.output
    page = parse((out / "crosstable.html").read_text(encoding="utf-8"))
    cells = [text(td) for td in page.iter(tag("td")) if "cell" in td.get("class", "")]
    sheet_cells = [str(v) for row in grid[1:8] for v in row[2:4] if v not in ("", None)]
    assert sorted(c for c in cells if c) == sorted(sheet_cells)
    legend_page = next(text(p) for p in page.iter(tag("p")) if "legend" in p.get("class", ""))
    assert COLOURS[language] in legend_page


def test_german_results_typed_with_a_colon_read_as_with_a_dash(tmp_path: Path) -> None:
    (tmp_path / "dash").mkdir()
    (tmp_path / "colon").mkdir()
    dash = season(tmp_path / "dash" / "club.xlsx", "de")
    colon = season(tmp_path / "colon" / "club.xlsx", "de", german_way=True)
    typed = {
        str(row[4])
        for row in CalamineWorkbook.from_path(str(colon))
        .get_sheet_by_name("Runden")
        .to_python()[1:]
    }
    assert {"1:0", "½:½", "0:1", "+:-"} <= typed
    assert crosstable(colon, "de") == crosstable(dash, "de")
    checked = run_cli("check", colon)
    assert checked.exit_code == 0, checked.output
    # `pair` reads them too: round 3 is paired from the standings the colon results give
    for book in (dash, colon):
        save_edits(book, [SheetEdit("Spieler", {(r, 5): "ja" for r in range(2, 9)})], backup=False)
        paired = run_cli("pair", book)
        assert paired.exit_code == 0, paired.output
    rounds = [
        CalamineWorkbook.from_path(str(book)).get_sheet_by_name("Runden").to_python()
        for book in (dash, colon)
    ]
    assert [row for row in rounds[1] if row[0] == 3] == [row for row in rounds[0] if row[0] == 3]
    assert any(row[0] == 3 for row in rounds[1])


@pytest.mark.parametrize("language", sorted(MARKS))
def test_a_team_match_is_marked_with_the_languages_club_duty_mark(language: str) -> None:
    from keizer_xl.core.report import TEAM, RoundLine
    from keizer_xl.i18n import crosstable_marks, translate

    club = MARKS[language][4]
    marks = crosstable_marks(language)
    cells = [RoundLine(1, TEAM, mark=mark).short(None, marks) for mark in ("1", "½", "0")]
    assert cells == [f"{club}1", f"{club}½", f"{club}0"]
    legend = translate(
        "{club}1, {club}½, {club}0: a team match for the club, won, drawn or "
        "lost, counted as a game.",
        language,
    ).format(club=club)
    assert legend.startswith(", ".join(cells) + ":")
