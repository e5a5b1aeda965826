"""Sites built once per test session: the demo workbook's and a season of hostile names."""

from __future__ import annotations

from pathlib import Path

import pytest

from keizer_xl.core.report import Report, build_report
from keizer_xl.core.scoring import compute_standings
from keizer_xl.core.settings import Settings
from keizer_xl.publish.site import Titles
from tests.seasons import club_season

HOSTILE = (
    "O'Brien & <Zoë>",
    "../x",
    "<script>alert(1)</script>",
    "Jan de Vries",
    "jan-de-vries",
    "CON",
    "Ünal Şahin",
    '"Quoted" Name',
    "a/b\\c",
    "李小龙",
    "Émile Zola",
    "&amp; Co",
)


@pytest.fixture(scope="session")
def demo_book(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Keizer's published example, played through a real workbook by `keizer-xl demo`."""
    from keizer_xl.cli.demo import run_demo

    folder = tmp_path_factory.mktemp("demo")
    return run_demo(folder, lambda _: None, lambda _: None, lambda *_: None)


@pytest.fixture(scope="session")
def hostile_report() -> Report:
    """Names that try to be markup, paths or device names; a late entrant, a leaver, and a
    last round paired but not played."""
    season = club_season(HOSTILE, 6, seed=4, open_last=True, late=3, leaver=9)
    return build_report(season, compute_standings(season, Settings()))


HOSTILE_TITLES = Titles("Schaakclub <b>De Toren</b> & co", 'Keizer 2025–26 "A"')
