"""The notes of a release: its section of CHANGELOG.md, as the GitHub release shows them.

The release workflow runs `.ci/release-notes VERSION`; a version without a section of its
own (`## [0.2.0] - 2026-12-20`) stops the release, so that no release goes out unexplained.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

CHANGELOG = Path(__file__).resolve().parents[2] / "CHANGELOG.md"
# A version's heading in Keep a Changelog's form: `## [0.2.0] - 2026-12-20`
_HEADING = re.compile(r"^## \[(?P<version>[^\]]+)\](?:\s+-\s+(?P<date>\d{4}-\d{2}-\d{2}))?\s*$")


class NoSection(Exception):
    """The changelog has no dated section for the version."""


def section(text: str, version: str) -> str:
    """The body of `version`'s section (its Added, Changed, Fixed), without its heading."""
    lines = text.splitlines()
    start = None
    for number, line in enumerate(lines):
        found = _HEADING.match(line)
        if not found:
            continue
        if start is not None:
            return "\n".join(lines[start:number]).strip() + "\n"
        if found["version"] == version.removeprefix("v"):
            if not found["date"]:
                raise NoSection(
                    f"CHANGELOG.md's section [{found['version']}] has no date: "
                    f"write it as '## [{found['version']}] - YYYY-MM-DD'"
                )
            start = number + 1
    if start is None:
        raise NoSection(
            f"CHANGELOG.md has no section for {version}: move the [Unreleased] "
            f"entries under '## [{version.removeprefix('v')}] - YYYY-MM-DD'"
        )
    return "\n".join(lines[start:]).strip() + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog=".ci/release-notes", description=__doc__)
    parser.add_argument("version", help="the version being released, e.g. 0.2.0 or v0.2.0")
    parser.add_argument("--changelog", type=Path, default=CHANGELOG)
    args = parser.parse_args(argv)
    try:
        notes = section(args.changelog.read_text(encoding="utf-8"), args.version)
    except NoSection as exc:
        print(exc, file=sys.stderr)
        return 1
    sys.stdout.write(notes)
    return 0


if __name__ == "__main__":
    sys.exit(main())
