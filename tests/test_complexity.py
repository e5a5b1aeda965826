"""Complexity, not length, says when a function should be split: no function of the package
above radon's grade D (cyclomatic complexity 30). A module may be long when it is one job.

ruff's C901 (max-complexity 30 in pyproject) counts only branches, so it passes functions
radon grades E or F (radon also counts each `and`/`or` and each comprehension's `if`); this
test holds radon's count, the one the grades are defined by.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from radon.complexity import cc_visit
from radon.visitors import Function

PACKAGE = Path(__file__).resolve().parents[1] / "keizer_xl"
MOST = 30  # the top of grade D


def complexities(source: str) -> Iterator[tuple[str, int]]:
    """(name, radon's cyclomatic complexity) of each function and method in `source`."""
    for block in cc_visit(source):  # methods come as functions too, beside their class
        if isinstance(block, Function):
            yield block.fullname, block.complexity


def too_complex(root: Path) -> dict[str, int]:
    """Each function above grade D under `root`, as "path:name" -> complexity."""
    found: dict[str, int] = {}
    for path in sorted(root.rglob("*.py")):
        where = path.relative_to(root).as_posix()
        for name, complexity in complexities(path.read_text(encoding="utf-8")):
            if complexity > MOST:
                found[f"{where}:{name}"] = complexity
    return found


def test_no_function_above_grade_d() -> None:
    found = too_complex(PACKAGE)
    assert not found, f"split these into steps (cyclomatic complexity above {MOST}): {found}"


def branches(count: int) -> str:
    """A function with `count` + 1 paths: one `if` per branch."""
    lines = ["def many(x):"] + [f"    if x == {k}:\n        return {k}" for k in range(count)]
    return "\n".join([*lines, "    return -1", ""])


@pytest.mark.parametrize(("count", "over"), [(MOST - 1, False), (MOST, True)])
def test_the_check_sees_a_function_over_the_line(tmp_path: Path, count: int, over: bool) -> None:
    (tmp_path / "door.py").write_text(branches(count), encoding="utf-8")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "kind.py").write_text(
        "class Door:\n"
        + "\n".join("    " + line for line in branches(count).splitlines()).replace(
            "(x)", "(self, x)"
        ),
        encoding="utf-8",
    )
    assert too_complex(tmp_path) == (
        {"door.py:many": MOST + 1, "sub/kind.py:Door.many": MOST + 1} if over else {}
    )
