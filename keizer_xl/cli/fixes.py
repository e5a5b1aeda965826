"""Putting a mistake right: take back the last pairing, rename a player."""

from __future__ import annotations

import sys
from pathlib import Path

import click


@click.command()
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--force", is_flag=True,
              help="Take the round back even when some of its results are typed.")
def unpair(file: Path, force: bool) -> None:
    """Take back the last round of FILE, as the "Undo last pairing" button does.

    Removes the round's rows from the Rounds sheet (only while none of its results is
    typed, unless --force) and puts the Standings back to after the round before.
    """
    from keizer_xl.cli.main import _attempt, _fail, _say, _tune_gc
    from keizer_xl.workbook import files as workbook

    _tune_gc()
    unpaired, lines = _attempt(lambda: workbook.unpair(file, force))
    if unpaired is None:
        sys.exit(_fail(lines))
    games = sum(1 for e in unpaired.entries if hasattr(e, "black"))
    others = len(unpaired.entries) - games
    typed = (f", with the {unpaired.results} result{'s' if unpaired.results != 1 else ''} "
             "typed in it" if unpaired.results else "")
    back = (f"after round {unpaired.standings.after_round}" if unpaired.standings.after_round
            else "the initial ranking")
    _say(f"Round {unpaired.round} taken back from {file}: {games} game"
         f"{'s' if games != 1 else ''} and {others} bye and absence row"
         f"{'s' if others != 1 else ''} removed{typed}. The Standings show {back} again.")


@click.command()
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.argument("old")
@click.argument("new")
def rename(file: Path, old: str, new: str) -> None:
    """Rename player OLD to NEW in FILE: the Players sheet and every row of Rounds, nothing
    else (recalc then shows the new name in the Standings)."""
    from keizer_xl.cli.main import _attempt, _fail, _say
    from keizer_xl.workbook import files as workbook

    done, lines = _attempt(lambda: workbook.rename(file, old, new))
    if done is None:
        sys.exit(_fail(lines))
    was, cells = done
    _say(f"{was} is now {new.strip()} in {file}: the Players sheet and {cells} cell"
         f"{'s' if cells != 1 else ''} of the Rounds sheet. keizer-xl recalc {file} shows "
         "the new name in the Standings.")
