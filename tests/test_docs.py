"""The documentation leads somewhere: every relative link and `#anchor` in the README,
CONTRIBUTING, RELEASING, the CHANGELOG and `docs/` resolves, the README stays a landing
page, the rules' settings table lists every setting with its default, and the Python examples run.

Anchors are GitHub's: a heading's text in lower case, without punctuation, spaces as
dashes, a repeated heading numbered `-1`, `-2`, ...
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import unquote

import pytest

ROOT = Path(__file__).resolve().parents[1]
README_MOST_LINES = 250


def pages(root: Path = ROOT) -> list[Path]:
    """The pages whose links are checked."""
    names = ("README.md", "CONTRIBUTING.md", "CHANGELOG.md", "RELEASING.md")
    top = [root / name for name in names]
    return [p for p in top if p.exists()] + sorted((root / "docs").glob("*.md"))


_FENCE = re.compile(r"^\s*(```|~~~)")


def prose(text: str) -> Iterator[tuple[int, str]]:
    """(line number, line) outside fenced code blocks, inline code taken out."""
    fenced = False
    for number, line in enumerate(text.splitlines(), start=1):
        if _FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            yield number, re.sub(r"`[^`]*`", "", line)


def slug(heading: str) -> str:
    """GitHub's anchor of a heading: markup and punctuation dropped, lower case, dashes."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link: its text
    text = re.sub(r"<[^>]+>", "", text).replace("`", "").lower()
    text = "".join(ch for ch in text if ch.isalnum() or ch in " -_")
    return text.replace(" ", "-")


def anchors(text: str) -> set[str]:
    """Every anchor a page has: its headings' slugs (repeats numbered) and explicit ids."""
    found: set[str] = set()
    seen: dict[str, int] = {}
    fenced = False
    for line in text.splitlines():
        if _FENCE.match(line):
            fenced = not fenced
            continue
        if fenced:
            continue
        heading = re.match(r"^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$", line)
        if heading:
            base = slug(heading.group(1))
            times = seen.get(base, 0)
            seen[base] = times + 1
            found.add(base if times == 0 else f"{base}-{times}")
        found.update(re.findall(r"""<a\s+(?:name|id)=["']([^"']+)["']""", line))
    return found


_LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
_REFERENCE = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$")


def links(text: str) -> Iterator[tuple[int, str]]:
    """(line number, target) of every inline link, image and reference definition."""
    for number, line in prose(text):
        for match in _LINK.finditer(line):
            yield number, match.group(1)
        reference = _REFERENCE.match(line)
        if reference:
            yield number, reference.group(1)


def broken_links(page: Path, root: Path = ROOT) -> list[str]:
    """Each relative link of `page` that leads nowhere, as `page:line: target (why)`."""
    text = page.read_text(encoding="utf-8")
    out: list[str] = []
    for number, target in links(text):
        if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", target) or target.startswith("//"):
            continue  # a web address or mailto: not ours to check
        where = f"{page.relative_to(root)}:{number}: {target}"
        path_part, _, anchor = target.partition("#")
        path = (page.parent / unquote(path_part)).resolve() if path_part else page
        if os.path.commonpath([path, root.resolve()]) != str(root.resolve()):
            out.append(f"{where} (outside the repository)")
            continue
        if not path.exists():
            out.append(f"{where} (no such file)")
            continue
        if anchor:
            if path.is_dir() or path.suffix != ".md":
                out.append(f"{where} (an anchor into a file that is not a page)")
            elif unquote(anchor) not in anchors(path.read_text(encoding="utf-8")):
                out.append(f"{where} (no such heading)")
    return out


