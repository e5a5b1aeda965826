"""`keizer-xl demo`: Keizer's own published example, played through a real workbook.

Ten players, top value 50; the engine pairs both rounds itself, the published results are
typed in as a secretary would, and the standings come out as in the example.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

from keizer_xl.core.messages import msg

PLAYERS = [
    ("Johnson", 2260),
    ("Petersen", 2158),
    ("Baker", 2110),
    ("Butcher", 2040),
    ("Carter", 1995),
    ("Harrison", 1910),
    ("Smith", 1867),
    ("Higgins", 1720),
    ("White", 1500),
    ("Brown", 1440),
]
# The published results, white first.
RESULTS = {
    1: {
        ("Johnson", "Petersen"): "1-0",
        ("Baker", "Butcher"): "½-½",
        ("Carter", "Harrison"): "0-1",
        ("Smith", "Higgins"): "½-½",
        ("White", "Brown"): "0-1",
    },
    2: {
        ("Harrison", "Johnson"): "1-0",
        ("Brown", "Baker"): "1-0",
        ("Butcher", "Smith"): "½-½",
        ("Higgins", "Petersen"): "0-1",
        ("Carter", "White"): "½-½",
    },
}
FLIP = {"1-0": "0-1", "0-1": "1-0", "½-½": "½-½"}
FILE_NAME = "keizer_demo.xlsx"


def enter_results(path: Path, results: dict[tuple[str, str], str]) -> None:
    """Type results into the Result cells of the open games, as the secretary would."""
    from keizer_xl.workbook.files import load
    from keizer_xl.workbook.xlsx import SheetEdit, save_edits

    competition, layout = load(path)
    col = layout.columns["Rounds"]["Result"]
    cells: dict[tuple[int, int], Any] = {}
    for game in competition.season.games():
        if game.result is not None:
            continue
        if (game.white, game.black) in results:
            word = results[(game.white, game.black)]
        else:  # the engine gave other colours than the example: same result, other side
            word = FLIP[results[(game.black, game.white)]]
        cells[(int(game.source), col)] = word  # type: ignore[call-overload]
    save_edits(path, [SheetEdit(layout.sheet["Rounds"], cells)], backup=False)


def run_demo(
    folder: Path,
    say: Callable[[str], None],
    print_round: Callable[[Any], None],
    print_standings: Callable[[Any, str], None],
    language: str = "en",
) -> Path:
    """Play the example in a new workbook (in `language`), telling each step with `say`."""
    from keizer_xl.workbook import files as workbook
    from keizer_xl.workbook.cells import top_value_cells
    from keizer_xl.workbook.newbook import create
    from keizer_xl.workbook.xlsx import SheetEdit, save_edits

    folder.mkdir(parents=True, exist_ok=True)
    path = folder / FILE_NAME
    create(path, [{"Name": n, "Rating": r, "Present": "x"} for n, r in PLAYERS], language=language)
    _, layout = workbook.load(path)
    save_edits(
        path,
        [SheetEdit(layout.sheet["Settings"], dict(top_value_cells(Fraction(50), layout)))],
        backup=False,
    )
    say(msg("Keizer's own example in {file}: 10 players, top value 50.", file=path))
    say("")
    for round_no in (1, 2):
        outcome = workbook.pair(path)
        assert outcome.next_round is not None
        print_round(outcome.next_round)
        enter_results(path, RESULTS[round_no])
        say(msg("Results of round {round} entered.", round=round_no))
        say("")
    outcome = workbook.recalc(path)
    print_standings(
        outcome.standings, msg("Standings after round {round}", round=outcome.standings.after_round)
    )
    say("")
    say(msg("Open {file} to see the Players, Rounds, Standings and Settings sheets.", file=path))
    return path
