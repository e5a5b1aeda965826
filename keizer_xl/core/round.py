"""A competition and its next round: what every command starts from (rule book §4).

Who is present, what refuses a pairing (a missing result, a present player who is not
registered for the round, nobody ticked), the order of the bye and absence rows, and the
blank Top value that pairing round 1 fixes for the rest of the season.
"""

from __future__ import annotations

import dataclasses
import hashlib
import random
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from keizer_xl.core.cautions import round_gaps
from keizer_xl.core.checks import Table, build_season, settings_from_table
from keizer_xl.core.errors import Caution, KeizerError, Problem, Problems
from keizer_xl.core.messages import Name, msg
from keizer_xl.core.model import Absence, Entry, Game, Rest, no_result
from keizer_xl.core.rows import NO_RESULT, NOBODY
from keizer_xl.core.scoring import Standings, automatic_top_value, compute_standings
from keizer_xl.core.season import Season
from keizer_xl.core.settings import Settings


@dataclass(frozen=True)
class Competition:
    """A checked season with its settings."""

    season: Season
    settings: Settings
    cautions: tuple[Caution, ...] = ()  # allowed but probably unintended; shown, not refused

    @classmethod
    def from_tables(cls, players: Table, rounds: Table, settings: Table | Settings) -> Competition:
        """Check everything and raise KeizerError listing every problem at once."""
        problems = Problems()
        parsed = (
            settings if isinstance(settings, Settings) else settings_from_table(settings, problems)
        )
        season = build_season(players, rounds, parsed, problems)
        problems.raise_if_any()
        return cls(season, parsed, tuple(problems.cautions))

    @property
    def top_value_to_fix(self) -> Fraction | None:
        """The blank Top value, fixed once when round 1 is paired (None if not needed)."""
        s = self.settings
        if s.top_value is None and not s.top_value_auto and s.values == "rank":
            return automatic_top_value(len(self.season.players), s.top_value_rounding)
        return None

    def standings(self, after_round: int | None = None) -> Standings:
        return compute_standings(self.season, self.settings, after_round)

    def next_round(self) -> NextRound:
        """Pair the present players for the round after the last one (which must be done)."""
        from keizer_xl.core.pairing import pair_round

        season, s = self.season, self.settings
        _refuse_unfinished(season)
        _refuse_incomplete(season, s)
        last = season.last_round  # and complete: every result is in
        if self.top_value_to_fix is not None and last == 0:
            s = dataclasses.replace(s, top_value=self.top_value_to_fix)
        standings = compute_standings(season, s, last)
        round_no = last + 1
        present = _present(season, round_no)
        here = set(present)
        ranking = [name for name in standings.ranking if name in here]
        drawn: list[str] = []
        if s.first_round == "random" and last == 0:
            ranking, drawn = random_order(ranking, s.competition_name)
        pairing = pair_round(season, ranking, ranking, s, round_no)
        rests: list[Rest] = []
        if pairing.bye is not None:
            rests.append(Rest(round_no, pairing.bye, Absence.BYE))
        rests.extend(_absences(season, standings, round_no))
        return NextRound(
            round_no, tuple(pairing.games), tuple(rests), standings, (*drawn, *pairing.notes), s
        )


def draw_seed(competition_name: str | None) -> int:
    """The seed of a random first round: the first eight hexadecimal digits of the SHA-256
    of the Competition name (UTF-8, blank: the empty text), as a number. Taken from the
    name, so that the same workbook always gives the same draw and anyone can check it."""
    digest = hashlib.sha256((competition_name or "").encode("utf-8")).hexdigest()
    return int(digest[:8], 16)


def random_order(ranking: list[str], competition_name: str | None) -> tuple[list[str], list[str]]:
    """First round `random`: the present players (in ranking order) shuffled by Python's
    `random.Random(seed).shuffle`, and the note that says the seed, so the draw can be
    redone by hand. Top-down pairing of this order then pairs 1-2, 3-4, ... of the draw."""
    seed = draw_seed(competition_name)
    drawn = list(ranking)
    random.Random(seed).shuffle(drawn)
    setting, named = Name("First round", "setting"), Name("Competition name", "setting")
    note = (
        msg(
            "Round 1 is drawn at random ({setting} random): seed {seed}, from the "
            "{named} '{name}'.",
            setting=setting,
            seed=seed,
            named=named,
            name=competition_name,
        )
        if competition_name
        else msg(
            "Round 1 is drawn at random ({setting} random): seed {seed}, from a blank {named}.",
            setting=setting,
            seed=seed,
            named=named,
        )
    )
    return drawn, [note]


