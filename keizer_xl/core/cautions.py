"""What is allowed but probably unintended, found in a checked season.

None of this stops a command: a secretary may really mean it. Each caution says what was
seen and what to do if it was not meant, with its place (`Caution`), and is shown after
the command and under the standings. The one exception is a round that some players are
missing from: `pair` refuses to build on it (see `missing_from_rounds`).
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Sequence

import numpy as np

from keizer_xl.core.errors import Problems
from keizer_xl.core.messages import Name, listed, msg
from keizer_xl.core.model import Absence, Player, Rest
from keizer_xl.core.rows import ABSENCE_CODE, NOBODY
from keizer_xl.core.season import Season
from keizer_xl.core.settings import Settings

IDLE_ROUNDS = 3  # rounds in a row without a game before a player is mentioned


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
    left = np.array([last if p.left is None else p.left for p in season.players],
                    dtype=np.int64)[:, None]
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


def missing_message(round_no: int, players: Sequence[Player], settings: Settings) -> str:
    template = ("round {round}: {names} is in no row, so counted as {absence} ({setting}); "
                "if a game row was deleted, enter it again, otherwise add a row with excused, "
                "club or unexcused") if len(players) == 1 else (
                "round {round}: {names} are in no row, so counted as {absence} ({setting}); "
                "if a game row was deleted, enter it again, otherwise add a row with excused, "
                "club or unexcused")
    return msg(template, round=round_no, names=listed(p.name for p in players),
               absence=Name(settings.default_absence.value, "rest"),
               setting=Name("Default absence", "setting"))


def find_cautions(season: Season, settings: Settings, problems: Problems) -> None:
    """Every caution of a checked season, into `problems.cautions`."""
    last = season.last_round
    for p in newcomers(season):
        problems.caution(msg(
            "{name} is in no round yet, so rounds {first}–{last} each count as {absence} "
            "({setting}); if {name} joined later, put the first round of play in {joined} "
            "(e.g. {next})", name=p.name, first=p.joined, last=last,
            absence=Name(settings.default_absence.value, "rest"),
            setting=Name("Default absence", "setting"), joined=Name("Joined"), next=last + 1),
            "Players", p.source, "Joined")
    for round_no, players in missing_from_rounds(season).items():
        problems.caution(missing_message(round_no, players, settings), "Rounds")
    _idle(season, problems)
    _byes_in_a_row(season, problems)
    _unrated(season, settings, problems)


def _idle(season: Season, problems: Problems) -> None:
    """Players still in who have not played a game for IDLE_ROUNDS rounds or more."""
    done = season.completed_rounds
    rows = season.rows
    played = rows.played(season.last_round + 1)
    last_game = np.zeros(len(season.rows.names), dtype=np.int64)
    for side in (rows.white, rows.black):
        np.maximum.at(last_game, side[played], rows.round[played])
    seen: list[bool] = _seen(season).any(axis=1).tolist()  # type: ignore[assignment]
    for p, was_seen, last in zip(season.players, seen, last_game.tolist(), strict=True):
        if not was_seen or (p.left is not None and p.left <= done):
            continue
        since = max(last, p.joined - 1)
        if done - since >= IDLE_ROUNDS:
            problems.caution(msg("{name} has not played a game in rounds {first}–{last}; if "
                                 "{name} has stopped, put {last} in {left}", name=p.name,
                                 first=since + 1, last=done, left=Name("Left")),
                             "Players", p.source, "Left")


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
                problems.caution(msg("{name} has the bye in round {before} and again in "
                                     "round {round}", name=name, before=before.round,
                                     round=now.round), "Rounds", now.source, "Result")


def _unrated(season: Season, settings: Settings, problems: Problems) -> None:
    """A rating of 0 where ratings rank the players: values from ratings all season, or the
    initial ranking by rating before round 1."""
    rated = settings.values == "rating" or (
        settings.initial_order == "rating" and season.last_round == 0)
    if not rated or not any(p.rating for p in season.players):
        return
    for p in season.players:
        if not p.rating:
            problems.caution(msg("{name} has no rating, which counts as 0 and gives a value of "
                                 "0; fill in the Rating if that is not meant", name=p.name)
                             if settings.values == "rating" else
                             msg("{name} has no rating, which counts as 0 and gives a place "
                                 "below every rated player; fill in the Rating if that is not "
                                 "meant", name=p.name), "Players", p.source, "Rating")

