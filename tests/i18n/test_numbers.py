"""The number formatter writes each language's decimal mark: a point in English, a comma
in Dutch, German and Italian (as the clubs of those countries write 153,33)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from keizer_xl.i18n.numbers import decimal, number, points

MARKS = {"en": ".", "nl": ",", "de": ",", "it": ","}


@pytest.mark.parametrize("language", sorted(MARKS))
def test_each_language_s_decimal_mark(language: str) -> None:
    mark = MARKS[language]
    assert number(Fraction(460, 3), language) == f"153{mark}33"
    assert number(Fraction(133, 2), language) == f"66{mark}5"
    assert points(Fraction(1, 3), language) == f"0{mark}33"
    assert decimal(Fraction(1, 2), language) == f"0{mark}5"  # the terminal: no half sign


@pytest.mark.parametrize("language", sorted(MARKS))
def test_whole_numbers_and_halves_have_no_mark(language: str) -> None:
    assert number(Fraction(19), language) == "19" == decimal(Fraction(19), language)
    assert number(Fraction(1, 2), language) == "½"
    assert points(Fraction(7, 2), language) == "3½"
    assert number(None, language) == "" == decimal(None, language)


def test_a_language_keizer_xl_does_not_speak_writes_a_point() -> None:
    assert number(Fraction(460, 3), "xx") == "153.33"
