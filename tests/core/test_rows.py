"""A season's rows as integer arrays: read straight from a Rounds table when it is in
order, and then the same Season, problems and cautions as the row-by-row checks give."""

from __future__ import annotations

import random
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from keizer_xl.core import checks
from keizer_xl.core.checks import PLAYER_COLUMNS, ROUND_COLUMNS, Table, build_season
from keizer_xl.core.errors import KeizerError, Problems
from keizer_xl.core.model import Absence, Game, Player, Rest, Result
from keizer_xl.core.rows import RowEntries, SeasonRows, group_sizes
from keizer_xl.core.season import Season
from keizer_xl.core.settings import Settings
from tests.profiles import examples

NAMES = ["Anna", "Bram", "Cor", "Dirk", "Els", "Zoë"]


def rounds_table(rng: random.Random, messy: bool) -> Table:
    """A Rounds table of a few rounds, mostly in order; `messy` mixes in what needs words:
    typos, other spellings, gaps, doubles, missing results, numbers typed as text."""
    rows: list[list[object]] = []
    rounds = rng.randint(0, 4)
    for r in range(1, rounds + 1):
        order = list(NAMES)
        rng.shuffle(order)
        while len(order) >= 2 and rng.random() < 0.8:
            a, b = order.pop(), order.pop()
            result = rng.choice(["1-0", "0-1", "½-½", "+-", "-+", "--"])
            rows.append(
                [r, len(rows) + 1, a, b, None if r == rounds and rng.random() < 0.2 else result]
            )
        for name in order:
            if rng.random() < 0.7:
                rows.append(
                    [r, None, name, None, rng.choice(["bye", "excused", "club", "unexcused"])]
                )
    if messy:
        for _ in range(rng.randint(1, 3)):
            if not rows:
                break
            row = rng.choice(rows)
            col = rng.randrange(5)
            row[col] = rng.choice(
                [
                    None,
                    "x",
                    0,
                    2.5,
                    "3",
                    7,
                    "anna",
                    "Zoe",
                    "Nobody",
                    "Bram",
                    10_001,
                    "bye",
                    "1-0",
                    True,
                    1.0,
                    rounds + 2,
                    "1 - 0",
                ]
            )
    labels = list(range(2, len(rows) + 2))
    return Table(
        "Rounds", labels, {c: [row[i] for row in rows] for i, c in enumerate(ROUND_COLUMNS)}
    )


def players_table(rng: random.Random, coming_and_going: bool = True) -> Table:
    rows = [
        [
            n,
            rng.choice([None, 1500, 1800]),
            rng.choice([None, None, 1, 2]) if coming_and_going else None,
            rng.choice([None, None, None, 3]) if coming_and_going else None,
            None,
        ]
        for n in NAMES
    ]
    return Table(
        "Players",
        list(range(2, len(rows) + 2)),
        {c: [row[i] for row in rows] for i, c in enumerate(PLAYER_COLUMNS)},
    )


def checked(players: Table, rounds: Table) -> tuple[object, ...]:
    problems = Problems()
    try:
        season = build_season(players, rounds, Settings(), problems)
    except KeizerError as error:  # pragma: no cover - build_season collects, the caller raises
        return ("raised", error.problems)
    return (season, problems.items, problems.cautions)


@settings(max_examples=examples(400), deadline=None)
@given(st.randoms(use_true_random=False), st.booleans(), st.booleans())
def test_read_straight_or_row_by_row_alike(
    rng: random.Random, coming_and_going: bool, messy: bool
) -> None:
    players = players_table(rng, coming_and_going)
    rounds = rounds_table(rng, messy)
    straight = checks.read_rows(rounds, checks.read_players(players, Settings(), Problems()))
    fast = checked(players, rounds)
    with pytest.MonkeyPatch.context() as monkeypatch:  # one example at a time
        monkeypatch.setattr(checks, "read_rows", lambda table, players: None)
        plain = checked(players, rounds)
    assert fast == plain
    if straight is not None:  # read straight: no row of the Rounds table had a problem
        assert not any(p.table == "Rounds" for p in plain[1])  # type: ignore[attr-defined]
        season = fast[0]
        assert isinstance(season, Season) and isinstance(season.entries, RowEntries)


def test_tables_in_order_are_read_straight() -> None:
    """Most well-kept tables take the fast road (the test above is not vacuous)."""
    taken = 0
    for seed in range(200):
        rng = random.Random(seed)
        rounds = rounds_table(rng, messy=False)
        plist = checks.read_players(players_table(rng, False), Settings(), Problems())
        taken += checks.read_rows(rounds, plist) is not None
    assert taken > 100


def test_row_entries_are_made_as_the_rows_say() -> None:
    players = tuple(Player(n, Fraction(0), order=i) for i, n in enumerate(NAMES))
    entries = (
        Game(1, 1, "Anna", "Bram", Result.DRAW, 2),
        Rest(1, "Cor", Absence.BYE, 3),
        Game(1, None, "Dirk", "Els", None, 4),
        Rest(1, "Zoë", Absence.CLUB, 5),
    )
    rows = SeasonRows.from_entries(players, entries)
    lazy = RowEntries(rows, [2, 3, 4, 5])
    assert lazy[1] == entries[1] and lazy[2] == entries[2]  # one at a time, before all
    assert lazy == entries and tuple(lazy) == entries and lazy[1:3] == entries[1:3]
    assert hash(lazy) == hash(entries) and len(lazy) == 4
    season = Season.from_rows(players, rows, [2, 3, 4, 5])
    assert season == Season(players, entries) and season.rows is rows


