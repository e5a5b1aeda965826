"""A built wheel, installed into a fresh virtual environment and used from there as a
secretary would: `keizer-xl demo`, `new club.xlsx --lite`, `lite club.xlsx`, `new club.xlsm`
(the desktop and LibreOffice buttons) and `libreoffice` (its macro, from the wheel). The release
workflow runs this on Windows, macOS and Linux before anything is published; the `programs`
test in test_dist.py runs it on the wheel it builds.

`python tests/ship/wheel.py DIST/keizer_xl-X.Y.Z-py3-none-any.whl` installs the wheel with
its dependencies from the package index. `--beside SITE` instead installs the wheel alone
and lets the fresh environment see the dependencies already installed in SITE (a folder of
another environment's site-packages), so that no registry is asked; keizer_xl itself still
comes only from the wheel. `--pyodide` instead loads the wheel inside Pyodide (in node,
as the tests run Pyodide: `make pyodide` first) and imports every module of it there.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import venv
from pathlib import Path
from typing import Any

SOURCE = Path(__file__).resolve().parents[2]
INSIDE = Path(__file__).with_name("installed.py")
LANGUAGES = ("en", "nl", "de", "it")


def fresh_environment(folder: Path) -> Path:
    """A new virtual environment with pip; its Python."""
    venv.create(folder, with_pip=True)
    scripts = "Scripts" if os.name == "nt" else "bin"
    return folder / scripts / ("python.exe" if os.name == "nt" else "python")


def site_packages(python: Path) -> Path:
    done = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    )
    return Path(done.stdout.strip())


def install(python: Path, wheel: Path, beside: Path | None) -> None:
    pip = [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    if beside is None:
        subprocess.run([*pip, str(wheel)], check=True)
        return
    # a plain folder in a .pth joins the path after the environment's own site-packages:
    # the dependencies are found there, keizer_xl in the fresh environment first
    (site_packages(python) / "dependencies.pth").write_text(f"{beside}\n", encoding="utf-8")
    subprocess.run([*pip, "--no-deps", "--no-index", str(wheel)], check=True)


def program(python: Path) -> Path:
    """The `keizer-xl` command the wheel's entry point made."""
    return python.with_name("keizer-xl.exe" if os.name == "nt" else "keizer-xl")


def inspected(found: dict[str, Any], wheel_version: str) -> list[str]:
    """What is wrong with keizer_xl as installed.py found it."""
    problems = []
    if found["from_source"] or not found["installed"]:
        problems.append(f"keizer_xl was imported from {found['package']}, not the wheel")
    if found["version"] != wheel_version:
        problems.append(
            f"keizer_xl.__version__ is {found['version']}, the wheel's name says {wheel_version}"
        )
    problems += [f"{name} does not import: {why}" for name, why in found["failed"].items()]
    wanted_templates = sorted(
        str(p.relative_to(SOURCE / "templates")).replace("\\", "/")
        for p in (SOURCE / "templates").rglob("*")
        if p.is_file()
    )
    if not set(wanted_templates) <= set(found["templates"]):
        problems.append(
            f"templates missing from the wheel: "
            f"{sorted(set(wanted_templates) - set(found['templates']))}"
        )
    catalogs = {f"{language}/LC_MESSAGES/keizer_xl.mo" for language in LANGUAGES[1:]}
    if not catalogs <= set(found["catalogs"]):
        problems.append(
            f"catalogs missing from the wheel: {sorted(catalogs - set(found['catalogs']))}"
        )
    made = found["lite_workbooks"]
    problems += [
        f"no Lite workbook in {language}: {made.get(language, 'not tried')}"
        for language in LANGUAGES
        if not isinstance(made.get(language), int) or made[language] <= 0
    ]
    return problems


