"""Test seasons and their workbooks, for the tests and the benchmarks alike.

`club_season` plays a season through the engine itself (each round paired top-down from
the real ranking, results and absences at random), so it looks like a real club's after
that many weeks; `season_book` and `make_book` put a season, or rows typed by hand, in a
workbook made from the template; `golden_book` does so for the rule book's worked cases.
"""

from __future__ import annotations

import csv
import random
from collections.abc import Mapping, Sequence
from fractions import Fraction
from pathlib import Path

from keizer_xl.core.model import Absence, Entry, Game, Player, Rest, Result
from keizer_xl.core.pairing import pair_round
from keizer_xl.core.scoring import compute_standings
from keizer_xl.core.season import Season
from keizer_xl.core.settings import SETTINGS, Settings
from keizer_xl.workbook.template import build_template
from keizer_xl.workbook.xlsx import CellValue, SheetEdit, save_edits

GOLDEN = Path(__file__).parent / "golden"
ROUND_HEADERS = ("Round", "Board", "White", "Black", "Result")

# Mostly played games, now and then a forfeit
RESULTS = (Result.WHITE_WINS, Result.BLACK_WINS, Result.DRAW) * 6 + (
    Result.WHITE_FORFEIT_WIN,
    Result.BLACK_FORFEIT_WIN,
    Result.DOUBLE_FORFEIT,
)
REASONS = (Absence.EXCUSED, Absence.CLUB, Absence.UNEXCUSED)
PLAYED = (Result.WHITE_WINS, Result.BLACK_WINS, Result.DRAW)
FIRST = ("Anna", "Bram", "Carla", "Daan", "Eva", "Fleur", "Gert", "Hanna", "Joël", "Zoë")
LAST = (
    "de Vries",
    "Jansen",
    "van der Berg",
    "Bakker",
    "Visser",
    "Smit",
    "Mulder",
    "de Boer",
    "Bos",
    "Çelik",
    "O'Brien",
)
LONG_NAME = "Alexandra Wilhelmina van Oranje-Nassau tot Amsberg"  # longer than TRF's 33


def members(
    count: int, rounds: int, rnd: random.Random, comings_and_goings: bool
) -> tuple[Player, ...]:
    """`count` club members with names as clubs have them (one longer than a TRF file
    holds), random ratings and a few unrated; with `comings_and_goings` some join late
    and some leave before the end."""
    people = []
    for i in range(count):
        name = (
            LONG_NAME
            if i == 3
            else (f"{FIRST[i % len(FIRST)]} {LAST[(i // len(FIRST)) % len(LAST)]} {i}")
        )
        joined = rnd.randint(2, rounds) if comings_and_goings and i % 9 == 5 else 1
        left = rnd.randint(joined, rounds - 1) if comings_and_goings and i % 11 == 7 else None
        rating = Fraction(rnd.randint(1000, 2400)) if i % 13 else Fraction(0)
        people.append(Player(name, rating, joined, left, None, i))
    return tuple(people)


def club_season(
    players: int | Sequence[str],
    rounds: int,
    seed: int = 1,
    *,
    settings: Settings | None = None,
    comings_and_goings: bool = False,
    late: int | None = None,
    leaver: int | None = None,
    present: float = 0.8,
    typed: float = 1.0,
    open_last: bool = False,
) -> Season:
    """`rounds` rounds paired by the engine, with random results and absences.

    `players`: how many (see `members`), or their names (rated from 2200 down, in order);
    then player `late` (an index) joins in round 3 and player `leaver` leaves after round
    2. About a share `present` of those taking part come each round; of the others a share
    `typed` have their reason typed, the rest are left to the default. With `open_last`
    the last round is paired but not played."""
    rnd = random.Random(seed)
    if isinstance(players, int):
        people = members(players, rounds, rnd, comings_and_goings)
    else:
        people = tuple(
            Player(
                name,
                Fraction(2200 - 17 * i),
                order=i,
                joined=3 if i == late else 1,
                left=2 if i == leaver else None,
            )
            for i, name in enumerate(players)
        )
    # by default the rule book's top value for the field, fixed from the start
    s = settings or Settings(top_value=Fraction(round(1.5 * (len(people) - 1))))
    entries: list[Entry] = []
    for r in range(1, rounds + 1):
        season = Season(people, tuple(entries))
        ranking = compute_standings(season, s, r - 1).ranking
        taking = [n for n in ranking if season.player(n).takes_part_in(r)]
        here = [n for n in taking if rnd.random() < present]
        pairing = pair_round(season, ranking, here, s, r)
        last = open_last and r == rounds
        entries += [
            Game(r, g.board, g.white, g.black, None if last else rnd.choice(RESULTS))
            for g in pairing.games
        ]
        if pairing.bye:
            entries.append(Rest(r, pairing.bye, Absence.BYE))
        entries += [
            Rest(r, n, rnd.choice(REASONS))
            for n in taking
            if n not in here and (typed == 1 or rnd.random() < typed)
        ]
    return Season(people, tuple(entries))


