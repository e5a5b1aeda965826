"""Putting a mistake right: take back the last pairing, rename a player, clear the lock a
crashed program left on a workbook."""

from __future__ import annotations

from pathlib import Path

import click

from keizer_xl.cli.prelude import perform
from keizer_xl.cli.speech import say, speak, t, typed


@click.command()
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--force", is_flag=True, help="Take the round back even when some of its results are typed."
)
def unpair(file: Path, force: bool) -> None:
    """Take back the last round of FILE, as the "Undo last pairing" button does.

    Removes the round's rows from the Rounds sheet (only while none of its results is
    typed, unless --force) and puts the Standings back to after the round before.
    """
    from keizer_xl.workbook import files as workbook

    speak(file)
    unpaired = perform(lambda: workbook.unpair(file, force))
    games = sum(1 for e in unpaired.entries if hasattr(e, "black"))
    others = len(unpaired.entries) - games
    removed = [
        t("1 game") if games == 1 else t("{count} games", count=games),
        t("1 bye and absence row")
        if others == 1
        else t("{count} bye and absence rows", count=others),
    ]
    if unpaired.results:
        removed.append(
            t("with the 1 result typed in it")
            if unpaired.results == 1
            else t("with the {count} results typed in it", count=unpaired.results)
        )
    after = unpaired.standings.after_round
    back = (
        t("The Standings show after round {round} again.", round=after)
        if after
        else t("The Standings show the initial ranking again.")
    )
    say(
        t(
            "Round {round} taken back from {file}: {games} and {rows} removed{typed}. {back}",
            round=unpaired.round,
            file=file,
            games=removed[0],
            rows=removed[1],
            typed=f", {removed[2]}" if len(removed) > 2 else "",
            back=back,
        )
    )


@click.command()
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.argument("old")
@click.argument("new")
def rename(file: Path, old: str, new: str) -> None:
    """Rename player OLD to NEW in FILE: the Players sheet and every row of Rounds, nothing
    else (recalc then shows the new name in the Standings)."""
    from keizer_xl.workbook import files as workbook

    speak(file)
    was, cells = perform(lambda: workbook.rename(file, old, new))
    values = {"was": was, "new": new.strip(), "file": typed(file), "count": cells}
    say(
        t(
            "{was} is now {new} in {file}: the Players sheet and 1 cell of the Rounds sheet. "
            "keizer-xl recalc {file} shows the new name in the Standings.",
            **values,
        )
        if cells == 1
        else t(
            "{was} is now {new} in {file}: the Players sheet and {count} cells of the Rounds "
            "sheet. keizer-xl recalc {file} shows the new name in the Standings.",
            **values,
        )
    )


@click.command()
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
def unlock(file: Path) -> None:
    """Clear the lock that Excel, LibreOffice or another user's keizer-xl left on FILE when
    it ended without closing it (after a crash, or on another computer).

    Refused while FILE is really open, or being changed by keizer-xl: close it there first.
    """
    from keizer_xl.workbook import files as workbook

    speak(file)
    left = perform(lambda: workbook.unlock(file))
    say(
        t(
            "{file} is unlocked: cleared the lock left by {who}.",
            file=file,
            who=t(" and ").join(left),
        )
        if left
        else t("{file} was not locked; nothing to clear.", file=file)
    )
