"""One set of rules for every door: a value is checked the same way whether it comes from
the Players sheet, a member list, a rating list, a TRF or a KeizerForClubs file, and what
an import would bring in that `check` refuses is refused by the import, naming its line.
Each case through the command, as a secretary meets it."""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
from contextlib import closing
from pathlib import Path

import pytest
from python_calamine import CalamineWorkbook

from keizer_xl.core.words import MAX_RATING, MAX_ROUND
from tests.conftest import run_cli
from tests.seasons import make_book

KFC = Path(__file__).parents[1] / "fixtures" / "kfc" / "Test-Tournament.s3db"


def names(book: Path) -> list[str]:
    grid = CalamineWorkbook.from_path(str(book)).get_sheet_by_name("Players").to_python()
    return [str(row[0]) for row in grid[1:] if row and row[0] != ""]


def problem_lines(output: str) -> list[str]:
    return [line.strip() for line in output.splitlines() if line.startswith("  ")]


# -- the same range at every door -----------------------------------------------------------


@pytest.mark.parametrize("rating", ["99999", "1e308", "10001"])
def test_the_sheet_and_the_member_list_refuse_a_rating_alike(tmp_path: Path, rating: str) -> None:
    """The Players sheet's check and `new --players` give the same words for one rating."""
    listed = tmp_path / "leden.csv"
    listed.write_text(f"Naam,Rating\nAnna,1600\nBram,{rating}\n", encoding="utf-8")
    made = run_cli("new", tmp_path / "club.xlsx", "--players", listed)
    assert made.exit_code == 1, made.output
    assert not (tmp_path / "club.xlsx").exists()
    sheet = make_book(
        tmp_path / "sheet.xlsx",
        [{"Name": "Anna", "Rating": 1600}, {"Name": "Bram", "Rating": rating}],
    )
    checked = run_cli("check", sheet)
    assert checked.exit_code == 1
    (from_sheet,) = problem_lines(checked.output)
    (from_list,) = problem_lines(made.output)
    assert from_sheet.startswith("Players!B3: ")
    assert from_list.startswith("leden.csv, line 3: Rating: ")
    assert from_list.removeprefix("leden.csv, line 3: Rating: ") == from_sheet.removeprefix(
        "Players!B3: "
    )
    assert f"{MAX_RATING:,}" in from_sheet


@pytest.mark.parametrize("rating", ["99999", "1e308"])
def test_ratings_refuses_an_out_of_range_rating_naming_the_line(
    tmp_path: Path, rating: str
) -> None:
    book = make_book(
        tmp_path / "club.xlsx",
        [{"Name": "Anna de Vries", "Rating": 1650}, {"Name": "Bram Bakker", "Rating": 1500}],
    )
    listed = tmp_path / "knsb.csv"
    listed.write_bytes(
        (
            "Relatienummer;Naam;Rating\n8001;Vries, Anna de;1712\n"
            f"8002;Bakker, Bram;{rating}\n8003;Somebody, Else;1e999\n"
        ).encode("cp1252")
    )
    before = book.read_bytes()
    result = run_cli("ratings", book, listed)
    assert result.exit_code == 1, result.output
    assert problem_lines(result.output) == [
        f"knsb.csv, line 3: Bakker, Bram: '{rating}' is more than {MAX_RATING:,}, outside "
        "the sensible range (rating)"
    ]  # line 4 is nobody of the club's: never read further
    assert book.read_bytes() == before
    assert run_cli("check", book).exit_code == 0


def test_out_of_range_rounds_in_a_member_list_with_their_lines(tmp_path: Path) -> None:
    listed = tmp_path / "leden.csv"
    listed.write_text(
        "Naam;Rating;Vanaf ronde;Tot ronde;Aanwezig\nAnna;1600;5000;;x\n"
        "Bram;1500;4;2;x\nCarla;1400;;;misschien\nDaan;1300;2;;x\n",
        encoding="utf-8",
    )
    result = run_cli("new", tmp_path / "club.xlsx", "--players", listed)
    assert result.exit_code == 1, result.output
    assert problem_lines(result.output) == [
        f"leden.csv, line 2: Vanaf ronde: '5000' is more than {MAX_ROUND:,}, outside the "
        "sensible range (round)",
        "leden.csv, line 3: Tot ronde: Bram leaves after round 2 but joins in round 4",
        "leden.csv, line 4: Aanwezig: 'misschien' is not an attendance; use x, yes, y, 1, ja "
        "or ✓ for present; excused, club or unexcused; blank, 0, n, no or nee for absent",
    ]
    assert not (tmp_path / "club.xlsx").exists()


