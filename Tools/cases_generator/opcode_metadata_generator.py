"""Generate the opcode metadata tables:
Include/internal/pycore_opcode_metadata.h.

Declarations and static inline functions are always visible; the data
tables are defined only where the includer defines NEED_OPCODE_METADATA
(exactly one translation unit should), so they exist once in the binary.
"""

from __future__ import annotations

import hashlib
from typing import Iterable

from cwriter import CWriter
from generators_common import c_banner, main
from model import FLAG_BITS, FLAG_NAMES, Analysis, Instruction

SCRIPT = "opcode_metadata_generator.py"
OUTPUT = "Include/internal/pycore_opcode_metadata.h"
GUARD = "Py_CORE_OPCODE_METADATA_H"

# How a uop of a macro expansion gets its operand (see README.md).
OPARG_KINDS = {0: "OPARG_SIMPLE", 1: "OPARG_CACHE_1", 2: "OPARG_CACHE_2",
               4: "OPARG_CACHE_4"}


def generate(analysis: Analysis) -> str:
    out = CWriter()
    out.raw(c_banner(SCRIPT, analysis))
    out.line()
    write_prologue(out, GUARD)
    out.line('#include "opcode_ids.h"')
    out.line('#include "pycore_uop_ids.h"')
    out.line()
    write_limits(analysis, out)
    write_stack_effects(analysis, out)
    write_flag_definitions(out)
    write_flag_table(analysis, out)
    write_cache_tables(analysis, out)
    write_opnames(analysis, out)
    write_macro_expansions(analysis, out)
    write_pseudo_targets(analysis, out)
    write_epilogue(out, GUARD)
    return out.text()


# -- shared with the uop metadata generator ---------------------------------

def write_prologue(out: CWriter, guard: str) -> None:
    out.line(f"#ifndef {guard}")
    out.line(f"#define {guard}")
    out.line("#ifdef __cplusplus")
    out.line('extern "C" {')
    out.line("#endif")
    out.line()
    out.line("#ifndef Py_BUILD_CORE")
    out.line('#  error "this header requires Py_BUILD_CORE define"')
    out.line("#endif")
    out.line()
    out.line("#include <stdbool.h>")
    out.line("#include <stdint.h>")


def write_epilogue(out: CWriter, guard: str) -> None:
    out.line("#ifdef __cplusplus")
    out.line("}")
    out.line("#endif")
    out.line(f"#endif /* !{guard} */")


def write_flag_definitions(out: CWriter) -> None:
    """The flag bits and their OPCODE_HAS_* accessors.  Both metadata
    headers emit these identical definitions (a legal redefinition)."""
    for name in FLAG_NAMES:
        out.line(f"#define HAS_{name}_FLAG ({FLAG_BITS[name]})")
    for name in FLAG_NAMES:
        out.line(f"#define OPCODE_HAS_{name}(OP) "
                 f"(_PyOpcode_opcode_metadata[OP].flags & (HAS_{name}_FLAG))")
    out.line()


def flags_expression(names: list[str]) -> str:
    return " | ".join(f"HAS_{name}_FLAG" for name in names) or "0"


def write_table(out: CWriter, declaration: str, entries: Iterable[str],
                empty: str = "0") -> None:
    """``extern`` declaration always, definition under
    NEED_OPCODE_METADATA.  An empty table gets one ``empty`` entry since
    C does not allow empty initializers."""
    entries = list(entries) or [empty]
    out.line(f"extern {declaration};")
    out.line("#ifdef NEED_OPCODE_METADATA")
    with out.block(f"{declaration} =", "};"):
        for entry in entries:
            out.line(f"{entry},")
    out.line("#endif")
    out.line()


def write_switch_function(out: CWriter, signature: str,
                          cases: list[tuple[str, str]], static: bool) -> None:
    """A function returning an int expression per case, -1 otherwise."""
    prefix = "static inline int" if static else "int"
    out.line(prefix)
    out.line(signature)
    with out.block(""):
        out.line("(void)(oparg);")
        with out.block("switch (opcode)"):
            for label, value in cases:
                out.line(f"case {label}:")
                out.line(f"    return {value};")
            out.line("default:")
            out.line("    return -1;")
    out.line()


