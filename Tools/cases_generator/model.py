"""The analysis model: what the definitions mean, ready for generators.

``analyzer.analyze`` builds these objects from the parser's syntax nodes.
Generators read them and never look at syntax nodes again, except for
instruction bodies (``Uop.body``), which they copy through.
"""

from __future__ import annotations

import dataclasses
import functools

import stack
from dsl_parser import Body, Location
from stack import Size

# Flag bits of the opcode metadata, in bit order.  The C macros are
# named HAS_<NAME>_FLAG and OPCODE_HAS_<NAME>(OP).
FLAG_NAMES = (
    "ARG", "CONST", "NAME", "JUMP", "FREE", "LOCAL", "EVAL_BREAK", "DEOPT",
    "ERROR", "ESCAPES", "EXIT", "PURE", "ERROR_NO_POP", "NO_SAVE_IP",
)
FLAG_BITS = {name: 1 << index for index, name in enumerate(FLAG_NAMES)}

CACHE_TYPES = {1: "uint16_t", 2: "uint32_t", 4: "uint64_t"}
CACHE_READERS = {1: "read_u16", 2: "read_u32", 4: "read_u64"}


@dataclasses.dataclass(frozen=True)
class StackItem:
    """A stack input or output; every cell holds a ``_PyStackRef``."""

    name: str
    size_expr: str | None     # None for a single cell
    location: Location

    @functools.cached_property
    def size(self) -> Size:
        if self.size_expr is None:
            return stack.ONE
        return Size.parse(self.size_expr)

    @property
    def is_array(self) -> bool:
        return self.size_expr is not None

    @property
    def is_unused(self) -> bool:
        return self.name == "unused"


@dataclasses.dataclass(frozen=True)
class CacheItem:
    """An inline cache entry read by an operation: ``name/size``."""

    name: str
    size: int                 # in 16-bit code units
    location: Location

    @property
    def is_unused(self) -> bool:
        return self.name == "unused"

    @property
    def c_type(self) -> str:
        return CACHE_TYPES[self.size]

    @property
    def reader(self) -> str:
        return CACHE_READERS[self.size]


@dataclasses.dataclass
class Properties:
    """Facts about the code of an operation, the source of its flags."""

    oparg: bool = False
    jumps: bool = False
    consts: bool = False
    names: bool = False
    free: bool = False
    local: bool = False
    eval_breaker: bool = False
    deopts: bool = False
    exits: bool = False
    errors: bool = False
    error_no_pop: bool = False
    escapes: bool = False
    pure: bool = False
    no_save_ip: bool = False
    # Why the operation cannot run in tier 2, or None if it can.
    tier2_blocker: str | None = None
    escaping_calls: tuple[str, ...] = ()

    @staticmethod
    def combine(parts: list["Properties"]) -> "Properties":
        """Properties of a sequence of operations run one after another."""
        result = Properties(pure=bool(parts))
        for part in parts:
            for field in dataclasses.fields(Properties):
                name = field.name
                value = getattr(part, name)
                if name == "pure":
                    result.pure = result.pure and value
                elif name == "tier2_blocker":
                    result.tier2_blocker = result.tier2_blocker or value
                elif name == "escaping_calls":
                    result.escaping_calls += value
                else:
                    setattr(result, name, getattr(result, name) or value)
        return result

    @property
    def has_arg(self) -> bool:
        return self.oparg or self.jumps

    def flag_names(self) -> list[str]:
        """The names (without HAS_/_FLAG) of the flags that are set."""
        present = {
            "ARG": self.has_arg,
            "CONST": self.consts,
            "NAME": self.names,
            "JUMP": self.jumps,
            "FREE": self.free,
            "LOCAL": self.local,
            "EVAL_BREAK": self.eval_breaker,
            "DEOPT": self.deopts,
            "ERROR": self.errors,
            "ESCAPES": self.escapes,
            "EXIT": self.exits,
            "PURE": self.pure,
            "ERROR_NO_POP": self.error_no_pop,
            "NO_SAVE_IP": self.no_save_ip,
        }
        return [name for name in FLAG_NAMES if present[name]]


