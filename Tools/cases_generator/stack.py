"""Symbolic stack sizes and the stack layout of one operation.

Array items make stack depths depend on ``oparg``, so offsets are kept as
linear combinations ``constant + sum(coefficient * term)`` where a term is
an identifier (``oparg``) or any other C expression taken as a whole
(``(oparg & 1)``).  Keeping them symbolic lets the generator fold
``-1 - oparg + 1`` into ``-oparg`` and print readable C.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Iterable, Sequence

_LINEAR_RE = re.compile(
    r"\s*[-+]?\s*(?:[A-Za-z_]\w*|\d+)(?:\s*[-+]\s*(?:[A-Za-z_]\w*|\d+))*\s*$"
)
_TERM_RE = re.compile(r"([-+]?)\s*([A-Za-z_]\w*|\d+)")
_SIMPLE_RE = re.compile(r"[A-Za-z_]\w*|\d+")


@dataclasses.dataclass(frozen=True)
class Size:
    """An integer-valued C expression of the form ``c + k1*t1 + k2*t2...``.

    ``terms`` maps a term's canonical text (spaces removed) to a pair
    (display text, coefficient); zero coefficients are never stored.
    """

    const: int = 0
    terms: tuple[tuple[str, str, int], ...] = ()

    @staticmethod
    def parse(expr: str) -> "Size":
        """Read a C size expression such as ``oparg``, ``oparg-1``, ``2``."""
        expr = _strip_parens(expr.strip())
        if _LINEAR_RE.match(expr):
            result = Size()
            for sign, atom in _TERM_RE.findall(expr):
                value = Size(int(atom)) if atom.isdigit() else Size.term(atom)
                result = result - value if sign == "-" else result + value
            return result
        return Size.term(expr.strip())

    @staticmethod
    def term(text: str) -> "Size":
        key = re.sub(r"\s+", "", text)
        return Size(0, ((key, text, 1),))

    def _combine(self, other: "Size", sign: int) -> "Size":
        terms: dict[str, list] = {k: [d, c] for k, d, c in self.terms}
        for key, display, coef in other.terms:
            if key in terms:
                terms[key][1] += sign * coef
            else:
                terms[key] = [display, sign * coef]
        kept = tuple((k, d, c) for k, (d, c) in terms.items() if c)
        return Size(self.const + sign * other.const, kept)

    def __add__(self, other: "Size | int") -> "Size":
        return self._combine(_as_size(other), 1)

    def __sub__(self, other: "Size | int") -> "Size":
        return self._combine(_as_size(other), -1)

    def __neg__(self) -> "Size":
        return Size(-self.const, tuple((k, d, -c) for k, d, c in self.terms))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, int):
            other = Size(other)
        if not isinstance(other, Size):
            return NotImplemented
        return (self.const == other.const
                and sorted((k, c) for k, _, c in self.terms)
                == sorted((k, c) for k, _, c in other.terms))

    def __hash__(self) -> int:
        return hash((self.const, tuple(sorted((k, c) for k, _, c in self.terms))))

    def mentions(self, name: str) -> bool:
        """True if any term uses the identifier ``name``."""
        pattern = re.compile(rf"\b{re.escape(name)}\b")
        return any(pattern.search(display) for _, display, _ in self.terms)

    def to_c(self) -> str:
        """Render as a C expression, constant first: ``-2 - oparg``."""
        text = str(self.const) if self.const or not self.terms else ""
        for _, display, coef in self.terms:
            atom = display if _SIMPLE_RE.fullmatch(display) else f"({display})"
            magnitude = abs(coef)
            piece = atom if magnitude == 1 else f"{magnitude}*{atom}"
            if not text:
                text = f"-{piece}" if coef < 0 else piece
            else:
                text += f" - {piece}" if coef < 0 else f" + {piece}"
        return text

    def __str__(self) -> str:
        return self.to_c()


ZERO = Size()
ONE = Size(1)


def _strip_parens(expr: str) -> str:
    """Drop parentheses around the whole expression: ``(a + b)`` ->
    ``a + b``, but ``(a) + (b)`` stays as it is."""
    while expr.startswith("(") and expr.endswith(")"):
        depth = 0
        for index, char in enumerate(expr):
            depth += {"(": 1, ")": -1}.get(char, 0)
            if depth == 0 and index < len(expr) - 1:
                return expr  # the first '(' closes before the end
        expr = expr[1:-1].strip()
    return expr


def _as_size(value: "Size | int") -> Size:
    return value if isinstance(value, Size) else Size(value)


def total(sizes: Iterable[Size]) -> Size:
    result = ZERO
    for size in sizes:
        result = result + size
    return result


@dataclasses.dataclass(frozen=True)
class Placed:
    """A stack item together with its offset from the stack pointer.

    ``offset`` is where the item's lowest cell lives, relative to the
    stack pointer as it is when the operation starts (before any push or
    pop): ``stack_pointer[offset]``.
    """

    item: "object"   # analyzer.StackItem; typed loosely to avoid a cycle
    offset: Size


@dataclasses.dataclass
class Layout:
    """Where the inputs and outputs of one operation sit on the stack."""

    inputs: list[Placed]      # bottom to top
    outputs: list[Placed]     # bottom to top
    popped: Size              # total size of the inputs
    pushed: Size              # total size of the outputs

    @property
    def delta(self) -> Size:
        return self.pushed - self.popped

    def input_named(self, name: str) -> Placed | None:
        for placed in self.inputs:
            if placed.item.name == name:
                return placed
        return None


def layout(inputs: Sequence, outputs: Sequence) -> Layout:
    """Compute offsets for items that each have a ``size`` attribute.

    Inputs end at the current top of stack; outputs start where the
    lowest input started, because the operation replaces its inputs.
    """
    placed_inputs: list[Placed] = []
    offset = ZERO
    for item in reversed(inputs):
        offset = offset - item.size
        placed_inputs.append(Placed(item, offset))
    placed_inputs.reverse()
    popped = -offset
    placed_outputs: list[Placed] = []
    offset = -popped
    for item in outputs:
        placed_outputs.append(Placed(item, offset))
        offset = offset + item.size
    return Layout(placed_inputs, placed_outputs, popped, offset + popped)


class CompositionError(Exception):
    """Two consecutive operations disagree about the items between them."""


def compose(effects: Sequence[tuple[Sequence, Sequence]]) -> tuple[Size, Size]:
    """Net (popped, pushed) of running several stack effects in a row.

    Each effect is (inputs, outputs).  An input is taken from what earlier
    effects pushed when there is such an item, and otherwise from below
    the starting stack.  Matching is item by item, so an array can only be
    consumed as a whole by an array of the same size.
    """
    pushed: list[Size] = []
    popped = ZERO
    for inputs, outputs in effects:
        for item in reversed(inputs):
            if pushed:
                top = pushed.pop()
                if top != item.size:
                    raise CompositionError(
                        f"item '{item.name}' of size {item.size} meets an item "
                        f"of size {top} pushed by an earlier part")
            else:
                popped = popped + item.size
        pushed.extend(item.size for item in outputs)
    return popped, total(pushed)
