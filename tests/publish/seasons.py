"""Seasons for the publishing tests: paired by the engine, with every kind of round row."""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction

from keizer_xl.core.model import Absence, Entry, Game, Player, Rest, Result
from keizer_xl.core.pairing import pair_round
from keizer_xl.core.scoring import compute_standings
from keizer_xl.core.season import Season
from keizer_xl.core.settings import Settings

RESULTS = (Result.WHITE_WINS, Result.BLACK_WINS, Result.DRAW, Result.WHITE_WINS,
           Result.BLACK_WINS, Result.DRAW, Result.WHITE_FORFEIT_WIN)
REASONS = (Absence.EXCUSED, Absence.CLUB, Absence.UNEXCUSED)

HOSTILE = ("O'Brien & <Zoë>", "../x", "<script>alert(1)</script>", "Jan de Vries",
           "jan-de-vries", "CON", "Ünal Şahin", "\"Quoted\" Name", "a/b\\c", "李小龙",
           "Émile Zola", "&amp; Co")


def club_season(names: Sequence[str], rounds: int, seed: int = 7,
                settings: Settings | None = None, open_last: bool = False,
                late: int | None = None, leaver: int | None = None,
                typed: float = 0.7) -> Season:
    """`rounds` rounds paired by the engine; with `open_last` the last one has no results.

    Player `late` (an index) joins in round 3, player `leaver` leaves after round 2; some
    absences are typed (a share `typed` of them), the others left to the default reason."""
    rnd = random.Random(seed)
    s = settings or Settings()
    people = tuple(Player(name, Fraction(2200 - 17 * i), order=i,
                          joined=3 if i == late else 1,
                          left=2 if i == leaver else None)
                   for i, name in enumerate(names))
    entries: list[Entry] = []
    for r in range(1, rounds + 1):
        season = Season(people, tuple(entries))
        standings = compute_standings(season, s, r - 1)
        here = [p for p in people if p.takes_part_in(r)]
        present = [name for name in standings.ranking
                   if any(p.name == name for p in here) and rnd.random() < 0.85]
        pairing = pair_round(season, standings.ranking, present, s, r)
        last = open_last and r == rounds
        for g in pairing.games:
            entries.append(Game(r, g.board, g.white, g.black,
                                None if last else rnd.choice(RESULTS)))
        if pairing.bye:
            entries.append(Rest(r, pairing.bye, Absence.BYE))
        for p in here:
            if p.name not in present and rnd.random() < typed:  # the rest: default reason
                entries.append(Rest(r, p.name, rnd.choice(REASONS)))
    return Season(people, tuple(entries))
