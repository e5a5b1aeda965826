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
    save_edits(
        path,
        [
            SheetEdit("Settings", {(8, 1): None}),  # a note where a setting goes
            SheetEdit("Players", {(5, 3): None}),
        ],
        backup=False,
    )  # Daan: round 1
    return path


ADDED = ("Crosstable", "Progress")  # sheets of version 0.2 that a 0.1 workbook gets


def _assert_only_owned_parts_changed(before: dict[str, bytes], path: Path) -> None:
    """Every part as it was, but the owned sheets' cells and the two sheets added: their
    parts, and one entry each in the workbook, its relationships and the content types."""
    after = members(path)
    parts = sheet_parts(path)
    owned = {parts[name] for name in OWNED}
    added = {parts[name] for name in ADDED}
    assert added.isdisjoint(before) and set(after) == set(before) | added
    for name, data in before.items():
        if name in owned:
            assert outside_cells(after[name]) == outside_cells(data), name
        elif name == "xl/workbook.xml":  # recompute formulas on load; the added sheets
            assert _without(
                after[name],
                rb' fullCalcOnLoad="1"',
                rb'<sheet name="(?:Crosstable|Progress)" sheetId="\d+" r:id="rId\d+"/>',
            ) == _without(data, rb' fullCalcOnLoad="1"')
        elif name == "xl/_rels/workbook.xml.rels":
            assert _without(
                after[name],
                rb'<Relationship Id="rId\d+" Type="[^"]+/worksheet" '
                rb'Target="worksheets/sheet\d+\.xml"/>',
            ) == _without(
                data,
                rb'<Relationship Id="rId\d+" Type="[^"]+/worksheet" '
                rb'Target="worksheets/sheet\d+\.xml"/>',
            ), name
            assert after[name].count(b"<Relationship ") == data.count(b"<Relationship ") + 2
        elif name == "[Content_Types].xml":
            extra = b"".join(
                b'<Override PartName="/' + part.encode() + b'" ContentType="'
                b"application/vnd.openxmlformats-officedocument.spreadsheetml"
                b'.worksheet+xml"/>'
                for part in sorted(added)
            )
            assert after[name].replace(extra, b"") == data or _sorted_overrides(
                after[name]
            ) == _sorted_overrides(data + extra), name
        else:
            assert after[name] == data, name


def _without(data: bytes, *patterns: bytes) -> bytes:
    import re

    for pattern in patterns:
        data = re.sub(pattern, b"", data)
    return data


def _sorted_overrides(data: bytes) -> list[bytes]:
    import re

    return sorted(re.findall(rb"<Override [^>]*/>", data))


@pytest.mark.parametrize("name", WORKBOOKS)
def test_recalc_and_pair_keep_every_other_part(tmp_path: Path, name: str) -> None:
    path = _prepare(name, tmp_path)
    before, before_entries = members(path), entries(path)
    assert any(n.endswith("vbaProject.bin") for n in before)
    for command in ("recalc", "pair", "recalc"):
        result = run_cli(command, path)
        assert result.exit_code == 0, result.output + result.stderr
        _assert_only_owned_parts_changed(before, path)
        assert entries(path)[: len(before_entries)] == before_entries


def test_our_own_macro_workbook_keeps_its_vba_and_buttons(tmp_path: Path) -> None:
    path = tmp_path / "club.xlsm"
    players = tmp_path / "players.csv"
    players.write_text("Name,Present\nAnna,x\nBram,x\nCarla,x\n", encoding="utf-8")
    assert run_cli("new", path, "--players", players).exit_code == 0
    with zipfile.ZipFile(path) as package:
        kept = {
            n: package.read(n)
            for n in package.namelist()
            if "vbaProject" in n or "drawing" in n or n.endswith(".vml")
        }
    assert any("vbaProject" in n for n in kept) and any(n.endswith(".vml") for n in kept)
    for command in ("pair", "recalc"):
        assert run_cli(command, path).exit_code == 0
        with zipfile.ZipFile(path) as package:
            assert {n: package.read(n) for n in kept} == kept
