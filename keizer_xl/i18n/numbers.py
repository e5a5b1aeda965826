"""Numbers as a club page shows them: exact ones whole, the others to two decimals, with
the decimal mark of the page's language (320.83 in English, 320,83 in Dutch, German and
Italian: each language's record says which)."""

from __future__ import annotations

from fractions import Fraction

from keizer_xl.i18n import record_of


def number(x: Fraction | int | None, language: str = "en") -> str:
    """19, 10.67, ½ for a half on its own; "" for None."""
    if x is None:
        return ""
    if type(x) is int:
        return str(x)
    if type(x) is not Fraction:  # a Fraction as it is: a site shows tens of thousands
        x = Fraction(x)
    if x.denominator == 1:
        return str(x.numerator)
    if x.denominator == 2 and abs(x) < 1:
        return "-½" if x < 0 else "½"
    return _decimals(x, language)


def decimal(x: Fraction | None, language: str = "en") -> str:
    """19, 66.5, 10.67 (0.5 too, no half sign): a figure of the Standings sheet as the
    terminal's table shows it, with the language's decimal mark; "" for None."""
    if x is None:
        return ""
    return str(x.numerator) if x.denominator == 1 else _decimals(x, language)


def _decimals(x: Fraction, language: str) -> str:
    """Two decimals at most, no trailing zeros: 66.5, 10.67 (as the Standings sheet)."""
    text = f"{float(x):.2f}".rstrip("0").rstrip(".")
    return text.replace(".", record_of(language).decimal_mark)


def points(x: Fraction, language: str = "en") -> str:
    """Game points with a half sign: 3½, ½, 4."""
    whole, half = divmod(x, 1)
    if half == 0:
        return str(int(whole))
    if half == Fraction(1, 2):
        return f"{int(whole) if whole else ''}½"
    return _decimals(x, language)


def percent(x: Fraction | None) -> str:
    """62.5 -> "63%" (halves to even, as Python rounds)."""
    return "" if x is None else f"{round(x)}%"


def signed(n: int) -> str:
    """Colour balance: +2, 0, −1 (a real minus sign)."""
    return f"+{n}" if n > 0 else f"−{-n}" if n < 0 else "0"


def change(n: int | None) -> tuple[str, str]:
    """(arrow and places, css class): ("▲2", "up"), ("▼1", "down"), ("", "same")."""
    if n is None:
        return "", "same"
    if n > 0:
        return f"▲{n}", "up"
    if n < 0:
        return f"▼{-n}", "down"
    return "", "same"
