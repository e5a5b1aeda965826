"""VBA that LibreOffice compiles as well as Excel: xlwings' modules rewritten, and checked.

LibreOffice opens an .xlsm's VBA project in its VBA-compatibility mode but does not honour
conditional compilation: it skips every `#If`, `#ElseIf`, `#Else` and `#End If` line and
compiles all branches one after the other. When any module fails to compile, every macro of
the workbook silently does nothing, the buttons included. xlwings' standalone modules are
written for Excel, Word, Access and PowerPoint on Windows and the Mac, so they carry
branches that only make sense one at a time. `make_portable` rewrites those by rules (not
patches of one xlwings version), each rewrite equivalent VBA in Excel on Windows and Mac:

- `#If App = "..."` chains are resolved by the module's own `#Const App` (keeping the
  branch Excel compiles, dropping the directives): what Excel compiles is unchanged.
- a variable `Dim`med in several branches of one `#If` is declared once, before it.
- a block `If` opened in every branch of an `#If` becomes one `If` on a Variant that each
  branch assigns the condition to.
- an `Enum` member valued by a `VBA.` constant gets that constant's number.

`check_portable` then reads the module as LibreOffice compiles it (every directive line
dropped) and refuses, naming module and line, what LibreOffice is known not to compile: a
procedure declared twice, a variable declared twice in one procedure, a block `If` without
its `End If` (or the other way round), an `Enum` member from a `VBA.` constant. A future
xlwings with a new such construct then fails the build loudly instead of making a workbook
whose buttons do nothing in LibreOffice. `#If Mac`, `#If VBA7`, `#If Win64` stay: one
workbook serves every Excel, so they cannot be decided when it is made.

The rewritten branches are never run in LibreOffice: its buttons hand the work to Python
before any xlwings code runs (templates/vba/LibreOfficeBridge.bas); they only have to compile.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Collection, Iterator, Mapping
from dataclasses import dataclass

__all__ = ["check_portable", "make_portable"]

_DIRECTIVE = re.compile(r"\s*#\s*(If|ElseIf|Else|End\s*If)\b\s*(.*?)\s*(?:\bThen\b\s*)?$", re.I)
_APP_CONST = re.compile(r'\s*#\s*Const\s+App\s*=\s*"([^"]*)"', re.I)
_APP_TEST = re.compile(r'App\s*=\s*"([^"]*)"\Z', re.I)
_PROCEDURE = re.compile(
    r"\s*(?:(?:Public|Private|Friend|Static)\s+)*(Sub|Function|Property\s+(?:Get|Let|Set))\s+(\w+)",
    re.I,
)
_PROCEDURE_END = re.compile(r"\s*End\s+(?:Sub|Function|Property)\b", re.I)
_ENUM = re.compile(r"\s*(?:(?:Public|Private)\s+)?Enum\s+\w+", re.I)
_ENUM_END = re.compile(r"\s*End\s+Enum\b", re.I)
_BLOCK_IF = re.compile(r"(\s*)If\b(.*)\bThen\s*$", re.I)
_END_IF = re.compile(r"\s*End\s*If\b", re.I)
_DECLARATION = re.compile(r"\s*(?:Dim|Static)\s+(.*)$", re.I)
_ONE_DIM = re.compile(r"(\s*)Dim\s+(\w+)(?:\s+As\s+(\w+(?:\.\w+)?))?\s*$", re.I)
_VBA_CONSTANT = re.compile(r"\bVBA\.(\w+)", re.I)

# The values of VBA's own constants (the VBA language reference: VbCompareMethod,
# VbTriState, VbVarType), for Enum members that name them.
VBA_CONSTANTS = {
    "vbbinarycompare": 0,
    "vbtextcompare": 1,
    "vbdatabasecompare": 2,
    "vbusedefault": -2,
    "vbtrue": -1,
    "vbfalse": 0,
    "vbempty": 0,
    "vbnull": 1,
    "vbinteger": 2,
    "vblong": 3,
    "vbsingle": 4,
    "vbdouble": 5,
    "vbcurrency": 6,
    "vbdate": 7,
    "vbstring": 8,
    "vbobject": 9,
    "vberror": 10,
    "vbboolean": 11,
    "vbvariant": 12,
    "vbdataobject": 13,
    "vbdecimal": 14,
    "vbbyte": 17,
    "vblonglong": 20,
    "vbuserdefinedtype": 36,
    "vbarray": 8192,
}


# --- reading lines ----------------------------------------------------------------------


def _lines(text: str) -> tuple[list[str], str]:
    """The module's lines and the line end it uses (the VBA editor's CRLF, or LF)."""
    end = "\r\n" if "\r\n" in text else "\n"
    return text.replace("\r\n", "\n").split("\n"), end


@functools.lru_cache(maxsize=4096)  # each rewrite reads the module's lines again
def _code(line: str) -> str:
    """The line's code, its comment dropped and each string's letters masked as `x`, so a
    `Then` or `'` inside a string is not read as code; positions match the line's."""
    out: list[str] = []
    in_string = False
    for char in line:
        if in_string:
            in_string = char != '"'
            out.append("x" if in_string else char)
        elif char == "'":
            break
        else:
            in_string = char == '"'
            out.append(char)
    code = "".join(out)
    return "" if re.match(r"\s*Rem\b", code, re.I) else code.rstrip()


