"""How the command line speaks: in the language of the workbook it works on, unless the
global --lang or KEIZER_XL_LANG asks for another, with no traceback ever.

Its own messages are marked `_t("...")` (catalog messages, like `translate`); the rule
book's come as `Message`s and are said with `_said`. One command speaks one language at a
time (`_speak` chooses it); a batch's worker processes each choose their file's.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

T = TypeVar("T")
PROBLEMS = 1  # the exit code of a command whose workbook has problems

_speaking = ["en"]  # the language of the command's messages (see `_speak`)


def _speak(file: Path | None = None, workbook: str | None = None) -> str:
    """Choose the language of this command's messages: the one asked for (`--lang`, or
    KEIZER_XL_LANG), else the language FILE (or the new workbook) is written in."""
    from keizer_xl.i18n import choose

    told = _told()
    if workbook is None and file is not None and told is None:
        from keizer_xl.workbook.files import language_of_file

        workbook = language_of_file(file)  # read only when nothing else decides
    _speaking[0] = choose(told, workbook)
    return _speaking[0]


def _told() -> str | None:
    """The language asked for with the global --lang or KEIZER_XL_LANG (None: neither)."""
    from keizer_xl.i18n import from_environment

    context = click.get_current_context(silent=True)
    root = context.find_root() if context is not None else None
    asked = root.params.get("language") if root is not None else None
    return asked or from_environment()


def _t(template: str, **values: Any) -> str:
    """One of the command's own messages, in the language chosen by `_speak`."""
    from keizer_xl.i18n import translate

    text = translate(template, _speaking[0])
    return text.format(**values) if values else text


def _attempt(action: Callable[[], T]) -> tuple[T | None, list[str]]:
    """Run one file's work; return its result or the lines that explain what was wrong."""
    from keizer_xl.core.errors import KeizerXLError
    from keizer_xl.i18n import say

    try:
        return action(), []
    except KeizerXLError as exc:
        return None, [say(exc.message, _speaking[0])]
    except OSError as exc:
        return None, [f"{exc.filename or ''}: {exc.strerror or exc}"]
    except Exception as exc:  # a bug: say so plainly, without a traceback
        return None, [_t("keizer-xl could not finish ({cause}). Your file was not changed. "
                         "Please report this.", cause=f"{type(exc).__name__}: {exc}")]


def _say(line: str, err: bool = False) -> None:
    """Plain lines go through click (rich is imported only for progress bars and for the
    tables `_box_lines` leaves to it); a rule-book message in the chosen language."""
    click.echo(_said(line), err=err)


def _note(line: str) -> None:
    _say(_t("Note: {note}", note=_said(line)))


def _said(text: str) -> str:
    from keizer_xl.i18n import say

    return say(text, _speaking[0])


def _fail(lines: list[str]) -> int:
    for line in lines:
        _say(line, err=True)
    return PROBLEMS

