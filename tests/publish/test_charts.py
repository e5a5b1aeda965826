"""The rank charts' geometry: where each round and rank is drawn, on scales shared by every
chart of one size."""

from __future__ import annotations

from keizer_xl.publish.charts import rank_chart

DOT = "a2.6,2.6 0 1,0 5.2,0a2.6,2.6 0 1,0 -5.2,0"  # a round mark, drawn from its left


def test_a_player_chart_puts_rank_1_at_the_top_and_the_last_rank_at_the_bottom() -> None:
    chart = rank_chart([("Anna", [1, None, 4], None)], 4, "Anna", width=480, height=220, worst=4)
    (line,) = chart.lines
    assert line.segments == ("36.0,12.0", "466.0,192.0")  # a round not ranked breaks it
    assert line.dots == f"M33.4,12.0{DOT}M463.4,192.0{DOT}"
    assert chart.x_ticks == ((36.0, 1), (251.0, 2), (466.0, 3))
    assert chart.y_ticks == ((12.0, 1), (72.0, 2), (132.0, 3), (192.0, 4))


def test_charts_of_one_scale_are_drawn_alike_whatever_was_drawn_between() -> None:
    def anna() -> object:
        return rank_chart([("Anna", [3, 1, 2], None)], 40, "Anna", width=480, height=220, worst=40)

    first = anna()
    rank_chart([("Bram", [7, 9], None), ("Carla", [2, 5], "carla.html")], 12, "Top")
    assert anna() == first


def test_a_rank_below_the_lowest_drawn_is_placed_below_the_bottom() -> None:
    """Ranks after earlier rounds can be lower than the players ranked now (some have
    been dropped since): drawn where the scale puts them, under the chart's last rank."""
    chart = rank_chart([("Anna", [1, 6], None)], 4, "Anna", width=480, height=220, worst=4)
    assert chart.lines[0].points == "36.0,12.0 466.0,312.0"
