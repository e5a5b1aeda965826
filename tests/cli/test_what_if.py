"""`keizer-xl standings FILE --try SETTING=VALUE`: the standings now and with a rule changed,
side by side, in the workbook's language, and the file left byte for byte as it was."""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from pathlib import Path

from keizer_xl.core.scoring import compute_standings
from keizer_xl.i18n.numbers import decimal
from keizer_xl.workbook.files import load
from tests.cli.test_dutch_workbook import dutch_book
from tests.conftest import run_cli
from tests.seasons import SIX_PLAYERS, THREE_ROUNDS_OF_SIX, club_season, make_book

PLAYERS = [{"Name": n, "Rating": r} for n, r in SIX_PLAYERS]
ROUNDS = THREE_ROUNDS_OF_SIX


def table_rows(output: str) -> list[list[str]]:
    """The rows of the table printed (rich's box lines), each cell stripped."""
    return [
        [cell.strip() for cell in line.split("│")[1:-1]]
        for line in output.splitlines()
        if line.startswith("│")
    ]


def test_the_tried_rule_beside_the_standings_now(tmp_path: Path) -> None:
    path = make_book(tmp_path / "club.xlsx", PLAYERS, ROUNDS, {"Top value": 10})
    before = path.read_bytes()
    competition, _ = load(path)
    now = competition.standings()
    tried = compute_standings(
        competition.season,
        dataclasses.replace(competition.settings, loss=Fraction(1, 2), step=Fraction(2)),
    )
    assert [r.score for r in tried.rows] != [r.score for r in now.rows]  # the rule counts

    result = run_cli("standings", path, "--try", "Loss=1/2", "--try", " step = 2")
    assert result.exit_code == 0, result.output
    assert "Standings after round 3: now and with Loss 1/2, Step 2" in result.output
    rows = table_rows(result.output)
    score_now = {r.name: decimal(r.score) for r in now.rows}
    place_now = {r.name: r.rank for r in now.rows}
    assert [row[1] for row in rows] == list(tried.ranking)
    for row, expected in zip(rows, tried.rows, strict=True):
        place, name, was, becomes, change = row
        assert (int(place), was, becomes) == (
            expected.rank,
            score_now[name],
            decimal(expected.score),
        )
        moved = place_now[name] - expected.rank
        assert change == ("" if moved == 0 else f"+{moved}" if moved > 0 else f"−{-moved}")
    assert any(row[4] for row in rows)  # somebody moves
    assert path.read_bytes() == before  # nothing written, not even the Standings sheet


def test_a_dutch_workbook_tries_in_dutch(tmp_path: Path) -> None:
    season = club_season(
        ["Anna", "Bram", "Carla", "Daan", "Eva", "Fleur", "Gijs", "Hanna", "Ilse", "Joost"],
        4,
        seed=3,
    )
    path = dutch_book(tmp_path / "club.xlsx", season)
    before = path.read_bytes()
    competition, _ = load(path)
    tried = compute_standings(
        competition.season, dataclasses.replace(competition.settings, loss=Fraction(1, 4))
    )

    result = run_cli("standings", path, "--try", "Verlies=0,25")
    assert result.exit_code == 0, result.output
    assert "Stand na ronde 4: nu en met Verlies 0,25" in result.output
    assert "┃ Score nu ┃" in result.output
    rows = table_rows(result.output)
    assert [row[3] for row in rows] == [decimal(r.score, "nl") for r in tried.rows]
    assert any("," in row[3] for row in rows)  # the Dutch decimal mark
    english = run_cli("standings", path, "--try", "Loss=1/4")  # the English name too
    assert table_rows(english.output) == rows
    assert path.read_bytes() == before


def test_a_wrong_trial_is_named(tmp_path: Path) -> None:
    path = make_book(tmp_path / "club.xlsx", PLAYERS, ROUNDS, {"Top value": 10})
    before = path.read_bytes()
    result = run_cli(
        "standings", path, "--try", "Los=1/2", "--try", "Loss=much", "--try", "Pricing"
    )
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert "--try 'Los=1/2': 'Los' is not a setting; did you mean 'Loss'?" in lines
    assert "--try 'Loss=much': Loss: 'much' is not a number" in " ".join(lines)
    assert "--try 'Pricing': write it as SETTING=VALUE, for example \"Loss=1/2\"" in lines
    assert "Traceback" not in result.output
    assert path.read_bytes() == before


def test_tried_settings_that_do_not_go_together_are_named(tmp_path: Path) -> None:
    path = make_book(tmp_path / "club.xlsx", PLAYERS, ROUNDS, {"Top value": 10})
    result = run_cli("standings", path, "--try", "Pricing=frozen", "--try", "Iterate=final")
    assert result.exit_code == 1
    assert result.output.strip() == (
        "--try: Iterate final cannot go with Pricing frozen: frozen points are never re-priced"
    )
