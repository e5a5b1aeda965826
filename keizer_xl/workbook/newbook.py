"""Making a fresh competition workbook from the template (`keizer-xl new`)."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path


def create(path: Path, players: Sequence[Mapping[str, object]] = (),
           fill: Callable[[Path], None] | None = None, language: str = "en") -> None:
    """Write a new workbook: .xlsx plain, .xlsm with the VBA module and the two buttons.

    Built beside the target and moved into place, so a failure leaves nothing half-made.
    `fill`, if given, writes more into the new workbook (rounds, own columns, standings)
    before it is moved into place. `language`: the workbook's language ("en", "nl").
    """
    from keizer_xl.workbook.template import CODE_NAMES, build_template

    vba = None
    if path.suffix.lower() == ".xlsm":
        from keizer_xl.workbook.vba import vba_project

        vba = vba_project(sheets=CODE_NAMES)  # one document module per sheet, as Excel keeps
    folder = path.resolve().parent
    fd, tmp = tempfile.mkstemp(prefix=f".~{path.stem}.", suffix=path.suffix, dir=folder)
    os.close(fd)
    try:
        build_template(Path(tmp), players, vba_project=vba, language=language)
        if fill is not None:
            fill(Path(tmp))
        mask = os.umask(0)
        os.umask(mask)
        os.chmod(tmp, 0o666 & ~mask)  # an ordinary file, not mkstemp's private one
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
