"""The buttons in xlwings Lite, through the path a secretary takes: `keizer-xl new --lite`
makes the workbook, which carries the main.py Lite runs (read back from its part), and the clicks
run as Lite runs them (`drive.py`: the scripts registered by xlwings' own `@script` and
called through its `custom_scripts_call`, on a book built from the add-in's JSON).

A 60-player club after 37 rounds is clicked through (Recalculate, Pair next round, Undo
last pairing, Pair next round, Publish), and a Dutch workbook with a typing mistake is
refused; under CPython here, and inside Pyodide, where Lite runs them (marked `pyodide`),
with the same actions click by click.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import zipfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest
from click.testing import Result

from keizer_xl import __version__
from keizer_xl.core.model import Game
from keizer_xl.core.season import Season
from keizer_xl.i18n.names import local_name, rest_word
from keizer_xl.workbook import sheetbuttons
from keizer_xl.workbook.liteparts import read_code, requirements_txt
from keizer_xl.workbook.template import build_template
from keizer_xl.workbook.xlsx import SheetEdit, save_edits
from tests.live.test_live import Excel, xw
from tests.seasons import club_season

__all__ = ["xw"]  # the fixture, for pytest

DRIVE = Path(__file__).with_name("drive.py")
PLAYERS, ROUNDS = 60, 37
CLICKS = ["recalculate", "pair_next_round", "undo_last_pairing", "pair_next_round", "publish"]
WRITES = {"setValues", "sheetClearContents", "rangeClearContents", "addSheet"}
MESSAGE_CELLS = (
    sheetbuttons.MESSAGE_ROW - 1,
    sheetbuttons.COLUMN - 1,
    sheetbuttons.MESSAGE_LINES,
)  # zero-based row and column, rows


def season_book(path: Path, season: Season, language: str = "en") -> Path:
    """The season in a Lite workbook, as the secretary has it after its last round: every
    player marked present but one in five."""
    here = "x" if language == "en" else "ja"
    build_template(
        path,
        [
            {"Name": p.name, "Rating": int(p.rating), "Present": None if n % 5 == 4 else here}
            for n, p in enumerate(season.players)
        ],
        language=language,
        lite=True,
    )
    cells: dict[tuple[int, int], Any] = {}
    for row, e in enumerate(season.entries, start=2):
        values = (
            [e.round, e.board, e.white, e.black, e.result.value if e.result else None]
            if isinstance(e, Game)
            else [e.round, None, e.player, None, rest_word(e.reason, language)]
        )
        cells.update({(row, col): v for col, v in enumerate(values, start=1) if v is not None})
    save_edits(path, [SheetEdit(local_name("Rounds", language), cells)], backup=False)
    return path


def main_py(cli: Callable[..., Result], book: Path) -> str:
    """main.py as the workbook carries it for Lite, read back from its part; the same as
    `keizer-xl lite` prints."""
    code = read_code(book)
    assert code is not None
    done = cli("lite", book, "--only", "main.py")
    assert done.exit_code == 0, done.output
    assert done.output == code.properties["main.py"]
    return code.properties["main.py"]


def run_sessions(
    sessions: list[dict[str, Any]],
    folder: Path,
    run: Callable[[list[str]], subprocess.CompletedProcess[str]],
) -> dict[str, Any]:
    plan, out = folder / "sessions.json", folder / "out.json"
    plan.write_text(json.dumps(sessions), encoding="utf-8")
    done = run([str(DRIVE), str(plan), str(out)])
    assert done.returncode == 0, done.stderr[-3000:]
    result: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    return result


def in_cpython(args: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *args], capture_output=True, text=True, check=False, timeout=600
    )


@pytest.fixture(scope="module")
def sessions(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    """The 60 × 37 club in English, and a small Dutch club with a typing mistake."""
    from tests.conftest import run_cli

    folder = tmp_path_factory.mktemp("lite")
    names = [f"Player {n:02d}" for n in range(1, PLAYERS + 1)]
    club = season_book(folder / "club.xlsx", club_season(names, ROUNDS, seed=11, typed=1))
    dutch = season_book(
        folder / "nl.xlsx",
        club_season([f"Speler {n:02d}" for n in range(1, 11)], 3, seed=5),
        language="nl",
    )
    typo = Excel.from_file(dutch)
    typo.set("Ronden", 4, 5, "l-0")  # an l for a 1, in round 1
    return [
        {"main": main_py(run_cli, club), "sheets": Excel.from_file(club).sheets, "clicks": CLICKS},
        {
            "main": main_py(run_cli, dutch),
            "sheets": typo.sheets,
            "clicks": ["pair_next_round", "recalculate"],
        },
    ]


@pytest.fixture(scope="module")
def cpython(
    sessions: list[dict[str, Any]], tmp_path_factory: pytest.TempPathFactory
) -> dict[str, Any]:
    return run_sessions(sessions, tmp_path_factory.mktemp("cpython"), in_cpython)


def message(click: dict[str, Any], sheet: str = "Pairings") -> list[str]:
    """The lines a click wrote below the buttons, from the one write that holds them."""
    (write,) = [
        a
        for a in click["actions"]
        if a["func"] == "setValues" and (a["start_row"], a["start_column"]) == MESSAGE_CELLS[:2]
    ]
    assert len(write["values"]) == MESSAGE_CELLS[2]
    lines = [row[0] for row in write["values"]]
    while lines and lines[-1] in ("", None):
        lines.pop()
    return ["" if line is None else line for line in lines]


def rounds(sheets: dict[str, list[list[Any]]], sheet: str = "Rounds") -> list[Any]:
    return [row[0] for row in sheets[sheet][1:] if row and row[0] is not None]


# -- the scripts as Lite registers them -------------------------------------------------------


@pytest.mark.programs  # the Lite scripts run in a CPython process
def test_the_scripts_name_the_buttons_the_workbook_has(
    cpython: dict[str, Any],
    sessions: list[dict[str, Any]],
    tmp_path: Path,
    cli: Callable[..., Result],
) -> None:
    """main.py as printed registers four scripts with Lite, each bound to a button that
    `keizer-xl new --lite` drew: a shape of that name linking to that cell of the sheet."""
    for language, sheet, result in (
        ("en", "Pairings", cpython["sessions"][0]),
        ("nl", "Indeling", cpython["sessions"][1]),
    ):
        path = tmp_path / f"{language}.xlsx"
        assert cli("--lang", language, "new", path, "--lite").exit_code == 0
        shapes = drawn_buttons(path, sheet)
        registered = {s["function_name"]: s["button"] for s in result["scripts"]}
        assert registered == {
            "pair_next_round": f"[PairNextRound]{sheet}!G2",
            "recalculate": f"[Recalculate]{sheet}!G5",
            "undo_last_pairing": f"[UndoLastPairing]{sheet}!G8",
            "publish": f"[Publish]{sheet}!G11",
        }
        assert sorted(registered.values()) == sorted(
            f"[{name}]{target.removeprefix('#')}" for name, (_, target) in shapes.items()
        )


def drawn_buttons(path: Path, sheet: str) -> dict[str, tuple[str, str]]:
    """The shapes on the sheet's drawing: name -> (text, where its link goes)."""
    with zipfile.ZipFile(path) as z:
        names = z.namelist()
        workbook = z.read("xl/workbook.xml").decode()
        rid = re.search(rf'<sheet name="{sheet}" sheetId="\d+" r:id="(rId\d+)"', workbook)
        assert rid is not None
        rels = z.read("xl/_rels/workbook.xml.rels").decode()
        part = re.search(rf'Id="{rid.group(1)}" Type="[^"]+" Target="([^"]+)"', rels)
        assert part is not None
        sheet_part = "xl/" + part.group(1)
        sheet_rels = sheet_part.replace("worksheets/", "worksheets/_rels/") + ".rels"
        drawing = re.search(
            r'Target="\.\./drawings/(drawing\d+\.xml)"', z.read(sheet_rels).decode()
        )
        assert drawing is not None and f"xl/drawings/{drawing.group(1)}" in names
        xml = z.read(f"xl/drawings/{drawing.group(1)}").decode()
        links = dict(
            re.findall(
                r'Id="(rId\d+)" Type="[^"]+/hyperlink" Target="([^"]+)"',
                z.read(f"xl/drawings/_rels/{drawing.group(1)}.rels").decode(),
            )
        )
    shapes = {}
    for shape in re.findall(r"<xdr:sp\b.*?</xdr:sp>", xml, re.DOTALL):
        name = re.search(r'<xdr:cNvPr id="\d+" name="([^"]+)"', shape)
        link = re.search(r'<a:hlinkClick [^>]*r:id="(rId\d+)"', shape)
        text = "".join(re.findall(r"<a:t>([^<]*)</a:t>", shape))
        assert name is not None and link is not None
        shapes[name.group(1)] = (text, links[link.group(1)])
    return shapes


