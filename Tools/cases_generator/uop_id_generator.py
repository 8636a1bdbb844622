"""Generate the micro-op ids: Include/internal/pycore_uop_ids.h.

``#define _NAME N`` for every uop (and replica), alphabetically, from
MAX_REAL_OPCODE + 1, then MAX_UOP_ID.
"""

from __future__ import annotations

from cwriter import CWriter
from generators_common import c_banner, main
from model import Analysis
from opcode_id_generator import define

SCRIPT = "uop_id_generator.py"
OUTPUT = "Include/internal/pycore_uop_ids.h"
GUARD = "Py_CORE_UOP_IDS_H"


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
    for name, number in analysis.uop_ids.items():
        out.line(define(name, number))
    out.line(define("MAX_UOP_ID", analysis.max_uop_id))
    out.line()
    out.line("#ifdef __cplusplus")
    out.line("}")
    out.line("#endif")
    out.line(f"#endif /* !{GUARD} */")
    return out.text()


if __name__ == "__main__":
    main(SCRIPT, OUTPUT, generate, __doc__.splitlines()[0])
