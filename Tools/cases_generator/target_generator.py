"""Generate the computed-goto table: Python/opcode_targets.h.

``opcode_targets[op]`` is the address of the label ``TARGET_<NAME>`` that
the interpreter's ``TARGET(NAME)`` macro defines for each real
instruction; numbers without an instruction go to ``_unknown_opcode``.

With tier 2 built in, ``opcode_tracing_targets`` is the second table of
dual dispatch: while a trace is being recorded every opcode goes to the
label ``record_instruction``, which records the instruction and then jumps
through ``opcode_targets`` to run it.
"""

from __future__ import annotations

from cwriter import CWriter
from generators_common import c_banner, main
from model import Analysis

SCRIPT = "target_generator.py"
OUTPUT = "Python/opcode_targets.h"


def generate(analysis: Analysis) -> str:
    by_number = {inst.opcode: inst.name
                 for inst in analysis.instructions.values()}
    out = CWriter()
    out.raw(c_banner(SCRIPT, analysis))
    out.line()
    with out.block("static void *opcode_targets[256] =", "};"):
        for number in range(256):
            name = by_number.get(number)
            out.line(f"&&TARGET_{name}," if name else "&&_unknown_opcode,")
    out.line("#ifdef _Py_TIER2")
    with out.block("static void *opcode_tracing_targets[256] =", "};"):
        for number in range(0, 256, 8):
            out.line(" ".join(["&&record_instruction,"] * 8))
    out.line("#endif")
    return out.text()


if __name__ == "__main__":
    main(SCRIPT, OUTPUT, generate, __doc__.splitlines()[0])
