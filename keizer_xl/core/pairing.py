"""Pairing the next round (rule book §4, and the spread pairing of §6).

The rule book defines the pairing as what a depth-first search with backtracking returns: the
highest-ranked unpaired player takes the first opponent in his candidate order for which the
others can still all be paired. Done literally, that search can wander through exponentially
many dead ends (50 players, the bottom 19 of whom have all met each other). Here it is fast,
with exactly the same answer, because "the others can still all be paired" is decided
directly instead of by trying: it holds exactly when the players left have a perfect matching
in the graph of allowed games. A cheap sufficient test (Dirac: if each of the m players left
may meet at least m/2 of the others, a perfect matching exists) settles nearly every step.
When it does not, one run of Edmonds' blossom search, started from a perfect matching of the
players still to pair, tells for every candidate at once whether the others can pair without
him (Gallai-Edmonds). Nothing is cut short or capped, so no candidate is accepted that the
plain search would reject, nor rejected that it would accept.
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import chain

from keizer_xl.core.colours import ColourHistory, allocate, name_finder, played_games
from keizer_xl.core.model import Absence, Game, Rest, Season
from keizer_xl.core.settings import Settings

UNMATCHED = -1


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
        settings.top_down_from is None or round_no < settings.top_down_from)


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


def pair_round(season: Season, ranking: Sequence[str], present: Collection[str],
               settings: Settings, round_no: int | None = None) -> Pairing:
    """Pair `present` (names from `ranking`, best first) for round `round_no`.

    History is every row of the season before `round_no`: played games block rematches
    within the window and give colours; forfeits and unplayed games count for neither;
    byes count per player. The answer is the rule book's: the first bye candidate and the
    first complete pairing in candidate order, under the widest window that allows one.
    """
    if round_no is None:
        round_no = season.last_round + 1
    names = _present_in_order(season, ranking, present)
    index = {name: i for i, name in enumerate(names)}
    met = _last_meetings(season, index, round_no)
    byes = _bye_counts(season, index, round_no)
    divisor = spread_divisor(round_no) if uses_spread(settings, round_no) else None
    players = list(range(len(names)))
    bye_order = list(_bye_candidates(players, byes)) if len(names) % 2 else []

    widest = settings.rematch_window
    for window in range(widest, -1, -1):
        blocked = _blocked(len(names), met, round_no, window)
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
        notes.append(_relaxed_note(widest, window, pairs, names, met, round_no))
    if bye is not None and skipped:
        notes.append(f"Bye for {names[bye]}: with the bye for "
                     f"{_and(names[s] for s in skipped)} the others could not all be paired.")
    for board, (higher, lower) in enumerate(pairs, start=1):
        white, black, note = allocate(names[higher], names[lower], history, settings)
        games.append(Game(round_no, board, white, black))
        if note:
            notes.append(f"Board {board}: {note}")
    return Pairing(round_no, tuple(games), names[bye] if bye is not None else None, window,
                   tuple(notes))


def _present_in_order(season: Season, ranking: Sequence[str],
                      present: Collection[str]) -> list[str]:
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


def _last_meetings(season: Season, index: dict[str, int],
                   round_no: int) -> dict[tuple[int, int], int]:
    """For each pair of present players who played each other before, the latest round."""
    met: dict[tuple[int, int], int] = {}
    find = name_finder(season)
    for game in played_games(season, round_no):
        a = index.get(find(game.white))
        b = index.get(find(game.black))
        if a is None or b is None or a == b:
            continue
        key = (a, b) if a < b else (b, a)
        last = met.get(key)
        if last is None or last < game.round:
            met[key] = game.round
    return met


def _bye_counts(season: Season, index: dict[str, int], round_no: int) -> list[int]:
    counts = [0] * len(index)
    find = name_finder(season)
    for entry in season.entries:
        if isinstance(entry, Rest) and entry.reason is Absence.BYE and entry.round < round_no:
            player = index.get(find(entry.player))
            if player is not None:
                counts[player] += 1
    return counts


def _bye_candidates(players: list[int], byes: list[int]) -> Iterator[int]:
    """Those with the fewest byes from the bottom up, then all the others from the bottom up."""
    fewest = min(byes[p] for p in players)
    bottom_up = players[::-1]
    yield from (p for p in bottom_up if byes[p] == fewest)
    yield from (p for p in bottom_up if byes[p] != fewest)


def _blocked(n: int, met: dict[tuple[int, int], int], round_no: int,
             window: int) -> list[set[int]]:
    """Who may not meet whom: a game in round m blocks a pair while round_no - m <= window."""
    blocked: list[set[int]] = [set() for _ in range(n)]
    for (a, b), last in met.items():
        if round_no - last <= window:
            blocked[a].add(b)
            blocked[b].add(a)
    return blocked


def _pair_off(players: list[int], blocked: list[set[int]], bye_order: list[int],
              divisor: int | None) -> tuple[int | None, list[tuple[int, int]], list[int]] | None:
    """The first bye candidate and first complete pairing under these blocks, or None.

    Returns (bye, pairs in board order, bye candidates passed over). `bye_order` is empty
    when the number of players is even.
    """
    table = _Table(players, blocked)
    bye = None
    skipped: list[int] = []
    if bye_order:
        bye = table.choose(None, bye_order)
        if bye is None:
            return None
        skipped = bye_order[:bye_order.index(bye)]
        table.take(bye)
    elif not table.can_complete(()):
        return None
    return bye, table.pair_all(divisor), skipped


class _Table:
    """The players still to pair (ranking order) and what is known about pairing them all.

    `mate` is a matching of the allowed graph on the players left (built when first needed
    and kept up to date), so that an exact check starts from it and needs few searches.
    """

    def __init__(self, players: list[int], blocked: list[set[int]]) -> None:
        self.blocked = blocked
        self.left = list(players)
        self.here = [False] * len(blocked)
        for p in players:
            self.here[p] = True
        # number of players left that p may not meet; -1 for those already paired
        self.load = [-1] * len(blocked)
        for p in players:
            self.load[p] = sum(1 for q in blocked[p] if self.here[q])
        self.mate: list[int] | None = None
        self.maximum = False  # is `mate` known to be a maximum matching of the players left?

    def take(self, player: int) -> None:
        """Remove a player (paired or given the bye) from the table."""
        self.here[player] = False
        self.load[player] = -1
        self.left.remove(player)
        self.maximum = False
        for q in self.blocked[player]:
            if self.here[q]:
                self.load[q] -= 1
        if self.mate is not None and self.mate[player] != UNMATCHED:
            self.mate[self.mate[player]] = UNMATCHED
            self.mate[player] = UNMATCHED

    def can_complete(self, gone: tuple[int, ...]) -> bool:
        """Can everybody left except `gone` be paired? On an exact yes, keep that matching."""
        if self._dirac(gone):
            return True
        matching = self._exact(gone)
        if matching is None:
            return False
        self.mate = matching
        self.maximum = not gone
        return True

    def choose(self, top: int | None, order: Iterable[int]) -> int | None:
        """The first player in `order` who may meet `top` and leaves a table that can pair.

        With `top` None, the first who may leave the table (the bye) so that the rest can
        pair. Each candidate is tried in order; the exact answer, when the Dirac test does not
        settle it, comes for all candidates at once from one search (`_pairable_without`).
        """
        pairable: list[bool] | None = None
        exact = False
        for c in order:
            if top is not None and c in self.blocked[top]:
                continue
            gone = (c,) if top is None else (top, c)
            if self._dirac(gone):
                return c
            if not exact:
                pairable, exact = self._pairable_without(top), True
            if pairable is not None and pairable[c]:
                matching = self._exact(gone)
                if matching is None:  # pragma: no cover - the search said it can pair
                    raise AssertionError("inconsistent matching check")
                self.mate, self.maximum = matching, False
                return c
        return None

    def pair_all(self, divisor: int | None) -> list[tuple[int, int]]:
        """Pair everybody left: the first complete pairing in candidate order.

        `divisor` is D of spread pairing; None pairs top-down (each player's candidates are
        simply the players below him in order). The table must be able to pair.
        """
        pairs: list[tuple[int, int]] = []
        while self.left:
            top = self.left[0]
            chosen = self.choose(top, self._candidates(divisor))
            if chosen is None:  # pragma: no cover - each choice keeps the table pairable
                raise AssertionError("the players left cannot be paired")
            self.take(top)
            self.take(chosen)
            pairs.append((top, chosen))
        return pairs

    def _candidates(self, divisor: int | None) -> Iterator[int]:
        """The top player's candidates: from the target up to his neighbour, then below it."""
        unpaired = len(self.left)
        target = 1 if divisor is None else min(max(1, unpaired // divisor), unpaired - 1)
        return (self.left[i] for i in chain(range(target, 0, -1), range(target + 1, unpaired)))

    def _dirac(self, gone: tuple[int, ...]) -> bool:
        """Sufficient: each of the m players left after `gone` may meet at least m/2 others."""
        m = len(self.left) - len(gone)
        most = m // 2 - 1  # the most blocked opponents a player may have among the m
        saved = [self.load[g] for g in gone]
        for g in gone:
            self.load[g] = -1
        worst = max(self.load, default=-1)
        for g, load in zip(gone, saved, strict=True):
            self.load[g] = load
        if worst <= most:
            return True
        return all(self.load[p] - len(self.blocked[p].intersection(gone)) <= most
                   for p in self.left if p not in gone and self.load[p] > most)

    def _maximum(self) -> list[int]:
        """The kept matching, made maximum on the players left."""
        if self.mate is None:
            self.mate = self._greedy()
        if not self.maximum:
            for p in self.left:
                if self.mate[p] == UNMATCHED:
                    _search(p, self.left, self.blocked, self.mate)
            self.maximum = True
        return self.mate

    def _exact(self, gone: tuple[int, ...]) -> list[int] | None:
        """A perfect matching of everybody left except `gone`, or None if there is none."""
        mate = self._maximum()
        exposed = sum(1 for p in self.left if mate[p] == UNMATCHED)
        if exposed > len(gone):  # a matching of the whole table is at least as large
            return None
        trial = list(mate)
        for g in gone:
            if trial[g] != UNMATCHED:
                trial[trial[g]] = UNMATCHED
                trial[g] = UNMATCHED
        rest = [p for p in self.left if p not in gone]
        for p in rest:
            if trial[p] == UNMATCHED and _search(p, rest, self.blocked, trial) is not None:
                return None
        return trial

    def _pairable_without(self, top: int | None) -> list[bool] | None:
        """For every player c: can everybody left but `top` and c be paired?

        Let G be the table without `top` (an odd number of players) and M a maximum matching
        of G leaving one player x unmatched (if M leaves more, nobody can go: None). G without
        c can be paired exactly when some maximum matching leaves c unmatched, that is when c
        is reached from x by an alternating path of even length: exactly the "outer" players
        of a blossom search from x that finds no augmenting path (Gallai-Edmonds).
        """
        mate = list(self._maximum())
        players = self.left
        if top is not None:  # the table can pair: `mate` is perfect; free top's partner
            partner = mate[top]
            mate[top] = mate[partner] = UNMATCHED
            players = [p for p in self.left if p != top]
        exposed = [p for p in players if mate[p] == UNMATCHED]
        if len(exposed) != 1:
            return None
        return _search(exposed[0], players, self.blocked, mate)

    def _greedy(self) -> list[int]:
        mate = [UNMATCHED] * len(self.blocked)
        for i, p in enumerate(self.left):
            if mate[p] != UNMATCHED:
                continue
            for q in self.left[i + 1:]:
                if mate[q] == UNMATCHED and q not in self.blocked[p]:
                    mate[p], mate[q] = q, p
                    break
        return mate


def _search(root: int, vertices: list[int], blocked: list[set[int]],
            mate: list[int]) -> list[bool] | None:
    """Edmonds' blossom search from the unmatched `root` among `vertices`.

    If there is an augmenting path, flip it in `mate` and return None; otherwise leave `mate`
    alone and return the "outer" flags (indexed by player) of the finished search.

    The search grows one alternating tree from the root. "Outer" vertices are the root and
    the vertices reached through a matched edge; an edge between two outer vertices closes
    an odd cycle (a blossom), which is shrunk by giving all its vertices one `base`; its
    vertices all become outer. `back[v]` records, for each vertex that may lie on the path at
    an unmatched edge, the vertex across that edge towards the root, so that the path can
    be walked back and flipped once an unmatched vertex is reached.
    """
    n = len(mate)
    base = list(range(n))
    back = [UNMATCHED] * n
    outer = [False] * n
    outer[root] = True
    queue = deque([root])

    def common_base(a: int, b: int) -> int:
        """The base of the smallest blossom closed by the edge a-b: where their paths meet."""
        on_path = set()
        while True:
            a = base[a]
            on_path.add(a)
            if mate[a] == UNMATCHED:
                break
            a = back[mate[a]]
        while True:
            b = base[b]
            if b in on_path:
                return b
            b = back[mate[b]]

    def mark(v: int, stop: int, across: int, shrunk: set[int]) -> None:
        """Walk from v to the blossom base `stop`, letting the path run the other way round."""
        while base[v] != stop:
            shrunk.add(base[v])
            shrunk.add(base[mate[v]])
            back[v] = across
            across = mate[v]
            v = back[mate[v]]

    while queue:
        v = queue.popleft()
        for w in vertices:
            if w == v or base[v] == base[w] or mate[v] == w or w in blocked[v]:
                continue
            if outer[w]:
                stop = common_base(v, w)
                shrunk: set[int] = set()
                mark(v, stop, w, shrunk)
                mark(w, stop, v, shrunk)
                for u in vertices:
                    if base[u] in shrunk:
                        base[u] = stop
                        if not outer[u]:
                            outer[u] = True
                            queue.append(u)
            elif back[w] == UNMATCHED:
                back[w] = v
                if mate[w] == UNMATCHED:
                    end = w
                    while end != UNMATCHED:  # flip the path back to the root
                        towards_root = back[end]
                        next_end = mate[towards_root]
                        mate[end], mate[towards_root] = towards_root, end
                        end = next_end
                    return None
                outer[mate[w]] = True
                queue.append(mate[w])
    return outer


def _relaxed_note(widest: int, window: int, pairs: list[tuple[int, int]], names: list[str],
                  met: dict[tuple[int, int], int], round_no: int) -> str:
    rematches = []
    for a, b in pairs:
        last = met.get((min(a, b), max(a, b)))
        if last is not None and round_no - last <= widest:
            rematches.append(f"{names[a]}-{names[b]} (met in round {last})")
    allowed = "rematches allowed" if window == 0 else f"window {window}"
    return (f"Rematch window relaxed from {widest} to {window} ({allowed}): no complete "
            f"pairing avoids every rematch within {widest} rounds. Rematches: "
            f"{_and(rematches) if rematches else 'none'}.")


def _and(items: Iterator[str] | Sequence[str]) -> str:
    words = list(items)
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]
