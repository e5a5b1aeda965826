"""How hard the property tests try: Hypothesis profiles, one for each loop.

- `full` (the default, and what `make test` and CI run): every property tries as many
  examples as its test asks for.
- `check` (`make check`, `pytest --hypothesis-profile check`): a fifth of them, so the
  fast loop stays about a minute; the full run still tries every one.

A test that asks for its own number of examples says it through `examples`, so that the
profile scales it too (a number given to `settings` directly would override the profile).
"""

from __future__ import annotations

from hypothesis import settings

FULL = 100  # Hypothesis's own default number of examples, the full profile's
settings.register_profile("full", max_examples=FULL)
settings.register_profile("check", max_examples=FULL // 5)


def examples(full: int) -> int:
    """The examples a property tries under the profile loaded, when it tries `full` of them
    under the full one (at least two)."""
    return max(2, full * settings.default.max_examples // FULL)