# -- this file's sections --------------------------------------------------

def table_size(analysis: Analysis) -> int:
    """Size of the tables indexed by any (real or pseudo) opcode."""
    return analysis.max_pseudo_opcode + 1


def write_limits(analysis: Analysis, out: CWriter) -> None:
    out.line(f"#define MAX_REAL_OPCODE {analysis.max_real_opcode}")
    out.line(f"#define MIN_PSEUDO_OPCODE {analysis.min_pseudo}")
    out.line(f"#define MAX_PSEUDO_OPCODE {analysis.max_pseudo_opcode}")
    out.line("#define IS_PSEUDO_INSTR(OP) "
             "((OP) >= MIN_PSEUDO_OPCODE && (OP) <= MAX_PSEUDO_OPCODE)")
    out.line()
    out.line("/* Changes whenever compiled code would read differently: opcode")
    out.line("   numbers, stack effects or inline-cache sizes.  The .pyc magic")
    out.line("   number is derived from it (Python/import.c). */")
    out.line(f"#define _Py_BYTECODE_STAMP {bytecode_stamp(analysis)}")
    out.line()


def bytecode_stamp(analysis: Analysis) -> int:
    facts = [f"{name}={number}" for name, number in sorted(analysis.opmap.items())]
    facts += [f"{inst.name}:{inst.popped.to_c()}:{inst.pushed.to_c()}:{inst.cache_size}"
              for inst in sorted(analysis.instructions.values(),
                                 key=lambda inst: inst.name)]
    digest = hashlib.sha256("\n".join(facts).encode()).digest()
    return int.from_bytes(digest[:4], "little") % 10000


def _all_opcodes(analysis: Analysis):
    """(name, popped, pushed) for every real and pseudo instruction."""
    items = [(inst.name, inst.popped, inst.pushed)
             for inst in analysis.instructions.values()]
    items += [(pseudo.name, pseudo.popped, pseudo.pushed)
              for pseudo in analysis.pseudos.values()]
    return sorted(items)


def write_stack_effects(analysis: Analysis, out: CWriter) -> None:
    opcodes = _all_opcodes(analysis)
    write_switch_function(
        out, "_PyOpcode_num_popped(int opcode, int oparg)",
        [(name, popped.to_c()) for name, popped, _ in opcodes], static=True)
    write_switch_function(
        out, "_PyOpcode_num_pushed(int opcode, int oparg)",
        [(name, pushed.to_c()) for name, _, pushed in opcodes], static=True)


def write_flag_table(analysis: Analysis, out: CWriter) -> None:
    size = table_size(analysis)
    out.line("struct opcode_metadata {")
    out.line("    uint8_t valid_entry;")
    out.line("    uint16_t flags;")
    out.line("};")
    out.line()
    entries = []
    for inst in analysis.sorted_instructions():
        flags = flags_expression(inst.properties.flag_names())
        entries.append(f"[{inst.name}] = {{ true, {flags} }}")
    for pseudo in sorted(analysis.pseudos.values(), key=lambda p: p.name):
        flags = flags_expression(
            [name for name in FLAG_NAMES if name in pseudo.flags])
        entries.append(f"[{pseudo.name}] = {{ true, {flags} }}")
    write_table(out, "const struct opcode_metadata "
                     f"_PyOpcode_opcode_metadata[{size}]", entries,
                empty="{ false, 0 }")
    out.line("#define IS_VALID_OPCODE(OP) \\")
    out.line(f"    (((OP) >= 0) && ((OP) < {size}) && \\")
    out.line("     (_PyOpcode_opcode_metadata[(OP)].valid_entry))")
    out.line()


def write_cache_tables(analysis: Analysis, out: CWriter) -> None:
    insts = analysis.sorted_instructions()
    for inst in insts:
        if inst.cache_size and not inst.is_specialization:
            macro = f"INLINE_CACHE_ENTRIES_{inst.name}"
            out.line(f"#ifndef {macro}")
            out.line(f"#define {macro} {inst.cache_size}")
            out.line("#endif")
    out.line()
    write_table(out, "const uint8_t _PyOpcode_Caches[256]",
                [f"[{inst.name}] = {inst.cache_size}"
                 for inst in insts if inst.cache_size])
    write_table(out, "const uint8_t _PyOpcode_Deopt[256]",
                [f"[{inst.name}] = {inst.deopt_target.name}"
                 for inst in insts])