# -- a season clicked through -------------------------------------------------------------


@pytest.mark.programs  # the Lite scripts run in a CPython process
def test_a_season_of_60_players_clicked_through(
    cpython: dict[str, Any], sessions: list[dict[str, Any]]
) -> None:
    """Round 38 is paired, taken back and paired again, the same; every click writes its
    message below the buttons and prints it; none fails."""
    result = cpython["sessions"][0]
    before = sessions[0]["sheets"]
    recalc, paired, undone, again, published = result["clicks"]
    assert [c["script"] for c in result["clicks"]] == CLICKS
    for click in result["clicks"]:
        assert not any(a["func"] == "alert" for a in click["actions"])
        lines = message(click)
        assert " ".join(lines).split() == click["said"].split()  # wrapped to the column
        assert max(map(len, lines)) <= sheetbuttons.MESSAGE_WIDTH
    assert message(recalc)[0] == f"The Standings are up to date: after round {ROUNDS}."
    assert " ".join(message(paired)).startswith(
        f"Round {ROUNDS + 1} is paired: its boards are on this sheet"
    )
    assert message(undone)[0].startswith(f"Round {ROUNDS + 1} is taken back")
    assert paired["actions"] == again["actions"]
    assert rounds(result["sheets"])[-1] == ROUNDS + 1
    assert rounds(result["sheets"]) == rounds(before) + [ROUNDS + 1] * (
        len(rounds(result["sheets"])) - len(rounds(before))
    )
    written = {a["sheet_position"] for a in paired["actions"] if a["func"] in WRITES}
    names = list(before)
    assert {names[p] for p in written} == {
        "Rounds",
        "Standings",
        "Crosstable",
        "Progress",
        "Pairings",
    }  # Pairings: the message and tonight's stakes
    assert " ".join(message(published)) == (
        "The text for the group chat is on the sheet 'Chat': select its column A, copy, "
        "and paste it into the chat."
    )
    chat = [row[0] if row else None for row in result["sheets"]["Chat"]]
    assert chat[:2] == ["Keizer competition", f"Standings after round {ROUNDS}"]
    assert f"Round {ROUNDS + 1}: pairings" in chat


