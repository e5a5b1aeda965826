"""Pairing the next round (rule book §4, and the spread pairing of §6).

The rule book defines the pairing as what a depth-first search with backtracking returns: the
highest-ranked unpaired player takes the first opponent in his candidate order for which the
others can still all be paired. Done literally, that search can wander through exponentially
many dead ends (50 players, the bottom 19 of whom have all met each other). Here it is fast,
with exactly the same answer, because "the others can still all be paired" is decided
directly instead of by trying: it holds exactly when the players left have a perfect matching
in the graph of allowed games, which `keizer_xl.core.matching` answers. Nothing is cut
short or capped, so no candidate is accepted that the plain search would reject, nor
rejected that it would accept.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass
from itertools import chain

import numpy as np

from keizer_xl.core.colours import ColourHistory, allocate
from keizer_xl.core.matching import Blocks, PairabilityOracle
from keizer_xl.core.messages import listed, msg
from keizer_xl.core.model import Absence, Game
from keizer_xl.core.rows import ABSENCE_CODE, SeasonRows, group_order, group_sizes
from keizer_xl.core.season import Season, name_finder
from keizer_xl.core.settings import Settings


@dataclass(frozen=True)
class Pairing:
    """A computed pairing: boards in order, colours assigned, results still empty."""

    round: int
    games: tuple[Game, ...]
    bye: str | None
    window: int
    notes: tuple[str, ...]


def uses_spread(settings: Settings, round_no: int) -> bool:
    """Is this round paired by spread pairing (§6) rather than top-down (§4)?"""
    return settings.pairing == "spread" and (
        settings.top_down_from is None or round_no < settings.top_down_from
    )


def spread_divisor(spread_round: int) -> int:
    """D of the k-th spread round: 2, 4, 6, 8, 12, 16, 24, 32, 48, ...

    Spread pairing always starts with round 1 (the setting only says when it stops), so the
    k-th spread round is simply round k. The rule book lists 2, 4, 6, 8, 12, ... and says
    each is twice the one two places before; the listed numbers are kept, so that rule holds
    from the fourth on (8 = 2 × 4) and the third is 6.
    """
    if spread_round < 1:
        raise ValueError(f"spread round {spread_round} must be 1 or more")
    divisors = [2, 4, 6]
    while len(divisors) < spread_round:
        divisors.append(2 * divisors[-2])
    return divisors[spread_round - 1]


def pair_round(
    season: Season,
    ranking: Sequence[str],
    present: Collection[str],
    settings: Settings,
    round_no: int | None = None,
) -> Pairing:
    """Pair `present` (names from `ranking`, best first) for round `round_no`.

    History is every row of the season before `round_no`: played games block rematches
    within the window and give colours; forfeits and unplayed games count for neither;
    byes count per player. The answer is the rule book's: the first bye candidate and the
    first complete pairing in candidate order, under the widest window that allows one.
    """
    if round_no is None:
        round_no = season.last_round + 1
    names = _present_in_order(season, ranking, present)
    place = _places(season.rows, names)
    met = _last_meetings(season.rows, place, round_no, settings.rematch_window)
    byes = _bye_counts(season.rows, place, round_no, len(names))
    divisor = spread_divisor(round_no) if uses_spread(settings, round_no) else None
    players = list(range(len(names)))
    bye_order = list(_bye_candidates(players, byes)) if len(names) % 2 else []

    widest = settings.rematch_window
    for window in range(widest, -1, -1):
        blocked = _blocked(len(names), *met, round_no, window)
        found = _pair_off(players, blocked, bye_order, divisor)
        if found is not None:
            bye, pairs, skipped = found
            break
    else:  # pragma: no cover - window 0 blocks nobody, so a pairing always exists
        raise AssertionError("no pairing without a rematch window")

    history = ColourHistory.from_season(season, round_no)
    games: list[Game] = []
    notes: list[str] = []
    if window < widest:
        notes.append(_relaxed_note(widest, window, pairs, names, _met_in(*met), round_no))
    if bye is not None and skipped:
        notes.append(
            msg(
                "Bye for {name}: with the bye for {skipped} the others could not all be paired.",
                name=names[bye],
                skipped=listed(names[s] for s in skipped),
            )
        )
    for board, (higher, lower) in enumerate(pairs, start=1):
        white, black, note = allocate(names[higher], names[lower], history, settings)
        games.append(Game(round_no, board, white, black))
        if note:
            notes.append(msg("Board {board}: {note}", board=board, note=note))
    return Pairing(
        round_no, tuple(games), names[bye] if bye is not None else None, window, tuple(notes)
    )


def _present_in_order(
    season: Season, ranking: Sequence[str], present: Collection[str]
) -> list[str]:
    """The present players in ranking order, with the names as on the Players sheet."""
    find = name_finder(season)
    ranked = [find(name) for name in ranking]
    doubles = sorted(name for name, times in Counter(ranked).items() if times > 1)
    if doubles:
        raise ValueError(f"the ranking lists {_and(doubles)} more than once")
    wanted = {find(name) for name in present}
    unranked = sorted(wanted - set(ranked))
    if unranked:
        raise ValueError(f"{_and(unranked)} present but not in the ranking")
    return [name for name in ranked if name in wanted]


def _places(rows: SeasonRows, names: list[str]) -> np.ndarray:
    """By index of the season's rows: the player's place in `names`, or -1 if not there.
    In 32 bits: the meetings made from them are arrays as long as the season, and at half
    the size they stay in the processor's cache for a few thousand players more."""
    index = {name: i for i, name in enumerate(rows.names)}
    place = np.full(len(rows.names), -1, dtype=np.int32)
    for i, name in enumerate(names):
        found = index.get(name)
        if found is not None:
            place[found] = i
    return place


