"""Rename a player: every row of Players and Rounds, nothing else."""

from __future__ import annotations

from pathlib import Path

import pytest

from keizer_xl.workbook.files import read_grids
from tests.cli.week import libreoffice_resave, openpyxl_book, sheet
from tests.conftest import run_cli

pytestmark = [pytest.mark.libreoffice, pytest.mark.usefixtures("soffice_installed")]

PLAYERS = [
    {"Name": n, "Rating": r, "Present": "x"}
    for n, r in [("Anna", 2000), ("Bram", 1900), ("Cor", 1800)]
]
ROUNDS = [
    [1, 1, "Anna", "Bram", "1-0"],
    [1, None, "Cor", None, "bye"],
    [2, 1, "Cor", "ANNA", "0-1"],
    [2, None, "Bram", None, "bye"],
    [3, None, " anna ", None, "excused"],
    [3, 1, "Bram", "Cor", "½-½"],
]


def test_rename_changes_every_row_of_players_and_rounds_and_nothing_else(
    tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    path = openpyxl_book(tmp_path / "club.xlsx", PLAYERS, ROUNDS)
    libreoffice_resave(path, tmp_path_factory.mktemp("lo-profile"))
    assert run_cli("recalc", path).exit_code == 0
    before = read_grids(path)
    standings = sheet(path, "Standings")
    done = run_cli("rename", path, "anna", "Anna de Vries")
    assert done.exit_code == 0, done.output
    assert done.output.startswith(
        f"Anna is now Anna de Vries in {path}: the Players sheet and 3 cells of the Rounds sheet."
    )
    after = read_grids(path)
    changed = {
        (name, r, c)
        for name in ("Players", "Rounds", "Settings")
        for r, row in enumerate(after[name])
        for c, value in enumerate(row)
        if value != before[name][r][c]
    }
    assert changed == {("Players", 1, 0), ("Rounds", 1, 2), ("Rounds", 3, 3), ("Rounds", 5, 2)}
    assert {after[s][r][c] for s, r, c in changed} == {"Anna de Vries"}
    assert sheet(path, "Standings") == standings  # nothing else
    assert run_cli("recalc", path).exit_code == 0
    assert "Anna de Vries" in [row[1] for row in sheet(path, "Standings")]


def test_rename_refuses_a_name_already_taken(tmp_path: Path) -> None:
    path = openpyxl_book(tmp_path / "club.xlsx", PLAYERS, ROUNDS)
    unchanged = path.read_bytes()
    done = run_cli("rename", path, "Anna", " bram ")
    assert done.exit_code == 1
    assert "Players!A2: 'bram' is already the name of the player in row 3" in done.output
    assert run_cli("rename", path, "Zoë", "Zoe").exit_code == 1
    assert path.read_bytes() == unchanged