@dataclasses.dataclass(eq=False)
class Uop:
    """A micro-operation: an ``op``, or the operation of an ``inst``."""

    name: str                       # "_LOAD_FAST"; "_NOP" for inst NOP
    kind: str                       # "op" or "inst"
    inputs: list[StackItem]         # stack inputs, bottom to top
    outputs: list[StackItem]        # stack outputs, bottom to top
    caches: list[CacheItem]         # inline cache entries, in order
    body: Body
    annotations: list[str]
    replicate: range                # opargs with a replica, often empty
    location: Location
    properties: Properties = dataclasses.field(default_factory=Properties)
    # Sizes (1 + cache units) of the instructions this uop is part of.
    instruction_sizes: set[int] = dataclasses.field(default_factory=set)

    @property
    def cache_size(self) -> int:
        return sum(cache.size for cache in self.caches)

    @functools.cached_property
    def layout(self) -> stack.Layout:
        return stack.layout(self.inputs, self.outputs)

    @property
    def tier2_only(self) -> bool:
        return "tier2" in self.annotations

    @property
    def is_viable_in_tier2(self) -> bool:
        return self.properties.tier2_blocker is None

    @property
    def replicas(self) -> list[tuple[str, int]]:
        """(uop name, fixed oparg) of each replica of a replicated uop."""
        return [(f"{self.name}_{oparg}", oparg) for oparg in self.replicate]

    @property
    def replica_names(self) -> list[str]:
        return [name for name, _ in self.replicas]


@dataclasses.dataclass(eq=False)
class UopPart:
    """A macro part that runs a uop; ``cache_offset`` counts the cache
    units of the parts before it."""

    name: str                       # as written in the macro
    uop: Uop
    cache_offset: int

    @property
    def cache_size(self) -> int:
        return self.uop.cache_size


@dataclasses.dataclass(eq=False)
class CacheSkip:
    """A macro part ``unused/N`` or ``name/N``: N cache units not read."""

    name: str
    size: int
    cache_offset: int

    @property
    def cache_size(self) -> int:
        return self.size


Part = UopPart | CacheSkip


@dataclasses.dataclass(eq=False)
class Instruction:
    """A real (tier-1) instruction: an ``inst`` or a ``macro``."""

    name: str
    parts: list[Part]
    is_macro: bool
    location: Location
    properties: Properties = dataclasses.field(default_factory=Properties)
    family: "Family | None" = None
    opcode: int = -1
    popped: Size = stack.ZERO       # net stack effect of all the parts
    pushed: Size = stack.ZERO

    @property
    def cache_size(self) -> int:
        return sum(part.cache_size for part in self.parts)

    @property
    def size(self) -> int:
        """Code units taken by the instruction and its inline cache."""
        return 1 + self.cache_size

    @property
    def uop_parts(self) -> list[UopPart]:
        return [part for part in self.parts if isinstance(part, UopPart)]

    @property
    def is_family_head(self) -> bool:
        return self.family is not None and self.family.head is self

    @property
    def is_specialization(self) -> bool:
        return self.family is not None and self.family.head is not self

    @property
    def deopt_target(self) -> "Instruction":
        """The generic instruction this one falls back to."""
        return self.family.head if self.family is not None else self


@dataclasses.dataclass(eq=False)
class Family:
    """A generic instruction (the head) and its specializations."""

    name: str
    head: Instruction
    members: list[Instruction]
    size_expr: str
    location: Location


@dataclasses.dataclass(eq=False)
class Pseudo:
    """A compiler-only instruction standing for one of its targets."""

    name: str
    popped: Size
    pushed: Size
    flags: list[str]                # flag names without HAS_ / _FLAG
    targets: list[Instruction]
    location: Location
    opcode: int = -1

    @property
    def has_arg(self) -> bool:
        return "ARG" in self.flags


@dataclasses.dataclass(eq=False)
class Label:
    """A shared block of code that instruction bodies may jump to."""

    name: str
    body: Body
    annotations: list[str]
    location: Location


@dataclasses.dataclass(eq=False)
class Analysis:
    """Everything the generators need, with numbering done."""

    filenames: list[str]
    instructions: dict[str, Instruction]   # real instructions, source order
    uops: dict[str, Uop]                   # by uop name, source order
    families: dict[str, Family]            # by head name
    pseudos: dict[str, Pseudo]
    labels: dict[str, Label]
    opmap: dict[str, int]          # every real and pseudo opcode number
    have_argument: int
    min_instrumented: int
    min_specialized: int
    min_pseudo: int
    uop_ids: dict[str, int]        # including replicas

    @property
    def max_real_opcode(self) -> int:
        return max(number for number in self.opmap.values() if number < 256)

    @property
    def max_pseudo_opcode(self) -> int:
        numbers = [pseudo.opcode for pseudo in self.pseudos.values()]
        return max(numbers, default=self.min_pseudo - 1)

    @property
    def max_uop_id(self) -> int:
        return max(self.uop_ids.values(), default=self.max_real_opcode)

    def sorted_instructions(self) -> list[Instruction]:
        return sorted(self.instructions.values(), key=lambda inst: inst.name)
