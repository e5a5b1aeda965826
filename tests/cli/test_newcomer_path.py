"""A member added to the Players sheet mid-season, Joined left blank, joins at the next
round: nobody's earlier standings change, a caution says so and how to give them earlier
rounds, `pair` pairs them from the next round on and writes that round into Joined.
Through the command (English and Dutch) and the buttons' shared code (`plans`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from keizer_xl.core.model import Player
from keizer_xl.core.season import Season
from keizer_xl.workbook import files
from keizer_xl.workbook.plans import plan_pair, plan_recalc
from keizer_xl.workbook.xlsx import SheetEdit, Workbook, save_edits
from tests.cli.test_dutch_workbook import dutch_book
from tests.conftest import run_cli
from tests.seasons import club_season, season_book

NAMES = [f"Player {i}" for i in range(1, 11)]
NEWCOMER = "Zoë Newcomer"
SAID = {
    "en": f"{NEWCOMER} is in no round yet, so joins in round 4",
    "nl": f"{NEWCOMER} speelt nog in geen enkele ronde mee, dus doet mee vanaf ronde 4",
}


TOP = {"Top value": 14}  # fixed when round 1 was paired, as `pair` does


def three_rounds() -> Season:
    return club_season(NAMES, 3, seed=7)


def with_newcomer(path: Path, joined: int | None = None, language: str = "en") -> Path:
    """The three rounds' workbook with a newcomer added at the bottom of Players, present."""
    if language == "nl":
        dutch_book(path, three_rounds())
    else:
        season_book(path, three_rounds(), TOP, present=1.0)
    row = len(NAMES) + 2
    cells: dict[tuple[int, int], object] = {(row, 1): NEWCOMER, (row, 2): 2150, (row, 5): "x"}
    if joined is not None:
        cells[(row, 3)] = joined
    sheet = "Spelers" if language == "nl" else "Players"
    save_edits(path, [SheetEdit(sheet, cells)], backup=False)  # type: ignore[arg-type]
    return path


def scores(outcome: files.Outcome) -> dict[str, tuple[object, object]]:
    return {row.name: (row.score, row.value) for row in outcome.standings.rows}


def test_a_newcomer_changes_nobodys_standings(tmp_path: Path) -> None:
    before = scores(files.recalc(season_book(tmp_path / "before.xlsx", three_rounds(), TOP)))
    outcome = files.recalc(with_newcomer(tmp_path / "club.xlsx"))
    after = scores(outcome)
    assert {name: after[name] for name in before} == before
    assert any(SAID["en"] in str(c) for c in outcome.standings.cautions)


def test_joined_said_gives_the_newcomer_earlier_rounds(tmp_path: Path) -> None:
    before = scores(files.recalc(season_book(tmp_path / "before.xlsx", three_rounds(), TOP)))
    outcome = files.recalc(with_newcomer(tmp_path / "club.xlsx", joined=1))
    after = scores(outcome)
    assert {name: after[name] for name in before} != before  # in round 1's ranking, high
    assert not any(SAID["en"] in str(c) for c in outcome.standings.cautions)


@pytest.mark.parametrize("language", ["en", "nl"])
def test_pair_pairs_the_newcomer_from_the_next_round_and_writes_joined(
    tmp_path: Path, language: str
) -> None:
    path = with_newcomer(tmp_path / "club.xlsx", language=language)
    result = run_cli("pair", path)
    assert result.exit_code == 0, result.output
    assert SAID[language] in " ".join(result.output.split())
    sheet = "Spelers" if language == "nl" else "Players"
    rows = Workbook(path, write=False).read([sheet])[sheet].rows
    newcomer = next(r for r in rows if r and r[0] == NEWCOMER)
    assert newcomer[2] == 4
    rounds = files.load(path)[0].season.round_entries(4)
    assert any(
        NEWCOMER
        in (getattr(e, "white", None), getattr(e, "black", None), getattr(e, "player", None))
        for e in rounds
    )
    again = run_cli("recalc", path)  # Joined now says it: no caution, nothing refused
    assert again.exit_code == 0, again.output
    assert NEWCOMER not in again.output


def test_the_buttons_work_takes_the_newcomer_as_the_command_does(tmp_path: Path) -> None:
    path = with_newcomer(tmp_path / "club.xlsx")
    grids = files.read_grids(path)
    standings, _ = plan_recalc(grids)
    assert any(SAID["en"] in str(c) for c in standings.cautions)
    next_round, edits = plan_pair(grids)
    assert next_round.round == 4
    players = next(e for e in edits if e.table == "Players")
    assert list(players.cells.values()) == [4]
    season = files.load(path)[0].season
    assert season.player(NEWCOMER) == Player(
        NEWCOMER, season.player(NEWCOMER).rating, 4, None, None, len(NAMES)
    )


def test_new_from_last_season_says_how_a_member_joins_mid_season(tmp_path: Path) -> None:
    last = season_book(tmp_path / "last.xlsx", three_rounds(), TOP)
    done = run_cli("new", tmp_path / "next.xlsx", "--from", last)
    assert done.exit_code == 0, done.output
    assert "add them on Players with Joined blank, and they join at the next round" in " ".join(
        done.output.split()
    )
