"""LibreOffice's buttons without LibreOffice: the macro file `keizer-xl libreoffice` installs,
what the command says a computer still needs, and the conversation between the macro and
keizer_xl, served here by a stand-in for the open document."""

from __future__ import annotations

import ast
import datetime as dt
import os
import sys
import threading
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from click.testing import CliRunner

from keizer_xl.cli.libreoffice_setup import MACRO_NAME, find, macro_text
from keizer_xl.cli.main import main as cli
from keizer_xl.live import buttons, libreoffice_macro
from keizer_xl.live.libreoffice import Channel, Document
from keizer_xl.workbook.buttons import BUTTONS
from tests.seasons import SIX_PLAYERS

MACRO = Path(libreoffice_macro.__file__)
PRESENT = [{"Name": name, "Rating": rating, "Present": "x"} for name, rating in SIX_PLAYERS]


def _run(*args: str, env: dict[str, str] | None = None) -> str:
    result = CliRunner().invoke(cli, list(args), env=env, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


# --- the macro file -------------------------------------------------------------------------


def test_the_installed_macro_runs_keizer_xl_with_this_python(tmp_path: Path) -> None:
    out = _run("libreoffice", "--profile", str(tmp_path))
    installed = tmp_path / "user" / "Scripts" / "python" / MACRO_NAME
    text = installed.read_text(encoding="utf-8")
    namespace: dict[str, Any] = {}
    exec(compile(text, str(installed), "exec"), namespace)  # runs nothing but definitions
    assert namespace["PYTHON"] == sys.executable
    assert str(installed) in out
    # only the two lines filled in differ from the file in keizer_xl
    ours = MACRO.read_text(encoding="utf-8").splitlines()
    theirs = text.splitlines()
    assert [n for n, (a, b) in enumerate(zip(ours, theirs, strict=True)) if a != b] == [
        n for n, line in enumerate(ours) if line.startswith(("PYTHON = ", "TEXTS: "))
    ]
    # the macro's own messages, said before keizer_xl runs, in every other language
    dutch = namespace["TEXTS"]["nl"]
    assert len(dutch) == 3
    assert all(said and said != english for english, said in dutch.items())
    assert namespace["translate"]("keizer_xl could not start {python}: {cause}", "de") == (
        "keizer_xl konnte {python} nicht starten: {cause}"
    )
    assert namespace["translate"]("anything else", "it") == "anything else"
    # a folder named user is the user folder itself; a second run replaces the file
    _run("libreoffice", "--profile", str(tmp_path / "user"))
    assert installed.read_text(encoding="utf-8") == text
    assert not (tmp_path / "user" / "user").exists()


def test_the_macro_runs_on_the_python_libreoffice_brings() -> None:
    """Windows and macOS LibreOffice bring their own Python, 3.8 in the oldest supported
    release, with the standard library only: the macro keeps to that."""
    tree = ast.parse(MACRO.read_text(encoding="utf-8"), feature_version=(3, 8))
    top: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.Import):
            top |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            top.add(node.module.split(".")[0])
    assert top <= set(sys.stdlib_module_names), top - set(sys.stdlib_module_names)


def test_the_macro_has_a_function_for_every_button() -> None:
    exported = {f.__name__ for f in libreoffice_macro.g_exportedScripts}
    assert exported == {button.entry for button in BUTTONS}
    for name in exported:
        assert hasattr(buttons, name)  # the entry keizer_xl's side runs


def test_macro_text_fills_in_exactly_one_python() -> None:
    text = macro_text("C:\\Program Files\\Python 3.12\\python.exe")
    namespace: dict[str, Any] = {}
    exec(compile(text, MACRO_NAME, "exec"), namespace)
    assert namespace["PYTHON"] == "C:\\Program Files\\Python 3.12\\python.exe"
    assert text.count("PYTHON = ") == 1


# --- what the command says ------------------------------------------------------------------


def _fake_soffice(folder: Path, script_provider: bool) -> dict[str, str]:
    program = folder / "program"
    program.mkdir()
    soffice = program / "soffice"
    soffice.write_text("#!/bin/sh\n", encoding="utf-8")
    soffice.chmod(0o755)
    if script_provider:
        (program / "pythonscript.py").write_text("", encoding="utf-8")
    return {"PATH": str(program)}


@pytest.mark.skipif(sys.platform == "win32", reason="a shell-script stand-in for soffice")
@pytest.mark.parametrize("provider", [True, False])
def test_the_script_provider_is_asked_for_when_missing(tmp_path: Path, provider: bool) -> None:
    env = _fake_soffice(tmp_path, provider)
    out = _run("libreoffice", "--profile", str(tmp_path / "profile"), env=env)
    assert ("libreoffice-script-provider-python" in out) is not provider
    assert "Install LibreOffice (" not in out


