"""Club seasons for the exchange tests: paired by the engine, with everything a real season
holds (late entrants, players who leave, byes, every absence, forfeits, long names)."""

from __future__ import annotations

import random
from fractions import Fraction
from pathlib import Path

from keizer_xl.core.model import Absence, Entry, Game, Player, Rest, Result
from keizer_xl.core.pairing import pair_round
from keizer_xl.core.scoring import compute_standings
from keizer_xl.core.season import Season
from keizer_xl.core.settings import Settings
from keizer_xl.workbook.xlsx import CellValue, SheetEdit, save_edits
from tests.conftest import make_book

RESULTS = (Result.WHITE_WINS, Result.BLACK_WINS, Result.DRAW) * 6 + (
    Result.WHITE_FORFEIT_WIN, Result.BLACK_FORFEIT_WIN, Result.DOUBLE_FORFEIT)
REASONS = (Absence.EXCUSED, Absence.CLUB, Absence.UNEXCUSED)
FIRST = ("Anna", "Bram", "Carla", "Daan", "Eva", "Fleur", "Gert", "Hanna", "Joël", "Zoë")
LAST = ("de Vries", "Jansen", "van der Berg", "Bakker", "Visser", "Smit", "Mulder",
        "de Boer", "Bos", "Çelik", "O'Brien")


def club_season(players: int, rounds: int, seed: int = 1,
                settings: Settings | None = None) -> Season:
    """`rounds` completed rounds; some players join late and some leave."""
    rnd = random.Random(seed)
    s = settings or Settings(top_value=Fraction(round(1.5 * (players - 1))))
    people = []
    for i in range(players):
        name = f"{FIRST[i % len(FIRST)]} {LAST[(i // len(FIRST)) % len(LAST)]} {i}"
        if i == 3:
            name = "Alexandra Wilhelmina van Oranje-Nassau tot Amsberg"  # longer than 33
        joined = rnd.randint(2, rounds) if i % 9 == 5 else 1
        left = rnd.randint(joined, rounds - 1) if i % 11 == 7 else None
        rating = Fraction(rnd.randint(1000, 2400)) if i % 13 else Fraction(0)
        people.append(Player(name, rating, joined, left, None, i))
    entries: list[Entry] = []
    for r in range(1, rounds + 1):
        season = Season(tuple(people), tuple(entries))
        ranking = compute_standings(season, s, r - 1).ranking
        taking = [n for n in ranking if season.player(n).takes_part_in(r)]
        present = [n for n in taking if rnd.random() < 0.8]
        pairing = pair_round(season, ranking, present, s, r)
        entries += [Game(r, g.board, g.white, g.black, rnd.choice(RESULTS))
                    for g in pairing.games]
        if pairing.bye:
            entries.append(Rest(r, pairing.bye, Absence.BYE))
        entries += [Rest(r, n, rnd.choice(REASONS)) for n in taking if n not in present]
    return Season(tuple(people), tuple(entries))


def season_book(path: Path, season: Season, settings: dict[str, object] | None = None,
                own: dict[str, list[object]] | None = None) -> Path:
    """The season as a workbook made from the template; `own`: extra Players columns."""
    players = [{"Name": p.name, "Rating": p.rating or None,
                "Joined": p.joined if p.joined > 1 else None, "Left": p.left}
               for p in season.players]
    rows: list[list[object]] = []
    for e in season.entries:
        if isinstance(e, Game):
            rows.append([e.round, e.board, e.white, e.black, e.result.value if e.result else ""])
        else:
            rows.append([e.round, "", e.player, "", e.reason.value])
    if path.suffix == ".xlsm":  # with the VBA project and the buttons, as `new` makes it
        from keizer_xl.core.settings import SETTINGS
        from keizer_xl.workbook.newbook import create

        create(path, players)
        cells = {(r, c): v for r, row in enumerate(rows, start=2)
                 for c, v in enumerate(row, start=1) if v not in (None, "")}
        names = list(SETTINGS)
        save_edits(path, [SheetEdit("Rounds", cells),  # type: ignore[arg-type]
                          SheetEdit("Settings", {(names.index(k) + 2, 2): v  # type: ignore[misc]
                                                 for k, v in (settings or {}).items()})],
                   backup=False)
    else:
        make_book(path, players, rows, settings)
    if own:
        cells: dict[tuple[int, int], CellValue] = {}
        for c, (header, values) in enumerate(own.items(), start=7):  # a blank column between
            cells[(1, c)] = header
            cells.update({(r, c): v for r, v in enumerate(values, start=2)  # type: ignore[misc]
                          if v is not None})
        save_edits(path, [SheetEdit("Players", cells)], backup=False)
    return path
