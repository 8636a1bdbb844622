"""Build the analysis model from parsed definitions, checking them.

The steps are:
1. collect definitions from every input file (``override`` lets a later
   file replace an earlier ``inst``/``op``);
2. turn each ``inst`` and ``op`` into a ``Uop`` and derive its properties
   from its body;
3. build real instructions (``inst`` not marked ``tier2``, and ``macro``)
   from their parts, then families, pseudo instructions and labels;
4. check the rules that need the whole picture (family sizes, DEOPT_IF
   only in specializations...);
5. number opcodes and uops (see ``numbering``).
"""

from __future__ import annotations

import re
from typing import Iterable

import dsl_parser
import emitter
import escapes
import lexer
import numbering
from dsl_parser import (FamilyDef, InstDef, LabelDef, Location, MacroDef,
                        Node, PseudoDef)
from errors import DSLError
from model import (FLAG_NAMES, Analysis, CacheItem, CacheSkip, Family,
                   Instruction, Label, Part, Properties, Pseudo, StackItem,
                   Uop, UopPart)
from stack import ZERO, CompositionError, compose

# Identifiers whose presence means an operation only makes sense in the
# tier-1 interpreter (they refer to the instruction stream or to labels
# of the tier-1 loop).
TIER1_ONLY_NAMES = ("JUMPBY", "next_instr", "this_instr", "goto",
                    "JUMP_TO_PREDICTED", "JUMP_TO_LABEL")

# A tier-2 uop receives its cache entries as CURRENT_OPERAND0() and
# CURRENT_OPERAND1(), so it can read at most this many.
MAX_OPERANDS = 2


def analyze_files(paths: Iterable[str],
                  names: Iterable[str] | None = None) -> Analysis:
    """Parse and analyze the given definition files, in order.

    ``names`` are how the files are called in messages and banners
    (default: the paths themselves).
    """
    paths = list(paths)
    names = list(names) if names is not None else paths
    nodes: list[Node] = []
    for path, name in zip(paths, names):
        with open(path, encoding="utf-8") as f:
            nodes.extend(dsl_parser.parse_file(name, f.read()))
    return analyze(nodes, names)


def analyze(nodes: list[Node], filenames: list[str]) -> Analysis:
    defs = _collect(nodes)
    uops = _build_uops(defs.insts_and_ops)
    instructions = _build_instructions(defs, uops)
    families = _build_families(defs.families, instructions)
    pseudos = _build_pseudos(defs.pseudos, instructions)
    labels = {name: _build_label(node) for name, node in defs.labels.items()}
    _propagate_oparg_to_heads(families)
    _check_deopts(instructions)
    _note_instruction_sizes(instructions)
    opmap, have_argument = numbering.assign_opcodes(instructions, pseudos)
    max_real = max(number for number in opmap.values() if number < 256)
    uop_ids = numbering.assign_uop_ids(uops, max_real + 1)
    return Analysis(
        filenames=filenames,
        instructions=instructions,
        uops=uops,
        families=families,
        pseudos=pseudos,
        labels=labels,
        opmap=opmap,
        have_argument=have_argument,
        min_instrumented=numbering.MIN_INSTRUMENTED_OPCODE,
        min_specialized=numbering.MIN_SPECIALIZED_OPCODE,
        min_pseudo=numbering.MIN_PSEUDO_OPCODE,
        uop_ids=uop_ids,
    )


def _note_instruction_sizes(instructions: dict[str, Instruction]) -> None:
    """Each uop learns the sizes of the instructions it is part of, so that
    INSTRUCTION_SIZE() can be a constant in its tier-2 case."""
    for inst in instructions.values():
        for part in inst.uop_parts:
            part.uop.instruction_sizes.add(inst.size)


# -- step 1: collecting definitions -----------------------------------------

class _Definitions:
    """The definitions of all input files, with overrides applied."""

    def __init__(self) -> None:
        self.insts_and_ops: dict[str, InstDef] = {}
        self.macros: dict[str, MacroDef] = {}
        self.families: list[FamilyDef] = []
        self.pseudos: dict[str, PseudoDef] = {}
        self.labels: dict[str, LabelDef] = {}
        # Position of each input file, to keep source order across files.
        self.file_order: dict[str, int] = {}


