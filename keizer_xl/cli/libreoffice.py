"""`keizer-xl libreoffice`: set up the workbook's buttons for LibreOffice Calc, once per computer.

An .xlsm made by `keizer-xl new` carries buttons that work in Excel and in LibreOffice. In
LibreOffice they hand the click to a Python macro in the user's LibreOffice profile
(`live.libreoffice_macro`), which runs keizer_xl with the Python this command runs in. This
command puts that macro there and says what else this computer needs.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from keizer_xl.cli.prelude import perform
from keizer_xl.cli.speech import say, speak, t

__all__ = ["libreoffice"]


@click.command()
@click.option(
    "--profile",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="LibreOffice's profile folder (the one holding 'user'), if not the usual one.",
)
def libreoffice(profile: Path | None) -> None:
    """Set up the buttons of keizer_xl's .xlsm workbooks for LibreOffice Calc on this
    computer: puts keizer_xl's macro into your LibreOffice profile and says what else is
    needed. Run it again after installing keizer-xl somewhere else."""
    from keizer_xl.cli.libreoffice_setup import default_profile, find, install, user_folder

    speak()
    user = user_folder(profile if profile is not None else default_profile())
    if profile is None and not user.is_dir():
        say(
            t(
                "Note: LibreOffice has no profile at {folder} yet (it makes one when it first "
                "starts); the macro is put there anyway.",
                folder=user,
            )
        )
    path = perform(lambda: install(user, sys.executable))
    say(t("keizer_xl's macro for LibreOffice is in {file}.", file=path))
    say(
        t(
            "The buttons will run keizer_xl with {python}: keep it installed there.",
            python=sys.executable,
        )
    )
    findings = find(user)
    todo: list[str] = []
    if findings.soffice is None:
        todo.append(t("Install LibreOffice (https://www.libreoffice.org/download/)."))
    if findings.script_provider is False:
        todo.append(
            t(
                "Install LibreOffice's support for Python macros: on Debian and Ubuntu "
                "'sudo apt install libreoffice-script-provider-python', on Fedora "
                "'sudo dnf install libreoffice-pyuno'."
            )
        )
    if findings.macro_security is None or findings.macro_security >= 2:
        todo.append(
            t(
                "Let LibreOffice run the workbook's macros: Tools ▸ Options ▸ LibreOffice ▸ "
                "Security ▸ Macro Security: choose Medium (it then asks when you open the "
                "workbook: choose Enable Macros), or add the workbook's folder under Trusted "
                "Sources."
            )
        )
    if not findings.vba_executable:
        todo.append(
            t(
                "Tick Tools ▸ Options ▸ Load/Save ▸ VBA Properties ▸ Excel ▸ Executable code, "
                "so that the workbook's buttons keep their macros."
            )
        )
    if todo:
        say(t("Still to do on this computer:"))
        for line in todo:
            say(f"  - {line}")
    say(
        t(
            "Then open the .xlsm in LibreOffice Calc and click its buttons. Save the "
            "workbook yourself, as in Excel."
        )
    )
