"""A tiny line-oriented writer for generated C (and Python) code."""

from __future__ import annotations

import contextlib
from typing import Iterator

INDENT = "    "


class CWriter:
    """Collects output lines, tracking the current indentation level."""

    def __init__(self, level: int = 0) -> None:
        self.lines: list[str] = []
        self.level = level

    @property
    def prefix(self) -> str:
        return INDENT * self.level

    def line(self, text: str = "") -> None:
        """Add one line at the current indentation (blank stays blank)."""
        self.lines.append(self.prefix + text if text else "")

    def raw(self, lines: list[str]) -> None:
        """Add lines that already carry their own indentation."""
        self.lines.extend(lines)

    def indent(self) -> None:
        self.level += 1

    def dedent(self) -> None:
        self.level -= 1

    @contextlib.contextmanager
    def block(self, head: str, tail: str = "}") -> Iterator[None]:
        """Write ``head {``, then the indented content, then ``tail``."""
        self.line(f"{head} {{" if head else "{")
        self.indent()
        yield
        self.dedent()
        self.line(tail)

    def text(self) -> str:
        return "\n".join(self.lines) + "\n"