def _collect(nodes: list[Node]) -> _Definitions:
    defs = _Definitions()
    for node in nodes:
        defs.file_order.setdefault(node.location.filename,
                                   len(defs.file_order))
        if isinstance(node, InstDef):
            _add_inst(defs, node)
        elif isinstance(node, MacroDef):
            _add_unique(defs.macros, node, "macro")
        elif isinstance(node, FamilyDef):
            defs.families.append(node)
        elif isinstance(node, PseudoDef):
            _add_unique(defs.pseudos, node, "pseudo instruction")
        elif isinstance(node, LabelDef):
            _add_unique(defs.labels, node, "label")
    return defs


def _add_unique(table: dict, node, what: str) -> None:
    if node.name in table:
        previous = table[node.name].location
        raise node.location.error(
            f"{what} {node.name} is already defined at {previous}")
    table[node.name] = node


def _add_inst(defs: _Definitions, node: InstDef) -> None:
    previous = defs.insts_and_ops.get(node.name)
    if "override" in node.annotations:
        if previous is None:
            raise node.location.error(
                f"override of {node.name}, which is not defined earlier")
        if previous.kind != node.kind:
            raise node.location.error(
                f"override of {previous.kind} {node.name} by an {node.kind}")
    elif previous is not None:
        raise node.location.error(
            f"{node.name} is already defined at {previous.location}")
    defs.insts_and_ops[node.name] = node


# -- step 2: uops ----------------------------------------------------------

def _build_uops(defs: dict[str, InstDef]) -> dict[str, Uop]:
    uops: dict[str, Uop] = {}
    owners: dict[str, InstDef] = {}
    for node in defs.values():
        name = uop_name(node)
        if name in owners:
            other = owners[name]
            raise node.location.error(
                f"micro-op name {name} of {node.kind} {node.name} clashes "
                f"with {other.kind} {other.name} at {other.location}")
        owners[name] = node
        uops[name] = _build_uop(node, name)
    return uops


def uop_name(node: InstDef) -> str:
    """The uop of ``inst(X)`` is ``_X``; an ``op`` keeps its own name."""
    return "_" + node.name if node.kind == "inst" else node.name


def build_uop(node: InstDef, name: str) -> Uop:
    """A uop from one definition, analyzed on its own (for files that
    describe uops of Python/bytecodes.c again, such as the optimizer's)."""
    return _build_uop(node, name)


def _build_uop(node: InstDef, name: str) -> Uop:
    inputs: list[StackItem] = []
    caches: list[CacheItem] = []
    for item in node.stack.inputs:
        if item.cache is not None:
            if item.cache not in (1, 2, 4) and item.name != "unused":
                raise item.location.error(
                    f"cache entry {item.name}/{item.cache} must have size "
                    f"1, 2 or 4")
            caches.append(CacheItem(item.name, item.cache, item.location))
        else:
            inputs.append(StackItem(item.name, item.size, item.location))
    outputs = [StackItem(item.name, item.size, item.location)
               for item in node.stack.outputs]
    _check_stack_names(node, inputs, outputs, caches)
    if node.replicate and node.replicate.stop > 256:
        raise node.location.error("replicas are limited to opargs below 256")
    uop = Uop(name, node.kind, inputs, outputs, caches, node.body,
              node.annotations, node.replicate, node.location)
    uop.properties = analyze_body(uop)
    return uop


def _check_stack_names(node: InstDef, inputs: list[StackItem],
                       outputs: list[StackItem],
                       caches: list[CacheItem]) -> None:
    for items, side in ((inputs, "inputs"), (outputs, "outputs")):
        seen: set[str] = set()
        for item in items:
            if item.is_unused:
                continue
            if item.name in seen:
                raise item.location.error(
                    f"{item.name} appears twice among the {side} of "
                    f"{node.name}")
            seen.add(item.name)
    kinds: dict[str, bool] = {}
    for item in inputs + outputs:
        if item.is_unused:
            continue
        if kinds.setdefault(item.name, item.is_array) != item.is_array:
            raise item.location.error(
                f"{item.name} is an array on one side of the stack effect "
                f"of {node.name} and a single item on the other")
    stack_names = {item.name for item in inputs + outputs}
    for cache in caches:
        if not cache.is_unused and cache.name in stack_names:
            raise cache.location.error(
                f"{cache.name} names both a cache entry and a stack item "
                f"in {node.name}")


