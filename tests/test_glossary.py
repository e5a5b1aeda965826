"""The glossary (docs/glossary.md) names the code a Keizer word lives in: every such name
must exist, so that a rename in the code is a rename on that page too."""

from __future__ import annotations

import dataclasses
import importlib
import re
from pathlib import Path

import pytest

GLOSSARY = Path(__file__).resolve().parents[1] / "docs" / "glossary.md"
CODE_NAME = re.compile(r"`(keizer_xl(?:\.\w+)+)`")


def resolve(dotted: str) -> object:
    """The object a dotted name is: its longest importable module, then attributes; a field
    of a dataclass without a default counts too. LookupError when there is none."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            found: object = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for name in parts[cut:]:
            fields = (
                {f.name: f for f in dataclasses.fields(found)}
                if (isinstance(found, type) and dataclasses.is_dataclass(found))
                else {}
            )
            if hasattr(found, name):
                found = getattr(found, name)
            elif name in fields:
                found = fields[name]
            else:
                raise LookupError(f"{dotted}: no {name} in {'.'.join(parts[:cut])}")
        return found
    raise LookupError(f"{dotted}: no such module")


def test_every_code_name_in_the_glossary_exists() -> None:
    names = CODE_NAME.findall(GLOSSARY.read_text(encoding="utf-8"))
    assert len(names) > 40  # the page still names the code
    missing = []
    for name in names:
        try:
            resolve(name)
        except LookupError as exc:
            missing.append(str(exc))
    assert not missing, "the glossary names code that is not there:\n" + "\n".join(missing)


@pytest.mark.parametrize(
    "name",
    [
        "keizer_xl.core.model.Absence.HOLIDAY",  # no such member
        "keizer_xl.core.settings.Settings.rematch",  # no such field
        "keizer_xl.core.scoring.Standing.worth",  # a dataclass without that field
        "keizer_xl.core.pairs.pair_round",  # no such module
    ],
)
def test_a_name_that_is_not_there_is_found_out(name: str) -> None:
    with pytest.raises(LookupError):
        resolve(name)


def test_names_of_every_kind_resolve() -> None:
    from keizer_xl.core.model import Absence, Player

    assert resolve("keizer_xl.core.model.Absence.BYE") is Absence.BYE
    assert resolve("keizer_xl.core.model.Player") is Player
    field = resolve("keizer_xl.core.model.Player.name")  # a field without a default
    assert isinstance(field, dataclasses.Field) and field.name == "name"
