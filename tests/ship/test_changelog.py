"""A release's notes are its own CHANGELOG section: no more, no less, and none without one."""

from __future__ import annotations

import pytest

from tests.ship.changelog import CHANGELOG, NoSection, main, section

LOG = """# Changelog

Intro.

## [Unreleased]

### Added
- Something not yet out.

## [0.3.0] - 2027-02-01

### Fixed
- The third one.

## [0.2.0] - 2026-12-20

### Added
- The second one.

## [0.1.0] - 2026-11-22

### Added
- The first one.
"""


def test_a_section_ends_where_the_next_version_begins() -> None:
    notes = section(LOG, "0.2.0")
    assert notes == "### Added\n- The second one.\n"


def test_the_oldest_section_runs_to_the_end() -> None:
    assert section(LOG, "0.1.0") == "### Added\n- The first one.\n"


def test_the_tag_may_be_given() -> None:
    assert section(LOG, "v0.3.0") == section(LOG, "0.3.0") == "### Fixed\n- The third one.\n"


def test_a_version_without_a_section_stops_the_release() -> None:
    with pytest.raises(NoSection, match=r"no section for 0\.4\.0"):
        section(LOG, "0.4.0")


def test_an_undated_section_stops_the_release() -> None:
    with pytest.raises(NoSection, match=r"has no date"):
        section(LOG.replace("## [0.2.0] - 2026-12-20", "## [0.2.0]"), "0.2.0")


def test_unreleased_is_never_a_release() -> None:
    with pytest.raises(NoSection):
        section(LOG, "Unreleased")


def test_the_real_changelog_gives_a_released_versions_notes(
    capsys: pytest.CaptureFixture[str],
) -> None:
    text = CHANGELOG.read_text(encoding="utf-8")
    assert main(["0.1.0"]) == 0
    notes = capsys.readouterr().out
    assert notes.startswith("### Added\n")
    assert notes.strip() in text and "## [" not in notes


def test_the_command_says_what_is_missing(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["99.0.0"]) == 1
    assert "CHANGELOG.md has no section for 99.0.0" in capsys.readouterr().err