def analyze_body(uop: Uop) -> Properties:
    """Derive the properties (hence the flags) of a uop from its code."""
    emitter.macro_calls(uop.body)  # reports malformed DSL macro calls
    tokens = [tok for tok in uop.body.tokens if not tok.in_directive]
    idents = {tok.text for tok in tokens if tok.kind == lexer.IDENT}
    calls = _called_names(tokens)
    props = Properties()
    props.oparg = "oparg" in idents or any(
        item.size.mentions("oparg") for item in uop.inputs + uop.outputs)
    props.jumps = "JUMPBY" in idents
    props.consts = bool(idents & {"FRAME_CO_CONSTS", "co_consts"})
    props.names = bool(idents & {"FRAME_CO_NAMES", "co_names"})
    props.free = any(name.startswith(("PyCell_", "_PyCell_"))
                     for name in idents)
    props.local = bool(idents & {"GETLOCAL", "SETLOCAL"}) and not props.free
    props.eval_breaker = "CHECK_EVAL_BREAKER" in idents
    props.deopts = "DEOPT_IF" in idents
    props.exits = "EXIT_IF" in idents
    props.error_no_pop = "ERROR_NO_POP" in idents
    props.errors = (props.error_no_pop or "ERROR_IF" in idents
                    or _has_goto_error(tokens))
    escaping = [name for name in calls if escapes.is_escaping_call(name)]
    if "DECREF_INPUTS" in calls:
        escaping = [n for n in escaping if n != "DECREF_INPUTS"]
        if any(not item.is_unused for item in uop.inputs):
            escaping.append("PyStackRef_CLOSE")
    props.escaping_calls = tuple(dict.fromkeys(escaping))
    props.escapes = bool(escaping)
    props.pure = "pure" in uop.annotations
    props.no_save_ip = "no_save_ip" in uop.annotations
    props.tier2_blocker = _tier2_blocker(uop, idents)
    return props


def _called_names(tokens: list[lexer.Token]) -> list[str]:
    """Names of what the code calls: names directly followed by '(' (calls,
    macros, keywords), plus "<indirect call>" for calls through a table
    entry or a parenthesised expression, such as ``table[i](x)`` or
    ``(*fn)(x)``.  A parenthesised type before '(' is a cast, not a call.
    """
    names = []
    for index, (token, after) in enumerate(zip(tokens, tokens[1:])):
        if after.text != "(":
            continue
        if token.kind == lexer.IDENT:
            names.append(token.text)
        elif token.text == "]" or (token.text == ")"
                                   and not _closes_cast(tokens, index)):
            names.append("<indirect call>")
    return names


def _closes_cast(tokens: list[lexer.Token], close: int) -> bool:
    """True if the ')' at ``close`` ends something like ``(PyObject *)``
    or ``(int)``: only names and '*' inside, and not starting with '*'."""
    depth = 0
    for index in range(close, -1, -1):
        text = tokens[index].text
        if text == ")":
            depth += 1
        elif text == "(":
            depth -= 1
            if depth == 0:
                inside = tokens[index + 1:close]
                return bool(inside) and inside[0].kind == lexer.IDENT and all(
                    tok.kind == lexer.IDENT or tok.text == "*"
                    for tok in inside)
    return False


def _has_goto_error(tokens: list[lexer.Token]) -> bool:
    for token, after in zip(tokens, tokens[1:]):
        if token.text == "goto" and (after.text == "error"
                                     or after.text.endswith("_error")):
            return True
    return False


def _tier2_blocker(uop: Uop, idents: set[str]) -> str | None:
    if "tier1" in uop.annotations:
        return "it is marked tier1"
    if "untraced" in uop.annotations:
        return "it is marked untraced (traces leave it out)"
    if "branch" in uop.annotations:
        return "it is a branch (the trace recorder puts a guard in its place)"
    if "specializing" in uop.annotations:
        return "it is a specializing op"
    for name in TIER1_ONLY_NAMES:
        if name in idents:
            return f"it uses '{name}'"
    for name in sorted(idents):
        if name.startswith("DISPATCH"):
            return f"it uses '{name}'"
    if sum(not cache.is_unused for cache in uop.caches) > MAX_OPERANDS:
        return f"it reads more than {MAX_OPERANDS} cache entries"
    return None


# -- step 3: instructions, families, pseudos --------------------------------