@pytest.mark.programs  # the clicks run in a Python process of their own
def test_the_clicks_write_what_the_desktop_buttons_write(
    sessions: list[dict[str, Any]], cpython: dict[str, Any], xw: Any
) -> None:
    """The same cells as the desktop buttons (through xlwings on the same book): Lite's
    clicks add only the message below their buttons, and bring no sheet into view."""
    import keizer_xl

    result = cpython["sessions"][0]
    excel = Excel(json.loads(json.dumps(sessions[0]["sheets"])))
    for click, button in zip(
        result["clicks"][:4],
        (
            keizer_xl.recalculate,
            keizer_xl.pair_next_round,
            keizer_xl.undo_last_pairing,
            keizer_xl.pair_next_round,
        ),
        strict=True,
    ):
        book = xw.Book(json=excel.json())
        button(book)
        desktop = json.loads(json.dumps(book.json()))["actions"]
        excel.apply(desktop)
        lite = [
            a for a in click["actions"] if (a["start_row"], a["start_column"]) != MESSAGE_CELLS[:2]
        ]
        assert lite == [a for a in desktop if a["func"] in WRITES], click["script"]
        assert len(click["actions"]) == len(lite) + 1


@pytest.mark.programs  # the Lite scripts run in a CPython process
def test_a_refusal_in_dutch_changes_no_cell_of_the_season(cpython: dict[str, Any]) -> None:
    """A typing mistake: both buttons write nothing but their message, in Dutch, naming the
    cell and saying what to fix."""
    result = cpython["sessions"][1]
    for click, caption in zip(
        result["clicks"], ("Volgende ronde indelen", "Herberekenen"), strict=True
    ):
        assert [(a["func"], a["sheet_position"]) for a in click["actions"]] == [
            ("setValues", list(result["sheets"]).index("Indeling"))
        ]
        lines = message(click)
        assert lines[0] == "Eén probleem in het werkboek; er is niets veranderd. Herstel:", lines
        assert lines[2].startswith("Ronden!E4: 'l-0' is geen uitslag")
        assert lines[-1] == f"Klik dan opnieuw op '{caption}'."
        assert " ".join(lines).split() == click["said"].split()


# -- the same inside Pyodide ------------------------------------------------------------------


