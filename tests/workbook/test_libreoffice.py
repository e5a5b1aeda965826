"""A real spreadsheet program on what keizer_xl writes: LibreOffice headless opens and
renders every workbook after `new`, `pair` and `recalc`, and a workbook LibreOffice
re-saved reads back with the same standings."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.conftest import run_cli
from tests.helpers_package import libreoffice_convert
from tests.seasons import golden_book, golden_rows

pytestmark = [pytest.mark.libreoffice, pytest.mark.usefixtures("soffice_installed")]


@pytest.fixture(scope="module")
def profile(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("lo-profile")


@pytest.mark.parametrize("suffix", [".xlsx", ".xlsm"])
def test_every_written_workbook_renders_to_pdf(tmp_path: Path, profile: Path, suffix: str) -> None:
    path = tmp_path / f"club{suffix}"
    players = tmp_path / "players.csv"
    players.write_text(
        "Name,Rating,Present\n"
        + "".join(f"{p['Name']},{p['Rating']},x\n" for p in golden_rows("A", "players")),
        encoding="utf-8",
    )
    assert run_cli("new", path, "--players", players).exit_code == 0
    stages = {"new": path.read_bytes()}
    assert run_cli("pair", path).exit_code == 0
    stages["pair"] = path.read_bytes()
    assert run_cli("recalc", path).exit_code == 0
    stages["recalc"] = path.read_bytes()
    for stage, data in stages.items():
        copy = tmp_path / stage / path.name
        copy.parent.mkdir()
        copy.write_bytes(data)
        done = libreoffice_convert(copy, "pdf", copy.parent, profile)
        pdf = copy.with_suffix(".pdf")
        assert done.returncode == 0 and pdf.exists(), (stage, done.stdout, done.stderr)
        assert pdf.read_bytes().startswith(b"%PDF") and pdf.stat().st_size > 1000


def test_a_workbook_resaved_by_libreoffice_reads_back(tmp_path: Path, profile: Path) -> None:
    original = golden_book(tmp_path / "club.xlsx", "A")
    resaved_dir = tmp_path / "resaved"
    resaved_dir.mkdir()
    done = libreoffice_convert(original, "xlsx:Calc MS Excel 2007 XML", resaved_dir, profile)
    resaved = resaved_dir / "club.xlsx"
    assert done.returncode == 0 and resaved.exists(), done.stderr
    assert resaved.read_bytes() != original.read_bytes()
    result = run_cli("recalc", resaved)
    assert result.exit_code == 0, result.output + result.stderr
    table = run_cli("standings", resaved)
    lines = [line for line in table.output.splitlines() if "Harrison" in line]
    assert lines and "141" in lines[0]
    # and what keizer_xl wrote into LibreOffice's file opens in LibreOffice again
    again = tmp_path / "again"
    again.mkdir()
    shutil.copy(resaved, again / "club.xlsx")
    assert libreoffice_convert(again / "club.xlsx", "pdf", again, profile).returncode == 0
    assert (again / "club.pdf").exists()
