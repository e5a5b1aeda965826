"""How the command line speaks: in the language of the workbook it works on, unless the
global --lang or KEIZER_XL_LANG asks for another.

Its own messages are marked `t("...")` (catalog messages, like `translate`); the rule
book's come as `Message`s and are said with `said`. One command speaks one language at a
time (`speak` chooses it); a batch's worker processes each choose their file's.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

_speaking = ["en"]  # the language of the command's messages (see `speak`)


def speak(file: Path | None = None, workbook: str | None = None) -> str:
    """Choose the language of this command's messages: the one asked for (`--lang`, or
    KEIZER_XL_LANG), else the language FILE (or the new workbook) is written in."""
    from keizer_xl.i18n import choose

    asked = told()
    if workbook is None and file is not None and asked is None:
        from keizer_xl.workbook.files import language_of_file

        workbook = language_of_file(file)  # read only when nothing else decides
    _speaking[0] = choose(asked, workbook)
    return _speaking[0]


def speak_in(language: str) -> None:
    """Speak LANGUAGE, chosen elsewhere: a batch's worker speaks what its command was
    asked for, which the worker's own environment cannot tell."""
    _speaking[0] = language


def speaking() -> str:
    """The language chosen for this command's messages."""
    return _speaking[0]


def told() -> str | None:
    """The language asked for with the global --lang or KEIZER_XL_LANG (None: neither)."""
    from keizer_xl.i18n import from_environment

    context = click.get_current_context(silent=True)
    root = context.find_root() if context is not None else None
    asked = root.params.get("language") if root is not None else None
    return asked or from_environment()


def t(template: str, **values: Any) -> str:
    """One of the command's own messages, in the language chosen by `speak`."""
    from keizer_xl.i18n import translate

    text = translate(template, _speaking[0])
    return text.format(**values) if values else text


def say(line: str, err: bool = False) -> None:
    """Plain lines go through click (rich is imported only for progress bars and tables);
    a rule-book message in the chosen language."""
    click.echo(said(line), err=err)


def note(line: str) -> None:
    say(t("Note: {note}", note=said(line)))


def said(text: str) -> str:
    from keizer_xl.i18n import say as in_language

    return in_language(text, _speaking[0])


def typed(file: Path | str) -> str:
    """A file's name as it is typed after a suggested command, quoted where a shell needs
    it: the one rule of `keizer_xl.workbook.xlsx.typed`, imported when a command needs it
    (the command starts without the workbook code)."""
    from keizer_xl.workbook.xlsx import typed as quoted

    return quoted(file)