def _directive(line: str) -> tuple[str, str] | None:
    """(`if`, `elseif`, `else` or `endif`, its condition) of a directive line, else None."""
    found = _DIRECTIVE.match(_code(line))
    if found is None:
        return None
    word = re.sub(r"\s+", "", found.group(1)).lower()
    return word, line[found.start(2) : found.end(2)]


@dataclass
class _Chain:
    """One `#If` ... `#End If`: the line of each directive (the `#If`, each `#ElseIf`, an
    `#Else`, the `#End If`); branch i runs from heads[i] + 1 to heads[i + 1] - 1."""

    heads: list[int]

    def branches(self) -> Iterator[range]:
        for start, stop in zip(self.heads, self.heads[1:], strict=False):
            yield range(start + 1, stop)


def _chains(lines: list[str], name: str) -> list[_Chain]:
    """Every `#If` chain of the module, inner ones before the chain around them."""
    done: list[_Chain] = []
    open_chains: list[_Chain] = []
    for number, line in enumerate(lines):
        found = _directive(line)
        if found is None:
            continue
        word = found[0]
        if word == "if":
            open_chains.append(_Chain([number]))
            continue
        if not open_chains:
            raise ValueError(f"VBA module {name}, line {number + 1}: #{word} without #If")
        open_chains[-1].heads.append(number)
        if word == "endif":
            done.append(open_chains.pop())
    if open_chains:
        opened = open_chains[-1].heads[0] + 1
        raise ValueError(f"VBA module {name}, line {opened}: #If without #End If")
    return done


def _direct_lines(lines: list[str], branch: range) -> list[int]:
    """The lines of a branch that are not inside an inner `#If`, nor directives."""
    found: list[int] = []
    depth = 0
    for number in branch:
        directive = _directive(lines[number])
        if directive is not None:
            depth += {"if": 1, "endif": -1}.get(directive[0], 0)
        elif depth == 0:
            found.append(number)
    return found


def _is_blank(line: str) -> bool:
    return not _code(line).strip()


def _within_one_procedure(lines: list[str], chain: _Chain) -> bool:
    """The chain stands inside a procedure and no procedure starts or ends within it."""
    inside = False
    for line in lines[: chain.heads[0]]:
        code = _code(line)
        if _PROCEDURE.match(code):
            inside = True
        elif _PROCEDURE_END.match(code):
            inside = False
    within = lines[chain.heads[0] : chain.heads[-1]]
    return inside and not any(
        _PROCEDURE.match(_code(line)) or _PROCEDURE_END.match(_code(line)) for line in within
    )


# --- the rewrites -----------------------------------------------------------------------


def resolve_app(text: str, name: str = "module") -> str:
    """Keep only what Excel compiles of each `#If App = "..."` chain, without directives.

    xlwings.bas serves several Office programs and says which with `#Const App`; Excel
    compiles the one branch whose test matches it, so keeping that branch's lines (and
    dropping the others and the chain's own directives) changes nothing Excel compiles. A
    chain is resolved only when its `#If` and every `#ElseIf` test `App`; a chain that mixes
    `App` with other tests is refused rather than guessed.
    """
    lines, end = _lines(text)
    app = next((found.group(1) for line in lines if (found := _APP_CONST.match(line))), None)
    if app is None:
        return text
    drop: set[int] = set()
    for chain in _chains(lines, name):
        tests = [_directive(lines[head]) or ("", "") for head in chain.heads[:-1]]
        apps = [_APP_TEST.match(condition) for word, condition in tests if word != "else"]
        if apps[0] is None:
            continue
        if not all(apps):
            line = chain.heads[0] + 1
            raise ValueError(f"VBA module {name}, line {line}: an #If App chain with other tests")
        kept = next(
            (
                i
                for i, (word, condition) in enumerate(tests)
                if word == "else" or _is(condition, app)
            ),
            None,
        )
        drop.update(chain.heads)
        for index, branch in enumerate(chain.branches()):
            if index != kept:
                drop.update(branch)
    return end.join(line for number, line in enumerate(lines) if number not in drop)


def _is(condition: str, app: str) -> bool:
    """`App = "<app>"` is the test."""
    found = _APP_TEST.match(condition)
    return found is not None and found.group(1) == app


