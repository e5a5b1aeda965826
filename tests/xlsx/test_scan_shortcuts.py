"""The scan's shortcuts find what its general ways find (Hypothesis): the farthest cells of
a piece told from its last cells and one search (`_in_order`, with `_past`) against every
cell's reference read (`_reach`), and the shared-text cells looked for only where some cell
says so (`_shared_span`), in one pass where no tag holds a `<` (`_shared`), against two
passes over the whole piece; then whole sheets, cut into pieces anywhere, scanned both
ways.
"""

from __future__ import annotations

import itertools
import re
from string import ascii_uppercase

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from keizer_xl.workbook.xlsx import _cellpatterns as patterning
from keizer_xl.workbook.xlsx import _findings as findings
from keizer_xl.workbook.xlsx import _scan as scanning
from keizer_xl.workbook.xlsx._strings import count_strings
from keizer_xl.workbook.xlsx._xmltext import CELL_REF, column_letters, column_number, root_prefix
from tests.profiles import examples

PROPERTY = settings(
    max_examples=examples(300),
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)

REFS = st.builds(
    lambda letters, zeros, number: f"{letters}{zeros}{number}",
    st.sampled_from(["A", "B", "E", "F", "Z", "AA", "ALL", "ALM", "XFD"]),
    st.sampled_from(["", "", "0", "00", "000000"]),
    st.sampled_from([0, 1, 2, 9, 10, 99, 100, 101, 1000, 99_999, 100_001, 1_048_576, 12_345_678]),
)


def cell(p: str, ref: str, kind: int, other: str) -> str:
    """A cell as sheets write it, or not quite: empty, odd quotes, a look-alike (`other`)
    inside a tag."""
    return [
        f'<{p}c r="{ref}"><{p}v>1</{p}v></{p}c>',
        f'<{p}c r="{ref}" s="1"/>',
        f'<{p}c r="{ref}" t="s"><{p}v>3</{p}v></{p}c>',
        f'<{p}c r="{ref}" s="2" t="s"/>',
        f'<{p}c r="{ref}" t="inlineStr"><{p}is><{p}t>x</{p}t></{p}is></{p}c>',
        f'<{p}c r="{ref}" t="e"><{p}v>#N/A</{p}v></{p}c>',
        f'<{p}c r="{ref}"><{p}f>A1</{p}f></{p}c>',
        f'<{p}c r="{ref}" a="it\'s" t="s"><{p}v>2</{p}v></{p}c>',
        f"<{p}c r=\"{ref}\" b='\"s' t='s'> <{p}v> 4 </{p}v></{p}c>",
        f'<{p}c r="{ref}" x="<{p}c r="{other}"><{p}v>1</{p}v></{p}c>',
        f'<{p}c r="{ref}" t="s" z="><{p}v>5</{p}v></{p}c>',
        f'<{p}c r="{ref}" a="/">',
        f'<{p}c r="{ref}" t=\'s"><{p}v>6</{p}v></{p}c>',
        f'<{p}c r="{ref}" t="s\'><{p}v>7</{p}v></{p}c>',
        f'<{p}c r="{ref}" x="<{p}c r="{other}" t="s"><{p}v>8</{p}v></{p}c>',
        f'<{p}c r="{ref}" t="s" x="<{p}c r="{other}" t="s"><{p}v>9</{p}v></{p}c>',
    ][kind]


FRAGMENTS = ["<", ">", '"', "'", '"s"', "'s'", "</", " t=", "<c ", '<c r="', "<v>7</v>"]
CELLS = st.tuples(REFS, st.integers(0, 15), st.sampled_from(["", "", "", *FRAGMENTS]), REFS)
Cells = list[tuple[str, int, str, str]]


def markup(p: str, cells: Cells, ordered: bool = False) -> bytes:
    """The cells, in the order of their rows if `ordered` (as sane sheets have them)."""
    if ordered:
        cells = sorted(cells, key=lambda c: int(c[0].lstrip("ABCDEFGHIJKLMNOPQRSTUVWXYZ")))
    return "".join(cell(p, ref, kind, other) + extra for ref, kind, extra, other in cells).encode()