@dataclass
class RoundNotPlayed(KeizerError):
    """`pair` asked for while the last round is paired and none of its results is typed:
    most likely pressed twice, or pressed to pair the round again. `round` is that round."""

    round: int = 0


def _refuse_unfinished(season: Season) -> None:
    """Every result must be in before the next round is paired; a round without any result
    is said as one line, with what to do."""
    rows = season.rows
    at = np.nonzero((rows.outcome == NO_RESULT) & (rows.black != NOBODY))[0].tolist()
    unfinished = [season.entries[i] for i in at]
    if not unfinished:
        return
    last = season.last_round
    if season.awaiting_results:
        raise RoundNotPlayed(
            [
                Problem(
                    msg(
                        "round {round} is already paired and none of its results is typed yet: "
                        "type them, then pair round {next}; to pair round {round} again, take it "
                        "back first",
                        round=last,
                        next=last + 1,
                    ),
                    "Rounds",
                    unfinished[0].source,
                    "Result",
                )
            ],
            round=last,
        )
    problems = Problems()
    for g in unfinished:
        assert isinstance(g, Game)
        problems.add(
            msg("{game}; enter every result before pairing the next round", game=no_result(g)),
            "Rounds",
            g.source,
            "Result",
        )
    problems.raise_if_any()


def _refuse_incomplete(season: Season, settings: Settings) -> None:
    """An earlier round that is not complete (a game row deleted, a Joined round lost)
    would give players the default absence for a game they may have played."""
    problems = Problems()
    for gap in round_gaps(season, settings):
        problems.add(gap.message, gap.table, gap.row, gap.column)
    problems.raise_if_any()


def _present(season: Season, round_no: int) -> list[str]:
    """Who is marked present for the round; refused when someone marked present is not
    registered for it, or fewer than two are marked (forgot to tick: do not pair nobody)."""
    present = [p.name for p in season.players if p.takes_part_in(round_no) and p.present is None]
    problems = Problems()
    for p in season.players:
        if p.present is None and not p.takes_part_in(round_no):
            problems.add(
                msg(
                    "{name} is marked present but joins in round {joined}; round {round} is next",
                    name=p.name,
                    joined=p.joined,
                    round=round_no,
                )
                if round_no < p.joined
                else msg(
                    "{name} is marked present but left after round {left}; round {round} is next",
                    name=p.name,
                    left=p.left,
                    round=round_no,
                ),
                "Players",
                p.source,
                "Present",
            )
    if len(present) < 2 and not problems:
        problems.add(
            msg(
                "only one player is marked present for round {round}; put x in the "
                "Present column for each player who is here",
                round=round_no,
            )
            if present
            else msg(
                "nobody is marked present for round {round}; put x in the Present "
                "column for each player who is here",
                round=round_no,
            ),
            "Players",
            None,
            "Present",
        )

    problems.raise_if_any()
    return present


def _absences(season: Season, standings: Standings, round_no: int) -> list[Rest]:
    """The absence rows of those registered but not present, in ranking order (newcomers not
    yet ranked after everybody, as listed)."""
    order = {name: i for i, name in enumerate(standings.ranking)}
    away = [p for p in season.players if p.takes_part_in(round_no) and p.present is not None]
    away.sort(key=lambda p: order.get(p.name, len(order) + p.order))
    return [Rest(round_no, p.name, p.present) for p in away]  # type: ignore[arg-type]


@dataclass(frozen=True)
class NextRound:
    """A freshly paired round: games in board order, then the bye and absence rows."""

    round: int
    games: tuple[Game, ...]
    rests: tuple[Rest, ...]
    standings: Standings  # the standings it was paired from
    notes: tuple[str, ...]
    settings: Settings  # with the Top value fixed if it was blank

    @property
    def entries(self) -> tuple[Entry, ...]:
        return (*self.games, *self.rests)
