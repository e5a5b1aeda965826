"""Messages for the secretary, said in English here and in the workbook's language by the
shells.

The rule book keeps to the standard library, so it cannot look anything up in a catalog;
instead each message it makes is a `Message`: a plain str reading as English (so it can be
compared, logged and tested as text) that also carries its template and values. A shell
says it in another language with `Message.said_as`, translating the template (the gettext
message id, found by Babel under the keyword `msg`) and then filling in the values, which
may be messages themselves or the workbook's own names (`Name`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


class Tongue:
    """How a shell speaks a language: `text` translates a template, `name` writes one of
    the workbook's names (a sheet, header or setting) as that language's workbooks do."""

    def text(self, template: str) -> str:
        return template

    def name(self, name: str, kind: str) -> str:
        return name


ENGLISH = Tongue()


class Message(str):
    """A message: reads as its English text, and carries what is needed to say it in
    another language."""

    template: str
    values: dict[str, Any]

    def __new__(cls, template: str, /, **values: Any) -> Message:
        self = super().__new__(cls, template.format(**values) if values else template)
        self.template, self.values = template, values
        return self

    def said_as(self, tongue: Tongue) -> str:
        """The message in the tongue's language (plain str)."""
        values = {key: said(value, tongue) for key, value in self.values.items()}
        return tongue.text(self.template).format(**values) if values else tongue.text(self.template)

    def __reduce__(self) -> tuple[Any, ...]:  # kept whole across processes
        return (_remade, (type(self), self.template, self.values))


def _remade(kind: type[Message], template: str, values: dict[str, Any]) -> Message:
    return kind(template, **values)


def msg(template: str, /, **values: Any) -> Message:
    """A message for the secretary; the template is its English text, with {named} values."""
    return Message(template, **values)


class Name(Message):
    """One of the workbook's names inside a message, written as the workbook's language
    writes it: `kind` is "name" (a sheet or header), "setting", or "rest" (the word of a bye
    or absence row: bye, excused, club, unexcused)."""

    def __new__(cls, name: str, kind: str = "name") -> Name:
        self = str.__new__(cls, name)
        self.template, self.values, self.kind = name, {}, kind
        return self

    kind: str

    def said_as(self, tongue: Tongue) -> str:
        return tongue.name(self.template, self.kind)

    def __reduce__(self) -> tuple[Any, ...]:
        return (Name, (self.template, self.kind))


class Joined(Message):
    """Messages (or plain texts) joined by a separator, each said in the tongue's language."""

    def __new__(cls, separator: str, parts: Iterable[str]) -> Joined:
        items = tuple(parts)
        self = str.__new__(cls, separator.join(items))
        self.template, self.values = separator, {}
        self.parts = items
        return self

    parts: tuple[str, ...]

    def said_as(self, tongue: Tongue) -> str:
        return self.template.join(said(part, tongue) for part in self.parts)

    def __reduce__(self) -> tuple[Any, ...]:
        return (Joined, (self.template, self.parts))


def said(text: object, tongue: Tongue) -> Any:
    """A message in the tongue's language; anything else (a player's name, a number) as it
    is."""
    return text.said_as(tongue) if isinstance(text, Message) else text


def listed(names: Iterable[str]) -> Message:
    """`Anna, Bram and Carla` (the last joined by the language's `and`)."""
    items = list(names)
    if len(items) <= 1:
        return Joined("", items)
    return msg("{some} and {last}", some=Joined(", ", items[:-1]), last=items[-1])
