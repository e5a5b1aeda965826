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
PLAYERS = [{"Name": n, "Rating": 2000 - 100 * i, "Present": "x"} for i, n in enumerate(NAMES)]


def sheet(path: Path, name: str) -> list[list[object]]:
    return (
        CalamineWorkbook.from_path(str(path))
        .get_sheet_by_name(  # type: ignore[no-any-return]
            name
        )
        .to_python()
    )


def present_column(path: Path) -> list[object]:
    grid = sheet(path, "Players")
    column = grid[0].index("Present")
    return [row[column] if column < len(row) else "" for row in grid[1 : len(NAMES) + 1]]


def round_rows(path: Path, round_no: int) -> list[list[object]]:
    return [row[:5] for row in sheet(path, "Rounds")[1:] if row and row[0] == round_no]


def test_clear_present_empties_the_column_after_pairing(tmp_path: Path) -> None:
    players = [dict(p) for p in PLAYERS]
    players[6]["Present"] = "club"  # a reason is emptied too
    path = make_book(tmp_path / "club.xlsx", players, (), {"Clear present": "yes"})
    result = run_cli("pair", path)
    assert result.exit_code == 0, result.output
    assert present_column(path) == [""] * len(NAMES)
    assert "Clear present yes: the Present column is emptied for the next round." in result.output
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
    assert pairs == [set(order[i : i + 2]) for i in (0, 2, 4)]
    assert round_rows(path, 1)[3][2:4] == [order[6], ""]  # the last drawn has the bye
    assert [{str(row[2]), str(row[3])} for row in games] != [
        {"Anna", "Bram"},
        {"Carla", "Daan"},
        {"Eva", "Fleur"},
    ]  # not top-down here
    again = make_book(tmp_path / "again.xlsx", PLAYERS, (), settings)
    assert run_cli("pair", again).exit_code == 0
    assert round_rows(again, 1) == round_rows(path, 1)  # the same workbook, the same draw
    other = make_book(
        tmp_path / "other.xlsx", PLAYERS, (), {**settings, "Competition name": "Keizer 2027-28"}
    )
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


# Team matches counted (Club games result): values 10, 9, 8, 7, 6 before round 1.
TEAM_PLAYERS = [
    {"Name": n, "Rating": r}
    for n, r in (("Anna", 2000), ("Bram", 1900), ("Carla", 1800), ("Daan", 1700), ("Eva", 1600))
]
TEAM_ROUND = [
    [1, 1, "Anna", "Bram", "1-0"],
    [1, "", "Carla", "", "club 1-0"],
    [1, "", "Daan", "", "extern ½-½"],
    [1, "", "Eva", "", "Club 0-1"],
]


def standings_rows(path: Path) -> dict[str, dict[str, object]]:
    grid = sheet(path, "Standings")
    return {str(row[1]): dict(zip(grid[0], row, strict=False)) for row in grid[1:6]}


def test_team_matches_count_at_own_value_through_the_command(tmp_path: Path) -> None:
    path = make_book(
        tmp_path / "club.xlsx", TEAM_PLAYERS, TEAM_ROUND, {"Top value": 10, "Club games": "result"}
    )
    result = run_cli("recalc", path)
    assert result.exit_code == 0, result.output
    rows = standings_rows(path)
    # a win earns one's own value, a draw half of it, a loss the Loss share (0)
    assert {name: row["Score"] for name, row in rows.items()} == {
        "Anna": 19,
        "Carla": 16,
        "Daan": 10.5,
        "Bram": 9,
        "Eva": 6,
    }
    assert [rows[n]["Played"] for n in ("Carla", "Daan", "Eva")] == [1, 1, 1]
    assert [
        (rows[n]["Won"], rows[n]["Drawn"], rows[n]["Lost"], rows[n]["Absent"])
        for n in ("Carla", "Daan", "Eva")
    ] == [(1, 0, 0, 0), (0, 1, 0, 0), (0, 0, 1, 0)]
    cross = {str(row[1]): row[2] for row in sheet(path, "Crosstable")[1:6]}
    assert (cross["Carla"], cross["Daan"], cross["Eva"]) == ("club1", "club½", "club0")
    legend = [row[0] for row in sheet(path, "Crosstable")[6:] if row and row[0]]
    assert any(str(line).startswith("club1, club½, club0: a team match") for line in legend)
    shown = run_cli("standings", path)
    assert shown.exit_code == 0, shown.output
    carla = next(line for line in shown.output.splitlines() if "Carla" in line)
    assert [cell.strip() for cell in carla.split("│")[2:8]] == ["Carla", "16", "9", "1", "1", "0"]


