"""The workbook every writer test starts from."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers_package import WORKBOOKS, copy_fixture


@pytest.fixture(params=WORKBOOKS)
def club(request: pytest.FixtureRequest, tmp_path: Path) -> Path:
    """A copy of a fixture workbook (XlsxWriter-made, then LibreOffice-saved)."""
    return copy_fixture(request.param, tmp_path)
