"""The VBA project's modules and streams (MS-OVBA), put together as vbaProject.bin.

The module texts (templates/vba/ and the installed xlwings' standalone modules) become the
stored sources, the dir, PROJECT and PROJECTwm streams describe them, and the streams go
into a Compound File (`compound`), dir and the modules compressed (`compression`). The
project carries no compiled code, so Excel compiles the source text when it opens it. Every
module is first checked to compile in LibreOffice as well (`portable`), and the bridge's
messages are written in the workbook's language.
"""

from __future__ import annotations

import hashlib
import importlib.resources
import io
import re
import struct
import uuid
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from keizer_xl.i18n import translate
from keizer_xl.workbook.buttons import BUTTONS
from keizer_xl.workbook.vba.compound import compound_file
from keizer_xl.workbook.vba.compression import compress
from keizer_xl.workbook.vba.portable import check_portable, make_portable

MACROS = tuple(button.macro for button in BUTTONS)
"""The macros in templates/vba/KeizerXL.bas that the workbook's buttons run."""

PROJECT_NAME = "VBAProject"
CODE_PAGE = 1252
WORKBOOK_CODENAME = "ThisWorkbook"

# VB_Base of document and class modules: the type each one extends (MS-OVBA, and what the
# VBA editor writes): Excel's Workbook and Worksheet, and a plain class.
_BASE_WORKBOOK = "0{00020819-0000-0000-C000-000000000046}"
_BASE_WORKSHEET = "0{00020820-0000-0000-C000-000000000046}"
_BASE_CLASS = "0{FCFB3D2A-A0FA-1068-A738-08002B3371B5}"

# The two references a new Excel project has besides the implicit VBA and Excel libraries.
_REFERENCES = (
    (
        "stdole",
        "*\\G{00020430-0000-0000-C000-000000000046}#2.0#0#"
        "C:\\Windows\\System32\\stdole2.tlb#OLE Automation",
    ),
    (
        "Office",
        "*\\G{2DF8D04C-5BFA-101B-BDE5-00AA0044DE52}#2.0#0#"
        "C:\\Program Files\\Common Files\\Microsoft Shared\\OFFICE16\\MSO.DLL#"
        "Microsoft Office 16.0 Object Library",
    ),
)

_PROCEDURAL, _CLASS, _DOCUMENT = "Module", "Class", "Document"
_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]{0,30}\Z")
_ATTRIBUTE = re.compile(r"Attribute (VB_\w+) = (.*)\Z")


# --- the module texts ------------------------------------------------------------------


def _templates_root() -> Path:
    """templates/ of an installed wheel (keizer_xl/templates) or of the source tree."""
    try:
        packaged = importlib.resources.files("keizer_xl") / "templates"
        if packaged.is_dir():
            return Path(str(packaged))
    except (ModuleNotFoundError, NotADirectoryError):  # pragma: no cover - odd installs
        pass
    return Path(__file__).resolve().parents[3] / "templates"


def _read_modules(files: Iterable[Path]) -> dict[str, str]:
    """Module name (the file stem, as VBA's Export names files) to text."""
    found: dict[str, str] = {}
    for path in sorted(files, key=lambda p: p.name.lower()):
        if path.suffix.lower() in (".bas", ".cls"):
            found[path.stem] = path.read_bytes().decode("cp1252")
    return found


def template_modules(folder: Path | None = None) -> dict[str, str]:
    """The project's own modules: every .bas and .cls in templates/vba/."""
    root = folder if folder is not None else _templates_root() / "vba"
    modules = _read_modules(root.iterdir())
    if not modules:
        raise FileNotFoundError(f"no .bas or .cls files in {root}")
    return modules


def xlwings_modules(*, as_installed: bool = False) -> dict[str, str]:
    """The xlwings standalone VBA (RunPython and its helpers) from the installed package,
    rewritten so that LibreOffice compiles it too (`portable`), or `as_installed`."""
    package = importlib.resources.files("xlwings")
    texts = {
        "xlwings": (package / "xlwings.bas").read_bytes(),
        "Dictionary": (package / "addin" / "Dictionary.cls").read_bytes(),
    }
    modules = {name: data.decode("cp1252") for name, data in texts.items()}
    if as_installed:
        return modules
    return {name: make_portable(name, text) for name, text in modules.items()}


