"""No internal error from any workbook: `check`, `recalc` and `pair` are fed a real season's
workbook with the bytes of its parts flipped, cut, repeated and inserted, or with odd
values and error values in the cells they read (Hypothesis), and may only answer with
keizer_xl's own errors. A workbook `check` passes is one `publish` (pages, PDFs, text) and
`export` take."""

from __future__ import annotations

import io
import shutil
import tempfile
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from keizer_xl.core.errors import KeizerXLError
from keizer_xl.core.settings import SETTINGS
from keizer_xl.workbook import files as workbook
from keizer_xl.workbook.xlsx import SheetEdit, column_letters, save_edits
from tests.exchange.test_fuzz import ODD_VALUES, mutated, with_part_mutated
from tests.helpers_package import sheet_parts
from tests.profiles import examples
from tests.seasons import golden_book
from tests.workbook.test_error_cells import ERRORS, with_error

FUZZ = settings(
    max_examples=examples(50),
    deadline=None,
    database=None,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.function_scoped_fixture,
    ],
)


def next_season(path: Path) -> None:
    """`new NEXT --from LAST.xlsx`; the workbook it makes is one `check` passes."""
    from keizer_xl.exchange.nextseason import new_from_last

    made = path.with_name("next.xlsx")
    made.unlink(missing_ok=True)
    new_from_last(path, made)
    workbook.check(made)


COMMANDS: dict[str, Callable[[Path], object]] = {
    "check": workbook.check,
    "recalc": workbook.recalc,
    "pair": workbook.pair,
    "new --from": next_season,
}


@pytest.fixture(scope="module")
def season(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Keizer's own example after two rounds: a workbook `check` passes."""
    return golden_book(tmp_path_factory.mktemp("season") / "club.xlsx", "A")


def answered(path: Path, command: str) -> bool:
    """Run the command on the workbook; True when it went through, False when it refused
    with keizer_xl's own error. Any other exception fails the test."""
    try:
        COMMANDS[command](path)
    except KeizerXLError as exc:
        event(f"{command} refused: {type(exc).__name__}")
        return False
    event(f"{command} went through")
    return True


def published(path: Path, folder: Path) -> None:
    """What `publish` (pages, PDFs, text) and `export` make of a workbook `check` passes."""
    from keizer_xl.exchange.trffiles import export_trf
    from keizer_xl.publish.book import workbook_report
    from keizer_xl.publish.pdf import write_pdfs
    from keizer_xl.publish.site import build_site, write_site
    from keizer_xl.publish.text import report_text

    report, titles = workbook_report(path)
    write_site(build_site(report, titles), folder / "site")
    write_pdfs(report, titles, folder / "site")
    report_text(report, titles)
    export_trf(path, folder / "season.trf")


# -- workbook parts ---------------------------------------------------------------------------


@st.composite
def damaged(draw: st.DrawFn, seed: bytes) -> bytes:
    """The workbook with one of its parts mutated (or the package's own bytes)."""
    with zipfile.ZipFile(io.BytesIO(seed)) as package:
        names = [n for n in package.namelist() if n.endswith((".xml", ".rels"))]
        part = draw(st.sampled_from([*names, "the package"]))
        if part == "the package":
            return draw(mutated(seed))
        return with_part_mutated(seed, part, draw(mutated(package.read(part))))


@FUZZ
@given(data=st.data(), command=st.sampled_from(list(COMMANDS)))
def test_workbook_parts(season: Path, data: st.DataObject, command: str) -> None:
    with tempfile.TemporaryDirectory() as name:
        path = Path(name) / "club.xlsx"
        path.write_bytes(data.draw(damaged(season.read_bytes())))
        before = path.read_bytes()
        if not answered(path, command):
            assert path.read_bytes() == before


# -- cells ------------------------------------------------------------------------------------

WORDS = st.sampled_from(
    [
        "",
        " ",
        "x",
        "1-0",
        "½-½",
        "0-1",
        "--",
        "+-",
        "bye",
        "excused",
        "club",
        "unexcused",
        "auto",
        "rating",
        "as listed",
        "kfc",
        "opponent",
        "2/3",
        "66.7%",
        "1e999",
        "1e-9999999",
        "=1+1",
        "<b>",
        "Johnson",
        "Petersen",
        "Baker",
        "Butcher",
    ]
)
SHEETS = {"Players": (12, 5), "Rounds": (30, 5), "Settings": (len(SETTINGS) + 1, 2)}


@st.composite
def cell_changes(draw: st.DrawFn) -> list[tuple[str, int, int, object]]:
    """A few cells of the sheets keizer_xl reads, each given an odd value, a word, or one
    of the error values (as a string "#N/A" marks it)."""
    changes = []
    for _ in range(draw(st.integers(1, 4))):
        sheet = draw(st.sampled_from(list(SHEETS)))
        rows, columns = SHEETS[sheet]
        row = draw(st.integers(2, rows))
        column = draw(st.integers(2 if sheet == "Settings" else 1, columns))
        value = draw(
            st.one_of(
                ODD_VALUES.filter(lambda v: v == v and v not in (float("inf"), float("-inf"))),
                WORDS,
                st.sampled_from(list(ERRORS)),
            )
        )
        changes.append((sheet, row, column, value))
    return changes


@FUZZ
@given(changes=cell_changes(), command=st.sampled_from(list(COMMANDS)))
def test_cells(season: Path, changes: list[tuple[str, int, int, object]], command: str) -> None:
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        path = folder / "club.xlsx"
        shutil.copyfile(season, path)
        plain = {(s, r, c): v for s, r, c, v in changes if v not in ERRORS}
        save_edits(
            path,
            [
                SheetEdit(sheet, {(r, c): v for (s, r, c), v in plain.items() if s == sheet})  # type: ignore[misc]
                for sheet in SHEETS
            ],
            backup=False,
        )
        for sheet, row, column, value in changes:
            if value in ERRORS:
                with_error(path, sheet, f"{column_letters(column)}{row}", ERRORS[str(value)])
        if answered(path, "check"):
            published(path, folder)
            event("published")
        answered(path, command)


def test_the_seed_passes_check_and_is_published(season: Path) -> None:
    with tempfile.TemporaryDirectory() as name:
        path = Path(name) / "club.xlsx"
        shutil.copyfile(season, path)
        assert sheet_parts(path)
        workbook.check(path)
        published(path, Path(name))
        assert (Path(name) / "site" / "standings.pdf").exists()


NAMES = st.one_of(
    st.text(min_size=1, max_size=60),
    st.text(alphabet=st.characters(codec="utf-8"), min_size=1, max_size=300),
    st.builds(lambda word, n: word * n, st.text(min_size=1, max_size=3), st.integers(100, 4_000)),
)


# each publishes the pages and PDFs: slower than the rest
@settings(FUZZ, max_examples=examples(12))
@given(new=NAMES)
def test_any_name_is_checked_or_published(season: Path, new: str) -> None:
    """A player renamed to anything (a 10,000-character name, control characters, a
    right-to-left mark): refused with keizer_xl's words, or published and exported."""
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        path = folder / "club.xlsx"
        shutil.copyfile(season, path)
        try:
            workbook.rename(path, "Johnson", new)
        except KeizerXLError as exc:
            event(f"rename refused: {type(exc).__name__}")
            return
        if answered(path, "check"):
            published(path, folder)
            event("published")
        answered(path, "pair")
