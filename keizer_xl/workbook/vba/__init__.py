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

The output depends only on the module texts and sheet code names: building twice gives the
same bytes.

Three parts, one job each: `project` (the modules and the project's own streams, MS-OVBA),
`compression` (MS-OVBA's compression of the dir and module streams) and `compound` (the
Compound File around the streams, MS-CFB).
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