def large_season(players: int, rounds: int, seed: int = 1, attendance: float = 0.8) -> Season:
    """A season as large as keizer_xl is made for (10,000 players over 100 rounds) in
    seconds: each round pairs the players present in order of their points so far (the
    engine's own pairing of ten thousand players, a hundred times over, would take long of
    its own, and only the files' size matters here); about `attendance` of them come, the
    others are absent with a reason, an odd one out gets the bye."""
    rnd = random.Random(seed)
    people = tuple(
        Player(f"Player {i:05d}", Fraction(rnd.randint(1000, 2400)), order=i)
        for i in range(players)
    )
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
            result = rnd.choice(PLAYED)
            entries.append(Game(r, board, white, black, result))
            points[white] += {Result.WHITE_WINS: 1, Result.DRAW: Fraction(1, 2)}.get(result, 0)
            points[black] += {Result.BLACK_WINS: 1, Result.DRAW: Fraction(1, 2)}.get(result, 0)
        entries += [Rest(r, name, rnd.choice(REASONS)) for name in ranking if name not in here]
    return Season(people, tuple(entries))


def round_rows(season: Season) -> list[list[object]]:
    """The Rounds sheet's rows of the season, as the secretary types them."""
    rows: list[list[object]] = []
    for e in season.entries:
        if isinstance(e, Game):
            rows.append([e.round, e.board, e.white, e.black, e.result.value if e.result else ""])
        else:
            rows.append([e.round, "", e.player, "", e.reason.value])
    return rows


def season_book(
    path: Path,
    season: Season,
    settings: Mapping[str, object] | None = None,
    own: Mapping[str, Sequence[object]] | None = None,
    present: float | None = None,
    seed: int = 2,
) -> Path:
    """The season as a workbook made from the template (an .xlsm with the VBA project and
    the buttons, as `new` makes it). `own`: extra Players columns of the club's own;
    `present`: a share of the players who take part next round marked present."""
    rnd = random.Random(seed)
    following = season.last_round + 1
    players = [
        {
            "Name": p.name,
            "Rating": p.rating or None,
            "Joined": p.joined if p.joined > 1 else None,
            "Left": p.left,
            "Present": "x"
            if present is not None and p.takes_part_in(following) and rnd.random() < present
            else None,
        }
        for p in season.players
    ]
    make_book(path, players, round_rows(season), settings)
    if own:
        cells: dict[tuple[int, int], CellValue] = {}
        for c, (header, values) in enumerate(own.items(), start=7):  # a blank column between
            cells[(1, c)] = header
            cells.update(
                {
                    (r, c): v
                    for r, v in enumerate(values, start=2)  # type: ignore[misc]
                    if v is not None
                }
            )
        save_edits(path, [SheetEdit("Players", cells)], backup=False)
    return path


def make_book(
    path: Path,
    players: Sequence[Mapping[str, object]],
    rounds: Sequence[Sequence[object]] = (),
    settings: Mapping[str, object] | None = None,
) -> Path:
    """A workbook from the template (.xlsm: with the VBA project and the buttons) with
    players, rounds rows and settings filled in."""
    if path.suffix == ".xlsm":
        from keizer_xl.workbook.newbook import create

        create(path, players)
    else:
        build_template(path, players)
    edits = []
    if rounds:
        cells: dict[tuple[int, int], CellValue] = {}
        for r, row in enumerate(rounds, start=2):
            for c, value in enumerate(row, start=1):
                if value not in (None, ""):
                    cells[(r, c)] = value  # type: ignore[assignment]
        edits.append(SheetEdit("Rounds", cells))
    if settings:
        names = list(SETTINGS)
        edits.append(
            SheetEdit(
                "Settings",
                {
                    (names.index(k) + 2, 2): v  # type: ignore[misc]
                    for k, v in settings.items()
                },
            )
        )
    if edits:
        save_edits(path, edits, backup=False)
    return path


def golden_rows(case: str, name: str) -> list[dict[str, str]]:
    with open(GOLDEN / case / f"{name}.csv", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def golden_book(path: Path, case: str, with_rounds: bool = True) -> Path:
    """One of the rule book's worked cases (tests/golden) as a workbook."""
    players = golden_rows(case, "players")
    rounds = [[row[h] for h in ROUND_HEADERS] for row in golden_rows(case, "rounds")]
    settings = {row["Setting"]: row["Value"] for row in golden_rows(case, "settings")}
    return make_book(path, players, rounds if with_rounds else (), settings)


# Six players and three rounds of theirs, every result: a small season the command's tests
# of one feature (tonight's stakes, what if) start from.
SIX_PLAYERS = (
    ("Anna", 2000),
    ("Bram", 1900),
    ("Carla", 1800),
    ("Daan", 1700),
    ("Eva", 1600),
    ("Fleur", 1500),
)
THREE_ROUNDS_OF_SIX = [
    [1, 1, "Anna", "Bram", "1-0"],
    [1, 2, "Carla", "Daan", "0-1"],
    [1, 3, "Eva", "Fleur", "0-1"],
    [2, 1, "Daan", "Anna", "0-1"],
    [2, 2, "Fleur", "Bram", "0-1"],
    [2, 3, "Carla", "Eva", "½-½"],
    [3, 1, "Anna", "Fleur", "0-1"],
    [3, 2, "Bram", "Daan", "1-0"],
    [3, 3, "Eva", "Carla", "0-1"],
]
