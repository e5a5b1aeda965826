"""Setting up LibreOffice's side of the buttons, once per computer (`keizer-xl libreoffice`).

Python macros cannot live in an .xlsm (LibreOffice drops them on saving it), so the one the
workbook's buttons call goes into the user's LibreOffice profile, with the path of the
Python that has keizer_xl written into it. What else a computer needs is found out here
and said by the command: LibreOffice itself, its Python script support (a separate package
on Linux), and macro security that lets the workbook's own macros run.
"""

from __future__ import annotations

import ast
import importlib.resources
import os
import re
import shutil
import sys
from pathlib import Path
from typing import NamedTuple

from keizer_xl.i18n import LANGUAGES, translate

__all__ = [
    "MACRO_NAME",
    "Findings",
    "default_profile",
    "find",
    "install",
    "macro_text",
    "user_folder",
]

MACRO_NAME = "keizer_xl_buttons.py"  # the name the VBA bridge asks LibreOffice for
MACRO_SOURCE = "libreoffice_macro.py"  # the macro, in keizer_xl/live/


def default_profile() -> Path:
    """The user's LibreOffice profile (the folder that holds `user`), where LibreOffice
    keeps it on this system."""
    home = Path.home()
    if sys.platform == "win32":
        base = Path(os.environ.get("APPDATA") or home / "AppData" / "Roaming")
        return base / "LibreOffice" / "4"
    if sys.platform == "darwin":
        return home / "Library" / "Application Support" / "LibreOffice" / "4"
    config = Path(os.environ.get("XDG_CONFIG_HOME") or home / ".config")
    return config / "libreoffice" / "4"


def user_folder(profile: Path) -> Path:
    """The profile's `user` folder; a folder already named `user` is taken as it is."""
    return profile if profile.name == "user" else profile / "user"


def macro_text(python: str) -> str:
    """The macro file with `python` as the Python it runs keizer_xl with, and its own few
    messages (said before keizer_xl runs) in every language."""
    # read as a file, not imported: it is LibreOffice's to run (keizer_xl.live's own file)
    source = (importlib.resources.files("keizer_xl.live") / MACRO_SOURCE).read_text("utf-8")
    texts = {
        language: {message: translate(message, language) for message in _messages(source)}
        for language in LANGUAGES
        if language != "en"
    }
    return _fill(_fill(source, "PYTHON", python), "TEXTS", texts)


def _fill(source: str, name: str, value: object) -> str:
    """The line `NAME = ""` (or `NAME: type = {}`) of the macro, with `value` instead."""
    line = re.compile(rf"^({name}(?:: [^=]+)?) = (?:\"\"|\{{\}})(.*)$", re.M)
    filled, count = line.subn(lambda m: f"{m.group(1)} = {value!r}{m.group(2)}", source, 1)
    if count != 1:  # pragma: no cover - held by a test of the shipped file
        raise RuntimeError(f"the LibreOffice macro has no {name} line to fill in")
    return filled


def _messages(source: str) -> list[str]:
    """The texts the macro passes to its `translate`, as `make catalogs` finds them."""
    return [
        node.args[0].value
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "translate"
        and node.args
        and isinstance(node.args[0], ast.Constant)
        and isinstance(node.args[0].value, str)
    ]


def install(user: Path, python: str) -> Path:
    """Put the macro into the profile's user folder, whole or not at all; its path."""
    from keizer_xl.workbook.xlsx import write_atomically

    folder = user / "Scripts" / "python"
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / MACRO_NAME
    text = macro_text(python)

    def write(temp: Path) -> None:
        temp.write_text(text, encoding="utf-8")

    write_atomically(target, write, sync=False)
    return target


class Findings(NamedTuple):
    """What the computer has of what the buttons need in LibreOffice.

    `soffice`: LibreOffice's program, if found; `script_provider`: its Python script
    support is installed (None: cannot tell without LibreOffice); `macro_security`: the
    level set in the profile (0 low, 1 medium, 2 high, 3 very high; None: the profile has
    none written, LibreOffice's default, high); `vba_executable`: LibreOffice runs the
    VBA of the files it opens (its own default is yes)."""

    soffice: Path | None
    script_provider: bool | None
    macro_security: int | None
    vba_executable: bool


def find(user: Path) -> Findings:
    soffice = _soffice()
    provider = None
    if soffice is not None:
        program = soffice.resolve().parent  # macOS keeps the scripts in Resources
        places = (program, program.parent / "Resources")
        provider = any((place / "pythonscript.py").is_file() for place in places)
    settings = user / "registrymodifications.xcu"
    text = settings.read_text(encoding="utf-8", errors="replace") if settings.is_file() else ""
    level = _setting(text, "/org.openoffice.Office.Common/Security/Scripting", "MacroSecurityLevel")
    executable = _setting(text, "/org.openoffice.Office.Calc/Filter/Import/VBA", "Executable")
    return Findings(
        soffice=soffice,
        script_provider=provider,
        macro_security=int(level) if level is not None and level.isdigit() else None,
        vba_executable=executable != "false",
    )


def _soffice() -> Path | None:
    """LibreOffice's program: on the PATH, or where its installers put it."""
    for name in ("soffice", "libreoffice"):
        found = shutil.which(name)
        if found:
            return Path(found)
    places = [Path("/Applications/LibreOffice.app/Contents/MacOS/soffice")]
    for variable in ("PROGRAMFILES", "PROGRAMFILES(X86)"):
        root = os.environ.get(variable)
        if root:
            places.append(Path(root) / "LibreOffice" / "program" / "soffice.exe")
    return next((place for place in places if place.is_file()), None)


def _setting(text: str, path: str, name: str) -> str | None:
    """A value from registrymodifications.xcu, where LibreOffice keeps changed settings."""
    pattern = (
        rf'<item oor:path="{re.escape(path)}"><prop oor:name="{re.escape(name)}"[^>]*>'
        r"<value>([^<]*)</value>"
    )
    match = re.search(pattern, text)
    return match.group(1) if match else None
