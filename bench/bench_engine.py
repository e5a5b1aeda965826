"""Timing of the standings (the engine alone, no files): a script, not a test.

Prints `name: X ms (target Y ms)` lines and how the cost grows with players and rounds;
`main()` returns the figures for the bench runner. The engine works on
the season's integer rows, which the checks make while reading a workbook; for these
seasons, made in Python, they are made once before the clock starts (and that time is
printed too). The pandas door is timed whole: DataFrames made from plain lists, checked,
computed and turned back into a DataFrame with the per-round columns.
"""

from __future__ import annotations

import random
import sys
import time
from fractions import Fraction
from pathlib import Path

from keizer_xl.core.model import Absence, Entry, Game, Player, Rest, Result
from keizer_xl.core.scoring import compute_standings
from keizer_xl.core.season import Season
from keizer_xl.core.settings import Settings, parse_settings

sys.path.insert(0, str(Path(__file__).resolve().parent))

from measure import Figure

RESULTS = (Result.WHITE_WINS, Result.BLACK_WINS, Result.DRAW)
REASONS = (Absence.EXCUSED, Absence.CLUB, Absence.UNEXCUSED)


def random_season(players: int, rounds: int, seed: int = 1) -> Season:
    """Random games among 80 % of the players each round (the engine's cost does not
    depend on who plays whom, only on how many rows there are)."""
    rnd = random.Random(seed)
    people = tuple(
        Player(f"P{i}", Fraction(rnd.randint(1000, 2500)), order=i) for i in range(players)
    )
    entries: list[Entry] = []
    for r in range(1, rounds + 1):
        names = [p.name for p in people]
        rnd.shuffle(names)
        k = int(players * 0.8) // 2 * 2
        for b in range(0, k, 2):
            entries.append(Game(r, b // 2 + 1, names[b], names[b + 1], rnd.choice(RESULTS)))
        for name in names[k:]:
            entries.append(Rest(r, name, rnd.choice(REASONS)))
    return Season(people, tuple(entries))


def best_of(season: Season, settings: Settings, repeat: int) -> float:
    season.rows  # noqa: B018 - what reading the season makes, before the clock starts
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        table = compute_standings(season, settings)
        times.append(time.perf_counter() - start)
        assert len(table.rows) == len(season.players)
    return min(times)


def main() -> list[Figure]:
    out = []
    cases = [
        ("standings 60 players x 37 rounds", 60, 37, 0.003, 20),
        ("standings 1000 players x 30 rounds", 1000, 30, 0.012, 10),
        ("standings 2000 players x 100 rounds", 2000, 100, 0.080, 5),
    ]
    for name, n, r, target, repeat in cases:
        season = random_season(n, r)
        start = time.perf_counter()
        season.rows  # noqa: B018
        rows = time.perf_counter() - start
        seconds = best_of(season, Settings(top_value=Fraction(90)), repeat)
        out.append(Figure(name, seconds, target, "s"))
        print(
            f"{name}: {seconds * 1000:.1f} ms (target {target * 1000:.0f} ms); its rows "
            f"made from Python objects: {rows * 1000:.0f} ms"
        )
    door = door_seconds(2000, 100)
    out.append(
        Figure("keizer_xl.engine.standings 2000 x 100, DataFrames in and out", door, 0.150, "s")
    )
    print(
        f"keizer_xl.engine.standings 2000 players x 100 rounds, DataFrames in and out: "
        f"{door * 1000:.0f} ms (target 150 ms)"
    )
    # every variant against the default on the same season: at most 20 % slower
    season = random_season(60, 37)
    plain = Settings(top_value=Fraction(90))
    variants = {
        "kfc preset": parse_settings({"Preset": "kfc"}),
        "iterate final": parse_settings({"Top value": "90", "Iterate": "final"}),
        "ties shared": parse_settings({"Top value": "90", "Ties": "shared"}),
        "own value initial": parse_settings({"Top value": "90", "Own value": "initial"}),
        "loss 1/6": parse_settings({"Top value": "90", "Loss": "1/6"}),
        "decreasing absences, cap 3": parse_settings(
            {"Top value": "90", "Excused absence": "1/3, 1/4, 1/5", "Max rewarded absences": "3"}
        ),
        "values rating, K 20": parse_settings({"Values": "rating", "Rating K-factor": "20"}),
    }
    for label, variant in variants.items():
        # alternate default and variant, so that the machine's drift hits both alike
        pairs = [(best_of(season, plain, 1), best_of(season, variant, 1)) for _ in range(40)]
        default, seconds = min(d for d, _ in pairs), min(v for _, v in pairs)
        out.append(Figure(f"standings 60x37, {label} / default", seconds / default, 1.2, "x"))
        print(
            f"standings 60x37, {label}: {seconds * 1000:.1f} ms "
            f"({(seconds / default - 1) * 100:+.0f} % against the default)"
        )
    print("growth (ms): players at 100 rounds, then rounds at 1000 players")
    plain = Settings(top_value=Fraction(90))
    for n in (250, 500, 1000, 2000, 5000):
        seconds = best_of(random_season(n, 100), plain, 2)
        print(f"  {n:5d} players x 100 rounds: {seconds * 1000:.1f}")
    for r in (25, 50, 100, 200):
        seconds = best_of(random_season(1000, r), plain, 2)
        print(f"  1000 players x {r:3d} rounds: {seconds * 1000:.1f}")
    return out


def door_seconds(players: int, rounds: int, repeat: int = 3) -> float:
    """`keizer_xl.engine.standings` from DataFrames made of plain lists, best of `repeat`."""
    import pandas as pd

    from keizer_xl.engine import standings

    season = random_season(players, rounds)
    people = pd.DataFrame(
        {
            "Name": [p.name for p in season.players],
            "Rating": [int(p.rating) for p in season.players],
        }
    )
    rows = [
        [e.round, e.board, e.white, e.black, e.result.value if e.result else None]
        if isinstance(e, Game)
        else [e.round, None, e.player, None, e.reason.value]
        for e in season.entries
    ]
    frame = pd.DataFrame(rows, columns=["Round", "Board", "White", "Black", "Result"])
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        table = standings(people, frame, {"Top value": 90})
        best = min(best, time.perf_counter() - start)
        assert table.shape == (players, 12 + rounds)
    return best


if __name__ == "__main__":
    for figure in main():
        print(figure.line())
