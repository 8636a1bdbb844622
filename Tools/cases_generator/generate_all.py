"""Regenerate every file derived from the instruction definitions.

    python3 Tools/cases_generator/generate_all.py [-i INPUT]... [-d DIR]

With no arguments, reads Python/bytecodes.c and writes all outputs in
the repository, touching only files whose content changed.  ``-d DIR``
writes the same tree of outputs under DIR instead (for tests and
comparisons).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import labels_generator
import opcode_id_generator
import opcode_metadata_generator
import optimizer_generator
import py_metadata_generator
import target_generator
import tier1_generator
import tier2_generator
import uop_id_generator
import uop_metadata_generator
from errors import DSLError
from generators_common import (DEFAULT_INPUT, ROOT, analyze_inputs,
                               write_if_changed)

# Every generator module has SCRIPT, OUTPUT and generate(analysis).
GENERATORS = (
    tier1_generator,
    labels_generator,
    target_generator,
    opcode_id_generator,
    opcode_metadata_generator,
    uop_id_generator,
    uop_metadata_generator,
    tier2_generator,
    optimizer_generator,
    py_metadata_generator,
)


def generate_all(inputs: list[str], root: Path,
                 verbose: bool = False) -> list[str]:
    """Write every output under ``root``; return the paths that changed."""
    analysis = analyze_inputs(inputs)
    changed = []
    for generator in GENERATORS:
        path = root / generator.OUTPUT
        if write_if_changed(path, generator.generate(analysis)):
            changed.append(generator.OUTPUT)
            if verbose:
                print(f"updated {generator.OUTPUT}")
    return changed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-i", "--input", action="append", default=[],
                        help=f"definition file (may repeat; default "
                             f"{DEFAULT_INPUT})")
    parser.add_argument("-d", "--directory", default=None,
                        help="write outputs under this directory instead "
                             "of the repository root")
    parser.add_argument("-v", "--verbose", action="store_true",
                        help="name each file that changed")
    args = parser.parse_args()
    root = Path(args.directory) if args.directory else ROOT
    try:
        generate_all(args.input or [DEFAULT_INPUT], root, args.verbose)
    except DSLError as error:
        print(error, file=sys.stderr)
        sys.exit(1)
    except OSError as error:
        print(f"error: {error}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