def test_a_member_list_check_accepts_makes_a_workbook_check_accepts(tmp_path: Path) -> None:
    listed = tmp_path / "leden.csv"
    listed.write_text(
        "Naam;Rating;Vanaf ronde;Tot ronde;Aanwezig\nAnna;1.600;;;x\n"
        "Bram;-;2;;afgemeld\nCarla;1400;;3;\n",
        encoding="utf-8",
    )
    book = tmp_path / "club.xlsx"
    assert run_cli("new", book, "--players", listed).exit_code == 0
    result = run_cli("check", book)
    assert result.exit_code == 0, result.output


# -- quotes, byte-order marks and zero-width spaces -------------------------------------------


def test_an_unbalanced_quote_is_a_problem_with_its_line_not_a_merge(tmp_path: Path) -> None:
    listed = tmp_path / "leden.csv"
    listed.write_text(
        'Naam,Rating,Telefoon\nAnna,1600,0612\n"Bram,1500,0613\nCarla,1400,0614\nDaan,1300,0615\n',
        encoding="utf-8",
    )
    result = run_cli("new", tmp_path / "club.xlsx", "--players", listed)
    assert result.exit_code == 1, result.output
    assert problem_lines(result.output) == [
        'leden.csv, line 3: a quote (") on this line is not closed before the end of the '
        "file; close it or take it out"
    ]
    assert not (tmp_path / "club.xlsx").exists()


def test_a_quote_closed_lines_later_is_named_too(tmp_path: Path) -> None:
    listed = tmp_path / "leden.csv"
    listed.write_text(
        'Naam,Rating,Telefoon\n"Anna,1600,0612\nBram",1500,0613\nCarla,1400,0614\n',
        encoding="utf-8",
    )
    result = run_cli("new", tmp_path / "club.xlsx", "--players", listed)
    assert result.exit_code == 1, result.output
    assert problem_lines(result.output) == [
        'leden.csv, line 2: a quote (") on this line is not closed before line 3; close it or '
        "take it out"
    ]


def test_a_quoted_cell_may_still_hold_a_line_break(tmp_path: Path) -> None:
    """An address typed over two lines of one cell, as Excel writes it, is no merge."""
    listed = tmp_path / "leden.csv"
    listed.write_text(
        'Naam,Rating,Adres,Telefoon\nAnna,1600,"Dorpsstraat 1\n1234 AB Dorp",0612\n'
        "Bram,1500,,0613\n",
        encoding="utf-8",
    )
    book = tmp_path / "club.xlsx"
    result = run_cli("new", book, "--players", listed)
    assert result.exit_code == 0, result.output
    assert names(book) == ["Anna", "Bram"]


@pytest.mark.parametrize("invisible", ["\ufeff", "\u200b", "\u200d", "\u00ad", "\u2060"])
def test_an_invisible_character_never_makes_a_twin(tmp_path: Path, invisible: str) -> None:
    listed = tmp_path / "leden.csv"
    listed.write_bytes(f"\ufeffNaam;Rating\nAnna;1600\n{invisible}Anna;1500\nBram;1400\n".encode())
    result = run_cli("new", tmp_path / "club.xlsx", "--players", listed)
    assert result.exit_code == 1, result.output
    assert problem_lines(result.output) == [
        "leden.csv, line 3: 'Anna' is listed twice (also on line 2); names must be unique"
    ]


def test_invisible_characters_are_taken_out_of_a_name(tmp_path: Path) -> None:
    listed = tmp_path / "leden.csv"
    listed.write_bytes(
        "Naam;Rating\nAn\u200bna de\u00a0Vries;1600\nBram\ufeff;1400\n".encode("utf-8")
    )
    book = tmp_path / "club.xlsx"
    assert run_cli("new", book, "--players", listed).exit_code == 0
    assert names(book) == ["Anna de Vries", "Bram"]


