"""Opcode and uop numbering.

Opcode numbers follow the layout of CPython 3.14 so that the standard
library's ``dis`` and ``opcode`` modules can read our tables:

* fixed numbers: CACHE 0, RESERVED 17, RESUME 128, INSTRUMENTED_LINE 254,
  ENTER_EXECUTOR 255 (0, 17 and 128 are always reserved; the others only
  exist if defined);
* other generic instructions: first those without an argument, then
  (from HAVE_ARGUMENT on) those with one, each group alphabetically,
  counting up from 1 and skipping reserved numbers;
* specializations (family members): alphabetically from 129;
* INSTRUMENTED_* instructions: alphabetically from 234;
* pseudo instructions: alphabetically from 256.

Uop ids are independent of opcodes: every uop (and every replica of a
replicated uop) gets a number, alphabetically, from MAX_REAL_OPCODE + 1.
"""

from __future__ import annotations

from errors import DSLError
from model import Instruction, Pseudo, Uop

FIXED_OPCODES = {
    "CACHE": 0,
    "RESERVED": 17,
    "RESUME": 128,
    "INSTRUMENTED_LINE": 254,
    "ENTER_EXECUTOR": 255,
}
# ENTER_EXECUTOR is reserved for tier 2 (dis and opcode expect the name)
# before any instruction of that name exists.
ALWAYS_RESERVED = ("CACHE", "RESERVED", "ENTER_EXECUTOR")
RESUME_OPCODE = 128
MIN_SPECIALIZED_OPCODE = 129
MIN_INSTRUMENTED_OPCODE = 234
MIN_PSEUDO_OPCODE = 256
INSTRUMENTED_PREFIX = "INSTRUMENTED_"


def assign_opcodes(instructions: dict[str, Instruction],
                   pseudos: dict[str, Pseudo]) -> tuple[dict[str, int], int]:
    """Number every real and pseudo instruction; return (opmap,
    HAVE_ARGUMENT).  The numbers are also stored in ``.opcode``."""
    opmap: dict[str, int] = {}
    for name, number in FIXED_OPCODES.items():
        if name in instructions or name in ALWAYS_RESERVED:
            opmap[name] = number
    taken = set(opmap.values()) | {RESUME_OPCODE}

    instrumented = sorted(
        name for name in instructions
        if name.startswith(INSTRUMENTED_PREFIX) and name not in opmap)
    _number_from(instrumented, MIN_INSTRUMENTED_OPCODE,
                 FIXED_OPCODES["INSTRUMENTED_LINE"], opmap, taken,
                 instructions, "instrumented instructions")

    generic = [inst for inst in instructions.values()
               if inst.name not in opmap and not inst.is_specialization]
    no_arg = sorted(i.name for i in generic if not i.properties.has_arg)
    with_arg = sorted(i.name for i in generic if i.properties.has_arg)
    have_argument = _number_from(no_arg, 1, RESUME_OPCODE, opmap, taken,
                                 instructions, "generic instructions")
    have_argument = _first_free(have_argument, taken)
    _number_from(with_arg, have_argument, RESUME_OPCODE, opmap, taken,
                 instructions, "generic instructions")

    specialized = sorted(inst.name for inst in instructions.values()
                         if inst.is_specialization and inst.name not in opmap)
    _number_from(specialized, MIN_SPECIALIZED_OPCODE, MIN_INSTRUMENTED_OPCODE,
                 opmap, taken, instructions, "specialized instructions")

    for number, name in enumerate(sorted(pseudos), MIN_PSEUDO_OPCODE):
        opmap[name] = number
        pseudos[name].opcode = number
    for name, inst in instructions.items():
        inst.opcode = opmap[name]
    return opmap, have_argument


def _first_free(number: int, taken: set[int]) -> int:
    while number in taken:
        number += 1
    return number


def _number_from(names: list[str], start: int, limit: int,
                 opmap: dict[str, int], taken: set[int],
                 instructions: dict[str, Instruction], what: str) -> int:
    """Give ``names`` consecutive free numbers from ``start``, all below
    ``limit``; return the number after the last one used."""
    number = start
    for name in names:
        number = _first_free(number, taken)
        if number >= limit:
            location = instructions[name].location
            raise DSLError(
                f"too many {what}: no opcode number below {limit} is left "
                f"for {name}", location.filename, location.line)
        opmap[name] = number
        taken.add(number)
        number += 1
    return number


def assign_uop_ids(uops: dict[str, Uop], first_id: int) -> dict[str, int]:
    """Number all uops and their replicas alphabetically from ``first_id``."""
    names: list[str] = []
    for uop in uops.values():
        names.append(uop.name)
        names.extend(uop.replica_names)
    duplicates = {name for name in names if names.count(name) > 1}
    if duplicates:
        name = sorted(duplicates)[0]
        location = uops[name].location if name in uops else None
        raise DSLError(f"uop name {name} is defined twice (check replicas)",
                       location.filename if location else "<input>",
                       location.line if location else 0)
    return {name: number
            for number, name in enumerate(sorted(names), first_id)}
