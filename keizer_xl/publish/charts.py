"""Rank-progress charts as plain geometry, for the page templates to draw as inline SVG.

Rank 1 is at the top; each round is one step to the right. Only numbers are worked out
here: the template writes the SVG, so names are escaped like every other text.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

# Ten colours told apart also in print and by most colour-blind readers.
PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b",
           "#e377c2", "#7f7f7f", "#bcbd22")


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


def rank_chart(series: Sequence[tuple[str, Sequence[int | None], str | None]], ranked: int,
               title: str, width: int = 560, height: int = 280,
               worst: int | None = None) -> Chart:
    """Lines of rank after each round: `series` is (name, ranks, link) per player.

    The rank axis runs from 1 to `worst` (default: the lowest rank any line reaches, so the
    top players' lines fill the chart)."""
    rounds = max((len(ranks) for _, ranks, _ in series), default=0)
    low = worst or max((r for _, ranks, _ in series for r in ranks if r is not None),
                       default=1)
    low = max(low, 2)
    left, right, top, bottom = 36, width - 14, 12, height - 28

    xs = [(left + right) / 2 if rounds <= 1 else
          round(left + (right - left) * (k - 1) / (rounds - 1), 1) for k in range(rounds + 1)]

    def x(round_no: int) -> float:
        return xs[round_no]

    def y(rank: int) -> float:
        return round(top + (bottom - top) * (rank - 1) / (low - 1), 1)

    lines = []
    for i, (name, ranks, href) in enumerate(series):
        segments: list[list[str]] = [[]]
        dots = []
        for k, rank in enumerate(ranks, start=1):
            if rank is None:
                if segments[-1]:
                    segments.append([])
                continue
            at_x, at_y = x(k), y(rank)
            segments[-1].append(f"{at_x},{at_y}")
            dots.append(f"M{at_x - _DOT},{at_y}{_ROUND}")
        parts = tuple(" ".join(s) for s in segments if s)
        lines.append(Line(name, PALETTE[i % len(PALETTE)], " ".join(parts), parts,
                          "".join(dots), href))
    step = max(1, -(-rounds // 12))
    x_ticks = tuple((x(k), k) for k in range(1, rounds + 1) if (k - 1) % step == 0
                    or k == rounds)
    rank_step = _nice_step(low)
    # 1, then every step (a mark too close to 1 left out), and the bottom unless one is near
    marks = [1, *(r for r in range(rank_step, low + 1, rank_step) if r - 1 > rank_step / 2)]
    if low - marks[-1] > rank_step / 2:
        marks.append(low)
    y_ticks = tuple((y(r), r) for r in marks)
    return Chart(width, height, left, top, right, bottom, tuple(lines), x_ticks, y_ticks,
                 title)


def _nice_step(span: int) -> int:
    """A tick every 1, 2, 5, 10, 20, 50, ... ranks: at most about eight ticks."""
    for step in (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000):
        if span / step <= 8:
            return step
    return 10_000