def test_the_players_sheet_tidies_names_the_same_way(tmp_path: Path) -> None:
    book = make_book(tmp_path / "club.xlsx", [{"Name": "Anna"}, {"Name": "\u200bAnna"}])
    result = run_cli("check", book)
    assert result.exit_code == 1
    assert problem_lines(result.output) == [
        "Players!A3: 'Anna' is listed twice (also in row 2); names must be unique"
    ]


def test_a_rating_list_name_with_a_zero_width_space_still_matches(tmp_path: Path) -> None:
    book = make_book(tmp_path / "club.xlsx", [{"Name": "Anna de Vries", "Rating": 1650}])
    listed = tmp_path / "knsb.csv"
    listed.write_text("Naam;Rating\nVries, An\u200bna de;1712\n", encoding="utf-8")
    result = run_cli("ratings", book, listed)
    assert result.exit_code == 0, result.output
    assert "Anna de Vries: 1650 → 1712" in result.output


# -- TRF and KeizerForClubs -------------------------------------------------------------------


def exported(tmp_path: Path) -> str:
    from tests.seasons import golden_book

    book = golden_book(tmp_path / "season.xlsx", "A")
    out = tmp_path / "season.trf"
    assert run_cli("export", book, "--trf", out).exit_code == 0
    return out.read_text(encoding="utf-8")


@pytest.mark.parametrize(("old", "new"), [(" w ", " 6 "), (" b ", " ~ "), ("   2 ", "   ² ")])
def test_a_trf_file_with_flipped_characters_gets_a_clear_message(
    tmp_path: Path, old: str, new: str
) -> None:
    text = exported(tmp_path)
    lines = text.splitlines()
    at = next(n for n, line in enumerate(lines) if line.startswith("001") and old in line[91:])
    first = 91 + lines[at][91:].index(old)
    lines[at] = lines[at][:first] + new + lines[at][first + len(old) :]
    flipped = tmp_path / "flipped.trf"
    flipped.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = run_cli("new", tmp_path / "club.xlsx", "--from", flipped)
    assert result.exit_code == 1, result.output
    assert f"flipped.trf, line {at + 1}: round" in result.output
    assert "Please report this" not in result.output
    assert not (tmp_path / "club.xlsx").exists()


def test_a_trf_record_out_of_range_is_refused_with_its_line(tmp_path: Path) -> None:
    text = exported(tmp_path) + "KZP    3 joined 5000\n"
    source = tmp_path / "season.trf"
    source.write_text(text, encoding="utf-8")
    result = run_cli("new", tmp_path / "club.xlsx", "--from", source)
    assert result.exit_code == 1, result.output
    line = len(text.splitlines())
    assert problem_lines(result.output) == [
        f"season.trf, line {line}: '5000' is more than {MAX_ROUND:,}, outside the sensible "
        "range (round)"
    ]


def test_a_trf_name_with_an_invisible_character_is_one_player(tmp_path: Path) -> None:
    text = exported(tmp_path)
    lines = text.splitlines()
    at = next(n for n, line in enumerate(lines) if line.startswith("001"))
    name = lines[at][14:47].rstrip()
    lines[at] = lines[at][:14] + f"{name[:2]}\u200b{name[2:]}".ljust(33)[:33] + lines[at][47:]
    source = tmp_path / "season.trf"
    source.write_text("\n".join(lines) + "\n", encoding="utf-8")
    book = tmp_path / "club.xlsx"
    result = run_cli("new", book, "--from", source)
    assert result.exit_code == 0, result.output
    assert name in names(book)


def kfc_copy(tmp_path: Path, *changes: str) -> Path:
    copy = tmp_path / "tournament.s3db"
    shutil.copyfile(KFC, copy)
    with closing(sqlite3.connect(copy)) as db:
        for change in changes:
            db.execute(change)
        db.commit()
    return copy


