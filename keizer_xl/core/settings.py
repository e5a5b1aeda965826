"""The club's settings: one typed object with the rule book's defaults, read from words.

A secretary fills a two-column Settings sheet; blank means "the default of the preset".
Unknown names are an error, because a typo must never fall back to a default silently.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from types import MappingProxyType
from typing import Any, NamedTuple

from keizer_xl.core.errors import Problems
from keizer_xl.core.messages import Joined, Name, msg
from keizer_xl.core.model import Absence, Reward
from keizer_xl.core.words import (
    WordError,
    is_blank,
    parse_choice,
    parse_fraction,
    parse_number,
    parse_reward,
    parse_whole,
    short_text,
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
    # a round without a game: a share of own value, or fixed points (`model.Points`)
    bye: Reward = F(2, 3)
    excused: tuple[Reward, ...] = (F(1, 3),)
    club: tuple[Reward, ...] = (F(2, 3),)
    unexcused: Reward = F(0)
    default_absence: Absence = Absence.EXCUSED
    forfeit_win: Fraction = F(2, 3)
    forfeit_win_opponent: bool = False  # `opponent`: the opponent's value, as a won game
    forfeit_loss: Fraction | None = None  # the no-show's share of own value; None: unexcused
    late_entry: str = "bottom"  # bottom | rating
    late_entry_rounds: str = "excused"  # excused | unexcused | nothing
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
    pricing: str = "current"  # current (re-priced every round) | frozen (fixed when scored)
    top_value_rounding: str = "even"  # even | down: how a computed Top value is rounded
    club_name: str | None = None  # shown above published standings; not a rule
    competition_name: str | None = None
    minimum_games: int | None = None  # after the season's last round: fewer games, listed last
    below_minimum: str = "last"  # last (listed after the others) | drop (not listed)
    rounds_in_season: int | None = None  # None: unknown, so never "after the last round"
    club_games: str = "share"  # share | result: a club-duty row may carry its team result
    first_round: str = "top-down"  # top-down | random (drawn, seeded by the competition)
    clear_present: str = "no"  # no | yes: pair empties the Present column after writing
    overrides: tuple[str, ...] = field(default=(), compare=False)  # names the secretary filled

    def describe(self) -> str:
        """One line for the Standings sheet: which preset and which settings were changed."""
        preset = msg("{setting} {value}", setting=Name("Preset", "setting"), value=self.preset)
        if self.overrides:
            return msg(
                "{preset}; changed: {changes}", preset=preset, changes=Joined(", ", self.overrides)
            )
        return preset


def _rewards(value: object) -> tuple[Reward, ...]:
    """One share or fixed points, or a list of them (`1/3, 1/4`; `20 points, 10 points`)."""
    if not isinstance(value, str):
        return (parse_fraction(value),)
    parts: list[str] = value.replace(";", ",").split(",")
    # "0,5" is one Dutch decimal, "1/3, 1/4" a list: a list needs a slash-fraction, or a
    # space after its comma ("1,5 punten" is one number of points, not 1 and 5 points)
    if (
        len(parts) == 2
        and "/" not in value
        and (" " not in value.strip() or parts[1][:1].isdigit())
    ):
        parts = [value]
    out = tuple(parse_reward(p.strip()) for p in parts if not is_blank(p))
    if not out:
        raise WordError(msg("'{value}' is not a fraction", value=text(value)))
    return out


def _top_value(value: object) -> tuple[str, Any]:
    if text(value).lower() == "auto":
        return ("top_value_auto", True)
    number = parse_number(value)
    if number.denominator != 1 or number <= 0:
        raise WordError(msg("'{value}' is not a whole number above 0 (or auto)", value=text(value)))
    return ("top_value", number)


def _positive(value: object) -> Fraction:
    number = parse_number(value)
    if number <= 0:
        raise WordError(msg("'{value}' must be more than 0", value=text(value)))
    return number


def _above_one(value: object) -> Fraction:
    number = parse_number(value)
    if number <= 1:
        raise WordError(msg("'{value}' must be more than 1", value=text(value)))
    return number


def _forfeit(value: object) -> tuple[str, Any]:
    if text(value).lower() == "opponent":
        return ("forfeit_win_opponent", True)
    return ("forfeit_win", parse_fraction(value))


def _forfeit_loss(value: object) -> Fraction | None:
    """`unexcused` (None: the Unexcused absence fraction) or a fraction of own value."""
    if text(value).lower() == "unexcused":
        return None
    return parse_fraction(value)


def _words(value: object) -> str:
    return " ".join(text(value).split())


def _whole_from(low: int) -> Callable[[object], int]:
    return lambda value: parse_whole(value, low)


class SettingSpec(NamedTuple):
    """Everything about one setting, in one place: its name on the sheet, the Settings field
    it fills, how the typed words are read, what blank means, the words a dropdown offers,
    what each preset puts there (as the words a secretary would type) and what it does.

    A parser may return (field, value) to fill another field than `field` (`auto`,
    `opponent`)."""

    name: str
    field: str
    parse: Callable[[object], Any]
    default: str  # what a blank cell means, in the secretary's words
    meaning: str
    choices: tuple[str, ...] | None = None
    presets: Mapping[str, str] = MappingProxyType({})
    rule: bool = True  # False: not a rule of the game (a name), not listed as a changed rule
    range: tuple[int, int] | None = None  # the sensible numbers, both ends included

    def read(self, value: object) -> tuple[str, Any]:
        """(field, value) for what was typed; WordError says what is allowed."""
        parsed = self.parse(value)
        if isinstance(parsed, tuple) and len(parsed) == 2 and isinstance(parsed[0], str):
            field_name, parsed = parsed
        else:
            field_name = self.field
        numbers = parsed if isinstance(parsed, tuple) else (parsed,)
        if self.range is not None and any(
            isinstance(n, (int, Fraction))
            and not isinstance(n, bool)
            and not self.range[0] <= n <= self.range[1]
            for n in numbers
        ):
            low, high = self.range
            raise WordError(
                msg(
                    "'{value}' is outside the sensible range, {low} to {high}",
                    value=short_text(value),
                    low=f"{low:,}",
                    high=f"{high:,}",
                )
            )
        return field_name, parsed


def _choice(
    name: str,
    field_name: str,
    choices: tuple[str, ...],
    default: str,
    meaning: str,
    presets: Mapping[str, str] | None = None,
) -> SettingSpec:
    """A setting whose value is one of a fixed list of words (the template's dropdowns)."""
    return SettingSpec(
        name,
        field_name,
        lambda value: parse_choice(value, choices),
        default,
        meaning,
        choices,
        presets or {},
    )


def _absence(value: object) -> Absence:
    return Absence(parse_choice(value, ("excused", "club", "unexcused")))


# Every setting, in the order of the template's Settings sheet. Presets other than `keizer`
# (the rule book) are written as the words a secretary would type, so they are read by the
# same parsers: `kfc` is KeizerForClubs' defaults.
SPECS: tuple[SettingSpec, ...] = (
    SettingSpec(
        "Top value",
        "top_value",
        _top_value,
        "blank",
        "Value of the number 1. Blank: 1.5 × (players − 1), fixed when round 1 is "
        "paired; auto: recomputed every time from 'Ratio first to last'.",
        presets={"kfc": "auto"},
        range=(1, 10**18),
    ),  # the engine is exact far beyond a club's needs
    SettingSpec(
        "Step", "step", _positive, "1", "How much less each next place is worth.", range=(0, 10_000)
    ),
    _choice(
        "Initial order",
        "initial_order",
        ("rating", "as listed"),
        "rating",
        "Ranking before round 1: rating (highest first) or as listed.",
    ),
    SettingSpec(
        "Bye",
        "bye",
        parse_reward,
        "2/3",
        "Share of own value for the odd player out, or fixed points (40 points).",
        presets={"kfc": "1/2"},
        range=(0, 10),
    ),
    SettingSpec(
        "Excused absence",
        "excused",
        _rewards,
        "1/3",
        "Share of own value (or fixed points) for an excused absence; a list "
        "(1/3, 1/4) gives the n-th absence the n-th share.",
        presets={"kfc": "35%"},
        range=(0, 10),
    ),
    SettingSpec(
        "Club duty",
        "club",
        _rewards,
        "2/3",
        "Share of own value (or fixed points) when playing a team match for the club "
        "(list allowed).",
        presets={"kfc": "70%"},
        range=(0, 10),
    ),
    SettingSpec(
        "Unexcused absence",
        "unexcused",
        parse_reward,
        "0",
        "Share of own value (or fixed points) for an unexcused absence.",
        presets={"kfc": "35%"},
        range=(0, 10),
    ),
    SettingSpec(
        "Default absence",
        "default_absence",
        _absence,
        "excused",
        "Reason used when the Present cell is blank: excused, club or unexcused.",
        ("excused", "club", "unexcused"),
    ),
    SettingSpec(
        "Forfeit win",
        "forfeit_win",
        _forfeit,
        "2/3",
        "Share of own value when the opponent did not turn up; 'opponent' counts it "
        "as a win over the board.",
        presets={"kfc": "opponent"},
        range=(0, 10),
    ),
    SettingSpec(
        "Forfeit loss",
        "forfeit_loss",
        _forfeit_loss,
        "unexcused",
        "What the player who did not turn up earns: unexcused (the Unexcused absence "
        "share of own value) or a share of own value; -- gives both this.",
        presets={"kfc": "0"},
        range=(0, 10),
    ),
    # KeizerForClubs ranks a late starter from round 1 on (by rating, then by score; the
    # Top value counts him) and gives his rounds before he starts the unexcused share.
    _choice(
        "Late entry",
        "late_entry",
        ("bottom", "rating"),
        "bottom",
        "Where a late entrant starts: bottom of the ranking, or by rating.",
        {"kfc": "rating"},
    ),
    _choice(
        "Late entry rounds",
        "late_entry_rounds",
        ("excused", "unexcused", "nothing"),
        "excused",
        "Rounds before a late entrant joined: excused, unexcused or nothing.",
        {"kfc": "unexcused"},
    ),
    SettingSpec(
        "Max rewarded absences",
        "max_rewarded_absences",
        _whole_from(0),
        "blank",
        "Only this many excused/club absences score (blank: no limit).",
        range=(0, 1_000),
    ),
    _choice(
        "Ties",
        "ties",
        ("rating", "shared"),
        "rating",
        "Equal scores: rating (each place its own value) or shared (same value).",
        {"kfc": "rating"},
    ),
    _choice(
        "Iterate",
        "iterate",
        ("none", "final", "converge"),
        "none",
        "none (Keizer's original), final (re-price once more), converge (until stable).",
    ),
    SettingSpec(
        "Rematch window",
        "rematch_window",
        _whole_from(0),
        "3",
        "Players who met in the last this-many rounds are not paired again.",
        range=(0, 1_000),
    ),
    _choice(
        "Colours",
        "colours",
        ("keizer", "count", "percentage", "geel"),
        "keizer",
        "Colour rule: keizer, count, percentage or geel.",
    ),
    _choice(
        "Preset",
        "preset",
        ("keizer", "kfc"),
        "keizer",
        "keizer (this rule book) or kfc (KeizerForClubs' defaults).",
    ),
    SettingSpec(
        "Ratio first to last",
        "ratio",
        _above_one,
        "3",
        "With Top value auto: the first is worth this many times the last.",
        presets={"kfc": "3"},
        range=(1, 1_000),
    ),
    SettingSpec(
        "Loss",
        "loss",
        parse_fraction,
        "0",
        "Share of the opponent's value earned by a loss.",
        presets={"kfc": "0"},
        range=(0, 10),
    ),
    _choice(
        "Withdrawn",
        "withdrawn",
        ("stay", "drop"),
        "stay",
        "stay (ranked, not paired) or drop (taken out of the ranking).",
        {"kfc": "drop"},
    ),
    SettingSpec(
        "Withdrawn opponent",
        "withdrawn_opponent",
        parse_fraction,
        "3/4",
        "With drop: share of own value for a game against a dropped player.",
        presets={"kfc": "3/4"},
        range=(0, 10),
    ),
    _choice(
        "Own value",
        "own_value",
        ("current", "initial", "none"),
        "current",
        "Own value added to the score: current, initial or none.",
    ),
    _choice(
        "Values",
        "values",
        ("rank", "rating"),
        "rank",
        "rank (Keizer values) or rating (rating ÷ divisor, the Geel system).",
    ),
    SettingSpec(
        "Rating divisor",
        "rating_divisor",
        _positive,
        "100",
        "With Values rating: value = rating ÷ this.",
        range=(0, 1_000_000),
    ),
    SettingSpec(
        "Rating K-factor",
        "rating_k",
        parse_fraction,
        "0",
        "With Values rating: Elo K-factor moving ratings each round (0: fixed).",
        range=(0, 1_000),
    ),
    _choice(
        "Pairing",
        "pairing",
        ("top-down", "spread"),
        "top-down",
        "top-down (1–2, 3–4, …) or spread (the Geel alternative).",
    ),
    SettingSpec(
        "Top-down from round",
        "top_down_from",
        _whole_from(1),
        "blank",
        "With spread: pair top-down from this round on.",
        range=(1, 1_000),
    ),
    _choice(
        "First round white",
        "first_round_white",
        ("higher", "lower"),
        "higher",
        "Who gets white when neither has played: higher or lower ranked.",
    ),
    SettingSpec(
        "Max same colour",
        "max_same_colour",
        _whole_from(1),
        "blank",
        "Never this many times more the same colour in a row (blank: no limit).",
        range=(1, 1_000),
    ),
    _choice(
        "Pricing",
        "pricing",
        ("current", "frozen"),
        "current",
        "current (every round re-priced with today's values) or frozen (each round's "
        "points fixed when it is scored).",
    ),
    _choice(
        "Top value rounding",
        "top_value_rounding",
        ("even", "down"),
        "even",
        "How a computed Top value is rounded: even (halves to even) or down.",
    ),
    SettingSpec(
        "Minimum games",
        "minimum_games",
        _whole_from(0),
        "blank",
        "After the season's last round, players with fewer games are listed after "
        "the others (blank: no minimum).",
        range=(0, 1_000),
    ),
    _choice(
        "Below minimum",
        "below_minimum",
        ("last", "drop"),
        "last",
        "With Minimum games: a player below it is listed last, or drop: not listed in "
        "the final standings.",
    ),
    SettingSpec(
        "Rounds in season",
        "rounds_in_season",
        _whole_from(1),
        "blank",
        "How many rounds the season has, for Minimum games (blank: unknown).",
        range=(1, 1_000),
    ),
    _choice(
        "Club games",
        "club_games",
        ("share", "result"),
        "share",
        "share (club duty earns the Club duty share) or result (a club-duty row may "
        "carry the team-match result, club 1-0, counted as a game at own value).",
    ),
    _choice(
        "First round",
        "first_round",
        ("top-down", "random"),
        "top-down",
        "top-down (round 1 paired by rating) or random (drawn, the same draw for the "
        "same competition name).",
    ),
    _choice(
        "Clear present",
        "clear_present",
        ("no", "yes"),
        "no",
        "yes: after pairing a round, the Present column is emptied for next week.",
    ),
    SettingSpec(
        "Club name",
        "club_name",
        _words,
        "blank",
        "The club's name, above the published standings (blank: none).",
        rule=False,
    ),
    SettingSpec(
        "Competition name",
        "competition_name",
        _words,
        "blank",
        "The competition's name, e.g. Keizer 2025-26 (blank: none).",
        rule=False,
    ),
)

SETTINGS: dict[str, SettingSpec] = {spec.name: spec for spec in SPECS}


def preset_values(preset: str) -> dict[str, Any]:
    """The Settings fields a preset fills, read from its words by the settings' own parsers."""
    values: dict[str, Any] = {}
    for spec in SPECS:
        if preset in spec.presets:
            field_name, value = spec.read(spec.presets[preset])
            values[field_name] = value
    return values


_KEYS = {name.casefold(): name for name in SETTINGS}


def setting_name(raw: object) -> str | None:
    """The canonical setting name for what was typed, or None if it is not a setting."""
    return _KEYS.get(" ".join(text(raw).split()).casefold())


def not_a_setting(raw: object) -> str:
    """What is said of a name that is no setting, with the nearest setting's name when one
    is close (a typo must never fall back to a default silently)."""
    return msg(
        "'{name}' is not a setting{suggestion}", name=text(raw), suggestion=_did_you_mean(text(raw))
    )


def _did_you_mean(word: str) -> str:
    import difflib

    close = difflib.get_close_matches(word, list(SETTINGS), n=1, cutoff=0.6)
    return msg("; did you mean '{name}'?", name=Name(close[0], "setting")) if close else ""


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
    triples = (
        [(name, name, value) for name, value in rows.items()]
        if isinstance(rows, Mapping)
        else list(rows)
    )
    chosen: dict[str, tuple[Hashable, object]] = {}
    for row, raw_name, value in triples:
        if is_blank(raw_name):
            if not is_blank(value):
                found.add(
                    msg("'{value}' has no setting name beside it", value=text(value)),
                    table,
                    row,
                    "Setting",
                )
            continue
        name = setting_name(raw_name)
        if name is None:
            found.add(not_a_setting(raw_name), table, row, "Setting")
            continue
        if name in chosen:
            found.add(
                msg(
                    "'{name}' is set twice (first in row {row})",
                    name=Name(name, "setting"),
                    row=chosen[name][0],
                ),
                table,
                row,
                "Setting",
            )
            continue
        chosen[name] = (row, value)

    preset = "keizer"
    values: dict[str, Any] = {}
    typed: list[tuple[str, Hashable, object, str, Any]] = []
    for name, (row, value) in chosen.items():
        if is_blank(value):
            continue
        try:
            field_name, parsed = SETTINGS[name].read(value)
        except WordError as exc:
            found.add(
                msg("{setting}: {problem}", setting=Name(name, "setting"), problem=exc.message),
                table,
                row,
                "Value",
            )
            continue
        if name == "Preset":
            preset = parsed
            if preset == "keizer":
                found.caution(
                    msg(
                        "{setting} keizer is the default anyway (blank means the same)",
                        setting=Name("Preset", "setting"),
                    ),
                    table,
                    row,
                    "Value",
                )
            continue
        values[field_name] = parsed
        if SETTINGS[name].rule:
            typed.append((name, row, value, field_name, parsed))
    _refuse_iterating_frozen(values, chosen, table, found)
    if own:
        found.raise_if_any()
    overrides: list[str] = []
    chosen_settings = _settings(preset, values)
    for name, row, value, field_name, _ in typed:
        without = {k: v for k, v in values.items() if k != field_name}
        if _settings(preset, without) == chosen_settings:
            # not a change: said once as a caution, and left out of the note's changes
            setting = msg("{setting} {value}", setting=Name(name, "setting"), value=text(value))
            found.caution(
                msg("{setting} is the default anyway (blank means the same)", setting=setting)
                if preset == "keizer"
                else msg(
                    "{setting} is the default anyway (blank means the same with {preset})",
                    setting=setting,
                    preset=msg(
                        "{setting} {value}", setting=Name("Preset", "setting"), value=preset
                    ),
                ),
                table,
                row,
                "Value",
            )
        else:
            overrides.append(
                msg("{setting} {value}", setting=Name(name, "setting"), value=text(value))
            )

    return dataclasses.replace(chosen_settings, overrides=tuple(overrides))


def _refuse_iterating_frozen(
    values: Mapping[str, Any],
    chosen: Mapping[str, tuple[Hashable, object]],
    table: str,
    found: Problems,
) -> None:
    """Iterate re-prices every round once more, which Pricing frozen rules out: a club
    must choose one rather than get a silent half of either."""
    if values.get("pricing") == "frozen" and values.get("iterate", "none") != "none":
        row = chosen["Iterate"][0]
        found.add(
            msg(
                "{setting} {value} cannot go with {pricing} frozen: frozen points are "
                "never re-priced",
                setting=Name("Iterate", "setting"),
                value=values["iterate"],
                pricing=Name("Pricing", "setting"),
            ),
            table,
            row,
            "Value",
        )


def _settings(preset: str, values: Mapping[str, Any]) -> Settings:
    """The preset's settings with what the secretary filled in on top."""
    base = preset_values(preset)
    if "top_value" in values:
        base.pop("top_value_auto", None)
    if "forfeit_win" in values:
        base.pop("forfeit_win_opponent", None)
    base.update(values)
    base["preset"] = preset
    known = {f.name for f in dataclasses.fields(Settings)}
    return Settings(**{k: v for k, v in base.items() if k in known})