@pytest.mark.parametrize("page", pages(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_link_and_anchor_leads_somewhere(page: Path) -> None:
    assert broken_links(page) == []


def test_the_docs_are_there_and_linked_from_the_readme() -> None:
    """The guide is found from the landing page: every page of docs/ is linked from the
    README or from the docs' own index, which the README links."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    index = (ROOT / "docs" / "README.md").read_text(encoding="utf-8")
    linked = {target.split("#")[0] for _, target in links(readme)}
    linked |= {"docs/" + target.split("#")[0] for _, target in links(index)}
    for name in ("rules", "python", "reliability", "speed", "architecture"):
        assert (ROOT / "docs" / f"{name}.md").exists()
    missing = [
        p.name
        for p in (ROOT / "docs").glob("*.md")
        if p.name != "README.md" and f"docs/{p.name}" not in linked
    ]
    assert missing == []
    assert "CONTRIBUTING.md" in linked


def test_the_readme_is_a_landing_page() -> None:
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert 0 < len(lines) <= README_MOST_LINES


def test_the_settings_table_lists_every_setting_with_its_default() -> None:
    from keizer_xl.core.settings import SPECS

    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    section = text.split("## 8. The settings", 1)[1].split("\n## ", 1)[0]
    rows = [
        [cell.strip() for cell in line.strip().strip("|").split("|")]
        for line in section.splitlines()
        if line.startswith("| ")
    ]
    header, *settings = rows
    assert header[:3] == ["Setting", "Nederlands", "default"]
    assert [(row[0], row[2]) for row in settings] == [(s.name, s.default) for s in SPECS]


def test_the_python_examples_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every ```python block of docs/python.md, in order, in one namespace, beside a
    `club.xlsx` with the sheets its workbook example reads."""
    import pandas as pd

    players = pd.DataFrame({"Name": ["Anna", "Bram", "Carla"], "Rating": [1800, 1700, 1600]})
    rounds = pd.DataFrame(
        {"Round": [1], "Board": [1], "White": ["Anna"], "Black": ["Bram"], "Result": ["1-0"]}
    )
    settings = pd.DataFrame({"Setting": ["Top value"], "Value": [10]})
    with pd.ExcelWriter(tmp_path / "club.xlsx") as book:
        for name, frame in (("Players", players), ("Rounds", rounds), ("Settings", settings)):
            frame.to_excel(book, sheet_name=name, index=False)
    monkeypatch.chdir(tmp_path)
    text = (ROOT / "docs" / "python.md").read_text(encoding="utf-8")
    blocks = re.findall(r"^```python\n(.*?)^```", text, flags=re.MULTILINE | re.DOTALL)
    assert len(blocks) >= 4
    namespace: dict[str, object] = {}
    for block in blocks:
        exec(compile(block, "docs/python.md", "exec"), namespace)
    assert "table" in namespace


# --- the checker, tried on pages with known faults ------------------------------------------


@pytest.mark.parametrize(
    ("heading", "anchor"),
    [
        ("## Words keizer_xl understands", "words-keizer_xl-understands"),
        ("## 8. The settings", "8-the-settings"),
        ("## Handing the season over (TRF)", "handing-the-season-over-trf"),
        ("### Checked here, and what needs one check", "checked-here-and-what-needs-one-check"),
        (
            "## `check` checks what `pair` and `recalc` check",
            "check-checks-what-pair-and-recalc-check",
        ),
        ("## Nederlands — één taal", "nederlands--één-taal"),
        ("## [A link](x.md) in a heading", "a-link-in-a-heading"),
    ],
)
def test_anchors_are_githubs(heading: str, anchor: str) -> None:
    assert anchor in anchors(heading)


def test_a_repeated_heading_is_numbered() -> None:
    assert anchors("## Windows\n\n## Windows\n\n## Windows\n") == {
        "windows",
        "windows-1",
        "windows-2",
    }


def test_the_checker_finds_what_is_broken(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "other.md").write_text("# Other\n\n## A part\n", encoding="utf-8")
    (tmp_path / "docs" / "picture.png").write_bytes(b"")
    page = tmp_path / "README.md"
    page.write_text(
        "\n".join(
            [
                "# Page",
                "## Here",
                "[fine](docs/other.md#a-part) [fine](#here) ![fine](docs/picture.png)",
                "[web](https://example.org/missing.md) [mail](mailto:club@example.org)",
                "`[in code](nowhere.md)`",
                "```",
                "[in a block](nowhere.md)",
                "```",
                "[no file](docs/gone.md)",
                "[no heading](docs/other.md#b-part)",
                "[no heading here](#there)",
                "[anchor into a picture](docs/picture.png#top)",
                "[outside](../elsewhere.md)",
                "[ref]: docs/also-gone.md",
            ]
        ),
        encoding="utf-8",
    )
    found = broken_links(page, tmp_path)
    assert [line.split(" (")[1] for line in found] == [
        "no such file)",
        "no such heading)",
        "no such heading)",
        "an anchor into a file that is not a page)",
        "outside the repository)",
        "no such file)",
    ]
    assert [line.split(":")[1] for line in found] == ["9", "10", "11", "12", "13", "14"]


def _header_key(header: str) -> str:
    """A header as the imports match it: letters and digits, case ignored."""
    return "".join(ch for ch in header.casefold() if ch.isalnum())


def _documented_headers(page: str, heading: str) -> set[str]:
    """The `code` words of one `## heading` section of a page, as header keys."""
    text = (ROOT / "docs" / page).read_text(encoding="utf-8")
    section = text.split(f"\n## {heading}\n", 1)[1].split("\n## ", 1)[0]
    return {_header_key(word) for word in re.findall(r"`([^`]+)`", section)}


def test_every_header_the_member_list_and_rating_lists_accept_is_documented() -> None:
    """docs/files.md names every header that `new --players`, `ratings` and the Players
    sheet's own columns are read by (`KNSB-nummer` too), so the list cannot fall behind
    the code."""
    from keizer_xl.exchange.members import HEADERS, NAME_PARTS
    from keizer_xl.exchange.ratings import (
        CLUB_HEADERS,
        FIRST_NAME_HEADERS,
        ID_HEADERS,
        LAST_NAME_HEADERS,
        MEMBER_HEADERS,
        NAME_HEADERS,
        RATING_HEADERS,
    )
    from keizer_xl.workbook.layout import IDENTITY_COLUMNS

    members = {
        _header_key(h)
        for spellings in (*HEADERS.values(), *NAME_PARTS.values(), *IDENTITY_COLUMNS.values())
        for h in spellings
    }
    assert sorted(members - _documented_headers("files.md", "Member lists")) == []
    ratings = {
        _header_key(h)
        for h in (
            *ID_HEADERS,
            *NAME_HEADERS,
            *RATING_HEADERS,
            *LAST_NAME_HEADERS,
            *FIRST_NAME_HEADERS,
            *CLUB_HEADERS,
            *MEMBER_HEADERS,
        )
    }
    assert sorted(ratings - _documented_headers("files.md", "Ratings from the federation")) == []
    assert "knsbnummer" in members & ratings  # a club's own member lists write KNSB-nummer


def test_the_readme_says_how_to_run_the_command_after_make_demo() -> None:
    """`make demo` leaves `keizer-xl` in the virtual environment the Makefile makes; the
    README says where, and how to have it on the path without it."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    venv = re.search(r"^VENV := (\S+)$", makefile, re.MULTILINE)
    assert venv is not None and re.search(r"^BIN := \$\(VENV\)/bin$", makefile, re.MULTILINE)
    project = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    script = re.search(
        r'^\[project\.scripts\]\n([\w-]+) = "keizer_xl\.cli:run"$', project, re.MULTILINE
    )
    assert script is not None
    command = script.group(1)
    after = readme.split("make demo", 1)[1]
    assert f"{venv.group(1)}/bin/{command} " in after
    assert f"source {venv.group(1)}/bin/activate" in after and "pipx install" in after
