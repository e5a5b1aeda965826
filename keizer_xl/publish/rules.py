"""The rules in force, as a list a member can read under the standings."""

from __future__ import annotations

from fractions import Fraction

from keizer_xl.core.model import Points
from keizer_xl.core.scoring import Standings
from keizer_xl.core.settings import SETTINGS, SPECS, Settings
from keizer_xl.i18n import say, translate
from keizer_xl.i18n.names import local_setting
from keizer_xl.i18n.numbers import number

# Shown whatever they are set to; the other rules only when the club typed a value.
_ALWAYS = (
    "Preset",
    "Top value",
    "Step",
    "Bye",
    "Excused absence",
    "Club duty",
    "Unexcused absence",
    "Default absence",
    "Forfeit win",
    "Rematch window",
    "Colours",
)


def _word(value: object, language: str) -> str:
    if value is None:
        return translate("no limit", language)
    if isinstance(value, bool):
        return translate("yes", language) if value else translate("no", language)
    if isinstance(value, Fraction):
        return str(value)  # 2/3, as the secretary types it
    if isinstance(value, Points):
        return say(value.said(), language)
    if isinstance(value, tuple):
        return ", ".join(_word(v, language) for v in value)
    return str(getattr(value, "value", value))


def setting_value(name: str, settings: Settings, standings: Standings, language: str = "en") -> str:
    """The value a setting has in this calculation, in the words of the Settings sheet."""
    if name == "Preset":
        return settings.preset
    if name == "Top value":
        if settings.values == "rating":
            return translate("not used (values from ratings)", language)
        if settings.top_value_auto:  # the value in force, as the pages write numbers
            return f"auto ({number(standings.top_value, language)})"
        return number(standings.top_value, language)
    if name == "Forfeit win" and settings.forfeit_win_opponent:
        return "opponent"
    return _word(getattr(settings, SETTINGS[name].field), language)


def settings_in_force(standings: Standings, language: str = "en") -> list[tuple[str, str, str]]:
    """(setting, value, what it does): the main rules, and every one the club changed, with
    the names and explanations of a Settings sheet in `language`."""
    s = standings.settings
    rows = []
    for spec in SPECS:
        if not spec.rule:
            continue
        typed = any(o.startswith(spec.name + " ") for o in s.overrides)
        if spec.name in _ALWAYS or typed:
            rows.append(
                (
                    local_setting(spec.name, language),
                    setting_value(spec.name, s, standings, language),
                    translate(spec.meaning, language),
                )
            )
    return rows
