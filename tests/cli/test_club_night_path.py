"""Club night: Clear present after pairing, and a random first round, through the
workbook and the command."""

from __future__ import annotations

import hashlib
import random
from pathlib import Path

from python_calamine import CalamineWorkbook

from tests.conftest import run_cli
from tests.seasons import make_book

NAMES = ("Anna", "Bram", "Carla", "Daan", "Eva", "Fleur", "Gijs")
PLAYERS = [{"Name": n, "Rating": 2000 - 100 * i, "Present": "x"}
           for i, n in enumerate(NAMES)]


def sheet(path: Path, name: str) -> list[list[object]]:
    return CalamineWorkbook.from_path(str(path)).get_sheet_by_name(  # type: ignore[no-any-return]
        name).to_python()


def present_column(path: Path) -> list[object]:
    grid = sheet(path, "Players")
    column = grid[0].index("Present")
    return [row[column] if column < len(row) else "" for row in grid[1:len(NAMES) + 1]]


def round_rows(path: Path, round_no: int) -> list[list[object]]:
    return [row[:5] for row in sheet(path, "Rounds")[1:] if row and row[0] == round_no]


def test_clear_present_empties_the_column_after_pairing(tmp_path: Path) -> None:
    players = [dict(p) for p in PLAYERS]
    players[6]["Present"] = "club"  # a reason is emptied too
    path = make_book(tmp_path / "club.xlsx", players, (), {"Clear present": "yes"})
    result = run_cli("pair", path)
    assert result.exit_code == 0, result.output
    assert present_column(path) == [""] * len(NAMES)
    assert "Clear present yes: the Present column is emptied for the next round." in \
        result.output
    rows = round_rows(path, 1)
    assert len(rows) == 4 and rows[3][2:] == ["Gijs", "", "club"]  # paired from the ticks


def test_without_clear_present_the_ticks_stay(tmp_path: Path) -> None:
    path = make_book(tmp_path / "club.xlsx", PLAYERS, (), {})
    result = run_cli("pair", path)
    assert result.exit_code == 0, result.output
    assert present_column(path) == ["x"] * len(NAMES)
    assert "Present column is emptied" not in result.output


def test_clear_present_in_dutch(tmp_path: Path) -> None:
    from keizer_xl.i18n import translate

    template = "{setting} yes: the {present} column is emptied for the next round."
    assert translate(template, "nl") != template  # the catalog has it


def drawn(seed: int) -> list[str]:
    """The draw as the rules page says anyone can redo it: the present players in ranking
    order, shuffled by Python's random.Random(seed)."""
    order = list(NAMES)
    random.Random(seed).shuffle(order)
    return order


def test_random_first_round_is_drawn_from_the_competition_name(tmp_path: Path) -> None:
    name = "Keizer 2026-27"
    seed = int(hashlib.sha256(name.encode("utf-8")).hexdigest()[:8], 16)
    order = drawn(seed)
    settings = {"First round": "random", "Competition name": name}
    path = make_book(tmp_path / "club.xlsx", PLAYERS, (), settings)
    result = run_cli("pair", path)
    assert result.exit_code == 0, result.output
    assert f"seed {seed}, from the Competition name '{name}'" in result.output
    games = [row for row in round_rows(path, 1) if row[3]]
    pairs = [{white, black} for _, _, white, black, _ in games]
    assert pairs == [set(order[i:i + 2]) for i in (0, 2, 4)]
    assert round_rows(path, 1)[3][2:4] == [order[6], ""]  # the last drawn has the bye
    assert [{str(row[2]), str(row[3])} for row in games] != [
        {"Anna", "Bram"}, {"Carla", "Daan"}, {"Eva", "Fleur"}]  # not top-down here
    again = make_book(tmp_path / "again.xlsx", PLAYERS, (), settings)
    assert run_cli("pair", again).exit_code == 0
    assert round_rows(again, 1) == round_rows(path, 1)  # the same workbook, the same draw
    other = make_book(tmp_path / "other.xlsx", PLAYERS, (),
                      {**settings, "Competition name": "Keizer 2027-28"})
    assert run_cli("pair", other).exit_code == 0
    assert round_rows(other, 1) != round_rows(path, 1)


def test_random_first_round_pairs_round_two_top_down(tmp_path: Path) -> None:
    settings = {"First round": "random", "Competition name": "Keizer"}
    path = make_book(tmp_path / "club.xlsx", PLAYERS, (), settings)
    assert run_cli("pair", path).exit_code == 0
    rows = sheet(path, "Rounds")
    results = [[r, 5, "1-0"] for r, row in enumerate(rows[1:], start=2) if row[3]]
    from keizer_xl.workbook.xlsx import SheetEdit, save_edits

    save_edits(path, [SheetEdit("Rounds", {(r, c): v for r, c, v in results})], backup=False)
    result = run_cli("pair", path)
    assert result.exit_code == 0, result.output
    assert "drawn at random" not in result.output
    assert round_rows(path, 2)
