"""Generate the public opcode numbers: Include/opcode_ids.h.

``#define NAME N`` for every real and pseudo instruction (reserved names
included), ordered by number, followed by HAVE_ARGUMENT,
MIN_SPECIALIZED_OPCODE and MIN_INSTRUMENTED_OPCODE.  See numbering.py
for how the numbers are chosen.
"""

from __future__ import annotations

from cwriter import CWriter
from generators_common import c_banner, main
from model import Analysis

SCRIPT = "opcode_id_generator.py"
OUTPUT = "Include/opcode_ids.h"
GUARD = "Py_OPCODE_IDS_H"


def define(name: str, value: int | str) -> str:
    return f"#define {name:<40} {value}"


def generate(analysis: Analysis) -> str:
    out = CWriter()
    out.raw(c_banner(SCRIPT, analysis))
    out.line()
    out.line(f"#ifndef {GUARD}")
    out.line(f"#define {GUARD}")
    out.line("#ifdef __cplusplus")
    out.line('extern "C" {')
    out.line("#endif")
    out.line()
    out.line("/* Instruction opcodes for compiled code */")
    for name, number in sorted(analysis.opmap.items(),
                               key=lambda pair: (pair[1], pair[0])):
        out.line(define(name, number))
    out.line()
    out.line(define("HAVE_ARGUMENT", analysis.have_argument))
    out.line(define("MIN_SPECIALIZED_OPCODE", analysis.min_specialized))
    out.line(define("MIN_INSTRUMENTED_OPCODE", analysis.min_instrumented))
    out.line()
    out.line("#ifdef __cplusplus")
    out.line("}")
    out.line("#endif")
    out.line(f"#endif /* !{GUARD} */")
    return out.text()


if __name__ == "__main__":
    main(SCRIPT, OUTPUT, generate, __doc__.splitlines()[0])