def test_missing_libreoffice_is_said(tmp_path: Path) -> None:
    out = _run("libreoffice", "--profile", str(tmp_path), env={"PATH": str(tmp_path)})
    if find(tmp_path).soffice is None:  # no LibreOffice where its installers put it
        assert "Install LibreOffice (https://www.libreoffice.org/download/)" in out


def _settings(user: Path, items: str) -> None:
    user.mkdir(parents=True, exist_ok=True)
    (user / "registrymodifications.xcu").write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n<oor:items xmlns:oor="http://openoffice.org/2001/registry">\n'
        + items
        + "\n</oor:items>\n",
        encoding="utf-8",
    )


def _item(path: str, name: str, value: str) -> str:
    return (
        f'<item oor:path="{path}"><prop oor:name="{name}" oor:op="fuse">'
        f"<value>{value}</value></prop></item>"
    )


@pytest.mark.parametrize(
    ("level", "asked"), [(None, True), ("3", True), ("2", True), ("1", False), ("0", False)]
)
def test_macro_security_is_asked_for_unless_it_lets_macros_run(
    tmp_path: Path, level: str | None, asked: bool
) -> None:
    security = "/org.openoffice.Office.Common/Security/Scripting"
    _settings(tmp_path / "user", _item(security, "MacroSecurityLevel", level) if level else "")
    out = _run("libreoffice", "--profile", str(tmp_path))
    assert ("Macro Security: choose Medium" in out) is asked


def test_vba_code_switched_off_is_said(tmp_path: Path) -> None:
    vba = "/org.openoffice.Office.Calc/Filter/Import/VBA"
    _settings(tmp_path / "user", _item(vba, "Executable", "false"))
    assert "Executable code" in _run("libreoffice", "--profile", str(tmp_path))
    _settings(tmp_path / "user", _item(vba, "Executable", "true"))
    assert "Executable code" not in _run("libreoffice", "--profile", str(tmp_path))


def test_the_command_speaks_the_secretarys_language(tmp_path: Path) -> None:
    out = _run("--lang", "nl", "libreoffice", "--profile", str(tmp_path))
    assert "LibreOffice" in out
    assert "keep it installed there" not in out


# --- the conversation -----------------------------------------------------------------------


class StandIn(libreoffice_macro.Office):
    """The open document as plain grids: what the macro would answer through UNO."""

    def __init__(self, grids: dict[str, list[list[Any]]], refuse: str | None = None) -> None:
        super().__init__(document=None)
        self.grids = {name: [list(row) for row in rows] for name, rows in grids.items()}
        self.refuse = refuse
        self.shown: list[tuple[str, str, str]] = []
        self.asked: list[str] = []

    def do(self, op: str, args: list[Any]) -> Any:
        self.asked.append(op)
        return super().do(op, args)

    def op_sheets(self) -> list[str]:
        return list(self.grids)

    def op_path(self) -> str:
        return ""

    def op_used(self, name: str) -> list[int]:
        rows = self.grids[name]
        return [1, 1, max(len(rows), 1), max((len(r) for r in rows), default=1)]

    def op_values(self, name: str, top: int, left: int, bottom: int, right: int) -> Any:
        rows = self.grids[name]
        return [
            [
                _json(rows[r - 1][c - 1]) if r <= len(rows) and c <= len(rows[r - 1]) else None
                for c in range(left, right + 1)
            ]
            for r in range(top, bottom + 1)
        ]

    def op_set(self, name: str, row: int, column: int, values: list[list[Any]]) -> None:
        if name == self.refuse:
            raise RuntimeError("the sheet is protected")
        grid = self.grids[name]
        for dr, line in enumerate(values):
            while len(grid) < row + dr:
                grid.append([])
            target = grid[row + dr - 1]
            target.extend([None] * (column + len(line) - 1 - len(target)))
            target[column - 1 : column - 1 + len(line)] = line

    def op_clear(self, name: str) -> None:
        self.grids[name] = []

    def op_add_sheet(self, name: str, position: int) -> None:
        items = list(self.grids.items())
        items.insert(position, (name, []))
        self.grids = dict(items)

    def op_show(self, name: str, block: list[int] | None) -> None:
        pass

    def alert(self, text: str, title: str, mode: str) -> None:
        self.spoke = True
        self.shown.append((text, title, mode))


def _json(value: Any) -> Any:
    if isinstance(value, dt.datetime):
        return {"date": value.isoformat()}
    return value


def _converse(office: StandIn, entry: str) -> None:
    """keizer_xl's side on this thread, the macro's `serve` on another, over two pipes."""
    to_macro_r, to_macro_w = os.pipe()
    to_keizer_r, to_keizer_w = os.pipe()
    with (
        os.fdopen(to_macro_r, "rb") as requests,
        os.fdopen(to_keizer_w, "wb") as replies,
        os.fdopen(to_keizer_r, "rb") as incoming,
        os.fdopen(to_macro_w, "wb") as outgoing,
    ):
        server = threading.Thread(target=libreoffice_macro.serve, args=(office, requests, replies))
        server.start()
        try:
            getattr(buttons, entry)(Document(Channel(incoming, outgoing)))
        finally:
            outgoing.close()
            server.join(timeout=30)