@pytest.mark.pyodide
def test_pyodide_clicks_as_cpython_does(
    sessions: list[dict[str, Any]], cpython: dict[str, Any], tmp_path: Path
) -> None:
    """Under 32-bit WebAssembly the clicks write the very same actions, click by click,
    with the xlwings the workbooks' requirements.txt names (Lite's own line)."""
    from tests.pyodide.runner import run_in_pyodide

    def in_pyodide(args: Sequence[str]) -> subprocess.CompletedProcess[str]:
        return run_in_pyodide(args, mounts=[tmp_path])

    inside = run_sessions(sessions, tmp_path, in_pyodide)
    assert inside["platform"] == "emscripten"
    pinned = [
        line.split("==")[1].split()[0]
        for line in requirements_txt().splitlines()
        if line.startswith("xlwings==")
    ]
    assert pinned == [inside["xlwings_version"]], (
        f"the Lite workbooks' requirements.txt pins xlwings {pinned}, and the clicks ran "
        f"{inside['xlwings_version']}: test what the workbooks install"
    )
    for ours, theirs in zip(inside["sessions"], cpython["sessions"], strict=True):
        assert ours["scripts"] == theirs["scripts"]
        assert ours["sheets"] == theirs["sheets"]
        for mine, other in zip(ours["clicks"], theirs["clicks"], strict=True):
            assert (mine["script"], mine["said"]) == (other["script"], other["said"])
            assert mine["actions"] == other["actions"], mine["script"]


# -- the workbook and what to paste ---------------------------------------------------------


def test_new_lite_draws_four_buttons_on_the_pairings_sheet(
    tmp_path: Path, cli: Callable[..., Result]
) -> None:
    path = tmp_path / "club.xlsx"
    done = cli("new", path, "--lite")
    assert done.exit_code == 0, done.output
    assert "keizer-xl lite" in done.output
    assert drawn_buttons(path, "Pairings") == {
        "PairNextRound": ("Pair next round", "#Pairings!G2"),
        "Recalculate": ("Recalculate", "#Pairings!G5"),
        "UndoLastPairing": ("Undo last pairing", "#Pairings!G8"),
        "Publish": ("Publish", "#Pairings!G11"),
    }
    excel = Excel.from_file(path)
    assert excel.cell("Pairings", 14, 7).startswith("To start: Home ▸ Add-ins, add xlwings")
    dutch = tmp_path / "nl.xlsx"
    assert cli("new", dutch, "--lite", "--lang", "nl").exit_code == 0
    assert {text for text, _ in drawn_buttons(dutch, "Indeling").values()} == {
        "Volgende ronde indelen",
        "Herberekenen",
        "Laatste indeling terugdraaien",
        "Publiceren",
    }
    refused = cli("new", tmp_path / "club.xlsm", "--lite")
    assert refused.exit_code == 2 and "is an .xlsx" in refused.output


def test_the_command_line_keeps_the_buttons(tmp_path: Path, cli: Callable[..., Result]) -> None:
    """`keizer-xl pair` and `recalc` on the file leave the buttons' drawing as it was."""
    path = tmp_path / "club.xlsx"
    build_template(
        path, [{"Name": f"P{n}", "Rating": 1500 + n, "Present": "x"} for n in range(6)], lite=True
    )
    with zipfile.ZipFile(path) as z:
        before = {n: z.read(n) for n in z.namelist() if "drawing" in n}
    assert cli("pair", path).exit_code == 0
    with zipfile.ZipFile(path) as z:
        assert {n: z.read(n) for n in z.namelist() if "drawing" in n} == before


def test_new_lite_from_a_member_list(tmp_path: Path, cli: Callable[..., Result]) -> None:
    members = tmp_path / "leden.csv"
    members.write_text("Naam;Rating\nAnna;1800\nBram;1700\n", encoding="utf-8")
    path = tmp_path / "club.xlsx"
    done = cli("new", path, "--players", members, "--lite")
    assert done.exit_code == 0, done.output
    assert set(drawn_buttons(path, "Pairings")) == {
        "PairNextRound",
        "Recalculate",
        "UndoLastPairing",
        "Publish",
    }


