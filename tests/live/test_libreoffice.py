"""The workbook's buttons in LibreOffice Calc, for real: `keizer-xl new` makes the .xlsm,
`keizer-xl libreoffice --profile` sets up a throwaway profile, headless LibreOffice opens
the workbook and fires each form button's own macro (the VBA bridge hands it to
keizer_xl's Python macro), and the cells it leaves are compared with what the command
line writes into a copy of the same workbook."""

from __future__ import annotations

import csv
import json
import os
import subprocess
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from click.testing import CliRunner

from keizer_xl.cli.libreoffice_setup import MACRO_NAME
from keizer_xl.cli.main import main as cli
from tests.programs import need

ROOT = Path(__file__).resolve().parents[2]
SYSTEM_PYTHON = os.environ.get("KEIZER_UNO_PYTHON", "/usr/bin/python3")
LOG = "keizer_xl_buttons.log"

pytestmark = [pytest.mark.programs("soffice"), pytest.mark.libreoffice]


def _keizer(*args: str) -> str:
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


@pytest.fixture(scope="module")
def profile(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A throwaway LibreOffice profile with keizer_xl's macro, as the command puts it."""
    folder = tmp_path_factory.mktemp("profile")
    _keizer("libreoffice", "--profile", str(folder))
    assert (folder / "user" / "Scripts" / "python" / MACRO_NAME).is_file()
    return folder


def _club(folder: Path, language: str = "en", players: int = 11) -> Path:
    members = folder / "members.csv"
    with members.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["Name", "Rating"])
        for i in range(1, players + 1):
            writer.writerow([f"Player {i:02d}", 2300 - 10 * i])
    book = folder / "club.xlsm"
    _keizer("new", str(book), "--players", str(members), "--lang", language)
    return book


def _click(profile: Path, book: Path, steps: list[dict[str, Any]]) -> list[Any]:
    need("soffice")
    script = book.with_name("steps.json")
    script.write_text(json.dumps(steps), encoding="utf-8")
    result = subprocess.run(
        [
            SYSTEM_PYTHON,
            str(ROOT / "tests" / "uno_buttons.py"),
            str(profile),
            str(book),
            str(script),
        ],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
        env={**os.environ, "SAL_USE_VCLPLUGIN": "svp"},
    )
    assert result.returncode == 0, result.stderr[-3000:]
    results: list[Any] = json.loads(result.stdout.splitlines()[-1])
    return results


def _cells(path: Path) -> dict[str, dict[str, Any]]:
    """Every sheet's non-empty cells, numbers as floats (LibreOffice stores 1 as 1.0)."""
    book = openpyxl.load_workbook(path)
    out: dict[str, dict[str, Any]] = {}
    for sheet in book.worksheets:
        out[sheet.title] = {
            cell.coordinate: float(cell.value) if isinstance(cell.value, int) else cell.value
            for row in sheet.iter_rows()
            for cell in row
            if cell.value not in (None, "")
        }
    return out


def _cli_on_copy(command: str, source: Path, tmp_path: Path) -> Path:
    """What `keizer-xl COMMAND` makes of a copy of `source`."""
    copy = tmp_path / f"cli-{command}-{source.name}"
    copy.write_bytes(source.read_bytes())
    _keizer(command, str(copy))
    return copy


def _column(book: Path, sheet: str, header: str) -> str:
    row = next(openpyxl.load_workbook(book)[sheet].iter_rows(max_row=1))
    return next(cell.column_letter for cell in row if cell.value == header)


def _games(path: Path, round_no: int) -> list[int]:
    """The Rounds rows of a round's games (a bye has no Black)."""
    sheet = openpyxl.load_workbook(path)["Rounds"]
    return [
        row[0].row
        for row in sheet.iter_rows(min_row=2)
        if row[0].value in (round_no, float(round_no)) and row[3].value not in (None, "")
    ]


