"""Nothing of the secretary's is lost through the commands themselves: `keizer-xl recalc`
and `keizer-xl pair` on workbooks holding VBA, buttons, shapes, pictures, charts, comments,
tables, formatting, validation, defined names and other sheets change only the cells
keizer_xl owns — every other part of the package keeps its bytes."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from keizer_xl.workbook.xlsx import SheetEdit, save_edits
from tests.conftest import run_cli
from tests.helpers_package import (
    WORKBOOKS,
    copy_fixture,
    entries,
    members,
    outside_cells,
    sheet_parts,
)

OWNED = ("Rounds", "Standings", "Settings")


def _prepare(name: str, folder: Path) -> Path:
    """The fixture, with the two entries a real season would not have made valid."""
    path = copy_fixture(name, folder)
    save_edits(path, [SheetEdit("Settings", {(8, 1): None}),  # a note where a setting goes
                      SheetEdit("Players", {(5, 3): None})], backup=False)  # Daan: round 1
    return path


def _assert_only_owned_parts_changed(before: dict[str, bytes], path: Path) -> None:
    after = members(path)
    parts = sheet_parts(path)
    owned = {parts[name] for name in OWNED}
    assert set(after) == set(before)
    for name, data in before.items():
        if name in owned:
            assert outside_cells(after[name]) == outside_cells(data), name
        elif name == "xl/workbook.xml":  # only: recompute the secretary's formulas on load
            assert after[name].replace(b' fullCalcOnLoad="1"', b"") == \
                data.replace(b' fullCalcOnLoad="1"', b"")
        else:
            assert after[name] == data, name


@pytest.mark.parametrize("name", WORKBOOKS)
def test_recalc_and_pair_keep_every_other_part(tmp_path: Path, name: str) -> None:
    path = _prepare(name, tmp_path)
    before, before_entries = members(path), entries(path)
    assert any(n.endswith("vbaProject.bin") for n in before)
    for command in ("recalc", "pair", "recalc"):
        result = run_cli(command, path)
        assert result.exit_code == 0, result.output + result.stderr
        _assert_only_owned_parts_changed(before, path)
        assert entries(path) == before_entries


def test_our_own_macro_workbook_keeps_its_vba_and_buttons(tmp_path: Path) -> None:
    path = tmp_path / "club.xlsm"
    players = tmp_path / "players.csv"
    players.write_text("Name,Present\nAnna,x\nBram,x\nCarla,x\n", encoding="utf-8")
    assert run_cli("new", path, "--players", players).exit_code == 0
    with zipfile.ZipFile(path) as package:
        kept = {n: package.read(n) for n in package.namelist()
                if "vbaProject" in n or "drawing" in n or n.endswith(".vml")}
    assert any("vbaProject" in n for n in kept) and any(n.endswith(".vml") for n in kept)
    for command in ("pair", "recalc"):
        assert run_cli(command, path).exit_code == 0
        with zipfile.ZipFile(path) as package:
            assert {n: package.read(n) for n in kept} == kept