def test_keizer_xl_lite_prints_main_py_and_requirements(
    tmp_path: Path, cli: Callable[..., Result]
) -> None:
    done = cli("lite")
    assert done.exit_code == 0
    assert (
        "from keizer_xl.lite import pair_next_round, publish, recalculate, "
        "undo_last_pairing\n" in done.output
    )
    assert f"\nkeizer-xl=={__version__}\n" in done.output
    assert "main.py (xlwings Lite's first tab):" in done.output
    requirements = cli("lite", "--only", "requirements.txt").output.splitlines()
    assert requirements[-1] == f"keizer-xl=={__version__}"
    assert requirements[0].startswith("xlwings==") and requirements[0].endswith("  # required")
    assert "keep Lite's own lines (those marked # required)" in done.output
    dutch = tmp_path / "nl.xlsx"
    build_template(dutch, language="nl", lite=True)
    said = cli("lite", dutch)
    assert 'pair_next_round, recalculate, undo_last_pairing, publish = scripts("nl")' in said.output
    assert "klik dan op de knoppen op het blad Indeling" in said.output
    assert cli("lite", tmp_path / "missing.xlsx").exit_code == 1


# -- telling the secretary --------------------------------------------------------------------


def test_a_long_message_is_cut_short_below_the_buttons(
    xw: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The cells show as many lines as they have; the output pane has the whole message."""
    from keizer_xl import lite

    path = tmp_path / "club.xlsx"
    build_template(path, lite=True)
    book = xw.Book(json=Excel.from_file(path).json())
    text = "\n".join(f"line {n}" for n in range(1, 61))
    lite.tell(book, text, "en")
    (write,) = book.json()["actions"]
    lines = [row[0] for row in write["values"]]
    assert len(lines) == sheetbuttons.MESSAGE_LINES
    assert lines[:-1] == [f"line {n}" for n in range(1, sheetbuttons.MESSAGE_LINES)]
    assert lines[-1] == "... and more: the whole message is in xlwings Lite's output pane."
    assert capsys.readouterr().out == text + "\n"


def test_the_first_click_replaces_how_to_start(
    xw: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A fresh workbook's cells below the buttons say how to start Lite; the first click's
    message takes the place of every one of those lines."""
    from keizer_xl import lite

    path = tmp_path / "club.xlsx"
    build_template(path, language="nl", lite=True)
    excel = Excel.from_file(path)
    column = sheetbuttons.COLUMN
    hint = [
        n
        for n, row in enumerate(excel.sheets["Indeling"], start=1)
        if len(row) >= column and row[column - 1] and n >= sheetbuttons.MESSAGE_ROW
    ]
    assert len(hint) > 2 and excel.cell("Indeling", hint[0], column).startswith("Om te beginnen")
    book = xw.Book(json=excel.json())
    lite.tell(book, "Klaar.", "nl")
    excel.apply(json.loads(json.dumps(book.json()))["actions"])
    assert [excel.cell("Indeling", n, column) for n in hint] == [
        "Klaar.",
        *[None] * (len(hint) - 1),
    ]
    assert capsys.readouterr().out == "Klaar.\n"


def test_a_workbook_without_the_pairings_sheet_is_told_in_the_output_pane(
    xw: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from keizer_xl import lite

    path = tmp_path / "club.xlsx"
    build_template(path, [{"Name": f"P{n}", "Rating": 1500 + n, "Present": "x"} for n in range(4)])
    excel = Excel.from_file(path)
    del excel.sheets["Pairings"]
    book = xw.Book(json=excel.json())
    lite.pair_next_round(book)
    names = list(excel.sheets)
    assert {names[a["sheet_position"]] for a in book.json()["actions"] if a["func"] in WRITES} == {
        "Rounds",
        "Standings",
        "Crosstable",
        "Progress",
        "Settings",
    }
    assert capsys.readouterr().out.startswith("Round 1 is paired")


@pytest.mark.libreoffice
@pytest.mark.usefixtures("soffice_installed", "pdftoppm_installed")
def test_libreoffice_shows_the_buttons_and_the_message(tmp_path: Path) -> None:
    """The README's picture: LibreOffice draws the four buttons on the Pairings sheet (the
    page that has their captions), beside the boards of round 1 and the click's message."""
    out = tmp_path / "lite.png"
    done = subprocess.run(
        [sys.executable, str(Path(__file__).parents[2] / "docs" / "render_lite.py"), str(out)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    data = out.read_bytes()
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    assert width > 800 and height > 300


def test_committed_lite_template_is_a_fresh_build(tmp_path: Path) -> None:
    """templates/keizer_xl_lite.xlsx, for a club with no Python anywhere to run `new`."""
    committed = Path(__file__).parents[2] / "templates" / "keizer_xl_lite.xlsx"
    fresh = tmp_path / "keizer_xl_lite.xlsx"
    build_template(fresh, lite=True)
    assert committed.read_bytes() == fresh.read_bytes(), "run `make template`"
