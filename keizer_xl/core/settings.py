"""The club's settings: one typed object with the rule book's defaults, read from words.

A secretary fills a two-column Settings sheet; blank means "the default of the preset".
Unknown names are an error, because a typo must never fall back to a default silently.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from keizer_xl.core.errors import Problems
from keizer_xl.core.model import Absence
from keizer_xl.core.words import (
    WordError,
    is_blank,
    parse_choice,
    parse_fraction,
    parse_number,
    parse_whole,
    text,
)

F = Fraction


@dataclass(frozen=True)
class Settings:
    """Every knob of the rule book, with its default. Fractions are exact."""

    top_value: Fraction | None = None  # None: computed once from the number of players
    top_value_auto: bool = False  # `auto`: recomputed at every calculation
    step: Fraction = F(1)
    initial_order: str = "rating"  # rating | as listed
    bye: Fraction = F(2, 3)
    excused: tuple[Fraction, ...] = (F(1, 3),)
    club: tuple[Fraction, ...] = (F(2, 3),)
    unexcused: Fraction = F(0)
    default_absence: Absence = Absence.EXCUSED
    forfeit_win: Fraction = F(2, 3)
    forfeit_win_opponent: bool = False  # `opponent`: the opponent's value, as a won game
    late_entry: str = "bottom"  # bottom | rating
    late_entry_rounds: str = "excused"  # excused | nothing
    max_rewarded_absences: int | None = None
    ties: str = "rating"  # rating | shared
    iterate: str = "none"  # none | final | converge
    rematch_window: int = 3
    colours: str = "keizer"  # keizer | count | percentage | geel
    preset: str = "keizer"  # keizer | kfc
    ratio: Fraction = F(3)
    loss: Fraction = F(0)
    withdrawn: str = "stay"  # stay | drop
    withdrawn_opponent: Fraction = F(3, 4)
    own_value: str = "current"  # current | initial | none
    values: str = "rank"  # rank | rating
    rating_divisor: Fraction = F(100)
    rating_k: Fraction = F(0)
    pairing: str = "top-down"  # top-down | spread
    top_down_from: int | None = None
    first_round_white: str = "higher"  # higher | lower
    max_same_colour: int | None = None
    overrides: tuple[str, ...] = field(default=(), compare=False)  # names the secretary filled

    def describe(self) -> str:
        """One line for the Standings sheet: which preset and which settings were changed."""
        line = f"Preset {self.preset}"
        if self.overrides:
            line += "; changed: " + ", ".join(self.overrides)
        return line


PRESETS: dict[str, dict[str, Any]] = {
    "keizer": {},
    "kfc": {
        "top_value_auto": True,
        "ratio": F(3),
        "bye": F(1, 2),
        "excused": (F(35, 100),),
        "club": (F(70, 100),),
        "unexcused": F(35, 100),
        "loss": F(0),
        "forfeit_win_opponent": True,
        "withdrawn": "drop",
        "withdrawn_opponent": F(3, 4),
        "ties": "rating",
    },
}


def _fractions(value: object) -> tuple[Fraction, ...]:
    if not isinstance(value, str):
        return (parse_fraction(value),)
    parts: list[str] = value.replace(";", ",").split(",")
    # "0,5" is one Dutch decimal, "1/3, 1/4" a list: a list needs a space or a slash-fraction
    if len(parts) == 2 and "/" not in value and " " not in value:
        parts = [value]
    out = tuple(parse_fraction(p.strip()) for p in parts if not is_blank(p))
    if not out:
        raise WordError(f"'{text(value)}' is not a fraction")
    return out


def _top_value(value: object) -> tuple[str, Any]:
    if text(value).lower() == "auto":
        return ("top_value_auto", True)
    number = parse_number(value)
    if number.denominator != 1 or number <= 0:
        raise WordError(f"'{text(value)}' is not a whole number above 0 (or auto)")
    return ("top_value", number)


def _positive(value: object) -> Fraction:
    number = parse_number(value)
    if number <= 0:
        raise WordError(f"'{text(value)}' must be more than 0")
    return number


def _above_one(value: object) -> Fraction:
    number = parse_number(value)
    if number <= 1:
        raise WordError(f"'{text(value)}' must be more than 1")
    return number


def _forfeit(value: object) -> tuple[str, Any]:
    if text(value).lower() == "opponent":
        return ("forfeit_win_opponent", True)
    return ("forfeit_win", parse_fraction(value))


# Settings whose value is one of a fixed list of words (also the template's dropdowns).
CHOICES: dict[str, tuple[str, ...]] = {
    "Initial order": ("rating", "as listed"),
    "Default absence": ("excused", "club", "unexcused"),
    "Late entry": ("bottom", "rating"),
    "Late entry rounds": ("excused", "nothing"),
    "Ties": ("rating", "shared"),
    "Iterate": ("none", "final", "converge"),
    "Colours": ("keizer", "count", "percentage", "geel"),
    "Preset": ("keizer", "kfc"),
    "Withdrawn": ("stay", "drop"),
    "Own value": ("current", "initial", "none"),
    "Values": ("rank", "rating"),
    "Pairing": ("top-down", "spread"),
    "First round white": ("higher", "lower"),
}


def _absence(value: object) -> Absence:
    return Absence(parse_choice(value, CHOICES["Default absence"]))


def _choice(name: str) -> Any:
    return lambda value: parse_choice(value, CHOICES[name])


# Setting name on the sheet -> (field, parser). A parser returning (field, value) sets that field.
SETTINGS: dict[str, tuple[str, Any]] = {
    "Top value": ("top_value", _top_value),
    "Step": ("step", _positive),
    "Initial order": ("initial_order", _choice("Initial order")),
    "Bye": ("bye", parse_fraction),
    "Excused absence": ("excused", _fractions),
    "Club duty": ("club", _fractions),
    "Unexcused absence": ("unexcused", parse_fraction),
    "Default absence": ("default_absence", _absence),
    "Forfeit win": ("forfeit_win", _forfeit),
    "Late entry": ("late_entry", _choice("Late entry")),
    "Late entry rounds": ("late_entry_rounds", _choice("Late entry rounds")),
    "Max rewarded absences": ("max_rewarded_absences", lambda v: parse_whole(v, 0)),
    "Ties": ("ties", _choice("Ties")),
    "Iterate": ("iterate", _choice("Iterate")),
    "Rematch window": ("rematch_window", lambda v: parse_whole(v, 0)),
    "Colours": ("colours", _choice("Colours")),
    "Preset": ("preset", _choice("Preset")),
    "Ratio first to last": ("ratio", _above_one),
    "Loss": ("loss", parse_fraction),
    "Withdrawn": ("withdrawn", _choice("Withdrawn")),
    "Withdrawn opponent": ("withdrawn_opponent", parse_fraction),
    "Own value": ("own_value", _choice("Own value")),
    "Values": ("values", _choice("Values")),
    "Rating divisor": ("rating_divisor", _positive),
    "Rating K-factor": ("rating_k", lambda v: parse_fraction(v)),
    "Pairing": ("pairing", _choice("Pairing")),
    "Top-down from round": ("top_down_from", lambda v: parse_whole(v, 1)),
    "First round white": ("first_round_white", _choice("First round white")),
    "Max same colour": ("max_same_colour", lambda v: parse_whole(v, 1)),
}

# What each setting does, for the template's Settings sheet and `--help`.
MEANINGS: dict[str, str] = {
    "Top value": "Value of the number 1. Blank: 1.5 × (players − 1), fixed when round 1 is "
    "paired; auto: recomputed every time from 'Ratio first to last'.",
    "Step": "How much less each next place is worth.",
    "Initial order": "Ranking before round 1: rating (highest first) or as listed.",
    "Bye": "Share of own value for the odd player out.",
    "Excused absence": "Share of own value for an excused absence; a list (1/3, 1/4) gives "
    "the n-th absence the n-th share.",
    "Club duty": "Share of own value when playing a team match for the club (list allowed).",
    "Unexcused absence": "Share of own value for an unexcused absence.",
    "Default absence": "Reason used when the Present cell is blank: excused, club or unexcused.",
    "Forfeit win": "Share of own value when the opponent did not turn up; 'opponent' counts "
    "it as a win over the board.",
    "Late entry": "Where a late entrant starts: bottom of the ranking, or by rating.",
    "Late entry rounds": "Rounds before a late entrant joined: excused or nothing.",
    "Max rewarded absences": "Only this many excused/club absences score (blank: no limit).",
    "Ties": "Equal scores: rating (each place its own value) or shared (same value).",
    "Iterate": "none (Keizer's original), final (re-price once more), converge (until stable).",
    "Rematch window": "Players who met in the last this-many rounds are not paired again.",
    "Colours": "Colour rule: keizer, count, percentage or geel.",
    "Preset": "keizer (this rule book) or kfc (KeizerForClubs' defaults).",
    "Ratio first to last": "With Top value auto: the first is worth this many times the last.",
    "Loss": "Share of the opponent's value earned by a loss.",
    "Withdrawn": "stay (ranked, not paired) or drop (taken out of the ranking).",
    "Withdrawn opponent": "With drop: share of own value for a game against a dropped player.",
    "Own value": "Own value added to the score: current, initial or none.",
    "Values": "rank (Keizer values) or rating (rating ÷ divisor, the Geel system).",
    "Rating divisor": "With Values rating: value = rating ÷ this.",
    "Rating K-factor": "With Values rating: Elo K-factor moving ratings each round (0: fixed).",
    "Pairing": "top-down (1–2, 3–4, …) or spread (the Geel alternative).",
    "Top-down from round": "With spread: pair top-down from this round on.",
    "First round white": "Who gets white when neither has played: higher or lower ranked.",
    "Max same colour": "Never this many times more the same colour in a row (blank: no limit).",
}

_KEYS = {name.casefold(): name for name in SETTINGS}


def setting_name(raw: object) -> str | None:
    """The canonical setting name for what was typed, or None if it is not a setting."""
    return _KEYS.get(" ".join(text(raw).split()).casefold())


def _did_you_mean(word: str) -> str:
    import difflib

    close = difflib.get_close_matches(word, list(SETTINGS), n=1, cutoff=0.6)
    return f"; did you mean '{close[0]}'?" if close else ""


def parse_settings(
    rows: Iterable[tuple[Hashable, object, object]] | Mapping[str, object],
    table: str = "Settings",
    problems: Problems | None = None,
) -> Settings:
    """Read settings from (row label, name, value) triples or a {name: value} mapping.

    Every problem goes into `problems` (or is raised at the end, all together).
    """
    own = problems is None
    found = problems if problems is not None else Problems()
    triples = ([(name, name, value) for name, value in rows.items()]
               if isinstance(rows, Mapping) else list(rows))
    chosen: dict[str, tuple[Hashable, object]] = {}
    for row, raw_name, value in triples:
        if is_blank(raw_name):
            if not is_blank(value):
                found.add(f"'{text(value)}' has no setting name beside it", table, row, "Setting")
            continue
        name = setting_name(raw_name)
        if name is None:
            found.add(f"'{text(raw_name)}' is not a setting{_did_you_mean(text(raw_name))}",
                      table, row, "Setting")
            continue
        if name in chosen:
            found.add(f"'{name}' is set twice (first in row {chosen[name][0]})", table, row,
                      "Setting")
            continue
        chosen[name] = (row, value)

    preset = "keizer"
    values: dict[str, Any] = {}
    overrides: list[str] = []
    for name, (row, value) in chosen.items():
        if is_blank(value):
            continue
        field_name, parser = SETTINGS[name]
        try:
            parsed = parser(value)
        except WordError as exc:
            found.add(f"{name}: {exc}", table, row, "Value")
            continue
        if isinstance(parsed, tuple) and len(parsed) == 2 and isinstance(parsed[0], str):
            field_name, parsed = parsed
        if name == "Preset":
            preset = parsed
            continue
        values[field_name] = parsed
        overrides.append(f"{name} {text(value)}")
    if own:
        found.raise_if_any()
    base = dict(PRESETS.get(preset, {}))
    if "top_value" in values:
        base.pop("top_value_auto", None)
    if "forfeit_win" in values:
        base.pop("forfeit_win_opponent", None)
    base.update(values)
    base["preset"] = preset
    base["overrides"] = tuple(overrides)
    known = {f.name for f in dataclasses.fields(Settings)}
    return Settings(**{k: v for k, v in base.items() if k in known})
