"""Names are compared after Unicode NFC normalisation and trimming, everywhere: `Zoë` typed
with a combining accent, or with spaces around it, is the same player."""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pytest

from tests.cli.week import libreoffice_resave, openpyxl_book, standings
from tests.conftest import run_cli

pytestmark = [pytest.mark.libreoffice, pytest.mark.usefixtures("soffice_installed")]

COMPOSED = unicodedata.normalize("NFC", "Zoë")
DECOMPOSED = unicodedata.normalize("NFD", "Zoë")


@pytest.fixture(scope="module")
def profile(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("lo-profile")


def test_a_name_typed_two_ways_is_one_player(tmp_path: Path, profile: Path) -> None:
    assert COMPOSED != DECOMPOSED
    players = [{"Name": COMPOSED, "Rating": 1800}, {"Name": "Bram", "Rating": 1700}]
    rounds = [[1, 1, f"  {DECOMPOSED} ", "Bram", "1-0"], [2, 1, "Bram", DECOMPOSED, "0-1"]]
    path = openpyxl_book(tmp_path / "club.xlsx", players, rounds)
    libreoffice_resave(path, profile)
    done = run_cli("recalc", path)
    assert done.exit_code == 0, done.output
    assert "Warning" not in done.output  # the same name, not a different spelling
    assert [name for name, _ in standings(path)] == [COMPOSED, "Bram"]


def test_the_same_name_twice_on_the_players_sheet_is_refused(tmp_path: Path, profile: Path) -> None:
    players = [{"Name": COMPOSED}, {"Name": "Bram"}, {"Name": f"{DECOMPOSED} "}]
    path = openpyxl_book(tmp_path / "club.xlsx", players)
    libreoffice_resave(path, profile)
    done = run_cli("check", path)
    assert done.exit_code == 1
    assert f"Players!A4: '{COMPOSED}' is listed twice (also in row 2)" in done.output
