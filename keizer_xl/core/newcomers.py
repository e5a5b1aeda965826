"""A member added to the Players sheet mid-season joins at the next round.

keizer_xl writes a row for every player taking part, present or absent, in every round it
pairs. So a player whose Joined cell is blank and who is in no row of any round so far was
added after the last pairing: taking them as registered from round 1 would place them in
round 1's ranking and change everybody's values since. They are taken as joining at the
next round, as if Joined said so, and a caution says how to give them earlier rounds
instead (a round in Joined). Not while a round has lost its game rows: then its players
are missing for that reason, and the round is refused (`cautions.round_gaps`). `pair`
then writes that round into Joined, so that the rows it writes for them stay consistent
with their joining.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection

import numpy as np

from keizer_xl.core.errors import Problems
from keizer_xl.core.messages import Name, msg
from keizer_xl.core.rows import NOBODY
from keizer_xl.core.season import Season


def join_at_next_round(season: Season, unset: Collection[int], problems: Problems) -> Season:
    """The season with the players of `unset` (indexes of those whose Joined is blank) who
    are in no row yet joining at the round after the last one, each with a caution."""
    from keizer_xl.core.cautions import gameless_rounds

    last = season.last_round
    if last == 0 or not unset or gameless_rounds(season):
        return season  # a round's game rows deleted: said of the round, not of its players
    rows, players = season.rows, list(season.players)
    seen = np.zeros(len(players), dtype=bool)
    for side in (rows.white, rows.black):
        named = (side != NOBODY) & (side < len(players))
        seen[side[named]] = True
    following = last + 1
    joining = [
        i for i in sorted(unset) if not seen[i] and (players[i].left or following) >= following
    ]
    if not joining:
        return season
    for i in joining:
        p = players[i] = dataclasses.replace(players[i], joined=following)
        problems.caution(
            msg(
                "{name} is in no round yet, so joins in round {round}, as if {joined} said "
                "{round}: nobody's earlier standings change. To give {name} the rounds before, "
                "put the round {name} joined in {joined}",
                name=p.name,
                round=following,
                joined=Name("Joined"),
            ),
            "Players",
            p.source,
            "Joined",
        )
    joined = Season(tuple(players), season.entries)
    object.__setattr__(joined, "rows", rows)  # the same rows: only who takes part changed
    return joined
