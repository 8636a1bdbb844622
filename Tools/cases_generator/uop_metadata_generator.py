"""Generate the micro-op metadata: Include/internal/pycore_uop_metadata.h.

Flags, names, replication counts and stack effects of every uop, indexed
by uop id.  Like the opcode metadata, the tables are defined only where
NEED_OPCODE_METADATA is defined.
"""

from __future__ import annotations

from cwriter import CWriter
from generators_common import c_banner, main
from model import Analysis
from opcode_metadata_generator import (flags_expression, write_epilogue,
                                       write_flag_definitions, write_prologue,
                                       write_switch_function, write_table)

SCRIPT = "uop_metadata_generator.py"
OUTPUT = "Include/internal/pycore_uop_metadata.h"
GUARD = "Py_CORE_UOP_METADATA_H"
SIZE = "MAX_UOP_ID+1"


def uops_with_replicas(analysis: Analysis):
    """(uop id name, uop) for every uop and replica, by id."""
    pairs = []
    for uop in analysis.uops.values():
        pairs.append((uop.name, uop))
        pairs.extend((name, uop) for name in uop.replica_names)
    return sorted(pairs, key=lambda pair: analysis.uop_ids[pair[0]])


def generate(analysis: Analysis) -> str:
    out = CWriter()
    out.raw(c_banner(SCRIPT, analysis))
    out.line()
    write_prologue(out, GUARD)
    out.line('#include "pycore_uop_ids.h"')
    out.line()
    write_flag_definitions(out)
    out.line("/* Replicas of a uop exist for opargs start <= oparg < stop. */")
    out.line("typedef struct { uint8_t start; uint8_t stop; } "
             "_PyUopReplication;")
    out.line()
    pairs = uops_with_replicas(analysis)
    write_table(out, f"const uint16_t _PyUop_Flags[{SIZE}]",
                [f"[{name}] = "
                 f"{flags_expression(uop.properties.flag_names())}"
                 for name, uop in pairs])
    write_table(out, "const _PyUopReplication "
                     f"_PyUop_Replication[{SIZE}]",
                [f"[{uop.name}] = {{ {uop.replicate.start}, "
                 f"{uop.replicate.stop} }}"
                 for uop in analysis.uops.values() if uop.replicate],
                empty="{ 0, 0 }")
    write_table(out, f"const char *const _PyOpcode_uop_name[{SIZE}]",
                [f'[{name}] = "{name}"' for name, _ in pairs])
    out.line("extern int _PyUop_num_popped(int opcode, int oparg);")
    out.line("#ifdef NEED_OPCODE_METADATA")
    write_switch_function(
        out, "_PyUop_num_popped(int opcode, int oparg)",
        [(name, uop.layout.popped.to_c()) for name, uop in pairs],
        static=False)
    out.line("#endif")
    out.line()
    write_epilogue(out, GUARD)
    return out.text()


if __name__ == "__main__":
    main(SCRIPT, OUTPUT, generate, __doc__.splitlines()[0])
