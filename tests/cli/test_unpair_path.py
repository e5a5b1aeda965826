"""Undo a pairing: pair, unpair and pair again give the same pairing and the same contents
in every cell keizer_xl owns, on a workbook made by `keizer-xl new` (XlsxWriter) and one
typed in openpyxl, each re-saved by LibreOffice headless."""

from __future__ import annotations

from pathlib import Path

import pytest

from keizer_xl.workbook.files import read_grids
from tests.cli.week import libreoffice_resave, openpyxl_book, sheet
from tests.conftest import run_cli

pytestmark = [pytest.mark.libreoffice, pytest.mark.usefixtures("soffice_installed")]

PLAYERS = [
    {"Name": n, "Rating": r, "Present": "x"}
    for n, r in [("Anna", 2000), ("Bram", 1900), ("Cor", 1800), ("Dirk", 1700), ("Eva", 1600)]
]
ROUND1 = [
    [1, 1, "Anna", "Bram", "1-0"],
    [1, 2, "Cor", "Dirk", "½-½"],
    [1, None, "Eva", None, "bye"],
]


@pytest.fixture(scope="module")
def profile(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("lo-profile")


def owned(path: Path) -> dict[str, object]:
    """Every cell keizer_xl owns: the Rounds columns, the whole Standings sheet, the
    Settings values (trailing blank rows do not count: a sheet has no end)."""
    grids = read_grids(path)
    rounds = [list(row[:5]) for row in grids["Rounds"]]
    while rounds and not any(c not in ("", None) for c in rounds[-1]):
        rounds.pop()
    settings = [row[1] if len(row) > 1 else "" for row in grids["Settings"]]
    while settings and settings[-1] in ("", None):
        settings.pop()
    standings = [[c for c in row] for row in sheet(path, "Standings")]
    return {"Rounds": rounds, "Settings": settings, "Standings": standings}


def _made_by_new(folder: Path) -> Path:
    csv = folder / "players.csv"
    csv.write_text(
        "Name,Rating,Present\n" + "".join(f"{p['Name']},{p['Rating']},x\n" for p in PLAYERS),
        encoding="utf-8",
    )
    path = folder / "club.xlsx"
    assert run_cli("new", path, "--players", csv).exit_code == 0
    return path


@pytest.mark.parametrize("maker", ["new", "openpyxl"])
def test_pair_unpair_pair_again_is_the_same(tmp_path: Path, profile: Path, maker: str) -> None:
    if maker == "new":  # from round 1: the Top value pairing fixes goes back to blank too
        path = _made_by_new(tmp_path)
    else:  # round 1 played: round 2 is paired and taken back
        path = openpyxl_book(tmp_path / "club.xlsx", PLAYERS, ROUND1)
    libreoffice_resave(path, profile)
    assert run_cli("recalc", path).exit_code == 0
    before = owned(path)
    assert run_cli("pair", path).exit_code == 0
    paired = owned(path)
    assert paired != before
    done = run_cli("unpair", path)
    assert done.exit_code == 0, done.output
    round_no = 1 if maker == "new" else 2
    assert done.output.startswith(
        f"Round {round_no} taken back from {path}: 2 games and 1 bye and absence row removed."
    )
    assert owned(path) == before
    libreoffice_resave(path, profile)  # and once more through LibreOffice between
    assert run_cli("pair", path).exit_code == 0
    assert owned(path) == paired


def test_unpair_refuses_typed_results_unless_forced(tmp_path: Path, profile: Path) -> None:
    path = openpyxl_book(tmp_path / "club.xlsx", PLAYERS, ROUND1)
    libreoffice_resave(path, profile)
    assert run_cli("recalc", path).exit_code == 0
    before = owned(path)
    unchanged = path.read_bytes()
    assert run_cli("unpair", path).exit_code == 1  # round 1 has its results
    assert path.read_bytes() == unchanged
    done = run_cli("unpair", path)
    assert "Rounds!E2: round 1, board 1 (Anna – Bram) already has a result (1-0)" in done.output
    done = run_cli("unpair", path, "--force")
    assert done.exit_code == 0, done.output
    assert "with the 2 results typed in it" in done.output
    after = owned(path)
    assert after["Rounds"] == [["Round", "Board", "White", "Black", "Result"]]
    assert after["Settings"] == before["Settings"]
    assert str(after["Standings"][-1][0]).startswith("Initial ranking")
    assert (
        run_cli("unpair", path)
        .output.strip()
        .endswith("there is no round to take back: the Rounds sheet has none")
    )
