"""A file's name as it is typed after a suggested command (`keizer-xl unlock NAME`).

Every message that suggests a command names its file through `typed`, so the command
works when the secretary pastes it: here, because the lock messages of `safety` suggest
`keizer-xl unlock`, and every shell above names its files through it too.
"""

from __future__ import annotations

import shlex
from pathlib import PurePath

_PLAIN = frozenset("-_./\\:+,=@%")  # characters no shell splits on or changes


def typed(file: PurePath | str) -> str:
    """The name in double quotes when it holds a space or another character a shell would
    split on or change (`keizer-xl pair "Interne 2025-26.xlsx"`), as it is otherwise.
    Double quotes work alike in the Windows command prompt, PowerShell and the shells of
    macOS and Linux; a name with a character that is special even inside them (`"`, `$`,
    a backquote, `!`) is quoted as the shells of macOS and Linux want."""
    name = str(file)
    if name and all(ch.isalnum() or ch in _PLAIN for ch in name):
        return name
    if not set(name) & set('"$`!'):
        return f'"{name}"'
    return shlex.quote(name)
