"""Copy instruction bodies into generated code, rewriting DSL macros.

A body is copied character for character, comments and layout included,
except for calls to the DSL's own macros (``ERROR_IF``, ``DEOPT_IF``,
``DECREF_INPUTS``...), which are replaced by the C code that implements
them for the tier being generated.  The result is then re-indented as a
whole to sit at the right depth in the output.

``BodyEmitter`` holds the common machinery and the tier-neutral rewrites;
``Tier1Emitter``, ``Tier2Emitter`` and ``LabelEmitter`` supply what
differs between the tiers.
"""

from __future__ import annotations

import dataclasses
from typing import Callable

import lexer
import liveness
import stack
from dsl_parser import Body
from errors import DSLError
from lexer import Token
from model import Instruction, Uop

# Marks text removed by a rewrite, so a line left empty can be dropped.
_REMOVED = "\x00"

# The DSL's body macros and how many arguments each accepts.
# ERROR_IF(cond, label) is the older spelling of ERROR_IF(cond).
MACRO_ARITY = {
    "ERROR_IF": (1, 2),
    "ERROR_NO_POP": (0,),
    "DEOPT_IF": (1,),
    "EXIT_IF": (1,),
    "DECREF_INPUTS": (0,),
    "DEAD": (1,),
    "INPUTS_DEAD": (0,),
    "SYNC_SP": (0,),
    "INSTRUCTION_SIZE": (0,),
    "ENTER_FRAME": (1,),
}

# Macros that stand for a value, not a statement.
EXPRESSION_MACROS = frozenset({"INSTRUCTION_SIZE"})


@dataclasses.dataclass
class MacroCall:
    """A call of a DSL macro in a body."""

    token: Token            # the macro's name
    args: list[str]         # source text of each argument
    close: int              # index (in the body's tokens) of its ')'


def macro_calls(body: Body) -> list[MacroCall]:
    """Every DSL macro call in ``body``, with its arguments' text.

    Also checks each call's number of arguments, so mistakes are
    reported while analyzing, whichever outputs are generated.
    """
    calls = []
    tokens = body.tokens
    for index, token in enumerate(tokens):
        if (token.text not in MACRO_ARITY or token.kind != lexer.IDENT
                or token.in_directive):
            continue
        if index + 1 >= len(tokens) or tokens[index + 1].text != "(":
            raise DSLError(f"{token.text} must be followed by '('",
                           body.filename, token.line)
        close = _matching_paren(tokens, index + 1, body.filename)
        args = _split_args(body.text, tokens[index + 2:close])
        allowed = MACRO_ARITY[token.text]
        if len(args) not in allowed:
            expected = " or ".join(str(n) for n in allowed)
            noun = "argument" if allowed == (1,) else "arguments"
            raise DSLError(f"{token.text} expects {expected} {noun}, "
                           f"got {len(args)}", body.filename, token.line)
        if any(not arg.strip() for arg in args):
            raise DSLError(f"empty argument in {token.text}", body.filename,
                           token.line)
        calls.append(MacroCall(token, args, close))
    return calls


