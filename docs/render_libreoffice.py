"""Draw docs/libreoffice.png, the picture of the buttons in LibreOffice Calc in the README and
the guide: the Players sheet with its buttons, and the message box of a refused Recalculate.

The workbook is what `keizer-xl new club.xlsm` makes from a member list, set up for
LibreOffice by `keizer-xl libreoffice --profile` in a throwaway profile. LibreOffice runs on
a virtual screen (Xvfb) with a window, because a message box is only drawn there: the
players are ticked present, Pair next round is clicked, results are typed with one typo,
Recalculate is clicked, and ImageMagick's `import` takes the screen while its message box
is up. This needs what the tests do without (they run LibreOffice headless): LibreOffice
with a screen backend (Debian's libreoffice-calc, not libreoffice-calc-nogui), xvfb and
imagemagick; without them it says so and draws nothing.

Usage: python docs/render_libreoffice.py [OUT.png]
"""

from __future__ import annotations

import csv
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_OUT = ROOT / "docs" / "libreoffice.png"
UNO_PYTHON = os.environ.get("KEIZER_UNO_PYTHON", "/usr/bin/python3")
DISPLAY = ":97"
SCREEN = (1280, 800)
CROP = "940x470+0+0"  # the sheet's columns A-J with the buttons, and the message box
MEMBERS = [
    ("Anna de Vries", 2100),
    ("Bram Jansen", 2055),
    ("Carla Bakker", 2010),
    ("Daan Visser", 1965),
    ("Eva Smit", 1920),
    ("Fleur Mulder", 1875),
    ("Gert de Boer", 1830),
    ("Hanna Bos", 1785),
    ("Joël Peters", 1740),
    ("Kees Hendriks", 1695),
    ("Lotte Dekker", 1650),
]
RESULTS = ["1-0", "l-0", "½-½", "0-1", "1-0"]  # round 1's five games, the second a typo

# Run by LibreOffice's Python (uno): argv PROFILE BOOK OUT WAIT. Opens the book in a window,
# ticks everyone present, clicks Pair next round, types the results, clicks Recalculate on
# another thread (its message box waits for OK) and takes the screen meanwhile.
CLICKS = """
import os, subprocess, sys, threading, time, uuid
from pathlib import Path
import uno
from com.sun.star.beans import PropertyValue
from com.sun.star.connection import NoConnectException

def prop(name, value):
    p = PropertyValue()
    p.Name, p.Value = name, value
    return p

profile, book, out, wait = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3], float(sys.argv[4])
results = sys.argv[5:]
pipe = "keizer_render_" + uuid.uuid4().hex
office = subprocess.Popen(["soffice", "-env:UserInstallation=" + profile.as_uri(), "--norestore",
    "--nologo", "--nodefault", "--accept=pipe,name=" + pipe + ";urp;"],
    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
local = uno.getComponentContext()
resolver = local.ServiceManager.createInstanceWithContext(
    "com.sun.star.bridge.UnoUrlResolver", local)
for _ in range(180):
    try:
        context = resolver.resolve("uno:pipe,name=" + pipe + ";urp;StarOffice.ComponentContext")
        break
    except NoConnectException:
        time.sleep(0.5)
desktop = context.ServiceManager.createInstanceWithContext("com.sun.star.frame.Desktop", context)
doc = desktop.loadComponentFromURL(book.as_uri(), "_blank", 0, (prop("MacroExecutionMode", 4),))
doc.getCurrentController().getFrame().getContainerWindow().setPosSize(0, 0, 1280, 800, 15)
players, rounds = doc.Sheets.getByIndex(0), doc.Sheets.getByIndex(1)
header = [players.getCellByPosition(c, 0).getString() for c in range(10)]
present = header.index("Present")
used = players.createCursor()
used.gotoEndOfUsedArea(False)
for row in range(1, used.RangeAddress.EndRow + 1):
    if players.getCellByPosition(0, row).getString():
        players.getCellByPosition(present, row).setString("x")
macros = {}
forms = players.DrawPage.Forms
for f in range(forms.Count):
    form = forms.getByIndex(f)
    for c in range(form.Count):
        for event in form.getScriptEvents(c):
            macros[event.ScriptCode.split("?")[0].rsplit(".", 1)[-1]] = event.ScriptCode
provider = doc.getScriptProvider()
provider.getScript(macros["PairNextRound"]).invoke((), (), ())
for row, result in enumerate(results, start=1):
    rounds.getCellByPosition(4, row).setString(result)
doc.getCurrentController().setActiveSheet(players)
doc.getCurrentController().select(players.getCellRangeByName("A1"))
threading.Thread(
    target=lambda: provider.getScript(macros["Recalculate"]).invoke((), (), ()), daemon=True
).start()
time.sleep(wait)
subprocess.run(["import", "-window", "root", out], check=True)
office.kill()
os._exit(0)
"""


