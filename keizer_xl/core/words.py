"""The words and numbers a secretary types, turned into domain values.

Every parser returns the value or raises `WordError` with a message that quotes the input
and says what is allowed; callers add the place (sheet and cell).
"""

from __future__ import annotations

import datetime as dt
import math
import re
import unicodedata
from fractions import Fraction
from typing import TypeVar

from keizer_xl.core.errors import KeizerXLError
from keizer_xl.core.messages import msg
from keizer_xl.core.model import Absence, Points, Result, Reward
from keizer_xl.core.results import RESTS, RESULTS


class WordError(KeizerXLError, ValueError):
    """A typed value that does not fit; the message quotes it and names what would."""


class CellError(str):
    """A cell holding one of the spreadsheet's error values (`#N/A`, `#DIV/0!`, `#VALUE!`,
    ...) or a number that is none (NaN): never a value, and never a blank either; the
    checks name its cell. Reads as the error, as the sheet shows it."""


# The error values a spreadsheet shows in a cell whose formula failed.
ERROR_VALUES = frozenset(
    {
        "#NULL!",
        "#DIV/0!",
        "#VALUE!",
        "#REF!",
        "#NAME?",
        "#NUM!",
        "#N/A",
        "#GETTING_DATA",
        "#SPILL!",
        "#CALC!",
        "#FIELD!",
        "#BLOCKED!",
        "#CONNECT!",
        "#BUSY!",
        "#UNKNOWN!",
        "#PYTHON!",
        "#DATA!",
    }
)


# The sensible ranges, the same for every door a value comes in by (the Players, Rounds
# and Settings sheets, a member list, a rating list, a TRF or KeizerForClubs file): rounds,
# boards and ratings past these are typing mistakes, and their arithmetic (values of a
# million-digit rating) would never end.
MAX_ROUND = 1_000
MAX_BOARD = 10_000
MAX_RATING = 10_000
MAX_TEXT = 32_767  # characters in one cell, Excel's limit: a longer name cannot be written
# characters of a player's name or group: keizer_xl writes them into every sheet it owns
# and its warnings, so 20,000 names as long as a cell allows would be gigabytes of copies
MAX_NAME = 200


RESULT_HELP = msg("use 1-0, 0-1, ½-½, +-, -+ or --")
REST_HELP = msg("bye, excused, club or unexcused")
PRESENT_HELP = msg(
    "x, yes, y, 1, ja or ✓ for present; excused, club or unexcused; blank, 0, "
    "n, no or nee for absent"
)

N = TypeVar("N", int, Fraction)

# Every word a secretary may type for a result or a rest, by what it means: the words of
# the one table of results (`results`), which the docs' word tables list exactly.
RESULT_WORDS: dict[Result, tuple[str, ...]] = {r: line.words for r, line in RESULTS.items()}
ABSENCE_WORDS: dict[Absence, tuple[str, ...]] = {a: line.words for a, line in RESTS.items()}
PRESENT_WORDS: tuple[str, ...] = (
    "x",
    "yes",
    "y",
    "1",
    "ja",
    "j",
    "✓",
    "✔",
    "true",
    "present",
    "aanwezig",
    "anwesend",
    "sì",
    "si",
    "presente",
)
NOT_PRESENT_WORDS: tuple[str, ...] = ("0", "n", "no", "nee", "false", "nein")

_DASHES = str.maketrans({"–": "-", "—": "-", "−": "-", "‐": "-", "‑": "-"})


def _key(word: str) -> str:
    """What a typed word is looked up by: NFC, lower case, one kind of dash, no spaces."""
    return "".join(unicodedata.normalize("NFC", word).lower().translate(_DASHES).split())


_RESULTS: dict[str, Result] = {_key(w): r for r, words in RESULT_WORDS.items() for w in words}
_RESTS: dict[str, Absence] = {_key(w): a for a, words in ABSENCE_WORDS.items() for w in words}
_EXACT: dict[str, Result | Absence] = {
    **{r.value: r for r in Result},
    **{a.value: a for a in Absence},
}
# A club duty row with the player's result in the team match: any word for club duty, then
# a result played over the board, in the player's view (`club 1-0`, `extern ½-½`).
_TEAM: dict[str, Result] = {
    _key(club) + _key(w): r
    for club in ABSENCE_WORDS[Absence.CLUB]
    for r in (Result.WHITE_WINS, Result.DRAW, Result.BLACK_WINS)
    for w in RESULT_WORDS[r]
}
_PRESENT = {_key(w) for w in PRESENT_WORDS}
_NOT_PRESENT = {_key(w) for w in NOT_PRESENT_WORDS}


