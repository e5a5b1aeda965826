"""Warnings that do not block, and rounds that are complete only when they are, through the
workbook and `keizer-xl`, on workbooks typed in another program (openpyxl) and re-saved by
LibreOffice headless."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli.week import libreoffice_resave, openpyxl_book, sheet, standings
from tests.conftest import run_cli

pytestmark = [pytest.mark.libreoffice, pytest.mark.usefixtures("soffice_installed")]

PLAYERS = [
    {"Name": n, "Rating": r, "Present": "" if n == "Dirk" else "x"}
    for n, r in [
        ("Anna", 2000),
        ("Bram", 1900),
        ("Anaïs", 1800),
        ("Cor", 1750),
        ("Dirk", 1700),
        ("Eva", 1600),
        ("Zoë", 1500),
    ]
]  # Zoë added after round 4, without Joined;
# Dirk, away since round 2, is not here tonight either (here, he would not have stopped)
SEASON = [
    [1, 1, "Anna", "Bram", "1-0"],
    [1, 2, "Anaïs", "Cor", "½-½"],
    [1, 3, "Dirk", "Eva", "0-1"],
    [2, 1, "Anna", "Anaïs", "1-0"],
    [2, 2, "Bram", "Eva", "0-1"],
    [2, None, "Dirk", None, "unexcused"],
    [2, None, "Cor", None, "excused"],
    [3, 1, "Anna", "Cor", "½-½"],
    [3, 2, "anais", "Bram", "1-0"],  # row 10: no accent
    [3, None, "Eva", None, "bye"],
    [3, None, "Dirk", None, "unexcused"],
    [4, 1, "Cor", "Anna", "0-1"],
    [4, 2, "Anaïs", "Bram", "½-½"],
    [4, None, "Eva", None, "bye"],
    [4, None, "Dirk", None, "unexcused"],  # row 15: bye again
]


@pytest.fixture(scope="module")
def profile(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("lo-profile")


def test_warnings_are_printed_and_never_written_on_the_standings(
    tmp_path: Path, profile: Path
) -> None:
    path = openpyxl_book(tmp_path / "club.xlsx", PLAYERS, SEASON, {"Bye": "2/3"})
    libreoffice_resave(path, profile)
    done = run_cli("recalc", path)
    assert done.exit_code == 0, done.output
    expected = [
        "Players!C8: Zoë is in no round yet, so joins in round 5, as if Joined said 5: "
        "nobody's earlier standings change. To give Zoë the rounds before, put the round Zoë "
        "joined in Joined",
        "Players!D6: Dirk has not played a game in rounds 2–4; if Dirk has stopped, put 4 in Left",
        "Rounds!E15: Eva has the bye in round 3 and again in round 4",
        "Rounds!C10: 'anais' is taken to be Anaïs (as written on the Players sheet)",
        "Settings!B2: Bye 2/3 is the default anyway (blank means the same)",
    ]
    printed = [
        line.removeprefix("Warning: ")
        for line in done.output.splitlines()
        if line.startswith("Warning: ")
    ]
    assert sorted(printed) == sorted(expected)
    printed_sheet = " ".join(str(cell) for row in sheet(path, "Standings") for cell in row)
    assert not any(line in printed_sheet for line in expected)  # never on the notice board
    note = next(str(r[0]) for r in sheet(path, "Standings") if str(r[0]).startswith("Stand"))
    assert "Bye" not in note  # a setting equal to its default is not listed as changed
    # the warnings block nothing: Anaïs's games count for her
    assert len(standings(path)) == len(PLAYERS)
    done = run_cli("pair", path)
    assert done.exit_code == 0, done.output
    assert sum(line.startswith("Warning: ") for line in done.output.splitlines()) == 5


def test_a_round_missing_players_is_refused_by_pair_and_warned_by_recalc(
    tmp_path: Path, profile: Path
) -> None:
    rows = [row for row in SEASON if row[:2] != [4, 1]]  # a game row deleted
    path = openpyxl_book(tmp_path / "club.xlsx", PLAYERS[:6], rows)
    libreoffice_resave(path, profile)
    before = path.read_bytes()
    done = run_cli("pair", path)
    assert done.exit_code == 1
    assert (
        "Rounds: round 4: Anna and Cor are in no row, so counted as excused (Default "
        "absence); if a game row was deleted, enter it again, otherwise add a row with "
        "excused, club or unexcused"
    ) in done.output
    assert path.read_bytes() == before
    done = run_cli("recalc", path)
    assert done.exit_code == 0
    assert "Warning: Rounds: round 4: Anna and Cor are in no row" in done.output


def test_a_missing_result_names_the_board_once_per_game(tmp_path: Path, profile: Path) -> None:
    rows = [[*row[:4], None] if row[0] == 4 and row[1] == 2 else row for row in SEASON]
    path = openpyxl_book(tmp_path / "club.xlsx", PLAYERS[:6], rows)
    libreoffice_resave(path, profile)
    done = run_cli("pair", path)
    assert done.exit_code == 1
    line = "Rounds!E14: round 4, board 2 (Anaïs – Bram) has no result yet"
    assert done.output.count(line) == 1, done.output
    assert done.output.count("has no result") == 1
