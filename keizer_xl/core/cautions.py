"""What is allowed but probably unintended, found in a checked season.

None of this stops a command: a secretary may really mean it. Each caution says what was
seen and what to do if it was not meant, with its place (`Caution`), and is shown after
the command and under the standings. The one exception is an earlier round that is not
complete (a game row deleted, a Joined round lost): `pair` refuses to build on it (see
`round_gaps`).
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Sequence

import numpy as np

from keizer_xl.core.errors import Caution, Problems
from keizer_xl.core.messages import Message, Name, listed, msg
from keizer_xl.core.model import Absence, Game, Player, Rest, no_result
from keizer_xl.core.rows import ABSENCE_CODE, NO_RESULT, NOBODY
from keizer_xl.core.season import Season
from keizer_xl.core.settings import Settings

IDLE_ROUNDS = 3  # rounds in a row without a game before a player is mentioned
_HERE = (None, Absence.CLUB)  # marked present for the next round, or on club duty again


def _seen(season: Season) -> np.ndarray:
    """Players x rounds 0..last: is the player named in a row of that round?"""
    rows = season.rows
    seen = np.zeros((len(season.players), season.last_round + 1), dtype=bool)
    for side in (rows.white, rows.black):
        named = (side != NOBODY) & (side < len(season.players))  # a hand-made season's own
        seen[side[named], rows.round[named]] = True
    return seen


def _registered(season: Season) -> np.ndarray:
    """Players x rounds 0..last: does the player take part in that round?"""
    last = season.last_round
    rounds = np.arange(last + 1)
    joined = np.array([p.joined for p in season.players], dtype=np.int64)[:, None]
    left = np.array([last if p.left is None else p.left for p in season.players], dtype=np.int64)[
        :, None
    ]
    registered: np.ndarray = (joined <= rounds) & (rounds <= left) & (rounds >= 1)
    return registered


def newcomers(season: Season) -> list[Player]:
    """Players taking part in an earlier round who appear in no row of any round: most
    likely added to the Players sheet after the season began, without a Joined round."""
    nowhere = ~_seen(season).any(axis=1) & _registered(season).any(axis=1)
    return [season.players[i] for i in np.nonzero(nowhere)[0].tolist()]


def missing_from_rounds(season: Season) -> dict[int, list[Player]]:
    """Round -> the players taking part in it who appear in no row of it (a game row
    deleted, a bye row left alone). Newcomers (in no round at all) are not counted here."""
    seen = _seen(season)
    in_some: np.ndarray = seen.any(axis=1)  # type: ignore[assignment]
    missing = ~seen & _registered(season) & in_some[:, None]
    rounds, players = np.nonzero(missing.T)  # round by round, players in sheet order
    found: dict[int, list[Player]] = {}
    for r, i in zip(rounds.tolist(), players.tolist(), strict=True):
        found.setdefault(r, []).append(season.players[i])
    return found


def gameless_rounds(season: Season) -> list[int]:
    """Rounds with rows but not one game, while a player taking part in the round is in
    none of its rows: its game rows were deleted, and only the bye and absence rows are
    left. (A round every player has a bye or absence row in, all away on club duty say, is
    a round without games that is complete.)"""
    rows, last = season.rows, season.last_round
    has_rows = np.zeros(last + 1, dtype=bool)
    has_rows[rows.round] = True
    has_game = np.zeros(last + 1, dtype=bool)
    has_game[rows.round[rows.black != NOBODY]] = True
    someone_missing = (_registered(season) & ~_seen(season)).any(axis=0)
    gameless: np.ndarray = has_rows & ~has_game & someone_missing
    return np.nonzero(gameless)[0].tolist()  # type: ignore[no-any-return]


def _first_row(season: Season, round_no: int) -> object:
    """The row label of the round's first row."""
    at = int(np.argmax(season.rows.round == round_no))
    return season.entries[at].source


