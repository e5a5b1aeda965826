"""Error values in cells (`#N/A`, `#DIV/0!`, `#VALUE!`, NaN) where keizer_xl reads a value:
each is a problem naming its cell for `check`, `recalc` and `pair`; a blank stays blank."""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

import pytest

from keizer_xl.core.settings import SETTINGS
from keizer_xl.workbook.xlsx import SheetEdit, save_edits
from tests.conftest import run_cli
from tests.helpers_package import sheet_parts
from tests.seasons import make_book

PLAYERS = [
    {"Name": name, "Rating": rating, "Present": "x"}
    for name, rating in (("Anna", 1800), ("Bram", 1700), ("Carla", 1600), ("Daan", 1500))
]
MARK = 987_654_321  # a number written first, then made into the error in the sheet's XML
SETTING_ROW = list(SETTINGS).index("Step") + 2


def with_error(path: Path, sheet: str, ref: str, markup: str) -> Path:
    """The cell `ref` of `sheet` holding `markup` inside its element (`<f>NA()</f><v>#N/A</v>`
    with t="e", or a saved value such as NaN), as Excel or another program saves it."""
    row, column = _cell(ref)
    save_edits(path, [SheetEdit(sheet, {(row, column): MARK})], backup=False)
    part = sheet_parts(path)[sheet]
    with zipfile.ZipFile(path) as package:
        contents = {info.filename: package.read(info) for info in package.infolist()}
    xml = contents[part].decode()
    cell = re.compile(rf'<c r="{ref}"([^>]*?)(?: t="[a-zA-Z]+")?><v>{MARK}</v></c>')
    assert cell.search(xml), xml[:500]
    contents[part] = cell.sub(lambda m: f'<c r="{ref}"{m.group(1)}{markup}</c>', xml).encode()
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as package:
        for name, data in contents.items():
            package.writestr(name, data)
    return path


def _cell(ref: str) -> tuple[int, int]:
    letters, digits = re.fullmatch(r"([A-Z]+)(\d+)", ref).groups()  # type: ignore[union-attr]
    column = 0
    for letter in letters:
        column = column * 26 + ord(letter) - 64
    return int(digits), column


ERRORS = {
    "#N/A": ' t="e"><f>NA()</f><v>#N/A</v>',
    "#DIV/0!": ' t="e"><f>1/0</f><v>#DIV/0!</v>',
    "#VALUE!": ' t="e"><v>#VALUE!</v>',
    "NaN": "><v>NaN</v>",
}
PLACES = [
    ("Players", "B3", "Rating"),
    ("Players", "C4", "Joined"),
    ("Players", "D2", "Left"),
    ("Players", "E5", "Present"),
    ("Settings", f"B{SETTING_ROW}", "Step"),
]


@pytest.mark.parametrize("error", list(ERRORS))
@pytest.mark.parametrize(("sheet", "ref", "what"), PLACES)
@pytest.mark.parametrize("command", ["check", "recalc", "pair"])
def test_an_error_value_is_named_with_its_cell(
    tmp_path: Path, error: str, sheet: str, ref: str, what: str, command: str
) -> None:
    path = with_error(make_book(tmp_path / "club.xlsx", PLAYERS), sheet, ref, ERRORS[error])
    before = path.read_bytes()
    result = run_cli(command, path)
    assert result.exit_code == 1, result.output
    assert f"{sheet}!{ref}: the cell shows the error {error}" in result.output, what
    assert path.read_bytes() == before


def test_a_blank_stays_blank(tmp_path: Path) -> None:
    path = make_book(tmp_path / "club.xlsx", [{**p, "Rating": None} for p in PLAYERS])
    result = run_cli("check", path)
    assert result.exit_code == 0, result.output
    assert "no problems found" in result.output


def test_every_error_of_the_rounds_at_once(tmp_path: Path) -> None:
    rounds = [[1, 1, "Anna", "Bram", "1-0"], [1, 2, "Carla", "Daan", "0-1"]]
    path = make_book(tmp_path / "club.xlsx", PLAYERS, rounds)
    with_error(path, "Rounds", "E2", ERRORS["#N/A"])
    with_error(path, "Rounds", "C3", ERRORS["#VALUE!"])
    result = run_cli("check", path)
    assert result.exit_code == 1, result.output
    assert "Rounds!E2: the cell shows the error #N/A" in result.output
    assert "Rounds!C3: the cell shows the error #VALUE!" in result.output
    assert "2 problems" in result.output
