"""Every door keeps the limits `check` keeps: what `rename` writes is what every command
will read afterwards, and a round whose game rows were deleted is refused by the buttons'
shared work as by the commands (the commands themselves: `tests/cli/test_silent_path.py`).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from keizer_xl.core.words import MAX_NAME
from keizer_xl.i18n import say
from keizer_xl.i18n.names import local_name
from keizer_xl.workbook.files import read_grids
from keizer_xl.workbook.layout import BookError
from keizer_xl.workbook.plans import plan_pair, plan_recalc
from tests.cli.test_silent_path import LANGUAGES, ROUND_1, said, season_book
from tests.conftest import run_cli


@pytest.mark.parametrize("language", LANGUAGES)
def test_rename_refuses_a_name_check_would_refuse(tmp_path: Path, language: str) -> None:
    path = season_book(tmp_path / "club.xlsx", language, ROUND_1)
    before = path.read_bytes()
    done = run_cli("rename", path, "Anna", "A" * (MAX_NAME + 1))
    assert done.exit_code == 1, done.output
    players = local_name("Players", language)
    assert (
        said(
            language,
            f"{players}!A2: a name of 201 characters; at most 200",
            f"{players}!A2: een naam van 201 tekens; hoogstens 200",
        )
        in done.output
    )
    assert path.read_bytes() == before
    assert run_cli("check", path).exit_code == 0  # the workbook still opens everywhere


def test_rename_takes_the_longest_name_check_takes(tmp_path: Path) -> None:
    path = season_book(tmp_path / "club.xlsx", "en", ROUND_1)
    longest = "A" * MAX_NAME
    done = run_cli("rename", path, "Anna", longest)
    assert done.exit_code == 0, done.output
    assert run_cli("check", path).exit_code == 0
    assert run_cli("rename", path, longest, "Anna").exit_code == 0  # and back


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_buttons_refuse_a_round_whose_games_were_deleted(tmp_path: Path, language: str) -> None:
    rows = [*ROUND_1, [2, None, "Anna", None, "excused"], [2, None, "Frits", None, "club"]]
    grids = read_grids(season_book(tmp_path / "club.xlsx", language, rows))
    rounds = local_name("Rounds", language)
    for plan in (plan_recalc, plan_pair):
        with pytest.raises(BookError) as refused:
            plan(grids)
        assert said(
            language,
            f"{rounds}!A5: round 2 has no games",
            f"{rounds}!A5: ronde 2 heeft geen partijen",
        ) in say(refused.value.message, language)
