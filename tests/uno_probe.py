"""Open a workbook in headless LibreOffice and print, as JSON, what its macros look like there.

Run with the system Python that has LibreOffice's `uno` module (not the project's venv):
    python3 tests/uno_probe.py BOOK.xlsm

Prints {"libraries": {library: {module: source}}, "vba_mode": bool,
"buttons": [{"sheet", "label", "events": [{"listener", "method", "type", "code"}]}]}.
It starts its own soffice with a throwaway profile and stops that process at the end.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from uno_office import form_buttons, load, office


def _libraries(doc: Any) -> dict[str, dict[str, str]]:
    found: dict[str, dict[str, str]] = {}
    container = doc.BasicLibraries
    for name in container.getElementNames():
        container.loadLibrary(name)
        library = container.getByName(name)
        found[name] = {module: library.getByName(module) for module in library.getElementNames()}
    return found


def _buttons(doc: Any) -> list[dict[str, Any]]:
    return [
        {
            "sheet": sheet,
            "label": getattr(control, "Label", "") if hasattr(control, "Label") else "",
            "events": [
                {
                    "listener": event.ListenerType,
                    "method": event.EventMethod,
                    "type": event.ScriptType,
                    "code": event.ScriptCode,
                }
                for event in events
            ],
        }
        for sheet, control, events in form_buttons(doc)
    ]


def probe(book: Path) -> dict[str, Any]:
    """Load `book` hidden and report its Basic/VBA libraries and form buttons."""
    with office() as desktop:
        doc = load(desktop, book, macros=False)
        try:
            return {
                "libraries": _libraries(doc),
                "vba_mode": bool(doc.BasicLibraries.VBACompatibilityMode),
                "buttons": _buttons(doc),
            }
        finally:
            doc.close(True)


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    print(json.dumps(probe(Path(sys.argv[1])), indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
