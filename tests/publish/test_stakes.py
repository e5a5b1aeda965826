"""Tonight's stakes: what a win and a draw (with the Loss setting, a loss) earn each player of
a paired game at today's values, on the Pairings sheet, the pairings page, the chat text and
the player's page, checked against the values the Standings sheet shows."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from python_calamine import CalamineWorkbook

from keizer_xl.workbook.pairings import STAKES_COLUMN, STAKES_NOTE, TOP
from keizer_xl.workbook.xlsx import SheetEdit, save_edits
from tests.conftest import run_cli
from tests.publish.html import parse, table_rows, text
from tests.seasons import SIX_PLAYERS, THREE_ROUNDS_OF_SIX, make_book

PLAYERS = [{"Name": n, "Rating": r, "Present": "x"} for n, r in SIX_PLAYERS]
ROUNDS = THREE_ROUNDS_OF_SIX
PRICED_AGAIN = "earlier games are priced again next week"


def sheet(path: Path, name: str) -> list[list[object]]:
    return (
        CalamineWorkbook.from_path(str(path))
        .get_sheet_by_name(  # type: ignore[no-any-return]
            name
        )
        .to_python()
    )


def paired(
    tmp_path: Path, **settings: object
) -> tuple[Path, dict[str, Fraction], list[tuple[str, str]]]:
    """Round 4 paired by the command; each player's value as the Standings sheet shows it
    (the standings the round was paired from) and the games as White, Black."""
    path = make_book(tmp_path / "club.xlsm", PLAYERS, ROUNDS, {"Top value": 10, **settings})
    result = run_cli("pair", path)
    assert result.exit_code == 0, result.output
    standings = sheet(path, "Standings")
    at = standings[0].index("Value")
    values = {row[1]: Fraction(row[at]).limit_denominator(100) for row in standings[1:7]}
    games = [(row[1], row[2]) for row in sheet(path, "Pairings")[TOP - 1 :] if row[1]]
    assert len(games) == 3
    return path, values, games


def stakes_column(grid: list[list[object]]) -> list[object]:
    """Column F from the header row to board 4, blank where the sheet ends before it."""
    return [
        row[STAKES_COLUMN - 1] if len(row) >= STAKES_COLUMN else ""
        for row in grid[TOP - 2 : TOP + 3]
    ]


def figure(x: Fraction, mark: str = ".") -> str:
    """A stake written out independently of the code: whole, or to two decimals."""
    return (
        str(x.numerator)
        if x.denominator == 1
        else str(round(float(x), 2)).rstrip("0").replace(".", mark)
    )


def said(
    value: Fraction,
    loss: Fraction = Fraction(0),
    mark: str = ".",
    words: tuple[str, str, str] = ("win", "draw", "loss"),
) -> str:
    parts = [f"{words[0]} {figure(value, mark)}", f"{words[1]} {figure(value / 2, mark)}"]
    if loss:
        parts.append(f"{words[2]} {figure(value * loss, mark)}")
    return " · ".join(parts)


def test_pair_writes_the_stakes_beside_each_board(tmp_path: Path) -> None:
    path, values, games = paired(tmp_path)
    grid = sheet(path, "Pairings")
    for board, (white, black) in enumerate(games, start=1):
        assert (
            grid[TOP + board - 2][STAKES_COLUMN - 1]
            == f"{said(values[black])} | {said(values[white])}"
        )
    assert any((values[b] / 2).denominator != 1 for _, b in games)  # a half shown
    assert grid[TOP - 2][STAKES_COLUMN - 1] == "Tonight: White | Black"
    assert PRICED_AGAIN in str(grid[STAKES_NOTE[0] - 1][STAKES_NOTE[1] - 1])
    assert grid[TOP + 2][STAKES_COLUMN - 1] == ""  # board 4: none

    # once the results are in, the round is over: Recalculate empties the stakes
    rounds = sheet(path, "Rounds")
    save_edits(
        path,
        [
            SheetEdit(
                "Rounds", {(r, 5): "1-0" for r in range(11, len(rounds) + 1) if rounds[r - 1][3]}
            )
        ],
        backup=False,
    )
    result = run_cli("recalc", path)
    assert result.exit_code == 0, result.output
    grid = sheet(path, "Pairings")
    assert stakes_column(grid) == [""] * 5
    assert grid[STAKES_NOTE[0] - 1][STAKES_NOTE[1] - 1] == ""


def test_unpair_takes_the_stakes_back(tmp_path: Path) -> None:
    path, _, _ = paired(tmp_path)
    assert run_cli("unpair", path).exit_code == 0
    grid = sheet(path, "Pairings")
    assert stakes_column(grid) == [""] * 5
    assert grid[STAKES_NOTE[0] - 1][STAKES_NOTE[1] - 1] == ""


def test_the_pages_and_the_chat_text_show_the_same_stakes(tmp_path: Path) -> None:
    path, values, games = paired(tmp_path)
    result = run_cli("publish", path, "--text")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    for white, black in games:
        at = lines.index(next(line for line in lines if line.endswith(f"{white} – {black}")))
        assert lines[at + 1 : at + 3] == [
            f"   {white}: {said(values[black])}",
            f"   {black}: {said(values[white])}",
        ]
    assert any(PRICED_AGAIN in line for line in lines)

    assert run_cli("publish", path).exit_code == 0
    site = path.parent / "club_site"
    tree = parse((site / "pairings.html").read_text(encoding="utf-8"))
    rows = table_rows(tree, "pairings")[:3]
    for row, (white, black) in zip(rows, games, strict=True):
        stakes = [text(span) for span in row[1].iter() if span.get("class") == "stakes"]
        assert stakes == [said(values[black])]
        stakes = [text(span) for span in row[3].iter() if span.get("class") == "stakes"]
        assert stakes == [said(values[white])]
    assert PRICED_AGAIN in " ".join(text(p) for p in tree.iter() if p.get("class") == "legend")

    white, black = games[0]
    card = parse((site / "players" / f"{white.lower()}.html").read_text(encoding="utf-8"))
    tonight = next(p for p in card.iter() if p.get("class") == "tonight")
    assert black in text(tonight) and said(values[black]) in text(tonight)
    played = parse((site / "index.html").read_text(encoding="utf-8"))
    assert not [p for p in played.iter() if p.get("class") == "tonight"]


def test_with_the_loss_setting_in_dutch(tmp_path: Path) -> None:
    path, values, games = paired(tmp_path, Loss="1/3")
    grid = sheet(path, "Pairings")
    white, black = games[0]
    assert (
        grid[TOP - 1][STAKES_COLUMN - 1]
        == f"{said(values[black], Fraction(1, 3))} | {said(values[white], Fraction(1, 3))}"
    )
    result = run_cli("--lang", "nl", "publish", path, "--text")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    dutch = ("winst", "remise", "verlies")
    for white, black in games:
        assert f"   {white}: {said(values[black], Fraction(1, 3), ',', dutch)}" in lines
    assert any(",33" in line for line in lines)  # a third: the Dutch decimal mark
    assert any("volgende week opnieuw gewaardeerd" in line for line in lines)


def test_frozen_pricing_says_the_game_keeps_them(tmp_path: Path) -> None:
    path, _, _ = paired(tmp_path, Pricing="frozen")
    note = str(sheet(path, "Pairings")[STAKES_NOTE[0] - 1][STAKES_NOTE[1] - 1])
    assert "Pricing frozen the game keeps them" in note and "next week" not in note
