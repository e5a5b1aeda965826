"""Whole parts put into a package beside the workbook's own: their content, their content
type and the relationship that leads to them.

An add-in keeps its settings in parts of its own (an Office web extension under
`xl/webextensions/`); putting them in is three edits of the package, each made as text so
that everything else keeps its bytes: the part itself, its `Override` in
`[Content_Types].xml`, and a `Relationship` in the relationships of the part that refers to
it (`_rels/.rels` for the package). Each is made only when it is missing or different, so
putting the same parts twice changes nothing.
"""

from __future__ import annotations

import posixpath
from collections.abc import Sequence
from typing import NamedTuple

from keizer_xl.workbook.xlsx._package import Package, WorkbookParts, rels_part_of
from keizer_xl.workbook.xlsx._xmltext import attributes, escape_attr, remove_elements, start_tag
from keizer_xl.workbook.xlsx.errors import NotAWorkbook


class NewPart(NamedTuple):
    """A part put whole: its name in the package (`xl/webextensions/taskpanes.xml`), its
    bytes, and its content type (None: the Default for its extension, as for `.rels`)."""

    name: str
    content: bytes
    content_type: str | None = None


class Relationship(NamedTuple):
    """A relationship that must be there: from `source` (a part's name, '' for the
    package) of this type to `target` (a part's name in the package), with the id `rid`
    when the source part names it (else the first free one)."""

    source: str
    kind: str
    target: str
    rid: str | None = None


_RELS_NAMESPACE = "http://schemas.openxmlformats.org/package/2006/relationships"


def put_parts(
    package: Package, parts: Sequence[NewPart], relationships: Sequence[Relationship]
) -> bool:
    """Put the parts and relationships into the package in memory; True when something in
    it really changes (a part that is already as given is left as it is)."""
    for part in parts:
        _put(package, part.name, part.content)
        if part.content_type is not None:
            _declare(package, part.name, part.content_type)
    book = WorkbookParts(package)
    for relationship in relationships:
        _relate(package, book, relationship)
    package.changed = {
        name: content
        for name, content in package.changed.items()
        if name not in package.infos or content != package.content(name)
    }
    return bool(package.changed)


def _put(package: Package, name: str, content: bytes) -> None:
    real = package.by_lower.get(name.lower())
    if real is None:
        package.add(name, content)
    else:
        package.changed[real] = content


def _declare(package: Package, name: str, content_type: str) -> None:
    """The part's Override in `[Content_Types].xml`, replacing one of another type."""
    types_part = package.by_lower.get("[content_types].xml")
    if types_part is None:
        raise NotAWorkbook(
            "{file} is not an Excel workbook (.xlsx or .xlsm).", file=package.path.name
        )
    types = package.text(types_part)
    wanted = "/" + name.lower()

    def is_this(found: dict[str, str]) -> bool:
        return found.get("PartName", "").lower() == wanted

    overrides = [attributes(m.group(0)) for m in start_tag("", "Override").finditer(types)]
    if any(is_this(found) and found.get("ContentType") == content_type for found in overrides):
        return
    types = remove_elements(types, "Override", is_this)
    close = types.rfind("</")
    package.changed[types_part] = (
        types[:close] + f'<Override PartName="/{escape_attr(name)}" '
        f'ContentType="{escape_attr(content_type)}"/>' + types[close:]
    ).encode("utf-8")


def _relate(package: Package, book: WorkbookParts, relationship: Relationship) -> None:
    """The relationship, added to its source's relationships (made when there are none)
    unless one of that type already leads to that target."""
    source, kind, target, wanted = relationship
    existing = book.relationships(source)
    if any(found == (kind, target) and wanted in (None, rid) for rid, found in existing.items()):
        return
    rels_name = rels_part_of(source)
    real = package.by_lower.get(rels_name.lower())
    rels = (
        package.text(real)
        if real is not None
        else (
            '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
            f'<Relationships xmlns="{_RELS_NAMESPACE}"></Relationships>'
        )
    )
    taken = {attributes(m.group(0)).get("Id") for m in start_tag("", "Relationship").finditer(rels)}
    if wanted in taken:
        raise NotAWorkbook("{file} is damaged (bad relationships).", file=package.path.name)
    rid = wanted or next(f"rId{n}" for n in range(1, len(taken) + 2) if f"rId{n}" not in taken)
    relative = posixpath.relpath(target, posixpath.dirname(source) or ".")
    close = rels.rfind("</")
    if close < 0:
        raise NotAWorkbook("{file} is damaged (bad relationships).", file=package.path.name)
    _put(
        package,
        real or rels_name,
        (
            rels[:close] + f'<Relationship Id="{rid}" Type="{escape_attr(kind)}" '
            f'Target="{escape_attr(relative)}"/>' + rels[close:]
        ).encode("utf-8"),
    )
