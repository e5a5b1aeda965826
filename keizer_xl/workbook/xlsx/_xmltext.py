"""Package XML read and edited as text, not as a tree of objects.

A worksheet is edited by finding its tags with regular expressions and splicing new text
in, so everything keizer_xl does not touch keeps its exact bytes (prefixes, quoting,
attribute order, unknown elements). This module holds those patterns and helpers: start
tags and attributes, column letters, Excel's `_xHHHH_` escapes, cleaning text to what XML
allows, and the well-formedness check every edited part must pass before it is saved.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterator
from typing import NoReturn
from xml.parsers import expat

TAG_REST = r"""(?=[\s/>])[^>"']*(?:(?:"[^"]*"|'[^']*')[^>"']*)*>"""
_ATTR_PAIR = re.compile(r"""([^\s=/>]+)\s*=\s*(?:"([^"]*)"|'([^']*)')""")
CELL_REF = re.compile(r"([A-Za-z]{1,3})([0-9]{1,7})")
_ENTITIES = {"lt": "<", "gt": ">", "amp": "&", "quot": '"', "apos": "'"}
_ATTR_ESCAPES = str.maketrans(
    {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#x27;"}
)
_VALUE = re.compile(r"""\s*=\s*(?:"([^"]*)"|'([^']*)')""")  # `="value"` after a name
_TAG_REST = re.compile(TAG_REST)


# Patterns for what few texts hold, compiled when one comes (some 50-90 µs each):
@functools.cache
def _escaped() -> re.Pattern[str]:
    """Excel's `_xHHHH_` escape."""
    return re.compile(r"_x([0-9A-Fa-f]{4})_")


@functools.cache
def _reference() -> re.Pattern[str]:
    """A character or entity reference."""
    return re.compile(r"&(?:#x([0-9A-Fa-f]+)|#([0-9]+)|(lt|gt|amp|quot|apos));")


@functools.cache
def _prefix() -> re.Pattern[str]:
    """A namespace prefix, with its colon."""
    return re.compile(r"[A-Za-z_][\w.-]*:")


def local(tag: str) -> str:
    """A tag or attribute name without its `{namespace}`."""
    return tag.rsplit("}", 1)[-1]


@functools.cache
def start_tag(prefix: str, name: str) -> re.Pattern[str]:
    """A start or empty-element tag `<prefix:name ...>` (quoted `>` in values allowed):
    for going through many (rows, cells); a few are found by `tags`."""
    return re.compile("<" + re.escape(prefix + name) + TAG_REST)


def tags(text: str, prefix: str, name: str) -> Iterator[tuple[int, str]]:
    """Where each tag `<prefix:name ...>` begins, and the tag, as `start_tag(prefix,
    name).finditer` finds them, by plain search for `<prefix:name`: a pattern for each
    name would be compiled at every start (some 70 µs), for a tag or two in a short text."""
    opening = "<" + prefix + name
    at = text.find(opening)
    while at >= 0:
        m = _TAG_REST.match(text, at + len(opening))
        if m is None:
            at = text.find(opening, at + 1)
        else:
            yield at, text[at : m.end()]
            at = text.find(opening, m.end())


def _attr_at(tag: str, name: str, at: int) -> tuple[int, re.Match[str]] | None:
    r"""The first attribute `name` in the tag from `at` on, as the pattern
    `\sname\s*=\s*(?:"…"|'…')` finds it: where it starts (the space before it) and its
    value. Found by plain search for the name: a pattern for each name would be compiled
    at every start, some 60 µs each."""
    at = tag.find(name, at + 1)
    while at >= 0:
        if tag[at - 1].isspace() and (m := _VALUE.match(tag, at + len(name))) is not None:
            return at - 1, m
        at = tag.find(name, at + 1)
    return None


def attr(tag: str, name: str) -> str | None:
    """One attribute of a start tag, unescaped; None when absent."""
    found = _attr_at(tag, name, 0)
    if found is None:
        return None
    m = found[1]
    value = m.group(1) if m.group(1) is not None else m.group(2)
    return unescape(value) if "&" in value else value


def attributes(tag: str) -> dict[str, str]:
    found = {}
    for m in _ATTR_PAIR.finditer(tag):
        value = m.group(2) if m.group(2) is not None else m.group(3)
        found[m.group(1)] = unescape(value) if "&" in value else value
    return found


def unescape(text: str) -> str:
    """XML text with its character and entity references replaced by what they stand for
    (the five entities XML itself defines; a workbook's XML declares no others)."""

    def replace(m: re.Match[str]) -> str:
        hexadecimal, decimal, name = m.groups()
        if name:
            return _ENTITIES[name]
        return chr(int(hexadecimal, 16) if hexadecimal else int(decimal))

    return _reference().sub(replace, text)


def escape_attr(value: str) -> str:
    """A value for a double- or single-quoted attribute, XML-escaped."""
    return value.translate(_ATTR_ESCAPES)


def set_attr(tag: str, name: str, value: str | None) -> str:
    """The tag with attribute `name` set to `value` (appended if new) or removed (None)."""
    kept, at = [], 0
    while (found := _attr_at(tag, name, at)) is not None:
        kept.append(tag[at : found[0]])
        at = found[1].end()
    tag = "".join(kept) + tag[at:] if kept else tag
    if value is None:
        return tag
    end = -2 if tag.endswith("/>") else -1
    return f'{tag[:end].rstrip()} {name}="{value}"{tag[end:]}'


def root_prefix(text: str, name: str) -> str:
    r"""'x:' when the document writes `<x:worksheet>`, '' for the usual default namespace.

    As the pattern `<([A-Za-z_][\w.-]*:)?name[\s>/]` finds it, by plain search for the
    name (a pattern for each name would be compiled at every start)."""
    at = text.find(name, 1)
    while at >= 0:
        after = text[at + len(name) : at + len(name) + 1]
        if after and (after.isspace() or after in ">/"):
            if text[at - 1] == "<":
                return ""
            begin = text.rfind("<", 0, at)
            if text[at - 1] == ":" and begin >= 0 and _prefix().fullmatch(text, begin + 1, at):
                return text[begin + 1 : at]
        at = text.find(name, at + 1)
    return ""


def remove_elements(text: str, name: str, match: Callable[[dict[str, str]], bool]) -> str:
    """Remove the empty elements `<name .../>` whose attributes satisfy `match`."""

    def keep(m: re.Match[str]) -> str:
        tag = m.group(0)
        return "" if tag.endswith("/>") and match(attributes(tag)) else tag

    return start_tag("", name).sub(keep, text)


Element = tuple[int, str, dict[str, str]]  # depth, `namespace}name`, its attributes


def elements(data: bytes) -> list[Element]:
    """The elements of a small XML part (a workbook's sheet list, relationships), in
    document order, the root at depth 0; names in `namespace}name` form. Entity
    declarations and references to outside files are refused (`expat.ExpatError`), so a
    damaged or malicious part cannot expand or fetch anything."""
    found: list[Element] = []
    depth = [0]

    def start(name: str, attributes: dict[str, str]) -> None:
        found.append((depth[0], name, attributes))
        depth[0] += 1

    def end(name: str) -> None:
        depth[0] -= 1

    parser = expat.ParserCreate(namespace_separator="}")
    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.EntityDeclHandler = parser.UnparsedEntityDeclHandler = _refuse
    parser.ExternalEntityRefHandler = _refuse
    parser.Parse(data, True)
    return found


def _refuse(*_: object) -> NoReturn:
    raise expat.ExpatError("entities are not allowed here")


# What expat raises for bytes it cannot read as XML: its own error, and for an encoding the
# part declares that it does not know (`encoding="UUTF-8"`) or cannot read (a multi-byte one).
NOT_XML = (expat.ExpatError, LookupError, ValueError)


def well_formed(data: bytes) -> bool:
    """Is this XML well-formed, with its prefixes bound (and no DTD)?"""
    parser = expat.ParserCreate(namespace_separator="}")

    def refuse_dtd(*_: object) -> None:
        raise expat.ExpatError("DTD")

    parser.StartDoctypeDeclHandler = refuse_dtd
    try:
        parser.Parse(data, True)
    except NOT_XML:
        return False
    return True


@functools.cache
def column_letters(column: int) -> str:
    """A sheet's column number as its letters: 1 -> A, 27 -> AA. The one home of column
    letters for keizer_xl (the rule book, which imports nothing, keeps a copy that a test
    holds to this one)."""
    letters = ""
    while column:
        column, rest = divmod(column - 1, 26)
        letters = chr(65 + rest) + letters
    return letters


@functools.cache
def column_number(letters: str) -> int:
    """A column's letters as its number, in either case: A -> 1, ab -> 28."""
    number = 0
    for ch in letters.upper():
        number = number * 26 + ord(ch) - 64
    return number


def decode_escapes(text: str) -> str:
    """Undo Excel's `_xHHHH_` escapes in stored text."""
    if "_x" not in text:
        return text
    return _escaped().sub(lambda m: chr(int(m.group(1), 16)), text)


def clean_text(text: str) -> str:
    """The text as stored: line breaks as \n, characters XML 1.0 forbids removed.

    Printable text (most) has none of these: it is kept as it is, without a search."""
    if text.isprintable():
        return text
    return _forbidden().sub("", text.replace("\r\n", "\n").replace("\r", "\n"))


@functools.cache
def _forbidden() -> re.Pattern[str]:
    """What XML 1.0 forbids, spelled out (its complement takes Python long to compile, and
    this 0.3 ms: compiled once text that is not printable comes)."""
    return re.compile("[\x00-\x08\x0b-\x1f\ud800-\udfff\ufffe\uffff]")


def escape_text(text: str) -> str:
    """Text for a `<t>` element: XML-escaped, and a literal `_xHHHH_` kept from being decoded."""
    if "_x" in text:
        text = _escaped().sub(lambda m: "_x005F" + m.group(0), text)
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def unfinished(buf: bytes, cut: int) -> bytes:
    """What is kept of a piece of XML cut after its last tag (`cut`) for the next piece:
    from a tag begun after it, if any (text after the last tag need not be kept)."""
    begun = buf.rfind(b"<", cut)
    return buf[begun:] if begun >= 0 else b""