def hoist_declarations(text: str, name: str = "module") -> str:
    """Declare once, before the `#If`, a variable `Dim`med in several of its branches.

    In VBA a `Dim` declares the variable for the whole procedure wherever it stands, so one
    declaration before the `#If` is the same to Excel. The type is the branches' own when
    they agree; when they differ and one is `Object`, `Object` (an Object variable holds any
    object, a VBA class's instance too, and its members are then called late-bound, which
    Excel does on Windows and Mac alike); any other disagreement is refused.
    """
    lines, end = _lines(text)
    drop: set[int] = set()
    before: dict[int, list[str]] = {}
    for chain in _chains(lines, name):
        if not _within_one_procedure(lines, chain):
            continue
        found: dict[str, list[tuple[int, re.Match[str]]]] = {}
        for branch in chain.branches():
            for number in _direct_lines(lines, branch):
                if dim := _ONE_DIM.match(_code(lines[number])):
                    found.setdefault(dim.group(2).lower(), []).append((number, dim))
        for declared in found.values():
            if len(declared) < 2:
                continue
            first = declared[0][1]
            kinds = {
                (dim.group(3) or "Variant").lower(): dim.group(3) or "Variant"
                for _, dim in declared
            }
            if len(kinds) == 1:
                (kind,) = kinds.values()
            elif "object" in kinds:
                kind = "Object"
            else:
                raise ValueError(
                    f"VBA module {name}, line {declared[0][0] + 1}: {first.group(2)} is "
                    f"declared as {' and '.join(kinds.values())} in the branches of one #If"
                )
            drop.update(number for number, _ in declared)
            declaration = f"{first.group(1)}Dim {first.group(2)} As {kind}"
            before.setdefault(chain.heads[0], []).append(declaration)
    return _rebuild(lines, end, drop=drop, before=before)


def merge_block_ifs(text: str, name: str = "module") -> str:
    """Turn a block `If` opened in every branch of an `#If` into one `If` after it.

    `#If Mac Then / If A Then / #Else / If B Then / #End If` opens two `If`s for one `End If`
    when every branch is compiled. It becomes a Variant declared before the `#If`, assigned
    A in the first branch and B in the second, and one `If` on it after the `#End If`. In
    Excel the branch's condition is evaluated at the same point, and `If` on a Variant holding
    its value decides as `If` on the expression does (Null included), so the two are the same.
    Only an `#If` with an `#Else` whose every branch is that one line is rewritten.
    """
    lines, end = _lines(text)
    taken = {word.lower() for word in re.findall(r"\w+", text)}
    before: dict[int, list[str]] = {}
    after: dict[int, list[str]] = {}
    replace: dict[int, str] = {}
    count = 0
    for chain in _chains(lines, name):
        branches = [
            [n for n in _direct_lines(lines, branch) if not _is_blank(lines[n])]
            for branch in chain.branches()
        ]
        has_else = _directive(lines[chain.heads[-2]]) == ("else", "")
        if not has_else or not _within_one_procedure(lines, chain):
            continue
        openers = [(b[0], _BLOCK_IF.match(_code(lines[b[0]]))) for b in branches if len(b) == 1]
        ifs = [(number, opener) for number, opener in openers if opener is not None]
        if len(ifs) != len(branches):
            continue
        count += 1
        while f"portablecondition{count}" in taken:
            count += 1
        variable = f"portableCondition{count}"
        first, opener = ifs[0]
        indent = opener.group(1)
        before[chain.heads[0]] = [f"{indent}Dim {variable} As Variant"]
        for number, opener in ifs:
            condition = lines[number][opener.start(2) : opener.end(2)].strip()
            replace[number] = f"{opener.group(1)}{variable} = {condition}"
        comment = lines[first][len(_code(lines[first])) :].strip()
        after[chain.heads[-1]] = [f"{indent}If {variable} Then {comment}".rstrip()]
    return _rebuild(lines, end, before=before, after=after, replace=replace)


def _rebuild(
    lines: list[str],
    end: str,
    *,
    drop: Collection[int] = (),
    before: Mapping[int, list[str]] | None = None,
    after: Mapping[int, list[str]] | None = None,
    replace: Mapping[int, str] | None = None,
) -> str:
    """The lines again, some dropped or replaced, some put before or after others."""
    out: list[str] = []
    for number, line in enumerate(lines):
        out.extend((before or {}).get(number, []))
        if number not in drop:
            out.append((replace or {}).get(number, line))
        out.extend((after or {}).get(number, []))
    return end.join(out)