def gameless_gaps(season: Season, gameless: Sequence[int] | None = None) -> list[Caution]:
    """The rounds whose game rows were all deleted (`gameless_rounds`), each at its first
    row: not complete, so refused by every command that shows standings, as by `pair`."""
    rounds = gameless_rounds(season) if gameless is None else gameless
    return [
        Caution(
            msg(
                "round {round} has no games, only bye and absence rows: if its game "
                "rows were deleted, enter them again",
                round=r,
            ),
            "Rounds",
            _first_row(season, r),
            "Round",
        )
        for r in rounds
    ]


def round_gaps(season: Season, settings: Settings) -> list[Caution]:
    """What leaves an earlier round incomplete, each with its place: a round whose game rows
    were all deleted, a player whose Joined round was lost (in no row before round k, and
    in rows from then on), a player in no row of a round (a game row deleted, an absence row
    never typed). Cautions when standings are made; `pair` refuses to build on them.

    Players who are in no row of any round are newcomers, cautioned on their own (see
    `find_cautions`), unless a round without games explains it."""
    gameless = gameless_rounds(season)
    found = gameless_gaps(season, gameless)
    seen = _seen(season)
    late: dict[str, int] = {}  # player -> the first round they are in a row of
    for p, rounds in zip(season.players, seen.tolist(), strict=True):
        first = rounds.index(True) if True in rounds else 0
        if first > p.joined and not any(p.joined <= r < first for r in gameless):
            late[p.name] = first
            found.append(Caution(_late_message(p, first, settings), "Players", p.source, "Joined"))
    for round_no, players in missing_from_rounds(season).items():
        rest = [p for p in players if round_no >= late.get(p.name, 0)]
        if rest and round_no not in gameless:
            found.append(Caution(_missing_message(round_no, rest, settings), "Rounds"))
    return found


def _late_message(player: Player, first: int, settings: Settings) -> Message:
    """A player in rows only from round `first` on, without a Joined round that says so."""
    values = {
        "name": player.name,
        "first": first,
        "start": player.joined,
        "end": first - 1,
        "absence": Name(settings.default_absence.value, "rest"),
        "setting": Name("Default absence", "setting"),
        "joined": Name("Joined"),
    }
    if first - 1 == player.joined:
        return msg(
            "{name} is in no row before round {first}, so round {end} counts as "
            "{absence} ({setting}); if {name} joined in round {first}, put {first} in "
            "{joined}",
            **values,
        )
    return msg(
        "{name} is in no row before round {first}, so rounds {start}–{end} count as "
        "{absence} ({setting}); if {name} joined in round {first}, put {first} in "
        "{joined}",
        **values,
    )


def _missing_message(round_no: int, players: Sequence[Player], settings: Settings) -> Message:
    values = {
        "round": round_no,
        "names": listed(p.name for p in players),
        "absence": Name(settings.default_absence.value, "rest"),
        "setting": Name("Default absence", "setting"),
    }
    if len(players) == 1:
        return msg(
            "round {round}: {names} is in no row, so counted as {absence} ({setting}); "
            "if a game row was deleted, enter it again, otherwise add a row with "
            "excused, club or unexcused",
            **values,
        )
    return msg(
        "round {round}: {names} are in no row, so counted as {absence} ({setting}); "
        "if a game row was deleted, enter it again, otherwise add a row with excused, "
        "club or unexcused",
        **values,
    )


def find_cautions(season: Season, settings: Settings, problems: Problems) -> None:
    """Every caution of a checked season, into `problems.cautions`."""
    last = season.last_round
    gameless = set(gameless_rounds(season))
    for p in newcomers(season):
        if all(r in gameless for r in range(p.joined, last + 1) if p.takes_part_in(r)):
            continue  # in no row because its round has no games: said of the round
        problems.caution(
            msg(
                "{name} is in no round yet, so rounds {first}–{last} each count as {absence} "
                "({setting}); if {name} joined later, put the first round of play in {joined} "
                "(e.g. {next})",
                name=p.name,
                first=p.joined,
                last=last,
                absence=Name(settings.default_absence.value, "rest"),
                setting=Name("Default absence", "setting"),
                joined=Name("Joined"),
                next=last + 1,
            ),
            "Players",
            p.source,
            "Joined",
        )
    problems.cautions.extend(round_gaps(season, settings))
    _unfinished(season, problems)
    _idle(season, problems)
    _byes_in_a_row(season, problems)
    _unrated(season, settings, problems)