def missing() -> list[str]:
    """What this machine lacks of what the picture needs."""
    lacking = [name for name in ("soffice", "Xvfb", "import", "convert") if not shutil.which(name)]
    program = Path(shutil.which("soffice") or "/usr/bin/soffice").resolve().parent
    if not list(program.glob("libvclplug_*")):
        lacking.append("LibreOffice with a screen backend (libreoffice-calc, not -nogui)")
    if not Path(UNO_PYTHON).exists():
        lacking.append(f"{UNO_PYTHON} with LibreOffice's uno")
    return lacking


def quiet_profile(profile: Path) -> None:
    """A new profile, made by a headless start, without the dialogs of a first start on a
    screen (the tip of the day), which would wait for a click before the workbook opens."""
    subprocess.run(
        [
            "soffice",
            f"-env:UserInstallation={profile.as_uri()}",
            "--headless",
            "--terminate_after_init",
        ],
        check=True,
        timeout=120,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    settings = profile / "user" / "registrymodifications.xcu"
    text = settings.read_text(encoding="utf-8")
    tip = (
        '<item oor:path="/org.openoffice.Office.Common/Misc"><prop oor:name="ShowTipOfTheDay" '
        'oor:op="fuse"><value>false</value></prop></item>\n'
    )
    settings.write_text(text.replace("</oor:items>", tip + "</oor:items>"), encoding="utf-8")


def render(out: Path) -> None:
    with tempfile.TemporaryDirectory() as temp:
        folder = Path(temp)
        members = folder / "members.csv"
        with members.open("w", newline="", encoding="utf-8") as handle:
            writer = csv.writer(handle)
            writer.writerow(["Name", "Rating"])
            writer.writerows(MEMBERS)
        book = folder / "club.xlsm"
        keizer = [sys.executable, "-m", "keizer_xl.cli"]
        subprocess.run([*keizer, "new", str(book), "--players", str(members)], check=True)
        profile = folder / "profile"
        quiet_profile(profile)
        setup = [*keizer, "libreoffice", "--profile", str(profile)]
        subprocess.run(setup, check=True, stdout=subprocess.DEVNULL)
        screen = subprocess.Popen(
            ["Xvfb", DISPLAY, "-screen", "0", f"{SCREEN[0]}x{SCREEN[1]}x24"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            time.sleep(1)
            shot = folder / "screen.png"
            args = [str(profile), str(book), str(shot), "8", *RESULTS]
            subprocess.run(
                [UNO_PYTHON, "-c", CLICKS, *args],
                check=True,
                timeout=300,
                env={**os.environ, "DISPLAY": DISPLAY},
            )
            subprocess.run(["convert", str(shot), "-crop", CROP, "+repage", "-strip", str(out)])
        finally:
            screen.kill()
            screen.wait()


def main() -> int:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT_OUT
    lacking = missing()
    if lacking:
        print(f"docs/render_libreoffice.py draws nothing: this machine lacks {', '.join(lacking)}")
        return 0
    render(out)
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
