"""The commands for files of other programs: `export --trf` and `new --from`."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import run_cli


def test_export_reads_the_workbook_and_changes_nothing(tmp_path: Path) -> None:
    assert run_cli("demo", "--folder", tmp_path).exit_code == 0
    book = tmp_path / "keizer_demo.xlsx"
    before = book.read_bytes()
    result = run_cli("export", book, "--trf", tmp_path / "out.trf", "--name", "Keizer 1951")
    assert result.exit_code == 0, result.output
    assert result.output == f"Wrote {tmp_path / 'out.trf'}: 10 players, 2 rounds (TRF-16).\n"
    assert book.read_bytes() == before
    assert (tmp_path / "out.trf").read_text("utf-8").startswith("012 Keizer 1951\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "keizer_demo.backup.xlsx",
        "keizer_demo.xlsx",
        "out.trf",
    ]  # no temporary file left


def test_new_from_trf_says_what_it_made(tmp_path: Path) -> None:
    assert run_cli("demo", "--folder", tmp_path).exit_code == 0
    trf = tmp_path / "demo.trf"
    assert run_cli("export", tmp_path / "keizer_demo.xlsx", "--trf", trf).exit_code == 0
    result = run_cli("new", tmp_path / "club.xlsm", "--from", trf)
    assert result.exit_code == 0, result.output
    assert result.output == (
        f"Made {tmp_path / 'club.xlsm'} from {trf}: 10 players, 2 rounds, "
        f"standings written. Next: keizer-xl pair {tmp_path / 'club.xlsm'}\n"
    )
    result = run_cli("new", tmp_path / "club.xlsm", "--from", trf)
    assert result.exit_code == 1
    assert "already exists" in result.output


def test_typed_wrongly(tmp_path: Path) -> None:
    trf = tmp_path / "x.trf"
    trf.write_text("012 x\n", encoding="utf-8")
    players = tmp_path / "p.csv"
    players.write_text("Name\nAnna\n", encoding="utf-8")
    both = run_cli("new", tmp_path / "a.xlsx", "--from", trf, "--players", players)
    assert both.exit_code == 2 and "not both" in both.output
    other = run_cli("new", tmp_path / "a.xlsx", "--from", players)
    assert other.exit_code == 2 and "or a TRF file (.trf)" in other.output
    missing = run_cli("export", tmp_path / "a.xlsx")
    assert missing.exit_code == 2 and "--trf" in missing.output
    empty = run_cli("new", tmp_path / "a.xlsx", "--from", trf)
    assert empty.exit_code == 1
    assert "x.trf: no player lines (starting with 001): is this a TRF file?" in empty.output
    gone = run_cli("new", tmp_path / "a.xlsx", "--from", tmp_path / "gone.trf")
    assert gone.exit_code == 1 and "there is no such file" in gone.output
    assert not (tmp_path / "a.xlsx").exists()
