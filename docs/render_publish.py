"""Draw the guide's pictures (docs/publishing.md) of the published site and notice-board PDF.

A sample club season (sixteen players, nine rounds, played by the engine) is published
exactly as `keizer-xl publish` does; headless Chromium (Debian's `chromium`) photographs the
standings at phone and desktop width and a player's card, and poppler's `pdftoppm` turns
the standings PDF into a picture. Every browser flag keeps Chromium off the network and
away from any existing profile.

Usage: python docs/render_publish.py [OUT_DIR]   (make screenshots)
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--hide-scrollbars",
)
NAMES = (
    "Anna de Vries",
    "Bram Jansen",
    "Carla Smit",
    "Daan Bakker",
    "Eva Visser",
    "Fleur Mulder",
    "Gert de Boer",
    "Hanna Bos",
    "Ivo Peters",
    "Jan-Willem van den Heuvel",
    "Karin Meijer",
    "Lars van Dijk",
    "Mila Hendriks",
    "Noah Willems",
    "Olga Kuipers",
    "Pieter Claes",
)
SHOTS = (
    ("publish-phone.png", "index.html", 390, 1250),
    ("publish-pairings-phone.png", "pairings.html", 390, 780),
    ("publish-desktop.png", "index.html", 1180, 1100),
    ("publish-card.png", "players/daan-bakker.html", 760, 1050),
    ("publish-stakes.png", "pairings.html", 900, 760),
)


def browser() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


def screenshot(page: Path, out: Path, width: int, height: int) -> None:
    """One picture of a page at this window size, with a fresh, throw-away profile."""
    program = browser()
    if program is None:
        raise SystemExit("needs Chromium: apt-get install chromium")
    with tempfile.TemporaryDirectory() as profile:
        subprocess.run(
            [
                program,
                *CHROMIUM_FLAGS,
                f"--user-data-dir={profile}",
                f"--window-size={width},{height}",
                f"--screenshot={out}",
                page.resolve().as_uri(),
            ],
            check=True,
            capture_output=True,
            timeout=120,
        )
    if not out.is_file():
        raise SystemExit(f"Chromium made no picture of {page}")


def sample_site(folder: Path, language: str = "en") -> Path:
    """The sample season's site and PDFs in `folder`, in `language`."""
    from keizer_xl.core.report import build_report
    from keizer_xl.core.scoring import compute_standings
    from keizer_xl.core.settings import Settings
    from keizer_xl.publish.pdf import write_pdfs
    from keizer_xl.publish.site import Titles, build_site, write_site
    from tests.seasons import club_season

    season = club_season(NAMES, 10, seed=12, open_last=True, late=14)
    report = build_report(season, compute_standings(season, Settings()))
    titles = Titles("Schaakclub De Toren", "Keizer 2025–26", language)
    write_site(build_site(report, titles), folder)
    write_pdfs(report, titles, folder)
    return folder


def main(argv: list[str]) -> int:
    out = Path(argv[0]) if argv else ROOT / "docs"
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        site = sample_site(Path(tmp) / "site")
        for name, page, width, height in SHOTS:
            screenshot(site / page, out / name, width, height)
            print(f"wrote {out / name}")
        subprocess.run(
            [
                "pdftoppm",
                "-r",
                "60",
                "-png",
                "-singlefile",
                str(site / "standings.pdf"),
                str(out / "publish-pdf"),
            ],
            check=True,
        )
        print(f"wrote {out / 'publish-pdf.png'}")
        dutch = sample_site(Path(tmp) / "site-nl", "nl")  # as a Dutch workbook publishes
        screenshot(dutch / "index.html", out / "publish-dutch.png", 1180, 760)
        print(f"wrote {out / 'publish-dutch.png'}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
