"""Can the vertices left still be matched perfectly? Graph code, with no rule book in it.

The graph is given by what is *not* allowed: `blocked[v]` is the set of vertices v may not
be matched with; every other pair is an edge. Vertices are taken out one or two at a time,
and after each step the question is whether the rest still has a perfect matching.

A cheap sufficient test settles nearly every step (Dirac: if each of the m vertices left
has at least m/2 neighbours among them, the graph has a Hamiltonian cycle and so a perfect
matching when m is even). When it does not, one run of Edmonds' blossom search, started
from a matching kept up to date between steps, answers exactly; and one search tells for
every vertex at once whether the others can be matched without it (Gallai-Edmonds).
"""

from __future__ import annotations

from bisect import bisect_left
from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from itertools import islice
from typing import overload

import numpy as np

UNMATCHED = -1


class Blocks(Sequence[set[int]]):
    """Blocked sets given all at once, each vertex's partners one after another in
    `partners` up to `ends[v]`; a vertex's set is made when first asked for (a large graph
    asks for few of them)."""

    def __init__(self, partners: Sequence[int] | np.ndarray, ends: Sequence[int]) -> None:
        self.partners = np.asarray(partners, dtype=np.intp)
        self.degrees = np.diff(np.asarray(ends, dtype=np.intp), prepend=0)
        self.ends = list(ends)
        self.made: dict[int, set[int]] = {}

    def __len__(self) -> int:
        return len(self.ends)

    @overload
    def __getitem__(self, vertex: int) -> set[int]: ...
    @overload
    def __getitem__(self, vertex: slice) -> Sequence[set[int]]: ...
    def __getitem__(self, vertex: int | slice) -> set[int] | Sequence[set[int]]:
        if isinstance(vertex, slice):
            return [self[v] for v in range(len(self))[vertex]]
        found = self.made.get(vertex)
        if found is None:
            start = self.ends[vertex - 1] if vertex else 0
            found = self.made[vertex] = set(self.partners[start : self.ends[vertex]].tolist())
        return found

    def degree(self, vertex: int) -> int:
        return int(self.degrees[vertex])

    def forget(self, vertex: int) -> None:
        """Drop the vertex's set once it is taken out and asked about no more: sets kept for
        every player paired would pile up, and the garbage collector walks each of them
        again at every collection, a cost that grew faster than the number of players."""
        self.made.pop(vertex, None)