def test_a_kfc_rating_out_of_range_is_refused(tmp_path: Path) -> None:
    source = kfc_copy(tmp_path, "UPDATE Player SET rating = 99999 WHERE id = 2")
    result = run_cli("new", tmp_path / "club.xlsx", "--from", source)
    assert result.exit_code == 1, result.output
    assert problem_lines(result.output) == [
        f"tournament.s3db: player 2 (Ninedena): '99999' is more than {MAX_RATING:,}, "
        "outside the sensible range (rating)"
    ]
    assert not (tmp_path / "club.xlsx").exists()


@pytest.mark.parametrize("round_no", [5_000, 1_000_000])
def test_a_kfc_round_out_of_range_is_refused(tmp_path: Path, round_no: int) -> None:
    """Said once, for its row: not a million rounds "without rows" before it."""
    source = kfc_copy(tmp_path, f"UPDATE Pairing SET Rnd = {round_no} WHERE Rnd = 1 AND board = 1")
    result = run_cli("new", tmp_path / "club.xlsx", "--from", source)
    assert result.exit_code == 1, result.output
    assert problem_lines(result.output) == [
        f"tournament.s3db: round {round_no}, board 1: '{round_no}' is more than "
        f"{MAX_ROUND:,}, outside the sensible range"
    ]


def test_a_kfc_name_with_an_invisible_character_is_tidied(tmp_path: Path) -> None:
    source = kfc_copy(
        tmp_path, "UPDATE Player SET name = 'Inan' || char(8203) || 'na' WHERE id = 1"
    )
    book = tmp_path / "club.xlsx"
    assert run_cli("new", book, "--from", source).exit_code == 0
    assert "Inanna" in names(book)


# -- long names and a full disk ---------------------------------------------------------------


def test_publish_holds_the_longest_name(tmp_path: Path) -> None:
    """A name as long as a name may be (`MAX_NAME`, 200 characters) on every page, PDF
    and text: shortened where it would not fit."""
    from keizer_xl.core.words import MAX_NAME

    long = "Anna" + "a" * (MAX_NAME - 4)
    book = make_book(
        tmp_path / "club.xlsx",
        [
            {"Name": long, "Rating": 1800, "Present": "x"},
            {"Name": "Bram", "Rating": 1700, "Present": "x"},
            {"Name": "Carla", "Rating": 1600, "Present": "x"},
        ],
    )
    assert run_cli("pair", book).exit_code == 0
    site = tmp_path / "site"
    result = run_cli("publish", book, "--pdf", "--out", site)
    assert result.exit_code == 0, result.output
    assert (site / "standings.pdf").stat().st_size > 1000
    assert (site / "pairings.pdf").stat().st_size > 1000
    assert run_cli("publish", book, "--out", site).exit_code == 0
    index = (site / "index.html").read_text(encoding="utf-8")
    assert long not in index and long[:50] in index and "…" in index
    text = run_cli("publish", book, "--text", "--out", site)
    assert text.exit_code == 0 and "Bram" in text.output
    exported = run_cli("export", book, "--trf", tmp_path / "out.trf")
    assert exported.exit_code == 0 and long not in exported.output


@pytest.fixture
def full_disk(tmp_path: Path) -> Path:
    """A folder on a file system of 64 KB (a tmpfs: needs root, as CI has)."""
    folder = tmp_path / "tiny"
    folder.mkdir()
    made = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(folder)],
        capture_output=True,
        check=False,
    )
    if made.returncode != 0:
        pytest.skip("cannot mount a small file system here (needs root)")
    yield folder
    subprocess.run(["umount", str(folder)], check=False)


@pytest.mark.programs  # mount and umount, for the small file system
def test_new_players_on_a_full_disk_names_the_file(tmp_path: Path, full_disk: Path) -> None:
    listed = tmp_path / "leden.csv"
    listed.write_text(
        "Naam,Rating,Notities\n" + "".join(f"Speler {n},1500,{'x' * 200}\n" for n in range(2_000)),
        encoding="utf-8",
    )
    book = full_disk / "club.xlsx"
    result = run_cli("new", book, "--players", listed)
    assert result.exit_code == 1, result.output
    assert f"disk full while writing {book}; nothing was changed" in result.output
    assert "Please report this" not in result.output and "Traceback" not in result.output
    assert list(full_disk.iterdir()) == []
