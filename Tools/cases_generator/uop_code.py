"""Stack traffic code shared by the tier-1 and tier-2 generators.

The model is deliberately simple: an operation reads its inputs from the
stack into locals when it starts, runs its body with the stack pointer
unchanged (so the inputs are still on the stack, owned by it, while the
body runs), then writes its outputs and moves the stack pointer once.
Array items are never copied: they become pointers into the stack.
"""

from __future__ import annotations

import lexer
from cwriter import CWriter
from errors import DSLError
from model import Uop

STACKREF = "_PyStackRef"


def declarations(uops: list[Uop], where: str) -> list[str]:
    """Declare the stack items of ``uops`` that the code uses, once each,
    in order of first appearance.  The same name in two uops must be the
    same kind (array or single item)."""
    kinds: dict[str, bool] = {}
    for uop in uops:
        used = used_items(uop)
        for item in uop.inputs + uop.outputs:
            if item.is_unused or item.name not in used:
                continue
            previous = kinds.setdefault(item.name, item.is_array)
            if previous != item.is_array:
                raise DSLError(
                    f"{item.name} is an array in one part of {where} and a "
                    f"single item in another", item.location.filename,
                    item.location.line)
    return [f"{STACKREF} *{name};" if is_array else f"{STACKREF} {name};"
            for name, is_array in kinds.items()]


def used_items(uop: Uop) -> set[str]:
    """Names of the stack items that the generated code touches.

    An item the body never mentions needs no local, unless the value must
    move to another stack cell as an output.  Skipping the others keeps
    the output free of set-but-unused variables.
    """
    idents = {token.text for token in uop.body.tokens
              if token.kind == lexer.IDENT}
    if "DECREF_INPUTS" in idents:
        idents |= {item.name for item in uop.inputs}
    used = set()
    layout = uop.layout
    for placed in layout.outputs:
        item = placed.item
        if item.is_unused:
            continue
        if item.name in idents or needs_store(uop, placed):
            used.add(item.name)
    for placed in layout.inputs:
        if placed.item.name in idents:
            used.add(placed.item.name)
    used.discard("unused")
    return used


def needs_store(uop: Uop, placed) -> bool:
    """Whether a single output must be written to its stack cell: not if
    it is an unchanged input that already sits in that very cell."""
    item = placed.item
    if item.is_unused or item.is_array:
        return False
    same = uop.layout.input_named(item.name)
    return (same is None or same.offset != placed.offset
            or item.name in assigned_names(uop))


def load_inputs(uop: Uop, out: CWriter) -> None:
    """Read the used inputs, top of stack first; arrays become pointers."""
    used = used_items(uop)
    for placed in reversed(uop.layout.inputs):
        item = placed.item
        if item.is_unused or item.name not in used:
            continue
        offset = placed.offset.to_c()
        if item.is_array:
            out.line(f"{item.name} = &stack_pointer[{offset}];")
        else:
            out.line(f"{item.name} = stack_pointer[{offset}];")


def point_array_outputs(uop: Uop, out: CWriter) -> None:
    """Aim each array output at the stack cells the body must fill."""
    layout = uop.layout
    used = used_items(uop)
    for placed in layout.outputs:
        item = placed.item
        if item.is_unused or not item.is_array or item.name not in used:
            continue
        same = layout.input_named(item.name)
        if same is not None:
            if same.offset == placed.offset and same.item.size == item.size:
                continue
            raise DSLError(
                f"array {item.name} is both an input and an output of "
                f"{uop.name}, at different places", item.location.filename,
                item.location.line)
        out.line(f"{item.name} = &stack_pointer[{placed.offset.to_c()}];")


def store_outputs(uop: Uop, out: CWriter) -> None:
    """Write single outputs, then move the stack pointer."""
    layout = uop.layout
    for placed in layout.outputs:
        if needs_store(uop, placed):
            out.line(f"stack_pointer[{placed.offset.to_c()}] = "
                     f"{placed.item.name};")
    if layout.delta != 0:
        out.line(f"stack_pointer += {layout.delta.to_c()};")


_ASSIGNMENT_OPS = frozenset({
    "=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=",
})


def assigned_names(uop: Uop) -> set[str]:
    """Names the body may change: assigned to, or whose address is taken.

    An output that keeps its input's name and place is normally left
    where it is; if the body changed the local, it must be written back.
    """
    tokens = uop.body.tokens
    names: set[str] = set()
    for index, token in enumerate(tokens):
        if token.kind != lexer.IDENT:
            continue
        before = tokens[index - 1].text if index else ""
        after = tokens[index + 1].text if index + 1 < len(tokens) else ""
        if before in (".", "->"):
            continue
        address_taken = before == "&" and (
            index < 2 or tokens[index - 2].kind == lexer.OP
            and tokens[index - 2].text not in (")", "]"))
        if after in _ASSIGNMENT_OPS or address_taken:
            names.add(token.text)
    return names


def save_stack_pointer_if_escaping(uop: Uop, out: CWriter) -> None:
    """Escaping code may look at the frame, so publish the stack pointer."""
    if uop.properties.escapes:
        out.line("_PyFrame_SetStackPointer(frame, stack_pointer);")
