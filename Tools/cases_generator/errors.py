"""The single exception type for mistakes in the DSL input.

Every problem the generator finds in a definition file is reported as
``file:line: error: message`` so editors and humans can jump to it.
"""

from __future__ import annotations


class DSLError(Exception):
    """A mistake in a definition file, located by file name and line."""

    def __init__(self, message: str, filename: str = "<unknown>",
                 line: int = 0) -> None:
        super().__init__(message)
        self.message = message
        self.filename = filename
        self.line = line

    def __str__(self) -> str:
        return f"{self.filename}:{self.line}: error: {self.message}"
