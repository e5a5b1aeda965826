"""Pictures of the published pages in a real browser: headless Chromium (Debian's package,
installed by .ci/system-packages) at phone and desktop width, and a player's card.

`make screenshots` draws the README's pictures with the same code (docs/render_publish.py)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.programs("chromium")


def renderer() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "render_publish", ROOT / "docs" / "render_publish.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def ink(path: Path) -> tuple[tuple[int, int], float, float]:
    """(size, share of dark pixels, share of the page's blue header colour)."""
    from PIL import Image

    with Image.open(path) as image:
        rgb = image.convert("RGB")
        size = rgb.size
        pixels = size[0] * size[1]
        grey = rgb.convert("L")
        dark = sum(grey.histogram()[:100]) / pixels
        header = sum(
            1
            for x in range(0, size[0], 7)
            for y in range(0, 60, 3)
            if rgb.getpixel((x, y)) == (36, 70, 111)
        )
        return size, dark, header / (len(range(0, size[0], 7)) * 20)


def test_screenshots_of_the_site(tmp_path: Path) -> None:
    render = renderer()
    site = render.sample_site(tmp_path / "site")
    for name, page, width, height in render.SHOTS:
        out = tmp_path / name
        render.screenshot(site / page, out, width, height)
        size, dark, header = ink(out)
        assert size == (width, height)
        assert dark > 0.01, f"{name}: the page looks empty"  # text and table lines
        assert header > 0.5, f"{name}: the club's header bar is missing"
    # the phone picture: the table fits the width (nothing laid out wider than the screen
    # except inside the scrolling box), so the right-hand margin stays white
    from PIL import Image

    with Image.open(tmp_path / "publish-phone.png") as phone:
        rgb = phone.convert("RGB")
        right_edge = [rgb.getpixel((389, y)) for y in range(200, 600, 10)]
        assert all(pixel == (255, 255, 255) for pixel in right_edge)