def bridge_messages(language: str) -> dict[str, str]:
    """The texts templates/vba/LibreOfficeBridge.bas shows, by the name of their placeholder
    (`"{NAME}"` in the module), in the workbook's language; and that language's code, which
    the bridge passes to keizer_xl's Python macro with the document."""
    return {
        "NOT_INSTALLED": translate(
            "The buttons need keizer_xl's macro for LibreOffice, which is not installed on "
            "this computer. Run keizer-xl libreoffice once on this computer, and check that "
            "LibreOffice's macro security lets this workbook's macros run.",
            language,
        ),
        "BUTTON_FAILED": translate("The button could not do its work:", language),
        # not a message: the language itself, passed on to keizer_xl's Python macro
        "WORKBOOK_LANGUAGE": language,
    }


def fill_messages(name: str, text: str, language: str) -> str:
    """The module with each message placeholder replaced by a VBA string of its text.

    VBA source is Windows-1252 text with `"` doubled inside a string: a translation that
    cannot be written so is refused here, naming it, rather than stored garbled."""
    for key, message in bridge_messages(language).items():
        placeholder = f'"{{{key}}}"'
        if placeholder not in text:
            continue
        try:
            message.encode("cp1252")
        except UnicodeEncodeError as exc:
            raise ValueError(f"{name}: the {language} text of {key} is not Windows-1252") from exc
        text = text.replace(placeholder, '"' + message.replace('"', '""') + '"')
    return text


@dataclass(frozen=True)
class _Module:
    name: str
    kind: str
    source: bytes  # the text as the VBA editor stores it: attributes first, CRLF lines


def _split_header(name: str, text: str) -> tuple[bool, list[tuple[str, str]], list[str]]:
    """Split an exported module into (is a class, leading attributes, body lines).

    A .cls export starts with a VERSION/BEGIN...END block that the editor keeps outside
    the stored source; the leading `Attribute VB_...` lines are kept (VB_Name dropped here
    and written again from the module's name).
    """
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    is_class = False
    if lines and lines[0].upper().startswith("VERSION ") and lines[0].upper().endswith("CLASS"):
        is_class = True
        end = next((i for i, line in enumerate(lines) if line.strip().upper() == "END"), None)
        if end is None:
            raise ValueError(f"{name}: class header without END")
        lines = lines[end + 1 :]
    attributes: list[tuple[str, str]] = []
    while lines and (match := _ATTRIBUTE.match(lines[0])):
        key, value = match.group(1), match.group(2)
        if key == "VB_Name":
            if value != f'"{name}"':
                raise ValueError(f"{name}: its Attribute VB_Name says {value}")
        else:
            attributes.append((key, value))
        lines.pop(0)
    return is_class, attributes, lines


def _module(name: str, text: str, base: str | None = None) -> _Module:
    """One module's stored source; `base` makes it the document module of a sheet/workbook."""
    if not _NAME.match(name):
        raise ValueError(f"{name!r} is not a VBA module name")
    is_class, attributes, body = _split_header(name, text)
    head = [f'Attribute VB_Name = "{name}"']
    if base is not None or is_class:
        # The order the VBA editor stores for document and class modules.
        given = dict(attributes)
        document = base is not None
        standard = {
            "VB_Base": f'"{base or _BASE_CLASS}"',
            "VB_GlobalNameSpace": given.get("VB_GlobalNameSpace", "False"),
            "VB_Creatable": given.get("VB_Creatable", "False"),
            "VB_PredeclaredId": "True" if document else given.get("VB_PredeclaredId", "False"),
            "VB_Exposed": "True" if document else given.get("VB_Exposed", "False"),
            "VB_TemplateDerived": given.get("VB_TemplateDerived", "False"),
            "VB_Customizable": "True" if document else given.get("VB_Customizable", "False"),
        }
        head += [f"Attribute {key} = {value}" for key, value in standard.items()]
        attributes = [(key, value) for key, value in attributes if key not in standard]
    head += [f"Attribute {key} = {value}" for key, value in attributes]
    text_lines = head + body
    try:
        source = ("\r\n".join(text_lines) + "\r\n").encode("cp1252")
    except UnicodeEncodeError as exc:
        raise ValueError(f"{name}: VBA source must be Windows-1252 text ({exc})") from exc
    kind = _DOCUMENT if base is not None else _CLASS if is_class else _PROCEDURAL
    return _Module(name, kind, source)


def _u16(value: int) -> bytes:
    return struct.pack("<H", value)


def _u32(value: int) -> bytes:
    return struct.pack("<I", value)


