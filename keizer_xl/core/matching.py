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

from collections import deque
from collections.abc import Iterable

UNMATCHED = -1


class PairabilityOracle:
    """The vertices still to match (in a fixed order) and what is known about matching them.

    `mate` is a matching of the graph on the vertices left (built when first needed and
    kept up to date), so that an exact check starts from it and needs few searches.
    """

    def __init__(self, vertices: list[int], blocked: list[set[int]]) -> None:
        self.blocked = blocked
        self.left = list(vertices)
        self.here = [False] * len(blocked)
        for v in vertices:
            self.here[v] = True
        # number of vertices left that v may not be matched with; -1 for those taken
        self.load = [-1] * len(blocked)
        for v in vertices:
            self.load[v] = sum(1 for q in blocked[v] if self.here[q])
        self.mate: list[int] | None = None
        self.maximum = False  # is `mate` known to be a maximum matching of the vertices left?

    def take(self, vertex: int) -> None:
        """Remove a vertex (matched, or left out on purpose)."""
        self.here[vertex] = False
        self.load[vertex] = -1
        self.left.remove(vertex)
        self.maximum = False
        for q in self.blocked[vertex]:
            if self.here[q]:
                self.load[q] -= 1
        if self.mate is not None and self.mate[vertex] != UNMATCHED:
            self.mate[self.mate[vertex]] = UNMATCHED
            self.mate[vertex] = UNMATCHED

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
        for c in order:
            if top is not None and c in self.blocked[top]:
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
        m = len(self.left) - len(gone)
        most = m // 2 - 1  # the most blocked partners a vertex may have among the m
        saved = [self.load[g] for g in gone]
        for g in gone:
            self.load[g] = -1
        worst = max(self.load, default=-1)
        for g, load in zip(gone, saved, strict=True):
            self.load[g] = load
        if worst <= most:
            return True
        return all(self.load[v] - len(self.blocked[v].intersection(gone)) <= most
                   for v in self.left if v not in gone and self.load[v] > most)

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
            for q in self.left[i + 1:]:
                if mate[q] == UNMATCHED and q not in self.blocked[v]:
                    mate[v], mate[q] = q, v
                    break
        return mate


def _search(root: int, vertices: list[int], blocked: list[set[int]],
            mate: list[int]) -> list[bool] | None:
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
