"""Groups in the standings and a minimum number of games after the season's last round."""

from __future__ import annotations

from pathlib import Path

import pytest
from python_calamine import CalamineWorkbook

from keizer_xl.core.settings import SETTINGS
from keizer_xl.i18n.names import SETTING_TRANSLATIONS, local_name
from keizer_xl.workbook.files import load
from keizer_xl.workbook.template import build_template
from keizer_xl.workbook.xlsx import CellValue, SheetEdit, save_edits
from tests.conftest import run_cli
from tests.seasons import make_book

PLAYERS = [
    {"Name": n, "Rating": r}
    for n, r in (
        ("Anna", 2000),
        ("Bram", 1900),
        ("Carla", 1800),
        ("Daan", 1700),
        ("Eva", 1600),
        ("Fleur", 1500),
    )
]
# Carla plays one game of three, Fleur none: both short of Minimum games 2.
ROUNDS = [
    [1, 1, "Anna", "Bram", "1-0"],
    [1, 2, "Carla", "Daan", "1-0"],
    [1, "", "Eva", "", "bye"],
    [1, "", "Fleur", "", "excused"],
    [2, 1, "Anna", "Daan", "½-½"],
    [2, 2, "Bram", "Eva", "0-1"],
    [2, "", "Carla", "", "club"],
    [2, "", "Fleur", "", "excused"],
    [3, 1, "Eva", "Anna", "1-0"],
    [3, 2, "Daan", "Bram", "0-1"],
    [3, "", "Carla", "", "excused"],
    [3, "", "Fleur", "", "club"],
]
GROUPS = ["A", "A", "B", "B", "Jeugd", ""]


def book(tmp_path: Path, rounds: list[list[object]], **settings: object) -> Path:
    path = make_book(
        tmp_path / "club.xlsx",
        PLAYERS,
        rounds,
        {"Top value": 10, **{k.replace("_", " ").capitalize(): v for k, v in settings.items()}},
    )
    cells: dict[tuple[int, int], CellValue] = {(1, 6): "Group"}
    cells.update({(r, 6): g for r, g in enumerate(GROUPS, start=2) if g})
    save_edits(path, [SheetEdit("Players", cells)], backup=False)
    return path


def standings_sheet(path: Path) -> list[list[object]]:
    return (
        CalamineWorkbook.from_path(str(path))
        .get_sheet_by_name(  # type: ignore[no-any-return]
            "Standings"
        )
        .to_python()
    )


def test_after_the_last_round_short_players_come_last(tmp_path: Path) -> None:
    path = book(tmp_path, ROUNDS, minimum_games=2, rounds_in_season=3)
    competition, _ = load(path)
    ranking = competition.standings().ranking
    played = {row.name: row.played for row in competition.standings().rows}
    assert (played["Carla"], played["Fleur"]) == (1, 0)
    expected = [n for n in ranking if played[n] >= 2] + [n for n in ranking if played[n] < 2]
    assert expected != list(ranking)  # the rule moves somebody here
    result = run_cli("recalc", path)
    assert result.exit_code == 0, result.output
    grid = standings_sheet(path)
    header = grid[0]
    assert header[:18] == [
        "Rank",
        "Name",
        "Score",
        "Value",
        "Played",
        "Won",
        "Drawn",
        "Lost",
        "Byes",
        "Absent",
        "Rating",
        "Own",
        "Group",
        "Game points",
        "Percentage",
        "Colour balance",
        "Change",
        "R1",
    ]
    rows = grid[1:7]
    assert [row[1] for row in rows] == expected
    assert [row[0] for row in rows] == [1, 2, 3, 4, "5*", "6*"]
    groups = dict(zip([p["Name"] for p in PLAYERS], GROUPS, strict=True))
    assert [row[12] for row in rows] == [groups[n] for n in expected]
    notes = [row[0] for row in grid[7:] if row and row[0]]
    assert "Minimum games 2" in notes[0]  # among the changed rules
    assert notes[1] == (
        "* Minimum games 2: after the season's 3 rounds, players who played "
        "fewer games are listed after the others."
    )
    shown = run_cli("standings", path)
    assert "│ 5* │ " in shown.output and "┃ Group ┃" in shown.output
    assert "Note: * Minimum games 2: after the season's 3 rounds" in shown.output
    only = run_cli("standings", path, "--group", "b")
    assert only.exit_code == 0, only.output
    table_names = [
        line.split("│")[2].strip() for line in only.output.splitlines() if line.startswith("│")
    ]
    assert table_names == [n for n in expected if groups[n] == "B"]
    missing = run_cli("standings", path, "--group", "C")
    assert missing.exit_code == 1
    assert "no player is in group 'C' (the Players column Group has A, B, Jeugd)" in missing.output