def text(value: object) -> str:
    """A cell value as the text the secretary sees (numbers without a trailing .0)."""
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value).strip()


def short_text(value: object) -> str:
    """The typed value for a message; a huge number as Excel shows it (1e+308), not in
    full, and a long text cut short."""
    if isinstance(value, float) and abs(value) >= 1e15:
        return f"{value:.6g}"
    shown = text(value)
    shown = shown if len(shown) <= 40 else shown[:37] + "..."
    return "".join(_visible(ch) for ch in shown)


_UNSEEN = frozenset(("Cc", "Cf", "Co", "Cn", "Zl", "Zp", "Zs"))  # controls, format, spaces


def _visible(ch: str) -> str:
    """A character one cannot see (a zero-width space, a no-break space, a control) as its
    code, `\\u200b`: `'1-0\\u200b' is not a result` shows why `1-0` was refused."""
    if ch == " " or unicodedata.category(ch) not in _UNSEEN:
        return ch
    return f"\\u{ord(ch):04x}" if ord(ch) <= 0xFFFF else f"\\U{ord(ch):08x}"


def shortened(words: str, most: int) -> str:
    """`words` if it has at most `most` characters, else its start and an ellipsis, `most`
    characters in all: a 10,000-character name where a page or a PDF cell holds one line."""
    return words if len(words) <= most else words[: most - 1].rstrip() + "…"


def at_most(number: N, high: int, value: object) -> N:
    """The number, if it is at most `high`; WordError naming the sensible range if not."""
    if number > high:
        raise WordError(
            msg(
                "'{value}' is more than {high}, outside the sensible range",
                value=short_text(value),
                high=f"{high:,}",
            )
        )
    return number


def is_blank(value: object) -> bool:
    if value is None or value == "":
        return True
    if isinstance(value, float):
        return math.isnan(value)
    return isinstance(value, str) and not value.strip()


def _date_pair(value: object) -> tuple[int, int] | None:
    """Day and month of a value Excel turned into a date (as `1/2` becomes 1 February)."""
    if isinstance(value, dt.datetime | dt.date):
        return (value.day, value.month)
    return None


def _clock(value: object) -> Result | None:
    """1-0 or 0-1 from a time Excel made of `1:0` (1 o'clock) or `0:1` (one minute past)."""
    if isinstance(value, dt.timedelta):
        minutes = value.total_seconds() / 60
    elif isinstance(value, dt.time):
        minutes = value.hour * 60 + value.minute + value.second / 60
    else:
        return None
    if minutes == 60:
        return Result.WHITE_WINS
    if minutes == 1:
        return Result.BLACK_WINS
    raise WordError(
        msg(
            "Excel turned this into a time ({time}); format the Result column as text and {help}",
            time=text(value),
            help=RESULT_HELP,
        )
    )


def parse_result(value: object) -> Result | Absence | None:
    """A Result cell: a game result, a bye/absence word, or None when blank (not played yet)."""
    if type(value) is str and value in _EXACT:  # the words as the template offers them
        return _EXACT[value]
    if is_blank(value):
        return None
    pair = _date_pair(value)
    if pair is not None:
        if sorted(pair) == [1, 2]:  # Excel read "1/2" as a date: 1 Feb or 2 Jan
            return Result.DRAW
        raise WordError(
            msg(
                "Excel turned this into a date ({date}); format the Result column "
                "as text and {help}",
                date=f"{value:%d-%m}",
                help=RESULT_HELP,
            )
        )
    clock = _clock(value)
    if clock is not None:  # Excel read "1:0" or "0:1" as a time of day
        return clock
    key = _key(text(value))
    found = _RESULTS.get(key) or _RESTS.get(key)
    if found is not None:
        return found
    raise WordError(
        msg(
            "'{value}' is not a result; {help} (or {rests})",
            value=short_text(value),
            help=RESULT_HELP,
            rests=REST_HELP,
        )
    )


def parse_team(value: object) -> Result | None:
    """A club duty Result cell that carries the team-match result (`club 1-0`, `club ½-½`,
    `club 0-1`: the player's own result, as if playing white), or None if it carries none."""
    if type(value) is not str:
        return None
    return _TEAM.get(_key(value))


PRESENT = "present"
DEFAULT_ABSENCE = "default"


def parse_presence(value: object) -> Absence | str:
    """A Present cell: `PRESENT`, a reason of absence, or `DEFAULT_ABSENCE` when blank or
    a plain "no"."""
    if is_blank(value):
        return DEFAULT_ABSENCE
    word = _key(text(value))
    if word in _PRESENT:
        return PRESENT
    if word in _NOT_PRESENT:
        return DEFAULT_ABSENCE
    rest = _RESTS.get(word)
    if rest is not None and rest is not Absence.BYE:
        return rest
    raise WordError(
        msg(
            "'{value}' is not an attendance; use {help}", value=short_text(value), help=PRESENT_HELP
        )
    )


