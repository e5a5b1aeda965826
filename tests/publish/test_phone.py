"""What a member sees on a phone: the pairings page of `keizer-xl publish` at 390 px wide
(an ordinary phone) in headless Chromium shows both names of every board, wrapped where
they are long, with nothing to scroll sideways, in English and in Dutch; the standings
page shows every column, a long name and its withdrawn mark wrapped.

Chromium lays the page out in a frame 390 px wide and a small script reports what it sees
(the page's and each table box's scrolling width, and where every name ends) into the DOM
that `--dump-dom` prints."""

from __future__ import annotations

import html
import json
import re
import subprocess
import tempfile
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import run_cli
from tests.publish.books import season_workbook
from tests.publish.html import parse, table_rows, text
from tests.publish.test_screenshots import renderer
from tests.seasons import club_season

pytestmark = pytest.mark.programs("chromium")
PHONE = 390  # CSS pixels: the width of an ordinary phone held upright
NAMES = (
    "Alexandra Wilhelmina van Oranje-Nassau tot Amsberg",
    "Mohamed El Amrani",
    "Jan-Willem Vandenberghe-Oosterhuis",
    "Ruben Koster",
    "Bjørn Halvorsen",
    "Łukasz Đorđević",
    "Anna de Vries",
    "Daan Bakker",
    "Eva Visser",
    "Fleur Mulder",
    "Gert de Boer",
    "Hanna Bos",
    "Pieter Claes",
    "Karin Meijer",
    "Maximiliaan Rozendaal-Vanderschuerenbroek",
    "Zoë Ĳsselmeer",
)

# Measures the page in the frame once it has loaded, and writes what it found into the
# frame's element as JSON: the widths that scroll, and each name's box against the screen.
PROBE = """<!DOCTYPE html><html><body style="margin:0">
<iframe id="page" src="{page}" style="width:{width}px;height:4000px;border:0"></iframe>
<script>
const frame = document.getElementById("page");
frame.addEventListener("load", () => {{
  const doc = frame.contentDocument, root = doc.documentElement;
  const boxes = [...doc.querySelectorAll(".scroll")].map(
    b => ({{scroll: b.scrollWidth, client: b.clientWidth}}));
  const names = [...doc.querySelectorAll("table.pairings td.name")].map(td => {{
    const r = td.getBoundingClientRect(), stakes = td.querySelector(".stakes");
    const below = stakes ? stakes.getBoundingClientRect().height : 0;  // tonight's stakes
    return {{text: td.textContent.trim(), left: r.left, right: r.right,
             height: r.height - below}};
  }});
  const heads = [...doc.querySelectorAll("table.standings thead th")].map(th => {{
    const r = th.getBoundingClientRect();
    return {{text: th.textContent.trim(), left: r.left, right: r.right}};
  }});
  const standing = [...doc.querySelectorAll("table.standings td.name")].map(td => {{
    const r = td.getBoundingClientRect();
    return {{text: td.textContent.trim(), left: r.left, right: r.right, height: r.height}};
  }});
  frame.setAttribute("data-seen", JSON.stringify({{
    width: root.clientWidth, scroll: root.scrollWidth, boxes, names, heads, standing}}));
}});
</script></body></html>"""


def seen_on_a_phone(page: Path, width: int = PHONE) -> dict[str, Any]:
    """What Chromium lays out of `page` in a frame `width` CSS pixels wide."""
    render = renderer()
    program = render.browser()
    assert program is not None
    probe = page.with_name(f"probe-{page.name}")
    probe.write_text(PROBE.format(page=page.name, width=width), encoding="utf-8")
    with tempfile.TemporaryDirectory() as profile:
        dom = subprocess.run(
            [
                program,
                *render.CHROMIUM_FLAGS,
                f"--user-data-dir={profile}",
                "--allow-file-access-from-files",
                "--dump-dom",
                probe.resolve().as_uri(),
            ],
            check=True,
            capture_output=True,
            text=True,
            timeout=120,
        ).stdout
    probe.unlink()
    found = re.search(r'data-seen="([^"]*)"', dom)
    assert found, "Chromium reported nothing: " + dom[-500:]
    seen: dict[str, Any] = json.loads(html.unescape(found.group(1)))
    return seen


@pytest.mark.parametrize("language", ["en", "nl"])
def test_the_pairings_page_fits_a_phone(language: str, tmp_path: Path) -> None:
    season = club_season(NAMES, 5, seed=5, open_last=True)
    book = season_workbook(tmp_path / "club.xlsx", season, language)
    done = run_cli("publish", book, "--out", tmp_path / "site")
    assert done.exit_code == 0, done.output
    page = tmp_path / "site" / "pairings.html"
    seen = seen_on_a_phone(page)
    assert seen["width"] == PHONE
    assert seen["scroll"] <= seen["width"], "the page scrolls sideways"
    assert seen["boxes"] and all(b["scroll"] <= b["client"] for b in seen["boxes"]), seen["boxes"]
    # every board's two names, each wholly on the screen
    latest = table_rows(parse(page.read_text(encoding="utf-8")), "pairings")
    shown = [text(cells[k]) for cells in latest for k in (1, 3)]
    assert [n["text"] for n in seen["names"][: len(shown)]] == shown
    assert all(n["left"] >= 0 and n["right"] <= PHONE for n in seen["names"]), [
        n for n in seen["names"] if n["right"] > PHONE
    ]
    line = min(n["height"] for n in seen["names"])
    assert any(n["height"] > 1.5 * line for n in seen["names"])  # long names wrap
    # on a desktop every name stays on one line, as before
    wide = seen_on_a_phone(page, 1100)
    assert all(b["scroll"] <= b["client"] for b in wide["boxes"])
    assert max(n["height"] for n in wide["names"]) < 1.5 * line


@pytest.mark.parametrize("language", ["en", "nl"])
def test_the_standings_page_shows_every_column_on_a_phone(language: str, tmp_path: Path) -> None:
    """The longest name has left: its withdrawn mark (`(teruggetrokken)`) made the name
    column so wide that the Value column was cut off; now the name wraps."""
    season = club_season(NAMES, 5, seed=5, leaver=0)
    book = season_workbook(tmp_path / "club.xlsx", season, language)
    done = run_cli("publish", book, "--out", tmp_path / "site")
    assert done.exit_code == 0, done.output
    page = tmp_path / "site" / "index.html"
    seen = seen_on_a_phone(page)
    assert seen["scroll"] <= seen["width"], "the page scrolls sideways"
    table = table_rows(parse(page.read_text(encoding="utf-8")), "standings")
    assert len(seen["heads"]) >= 9  # rank, change, name, score, value, pl, w, d, l, %
    shown = [h for h in seen["heads"] if h["right"] > h["left"]]  # the phone hides a few
    assert all(h["left"] >= 0 and h["right"] <= PHONE for h in shown), [
        h for h in shown if h["right"] > PHONE
    ]
    assert {"Value", "Waarde"} & {h["text"] for h in shown}
    withdrawn = next(n for n in seen["standing"] if NAMES[0] in n["text"])
    assert ("(withdrawn)" if language == "en" else "(teruggetrokken)") in withdrawn["text"]
    assert withdrawn["right"] <= PHONE
    line = min(n["height"] for n in seen["standing"])
    assert withdrawn["height"] > 1.5 * line  # wrapped, not cut off
    assert len(seen["standing"]) == len(table) == len(NAMES)