@PROPERTY
@given(
    st.sampled_from(["", "x:"]),
    st.lists(CELLS, max_size=30),
    st.sampled_from([0, 1, 5, 6, 26, 27, 1000, 16_384]),
    st.booleans(),
    st.sampled_from([1, 2, scanning._LAST_CELLS]),
)
def test_the_farthest_cells_of_a_piece_in_order_are_those_of_all_its_cells(
    p: str, cells: Cells, right: int, ordered: bool, looked_at: int
) -> None:
    piece = markup(p, cells, ordered)
    scanner = scanning._SheetScan("S", "f", scanning.MAX_ROWS, scanning.Budget(), None)
    scanner.p, scanner.patterns = p, patterning.cell_patterns(p)
    scanner.result.right = (0, right)
    with pytest.MonkeyPatch.context() as monkeypatch:  # fewer: more left to the search
        monkeypatch.setattr(scanning, "_LAST_CELLS", looked_at)
        quick = scanner._in_order(piece)
    if quick is not None:
        full = scanner._reach(piece)
        assert full is not None and quick[0] == full[0]
        assert quick[1] == full[1] or full[1] <= quick[1] == right  # no farther than before


@PROPERTY
@given(
    st.sampled_from(["", "x:"]),
    st.lists(CELLS, max_size=30),
    st.lists(st.sampled_from(FRAGMENTS), max_size=4),
)
def test_shared_texts_are_found_where_some_cell_says_so_as_in_all_the_piece(
    p: str, cells: Cells, around: list[str]
) -> None:
    piece = "".join(around).encode() + markup(p, cells) + "".join(reversed(around)).encode()
    patterns, (each, any_shared) = patterning.cell_patterns(p), patterning.nested_shared(p)
    span = scanning._shared_span(piece)
    if span is None:
        assert b'"s"' not in piece and b"'s'" not in piece
    else:
        shared, cells = each.findall(piece), len(any_shared.findall(piece))
        assert each.findall(piece, *span) == shared
        assert len(any_shared.findall(piece, *span)) == cells
        scanner = scanning._SheetScan("S", "f", scanning.MAX_ROWS, scanning.Budget(), None)
        scanner.p, scanner.patterns = p, patterns
        assert (
            scanner._shared(piece, span)
            == scanner._shared(piece, (0, len(piece)))
            == (shared, cells)
        )


def _general(monkeypatch: pytest.MonkeyPatch) -> None:
    """The scan without its shortcuts."""
    monkeypatch.setattr(scanning._SheetScan, "_in_order", lambda self, piece: None)
    monkeypatch.setattr(
        scanning,
        "_shared_span",
        lambda piece: (0, len(piece)) if (b'"s"' in piece or b"'s'" in piece) else None,
    )
    monkeypatch.setattr(
        scanning._SheetScan,
        "_shared",
        lambda self, piece, span: (
            patterning.nested_shared(self.p)[0].findall(piece),
            len(patterning.nested_shared(self.p)[1].findall(piece)),
        ),
    )


ROWS = st.lists(st.tuples(st.integers(1, 120_000), st.lists(CELLS, max_size=6)), max_size=40)


@PROPERTY
@given(
    st.sampled_from(["", "x:"]),
    ROWS,
    st.lists(st.integers(0, 1 << 16), max_size=8),
    st.sampled_from([100_000, 50]),
    st.sampled_from([scanning.MAX_CELLS, 5_000]),
    st.sampled_from([scanning.MAX_TEXT, 200]),
    st.booleans(),
)
def test_a_sheet_is_scanned_as_without_the_shortcuts(
    p: str,
    rows: list[tuple[int, Cells]],
    cuts: list[int],
    most_rows: int,
    cells: int,
    text: int,
    sized: bool,
) -> None:
    ns = ' xmlns:x="urn:x"' if p else ' xmlns="urn:x"'
    body = "".join(f'<{p}row r="{r}">{markup(p, row, True).decode()}</{p}row>' for r, row in rows)
    data = f"<{p}worksheet{ns}><{p}sheetData>{body}</{p}sheetData></{p}worksheet>".encode()
    table = count_strings(
        [b"<sst>" + b"".join(b"<si><t>%s</t></si>" % (b"y" * n) for n in range(9)) + b"</sst>"],
        "f",
        "s",
    )
    ends = sorted({0, len(data), *(at % (len(data) + 1) for at in cuts)})

    def scanned() -> object:
        budget = scanning.Budget(cells, text)
        try:
            found = scanning.scan_sheet(
                lambda: [data[a:b] for a, b in itertools.pairwise(ends)],
                "S",
                "f",
                most_rows,
                budget,
                table,
                len(data) if sized else None,
            )
        except Exception as exc:  # the same refusal, in the same words
            return type(exc), str(exc)
        return (
            (
                found.bottom,
                found.right,
                found.unsaved,
                found.errors,
                found.text,
                found.far,
                found.formulas,
            ),
            (budget.cells, budget.text),
        )

    with pytest.MonkeyPatch.context() as monkeypatch:  # `_in_order` for pieces of any size
        monkeypatch.setattr(scanning, "_SMALL", 0)
        quick = scanned()
    assert scanned() == quick  # small pieces: every cell read
    if isinstance(quick[0], tuple) and not quick[0][5]:  # read whole: a formula (prefix:
        # as the scan tells it from its first piece)?
        told = root_prefix(data[: ends[1]][:4096].decode("utf-8", "replace"), "worksheet")
        assert quick[0][-1] == bool(re.search(rb"<" + told.encode() + rb"f[\s>/]", data))
    with pytest.MonkeyPatch.context() as monkeypatch:
        _general(monkeypatch)
        assert scanned() == quick