def _unfinished(season: Season, problems: Problems) -> None:
    """The games of the last round still without a result, once any of its results is
    typed: the standings leave the round out until every one is in, and a result
    forgotten (or typed in the wrong cell) would go unnoticed until next week's pairing.
    A round just paired, without any result yet, is no news."""
    if season.awaiting_results:
        return
    rows = season.rows
    open_games = (
        (rows.round == season.last_round) & (rows.black != NOBODY) & (rows.outcome == NO_RESULT)
    )
    for i in np.nonzero(open_games)[0].tolist():
        game = season.entries[i]
        assert isinstance(game, Game)
        problems.caution(no_result(game), "Rounds", game.source, "Result")


_TAKING_PART = (Absence.BYE, Absence.EXCUSED, Absence.CLUB)  # rests that are no stopping


def _idle(season: Season, problems: Problems) -> None:
    """Players still in who have not taken part for IDLE_ROUNDS rounds or more, and are
    not here tonight: a bye, an excused absence and a round away on club duty are taking
    part (the player came, or told the club), and a player marked present (or on club
    duty) for the next round has not stopped."""
    done = season.completed_rounds
    rows = season.rows
    played = rows.played(season.last_round + 1)
    took_part = np.isin(rows.outcome, [ABSENCE_CODE[a] for a in _TAKING_PART])
    active = played | (took_part & (rows.round <= season.last_round))
    last_game = np.zeros(len(season.rows.names), dtype=np.int64)
    np.maximum.at(last_game, rows.white[active], rows.round[active])
    np.maximum.at(last_game, rows.black[played], rows.round[played])
    seen: list[bool] = _seen(season).any(axis=1).tolist()  # type: ignore[assignment]
    for p, was_seen, last in zip(season.players, seen, last_game.tolist(), strict=True):
        if not was_seen or (p.left is not None and p.left <= done) or p.present in _HERE:
            continue
        since = max(last, p.joined - 1)
        if done - since >= IDLE_ROUNDS:
            problems.caution(
                msg(
                    "{name} has not played a game in rounds {first}–{last}; if "
                    "{name} has stopped, put {last} in {left}",
                    name=p.name,
                    first=since + 1,
                    last=done,
                    left=Name("Left"),
                ),
                "Players",
                p.source,
                "Left",
            )


def _byes_in_a_row(season: Season, problems: Problems) -> None:
    rows = season.rows
    at = np.nonzero(rows.outcome == ABSENCE_CODE[Absence.BYE])[0].tolist()
    byes: dict[str, list[Rest]] = defaultdict(list)
    for i in at:
        e = season.entries[i]
        assert isinstance(e, Rest)
        byes[e.player].append(e)
    for name, rests in byes.items():
        rests.sort(key=lambda e: e.round)
        for before, now in itertools.pairwise(rests):
            if now.round == before.round + 1:
                problems.caution(
                    msg(
                        "{name} has the bye in round {before} and again in round {round}",
                        name=name,
                        before=before.round,
                        round=now.round,
                    ),
                    "Rounds",
                    now.source,
                    "Result",
                )


def _unrated(season: Season, settings: Settings, problems: Problems) -> None:
    """A rating of 0 where ratings rank the players: values from ratings all season, or the
    initial ranking by rating before round 1."""
    rated = settings.values == "rating" or (
        settings.initial_order == "rating" and season.last_round == 0
    )
    if not rated or not any(p.rating for p in season.players):
        return
    for p in season.players:
        if not p.rating:
            problems.caution(
                msg(
                    "{name} has no rating, which counts as 0 and gives a value of "
                    "0; fill in the Rating if that is not meant",
                    name=p.name,
                )
                if settings.values == "rating"
                else msg(
                    "{name} has no rating, which counts as 0 and gives a place "
                    "below every rated player; fill in the Rating if that is not "
                    "meant",
                    name=p.name,
                ),
                "Players",
                p.source,
                "Rating",
            )
