"""Column letters have one home, `keizer_xl.workbook.xlsx` (`column_letters` and its
inverse `column_number`), used by every shell. The rule book, which may import nothing of
keizer_xl, writes a problem's place (`Rounds!E14`) with its own copy: held to the home here,
over every column a sheet can have."""

from __future__ import annotations

from keizer_xl.core.errors import Places, Problem
from keizer_xl.workbook.xlsx import column_letters, column_number

EXCEL_COLUMNS = 16_384  # A to XFD


def test_letters_and_numbers_are_each_others_inverse_and_in_excel_order() -> None:
    assert [column_letters(n) for n in (1, 26, 27, 52, 53, 702, 703, EXCEL_COLUMNS)] == [
        "A",
        "Z",
        "AA",
        "AZ",
        "BA",
        "ZZ",
        "AAA",
        "XFD",
    ]
    previous = ""
    for number in range(1, EXCEL_COLUMNS + 1):
        letters = column_letters(number)
        assert column_number(letters) == column_number(letters.lower()) == number
        assert (len(previous), previous) < (len(letters), letters)  # A..Z, AA..ZZ, AAA..
        previous = letters


def test_the_rule_book_places_a_problem_in_the_same_column() -> None:
    columns = {str(n): n for n in range(1, EXCEL_COLUMNS + 1)}
    places = Places({"Rounds": "Rounds"}, {"Rounds": columns})
    for header, number in columns.items():
        assert places.of(Problem("x", "Rounds", 14, header)) == f"Rounds!{column_letters(number)}14"