class PairabilityOracle:
    """The vertices still to match (in a fixed order) and what is known about matching them.

    For the Dirac test, what matters is the highest *load* (how many vertices left a vertex
    may not be matched with) against half the vertices left. Loads only fall as vertices
    are taken, so the highest at the start bounds them all until half the vertices left is
    no more than that; only from then on (the last few dozen vertices, in a club) are the
    loads counted and kept up to date, with the vertices at each load, so that no step
    looks at every vertex. `mate` is a matching of the graph on the vertices left (built
    when first needed and kept up to date), so that an exact check starts from it and needs
    few searches.
    """

    def __init__(self, vertices: list[int], blocked: Sequence[set[int]]) -> None:
        self.blocked = blocked
        self._last_first = vertices[::-1]  # taking the first vertex is then a pop()
        self._later = [0] * len(blocked)  # -(place in the order): `_last_first` ascends by it
        for place, v in enumerate(vertices):
            self._later[v] = -place
        self.here = [False] * len(blocked)
        for v in vertices:
            self.here[v] = True
        if isinstance(blocked, Blocks):  # a bound, so far
            self.worst = int(blocked.degrees[vertices].max(initial=-1))
        else:
            self.worst = max((len(blocked[v]) for v in vertices), default=-1)
        self.counting = False  # are `load`, `at_load` and `worst` exact (kept up to date)?
        self.load: list[int] = []
        self.at_load: list[set[int]] = []
        self.mate: list[int] | None = None
        self.maximum = False  # is `mate` known to be a maximum matching of the vertices left?

    def _count_loads(self) -> None:
        """Count every load among the vertices left, and keep them up to date from now on."""
        here, blocked = self.here, self.blocked
        self.load = [-1] * len(blocked)  # -1 for those taken
        for v in self._last_first:
            self.load[v] = sum(1 for q in blocked[v] if here[q])
        self.worst = max((self.load[v] for v in self._last_first), default=-1)
        self.at_load = [set() for _ in range(self.worst + 1)]
        for v in self._last_first:
            self.at_load[self.load[v]].add(v)
        self.counting = True

    @property
    def left(self) -> list[int]:
        """The vertices left, in order."""
        return self._last_first[::-1]

    def __len__(self) -> int:
        return len(self._last_first)

    def at(self, place: int) -> int:
        """The vertex at this place (0 = first) among those left."""
        return self._last_first[-1 - place]

    def from_place(self, first: int, last: int | None = None) -> Iterator[int]:
        """The vertices left from place `first` to place `last` (default: the end), both
        included; walked backwards when `last` comes before `first`."""
        order = self._last_first
        end = len(order) - 1  # the list index of place 0
        if last is not None and last < first:
            return islice(order, end - first, end - last + 1)
        return islice(reversed(order), first, None if last is None else last + 1)

    def take(self, vertex: int) -> None:
        """Remove a vertex (matched, or left out on purpose)."""
        here = self.here
        here[vertex] = False
        self._remove(vertex)
        self.maximum = False
        if self.counting:
            load, at_load = self.load, self.at_load
            at_load[load[vertex]].discard(vertex)
            load[vertex] = -1
            for q in self.blocked[vertex]:
                if here[q]:
                    was = load[q]
                    at_load[was].discard(q)
                    at_load[was - 1].add(q)
                    load[q] = was - 1
            while self.worst >= 0 and not at_load[self.worst]:
                self.worst -= 1
        if self.mate is not None and self.mate[vertex] != UNMATCHED:
            self.mate[self.mate[vertex]] = UNMATCHED
            self.mate[vertex] = UNMATCHED
        if isinstance(self.blocked, Blocks):
            self.blocked.forget(vertex)

    def _remove(self, vertex: int) -> None:
        """Out of the order, found by bisection; nearly always one of the first few, so
        the list moves hardly anything."""
        order = self._last_first
        if order[-1] == vertex:
            order.pop()
            return
        del order[bisect_left(order, self._later[vertex], key=self._later.__getitem__)]

    def can_complete(self, gone: tuple[int, ...]) -> bool:
        """Can every vertex left except `gone` be matched? On an exact yes, keep that matching."""
        if self._dirac(gone):
            return True
        matching = self.exact(gone)
        if matching is None:
            return False
        self.mate = matching
        self.maximum = not gone
        return True

    def choose(self, top: int | None, order: Iterable[int]) -> int | None:
        """The first vertex in `order` that may be matched with `top` and leaves a graph that
        can be matched perfectly.

        With `top` None, the first that may be left out so that the rest can be matched.
        Each candidate is tried in order; the exact answer, when the Dirac test does not
        settle it, comes for all candidates at once from one search (`pairable_without`).
        """
        pairable: list[bool] | None = None
        exact = False
        barred = self.blocked[top] if top is not None else set()
        for c in order:
            if c in barred:
                continue
            gone = (c,) if top is None else (top, c)
            if self._dirac(gone):
                return c
            if not exact:
                pairable, exact = self.pairable_without(top), True
            if pairable is not None and pairable[c]:
                matching = self.exact(gone)
                if matching is None:  # pragma: no cover - the search said it can match
                    raise AssertionError("inconsistent matching check")
                self.mate, self.maximum = matching, False
                return c
        return None

    def pairable_without(self, top: int | None) -> list[bool] | None:
        """For every vertex c: can every vertex left but `top` and c be matched?

        Let G be the graph without `top` (an odd number of vertices) and M a maximum matching
        of G leaving one vertex x unmatched (if M leaves more, nobody can go: None). G without
        c can be matched exactly when some maximum matching leaves c unmatched, that is when
        c is reached from x by an alternating path of even length: exactly the "outer"
        vertices of a blossom search from x that finds no augmenting path (Gallai-Edmonds).
        """
        mate = list(self._maximum())
        vertices = self.left
        if top is not None:  # the graph can be matched: `mate` is perfect; free top's mate
            partner = mate[top]
            mate[top] = mate[partner] = UNMATCHED
            vertices = [v for v in self.left if v != top]
        exposed = [v for v in vertices if mate[v] == UNMATCHED]
        if len(exposed) != 1:
            return None
        return _search(exposed[0], vertices, self.blocked, mate)

    def _dirac(self, gone: tuple[int, ...]) -> bool:
        """Sufficient: each of the m vertices left after `gone` has at least m/2 neighbours."""
        most = (len(self._last_first) - len(gone)) // 2 - 1  # most blocked partners allowed
        if self.worst <= most:  # taking `gone` out only lowers the loads
            return True
        if not self.counting:
            self._count_loads()
            if self.worst <= most:
                return True
        for load in range(self.worst, most, -1):
            for v in self.at_load[load]:
                if v not in gone and load - len(self.blocked[v].intersection(gone)) > most:
                    return False
        return True

    def _maximum(self) -> list[int]:
        """The kept matching, made maximum on the vertices left."""
        if self.mate is None:
            self.mate = self._greedy()
        if not self.maximum:
            for v in self.left:
                if self.mate[v] == UNMATCHED:
                    _search(v, self.left, self.blocked, self.mate)
            self.maximum = True
        return self.mate

    def exact(self, gone: tuple[int, ...]) -> list[int] | None:
        """A perfect matching of every vertex left except `gone`, or None if there is none
        (by search alone, without the Dirac shortcut)."""
        mate = self._maximum()
        exposed = sum(1 for v in self.left if mate[v] == UNMATCHED)
        if exposed > len(gone):  # a matching of the whole graph is at least as large
            return None
        trial = list(mate)
        for g in gone:
            if trial[g] != UNMATCHED:
                trial[trial[g]] = UNMATCHED
                trial[g] = UNMATCHED
        rest = [v for v in self.left if v not in gone]
        for v in rest:
            if trial[v] == UNMATCHED and _search(v, rest, self.blocked, trial) is not None:
                return None
        return trial

    def _greedy(self) -> list[int]:
        mate = [UNMATCHED] * len(self.blocked)
        for i, v in enumerate(self.left):
            if mate[v] != UNMATCHED:
                continue
            for q in self.left[i + 1 :]:
                if mate[q] == UNMATCHED and q not in self.blocked[v]:
                    mate[v], mate[q] = q, v
                    break
        return mate


def _search(
    root: int, vertices: list[int], blocked: Sequence[set[int]], mate: list[int]
) -> list[bool] | None:
    """Edmonds' blossom search from the unmatched `root` among `vertices`.

    If there is an augmenting path, flip it in `mate` and return None; otherwise leave `mate`
    alone and return the "outer" flags (indexed by vertex) of the finished search.

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