class BodyEmitter:
    """Rewrites one body; subclasses decide what the error and deopt
    macros turn into."""

    def __init__(self, uop: Uop | None) -> None:
        self.uop = uop
        self.handlers: dict[str, Callable[[Token, list[str], str], str]] = {
            "ERROR_IF": self.error_if,
            "ERROR_NO_POP": self.error_no_pop,
            "DEOPT_IF": self.deopt_if,
            "EXIT_IF": self.exit_if,
            "DECREF_INPUTS": self.decref_inputs,
            "DEAD": self.remove,
            "INPUTS_DEAD": self.remove,
            "SYNC_SP": self.remove,
            "INSTRUCTION_SIZE": self.instruction_size,
            "ENTER_FRAME": self.enter_frame,
        }
        self.filename = "<body>"
        self.liveness: liveness.Liveness | None = None
        self.token_index: dict[int, int] = {}

    # -- driver ------------------------------------------------------------

    def emit(self, body: Body, indent: str) -> list[str]:
        """Return the rewritten body as lines indented by ``indent``."""
        self.filename = body.filename
        self.token_index = {id(t): i for i, t in enumerate(body.tokens)}
        if self.uop is not None:
            names = [item.name for item in self.uop.inputs if not item.is_unused]
            self.liveness = liveness.analyze(body.tokens, names, body.filename)
        return reindent(self.rewrite(body), indent)

    def rewrite(self, body: Body) -> str:
        text = body.text
        tokens = body.tokens
        pieces: list[str] = []
        pos = body.start
        for call in macro_calls(body):
            token = call.token
            if token.start < pos:
                continue  # nested inside an earlier macro's arguments
            end = call.close
            if (end + 1 < len(tokens) and tokens[end + 1].text == ";"
                    and token.text not in EXPRESSION_MACROS):
                end += 1  # the replacement brings its own punctuation
            handler = self.handlers[token.text]
            pieces.append(text[pos:token.start])
            pieces.append(handler(token, call.args,
                                  _line_indent(text, token.start)))
            pos = tokens[end].end
        pieces.append(text[pos:body.end])
        return "".join(pieces)

    def error(self, token: Token, message: str) -> DSLError:
        return DSLError(message, self.filename, token.line)

    # -- tier-neutral rewrites -------------------------------------------

    def remove(self, token: Token, args: list[str], indent: str) -> str:
        """DEAD(x), INPUTS_DEAD() and SYNC_SP() only inform analysis."""
        return _REMOVED

    def decref_inputs(self, token: Token, args: list[str], indent: str) -> str:
        """Close every named input, top of stack first."""
        if self.uop is None:
            raise self.error(token, "DECREF_INPUTS outside an instruction")
        lines = []
        for item in reversed(self.uop.inputs):
            if item.is_unused:
                continue
            if item.is_array:
                lines.append(
                    f"for (int _i = {item.size.to_c()}; --_i >= 0;) {{\n"
                    f"{indent}    PyStackRef_CLOSE({item.name}[_i]);\n"
                    f"{indent}}}")
            else:
                lines.append(f"PyStackRef_CLOSE({item.name});")
        return f"\n{indent}".join(lines) if lines else _REMOVED

    def conditional(self, cond: str, statements: list[str],
                    indent: str) -> str:
        inner = "".join(f"{indent}    {s}\n" for s in statements)
        return f"if ({cond}) {{\n{inner}{indent}}}"

    def dead_inputs_cleanup(self, token: Token) -> list[str]:
        """At an error exit: drop the inputs the body no longer owns.

        Dead inputs at the top are popped; a dead input below a live one
        has its slot cleared, so that the error handler, which closes what
        the stack holds, skips it."""
        if self.uop is None or self.liveness is None:
            return []
        state = self.liveness.state_at(self.token_index[id(token)])
        for name, how in state.items():
            if how == liveness.MAYBE:
                raise self.error(token, f"input '{name}' is dead on some paths "
                                        f"to {token.text} and live on others")
        placed = self.uop.layout.inputs
        popped = stack.ZERO
        top = len(placed)
        while top > 0 and self._dead(placed[top - 1].item, state):
            top -= 1
            popped = popped + placed[top].item.size
        lines = []
        for spot in placed[:top]:
            if self._dead(spot.item, state):
                lines.extend(self._clear_slot(spot))
        if popped != 0:
            lines.append(f"stack_pointer += {(-popped).to_c()};")
        return lines

    @staticmethod
    def _dead(item, state: dict[str, str]) -> bool:
        return not item.is_unused and state.get(item.name) == liveness.DEAD

    @staticmethod
    def _clear_slot(spot) -> list[str]:
        offset = spot.offset.to_c()
        if spot.item.is_array:
            return [f"for (int _i = 0; _i < {spot.item.size.to_c()}; _i++) "
                    f"stack_pointer[{offset} + _i] = PyStackRef_NULL;"]
        return [f"stack_pointer[{offset}] = PyStackRef_NULL;"]

    # -- tier-specific rewrites (overridden) ------------------------------

    def error_if(self, token: Token, args: list[str], indent: str) -> str:
        # ERROR_IF(cond) and the older ERROR_IF(cond, label) mean the same.
        statements = self.dead_inputs_cleanup(token) + [self.goto_error()]
        if args[0].strip() in ("true", "1"):
            return f"\n{indent}".join(statements)
        return self.conditional(args[0], statements, indent)

    def error_no_pop(self, token: Token, args: list[str], indent: str) -> str:
        """The stack is as the operation found it: every input still
        belongs to it (ERROR_IF is the exit for a body that consumed some)."""
        if self.uop is not None and self.liveness is not None:
            state = self.liveness.state_at(self.token_index[id(token)])
            gone = [name for name, how in state.items() if how != liveness.LIVE]
            if gone:
                raise self.error(token, f"ERROR_NO_POP after input '{gone[0]}' was consumed; "
                                        f"use ERROR_IF")
        return self.goto_error()

    def goto_error(self) -> str:
        raise NotImplementedError

    def deopt_if(self, token: Token, args: list[str], indent: str) -> str:
        raise NotImplementedError

    def exit_if(self, token: Token, args: list[str], indent: str) -> str:
        return self.deopt_if(token, args, indent)

    def instruction_size(self, token: Token, args: list[str], indent: str) -> str:
        """INSTRUCTION_SIZE(): code units from this instruction to the next
        (1 + its caches), e.g. a call's return offset."""
        raise self.error(token, "INSTRUCTION_SIZE() outside an instruction")

    def enter_frame(self, token: Token, args: list[str], indent: str) -> str:
        """ENTER_FRAME(f): continue in the frame f just pushed (a call).
        Nothing after it in the body runs."""
        raise self.error(token, "ENTER_FRAME() outside an instruction")