def enum_literals(text: str, name: str = "module") -> str:
    """Give an `Enum` member valued by a `VBA.` constant that constant's number.

    LibreOffice does not compile `VBA.vbTextCompare` as an Enum member's value; the numbers
    are VBA's own (its language reference), so Excel gets the same values. The constant's
    name stays beside it in a comment.
    """
    lines, end = _lines(text)
    in_enum = False
    for number, line in enumerate(lines):
        code = _code(line)
        if _ENUM.match(code):
            in_enum = True
        elif _ENUM_END.match(code):
            in_enum = False
        elif in_enum and (found := _VBA_CONSTANT.search(code)):
            value = VBA_CONSTANTS.get(found.group(1).lower())
            if value is not None:
                head, tail, comment = (
                    line[: found.start()],
                    line[found.end() : len(code)],
                    line[len(code) :],
                )
                lines[number] = f"{head}{value}{tail} ' {found.group(0)}{comment}".rstrip()
    return end.join(lines)


def make_portable(name: str, text: str) -> str:
    """The module text with every rewrite applied; `check_portable` passes it or says why."""
    for rewrite in (resolve_app, hoist_declarations, merge_block_ifs, enum_literals):
        text = rewrite(text, name)
    return text


# --- the check --------------------------------------------------------------------------


def _logical_lines(text: str) -> Iterator[tuple[int, str]]:
    """(line number, code) of each statement as LibreOffice reads the module: directive lines
    dropped, lines continued with ` _` joined, comments and string letters masked."""
    lines, _ = _lines(text)
    start, parts = 0, list[str]()
    for number, line in enumerate(lines, start=1):
        code = _code(line)
        if not parts:
            if code.lstrip().startswith("#"):
                continue
            start = number
        if code.endswith(" _") or code == "_":
            parts.append(code[:-1])
            continue
        parts.append(code)
        yield start, " ".join(parts)
        parts = []
    if parts:
        yield start, " ".join(parts)


def _split_top_level(text: str) -> list[str]:
    """`a As Long, b(1, 2) As X` -> its declarations (commas outside brackets)."""
    parts: list[str] = []
    current: list[str] = []
    depth = 0
    for char in text:
        depth += {"(": 1, ")": -1}.get(char, 0)
        if char == "," and depth == 0:
            parts.append("".join(current))
            current = []
        else:
            current.append(char)
    parts.append("".join(current))
    return parts


@dataclass
class _Procedure:
    name: str
    line: int
    variables: dict[str, int]
    open_ifs: list[int]


def _refusal(name: str, line: int, problem: str) -> ValueError:
    return ValueError(
        f"VBA module {name}, line {line}: {problem} when every #If branch is compiled, "
        "as LibreOffice does"
    )


def check_portable(name: str, text: str) -> None:
    """Refuse, with module and line, what LibreOffice cannot compile once it has dropped the
    directive lines: see the module's docstring. Says nothing of what Excel alone refuses."""
    procedures: dict[str, int] = {}
    current: _Procedure | None = None
    in_enum = False
    for line, code in _logical_lines(text):
        if in_enum:
            in_enum = not _ENUM_END.match(code)
            if in_enum and (found := _VBA_CONSTANT.search(code)):
                raise _refusal(name, line, f"an Enum member is valued by {found.group(0)}")
        elif _ENUM.match(code):
            in_enum = True
        elif procedure := _PROCEDURE.match(code):
            kind = procedure.group(1).lower()
            key = procedure.group(2).lower() + (kind[-3:] if kind.startswith("property") else "")
            if key in procedures:
                problem = f"{procedure.group(2)} is declared twice (also line {procedures[key]})"
                raise _refusal(name, line, problem)
            if current is not None:
                raise _refusal(name, line, f"{procedure.group(2)} starts inside {current.name}")
            procedures[key] = line
            current = _Procedure(procedure.group(2), line, {}, [])
        elif current is not None:
            current = _inside(name, current, line, code)
    if current is not None:
        raise _refusal(name, current.line, f"{current.name} has no end")


def _inside(name: str, current: _Procedure, line: int, code: str) -> _Procedure | None:
    """One statement of a procedure: its declarations and block Ifs counted; None at its end."""
    if _PROCEDURE_END.match(code):
        if current.open_ifs:
            problem = f"a block If in {current.name} has no End If"
            raise _refusal(name, current.open_ifs[-1], problem)
        return None
    if _END_IF.match(code):
        if not current.open_ifs:
            raise _refusal(name, line, f"an End If in {current.name} closes no If")
        current.open_ifs.pop()
    elif _BLOCK_IF.match(code):
        current.open_ifs.append(line)
    elif declaration := _DECLARATION.match(code):
        for part in _split_top_level(declaration.group(1)):
            variable = re.match(r"\s*(?:WithEvents\s+)?(\w+)", part, re.I)
            if variable is None:
                continue
            key = variable.group(1).lower()
            if key in current.variables:
                also = current.variables[key]
                problem = (
                    f"{variable.group(1)} is declared twice in {current.name} (also line {also})"
                )
                raise _refusal(name, line, problem)
            current.variables[key] = line
    return current