def _snap(x: Fraction, decimals: int) -> Fraction:
    """The fraction with denominator up to 100 that rounds to x at this many decimals, if any."""
    half_width = Fraction(1, 2 * 10**decimals)
    for q in range(1, 101):
        p = round(x * q)
        if abs(Fraction(p, q) - x) <= half_width:
            return Fraction(p, q)
    return x


_HUGE_EXPONENT = re.compile(r"e[+-]?0*[0-9]{4,}", re.IGNORECASE)


def parse_number(value: object) -> Fraction:
    """A number typed as `2/3`, `0.667`, `66.7%`, `0,5`, `1½` or stored as a number.

    Decimals with three or more places are read as the simple fraction (denominator up to
    100) they round from: 0.667 and 66.7% are 2/3, 0.333 is 1/3, since a secretary typing
    0.667 means two thirds. Decimals with fewer places are exact (0.35 is 7/20).
    """
    if isinstance(value, bool):
        raise WordError(msg("'{value}' is not a number", value=value))
    if isinstance(value, int):
        return Fraction(value)
    if type(value) is float and value.is_integer() and abs(value) < 2**53:
        return Fraction(int(value))  # the usual number cell, read quickly (exact below 2**53)
    pair = _date_pair(value)
    if pair is not None:  # "2/3" became 2 March or 3 February: either way two thirds
        lo, hi = sorted(pair)
        return Fraction(lo, hi)
    if isinstance(value, float):
        if math.isnan(value) or math.isinf(value):
            raise WordError(msg("'{value}' is not a number", value=value))
        word = repr(value)
    else:
        word = text(value).replace(" ", "").replace(",", ".")
        if word.endswith("½"):
            word = word[:-1] + (".5" if word[:-1] else "0.5")
    percent = word.endswith("%")
    if percent:
        word = word[:-1]
    if _HUGE_EXPONENT.search(word):  # 1e-10000000: no club's number, and seconds to make
        raise WordError(msg("'{value}' is not a number", value=short_text(value)))
    try:
        if "/" in word:
            num, den = word.split("/", 1)
            return Fraction(Fraction(num), Fraction(den)) / (100 if percent else 1)
        number = Fraction(word) / (100 if percent else 1)
    except (ValueError, ZeroDivisionError):
        raise WordError(msg("'{value}' is not a number", value=short_text(value))) from None
    mantissa = word.lower().split("e", 1)[0]
    decimals = len(mantissa.split(".", 1)[1]) if "." in mantissa else 0
    decimals += 2 if percent else 0
    if decimals >= 3 and "e" not in word.lower():
        number = _snap(number, min(decimals, 12))
    return number


UNRATED_WORDS: tuple[str, ...] = (
    "-",
    "--",
    "---",
    "n/a",
    "na",
    "nvt",
    "n.v.t.",
    "geen",
    "none",
    "unrated",
    "?",
    "keine",
    "nc",
)
# ratings typed as text (rare: a sheet's ratings are numbers), compiled when first met
_THOUSANDS = r"\d{1,3}(?:([.,\u00a0' ])\d{3})(?:\1\d{3})*"
_WHOLE_DECIMAL = r"(\d+)[.,]0+"


def parse_rating(value: object) -> Fraction:
    """A rating as a secretary means it: `1650`, `1.650` and `1,650` (a thousands
    separator, as Dutch and English lists write it: never 1.65), `1650.0`; blank and the
    words for unrated (`-`, `n/a`, `nvt`, ...) are 0. Other numbers as `parse_number`."""
    if type(value) is int and value >= 0:  # the usual cell, read quickly
        return Fraction(value)
    if is_blank(value):
        return Fraction(0)
    if isinstance(value, str):
        word = value.strip()
        if word.casefold() in UNRATED_WORDS:
            return Fraction(0)
        if re.fullmatch(_THOUSANDS, word):
            return Fraction(int("".join(ch for ch in word if ch.isdigit())))
        whole = re.fullmatch(_WHOLE_DECIMAL, word)
        if whole:
            return Fraction(int(whole.group(1)))
    rating = parse_number(value)
    if rating < 0:
        raise WordError(
            msg("'{value}' is negative; a rating is 0 or more", value=short_text(value))
        )
    return rating


