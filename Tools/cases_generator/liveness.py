"""Which of an operation's inputs the stack still owns at each error exit.

An input read off the stack is owned by its stack slot until the body
gives it away: closes it (``PyStackRef_CLOSE``/``CLOSE_INERT``/``XCLOSE``/``CLEAR``),
steals it (``PyStackRef_AsPyObjectSteal``), hands it to a helper that
consumes it and says so (``DEAD(x)``), or says all inputs are gone
(``INPUTS_DEAD()``, ``DECREF_INPUTS()``).  At ``ERROR_IF`` the generated
code must drop exactly the slots whose input is dead and leave the live
ones for the error handler, which closes whatever the stack still holds.

The analysis walks the body's statements in order and follows C's
structure just enough to be right: an ``if`` merges the states of its
two arms (an arm that ends in a jump such as ``goto``, ``DISPATCH()`` or
``ERROR_NO_POP()`` does not reach the merge), and the body of a loop is
taken to have run (loops in bodies close arrays element by element).
An input dead on one path and live on another where an error exit needs
to know is reported as a DSL error: the body must be made unambiguous.
"""

from __future__ import annotations

import dataclasses

import lexer
from errors import DSLError
from lexer import Token

LIVE = "live"
DEAD = "dead"
MAYBE = "maybe"

# Calls that consume the stack ref passed as their first argument.
CONSUMERS = {
    "PyStackRef_CLOSE", "PyStackRef_CLOSE_INERT", "PyStackRef_XCLOSE", "PyStackRef_CLEAR",
    "PyStackRef_AsPyObjectSteal", "DEAD",
}
# Calls that consume every input.
CONSUME_ALL = {"INPUTS_DEAD", "DECREF_INPUTS"}
# Statements (by their first token) after which control does not go on.
JUMPS = {
    "goto", "return", "break", "continue",
    "ERROR_NO_POP", "DISPATCH", "DISPATCH_INLINED", "DISPATCH_SAME_OPARG",
    "JUMP_TO_PREDICTED", "JUMP_TO_ERROR", "JUMP_TO_JUMP_TARGET", "GOTO_TIER_ONE",
}
# Macros whose input state the emitters need.
QUERIED = {"ERROR_IF", "ERROR_NO_POP"}


@dataclasses.dataclass
class Liveness:
    """The state of each named input at every queried macro, keyed by the
    index of the macro's name in the body's tokens."""

    at: dict[int, dict[str, str]]

    def state_at(self, index: int) -> dict[str, str]:
        return self.at[index]


def analyze(tokens: list[Token], inputs: list[str], filename: str) -> Liveness:
    walker = _Walker(tokens, inputs, filename)
    walker.run()
    return Liveness(walker.recorded)


def _merge(a: dict[str, str] | None, b: dict[str, str] | None) -> dict[str, str] | None:
    if a is None:
        return b
    if b is None:
        return a
    return {name: a[name] if a[name] == b[name] else MAYBE for name in a}


class _Walker:
    def __init__(self, tokens: list[Token], inputs: list[str], filename: str) -> None:
        self.tokens = [t for t in tokens if t.kind != lexer.COMMENT and not t.in_directive]
        # Positions in the caller's token list, for recording.
        self.index_of = {id(t): i for i, t in enumerate(tokens)}
        self.inputs = inputs
        self.filename = filename
        self.recorded: dict[int, dict[str, str]] = {}

    def run(self) -> None:
        state = {name: LIVE for name in self.inputs}
        pos = 0
        while pos < len(self.tokens):
            pos, state = self.statement(pos, state)
            if state is None:
                # Code after a jump at the top level is reached by labels
                # or not at all: carry on with what the inputs were.
                state = {name: MAYBE for name in self.inputs}

    # -- statements ------------------------------------------------------

    def text(self, pos: int) -> str:
        return self.tokens[pos].text if pos < len(self.tokens) else ""

    def statement(self, pos: int, state: dict[str, str] | None):
        """Walk one statement from ``pos``; return the position after it
        and the state where it falls through (None if it never does)."""
        word = self.text(pos)
        if word == "{":
            return self.block(pos, state)
        if word == "if":
            after_cond, state = self.parenthesized(pos + 1, state)
            after_then, then_state = self.statement(after_cond, state)
            if self.text(after_then) == "else":
                after_else, else_state = self.statement(after_then + 1, state)
                return after_else, _merge(then_state, else_state)
            return after_then, _merge(then_state, state)
        if word in ("for", "while", "switch"):
            after_head, state = self.parenthesized(pos + 1, state)
            after_body, body_state = self.statement(after_head, state)
            return after_body, body_state if body_state is not None else state
        if word == "do":
            after_body, state = self.statement(pos + 1, state)
            # while ( cond ) ;
            after_cond, state = self.parenthesized(after_body + 1, state)
            return after_cond + 1, state
        if word in ("case", "default"):
            while self.text(pos) != ":":
                pos += 1
            return pos + 1, state
        return self.simple(pos, state)

    def block(self, pos: int, state):
        pos += 1  # '{'
        reachable = state
        while self.text(pos) != "}":
            if pos >= len(self.tokens):
                raise DSLError("unbalanced braces in body", self.filename, self.tokens[-1].line)
            pos, after = self.statement(pos, reachable if reachable is not None else state)
            if reachable is not None:
                reachable = after
        return pos + 1, reachable

    def parenthesized(self, pos: int, state):
        """Skip ``( ... )`` starting at ``pos``, noting consumers inside."""
        depth = 0
        while True:
            word = self.text(pos)
            if word == "(":
                depth += 1
            elif word == ")":
                depth -= 1
                if depth == 0:
                    return pos + 1, state
            else:
                state = self.note(pos, state)
            pos += 1

    def simple(self, pos: int, state):
        """An expression statement, declaration or jump, up to its ';'
        (a DSL macro may stand without one)."""
        start = pos
        first = self.text(pos)
        depth = 0
        while pos < len(self.tokens):
            word = self.text(pos)
            if word in "([{":
                depth += 1
            elif word in ")]}":
                if depth == 0:
                    break  # the end of an enclosing block
                depth -= 1
                if depth == 0 and first in QUERIED | CONSUME_ALL | {"DEOPT_IF", "EXIT_IF", "SYNC_SP", "DEAD"} \
                        and self.text(pos + 1) != ";":
                    pos += 1
                    break
            elif word == ";" and depth == 0:
                pos += 1
                break
            state = self.note(pos, state)
            pos += 1
        if first in JUMPS or self.is_unconditional_error(start):
            return pos, None
        return pos, state

    def is_unconditional_error(self, pos: int) -> bool:
        """``ERROR_IF(true)``: an error exit that always leaves."""
        return (self.text(pos) == "ERROR_IF" and self.text(pos + 1) == "("
                and self.text(pos + 2) in ("true", "1") and self.text(pos + 3) == ")")

    def note(self, pos: int, state):
        """Record or update the state for the token at ``pos``."""
        if state is None:
            return None
        token = self.tokens[pos]
        if token.kind != lexer.IDENT or self.text(pos + 1) != "(":
            return state
        name = token.text
        if name in QUERIED:
            self.recorded[self.index_of[id(token)]] = dict(state)
        if name in CONSUME_ALL:
            return {n: DEAD for n in state}
        if name in CONSUMERS:
            arg = self.text(pos + 2)
            if arg in state:
                state = dict(state)
                state[arg] = DEAD
        return state