def _build_instructions(defs: _Definitions,
                        uops: dict[str, Uop]) -> dict[str, Instruction]:
    """Real instructions in source order: every tier-1 inst and macro."""
    instructions: dict[str, Instruction] = {}
    by_inst_name = {node.name: uops[uop_name(node)]
                    for node in defs.insts_and_ops.values()
                    if node.kind == "inst"}
    nodes: list[InstDef | MacroDef] = [
        node for node in defs.insts_and_ops.values()
        if node.kind == "inst" and "tier2" not in node.annotations
    ]
    nodes.extend(defs.macros.values())
    file_order = defs.file_order
    nodes.sort(key=lambda node: (file_order[node.location.filename],
                                 node.location.line))
    for node in nodes:
        if node.name in instructions:
            other = instructions[node.name].location
            raise node.location.error(
                f"instruction {node.name} is already defined at {other}")
        if isinstance(node, InstDef):
            uop = uops[uop_name(node)]
            parts: list[Part] = [UopPart(node.name, uop, 0)]
            inst = Instruction(node.name, parts, False, node.location)
        else:
            parts = _macro_parts(node, uops, by_inst_name)
            inst = Instruction(node.name, parts, True, node.location)
        inst.properties = Properties.combine(
            [part.uop.properties for part in inst.uop_parts])
        inst.popped, inst.pushed = _net_effect(inst)
        instructions[node.name] = inst
    return instructions


def _macro_parts(node: MacroDef, uops: dict[str, Uop],
                 by_inst_name: dict[str, Uop]) -> list[Part]:
    parts: list[Part] = []
    offset = 0
    for part in node.parts:
        if part.cache is not None:
            parts.append(CacheSkip(part.name, part.cache, offset))
            offset += part.cache
            continue
        uop = uops.get(part.name) or by_inst_name.get(part.name)
        if uop is None:
            raise part.location.error(
                f"unknown op '{part.name}' in macro {node.name}")
        if uop.tier2_only:
            raise part.location.error(
                f"{part.name} is marked tier2 and cannot be part of the "
                f"tier-1 instruction {node.name}")
        parts.append(UopPart(part.name, uop, offset))
        offset += uop.cache_size
    return parts


def _net_effect(inst: Instruction):
    effects = [(part.uop.inputs, part.uop.outputs) for part in inst.uop_parts]
    try:
        return compose(effects)
    except CompositionError as error:
        raise inst.location.error(
            f"the parts of {inst.name} do not fit together: {error}") from None


def _build_families(nodes: list[FamilyDef],
                    instructions: dict[str, Instruction]) -> dict[str, Family]:
    families: dict[str, Family] = {}
    for node in nodes:
        head = _lookup_instruction(instructions, node.name, node.location,
                                   "family head")
        if head.family is not None:
            raise node.location.error(
                f"{node.name} already belongs to family {head.family.name}")
        members = []
        for name in node.members:
            if name == node.name:
                continue  # tolerate the head being listed too
            member = _lookup_instruction(instructions, name, node.location,
                                         f"member of family {node.name}")
            if member.family is not None:
                raise node.location.error(
                    f"{name} already belongs to family {member.family.name}")
            _check_member_fits(head, member, node.location)
            members.append(member)
        family = Family(node.name, head, members, node.size, node.location)
        head.family = family
        for member in members:
            member.family = family
        families[node.name] = family
    return families


def _lookup_instruction(instructions: dict[str, Instruction], name: str,
                        location: Location, role: str) -> Instruction:
    inst = instructions.get(name)
    if inst is None:
        raise location.error(f"unknown instruction {name} ({role})")
    return inst


def _check_member_fits(head: Instruction, member: Instruction,
                       location: Location) -> None:
    """A specialization replaces its head in place, so it must have the
    same size and the same stack effect."""
    if member.size != head.size:
        raise location.error(
            f"{member.name} takes {member.size} code unit(s), but its "
            f"family head {head.name} takes {head.size}")
    if (member.popped, member.pushed) != (head.popped, head.pushed):
        raise location.error(
            f"{member.name} has stack effect ({member.popped} -- "
            f"{member.pushed}), but its family head {head.name} has "
            f"({head.popped} -- {head.pushed})")


def _build_pseudos(nodes: dict[str, PseudoDef],
                   instructions: dict[str, Instruction]) -> dict[str, Pseudo]:
    pseudos: dict[str, Pseudo] = {}
    for node in nodes.values():
        if node.name in instructions:
            raise node.location.error(
                f"pseudo instruction {node.name} has the name of a real one")
        if not node.targets:
            raise node.location.error(f"pseudo {node.name} has no targets")
        targets = [
            _lookup_instruction(instructions, name, node.location,
                                f"target of pseudo {node.name}")
            for name in node.targets
        ]
        flags = [_flag_name(flag, node.location) for flag in node.flags]
        if node.stack is not None:
            effect = ([StackItem(i.name, i.size, i.location)
                       for i in node.stack.inputs],
                      [StackItem(i.name, i.size, i.location)
                       for i in node.stack.outputs])
            popped, pushed = compose([effect])
        else:
            popped, pushed = targets[0].popped, targets[0].pushed
        pseudos[node.name] = Pseudo(node.name, popped, pushed, flags, targets,
                                    node.location)
    return pseudos


