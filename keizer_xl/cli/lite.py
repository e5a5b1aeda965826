"""`keizer-xl lite`: the code of a workbook's buttons in xlwings Lite.

Lite keeps a workbook's Python in the workbook, in two tabs of its editor: main.py, the
scripts (here a few lines that take them from `keizer_xl.lite`), and requirements.txt,
what to install (Lite's own required lines, and keizer-xl, this version). A workbook made
with `new --lite` carries both (`workbook.liteparts`); this command prints them, warns
when a workbook's code is for another keizer-xl, and with `--write` puts this version's
code into the workbook. Lite finds a button by its sheet's name, so main.py is made for the
workbook's language.
"""

from __future__ import annotations

from pathlib import Path

import click

from keizer_xl import __version__
from keizer_xl.cli.prelude import perform
from keizer_xl.cli.speech import say, speak, t, told, typed
from keizer_xl.i18n import LANGUAGES
from keizer_xl.workbook.liteparts import MAIN, REQUIREMENTS, lite_code, main_py

__all__ = ["lite", "main_py"]


@click.command()
@click.argument("file", required=False, type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--lang",
    "language",
    type=click.Choice(LANGUAGES),
    default=None,
    help="The workbook's language, when no FILE tells it (default: the global "
    "--lang or KEIZER_XL_LANG, else en).",
)
@click.option(
    "--only",
    type=click.Choice([MAIN, REQUIREMENTS]),
    default=None,
    help="Print that file alone, as it is: keizer-xl lite --only main.py > main.py",
)
@click.option(
    "--write",
    is_flag=True,
    help="Put this version's main.py and requirements.txt into FILE, where xlwings "
    "Lite reads them (the workbook as it was is kept as a backup).",
)
def lite(file: Path | None, language: str | None, only: str | None, write: bool) -> None:
    """Print the main.py and requirements.txt of xlwings Lite for the buttons of FILE (a
    workbook made with `keizer-xl new FILE --lite`, which carries them already).

    xlwings Lite is a free add-in from Excel's add-in store that runs Python inside Excel,
    on Windows, on a Mac and on the web, with nothing to install.
    """
    carried: dict[str, str] = {}
    if file is not None:
        from keizer_xl.workbook.files import read_grids
        from keizer_xl.workbook.layout import language_of
        from keizer_xl.workbook.liteparts import read_code

        speak(file)
        grids = perform(lambda: read_grids(file))  # a file that is no workbook is said so
        workbook = language_of(grids)
        found = perform(lambda: read_code(file))
        carried = found.properties if found is not None else {}
    else:
        if write:
            raise click.UsageError(t("--write needs the workbook: keizer-xl lite FILE --write"))
        workbook = language or told() or "en"
        speak(workbook=workbook)
    if write and only is not None:
        raise click.UsageError(t("use --only or --write, not both"))
    if write:
        assert file is not None
        _write(file, workbook)
        return
    _warn_of_another_version(file, carried)
    files = lite_code(workbook, carried)
    if only is not None:
        click.echo(files[only], nl=False)
        return
    say(t("{file} (xlwings Lite's first tab):", file=MAIN) + "\n")
    click.echo(files[MAIN])
    say(t("{file} (the second tab):", file=REQUIREMENTS) + "\n")
    click.echo(files[REQUIREMENTS])
    if file is not None and all(carried.get(name) == text for name, text in files.items()):
        say(
            t(
                "{file} carries this code already: open it in Excel, open xlwings Lite (Home ▸ "
                "Add-ins), trust the workbook, then click the buttons on the {sheet} sheet.",
                file=file.name,
                sheet=_pairings(workbook),
            )
        )
        return
    say(
        t(
            "In Excel: Home ▸ Add-ins ▸ xlwings Lite. Add to each tab the lines above that it "
            "lacks, and keep Lite's own lines (those marked # required); then click the "
            "buttons on the {sheet} sheet.",
            sheet=_pairings(workbook),
        )
    )
    if file is not None:
        say(
            t(
                "Or let keizer-xl put them into the workbook: keizer-xl lite {file} --write",
                file=typed(file),
            )
        )


def _warn_of_another_version(file: Path | None, carried: dict[str, str]) -> None:
    """A workbook whose code installs another keizer-xl works as that version does."""
    from keizer_xl.workbook.liteparts import named_version

    theirs = named_version(carried.get(REQUIREMENTS, ""))
    if file is not None and theirs is not None and theirs != __version__:
        say(
            t(
                "Warning: the code in {file} is for keizer-xl {theirs}, and this is keizer-xl "
                "{ours}. keizer-xl lite {typed} --write puts this version's code into it.",
                file=file.name,
                theirs=theirs,
                ours=__version__,
                typed=typed(file),
            ),
            err=True,
        )


def _write(file: Path, language: str) -> None:
    from keizer_xl.workbook.liteparts import write_code
    from keizer_xl.workbook.xlsx import backup_path

    done = perform(lambda: write_code(file, language))
    if not done.changed:
        say(
            t(
                "{file} carries keizer-xl {version}'s code already; nothing was changed.",
                file=file.name,
                version=__version__,
            )
        )
        return
    if done.before is not None and done.before != __version__:
        say(
            t(
                "{file}: its code was for keizer-xl {theirs}; it is now for keizer-xl {ours}.",
                file=file.name,
                theirs=done.before,
                ours=__version__,
            )
        )
    say(
        t(
            "Put keizer-xl {version}'s main.py and requirements.txt into {file}, where xlwings "
            "Lite reads them; the workbook as it was is kept as {backup}.",
            version=__version__,
            file=file.name,
            backup=backup_path(file).name,
        )
    )
    if done.main_replaced:
        say(t("Its main.py held other code, which this replaced: the backup still has it."))


def _pairings(language: str) -> str:
    from keizer_xl.i18n.names import local_name
    from keizer_xl.workbook.pairings import PAIRINGS

    return local_name(PAIRINGS, language)
