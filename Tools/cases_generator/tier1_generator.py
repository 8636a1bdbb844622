"""Generate the tier-1 interpreter cases: Python/generated_cases.c.h.

One ``TARGET(NAME) { ... }`` block per real instruction, alphabetically.
The interpreter loop includes this file inside its dispatch switch (or
computed-goto table) and provides the locals and macros it uses; see
README.md for the full list.
"""

from __future__ import annotations

import uop_code
from cwriter import CWriter
from emitter import Tier1Emitter
from generators_common import c_banner, main
from model import Analysis, CacheSkip, Instruction, UopPart

SCRIPT = "tier1_generator.py"
OUTPUT = "Python/generated_cases.c.h"
CASE_INDENT = 2    # cases sit inside the loop body and its switch


def generate(analysis: Analysis) -> str:
    out = CWriter()
    out.raw(c_banner(SCRIPT, analysis))
    out.line()
    out.line("#ifdef TIER_TWO")
    out.line('    #error "this header is for the tier-1 interpreter only"')
    out.line("#endif")
    out.line("#define TIER_ONE 1")
    out.line()
    out.level = CASE_INDENT
    for inst in analysis.sorted_instructions():
        write_case(inst, out)
        out.line()
    out.level = 0
    out.line("#undef TIER_ONE")
    return out.text()


def write_case(inst: Instruction, out: CWriter) -> None:
    with out.block(f"TARGET({inst.name})"):
        if not inst.properties.no_save_ip:
            # no_save_ip: the body reads the previous instruction's
            # pointer (INSTRUMENTED_LINE) and saves its own.
            out.line("frame->instr_ptr = next_instr;")
        out.line(f"next_instr += {inst.size};")
        out.line(f"INSTRUCTION_STATS({inst.name});")
        if inst.is_family_head:
            out.line(f"PREDICTED_{inst.name}:;")
        out.line(f"_Py_CODEUNIT* const this_instr = next_instr - {inst.size};")
        out.line("(void)this_instr;")
        uops = [part.uop for part in inst.uop_parts]
        for declaration in uop_code.declarations(uops, inst.name):
            out.line(declaration)
        for part in inst.parts:
            if isinstance(part, CacheSkip):
                write_skip(part, out)
            elif inst.is_macro:
                out.line(f"// {part.name}")
                with out.block(""):
                    write_part(inst, part, out)
            else:
                write_part(inst, part, out)
        out.line("DISPATCH();")


def write_skip(part: CacheSkip, out: CWriter) -> None:
    noun = "entry" if part.size == 1 else "entries"
    out.line(f"/* Skip {part.size} cache {noun} */")


def write_part(inst: Instruction, part: UopPart, out: CWriter) -> None:
    """The code of one uop inside an instruction's case."""
    uop = part.uop
    uop_code.load_inputs(uop, out)
    uop_code.point_array_outputs(uop, out)
    offset = 1 + part.cache_offset
    for cache in uop.caches:
        if not cache.is_unused:
            out.line(f"{cache.c_type} {cache.name} = "
                     f"{cache.reader}(&this_instr[{offset}].cache);")
            out.line(f"(void){cache.name};")
        offset += cache.size
    uop_code.save_stack_pointer_if_escaping(uop, out)
    out.raw(Tier1Emitter(uop, inst).emit(uop.body, out.prefix))
    uop_code.store_outputs(uop, out)


if __name__ == "__main__":
    main(SCRIPT, OUTPUT, generate, __doc__.splitlines()[0])