def checked_rating(value: object) -> Fraction:
    """A player's rating as every door reads it (the Players sheet, a member list, a
    rating list, a KeizerForClubs file): `parse_rating`, at most `MAX_RATING`."""
    if type(value) is int and 0 <= value <= MAX_RATING:  # the usual cell, read quickly
        return Fraction(value)
    return at_most(parse_rating(value), MAX_RATING, value)


def parse_fraction(value: object) -> Fraction:
    """A share of a value: a number from 0 up (`2/3`, `0.667`, `66.7%`)."""
    number = parse_number(value)
    if number < 0:
        raise WordError(
            msg("'{value}' is negative; a fraction must be 0 or more", value=short_text(value))
        )
    return number


def parse_whole(value: object, minimum: int = 0) -> int:
    """A whole number such as a round number (`3`, `3.0`, `"3"`)."""
    if type(value) is float and value.is_integer() and value >= minimum:
        return int(value)  # the usual case, a number cell: no need for fractions
    if type(value) is int and value >= minimum:
        return value
    try:
        number = parse_number(value)
    except WordError:
        raise WordError(msg("'{value}' is not a whole number", value=short_text(value))) from None
    if number.denominator != 1:
        raise WordError(msg("'{value}' is not a whole number", value=short_text(value)))
    if number < minimum:
        raise WordError(
            msg("'{value}' must be {minimum} or more", value=short_text(value), minimum=minimum)
        )
    return int(number)


def not_a_date(value: object) -> None:
    """Refuse a date or a time where a number is meant (a Rating, Joined or Left cell
    formatted as a date, or a number Excel turned into one): said as the cell shows it,
    never read as a number, as a setting's `2/3` turned into a date is."""
    if isinstance(value, dt.datetime):
        shown = f"{value:%Y-%m-%d}" if value.time() == dt.time() else f"{value:%Y-%m-%d %H:%M}"
    elif isinstance(value, dt.date):
        shown = f"{value:%Y-%m-%d}"
    elif isinstance(value, dt.time):
        shown = f"{value:%H:%M}"
    elif isinstance(value, dt.timedelta):
        shown = str(value)
    else:
        return
    raise WordError(
        msg(
            "'{value}' is a date or a time, not a number; format the cell as a "
            "number and type it again",
            value=shown,
        )
    )


def parse_round(value: object) -> int:
    """A round number (Round, Joined, Left, a round in a file): 1 up to `MAX_ROUND`."""
    return at_most(parse_whole(value, 1), MAX_ROUND, value)


def parse_board(value: object) -> int:
    """A board number: 1 up to `MAX_BOARD`."""
    return at_most(parse_whole(value, 1), MAX_BOARD, value)


def parse_choice(value: object, choices: tuple[str, ...]) -> str:
    """One of a fixed list of words (case and spaces ignored)."""
    word = " ".join(text(value).lower().replace("_", " ").split())
    for choice in choices:
        if word == choice or word == choice.replace("-", " "):
            return choice
    raise WordError(
        msg(
            "'{value}' is not allowed; use {choices}",
            value=short_text(value),
            choices=", ".join(choices),
        )
    )


# The word for points in each workbook language, plural and singular: `40 punten` is read
# in an English workbook too, since a club copies its rules from wherever it finds them.
POINTS_WORDS: tuple[str, ...] = (
    "points",
    "point",
    "punten",
    "punt",
    "punkte",
    "punkt",
    "punti",
    "punto",
)
_POINTS = re.compile(r"(.*?)\s*(" + "|".join(POINTS_WORDS) + r")\.?", re.IGNORECASE)
MOST_POINTS = 10**18  # as the largest Top value: the engine stays exact far beyond it


def parse_points(value: object) -> Points | None:
    """Fixed points (`40 points`, `40 punten`, `40 Punkte`, `40 punti`): a whole number
    from 0 with the word for points; None when no such word is there."""
    found = _POINTS.fullmatch(text(value)) if isinstance(value, str) else None
    if found is None:
        return None
    try:
        number = parse_number(found.group(1))
    except WordError:
        number = None
    if number is None or number.denominator != 1 or number < 0:
        raise WordError(
            msg("'{value}' is not a whole number of points (such as 40 points)", value=text(value))
        )
    if number > MOST_POINTS:
        raise WordError(
            msg(
                "'{value}' is outside the sensible range, {low} to {high}",
                value=text(value),
                low="0",
                high=f"{MOST_POINTS:,}",
            )
        )
    return Points(int(number))


def parse_reward(value: object) -> Reward:
    """What a round without a game earns: a share of own value (`2/3`, `66.7%`) or fixed
    points (`40 points`)."""
    points = parse_points(value)
    return parse_fraction(value) if points is None else points
