"""Tokenizer for the C-like instruction definition language.

The generator never needs to understand C fully: it must find the DSL
constructs (``inst``, ``op``, ``macro``...), the calls inside instruction
bodies that it rewrites or inspects, and the exact source span of every
token so that bodies can be copied through unchanged.  So the lexer keeps,
for every token, its kind, text, line and character offsets, and it knows
enough C (comments, strings, character literals, preprocessor lines,
multi-character operators) not to be fooled by what it skips.
"""

from __future__ import annotations

import dataclasses
import re

from errors import DSLError

# Token kinds.
IDENT = "IDENT"
NUMBER = "NUMBER"
STRING = "STRING"
CHAR = "CHAR"
OP = "OP"          # operators and punctuation
COMMENT = "COMMENT"


@dataclasses.dataclass(frozen=True, slots=True)
class Token:
    """One lexical token, with its position in the source file.

    ``start`` and ``end`` are character offsets into the full file text,
    so ``text[start:end]`` is the token.  ``in_directive`` is true for
    tokens that belong to a preprocessor line (``#if ...``): those are not
    statements and are ignored by the body analyses.
    """

    kind: str
    text: str
    line: int
    column: int
    start: int
    end: int
    in_directive: bool = False

    def __repr__(self) -> str:
        return f"Token({self.kind}, {self.text!r}, line={self.line})"


# Longest operators first so that e.g. "--" is not read as two "-".
_OPERATORS = [
    "<<=", ">>=", "...",
    "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||",
    "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "##",
]

_TOKEN_RE = re.compile(
    r"""
    (?P<ws>[ \t\r\f\v]+)
  | (?P<newline>\n)
  | (?P<line_comment>//[^\n]*)
  | (?P<block_comment>/\*.*?\*/)
  | (?P<unterminated_comment>/\*)
  | (?P<ident>[A-Za-z_][A-Za-z_0-9]*)
  | (?P<number>
        0[xX][0-9a-fA-F']+[uUlL]*
      | (?:[0-9][0-9']*\.?[0-9']*|\.[0-9][0-9']*)(?:[eE][+-]?[0-9]+)?[uUlLfF]*
    )
  | (?P<string>"(?:[^"\\\n]|\\.)*")
  | (?P<char>'(?:[^'\\\n]|\\.)*')
  | (?P<op>"""
    + "|".join(re.escape(op) for op in _OPERATORS)
    + r"""|[-+*/%<>=!&|^~?:;,.()\[\]{}#\\])
  | (?P<other>.)
    """,
    re.VERBOSE | re.DOTALL,
)


def tokenize(
    text: str,
    filename: str,
    start: int = 0,
    end: int | None = None,
    keep_comments: bool = False,
) -> list[Token]:
    """Split ``text[start:end]`` into tokens.

    Offsets and line numbers in the tokens are relative to the whole of
    ``text``, so a region of a larger file can be lexed on its own and
    errors still point at the right line.
    """
    if end is None:
        end = len(text)
    line = text.count("\n", 0, start) + 1
    line_start = text.rfind("\n", 0, start) + 1
    tokens: list[Token] = []
    in_directive = False
    at_line_start = True  # only whitespace seen so far on this line
    pos = start
    while pos < end:
        match = _TOKEN_RE.match(text, pos, end)
        kind = match.lastgroup
        if kind == "other" and not in_directive:
            # Preprocessor lines may hold free text (#error don't ...).
            raise DSLError(
                f"unexpected character {text[pos]!r}", filename, line
            )
        token_text = match.group()
        column = pos - line_start + 1
        if kind == "newline":
            # A backslash just before the newline continues a directive.
            if not (in_directive and tokens and tokens[-1].text == "\\"
                    and tokens[-1].line == line):
                in_directive = False
            line += 1
            line_start = match.end()
            at_line_start = True
        elif kind == "ws":
            pass
        elif kind == "unterminated_comment":
            raise DSLError("unterminated /* comment", filename, line)
        else:
            if kind in ("line_comment", "block_comment"):
                tok_kind = COMMENT
            elif kind == "ident":
                tok_kind = IDENT
            elif kind == "number":
                tok_kind = NUMBER
            elif kind == "string":
                tok_kind = STRING
            elif kind == "char":
                tok_kind = CHAR
            else:
                tok_kind = OP
            if tok_kind == OP and token_text == "#" and at_line_start:
                in_directive = True
            if tok_kind != COMMENT:
                at_line_start = False
            if tok_kind != COMMENT or keep_comments:
                tokens.append(
                    Token(tok_kind, token_text, line, column, pos,
                          match.end(), in_directive)
                )
            newlines = token_text.count("\n")
            if newlines:
                line += newlines
                line_start = pos + token_text.rfind("\n") + 1
        pos = match.end()
    return tokens