def test_team_matches_with_a_loss_share(tmp_path: Path) -> None:
    path = make_book(
        tmp_path / "club.xlsx",
        TEAM_PLAYERS,
        TEAM_ROUND,
        {"Top value": 10, "Club games": "result", "Loss": "1/6"},
    )
    assert run_cli("recalc", path).exit_code == 0
    assert standings_rows(path)["Eva"]["Score"] == 7  # 6 + 1/6 of her own value 6


def test_without_club_games_result_a_team_result_earns_the_club_duty_share(tmp_path: Path) -> None:
    path = make_book(tmp_path / "club.xlsx", TEAM_PLAYERS, TEAM_ROUND, {"Top value": 10})
    result = run_cli("recalc", path)
    assert result.exit_code == 0, result.output
    rows = standings_rows(path)
    # Club duty 2/3 of one's own value, whatever the team match gave
    assert [rows[n]["Score"] for n in ("Carla", "Daan", "Eva")] == [13.33, 11.67, 10]
    assert [rows[n]["Absent"] for n in ("Carla", "Daan", "Eva")] == [1, 1, 1]
    assert "Rounds!E3: a team-match result counts only with Club games result" in result.output
    cross = {str(row[1]): row[2] for row in sheet(path, "Crosstable")[1:6]}
    assert cross["Carla"] == "club"


def test_a_team_result_needs_a_club_duty_row(tmp_path: Path) -> None:
    rounds = [[1, 1, "Anna", "Bram", "club 1-0"], [1, "", "Carla", "", "excused 1-0"]]
    path = make_book(
        tmp_path / "club.xlsx", TEAM_PLAYERS, rounds, {"Top value": 10, "Club games": "result"}
    )
    result = run_cli("check", path)
    assert result.exit_code != 0
    assert "Rounds!E2: 'club 1-0' is for a row with one player" in result.output
    assert "Rounds!E3: 'excused 1-0' is not a result" in result.output


def test_team_matches_on_the_pages(tmp_path: Path) -> None:
    from keizer_xl.core.report import build_report
    from keizer_xl.publish.site import Titles, build_site
    from keizer_xl.publish.text import pairings_text
    from keizer_xl.workbook.files import load

    path = make_book(
        tmp_path / "club.xlsx", TEAM_PLAYERS, TEAM_ROUND, {"Top value": 10, "Club games": "result"}
    )
    competition, _ = load(path)
    report = build_report(competition.season, competition.standings())
    text = "\n".join(pairings_text(report))
    assert "Carla (team match, won)" in text and "Eva (team match, lost)" in text
    dutch = "\n".join(pairings_text(report, "nl"))
    assert "Daan (teamwedstrijd, remise)" in dutch
    pages = build_site(report, Titles())
    crosstable = pages["crosstable.html"]
    assert 'class="cell win" title="Round 1: team match, won; worth 8 now">club1<' in crosstable
    assert "club1, club½, club0: a team match for the club" in crosstable
    card = next(page for name, page in pages.items() if "carla" in name)
    assert "team match, won" in card


def test_unpair_keeps_a_typed_team_result_unless_forced(tmp_path: Path) -> None:
    rounds = [
        [1, 1, "Anna", "Bram", ""],
        [1, 2, "Carla", "Daan", ""],
        [1, "", "Eva", "", "club 1-0"],
    ]
    path = make_book(
        tmp_path / "club.xlsx", TEAM_PLAYERS, rounds, {"Top value": 10, "Club games": "result"}
    )
    refused = run_cli("unpair", path)
    assert refused.exit_code != 0
    assert (
        "Rounds!E4: round 1: Eva already has a team-match result (1-0); only a round "
        "without results is taken back"
    ) in refused.output
    assert len(round_rows(path, 1)) == 3  # nothing written
    forced = run_cli("unpair", path, "--force")
    assert forced.exit_code == 0, forced.output
    assert round_rows(path, 1) == []
