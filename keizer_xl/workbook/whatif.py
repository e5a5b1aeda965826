"""What if the club changed a rule: the standings now and with some settings tried, read
from the workbook without writing anything.

Before a club meeting decides on a change of rules, the secretary shows what it would do.
The tried settings are put into a copy of the Settings sheet's cells as read, in place of
the club's own value or in a row of their own, and the workbook is read again from that
copy: so a tried setting is read exactly as if it were typed on the sheet, in any of the
workbook's languages, and the file itself is never opened for writing.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

from keizer_xl.core.messages import Joined, Name, msg
from keizer_xl.core.round import Competition
from keizer_xl.core.settings import SETTINGS, not_a_setting, setting_name
from keizer_xl.core.words import WordError
from keizer_xl.i18n.names import SETTINGS_TO_CONTRACT, name_key
from keizer_xl.workbook.files import read_grids
from keizer_xl.workbook.layout import BookError, Grid, Layout, read_book


class Trial(NamedTuple):
    """The competition as the workbook has it (`now`), as it would be with the `settings`
    tried (each a setting's contract name and the value as typed), and the workbook's
    language."""

    now: Competition
    tried: Competition
    settings: tuple[tuple[str, str], ...]
    language: str


def read_trials(trials: Sequence[str]) -> tuple[tuple[str, str], ...]:
    """Each `SETTING=VALUE` as (the setting's contract name, the value as typed); the
    setting named in any workbook language. WordError names every one that is wrong."""
    found: dict[str, str] = {}
    problems: list[str] = []
    for trial in trials:
        name, equals, value = trial.partition("=")
        name, value = " ".join(name.split()), value.strip()
        if not equals or not name or not value:
            problems.append(
                msg(
                    "--try '{trial}': write it as SETTING=VALUE, for example \"Loss=1/2\"",
                    trial=trial,
                )
            )
            continue
        setting = setting_name(SETTINGS_TO_CONTRACT.get(name_key(name), name))
        if setting is None:
            problems.append(
                msg("--try '{trial}': {problem}", trial=trial, problem=not_a_setting(name))
            )
            continue
        try:
            SETTINGS[setting].read(value)
        except WordError as error:
            problems.append(
                msg(
                    "--try '{trial}': {setting}: {problem}",
                    trial=trial,
                    setting=Name(setting, "setting"),
                    problem=error.message,
                )
            )
            continue
        found[setting] = value  # the last one counts, as the last word typed would
    if problems:
        raise WordError(Joined("\n", problems))
    return tuple(found.items())


def tried(path: Path, trials: Sequence[str]) -> Trial:
    """The workbook's competition now and with `trials` (`SETTING=VALUE` each); the file
    is only read. BookError for the workbook's problems, each with its cell; WordError for
    a trial that is wrong, or tried settings that do not go together (with each other or
    with the club's own)."""
    settings = read_trials(trials)
    grids = read_grids(path)
    now, layout = read_book(grids)
    try:
        with_them, _ = read_book(
            {
                **grids,
                layout.sheet["Settings"]: _settings_sheet(
                    grids[layout.sheet["Settings"]], layout, settings
                ),
            }
        )
    except BookError as error:  # the workbook was fine: the tried settings are not
        raise WordError(
            Joined(
                "\n",
                [msg("--try: {problem}", problem=problem.message) for problem in error.problems],
            )
        ) from None
    return Trial(now, with_them, settings, layout.language)


def _settings_sheet(
    grid: Grid, layout: Layout, settings: Sequence[tuple[str, str]]
) -> list[list[object]]:
    """A copy of the Settings sheet's cells with each tried value in its setting's row, or
    in a new row below the others when the club has no row for that setting."""
    rows = [list(row) for row in grid]
    name_at = layout.columns["Settings"]["Setting"] - 1
    value_at = layout.columns["Settings"]["Value"] - 1
    for setting, value in settings:
        row = layout.setting_rows.get(setting)
        if row is None:
            new: list[object] = [None] * (max(name_at, value_at) + 1)
            new[name_at] = setting
            rows.append(new)
            row = len(rows)
        cells = rows[row - 1]
        cells.extend([None] * (value_at + 1 - len(cells)))
        cells[value_at] = value
    return rows
