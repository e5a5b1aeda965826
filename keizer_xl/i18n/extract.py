"""How `make catalogs` finds the code's messages: the string literals a marked call receives,
read from the syntax tree (a Babel extraction method, named in `babel.cfg`).

Babel's own Python method reads tokens, not calls: since Babel 2.19 a marked name followed
by `[` (`self.reason[rows] = ...`) opens a "call" that swallows every string after it,
docstrings included, and Python 3.12 hands it the names inside f-strings as tokens too. In
the tree only a call is a call, so the messages found are the same whatever the Babel or
Python version, and a docstring can never become one.

Used only by the tools that make the catalogs; keizer_xl itself never imports it.
"""

from __future__ import annotations

import ast
from collections.abc import Collection, Iterator, Mapping
from typing import IO, Any

# What Babel expects of a method: (line, keyword, the call's arguments in their order, each
# a string or None where it is not one literal text, translator comments).
Found = tuple[int, str, tuple[str | None, ...], list[str]]


def marked_calls(
    fileobj: IO[bytes],
    keywords: Collection[str],
    comment_tags: Collection[str],
    options: Mapping[str, Any],
) -> Iterator[Found]:
    """Each call of a marked name, `name(...)` or `thing.name(...)`, with its arguments in the
    order written (positional, then by keyword), so that Babel's `-k name:N` picks the Nth."""
    tree = ast.parse(fileobj.read())
    found: list[Found] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Attribute):
            name = func.attr
        elif isinstance(func, ast.Name):
            name = func.id
        else:  # a call of what a call or a subscript gives
            continue
        if name not in keywords:
            continue
        arguments = sorted(
            [*node.args, *(k.value for k in node.keywords)], key=lambda a: (a.lineno, a.col_offset)
        )
        found.append((node.lineno, name, tuple(_text(a) for a in arguments), []))
    yield from sorted(found, key=lambda f: f[0])


def _text(argument: ast.expr) -> str | None:
    """The text of one literal (adjacent literals are one already; an f-string without
    values too); None for anything made at run time."""
    if isinstance(argument, ast.Constant):
        return argument.value if isinstance(argument.value, str) else None
    if isinstance(argument, ast.JoinedStr) and all(
        isinstance(v, ast.Constant) for v in argument.values
    ):
        return "".join(str(v.value) for v in argument.values if isinstance(v, ast.Constant))
    return None