class Tier1Emitter(BodyEmitter):
    """Bodies inside ``TARGET(...)`` cases of the tier-1 interpreter."""

    def __init__(self, uop: Uop, inst: Instruction) -> None:
        super().__init__(uop)
        self.inst = inst

    def goto_error(self) -> str:
        return "goto error;"

    def instruction_size(self, token: Token, args: list[str], indent: str) -> str:
        return str(self.inst.size)

    def enter_frame(self, token: Token, args: list[str], indent: str) -> str:
        return f"DISPATCH_INLINED({args[0].strip()});"

    def deopt_if(self, token: Token, args: list[str], indent: str) -> str:
        head = self.inst.deopt_target.name
        return self.conditional(args[0], [
            f"UPDATE_MISS_STATS({self.inst.name});",
            f"assert(_PyOpcode_Deopt[opcode] == ({head}));",
            f"JUMP_TO_PREDICTED({head});",
        ], indent)


class Tier2Emitter(BodyEmitter):
    """Bodies inside ``case _UOP:`` of the tier-2 executor."""

    def goto_error(self) -> str:
        return "JUMP_TO_ERROR();"

    def instruction_size(self, token: Token, args: list[str], indent: str) -> str:
        sizes = self.uop.instruction_sizes if self.uop else set()
        if len(sizes) != 1:
            raise self.error(token, "INSTRUCTION_SIZE() in a uop used by "
                                    "instructions of different sizes")
        return str(next(iter(sizes)))

    def enter_frame(self, token: Token, args: list[str], indent: str) -> str:
        return f"TIER2_ENTER_FRAME({args[0].strip()});"

    def deopt_if(self, token: Token, args: list[str], indent: str) -> str:
        return self.conditional(args[0], [
            "UOP_STAT_INC(uopcode, miss);",
            "JUMP_TO_JUMP_TARGET();",
        ], indent)


class LabelEmitter(BodyEmitter):
    """Bodies of ``label(...)`` blocks: no stack items, no family."""

    def __init__(self) -> None:
        super().__init__(None)

    def goto_error(self) -> str:
        return "goto error;"

    def deopt_if(self, token: Token, args: list[str], indent: str) -> str:
        raise self.error(token, f"{token.text} cannot be used in a label")


# -- helpers ----------------------------------------------------------------

def _matching_paren(tokens: list[Token], open_index: int,
                    filename: str) -> int:
    depth = 0
    for index in range(open_index, len(tokens)):
        text = tokens[index].text
        if text in "([{":
            depth += 1
        elif text in ")]}":
            depth -= 1
            if depth == 0:
                return index
    raise DSLError("unclosed '(' in macro call", filename,
                   tokens[open_index].line)


def _split_args(text: str, tokens: list[Token]) -> list[str]:
    """Source text of each top-level comma-separated argument."""
    args: list[str] = []
    depth = 0
    current: list[Token] = []
    for token in tokens:
        if token.text in ("(", "[", "{"):
            depth += 1
        elif token.text in (")", "]", "}"):
            depth -= 1
        if token.text == "," and depth == 0:
            args.append(_span(text, current))
            current = []
        else:
            current.append(token)
    if current or args:
        args.append(_span(text, current))
    return args


def _span(text: str, tokens: list[Token]) -> str:
    return text[tokens[0].start:tokens[-1].end] if tokens else ""


def _line_indent(text: str, offset: int) -> str:
    """The leading whitespace of the line containing ``offset``."""
    start = text.rfind("\n", 0, offset) + 1
    end = start
    while end < offset and text[end] in " \t":
        end += 1
    return text[start:end]


def reindent(code: str, indent: str) -> list[str]:
    """Shift a block of code so its least indented line starts at
    ``indent``, keeping relative indentation.  Preprocessor lines at
    column 0 stay there; lines emptied by a rewrite are dropped."""
    lines = code.split("\n")
    # Code on the line of the opening brace has no meaningful indentation:
    # place it like the least indented line.
    first = (lines.pop(0).replace(_REMOVED, "").strip()
             if len(lines) > 1 else None)
    kept = [first] if first else []
    for line in lines:
        if _REMOVED in line:
            line = line.replace(_REMOVED, "")
            if not line.strip():
                continue
        kept.append(line.rstrip())
    while kept and not kept[-1].strip():
        kept.pop()
    while kept and not kept[0].strip():
        kept.pop(0)
    widths = [_width(line) for line in kept[1 if first else 0:]
              if line.strip() and not line.startswith("#")]
    base = min(widths, default=0)
    result = []
    for line in kept:
        if not line.strip():
            result.append("")
        elif line.startswith("#"):
            result.append(line)
        else:
            cut = min(base, _width(line))
            result.append(indent + line[cut:])
    return result


def _width(line: str) -> int:
    return len(line) - len(line.lstrip(" \t"))
