"""Bad values are named: a date in a Rating, Joined or Left cell, a damaged shared-text
index, a list or a record sent by an xlwings client, a member list in two encodings, and a
character one cannot see are each refused or said with their place, through the command
and the buttons' shared code, in English and Dutch."""

from __future__ import annotations

import datetime as dt
import zipfile
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from keizer_xl.live import buttons
from keizer_xl.workbook.files import FileProblem
from tests.cli.week import openpyxl_book
from tests.conftest import run_cli
from tests.seasons import make_book

PLAYERS = [
    {"Name": n, "Rating": r, "Present": "x"}
    for n, r in [("Anna", 2000), ("Bram", 1900), ("Cor", 1800), ("Dirk", 1700)]
]


def said(output: str) -> str:
    """The output as one line: a long message is wrapped by the terminal's width."""
    return " ".join(output.split())


@pytest.mark.parametrize(
    ("column", "cell", "value", "shown"),
    [
        ("Rating", "B3", dt.datetime(2026, 3, 5), "2026-03-05"),
        ("Joined", "C4", dt.date(2026, 1, 2), "2026-01-02"),
        ("Left", "D5", dt.time(1, 0), "01:00"),
    ],
)
@pytest.mark.parametrize(
    ("language", "problem", "sheet"),
    [
        ("en", "'{shown}' is a date or a time, not a number", "Players"),
        ("nl", "'{shown}' is een datum of een tijd, geen getal", "Players"),
    ],
)
def test_a_date_or_time_where_a_number_belongs_is_named_with_its_cell(
    tmp_path: Path,
    column: str,
    cell: str,
    value: object,
    shown: str,
    language: str,
    problem: str,
    sheet: str,
) -> None:
    people: list[dict[str, Any]] = [dict(p) for p in PLAYERS]
    people[int(cell[1:]) - 2][column] = value
    path = openpyxl_book(tmp_path / "club.xlsx", people)
    before = path.read_bytes()
    for command in ("check", "pair"):
        done = run_cli("--lang", language, command, path)
        assert done.exit_code == 1, done.output
        assert f"{sheet}!{cell}: {problem.format(shown=shown)}" in said(done.output)
    assert path.read_bytes() == before


def _damage(path: Path, index: bytes, start: bytes = b'<c r="A3" t="s">') -> Path:
    """The workbook with cell A3 of the Players sheet (Bram) pointing at shared text
    `index`, as a damaged or hostile file may; its start tag as `start` writes it."""
    damaged = path.with_name(f"damaged-{path.name}")
    with zipfile.ZipFile(path) as old, zipfile.ZipFile(damaged, "w", zipfile.ZIP_DEFLATED) as new:
        for info in old.infolist():
            data = old.read(info)
            if info.filename == "xl/worksheets/sheet1.xml":
                at = data.index(b'<c r="A3" t="s"><v>')
                end = data.index(b"</v>", at)
                data = data[:at] + start + b"<v>" + index + data[end:]
            new.writestr(info, data)
    return damaged


@pytest.mark.parametrize("start", [b'<c r="A3" t="s">', b'<c t="s" r="A3">'])  # read by
# patterns, and row by row (a cell whose start tag does not begin with its reference)
@pytest.mark.parametrize("index", [b"-1", b"1.9", b"99999", b" x "])
@pytest.mark.parametrize(
    ("language", "words"),
    [
        (
            "en",
            "sheet 'Players', cell A3: the number of its text in the table of texts, "
            "'{index}', is damaged",
        ),
        (
            "nl",
            "'Players', cel A3: het nummer van zijn tekst in de tabel met teksten, "
            "'{index}', is beschadigd",
        ),
    ],
)
def test_a_damaged_shared_text_index_is_named_with_its_cell(
    tmp_path: Path, start: bytes, index: bytes, language: str, words: str
) -> None:
    path = _damage(make_book(tmp_path / "club.xlsx", PLAYERS), index, start)
    for command in ("check", "recalc", "pair"):
        done = run_cli("--lang", language, command, path)
        assert done.exit_code == 1, done.output
        assert words.format(index=index.decode().strip()) in said(done.output), done.output


def test_a_good_shared_text_index_still_reads(tmp_path: Path) -> None:
    path = _damage(make_book(tmp_path / "club.xlsx", PLAYERS), b"5")  # Anna's text
    done = run_cli("check", path)
    assert done.exit_code == 1  # Anna twice: read as the text it points at
    assert "'Anna' is listed twice" in done.output