Meetings = tuple[np.ndarray, np.ndarray, np.ndarray]  # (lower place, higher place, round)


def _last_meetings(rows: SeasonRows, place: np.ndarray, round_no: int, window: int) -> Meetings:
    """For each pair of present players who played each other within the widest `window`,
    the latest round (older games block nobody, so they are left out before sorting)."""
    played = rows.played(round_no) & (rows.round >= round_no - window)
    a, b, when = place[rows.white[played]], place[rows.black[played]], rows.round[played]
    both = (a >= 0) & (b >= 0)
    a, b, when = a[both], b[both], when[both]
    low, high = np.minimum(a, b), np.maximum(a, b)
    n = len(place)
    # by pair, then round: three stable radix passes (round, then higher, then lower
    # place), linear in the games where one comparison sort of the pair keys is not
    order = group_order(when, int(when.max(initial=0)) + 1)
    order = order[group_order(high[order], n)]
    order = order[group_order(low[order], n)]
    key = (low.astype(np.int64) * n + high)[order]  # n * n may not fit in a 32-bit intp
    last = np.ones(len(key), dtype=bool)  # the last row of each pair (latest round)
    last[:-1] = key[1:] != key[:-1]
    chosen = order[last]
    return low[chosen], high[chosen], when[chosen]


def _met_in(low: np.ndarray, high: np.ndarray, when: np.ndarray) -> dict[tuple[int, int], int]:
    return {(a, b): r for a, b, r in zip(low.tolist(), high.tolist(), when.tolist(), strict=True)}


def _bye_counts(rows: SeasonRows, place: np.ndarray, round_no: int, n: int) -> list[int]:
    byes = (rows.outcome == ABSENCE_CODE[Absence.BYE]) & (rows.round < round_no)
    who = place[rows.white[byes]]
    counts: list[int] = group_sizes(who[who >= 0], n).tolist()
    return counts


def _bye_candidates(players: list[int], byes: list[int]) -> Iterator[int]:
    """Those with the fewest byes from the bottom up, then all the others from the bottom up."""
    fewest = min(byes[p] for p in players)
    bottom_up = players[::-1]
    yield from (p for p in bottom_up if byes[p] == fewest)
    yield from (p for p in bottom_up if byes[p] != fewest)


def _blocked(
    n: int, low: np.ndarray, high: np.ndarray, when: np.ndarray, round_no: int, window: int
) -> Blocks:
    """Who may not meet whom: a game in round m blocks a pair while round_no - m <= window."""
    recent = round_no - when <= window
    one = np.concatenate([low[recent], high[recent]])
    other = np.concatenate([high[recent], low[recent]])
    return Blocks(other[group_order(one, n)], np.cumsum(group_sizes(one, n)).tolist())


def _pair_off(
    players: list[int], blocked: Blocks, bye_order: list[int], divisor: int | None
) -> tuple[int | None, list[tuple[int, int]], list[int]] | None:
    """The first bye candidate and first complete pairing under these blocks, or None.

    Returns (bye, pairs in board order, bye candidates passed over). `bye_order` is empty
    when the number of players is even.
    """
    oracle = PairabilityOracle(players, blocked)
    bye = None
    skipped: list[int] = []
    if bye_order:
        bye = oracle.choose(None, bye_order)
        if bye is None:
            return None
        skipped = bye_order[: bye_order.index(bye)]
        oracle.take(bye)
    elif not oracle.can_complete(()):
        return None
    return bye, _pair_all(oracle, divisor), skipped


def _pair_all(oracle: PairabilityOracle, divisor: int | None) -> list[tuple[int, int]]:
    """Pair everybody left: the first complete pairing in candidate order.

    `divisor` is D of spread pairing; None pairs top-down (each player's candidates are
    simply the players below him in order). The players left must be able to pair.
    """
    pairs: list[tuple[int, int]] = []
    while len(oracle):
        top = oracle.at(0)
        chosen = oracle.choose(top, _candidates(oracle, divisor))
        if chosen is None:  # pragma: no cover - each choice keeps the table pairable
            raise AssertionError("the players left cannot be paired")
        oracle.take(top)
        oracle.take(chosen)
        pairs.append((top, chosen))
    return pairs


def _candidates(oracle: PairabilityOracle, divisor: int | None) -> Iterator[int]:
    """The top player's candidates: from the target up to his neighbour, then below it."""
    unpaired = len(oracle)
    target = 1 if divisor is None else min(max(1, unpaired // divisor), unpaired - 1)
    return chain(oracle.from_place(target, 1), oracle.from_place(target + 1))


def _relaxed_note(
    widest: int,
    window: int,
    pairs: list[tuple[int, int]],
    names: list[str],
    met: dict[tuple[int, int], int],
    round_no: int,
) -> str:
    rematches = []
    for a, b in pairs:
        last = met.get((min(a, b), max(a, b)))
        if last is not None and round_no - last <= widest:
            rematches.append(
                msg(
                    "{white}-{black} (met in round {round})",
                    white=names[a],
                    black=names[b],
                    round=last,
                )
            )
    allowed = msg("rematches allowed") if window == 0 else msg("window {window}", window=window)
    return msg(
        "Rematch window relaxed from {widest} to {window} ({allowed}): no complete "
        "pairing avoids every rematch within {widest} rounds. Rematches: {rematches}.",
        widest=widest,
        window=window,
        allowed=allowed,
        rematches=listed(rematches) if rematches else msg("none"),
    )


def _and(items: Iterator[str] | Sequence[str]) -> str:
    words = list(items)
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]
