"""Generate the opcode tables for Python code: Lib/_opcode_metadata.py.

The standard library's ``opcode`` and ``dis`` modules import
``_specializations``, ``_specialized_opmap``, ``opmap``, HAVE_ARGUMENT
and MIN_INSTRUMENTED_OPCODE from this module.
"""

from __future__ import annotations

from cwriter import CWriter
from generators_common import main, python_banner
from model import Analysis

SCRIPT = "py_metadata_generator.py"
OUTPUT = "Lib/_opcode_metadata.py"


def generate(analysis: Analysis) -> str:
    out = CWriter()
    out.raw(python_banner(SCRIPT, analysis))
    out.line("_specializations = {")
    out.indent()
    for family in analysis.families.values():
        out.line(f'"{family.name}": [')
        out.indent()
        for member in family.members:
            out.line(f'"{member.name}",')
        out.dedent()
        out.line("],")
    out.dedent()
    out.line("}")
    out.line()
    specialized = sorted(
        (inst.opcode, inst.name) for inst in analysis.instructions.values()
        if inst.is_specialization)
    out.line("_specialized_opmap = {")
    for number, name in specialized:
        out.line(f"    '{name}': {number},")
    out.line("}")
    out.line()
    specialized_names = {name for _, name in specialized}
    out.line("opmap = {")
    for name, number in sorted(analysis.opmap.items(),
                               key=lambda pair: (pair[1], pair[0])):
        if name not in specialized_names:
            out.line(f"    '{name}': {number},")
    out.line("}")
    out.line()
    out.line(f"HAVE_ARGUMENT = {analysis.have_argument}")
    out.line(f"MIN_INSTRUMENTED_OPCODE = {analysis.min_instrumented}")
    return out.text()


if __name__ == "__main__":
    main(SCRIPT, OUTPUT, generate, __doc__.splitlines()[0])
