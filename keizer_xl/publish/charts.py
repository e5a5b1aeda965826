"""Rank-progress charts as plain geometry, for the page templates to draw as inline SVG.

Rank 1 is at the top; each round is one step to the right. Only numbers are worked out
here: the template writes the SVG, so names are escaped like every other text.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass

# Ten colours told apart also in print and by most colour-blind readers.
PALETTE = (
    "#1f77b4",
    "#d62728",
    "#2ca02c",
    "#9467bd",
    "#ff7f0e",
    "#17becf",
    "#8c564b",
    "#e377c2",
    "#7f7f7f",
    "#bcbd22",
)


_DOT = 2.6  # radius of the round marks
_ROUND = f"a{_DOT},{_DOT} 0 1,0 {2 * _DOT},0a{_DOT},{_DOT} 0 1,0 {-2 * _DOT},0"  # from its left


@dataclass(frozen=True)
class Line:
    name: str
    colour: str
    points: str  # "x,y x,y ..." for <polyline>; a break in the ranks starts a new line
    segments: tuple[str, ...]
    dots: str  # a small round mark at each rank, as one SVG path
    href: str | None = None


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    left: int
    top: int
    right: int
    bottom: int
    lines: tuple[Line, ...]
    x_ticks: tuple[tuple[float, int], ...]  # position, round
    y_ticks: tuple[tuple[float, int], ...]  # position, rank
    title: str


def rank_chart(
    series: Sequence[tuple[str, Sequence[int | None], str | None]],
    ranked: int,
    title: str,
    width: int = 560,
    height: int = 280,
    worst: int | None = None,
) -> Chart:
    """Lines of rank after each round: `series` is (name, ranks, link) per player.

    The rank axis runs from 1 to `worst` (default: the lowest rank any line reaches, so the
    top players' lines fill the chart)."""
    rounds = max((len(ranks) for _, ranks, _ in series), default=0)
    low = worst or max((r for _, ranks, _ in series for r in ranks if r is not None), default=1)
    low = max(low, 2)
    scale = _scale(rounds, low, width, height)
    at_x, dot_x, at_y, below = scale.at_x, scale.dot_x, scale.at_y, len(scale.at_y)
    lines = []
    for i, (name, ranks, href) in enumerate(series):
        segments: list[list[str]] = [[]]
        dots = []
        for k, rank in enumerate(ranks, start=1):
            if rank is None:
                if segments[-1]:
                    segments.append([])
                continue
            y = at_y[rank] if rank < below else str(_y(rank, scale.top, scale.bottom, low))
            segments[-1].append(f"{at_x[k]},{y}")
            dots.append(f"M{dot_x[k]},{y}{_ROUND}")
        parts = tuple(" ".join(s) for s in segments if s)
        lines.append(
            Line(name, PALETTE[i % len(PALETTE)], " ".join(parts), parts, "".join(dots), href)
        )
    return Chart(
        width,
        height,
        scale.left,
        scale.top,
        scale.right,
        scale.bottom,
        tuple(lines),
        scale.x_ticks,
        scale.y_ticks,
        title,
    )


@dataclass(frozen=True)
class _Scale:
    """Where each round and each rank is drawn: the numbers every chart of one size shares
    (a site draws a thousand player charts on one scale), each written once."""

    left: int
    top: int
    right: int
    bottom: int
    x_ticks: tuple[tuple[float, int], ...]
    y_ticks: tuple[tuple[float, int], ...]
    at_x: tuple[str, ...]  # by round (from 1): the x of its marks, as written
    dot_x: tuple[str, ...]  # by round: the left edge of its round mark
    at_y: tuple[str, ...]  # by rank (from 1) down to the lowest: the y of its marks


@functools.lru_cache(maxsize=8)
def _scale(rounds: int, low: int, width: int, height: int) -> _Scale:
    """The scale of a chart of `rounds` rounds and ranks 1 to `low` (at least 2)."""
    left, right, top, bottom = 36, width - 14, 12, height - 28
    xs = [
        (left + right) / 2
        if rounds <= 1
        else round(left + (right - left) * (k - 1) / (rounds - 1), 1)
        for k in range(rounds + 1)
    ]
    step = max(1, -(-rounds // 12))
    x_ticks = tuple((xs[k], k) for k in range(1, rounds + 1) if (k - 1) % step == 0 or k == rounds)
    rank_step = _nice_step(low)
    # 1, then every step (a mark too close to 1 left out), and the bottom unless one is near
    marks = [1, *(r for r in range(rank_step, low + 1, rank_step) if r - 1 > rank_step / 2)]
    if low - marks[-1] > rank_step / 2:
        marks.append(low)
    return _Scale(
        left,
        top,
        right,
        bottom,
        x_ticks,
        tuple((_y(r, top, bottom, low), r) for r in marks),
        tuple(str(x) for x in xs),
        tuple(str(x - _DOT) for x in xs),
        tuple(str(_y(r, top, bottom, low)) for r in range(low + 1)),
    )


def _y(rank: int, top: int, bottom: int, low: int) -> float:
    """Where a rank is drawn: rank 1 at the top, rank `low` at the bottom."""
    return round(top + (bottom - top) * (rank - 1) / (low - 1), 1)


def _nice_step(span: int) -> int:
    """A tick every 1, 2, 5, 10, 20, 50, ... ranks: at most about eight ticks."""
    for step in (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000):
        if span / step <= 8:
            return step
    return 10_000
