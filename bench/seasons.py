"""Realistic club seasons for the benchmarks: players come and go, results are random.

Rounds are paired by the engine itself (top-down from the real ranking), so the files look
like a real club's after that many weeks.
"""

from __future__ import annotations

import random
from fractions import Fraction
from pathlib import Path

from keizer_xl.core.model import Absence, Entry, Game, Player, Rest, Result
from keizer_xl.core.pairing import pair_round
from keizer_xl.core.scoring import compute_standings
from keizer_xl.core.season import Season
from keizer_xl.core.settings import Settings

RESULTS = (Result.WHITE_WINS, Result.BLACK_WINS, Result.DRAW)
REASONS = (Absence.EXCUSED, Absence.EXCUSED, Absence.CLUB, Absence.UNEXCUSED)


def club_season(players: int, rounds: int, seed: int = 1, attendance: float = 0.8,
                settings: Settings | None = None) -> Season:
    """A season of `rounds` completed rounds; about `attendance` of the players come."""
    rnd = random.Random(seed)
    s = settings or Settings(top_value=Fraction(round(1.5 * (players - 1))))
    people = tuple(Player(f"Player {i:04d}", Fraction(rnd.randint(1000, 2400)), order=i)
                   for i in range(players))
    entries: list[Entry] = []
    for r in range(1, rounds + 1):
        season = Season(people, tuple(entries))
        ranking = compute_standings(season, s, r - 1).ranking if r > 1 else \
            tuple(p.name for p in sorted(people, key=lambda p: (-p.rating, p.order)))
        present = [name for name in ranking if rnd.random() < attendance]
        pairing = pair_round(season, ranking, present, s, r)
        for g in pairing.games:
            entries.append(Game(r, g.board, g.white, g.black, rnd.choice(RESULTS)))
        if pairing.bye:
            entries.append(Rest(r, pairing.bye, Absence.BYE))
        for name in ranking:
            if name not in present:
                entries.append(Rest(r, name, rnd.choice(REASONS)))
    return Season(people, tuple(entries))


def large_season(players: int, rounds: int, seed: int = 1,
                 attendance: float = 0.8) -> Season:
    """A season as large as keizer_xl is made for (10,000 players over 100 rounds) in
    seconds: each round pairs the players present in order of their points so far (the
    engine's own pairing of ten thousand players, a hundred times over, would take long of
    its own, and only the files' size matters here); about `attendance` of them come, the
    others are absent with a reason, an odd one out gets the bye."""
    rnd = random.Random(seed)
    people = tuple(Player(f"Player {i:05d}", Fraction(rnd.randint(1000, 2400)), order=i)
                   for i in range(players))
    points = {p.name: Fraction(0) for p in people}
    rating = {p.name: p.rating for p in people}
    entries: list[Entry] = []
    for r in range(1, rounds + 1):
        ranking = sorted(points, key=lambda name: (-points[name], -rating[name]))
        present = [name for name in ranking if rnd.random() < attendance]
        here = set(present)
        if len(present) % 2:
            entries.append(Rest(r, present.pop(), Absence.BYE))
        for board, at in enumerate(range(0, len(present), 2), start=1):
            white, black = present[at : at + 2]
            if rnd.random() < 0.5:
                white, black = black, white
            result = rnd.choice(RESULTS)
            entries.append(Game(r, board, white, black, result))
            points[white] += {Result.WHITE_WINS: 1, Result.DRAW: Fraction(1, 2)}.get(result, 0)
            points[black] += {Result.BLACK_WINS: 1, Result.DRAW: Fraction(1, 2)}.get(result, 0)
        entries += [Rest(r, name, rnd.choice(REASONS)) for name in ranking if name not in here]
    return Season(people, tuple(entries))


def write_workbook(season: Season, path: Path, settings: dict[str, object] | None = None,
                   present: float = 0.8, seed: int = 2) -> Path:
    """The season as a club workbook made from the template, as the secretary has it."""
    from keizer_xl.workbook.template import build_template
    from keizer_xl.workbook.xlsx import SheetEdit, save_edits

    rnd = random.Random(seed)
    build_template(path, [{"Name": p.name, "Rating": int(p.rating),
                           "Present": "x" if rnd.random() < present else ""}
                          for p in season.players])
    cells: dict[tuple[int, int], object] = {}
    for row, e in enumerate(season.entries, start=2):
        if isinstance(e, Game):
            values = [e.round, e.board, e.white, e.black, e.result.value if e.result else None]
        else:
            values = [e.round, None, e.player, None, e.reason.value]
        for col, value in enumerate(values, start=1):
            if value is not None:
                cells[(row, col)] = value
    edits = [SheetEdit("Rounds", cells)]  # type: ignore[arg-type]
    if settings:
        from keizer_xl.core.settings import SETTINGS

        names = list(SETTINGS)
        edits.append(SheetEdit("Settings", {(names.index(k) + 2, 2): v  # type: ignore[misc]
                                            for k, v in settings.items()}))
    save_edits(path, edits, backup=False)
    return path