def test_a_week_in_libreoffice_writes_what_the_command_writes(
    profile: Path, tmp_path: Path
) -> None:
    """Twelve present (six boards, no bye): pair, results, recalculate, pair again, undo, a
    bad result, a date for a round and a formula's error, in one LibreOffice session, the
    document saved only as copies."""
    book = _club(tmp_path, players=12)
    on_disk = book.read_bytes()
    present = _column(book, "Players", "Present")
    joined = _column(book, "Players", "Joined")
    tick = [["Players", f"{present}{row}", "x"] for row in range(2, 14)]
    scores = ["1-0", "0-1", "½-½", "1-0", "0-1", "1-0"]
    results = [["Rounds", f"E{row}", score] for row, score in enumerate(scores, start=2)]
    names = [
        "before_pair",
        "after_pair",
        "before_recalc",
        "after_recalc",
        "after_pair2",
        "after_unpair",
        "bad",
        "after_bad",
    ]
    copies = {name: tmp_path / f"{name}.xlsx" for name in names}
    done = _click(
        profile,
        book,
        [
            {"set": tick},
            {"copy": str(copies["before_pair"])},
            {"click": "PairNextRound"},
            {"copy": str(copies["after_pair"])},
            {"state": None},
            {"set": results},
            {"copy": str(copies["before_recalc"])},
            {"click": "Recalculate"},
            {"copy": str(copies["after_recalc"])},
            {"basic": ["LibreOfficeBridge.HandOver", "recalculate"]},
            {"click": "PairNextRound"},
            {"copy": str(copies["after_pair2"])},
            {"click": "UndoLastPairing"},
            {"copy": str(copies["after_unpair"])},
            {"set": [["Rounds", "E2", "l-0"]]},
            {"copy": str(copies["bad"])},
            {"click": "Recalculate"},
            {"copy": str(copies["after_bad"])},
            {"set": [["Rounds", "E2", "1-0"], ["Players", f"{joined}2", {"date": "2026-12-01"}]]},
            {"set": [["Rounds", "E3", {"formula": "=NA()"}]]},
            {"click": "Recalculate"},
        ],
    )
    assert done[2]["url"].endswith("KeizerXL.PairNextRound?language=Basic&location=document")
    # the bridge hands a click over without a word of its own (a second Recalculate)
    handed = next(step for step in done if step and "answer" in step)
    assert handed["answer"] == ""
    # the document is changed and open (LibreOffice's lock beside it), not saved
    assert done[4] == {"modified": True, "lock": True}
    assert book.read_bytes() == on_disk

    assert _games(copies["after_pair"], 1) == list(range(2, 8))
    for before, after, command in [
        ("before_pair", "after_pair", "pair"),
        ("before_recalc", "after_recalc", "recalc"),
        ("after_recalc", "after_pair2", "pair"),
        ("after_pair2", "after_unpair", "unpair"),
    ]:
        written = _cells(copies[after])
        assert written != _cells(copies[before]), after
        assert written == _cells(_cli_on_copy(command, copies[before], tmp_path)), after
    assert _cells(copies["after_unpair"]) == _cells(copies["after_recalc"])
    # the refusal changed no cell, and said where the problem is
    assert _cells(copies["after_bad"]) == _cells(copies["bad"])
    said = (profile / "user" / LOG).read_text(encoding="utf-8")
    assert "Rounds!E2: 'l-0' is not a result" in said
    # a date typed where a round is meant comes as a date, and is said as one
    assert f"Players!{joined}2: '2026-12-01' is a date or a time, not a number" in said
    # and a formula's error as the error it shows
    assert "Rounds!E3: the cell shows the error #N/A" in said


def test_publish_and_the_workbooks_language(profile: Path, tmp_path: Path) -> None:
    """A Dutch workbook: its refusal is said in Dutch; Publish writes the site beside it."""
    book = _club(tmp_path, "nl", players=6)
    sheets = openpyxl.load_workbook(book).sheetnames
    players, rounds = sheets[0], sheets[1]
    present = _column(book, players, "Aanwezig")
    tick = [[players, f"{present}{row}", "x"] for row in range(2, 8)]
    log = profile / "user" / LOG
    log.unlink(missing_ok=True)
    _click(
        profile,
        book,
        [
            {"set": tick},
            {"click": "PairNextRound"},
            {"set": [[rounds, "E2", "l-0"]]},
            {"click": "Recalculate"},
            {"set": [[rounds, "E2", "1-0"], [rounds, "E3", "0-1"], [rounds, "E4", "½-½"]]},
            {"click": "Recalculate"},
            {"click": "PublishSite"},
        ],
    )
    said = log.read_text(encoding="utf-8")
    assert "'l-0' is geen uitslag" in said, said
    site = book.with_name(f"{book.stem}_site")
    assert (site / "index.html").is_file()
    assert "Player 01" in (site / "index.html").read_text(encoding="utf-8")
