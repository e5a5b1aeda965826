"""Names as published: shortened where a page or a PDF cell holds them, and the file
names of the player pages, safe on every system and web host, and unique.

A name as typed (`O'Brien & <Zoë>`, `../x`, `CON`) must never become a path outside the
site, a name Windows refuses, or the same file as another player's page; a name of 10,000
characters must not make a table of a kilometre or a PDF row taller than its page.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from anyascii import anyascii

from keizer_xl.core.words import shortened

SHOWN = 60  # characters of a name (or a club's name) on a page or in a PDF cell

_NOT_SAFE = re.compile(r"[^a-z0-9]+")
_LONGEST = 60
# Names Windows keeps for devices, whatever the extension.
_RESERVED = {
    "con",
    "prn",
    "aux",
    "nul",
    *(f"com{i}" for i in range(10)),
    *(f"lpt{i}" for i in range(10)),
}


def shown(name: str) -> str:
    """A name as a page or a PDF cell shows it: at most `SHOWN` characters, a longer one
    cut short with an ellipsis (the Players sheet keeps it whole)."""
    return shortened(name, SHOWN)


def slug(name: str) -> str:
    """`Zoë O'Brien` -> `zoe-o-brien`, `Bjørn Groß` -> `bjorn-gross`: lower-case letters,
    digits and dashes only, every letter written in ASCII (AnyAscii's transliteration, of
    every script: `李小龙` -> `lixiaolong`), none dropped."""
    plain = anyascii(name)
    word = _NOT_SAFE.sub("-", plain.lower()).strip("-")[:_LONGEST].strip("-")
    if not word:
        word = "player"
    if word in _RESERVED:
        word += "-player"
    return word


def page_names(names: Iterable[str]) -> dict[str, str]:
    """Each name's page file (`anna-de-vries.html`); names that slug alike are numbered in
    the order given (`jan-de-vries.html`, `jan-de-vries-2.html`)."""
    taken: set[str] = set()
    out: dict[str, str] = {}
    for name in names:
        base = slug(name)
        word, number = base, 1
        while word in taken:
            number += 1
            word = f"{base}-{number}"
        taken.add(word)
        out[name] = f"{word}.html"
    return out
