"""Generate the tier-2 executor cases: Python/executor_cases.c.h.

One ``case _UOP: { ... break; }`` per uop that can run in tier 2, in
source order; replicated uops also get one case per replica, with oparg
fixed.  A uop that cannot run in tier 2 (it touches the instruction
stream, jumps to tier-1 labels, or is marked tier1) gets a comment
saying why instead.
"""

from __future__ import annotations

import uop_code
from cwriter import CWriter
from emitter import Tier2Emitter
from generators_common import c_banner, main
from model import Analysis, Uop

SCRIPT = "tier2_generator.py"
OUTPUT = "Python/executor_cases.c.h"
CASE_INDENT = 2


def generate(analysis: Analysis) -> str:
    out = CWriter()
    out.raw(c_banner(SCRIPT, analysis))
    out.line()
    out.line("#ifdef TIER_ONE")
    out.line('    #error "this header is for the tier-2 executor only"')
    out.line("#endif")
    out.line("#define TIER_TWO 2")
    out.line()
    out.level = CASE_INDENT
    for uop in analysis.uops.values():
        reason = uop.properties.tier2_blocker
        if reason is not None:
            out.line(f"/* {uop.name} is not a viable micro-op for tier 2 "
                     f"because {reason} */")
            out.line()
            continue
        write_case(uop, uop.name, None, out)
        for name, oparg in uop.replicas:
            write_case(uop, name, oparg, out)
    out.level = 0
    out.line("#undef TIER_TWO")
    return out.text()


def write_case(uop: Uop, name: str, oparg: int | None, out: CWriter) -> None:
    with out.block(f"case {name}:"):
        for declaration in uop_code.declarations([uop], uop.name):
            out.line(declaration)
        if oparg is not None:
            out.line(f"oparg = {oparg};")
            out.line("assert(oparg == CURRENT_OPARG());")
        elif uop.properties.oparg:
            out.line("oparg = CURRENT_OPARG();")
        uop_code.load_inputs(uop, out)
        uop_code.point_array_outputs(uop, out)
        used = [cache for cache in uop.caches if not cache.is_unused]
        for index, cache in enumerate(used):
            out.line(f"{cache.c_type} {cache.name} = "
                     f"({cache.c_type})CURRENT_OPERAND{index}();")
            out.line(f"(void){cache.name};")
        uop_code.save_stack_pointer_if_escaping(uop, out)
        out.raw(Tier2Emitter(uop).emit(uop.body, out.prefix))
        uop_code.store_outputs(uop, out)
        out.line("break;")
    out.line()


if __name__ == "__main__":
    main(SCRIPT, OUTPUT, generate, __doc__.splitlines()[0])