def write_opnames(analysis: Analysis, out: CWriter) -> None:
    write_table(out, "const char *const "
                     f"_PyOpcode_OpName[{table_size(analysis)}]",
                [f'[{name}] = "{name}"' for name in sorted(analysis.opmap)])


def macro_expansion(inst: Instruction) -> list[tuple[str, str, int]] | None:
    """The (uop, operand kind, cache offset) list that lets tier 2 run
    ``inst``, or None if some part of it cannot run in tier 2."""
    expansion = []
    for part in inst.uop_parts:
        uop = part.uop
        if "specializing" in uop.annotations or "untraced" in uop.annotations:
            continue  # tier-1 bookkeeping that a trace does without
        if not uop.is_viable_in_tier2 and "branch" not in uop.annotations:
            return None
        offset = part.cache_offset
        used = []
        for cache in uop.caches:
            if not cache.is_unused:
                used.append((cache.size, offset))
            offset += cache.size
        if len(used) > 1:
            return None  # the table can describe a single operand only
        size, cache_offset = used[0] if used else (0, 0)
        expansion.append((uop.name, OPARG_KINDS[size], cache_offset))
    return expansion or None


def write_macro_expansions(analysis: Analysis, out: CWriter) -> None:
    expansions = [(inst.name, macro_expansion(inst))
                  for inst in analysis.sorted_instructions()]
    expansions = [(name, uops) for name, uops in expansions if uops]
    max_uops = max((len(uops) for _, uops in expansions), default=1)
    out.line(f"#define MAX_UOPS_PER_INST {max_uops}")
    for size, kind in OPARG_KINDS.items():
        out.line(f"#define {kind} {size}")
    out.line("struct opcode_macro_expansion {")
    out.line("    int nuops;")
    out.line("    struct { int16_t uop; int8_t size; int8_t offset; } "
             "uops[MAX_UOPS_PER_INST];")
    out.line("};")
    out.line()
    entries = []
    for name, uops in expansions:
        listed = ", ".join(f"{{ {uop}, {kind}, {offset} }}"
                           for uop, kind, offset in uops)
        entries.append(f"[{name}] = {{ .nuops = {len(uops)}, "
                       f".uops = {{ {listed} }} }}")
    write_table(out, "const struct opcode_macro_expansion "
                     "_PyOpcode_macro_expansion[256]", entries,
                empty="{ 0 }")


def write_pseudo_targets(analysis: Analysis, out: CWriter) -> None:
    pseudos = sorted(analysis.pseudos.values(), key=lambda p: p.opcode)
    max_targets = max((len(p.targets) for p in pseudos), default=1)
    out.line(f"#define MAX_PSEUDO_TARGETS {max_targets}")
    out.line("struct pseudo_targets {")
    out.line("    /* Real opcodes the pseudo op may become, 0-terminated. */")
    out.line("    uint8_t targets[MAX_PSEUDO_TARGETS + 1];")
    out.line("};")
    out.line()
    entries = []
    for pseudo in pseudos:
        names = ", ".join(target.name for target in pseudo.targets)
        entries.append(f"[{pseudo.name} - MIN_PSEUDO_OPCODE] = "
                       f"{{ {{ {names}, 0 }} }}")
    write_table(out, "const struct pseudo_targets "
                     f"_PyOpcode_PseudoTargets[{max(1, len(pseudos))}]",
                entries, empty="{ { 0 } }")
    out.line("static inline bool")
    out.line("is_pseudo_target(int pseudo, int target)")
    with out.block(""):
        with out.block("if (!IS_PSEUDO_INSTR(pseudo))"):
            out.line("return false;")
        out.line("const uint8_t *targets = "
                 "_PyOpcode_PseudoTargets[pseudo - MIN_PSEUDO_OPCODE].targets;")
        with out.block("for (int i = 0; targets[i] != 0; i++)"):
            with out.block("if (targets[i] == target)"):
                out.line("return true;")
        out.line("return false;")
    out.line()


if __name__ == "__main__":
    main(SCRIPT, OUTPUT, generate, __doc__.splitlines()[0])
