"""The `keizer-xl` command: the buttons' work without Excel, and a batch recalculation.

`main` is the command group, which the program (`keizer_xl.cli.run`) runs (see `prelude`
for the exit codes). Each command lives in a module of its own kind (`COMMANDS`), which
the group imports only when that command runs (or `--help` lists them): a `recalc` builds
its own command, not the other twelve and what they import.
The secretary never sees a traceback.
"""

from __future__ import annotations

import importlib

import click

from keizer_xl import __version__
from keizer_xl.i18n import LANGUAGES

COMMANDS = {  # command -> the module that makes it
    "new": "keizer_xl.cli.commands",
    "pair": "keizer_xl.cli.commands",
    "check": "keizer_xl.cli.commands",
    "standings": "keizer_xl.cli.commands",
    "publish": "keizer_xl.cli.commands",
    "demo": "keizer_xl.cli.commands",
    "recalc": "keizer_xl.cli.batch",
    "ratings": "keizer_xl.cli.exchange",
    "export": "keizer_xl.cli.exchange",
    "unpair": "keizer_xl.cli.fixes",
    "rename": "keizer_xl.cli.fixes",
    "unlock": "keizer_xl.cli.fixes",
    "lite": "keizer_xl.cli.lite",
    "libreoffice": "keizer_xl.cli.libreoffice",
}


class LazyGroup(click.Group):
    """A command group whose commands are imported when asked for (click's documented
    pattern for a large command line), in the order `--help` lists them."""

    def __init__(self, *args: object, lazy: dict[str, str], **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.lazy = lazy

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self.lazy})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.lazy and cmd_name not in self.commands:
            command = getattr(importlib.import_module(self.lazy[cmd_name]), cmd_name)
            assert isinstance(command, click.Command) and command.name == cmd_name
            self.add_command(command)
        return super().get_command(ctx, cmd_name)


@click.group(cls=LazyGroup, lazy=COMMANDS, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="keizer-xl")
@click.option(
    "--lang",
    "language",
    type=click.Choice(LANGUAGES),
    default=None,
    help="The language of the messages: en, nl, de or it (default: KEIZER_XL_LANG, "
    "else the workbook's own language).",
)
def main(language: str | None) -> None:
    """Run a Keizer club competition in its Excel workbook.

    \b
    Typical season:
      keizer-xl new club.xlsx           a fresh workbook; fill in the Players sheet
      keizer-xl pair club.xlsx          pair the players marked present
      (type the results in the Rounds sheet)
      keizer-xl recalc club.xlsx        standings after the results
    """


if __name__ == "__main__":  # pragma: no cover - the program starts at `keizer_xl.cli.run`
    from keizer_xl.cli.program import as_program

    as_program()  # after the imports above: `python -m keizer_xl.cli` sets it up before
    main()
