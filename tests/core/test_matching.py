"""Perfect matchings of what is left: the Dirac shortcut and Edmonds' blossom search,
against an exhaustive search on small random graphs (Hypothesis draws them, and shrinks a
failing one to a small example)."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from keizer_xl.core.matching import Blocks, PairabilityOracle
from tests.profiles import examples


def random_blocks(rng: random.Random, n: int) -> list[set[int]]:
    density = rng.random()
    blocked: list[set[int]] = [set() for _ in range(n)]
    for a in range(n):
        for b in range(a + 1, n):
            if rng.random() < density:
                blocked[a].add(b)
                blocked[b].add(a)
    return blocked


def pairable_by_search(players: list[int], blocked: list[set[int]]) -> bool:
    if not players:
        return True
    top, others = players[0], players[1:]
    return any(
        o not in blocked[top] and pairable_by_search([q for q in others if q != o], blocked)
        for o in others
    )


@settings(max_examples=examples(300), deadline=None)
@given(st.randoms(use_true_random=False))
def test_matching_check_against_exhaustive_search(rng: random.Random) -> None:
    """The exact check (Edmonds) decides perfect matchability like an exhaustive search."""
    n = rng.randint(2, 15)
    blocked = random_blocks(rng, n)
    gone = tuple(rng.sample(range(n), 1 if n % 2 else rng.choice([0, 2])))
    rest = [q for q in range(n) if q not in gone]
    expected = pairable_by_search(rest, blocked)

    table = PairabilityOracle(list(range(n)), blocked)
    exact: Any = table.exact(gone)  # the exact check alone, without the Dirac shortcut
    assert (exact is not None) == expected
    if exact is not None:  # and the matching it returns is a perfect one of allowed games
        assert all(
            exact[q] in rest and exact[exact[q]] == q and exact[q] not in blocked[q] for q in rest
        )
    assert PairabilityOracle(list(range(n)), blocked).can_complete(gone) == expected


@settings(max_examples=examples(300), deadline=None)
@given(st.randoms(use_true_random=False))
def test_who_may_leave_against_exhaustive_search(rng: random.Random) -> None:
    """One blossom search tells, for every vertex at once, whether the rest can be matched
    without it (left out alone) or without the top vertex and it (matched together)."""
    n = rng.randint(1, 15)
    blocked = random_blocks(rng, n)
    everyone = list(range(n))
    table = PairabilityOracle(everyone, blocked)
    if n % 2:  # who can be left out
        top = None
        expected = {
            c for c in everyone if pairable_by_search([q for q in everyone if q != c], blocked)
        }
    else:  # whom can vertex 0 be matched with
        if not pairable_by_search(everyone, blocked):
            return
        top = 0
        expected = {
            c
            for c in everyone[1:]
            if c not in blocked[0]
            and pairable_by_search([q for q in everyone[1:] if q != c], blocked)
        }
    flags = table.pairable_without(top)
    found = (
        set()
        if flags is None
        else {
            c for c in everyone if flags[c] and c != top and (top is None or c not in blocked[top])
        }
    )
    assert found == expected
    order = everyone if top is None else everyone[1:]
    rng.shuffle(order)
    chosen = PairabilityOracle(everyone, blocked).choose(top, order)
    assert chosen == next((c for c in order if c in expected), None)


@settings(max_examples=examples(100), deadline=None)
@given(st.randoms(use_true_random=False))
def test_blocks_made_on_demand_answer_as_sets(rng: random.Random) -> None:
    """The same graph given as arrays of pairs (sets made when asked for) and as sets."""
    n = rng.randint(1, 14)
    blocked = random_blocks(rng, n)
    partners = [q for v in range(n) for q in sorted(blocked[v])]
    ends = [sum(len(blocked[u]) for u in range(v + 1)) for v in range(n)]
    blocks = Blocks(partners, ends)
    assert [blocks.degree(v) for v in range(n)] == [len(b) for b in blocked]
    everyone = list(range(n))
    order = everyone[1:] if n % 2 == 0 else everyone
    top = 0 if n % 2 == 0 else None
    assert PairabilityOracle(everyone, blocks).choose(top, order) == PairabilityOracle(
        everyone, blocked
    ).choose(top, order)
    assert list(blocks) == blocked
