"""The final standings of a season with a minimum number of games.

A club may require, say, 20 games for a place in the final standings: after the season's
last round the players with fewer games are listed after the others, marked (Below minimum
`last`), or not listed at all (`drop`, as some German clubs' rules say), and the rule is
stated under the table. Before the last round (or when the number of rounds is not
known) the standings are as computed. The ranking itself is not changed: the ranks are
renumbered only in the table shown, shared places staying shared.
"""

from __future__ import annotations

import dataclasses
from typing import NamedTuple

from keizer_xl.core.messages import Joined, Name, msg
from keizer_xl.core.scoring import Standing, Standings


class FinalOrder(NamedTuple):
    """The standings as shown, and the players listed last for too few games."""

    standings: Standings
    short: frozenset[str] = frozenset()


def final_order(standings: Standings) -> FinalOrder:
    """Players with fewer than Minimum games listed last after the season's last round."""
    s = standings.settings
    if (
        not s.minimum_games
        or s.rounds_in_season is None
        or standings.after_round < s.rounds_in_season
    ):
        return FinalOrder(standings)
    enough = [row for row in standings.rows if row.played >= s.minimum_games]
    short = [row for row in standings.rows if row.played < s.minimum_games]
    if not short:
        return FinalOrder(standings)
    if s.below_minimum == "drop":
        return _dropped(standings, enough)
    rows = tuple(
        dataclasses.replace(row, rank=before + 1 + sum(o.rank < row.rank for o in part))
        for before, part in ((0, enough), (len(enough), short))
        for row in part
    )
    rule = msg(
        "* {setting} {minimum}: after the season's {rounds} rounds, players who "
        "played fewer games are listed after the others.",
        setting=Name("Minimum games", "setting"),
        minimum=s.minimum_games,
        rounds=s.rounds_in_season,
    )
    note = Joined(" ", (standings.note, rule)) if standings.note else rule
    return FinalOrder(
        dataclasses.replace(standings, rows=rows, note=note), frozenset(row.name for row in short)
    )


def _dropped(standings: Standings, enough: list[Standing]) -> FinalOrder:
    """Below minimum `drop`: only the players with enough games, renumbered among
    themselves (shared places staying shared), and the rule under the table."""
    s = standings.settings
    rows = tuple(
        dataclasses.replace(row, rank=1 + sum(o.rank < row.rank for o in enough)) for row in enough
    )
    rule = msg(
        "{setting} {minimum}: after the season's {rounds} rounds, players who played "
        "fewer games are not listed.",
        setting=Name("Minimum games", "setting"),
        minimum=s.minimum_games,
        rounds=s.rounds_in_season,
    )
    note = Joined(" ", (standings.note, rule)) if standings.note else rule
    return FinalOrder(dataclasses.replace(standings, rows=rows, note=note))
