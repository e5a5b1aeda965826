"""The workbook's VBA project (vbaProject.bin), assembled from the text in templates/vba/.

Excel only runs macros stored in a binary VBA project: a Compound File (MS-CFB) holding the
PROJECT, PROJECTwm, VBA/dir, VBA/_VBA_PROJECT and one stream per module (MS-OVBA). Excel
itself is not needed to make one: the project is written with the version-independent
_VBA_PROJECT header and no compiled code, the form MS-OVBA requires of writers "to be
interoperable" (the host then ignores any cache and compiles the source text). The xlwings
add-in itself ships that way: its _VBA_PROJECT is the same 7 bytes and the module holding
RunPython has no compiled code, so Excel compiling such a project is well trodden.

`RunPython` is not built into Excel: it lives in the xlwings VBA code. The project therefore
carries the xlwings "standalone" modules (the `xlwings` module and the `Dictionary` class it
needs on macOS) taken from the installed xlwings package, as `xlwings quickstart --standalone`
does; so the secretary needs no add-in, and the VBA always matches the installed xlwings
(its DLL name carries the version).

The same project serves LibreOffice Calc, which runs an .xlsm's VBA in its compatibility
mode: there each button's macro hands the click to keizer_xl's Python macro in the user's
LibreOffice profile (templates/vba/LibreOfficeBridge.bas, its messages in the workbook's
language). LibreOffice compiles every `#If` branch, and one module it cannot compile
silences every macro, so `portable` rewrites xlwings' modules into VBA both compile and
refuses, at build time, any module LibreOffice would still not compile.

The output depends only on the module texts, sheet code names and language: building twice
gives the same bytes.

Four parts, one job each: `project` (the modules and the project's own streams, MS-OVBA),
`portable` (VBA that LibreOffice compiles too), `compression` (MS-OVBA's compression of the
dir and module streams) and `compound` (the Compound File around the streams, MS-CFB).
"""

from keizer_xl.workbook.vba.project import (
    MACROS,
    add_to_workbook,
    template_modules,
    vba_project,
    xlwings_modules,
)

__all__ = [
    "MACROS",
    "add_to_workbook",
    "template_modules",
    "vba_project",
    "xlwings_modules",
]