def check(python: Path, wheel_version: str, work: Path) -> list[str]:
    """What is wrong with the installed keizer-xl, run from `work` (outside the source)."""
    done = subprocess.run(
        [str(python), str(INSIDE), str(SOURCE)],
        cwd=work,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        return [f"installed.py failed:\n{done.stderr}"]
    problems = inspected(json.loads(done.stdout), wheel_version)

    def command(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(program(python)), *args],
            cwd=work,
            capture_output=True,
            text=True,
            encoding="utf-8",
            check=False,
            env={**os.environ, "PYTHONUTF8": "1", "COLUMNS": "120"},
        )

    version = command("--version")
    if wheel_version not in version.stdout:
        problems.append(f"keizer-xl --version says {version.stdout!r}{version.stderr}")
    demo = command("demo")
    if demo.returncode != 0 or not (work / "keizer_demo.xlsx").exists():
        problems.append(f"keizer-xl demo failed ({demo.returncode}):\n{demo.stdout}{demo.stderr}")
    for language in LANGUAGES:
        name = f"club_{language}.xlsx"
        made = command("new", name, "--lite", "--lang", language)
        if made.returncode != 0 or not (work / name).exists():
            problems.append(
                f"keizer-xl new {name} --lite --lang {language} failed:\n{made.stdout}{made.stderr}"
            )
            continue
        lite = command("lite", name)
        if (
            lite.returncode != 0
            or f"keizer-xl=={wheel_version}" not in lite.stdout
            or "keizer_xl.lite" not in lite.stdout
        ):
            problems.append(
                f"keizer-xl lite {name} does not give this version's code:\n"
                f"{lite.stdout}{lite.stderr}"
            )
    desktop = command("new", "club.xlsm")
    if desktop.returncode != 0 or not (work / "club.xlsm").exists():
        problems.append(f"keizer-xl new club.xlsm failed:\n{desktop.stdout}{desktop.stderr}")
    profile = work / "libreoffice-profile"
    setup = command("libreoffice", "--profile", str(profile))
    macro = profile / "user" / "Scripts" / "python" / "keizer_xl_buttons.py"
    if setup.returncode != 0 or not macro.exists():
        problems.append(f"keizer-xl libreoffice failed:\n{setup.stdout}{setup.stderr}")
    elif f"PYTHON = {str(python)!r}" not in macro.read_text(encoding="utf-8"):
        problems.append(f"the LibreOffice macro does not run keizer_xl with {python}")
    return problems


def check_in_pyodide(wheel: Path, work: Path) -> list[str]:
    """What is wrong with the wheel loaded inside Pyodide, from `work`."""
    setup = subprocess.run(
        [sys.executable, str(SOURCE / ".ci" / "pyodide-setup"), "--print-dir"],
        capture_output=True,
        text=True,
        check=False,
    )
    if setup.returncode != 0:
        return [f"Pyodide could not be set up:\n{setup.stderr}"]
    done = subprocess.run(
        [
            "node",
            str(SOURCE / "tests" / "pyodide" / "run.mjs"),
            "--release",
            setup.stdout.strip(),
            "--mount",
            str(wheel.parent),
            "--",
            str(INSIDE),
            str(SOURCE),
            str(wheel),
        ],
        cwd=work,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        return [f"installed.py failed inside Pyodide:\n{done.stdout}{done.stderr}"]
    return inspected(json.loads(done.stdout.strip().splitlines()[-1]), wheel_version(wheel))


def wheel_version(wheel: Path) -> str:
    return wheel.name.split("-")[1]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="tests/ship/wheel.py", description=__doc__)
    parser.add_argument("wheel", type=Path)
    parser.add_argument(
        "--beside", type=Path, help="another environment's site-packages holding the dependencies"
    )
    parser.add_argument("--pyodide", action="store_true", help="load the wheel in Pyodide")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="keizer-xl-wheel-") as tmp:
        if args.pyodide:
            problems = check_in_pyodide(args.wheel.resolve(), Path(tmp))
            where = "loaded in Pyodide, every module imports from it"
        else:
            python = fresh_environment(Path(tmp) / "venv")
            install(python, args.wheel.resolve(), args.beside)
            work = Path(tmp) / "club"
            work.mkdir()
            problems = check(python, wheel_version(args.wheel), work)
            where = (
                "installed in a fresh environment, keizer-xl demo, new --lite and lite work from it"
            )
    for problem in problems:
        print(problem, file=sys.stderr)
    if not problems:
        print(f"{args.wheel.name}: {where}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
