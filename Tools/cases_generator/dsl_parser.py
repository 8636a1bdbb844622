"""Parser for the instruction definition DSL.

Turns the region between ``// BEGIN BYTECODES //`` and
``// END BYTECODES //`` of a definition file into a list of syntax nodes
(``InstDef``, ``MacroDef``, ``FamilyDef``, ``PseudoDef``, ``LabelDef``).
The nodes stay close to the text; giving them meaning (sizes, flags,
numbering) is the analyzer's job.

Bodies are not parsed as C: a body node only remembers the source span
between its braces and the tokens inside it, so the code generators can
copy it through and rewrite the few DSL macros it may contain.
"""

from __future__ import annotations

import dataclasses
import re

import lexer
from errors import DSLError
from lexer import Token

BEGIN_MARKER = "// BEGIN BYTECODES //"
END_MARKER = "// END BYTECODES //"

# Words that may precede ``inst``/``op``/``label``.  ``replicate`` takes a
# count in parentheses; the others are bare words.
SIMPLE_ANNOTATIONS = frozenset({
    "specializing", "pure", "override", "tier1", "tier2", "no_save_ip",
    "split", "spilled", "untraced", "branch",
})


@dataclasses.dataclass(frozen=True)
class Location:
    """Where a construct starts, for error messages."""

    filename: str
    line: int

    def error(self, message: str) -> DSLError:
        return DSLError(message, self.filename, self.line)

    def __str__(self) -> str:
        return f"{self.filename}:{self.line}"


@dataclasses.dataclass
class Body:
    """The C code between the braces of an ``inst``, ``op`` or ``label``.

    ``text`` is the whole source file; ``start``/``end`` delimit the code
    strictly inside the braces; ``tokens`` are the tokens in that span.
    """

    text: str
    start: int
    end: int
    tokens: list[Token]
    filename: str

    @property
    def source(self) -> str:
        return self.text[self.start:self.end]


@dataclasses.dataclass
class StackItemNode:
    """One entry of a stack effect: ``name``, ``name[size]`` or ``name/N``."""

    name: str
    size: str | None      # array size expression text, or None for scalar
    cache: int | None     # N of ``name/N`` (a cache entry), else None
    location: Location


@dataclasses.dataclass
class StackEffectNode:
    inputs: list[StackItemNode]
    outputs: list[StackItemNode]


@dataclasses.dataclass
class InstDef:
    """An ``inst`` (kind "inst") or ``op`` (kind "op") definition."""

    kind: str
    name: str
    annotations: list[str]
    replicate: range         # opargs that get a replica (usually empty)
    stack: StackEffectNode
    body: Body
    location: Location


@dataclasses.dataclass
class MacroPartNode:
    """A part of a macro: an op name, or a cache effect ``name/N``."""

    name: str
    cache: int | None
    location: Location


@dataclasses.dataclass
class MacroDef:
    name: str
    parts: list[MacroPartNode]
    location: Location


@dataclasses.dataclass
class FamilyDef:
    name: str
    size: str
    members: list[str]
    location: Location


@dataclasses.dataclass
class PseudoDef:
    name: str
    stack: StackEffectNode | None
    flags: list[str]
    targets: list[str]
    location: Location


@dataclasses.dataclass
class LabelDef:
    name: str
    annotations: list[str]
    body: Body
    location: Location


Node = InstDef | MacroDef | FamilyDef | PseudoDef | LabelDef


def find_region(text: str, filename: str) -> tuple[int, int]:
    """Return the offsets of the text between the BEGIN and END markers."""
    begin = re.search(r"^.*" + re.escape(BEGIN_MARKER) + r".*$", text,
                      re.MULTILINE)
    if begin is None:
        raise DSLError(f"missing '{BEGIN_MARKER}' line", filename, 1)
    end = re.search(r"^.*" + re.escape(END_MARKER) + r".*$", text[begin.end():],
                    re.MULTILINE)
    if end is None:
        line = text.count("\n", 0, begin.start()) + 1
        raise DSLError(f"missing '{END_MARKER}' line after this one",
                       filename, line)
    return begin.end(), begin.end() + end.start()


def parse_file(filename: str, text: str | None = None) -> list[Node]:
    """Parse one definition file (reading it unless ``text`` is given)."""
    if text is None:
        with open(filename, encoding="utf-8") as f:
            text = f.read()
    start, end = find_region(text, filename)
    tokens = lexer.tokenize(text, filename, start, end)
    return Parser(text, filename, tokens).parse_all()


