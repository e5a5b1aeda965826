"""The one table of buttons (`workbook/buttons.py`) and the places that cannot derive from
it: the macros' text in templates/vba, the entry points of `keizer_xl` and `live.buttons`,
and the scripts of `keizer_xl.lite`. What does derive from it (the template's shapes and
macro buttons, the VBA project's macros, `keizer-xl lite`'s main.py) is checked where it
is drawn: tests/workbook/test_template.py, test_vba.py and tests/lite."""

from __future__ import annotations

import inspect
import itertools
import re
from pathlib import Path
from typing import Any

import keizer_xl
from keizer_xl.cli.lite import main_py
from keizer_xl.live import buttons as live
from keizer_xl.workbook import sheetbuttons
from keizer_xl.workbook.buttons import BUTTONS, button_named
from tests.live.test_live import xw

__all__ = ["xw"]  # the fixture, for pytest

MACROS_TEXT = Path(__file__).parents[2] / "templates" / "vba" / "KeizerXL.bas"


def test_each_button_has_its_own_names_and_place() -> None:
    for field in ("caption", "macro", "entry", "script", "shape", "row"):
        values = [getattr(button, field) for button in BUTTONS]
        assert len(set(values)) == len(values), field
    rows = [button.row for button in BUTTONS]
    assert rows == sorted(rows)
    assert all(b - a >= sheetbuttons.BUTTON_ROWS for a, b in itertools.pairwise(rows))
    assert rows[-1] + sheetbuttons.BUTTON_ROWS <= sheetbuttons.MESSAGE_ROW  # above the message
    assert all(button_named(button.caption) is button for button in BUTTONS)


def test_the_macros_in_templates_vba_run_the_entry_points_of_the_table() -> None:
    text = MACROS_TEXT.read_text(encoding="cp1252")
    found = re.findall(
        r'^Sub (\w+)\(\)\n\s+If HandedToLibreOffice\("(\w+)"\) Then Exit Sub\n'
        r'\s+RunPython "import keizer_xl; keizer_xl\.(\w+)\(\)"\nEnd Sub$',
        text,
        re.MULTILINE,
    )
    assert found == [(button.macro, button.entry, button.entry) for button in BUTTONS]


def test_every_entry_point_is_a_button_of_keizer_xl_and_of_live() -> None:
    assert set(keizer_xl.__all__) - {"__version__"} == {button.entry for button in BUTTONS}
    for button in BUTTONS:
        desktop = getattr(keizer_xl, button.entry)
        assert callable(desktop)
        assert f'"{button.caption}"' in inspect.getsource(desktop)  # its docstring names it
        assert callable(getattr(live, button.entry))


def test_every_lite_script_is_a_button_of_the_table(xw: Any) -> None:
    from keizer_xl import lite

    scripts = [button.script for button in BUTTONS]
    assert set(lite.__all__) == {*scripts, "scripts"}
    assert [inspect.unwrap(f).__name__ for f in lite.scripts("nl")] == scripts
    for button in BUTTONS:
        assert getattr(lite, button.script).__doc__.startswith(f"{button.caption}:")
    assert f'{", ".join(scripts)} = scripts("de")' in main_py("de")