def test_below_minimum_drop_leaves_short_players_out(tmp_path: Path) -> None:
    """LSV 1873's rule: after the last round a player below the minimum is not listed."""
    path = book(tmp_path, ROUNDS, minimum_games=2, rounds_in_season=3, below_minimum="drop")
    competition, _ = load(path)
    standings = competition.standings()
    played = {row.name: row.played for row in standings.rows}
    kept = [n for n in standings.ranking if played[n] >= 2]
    assert len(kept) == 4  # Carla and Fleur are short
    result = run_cli("recalc", path)
    assert result.exit_code == 0, result.output
    grid = standings_sheet(path)
    rows = grid[1:5]
    assert [row[1] for row in rows] == kept
    assert [row[0] for row in rows] == [1, 2, 3, 4]
    listed = {row[1] for row in grid[1:] if row and len(row) > 1}
    assert not {"Carla", "Fleur"} & listed
    notes = [row[0] for row in grid[5:] if row and row[0]]
    assert "* Minimum games" not in " ".join(str(n) for n in notes)
    assert notes[-1] == (
        "Minimum games 2: after the season's 3 rounds, players who played "
        "fewer games are not listed."
    )
    shown = run_cli("standings", path)
    assert shown.exit_code == 0, shown.output
    assert "Carla" not in shown.output and "Fleur" not in shown.output
    assert "are not listed" in shown.output


@pytest.mark.parametrize(
    ("language", "words"), [("de", "nicht aufgeführt"), ("it", "non sono elencati")]
)
def test_below_minimum_in_german_and_italian(tmp_path: Path, language: str, words: str) -> None:
    """The settings typed under their names in the workbook's language, the note in it."""
    path = tmp_path / "club.xlsx"
    build_template(path, PLAYERS, language=language)
    names = list(SETTINGS)
    local = SETTING_TRANSLATIONS[language]
    rounds = {
        (r, c): value
        for r, row in enumerate(ROUNDS, start=2)
        for c, value in enumerate(row, start=1)
        if value != ""
    }
    chosen = {"Top value": 10, "Minimum games": 2, "Rounds in season": 3, "Below minimum": "drop"}
    save_edits(
        path,
        [
            SheetEdit(local_name("Rounds", language), rounds),  # type: ignore[arg-type]
            SheetEdit(
                local_name("Settings", language),
                {(names.index(k) + 2, 2): v for k, v in chosen.items()},
            ),
        ],
        backup=False,
    )
    grid = (
        CalamineWorkbook.from_path(str(path))
        .get_sheet_by_name(local_name("Settings", language))
        .to_python()
    )
    assert grid[names.index("Below minimum") + 1][0] == local["Below minimum"]
    result = run_cli("recalc", path)
    assert result.exit_code == 0, result.output
    shown = run_cli("standings", path)
    assert shown.exit_code == 0, shown.output
    assert "Carla" not in shown.output and "Fleur" not in shown.output
    assert words in shown.output, shown.output


def test_before_the_last_round_nothing_moves(tmp_path: Path) -> None:
    path = book(tmp_path, ROUNDS, minimum_games=2, rounds_in_season=4)
    competition, _ = load(path)
    assert run_cli("recalc", path).exit_code == 0
    rows = standings_sheet(path)[1:7]
    assert [row[1] for row in rows] == list(competition.standings().ranking)
    assert [row[0] for row in rows] == [1, 2, 3, 4, 5, 6]


def test_unknown_season_length_never_applies(tmp_path: Path) -> None:
    path = book(tmp_path, ROUNDS, minimum_games=2)
    competition, _ = load(path)
    assert run_cli("recalc", path).exit_code == 0
    assert [row[1] for row in standings_sheet(path)[1:7]] == list(competition.standings().ranking)


def test_a_group_longer_than_a_name_may_be_is_refused_with_its_cell(tmp_path: Path) -> None:
    """A Group is written beside each of its players, as a name is: at most MAX_NAME
    characters, the cell of a longer one named."""
    from keizer_xl.core.words import MAX_NAME

    path = book(tmp_path, ROUNDS)
    save_edits(
        path,
        [SheetEdit("Players", {(3, 6): "G" * MAX_NAME, (5, 6): "H" * (MAX_NAME + 1)})],
        backup=False,
    )
    result = run_cli("check", path)
    assert result.exit_code == 1, result.output
    assert (
        f"Players!F5: a group of {MAX_NAME + 1} characters; at most {MAX_NAME}" in result.output
    ), result.output
    assert "Players!F3" not in result.output
