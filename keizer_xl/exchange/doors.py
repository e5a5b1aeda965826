"""What the file doors share while they read a file record by record: the register of the
names taken in so far (a name met twice is refused, naming where it was first) and the
notes an import leaves for the secretary, so that every door says them the same way."""

from __future__ import annotations

from typing import Generic, TypeVar

from keizer_xl.core.messages import msg
from keizer_xl.core.model import name_key

Place = TypeVar("Place")


class NameRegister(Generic[Place]):
    """The names a door has taken in, compared as the Players sheet compares them
    (`name_key`), each with the place (line, id, record) it was first met."""

    def __init__(self) -> None:
        self._first: dict[str, Place] = {}

    def take(self, name: str, place: Place) -> Place | None:
        """Take `name` in at `place`; when it was taken before, the place it was first met
        (and `name` is not taken again)."""
        key = name_key(name)
        if key in self._first:
            return self._first[key]
        self._first[key] = place
        return None


def open_games_note(count: int, last_round: int) -> str | None:
    """The note after an import whose last round still has games without a result."""
    if not count:
        return None
    return (
        msg(
            "1 game of round {round} without a result: type it in the Rounds sheet",
            round=last_round,
        )
        if count == 1
        else msg(
            "{count} games of round {round} without a result: type them in the Rounds sheet",
            count=count,
            round=last_round,
        )
    )