def _grids(path: Path) -> dict[str, list[list[Any]]]:
    """Every sheet's values, as the document holds them."""
    book = openpyxl.load_workbook(path)
    return {sheet.title: [list(row) for row in sheet.iter_rows(values_only=True)] for sheet in book}


def _trimmed(grid: list[list[Any]]) -> list[list[Any]]:
    rows = [[None if v == "" else v for v in row] for row in grid]
    rows = [
        row[: max((i + 1 for i, v in enumerate(row) if v is not None), default=0)] for row in rows
    ]
    while rows and not rows[-1]:
        rows.pop()
    return rows


def test_a_click_served_by_the_macro_writes_what_the_command_writes(tmp_path: Path) -> None:
    from keizer_xl.workbook.template import build_template

    path = tmp_path / "club.xlsx"
    build_template(path, players=PRESENT)
    office = StandIn(_grids(path))
    _converse(office, "pair_next_round")
    _run("pair", str(path))
    expected = _grids(path)
    for name in expected:
        assert _trimmed(office.grids[name]) == _trimmed(expected[name]), name
    assert "values" in office.asked and "set" in office.asked


def test_a_refused_write_is_said_naming_libreoffice(tmp_path: Path) -> None:
    from keizer_xl.workbook.template import build_template

    path = tmp_path / "club.xlsx"
    build_template(path, players=PRESENT)
    office = StandIn(_grids(path), refuse="Rounds")
    _converse(office, "pair_next_round")
    ((text, _, mode),) = office.shown
    assert mode == "critical"
    assert "LibreOffice did not accept the new values for the sheet 'Rounds'" in text
    assert "the sheet is protected" in text


def test_sheets_that_are_not_the_competitions_are_not_read(tmp_path: Path) -> None:
    from keizer_xl.workbook.template import build_template

    path = tmp_path / "club.xlsx"
    build_template(path, players=PRESENT)
    grids = _grids(path)
    grids["Our own notes"] = [["secret"]]
    office = StandIn(grids)
    read: list[str] = []
    original = office.op_values

    def values(name: str, *block: int) -> Any:
        read.append(name)
        return original(name, *block)

    office.op_values = values  # type: ignore[method-assign]
    _converse(office, "recalculate")
    assert "Our own notes" not in read
    assert office.grids["Our own notes"] == [["secret"]]


# --- the macro's click, with its own process, on the stand-in -------------------------------


def _club_in(tmp_path: Path) -> StandIn:
    from keizer_xl.workbook.template import build_template

    tmp_path.mkdir(exist_ok=True)
    path = tmp_path / "club.xlsx"
    build_template(path, players=PRESENT)
    return StandIn(_grids(path))


def test_a_macro_not_set_up_says_so_in_the_workbooks_language(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    office = _club_in(tmp_path)
    namespace: dict[str, Any] = {}
    exec(compile(macro_text(str(tmp_path / "gone" / "python")), MACRO_NAME, "exec"), namespace)
    monkeypatch.setattr(libreoffice_macro, "TEXTS", namespace["TEXTS"])
    monkeypatch.setattr(libreoffice_macro, "PYTHON", namespace["PYTHON"])
    monkeypatch.setattr(libreoffice_macro, "Office", lambda document: office)
    libreoffice_macro.pair_next_round(object(), "nl")
    ((text, _, mode),) = office.shown
    assert mode == "critical"
    assert text.startswith("keizer_xl is op deze computer niet ingericht voor LibreOffice")
    assert str(tmp_path / "gone" / "python") in text
    assert office.asked == []


@pytest.mark.programs
def test_the_macro_runs_keizer_xl_in_its_own_python(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    office = _club_in(tmp_path)
    monkeypatch.setattr(libreoffice_macro, "PYTHON", sys.executable)
    monkeypatch.setattr(libreoffice_macro, "Office", lambda document: office)
    libreoffice_macro.pair_next_round(object())
    assert office.shown == []  # six present, nothing to say
    assert office.grids["Rounds"][1][:4] == [1, 1, "Anna", "Bram"]
    # keizer_xl that cannot start: said, with what it printed
    other = _club_in(tmp_path / "other")
    monkeypatch.setattr(libreoffice_macro, "Office", lambda document: other)
    monkeypatch.setattr(libreoffice_macro, "MODULE", "keizer_xl.no_such_module")
    libreoffice_macro.recalculate(object())
    ((text, _, mode),) = other.shown
    assert mode == "critical"
    assert "keizer_xl stopped before it was done" in text
    assert "No module named keizer_xl.no_such_module" in text
