"""Generate the shared labels of the interpreter: Python/generated_labels.c.h.

Each ``label(name) { ... }`` becomes ``LABEL(name) { ... }``; the tier-1
interpreter defines ``LABEL(name)`` (typically as ``name:``) and includes
this file after its dispatch code.  The file is written even when there
are no labels, so the include never fails.
"""

from __future__ import annotations

from cwriter import CWriter
from emitter import LabelEmitter
from generators_common import c_banner, main
from model import Analysis

SCRIPT = "labels_generator.py"
OUTPUT = "Python/generated_labels.c.h"
LABEL_INDENT = 2


def generate(analysis: Analysis) -> str:
    out = CWriter()
    out.raw(c_banner(SCRIPT, analysis))
    out.line()
    out.level = LABEL_INDENT
    for label in analysis.labels.values():
        with out.block(f"LABEL({label.name})"):
            out.raw(LabelEmitter().emit(label.body, out.prefix))
        out.line()
    return out.text()


if __name__ == "__main__":
    main(SCRIPT, OUTPUT, generate, __doc__.splitlines()[0])