def test_the_numbers_past_a_number_are_those_the_pattern_finds() -> None:
    numbers = [*range(1200), 9_999, 10_000, 99_999, 100_000, 123_456, 1_048_576]
    for value in [*range(300), 899, 989, 998, 999, 1_000, 99_999, 100_000]:
        past = re.compile(rb"0*(?:" + patterning.past(str(value), "0123456789", "1") + rb")")
        for number in numbers:
            for written in (str(number), f"0{number}"):
                assert bool(past.fullmatch(written.encode())) == (number > value), written
    columns = [*range(1, 800), 16_383, 16_384]
    for value in [*range(1, 60), 675, 676, 677, 702, 703, 16_383]:
        past = re.compile(patterning.past(column_letters(value), ascii_uppercase, "A"))
        for number in columns:
            assert bool(past.fullmatch(column_letters(number).encode())) == (number > value)


def _number(ref: str) -> int:
    return int(ref.lstrip(ascii_uppercase))


@PROPERTY
@given(
    st.sampled_from(["", "x:"]),
    st.lists(CELLS, max_size=30),
    st.booleans(),
    st.lists(
        st.sampled_from(["A", "E", "ZZ", "1", "0", "12", '"', "s=", '1"', '<c r="A']), max_size=6
    ),
    st.integers(0, 3),
    st.sampled_from([0, 1, 2, 32]),
)
@example("", [("XFD0000009", 0, "", "A1")], False, [], 1, 32)  # the longest reference
def test_the_first_cell_of_a_row_or_column_is_the_one_its_pattern_finds(
    p: str, cells: Cells, ordered: bool, noise: list[str], which: int, tries: int
) -> None:
    piece = "".join(noise).encode() + markup(p, cells, ordered) + "".join(noise).encode()
    refs = [ref for ref, *_ in cells] or ["A1"]  # of a cell, or of a look-alike
    ref = refs[which % len(refs)] if which else cells[0][3] if cells else "ALL0010"
    letters, row = ref.rstrip("0123456789"), _number(ref)
    for asked in ({"row": row}, {"letters": letters}):
        pattern = patterning.in_row_or_column(p, asked.get("row"), asked.get("letters"))
        found = pattern.search(piece)
        with pytest.MonkeyPatch.context() as monkeypatch:  # fewer: more left to the pattern
            monkeypatch.setattr(patterning, "_TRIES", tries)
            quick = patterning.first_cell(piece, p, **asked)  # type: ignore[arg-type]
        if found is None:
            assert quick is None
        else:
            written = CELL_REF.fullmatch(found.group(0).split(b'"')[1].decode())
            assert written is not None
            assert quick == (int(written.group(2)), column_number(written.group(1)))


ODDS = [
    "<c r=\"B2\" t='e'><v>#REF!</v></c>",
    "'e'",
    '"e"',
    "<f>",
    "<f ",
    "<f/>",
    "<fx>",
    "'",
    '<c r="C3"><f>B2</f><v>1</v></c>',
    '<c r="D4" t="e"/>',
]


@PROPERTY
@given(
    st.sampled_from(["", "x:"]),
    st.lists(CELLS, max_size=30),
    st.lists(st.sampled_from(ODDS), max_size=4),
)
def test_errors_and_unsaved_formulas_are_found_as_by_a_search_of_all_the_piece(
    p: str, cells: Cells, odds: list[str]
) -> None:
    piece = "".join(odds).encode() + markup(p, cells) + "".join(reversed(odds)).encode()
    assert findings.errors_in(piece, p) == findings._errors(piece, p)
    formula = findings.formula_tag(p).search(piece)
    if formula is None:
        assert findings.unsaved_in(piece, p) == []
    else:
        assert findings.unsaved_in(piece, p, formula.start()) == findings.unsaved_in(piece, p)


def test_a_reference_written_with_zeros_is_read_as_its_number() -> None:
    sheet = (
        b'<worksheet xmlns="urn:x"><sheetData><row r="12"><c r="A012"><v>1</v></c>'
        b'<c r="C0012" t="s"><v>1</v></c></row></sheetData></worksheet>'
    )
    found = scanning.scan(sheet, "S")
    assert (found.bottom, found.right) == ((12, 1), (12, 3))
