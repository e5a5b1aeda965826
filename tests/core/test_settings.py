"""Settings: one spec row per setting, presets written as the words a secretary types."""

from __future__ import annotations

import dataclasses
from fractions import Fraction as F

import pytest

from keizer_xl.core.errors import KeizerError
from keizer_xl.core.settings import SETTINGS, SPECS, Settings, parse_settings, preset_values

FIELDS = {f.name for f in dataclasses.fields(Settings)}


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.name)
def test_every_spec_fills_a_settings_field(spec: object) -> None:
    assert spec.field in FIELDS  # type: ignore[attr-defined]


@pytest.mark.parametrize("spec", [s for s in SPECS if s.default != "blank"], ids=lambda s: s.name)
def test_the_default_shown_is_the_default_used(spec: object) -> None:
    """The words the sheet shows as the default read back as the dataclass default."""
    field, value = spec.read(spec.default)  # type: ignore[attr-defined]
    default = getattr(Settings(), field)
    if field == "preset":
        assert value == default
    else:
        assert value == default, f"{spec.name}: '{spec.default}' reads as {value!r}"  # type: ignore[attr-defined]


@pytest.mark.parametrize("spec", [s for s in SPECS if s.default == "blank"], ids=lambda s: s.name)
def test_blank_defaults_are_none(spec: object) -> None:
    assert getattr(Settings(), spec.field) is None  # type: ignore[attr-defined]


def test_kfc_preset_is_keizerforclubs_defaults() -> None:
    """The rule book §6: top value auto with ratio 3, bye 1/2, excused 35 %, club 70 %,
    unexcused 35 %, loss 0, forfeit win opponent, withdrawn drop with 3/4, ties by rating."""
    s = parse_settings({"Preset": "kfc"})
    assert s.top_value_auto and s.ratio == 3
    assert (s.bye, s.excused, s.club, s.unexcused) == (
        F(1, 2),
        (F(35, 100),),
        (F(70, 100),),
        F(35, 100),
    )
    assert s.loss == 0 and s.forfeit_win_opponent
    assert (s.withdrawn, s.withdrawn_opponent, s.ties) == ("drop", F(3, 4), "rating")
    assert s.preset == "kfc" and s.overrides == ()


def test_a_filled_setting_overrides_the_preset() -> None:
    s = parse_settings({"Preset": "kfc", "Top value": 40, "Forfeit win": "2/3"})
    assert (s.top_value, s.top_value_auto) == (40, False)
    assert (s.forfeit_win, s.forfeit_win_opponent) == (F(2, 3), False)
    assert s.overrides == ("Top value 40", "Forfeit win 2/3")


def test_keizer_preset_fills_nothing() -> None:
    assert preset_values("keizer") == {}
    assert parse_settings({"Preset": "keizer"}) == Settings()


def test_preset_words_are_valid_for_their_setting() -> None:
    for spec in SPECS:
        for word in spec.presets.values():
            spec.read(word)  # raises WordError if a preset were written wrongly


def test_names_are_found_forgivingly_and_typos_are_errors() -> None:
    assert parse_settings({"  top   VALUE ": 30}).top_value == 30
    with pytest.raises(KeizerError) as info:
        parse_settings({"Top valeu": 30})
    assert "did you mean 'Top value'" in str(info.value)


def test_decimals_of_three_places_snap_to_simple_fractions() -> None:
    """README rule: 0.667 is read as 2/3, 66.7% too."""
    assert parse_settings({"Bye": "0.667"}).bye == F(2, 3)
    assert parse_settings({"Bye": "66.7%"}).bye == F(2, 3)
    assert parse_settings({"Bye": 0.5}).bye == F(1, 2)


def test_settings_names_are_unique() -> None:
    assert len(SETTINGS) == len(SPECS)