class _Sheet:
    """A sheet as an xlwings client sends it, as far as `read_grids` asks."""

    def __init__(self, name: str, values: list[list[object]]) -> None:
        self.name, self.values = name, values
        rows, columns = len(values), max(len(r) for r in values)
        letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"[columns - 1]
        self.used_range = self
        self.address = f"$A$1:${letters}${rows}"
        # the range's sheet, book and app as xlwings Lite's remote engine has them
        engine = SimpleNamespace(name="remote")
        self.sheet = SimpleNamespace(book=SimpleNamespace(app=SimpleNamespace(engine=engine)))

    def options(self, **_: object) -> _Sheet:
        return self

    @property
    def value(self) -> list[list[object]]:
        return self.values

    @property
    def raw_value(self) -> list[list[object]]:
        return self.values


class _Book:
    def __init__(self, sheets: list[_Sheet]) -> None:
        self.sheets = sheets


@pytest.mark.parametrize("value", [[1, 2], {"type": "entity", "text": "Anna"}])
@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", "Players!B3: this cell holds a list or a record, not a value keizer_xl can read"),
        (
            "nl",
            "Players!B3: deze cel bevat een lijst of een record, geen waarde die keizer_xl "
            "kan lezen",
        ),
    ],
)
def test_a_list_or_record_from_an_xlwings_client_is_named_with_its_cell(
    value: object, language: str, words: str
) -> None:
    from keizer_xl.i18n import say

    players = [["Name", "Rating", "Present"], ["Anna", 2000, "x"], ["Bram", value, "x"]]
    book = _Book([_Sheet("Players", players), _Sheet("Rounds", [["Round"]])])
    with pytest.raises(FileProblem) as refused:
        buttons.read_grids(book)
    message = buttons.failure_message(refused.value, "Recalculate", language)
    assert words in message
    assert "Something went wrong" not in say(refused.value.message, language)


LINES = ["Naam;Rating", "Anna de Vries;1800", "Zoë Jansen;1700", "Bram Bakker;1650"]


@pytest.mark.parametrize(
    ("language", "words"),
    [
        (
            "en",
            "members.csv, line 3: this line is written in Windows-1252, the rest of the file "
            "in UTF-8",
        ),
        (
            "nl",
            "members.csv, regel 3: deze regel is geschreven in Windows-1252, de rest van het "
            "bestand in UTF-8",
        ),
    ],
)
def test_a_member_list_in_two_encodings_is_refused_with_the_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, language: str, words: str
) -> None:
    monkeypatch.chdir(tmp_path)
    lines = [*LINES, "Joël Smits;1600"]
    data = (
        "\r\n".join(lines[:2]).encode()
        + b"\r\n"
        + lines[2].encode("cp1252")
        + b"\r\n"
        + "\r\n".join(lines[3:]).encode()
        + b"\r\n"
    )
    Path("members.csv").write_bytes(data)
    done = run_cli("--lang", language, "new", "club.xlsx", "--players", "members.csv")
    assert done.exit_code == 1, done.output
    assert words in said(done.output)
    assert not Path("club.xlsx").exists()


@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig", "cp1252"])
def test_a_member_list_in_one_encoding_is_read_whole(tmp_path: Path, encoding: str) -> None:
    source = tmp_path / "members.csv"
    source.write_bytes("\r\n".join(LINES).encode(encoding))
    done = run_cli("new", tmp_path / "club.xlsx", "--players", source)
    assert done.exit_code == 0, done.output
    from tests.cli.week import sheet

    names = [str(r[0]) for r in sheet(tmp_path / "club.xlsx", "Players")[1:] if r[0]]
    assert names == ["Anna de Vries", "Zoë Jansen", "Bram Bakker"]


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", "'1-0\\u200b' is not a result"),
        ("nl", "'1-0\\u200b' is geen uitslag"),
    ],
)
def test_a_character_one_cannot_see_is_shown(tmp_path: Path, language: str, words: str) -> None:
    rows = [[1, 1, "Anna", "Bram", "1-0\u200b"], [1, 2, "Cor", "Dirk", "0-1"]]
    path = openpyxl_book(tmp_path / "club.xlsx", PLAYERS, rows)
    done = run_cli("--lang", language, "recalc", path)
    assert done.exit_code == 1
    assert f"Rounds!E2: {words}" in said(done.output), done.output
    assert "\u200b" not in done.output