class Parser:
    """Recursive-descent parser over the token list of one file."""

    def __init__(self, text: str, filename: str, tokens: list[Token]) -> None:
        self.text = text
        self.filename = filename
        self.tokens = tokens
        self.pos = 0

    # -- token helpers ------------------------------------------------------

    def peek(self, ahead: int = 0) -> Token | None:
        index = self.pos + ahead
        return self.tokens[index] if index < len(self.tokens) else None

    def location(self, token: Token | None = None) -> Location:
        if token is None:
            token = self.peek()
        if token is None:
            line = self.tokens[-1].line if self.tokens else 1
            return Location(self.filename, line)
        return Location(self.filename, token.line)

    def error(self, message: str, token: Token | None = None) -> DSLError:
        return self.location(token).error(message)

    def next(self) -> Token:
        token = self.peek()
        if token is None:
            raise self.error("unexpected end of definitions")
        self.pos += 1
        return token

    def check(self, text: str) -> bool:
        token = self.peek()
        return token is not None and token.text == text

    def accept(self, text: str) -> Token | None:
        if self.check(text):
            return self.next()
        return None

    def expect(self, text: str) -> Token:
        token = self.peek()
        if token is None or token.text != text:
            found = "end of definitions" if token is None else repr(token.text)
            raise self.error(f"expected {text!r}, found {found}", token)
        return self.next()

    def expect_ident(self, what: str = "a name") -> Token:
        token = self.peek()
        if token is None or token.kind != lexer.IDENT:
            found = "end of definitions" if token is None else repr(token.text)
            raise self.error(f"expected {what}, found {found}", token)
        return self.next()

    def expect_int(self, what: str) -> int:
        token = self.peek()
        if token is None or token.kind != lexer.NUMBER or not token.text.isdigit():
            raise self.error(f"expected {what} (a decimal integer)", token)
        self.next()
        return int(token.text)

    def balanced_until(self, closer: str) -> list[Token]:
        """Collect tokens up to (not including) an unnested ``closer``."""
        pairs = {"(": ")", "[": "]", "{": "}"}
        stack: list[str] = []
        collected: list[Token] = []
        while True:
            token = self.peek()
            if token is None:
                raise self.error(f"missing {closer!r}")
            if not stack and token.text == closer:
                return collected
            if token.text in pairs:
                stack.append(pairs[token.text])
            elif stack and token.text == stack[-1]:
                stack.pop()
            elif token.text in (")", "]", "}"):
                raise self.error(f"unbalanced {token.text!r}", token)
            collected.append(self.next())

    def span_text(self, tokens: list[Token]) -> str:
        if not tokens:
            return ""
        return self.text[tokens[0].start:tokens[-1].end]

    # -- definitions --------------------------------------------------------

    def parse_all(self) -> list[Node]:
        nodes: list[Node] = []
        while self.peek() is not None:
            nodes.append(self.parse_definition())
        return nodes

    def parse_annotations(self) -> tuple[list[str], range]:
        annotations: list[str] = []
        replicate = range(0)
        while True:
            token = self.peek()
            if token is None or token.kind != lexer.IDENT:
                break
            if token.text in SIMPLE_ANNOTATIONS:
                annotations.append(self.next().text)
            elif token.text == "replicate":
                self.next()
                self.expect("(")
                first = self.expect_int("a replication count")
                if self.accept(":"):
                    # replicate(A:B): replicas for oparg A to B-1.
                    replicate = range(first,
                                      self.expect_int("the end of the range"))
                else:
                    replicate = range(first)
                self.expect(")")
                if not replicate:
                    raise self.error("empty replication range", token)
                annotations.append("replicate")
            else:
                break
        return annotations, replicate

    def parse_definition(self) -> Node:
        start = self.peek()
        annotations, replicate = self.parse_annotations()
        token = self.peek()
        if token is None:
            raise self.error("annotations must be followed by a definition",
                             start)
        keyword = token.text
        if keyword in ("inst", "op"):
            return self.parse_inst(annotations, replicate)
        if keyword == "label":
            return self.parse_label(annotations)
        if annotations:
            raise self.error(f"annotations cannot precede {keyword!r}", start)
        if keyword == "macro":
            return self.parse_macro()
        if keyword == "family":
            return self.parse_family()
        if keyword == "pseudo":
            return self.parse_pseudo()
        raise self.error(
            f"expected a definition (inst, op, macro, family, pseudo or "
            f"label), found {keyword!r}", token)

    def parse_inst(self, annotations: list[str], replicate: range) -> InstDef:
        keyword = self.next()
        location = self.location(keyword)
        self.expect("(")
        name = self.expect_ident(f"the name of the {keyword.text}").text
        self.expect(",")
        stack = self.parse_stack_effect()
        self.expect(")")
        body = self.parse_body()
        return InstDef(keyword.text, name, annotations, replicate, stack,
                       body, location)

    def parse_label(self, annotations: list[str]) -> LabelDef:
        keyword = self.next()
        location = self.location(keyword)
        self.expect("(")
        name = self.expect_ident("the name of the label").text
        self.expect(")")
        body = self.parse_body()
        return LabelDef(name, annotations, body, location)

    def parse_body(self) -> Body:
        open_brace = self.expect("{")
        inner = self.balanced_until("}")
        close = self.expect("}")
        return Body(self.text, open_brace.end, close.start, inner,
                    self.filename)

    def parse_stack_effect(self) -> StackEffectNode:
        self.expect("(")
        inputs = self.parse_stack_items("--", allow_cache=True)
        self.expect("--")
        outputs = self.parse_stack_items(")", allow_cache=False)
        self.expect(")")
        return StackEffectNode(inputs, outputs)

    def parse_stack_items(self, terminator: str,
                          allow_cache: bool) -> list[StackItemNode]:
        items: list[StackItemNode] = []
        while not self.check(terminator):
            items.append(self.parse_stack_item(allow_cache))
            if not self.accept(","):
                break
        if not self.check(terminator):
            raise self.error(f"expected ',' or {terminator!r} in stack effect")
        return items

    def parse_stack_item(self, allow_cache: bool) -> StackItemNode:
        name_token = self.expect_ident("a stack item name")
        location = self.location(name_token)
        size = None
        cache = None
        if self.accept("["):
            size_tokens = self.balanced_until("]")
            if not size_tokens:
                raise self.error("empty array size", name_token)
            size = self.span_text(size_tokens)
            self.expect("]")
        elif self.check("/"):
            if not allow_cache:
                raise self.error("cache entries (name/N) are only allowed "
                                 "among the inputs")
            self.next()
            cache = self.expect_int("a cache size")
        if self.check(":") or self.check("if"):
            raise self.error("typed or conditional stack items are not "
                             "supported")
        return StackItemNode(name_token.text, size, cache, location)

    def parse_macro(self) -> MacroDef:
        keyword = self.next()
        location = self.location(keyword)
        self.expect("(")
        name = self.expect_ident("the name of the macro").text
        self.expect(")")
        self.expect("=")
        parts = [self.parse_macro_part()]
        while self.accept("+"):
            parts.append(self.parse_macro_part())
        self.expect(";")
        return MacroDef(name, parts, location)

    def parse_macro_part(self) -> MacroPartNode:
        token = self.expect_ident("an op name or cache effect")
        cache = None
        if self.accept("/"):
            cache = self.expect_int("a cache size")
        return MacroPartNode(token.text, cache, self.location(token))

    def parse_name_list(self) -> list[str]:
        """Parse ``{ A, B, }`` (or ``[ A, B ]``) into a list of names."""
        if self.accept("{"):
            closer = "}"
        else:
            self.expect("[")
            closer = "]"
        names: list[str] = []
        while not self.check(closer):
            names.append(self.expect_ident().text)
            if not self.accept(","):
                break
        self.expect(closer)
        return names

    def parse_family(self) -> FamilyDef:
        keyword = self.next()
        location = self.location(keyword)
        self.expect("(")
        name = self.expect_ident("the name of the family head").text
        size = "0"
        if self.accept(","):
            size = self.span_text(self.balanced_until(")")) or "0"
        self.expect(")")
        self.expect("=")
        members = self.parse_name_list()
        self.expect(";")
        return FamilyDef(name, size, members, location)

    def parse_pseudo(self) -> PseudoDef:
        keyword = self.next()
        location = self.location(keyword)
        self.expect("(")
        name = self.expect_ident("the name of the pseudo instruction").text
        stack: StackEffectNode | None = None
        flags: list[str] = []
        while self.accept(","):
            if self.is_stack_effect_ahead():
                stack = self.parse_stack_effect()
            else:
                flags = self.parse_flag_list()
        self.expect(")")
        self.expect("=")
        targets = self.parse_name_list()
        self.expect(";")
        return PseudoDef(name, stack, flags, targets, location)

    def is_stack_effect_ahead(self) -> bool:
        """True if the parenthesised group ahead contains a ``--``."""
        depth = 0
        index = self.pos
        while index < len(self.tokens):
            text = self.tokens[index].text
            if text == "(":
                depth += 1
            elif text == ")":
                depth -= 1
                if depth == 0:
                    return False
            elif text == "--" and depth == 1:
                return True
            index += 1
        return False

    def parse_flag_list(self) -> list[str]:
        self.expect("(")
        flags: list[str] = []
        while not self.check(")"):
            flags.append(self.expect_ident("a flag name").text)
            if not self.accept(","):
                break
        self.expect(")")
        return flags
