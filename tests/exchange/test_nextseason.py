"""Next season from last season's workbook: who stays, their ratings and own columns, the
settings, the file kind, and the initial ranking."""

from __future__ import annotations

import zipfile
from fractions import Fraction
from pathlib import Path

from python_calamine import CalamineWorkbook

from keizer_xl.core.model import Entry, Game, Player
from keizer_xl.core.scoring import automatic_top_value
from keizer_xl.core.season import Season
from keizer_xl.workbook.files import load
from tests.conftest import run_cli
from tests.seasons import club_season, season_book


def last_season(path: Path, top_value: object = 50) -> tuple[Path, Season]:
    season = club_season(14, 6, seed=5, comings_and_goings=True)
    players = list(season.players)
    # one withdrew after round 3, one left after the last round (he played it all)
    players[2] = Player(players[2].name, players[2].rating, 1, 3, None, 2)
    players[4] = Player(players[4].name, players[4].rating, 1, 6, None, 4)
    gone = players[2].name

    def names(e: Entry) -> tuple[str, ...]:
        return (e.white, e.black) if isinstance(e, Game) else (e.player,)

    season = Season(
        tuple(players), tuple(e for e in season.entries if e.round <= 3 or gone not in names(e))
    )
    n = len(players)
    own = {
        "Phone": [f"06-{i:08d}" for i in range(n)],
        "KNSB id": [8000000 + i if i % 2 else None for i in range(n)],
        "Group": ["A" if i < 7 else "B" for i in range(n)],
    }
    book = season_book(
        path,
        season,
        {"Top value": top_value, "Ties": "shared", "Competition name": "Keizer 2025"},
        own,
    )
    return book, season


def sheet(path: Path, name: str) -> list[list[object]]:
    return CalamineWorkbook.from_path(str(path)).get_sheet_by_name(name).to_python()  # type: ignore[no-any-return]


def test_next_season_by_rating(tmp_path: Path) -> None:
    last, season = last_season(tmp_path / "2025.xlsx")
    before = last.read_bytes()
    nxt = tmp_path / "2026.xlsx"
    result = run_cli("new", nxt, "--from", last)
    assert result.exit_code == 0, result.output
    stay = [p for p in season.players if p.left is None or p.left >= 6]
    withdrew = [p.name for p in season.players if p not in stay]
    assert season.players[2].name in withdrew and season.players[4] in stay
    assert f"Left out (withdrew last season): {', '.join(withdrew)}\n" in result.output
    assert last.read_bytes() == before
    competition, _ = load(nxt)
    new = competition.season
    by_rating = sorted(stay, key=lambda p: (-p.rating, p.order))
    assert [p.name for p in new.players] == [p.name for p in by_rating]
    assert [p.rating for p in new.players] == [p.rating for p in by_rating]
    assert all((p.joined, p.left) == (1, None) for p in new.players)
    assert new.entries == ()
    assert competition.settings.top_value == 50
    assert competition.settings.ties == "shared"
    assert competition.settings.initial_order == "rating"
    assert competition.settings.competition_name == "Keizer 2025"
    grid = sheet(nxt, "Players")
    header = grid[0]
    assert header[:5] == ["Name", "Rating", "Joined", "Left", "Present"]
    assert header[5:] == ["Phone", "KNSB id", "Group"]
    old_rows = {row[0]: row for row in sheet(last, "Players")[1:]}
    for row in grid[1:]:
        old = old_rows[row[0]]
        assert row[5:8] == old[6:9]  # the own columns, beside keizer_xl's now
        assert row[4] == ""  # nobody is present yet


def test_next_season_by_last_standings(tmp_path: Path) -> None:
    last, season = last_season(tmp_path / "2025.xlsm")
    nxt = tmp_path / "2026.xlsm"
    result = run_cli("new", nxt, "--from", last, "--order", "standings")
    assert result.exit_code == 0, result.output
    assert "ranked by last season's final standings" in result.output
    old, _ = load(last)
    gone = {p.name for p in season.players if p.left is not None and p.left < 6}
    final = [name for name in old.standings().ranking if name not in gone]
    competition, _ = load(nxt)
    assert [p.name for p in competition.season.players] == final
    assert competition.settings.initial_order == "as listed"
    assert competition.standings(0).ranking == tuple(final)
    with zipfile.ZipFile(nxt) as package:
        assert "xl/vbaProject.bin" in package.namelist()  # the buttons came along


def test_fixed_automatic_top_value_is_fixed_again(tmp_path: Path) -> None:
    auto = automatic_top_value(14)
    last, _ = last_season(tmp_path / "2025.xlsm", top_value=int(auto))
    nxt = tmp_path / "2026.xlsx"
    result = run_cli("new", nxt, "--from", last)
    assert result.exit_code == 0, result.output
    assert f"Top value {auto} was last season's automatic value" in result.output
    assert "2025.xlsm has the buttons; 2026.xlsx has none" in result.output
    competition, _ = load(nxt)
    assert competition.settings.top_value is None
    staying = len(competition.season.players)
    assert staying < 14
    assert competition.top_value_to_fix == automatic_top_value(staying) != Fraction(auto)


def test_order_only_with_a_workbook(tmp_path: Path) -> None:
    result = run_cli("new", tmp_path / "x.xlsx", "--order", "standings")
    assert result.exit_code == 2
    assert "--order goes with --from last season's workbook" in result.output
