"""`keizer-xl lite`: what to paste into xlwings Lite for the workbook's buttons.

Lite keeps a workbook's Python in the workbook, in two tabs of its editor: main.py, the
scripts (here a few lines that take them from `keizer_xl.lite`), and requirements.txt,
what to install (keizer-xl, this version). Lite finds a button by its sheet's name, so
main.py is made for the workbook's language.
"""

from __future__ import annotations

from pathlib import Path

import click

from keizer_xl import __version__
from keizer_xl.cli.prelude import perform
from keizer_xl.cli.speech import say, speak, t, told
from keizer_xl.i18n import LANGUAGES
from keizer_xl.workbook.buttons import BUTTONS

MAIN, REQUIREMENTS = "main.py", "requirements.txt"
SCRIPTS = tuple(button.script for button in BUTTONS)  # of keizer_xl.lite


def main_py(language: str) -> str:
    """Lite's main.py for a workbook in `language`: the scripts of `keizer_xl.lite`, whose
    buttons name the English sheets, or those `scripts(language)` makes."""
    if language == "en":
        return f"from keizer_xl.lite import {', '.join(sorted(SCRIPTS))}\n"
    return (f"from keizer_xl.lite import scripts\n\n"
            f"{', '.join(SCRIPTS)} = scripts(\"{language}\")\n")


def requirements_txt() -> str:
    """Lite's requirements.txt: this keizer-xl, so that the code matches the workbook."""
    return f"keizer-xl=={__version__}\n"


@click.command()
@click.argument("file", required=False, type=click.Path(dir_okay=False, path_type=Path))
@click.option("--lang", "language", type=click.Choice(LANGUAGES), default=None,
              help="The workbook's language, when no FILE tells it (default: the global "
              "--lang or KEIZER_XL_LANG, else en).")
@click.option("--only", type=click.Choice([MAIN, REQUIREMENTS]), default=None,
              help="Print that file alone, as it is: keizer-xl lite --only main.py > main.py")
def lite(file: Path | None, language: str | None, only: str | None) -> None:
    """Print the main.py and requirements.txt to paste into xlwings Lite, for the buttons
    of FILE (a workbook made with `keizer-xl new FILE --lite`).

    xlwings Lite is a free add-in from Excel's add-in store that runs Python inside Excel,
    on Windows, on a Mac and on the web, with nothing to install.
    """
    if file is not None:
        from keizer_xl.workbook.files import read_grids
        from keizer_xl.workbook.layout import language_of

        speak(file)
        grids = perform(lambda: read_grids(file))  # a file that is no workbook is said so
        workbook = language_of(grids)
    else:
        workbook = language or told() or "en"
        speak(workbook=workbook)
    files = {MAIN: main_py(workbook), REQUIREMENTS: requirements_txt()}
    if only is not None:
        click.echo(files[only], nl=False)
        return
    say(t("{file} (xlwings Lite's first tab):", file=MAIN) + "\n")
    click.echo(files[MAIN])
    say(t("{file} (the second tab):", file=REQUIREMENTS) + "\n")
    click.echo(files[REQUIREMENTS])
    say(t("In Excel: Home ▸ Add-ins ▸ xlwings Lite. Replace what each tab holds with the "
          "lines above; then click the buttons on the {sheet} sheet.",
          sheet=_pairings(workbook)))


def _pairings(language: str) -> str:
    from keizer_xl.i18n.names import local_name
    from keizer_xl.workbook.pairings import PAIRINGS

    return local_name(PAIRINGS, language)