def _build_label(node: LabelDef) -> Label:
    emitter.macro_calls(node.body)  # reports malformed DSL macro calls
    return Label(node.name, node.body, node.annotations, node.location)


def _flag_name(flag: str, location: Location) -> str:
    """Accept HAS_ARG, HAS_ARG_FLAG or ARG for the ARG flag."""
    name = re.sub(r"_FLAG$", "", re.sub(r"^HAS_", "", flag))
    if name not in FLAG_NAMES:
        raise location.error(f"unknown flag {flag}")
    return name


# -- step 4: whole-picture checks -----------------------------------------

def _propagate_oparg_to_heads(families: dict[str, Family]) -> None:
    """A specialization keeps its head's oparg, so if any member uses it,
    the head's opcode must be numbered (and flagged) as taking one."""
    for family in families.values():
        if any(member.properties.oparg for member in family.members):
            family.head.properties.oparg = True


def _check_deopts(instructions: dict[str, Instruction]) -> None:
    """DEOPT_IF/EXIT_IF fall back to the family head, so they are only
    meaningful in the specializations of a family."""
    for inst in instructions.values():
        moved = ZERO  # how far the earlier parts moved the stack pointer
        for part in inst.uop_parts:
            props = part.uop.properties
            if not (props.deopts or props.exits):
                moved = moved + part.uop.layout.delta
                continue
            macro, line = _first_use(part.uop, ("DEOPT_IF", "EXIT_IF"))
            where = (inst.name if part.uop.kind == "inst"
                     else f"{part.name} (part of {inst.name})")
            if inst.family is None:
                raise DSLError(
                    f"{macro} in {where}, but {inst.name} is not a member "
                    f"of any family, so there is nothing to fall back to",
                    part.uop.location.filename, line)
            if inst.is_family_head:
                raise DSLError(
                    f"{macro} in {where}, but {inst.name} is the head of "
                    f"its family, so there is nothing to fall back to",
                    part.uop.location.filename, line)
            if moved != 0:
                # Each part writes its outputs back, so the generic
                # instruction would find a stack of the wrong depth.
                raise DSLError(
                    f"{macro} in {where} comes after parts that changed "
                    f"the stack depth by {moved}; the generic instruction "
                    f"{inst.deopt_target.name} would not find its inputs",
                    part.uop.location.filename, line)
            moved = moved + part.uop.layout.delta


def _first_use(uop: Uop, names: tuple[str, ...]) -> tuple[str, int]:
    """The first of ``names`` used in the body of ``uop``, and its line."""
    for token in uop.body.tokens:
        if token.text in names:
            return token.text, token.line
    return names[0], uop.location.line


# -- a summary for people editing the definitions ---------------------------

def describe(analysis: Analysis) -> str:
    """One line per instruction and uop: number, flags, escaping calls.

    Handy to see why an instruction got a flag, e.g. which call made it
    escape (then maybe extend escapes.NON_ESCAPING_FUNCTIONS).
    """
    lines = []
    for inst in analysis.sorted_instructions():
        lines.append(_describe_line(f"{inst.opcode:3} {inst.name}",
                                    inst.properties))
    for uop in analysis.uops.values():
        lines.append(_describe_line(
            f"uop {uop.name}", uop.properties,
            uop.properties.tier2_blocker))
    return "\n".join(lines)


def _describe_line(head: str, props: Properties,
                   blocker: str | None = None) -> str:
    text = f"{head}: {', '.join(props.flag_names()) or '-'}"
    if props.escaping_calls:
        text += f"  [escapes via {', '.join(props.escaping_calls)}]"
    if blocker:
        text += f"  [not in tier 2: {blocker}]"
    return text


if __name__ == "__main__":
    import sys

    from generators_common import DEFAULT_INPUT, analyze_inputs
    try:
        print(describe(analyze_inputs(sys.argv[1:] or [DEFAULT_INPUT])))
    except DSLError as error:
        print(error, file=sys.stderr)
        sys.exit(1)