# --- MS-OVBA 2.4.3: the obfuscated protection values in the PROJECT stream ----------------


def _encrypt(project_id: str, data: bytes, seed: int) -> str:
    """Data Encryption (MS-OVBA 2.4.3.2): CMG, DPB and GC must be keyed to the project ID."""
    key = sum(project_id.encode("cp1252")) & 0xFF
    version_enc = seed ^ 2
    key_enc = seed ^ key
    out = [seed, version_enc, key_enc]
    plain1, enc1, enc2 = key, key_enc, version_enc
    ignored = [0] * ((seed & 6) // 2)
    for byte in [*ignored, *struct.pack("<I", len(data)), *data]:
        byte_enc = byte ^ ((enc2 + plain1) & 0xFF)
        out.append(byte_enc)
        enc2, enc1, plain1 = enc1, byte_enc, byte
    return bytes(out).hex().upper()


# --- the streams of the project --------------------------------------------------------


def _record(record_id: int, payload: bytes) -> bytes:
    return struct.pack("<HI", record_id, len(payload)) + payload


def _text_record(record_id: int, unicode_id: int, text: str) -> bytes:
    """A record with an MBCS string, followed by its UTF-16 twin under a second id."""
    return _record(record_id, text.encode("cp1252")) + _record(unicode_id, text.encode("utf-16-le"))


def _dir_stream(modules: Sequence[_Module]) -> bytes:
    """The dir stream (MS-OVBA 2.3.4.2), uncompressed."""
    out = bytearray()
    out += _record(0x0001, _u32(3))  # SYSKIND: 64-bit Windows, as current Excel writes
    out += _record(0x0002, _u32(0x0409))  # LCID
    out += _record(0x0014, _u32(0x0409))  # LCIDINVOKE
    out += _record(0x0003, _u16(CODE_PAGE))
    out += _record(0x0004, PROJECT_NAME.encode("cp1252"))
    out += _text_record(0x0005, 0x0040, "")  # DOCSTRING
    out += _text_record(0x0006, 0x003D, "")  # HELPFILEPATH (twice, the second as "Unicode")
    out += _record(0x0007, _u32(0))  # HELPCONTEXT
    out += _record(0x0008, _u32(0))  # LIBFLAGS
    out += struct.pack("<HIIH", 0x0009, 4, 1, 0)  # VERSION: its size field is fixed at 4
    out += _text_record(0x000C, 0x003C, "")  # CONSTANTS
    for name, libid in _REFERENCES:
        out += _text_record(0x0016, 0x003E, name)
        raw = libid.encode("cp1252")
        out += _record(0x000D, _u32(len(raw)) + raw + _u32(0) + _u16(0))
    out += _record(0x000F, _u16(len(modules)))
    out += _record(0x0013, _u16(0xFFFF))  # PROJECTCOOKIE
    for module in modules:
        out += _record(0x0019, module.name.encode("cp1252"))
        out += _record(0x0047, module.name.encode("utf-16-le"))
        out += _text_record(0x001A, 0x0032, module.name)  # STREAMNAME
        out += _text_record(0x001C, 0x0048, "")  # DOCSTRING
        out += _record(0x0031, _u32(0))  # OFFSET: the source starts the stream (no p-code)
        out += _record(0x001E, _u32(0))  # HELPCONTEXT
        out += _record(0x002C, _u16(0xFFFF))  # COOKIE
        out += _record(0x0021 if module.kind == _PROCEDURAL else 0x0022, b"")
        out += _record(0x002B, b"")  # module terminator
    out += _record(0x0010, b"")  # dir terminator
    return bytes(out)


def _project_id(modules: Sequence[_Module]) -> str:
    """A GUID fixed by the content, so that the same modules give the same file."""
    digest = hashlib.sha256()
    for module in modules:
        digest.update(f"{module.kind}:{module.name}:".encode() + module.source + b"\0")
    return "{" + str(uuid.UUID(bytes=digest.digest()[:16], version=4)).upper() + "}"


def _project_stream(modules: Sequence[_Module], project_id: str) -> bytes:
    """The PROJECT stream (MS-OVBA 2.3.1): the project's properties as text."""
    seeds = hashlib.sha256(project_id.encode()).digest()
    lines = [f'ID="{project_id}"']
    for module in modules:
        suffix = "/&H00000000" if module.kind == _DOCUMENT else ""
        lines.append(f"{module.kind}={module.name}{suffix}")
    lines += [
        f'Name="{PROJECT_NAME}"',
        'HelpContextID="0"',
        'VersionCompatible32="393222000"',
        f'CMG="{_encrypt(project_id, bytes(4), seeds[0])}"',  # not protected
        f'DPB="{_encrypt(project_id, bytes(1), seeds[1])}"',  # no password
        f'GC="{_encrypt(project_id, bytes([0xFF]), seeds[2])}"',  # visible
        "",
        "[Host Extender Info]",
        "&H00000001={3832D640-CF90-11CF-8E43-00A0C911005A};VBE;&H00000000",
        "",
        "[Workspace]",
        *(f"{module.name}=0, 0, 0, 0, C" for module in modules),
    ]
    return ("\r\n".join(lines) + "\r\n").encode("cp1252")


def _projectwm_stream(modules: Sequence[_Module]) -> bytes:
    """The PROJECTwm stream (MS-OVBA 2.3.3): each module name in MBCS and UTF-16."""
    out = bytearray()
    for module in modules:
        out += module.name.encode("cp1252") + b"\0"
        out += module.name.encode("utf-16-le") + b"\0\0"
    return bytes(out + b"\0\0")


# --- the public part --------------------------------------------------------------------


def vba_project(
    modules: Mapping[str, str] | None = None,
    *,
    sheets: Sequence[str] = ("Sheet1",),
    workbook: str = WORKBOOK_CODENAME,
    standalone: bool = True,
    language: str = "en",
) -> bytes:
    """The vbaProject.bin bytes for an .xlsm.

    `modules` maps module names to their text as the VBA editor exports it (.bas, or .cls
    with its VERSION header); by default the files in templates/vba/. `sheets` are the code
    names of the workbook's worksheets, in order, and `workbook` its own: Excel keeps one
    document module per worksheet and one for the workbook, so these must match the
    codeName attributes in the .xlsm (`add_to_workbook` sees to that). A module
    named like one of them supplies that document module's code. `standalone` adds the
    xlwings modules that define RunPython, unless `modules` already has them. `language`
    is the workbook's: the LibreOffice bridge's messages are written in it.

    Every module must pass `portable.check_portable`: LibreOffice compiles the project too,
    and one module it cannot compile silences every button there.
    """
    given = dict(template_modules() if modules is None else modules)
    if standalone:
        for name, text in xlwings_modules().items():
            given.setdefault(name, text)
    given = {name: fill_messages(name, text, language) for name, text in given.items()}
    for name, text in given.items():
        check_portable(name, text)
    documents = [(workbook, _BASE_WORKBOOK)]
    documents += [(name, _BASE_WORKSHEET) for name in sheets]
    seen: set[str] = set()
    built: list[_Module] = []
    for name, base in documents:
        built.append(_module(name, given.pop(name, ""), base))
    for name, text in given.items():
        built.append(_module(name, text))
    for module in built:
        if module.name.lower() in seen:
            raise ValueError(f"two VBA modules named {module.name!r}")
        seen.add(module.name.lower())

    project_id = _project_id(built)
    streams = {
        "PROJECT": _project_stream(built, project_id),
        "PROJECTwm": _projectwm_stream(built),
        "VBA/_VBA_PROJECT": struct.pack("<HHBH", 0x61CC, 0xFFFF, 0x00, 0x0001),
        "VBA/dir": compress(_dir_stream(built)),
    }
    for module in built:
        streams[f"VBA/{module.name}"] = compress(module.source)
    return compound_file(streams)


def add_to_workbook(book: Any, modules: Mapping[str, str] | None = None) -> None:
    """Give an XlsxWriter workbook the VBA project, with code names that match it.

    Call it after the last add_worksheet: each worksheet needs its own document module.
    Code names already set are kept; the others get XlsxWriter's defaults (ThisWorkbook,
    and Sheet1, Sheet2, ... by position). Chartsheets get none: XlsxWriter writes no
    codeName for them, so a module for one would have no sheet to belong to.
    """
    if book.vba_codename is None:
        book.set_vba_name(WORKBOOK_CODENAME)
    sheets: list[str] = []
    for sheet in book.worksheets():
        if not sheet.is_chartsheet:
            if sheet.vba_codename is None:
                sheet.set_vba_name()
            sheets.append(sheet.vba_codename)
    data = vba_project(modules, sheets=sheets, workbook=book.vba_codename)
    book.add_vba_project(io.BytesIO(data), is_stream=True)