# -- the cautions, from the rows, against a plain walk through the entries -----------------


def plain_rounds_of(season: Season) -> dict[str, set[int]]:
    seen: dict[str, set[int]] = {}
    for e in season.entries:
        for name in (e.white, e.black) if isinstance(e, Game) else (e.player,):
            seen.setdefault(name, set()).add(e.round)
    return seen


def plain_cautions(season: Season) -> tuple[object, ...]:
    """Newcomers, players missing from rounds, idle players, byes in a row."""
    from keizer_xl.core.cautions import IDLE_ROUNDS

    last, seen = season.last_round, plain_rounds_of(season)
    new = [
        p.name
        for p in season.players
        if p.name not in seen and any(p.takes_part_in(r) for r in range(1, last + 1))
    ]
    missing: dict[int, list[str]] = {}
    for p in season.players:
        for r in range(1, last + 1):
            if p.name in seen and r not in seen[p.name] and p.takes_part_in(r):
                missing.setdefault(r, []).append(p.name)
    played: dict[str, int] = {}  # the last round of a game, a bye, or an excused absence
    for e in season.entries:
        if isinstance(e, Rest) and e.reason is not Absence.UNEXCUSED:
            played[e.player] = max(played.get(e.player, 0), e.round)
        if isinstance(e, Game) and e.result is not None and e.result.played:
            for name in (e.white, e.black):
                played[name] = max(played.get(name, 0), e.round)
    done = season.completed_rounds
    idle = [
        p.name
        for p in season.players
        if seen.get(p.name)
        and not (p.left is not None and p.left <= done)
        and p.present not in (None, Absence.CLUB)  # here tonight: not stopped
        and done - max(played.get(p.name, 0), p.joined - 1) >= IDLE_ROUNDS
    ]
    byes: dict[str, list[Rest]] = {}
    for e in season.entries:
        if isinstance(e, Rest) and e.reason is Absence.BYE:
            byes.setdefault(e.player, []).append(e)
    twice = [
        (name, b.round, a.source)
        for name, rests in byes.items()
        for b, a in zip(
            sorted(rests, key=lambda e: e.round),
            sorted(rests, key=lambda e: e.round)[1:],
            strict=False,
        )
        if a.round == b.round + 1
    ]
    return new, sorted(missing.items()), idle, twice


@settings(max_examples=examples(150), deadline=None)
@given(st.randoms(use_true_random=False), st.booleans())
def test_cautions_from_the_rows_as_from_the_entries(
    rng: random.Random, coming_and_going: bool
) -> None:
    from keizer_xl.core import cautions

    players = players_table(rng, coming_and_going)
    problems = Problems()
    season = build_season(players, rounds_table(rng, messy=False), Settings(), problems)
    if problems:
        return
    new, missing, idle, twice = plain_cautions(season)
    assert [p.name for p in cautions.newcomers(season)] == new
    assert [
        (r, [p.name for p in ps]) for r, ps in cautions.missing_from_rounds(season).items()
    ] == missing
    found = Problems()
    cautions._idle(season, found)
    cautions._byes_in_a_row(season, found)
    said = [c.message for c in found.cautions]
    assert [m.split(" has not played")[0] for m in said if "has not played" in m] == idle
    assert [
        (c.message.split(" has the bye")[0], c.row)
        for c in found.cautions
        if "has the bye" in c.message
    ] == [(name, source) for name, _, source in twice]


@pytest.mark.parametrize("dtype", ["int8", "uint16", "int32", "int64"])
def test_group_sizes_count_keys_of_any_integer_type(dtype: str) -> None:
    """numpy counts only index integers (32 bits in WebAssembly); the rows' keys are int64."""
    keys = [3, 0, 3, 5, 3, 0]
    sizes = group_sizes(np.array(keys, dtype=dtype), 7)
    assert sizes.tolist() == [keys.count(k) for k in range(7)]


def test_one_rounds_entries_are_made_without_making_every_row() -> None:
    players = tuple(Player(n, Fraction(0), order=i) for i, n in enumerate(NAMES))
    entries = (
        Game(1, 1, "Anna", "Bram", Result.DRAW, 2),
        Rest(1, "Cor", Absence.BYE, 3),
        Game(2, 1, "Cor", "Anna", Result.WHITE_WINS, 4),
        Rest(2, "Bram", Absence.EXCUSED, 5),
        Game(2, 2, "Dirk", "Els", None, 6),
    )
    plain = Season(players, entries)
    season = Season.from_rows(players, SeasonRows.from_entries(players, entries), [2, 3, 4, 5, 6])
    for round_no in (1, 2, 3):
        assert season.round_entries(round_no) == plain.round_entries(round_no)
    lazy = season.entries
    assert isinstance(lazy, RowEntries) and lazy._made is None  # not every row made for one
