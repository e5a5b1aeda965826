"""Timing of the pairing on large and on hard fields (a script, not a test).

Run `python bench/bench_pairing.py`; it prints one line per case and `main()` returns the
figures for the bench runner. `keizer_xl.engine.pair` (the pandas door) is timed whole,
reading and checking the DataFrames included: 5,000 present may cost at most 5.5 × what
1,000 do (issue 24).
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable
from fractions import Fraction
from functools import partial
from pathlib import Path
from typing import Any

from keizer_xl.core.model import Absence, Entry, Game, Player, Rest, Result
from keizer_xl.core.pairing import pair_round
from keizer_xl.core.season import Season
from keizer_xl.core.settings import Settings

sys.path.insert(0, str(Path(__file__).resolve().parent))

from measure import Figure

PLAYED = (Result.WHITE_WINS, Result.BLACK_WINS, Result.DRAW)


def swiss_like_season(players: int, rounds: int, seed: int = 1) -> tuple[Season, list[str]]:
    """A season in which players near each other in the ranking met recently (the hard,
    realistic case for top-down pairing), and the ranking after the last round."""
    rng = random.Random(seed)
    names = [f"Player {i:04d}" for i in range(1, players + 1)]
    season_players = tuple(
        Player(name, Fraction(2400 - i), order=i) for i, name in enumerate(names)
    )
    score = {name: 0.0 for name in names}
    last_met: dict[frozenset[str], int] = {}
    entries: list[Entry] = []
    ranking = list(names)
    for rnd in range(1, rounds + 1):
        waiting = list(ranking)
        if len(waiting) % 2:
            entries.append(Rest(rnd, waiting.pop(), Absence.BYE))
        board = 0
        while waiting:
            top = waiting.pop(0)
            pick = next(
                (
                    i
                    for i, other in enumerate(waiting)
                    if rnd - last_met.get(frozenset((top, other)), -99) > 3
                ),
                0,
            )
            other = waiting.pop(pick)
            board += 1
            result = rng.choice(PLAYED)
            entries.append(Game(rnd, board, top, other, result))
            last_met[frozenset((top, other))] = rnd
            score[top] += {Result.WHITE_WINS: 1.0, Result.DRAW: 0.5}.get(result, 0.0)
            score[other] += {Result.BLACK_WINS: 1.0, Result.DRAW: 0.5}.get(result, 0.0)
        ranking = sorted(names, key=lambda n: -score[n] - rng.random() * 0.7)
    return Season(season_players, tuple(entries)), ranking


def bottom_clique_season(top: int = 31, bottom: int = 19) -> tuple[Season, list[str]]:
    """The bottom players have all met each other in a round robin within the window; the
    top players only have forfeits (no meetings). Plain backtracking explodes on this."""
    names = [f"Player {i:02d}" for i in range(1, top + bottom + 1)]
    season_players = tuple(
        Player(name, Fraction(2400 - i), order=i) for i, name in enumerate(names)
    )
    low = names[top:]
    circle = [*low, None] if len(low) % 2 else list(low)
    entries: list[Entry] = []
    for rnd in range(1, len(circle)):
        for board in range(len(circle) // 2):
            a, b = circle[board], circle[-1 - board]
            if a is None or b is None:
                entries.append(Rest(rnd, a or b or "", Absence.BYE))
            else:
                entries.append(Game(rnd, board + 1, a, b, Result.DRAW))
        circle = [circle[0], circle[-1], *circle[1:-1]]
        for board in range(top // 2):
            entries.append(
                Game(
                    rnd, 100 + board, names[2 * board], names[2 * board + 1], Result.DOUBLE_FORFEIT
                )
            )
    return Season(season_players, tuple(entries)), names


def _time(run: Callable[[], object], repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return best


def growth_cases() -> list[tuple[str, Callable[[], object]]]:
    """Pairing for 60, 200, 1,000 and 5,000 present after 30 rounds, in three cases: the
    usual (window 3), a wide window (30: no rematch all season) and the bottom 19 having
    all met within the window (the rest only forfeits)."""
    cases: list[tuple[str, Callable[[], object]]] = []
    window3, wide = Settings(rematch_window=3), Settings(rematch_window=30)
    for n in GROWTH:
        season, ranking = swiss_like_season(n, 30)
        cases.append(
            (f"usual, {n} present", partial(pair_round, season, ranking, ranking, window3))
        )
        cases.append(
            (f"wide window, {n} present", partial(pair_round, season, ranking, ranking, wide))
        )
        clique, clique_ranking = bottom_clique_season(top=n - 19, bottom=19)
        cases.append(
            (
                f"bottom 19 all met, {n} present",
                partial(
                    pair_round, clique, clique_ranking, clique_ranking, Settings(rematch_window=19)
                ),
            )
        )
    return cases


GROWTH = (60, 200, 1000, 5000)
DOOR = (1000, 5000)  # present players for the pandas door
DOOR_RUNS = 5


def door_pair_frames(players: int, rounds: int) -> tuple[Any, Any, dict[str, object]]:
    """A season as the DataFrames a notebook user has, everybody present."""
    import pandas as pd

    season, _ = swiss_like_season(players, rounds)
    people = pd.DataFrame(
        {
            "Name": [p.name for p in season.players],
            "Rating": [1000 + players - i for i in range(players)],
            "Present": ["x"] * players,
        }
    )
    rows = [
        [e.round, e.board, e.white, e.black, e.result.value if e.result else None]
        if isinstance(e, Game)
        else [e.round, None, e.player, None, e.reason.value]
        for e in season.entries
    ]
    frame = pd.DataFrame(rows, columns=["Round", "Board", "White", "Black", "Result"])
    return people, frame, {"Top value": round(1.5 * (players - 1))}


def main() -> list[Figure]:
    cases: list[tuple[str, Callable[[], object], float]] = []

    season, ranking = swiss_like_season(1000, 30)
    window3 = Settings(rematch_window=3)
    cases.append(
        (
            "top-down, 1000 present after 30 rounds, window 3",
            lambda: pair_round(season, ranking, ranking, window3),
            0.5,
        )
    )
    odd = ranking[:-1]
    cases.append(
        (
            "top-down, 999 present (bye) after 30 rounds, window 3",
            lambda: pair_round(season, ranking, odd, window3),
            0.5,
        )
    )

    clique, clique_ranking = bottom_clique_season()
    wide = Settings(rematch_window=19)
    cases.append(
        (
            "worst case, 50 present, bottom 19 all met within the window",
            lambda: pair_round(clique, clique_ranking, clique_ranking, wide),
            0.5,
        )
    )

    early, early_ranking = swiss_like_season(1000, 3, seed=2)
    spread = Settings(pairing="spread")
    cases.append(
        (
            "spread, 1000 present, round 4 (D = 8), window 3",
            lambda: pair_round(early, early_ranking, early_ranking, spread),
            0.5,
        )
    )
    fresh = Season(early.players)
    fresh_ranking = [p.name for p in early.players]
    cases.append(
        (
            "spread, 1000 present, round 1 (D = 2)",
            lambda: pair_round(fresh, fresh_ranking, fresh_ranking, spread),
            0.5,
        )
    )

    results: list[Figure] = []
    for name, run, target in cases:
        seconds = _time(run)
        print(f"{name}: {seconds * 1000:.1f} ms (target {target * 1000:.0f} ms)")
        results.append(Figure(name, seconds, target, "s"))

    print("growth (ms): pairing after 30 rounds, everybody present")
    timed: dict[str, float] = {}
    for name, run in growth_cases():
        timed[name] = _time(run)
        print(f"  {name}: {timed[name] * 1000:.1f}")
    for case in ("usual", "wide window", "bottom 19 all met"):
        big, small = timed[f"{case}, 5000 present"], timed[f"{case}, 1000 present"]
        results.append(Figure(f"pairing {case}, 5,000 present", big, 0.060, "s"))
        results.append(Figure(f"pairing {case}, 5,000 / 1,000 present", big / small, 5.5, "x"))
        print(
            f"{case}: 5000 present {big * 1000:.1f} ms (target 60 ms), "
            f"{big / small:.2f} x the time for 1000 (target 5.5)"
        )

    from keizer_xl.engine import pair

    # the two sizes take turns, so that a busy spell of the machine slows both alike
    frames = {n: door_pair_frames(n, 30) for n in DOOR}
    door = {n: float("inf") for n in DOOR}
    for _ in range(DOOR_RUNS):
        for n in DOOR:
            door[n] = min(door[n], _time(partial(pair, *frames[n]), repeat=1))
    for n in DOOR:
        print(
            f"keizer_xl.engine.pair, {n} present after 30 rounds: {door[n] * 1000:.0f} ms "
            f"(best of {DOOR_RUNS})"
        )
    results.append(
        Figure(
            "keizer_xl.engine.pair, 5,000 / 1,000 present",
            door[5000] / door[1000],
            5.5,
            "x",
            issue=24,
        )
    )
    print(
        f"keizer_xl.engine.pair: 5000 present {door[5000] / door[1000]:.2f} x the time for "
        "1000 (target 5.5)"
    )
    return results


if __name__ == "__main__":
    for figure in main():
        print(figure.line())
