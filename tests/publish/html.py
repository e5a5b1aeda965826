"""Reading the published pages back as a browser would: an HTML5 parser, strictly."""

from __future__ import annotations

import posixpath
from typing import Any

import html5lib

XHTML = "{http://www.w3.org/1999/xhtml}"


def parse(html: str, fragment: bool = False) -> Any:
    """The element tree; any parse error (a stray `<`, an unclosed tag) fails the test."""
    parser = html5lib.HTMLParser(strict=True, namespaceHTMLElements=True)
    return parser.parseFragment(html) if fragment else parser.parse(html)


def tag(name: str) -> str:
    return XHTML + name


def text(element: Any) -> str:
    return "".join(element.itertext()).strip()


def links(tree: Any) -> list[str]:
    return [a.get("href") for a in tree.iter(tag("a")) if a.get("href")]


def resolve(page: str, href: str) -> str:
    """`players/a.html` + `../index.html` -> `index.html`."""
    return posixpath.normpath(posixpath.join(posixpath.dirname(page), href))


def table_rows(tree: Any, css_class: str) -> list[list[Any]]:
    """The body rows of the table with this class, as lists of cells."""
    table = next(t for t in tree.iter(tag("table")) if css_class in t.get("class", "").split())
    body = table.find(tag("tbody"))
    return [list(tr) for tr in body.iter(tag("tr"))]
