"""Which calls in an instruction body may "escape".

A call escapes when it can run arbitrary code: Python code, a destructor
(any decref), the garbage collector (any allocation), a signal handler...
Such code may inspect the frame, so before an escaping call the
interpreter must have saved the stack pointer in the frame.

Rather than listing what escapes (nearly everything), we list what does
not.  Anything called in a body that is not named here, or matched by
one of the prefixes, is taken to escape.  Extend these sets when adding
bodies that use other cheap helpers; being conservative costs only a
store of the stack pointer.
"""

from __future__ import annotations

NON_ESCAPING_FUNCTIONS = frozenset({
    # The DSL's own macros (rewritten by the generator).
    "DEOPT_IF", "EXIT_IF", "ERROR_IF", "ERROR_NO_POP", "DEAD",
    "INPUTS_DEAD", "SYNC_SP", "INSTRUCTION_SIZE", "ENTER_FRAME",
    # Interpreter plumbing.
    "DISPATCH", "DISPATCH_SAME_OPARG", "DISPATCH_INLINED", "GETLOCAL", "SETLOCAL", "GETITEM", "JUMPBY", "SKIP_OVER",
    "CURRENT_OPARG", "CURRENT_OPERAND0", "CURRENT_OPERAND1",
    "UPDATE_MISS_STATS", "STAT_INC", "STAT_DEC", "UOP_STAT_INC",
    "OPCODE_EXE_INC", "OPT_STAT_INC", "INSTRUCTION_STATS",
    "read_u16", "read_u32", "read_u64", "write_u16", "write_u32",
    "write_u64", "_PyFrame_GetCode", "_PyFrame_GetBytecode",
    "_PyFrame_SetStackPointer", "_PyFrame_GetStackPointer",
    "_PyThreadState_HasStackSpace", "ADAPTIVE_COUNTER_TRIGGERS",
    "ADVANCE_ADAPTIVE_COUNTER", "PRE_DISPATCH_GOTO", "DISPATCH_GOTO",
    "LOAD_IP", "LOAD_SP", "SAVE_SP", "GLOBALS", "BUILTINS", "LOCALS",
    "_PyFrame_GetFunction", "_PyCode_CODE",
    # C language and assertions.
    "assert", "sizeof", "offsetof", "static_assert", "Py_ARRAY_LENGTH",
    "Py_UNREACHABLE", "_Py_STATIC_CAST", "_Py_CAST", "_PyObject_CAST",
    "Py_MIN", "Py_MAX", "Py_ABS",
    # Reference counting that cannot deallocate.
    "Py_INCREF", "Py_XINCREF", "Py_NewRef", "Py_XNewRef", "_Py_IsImmortal",
    "Py_REFCNT", "_Py_DECREF_NO_DEALLOC",
    # Type checks and field access.
    "Py_TYPE", "Py_SIZE", "Py_IS_TYPE", "Py_Is", "Py_IsNone", "Py_IsTrue",
    "Py_IsFalse", "PyLong_CheckExact", "PyFloat_CheckExact",
    "PyUnicode_CheckExact", "PyList_CheckExact", "PyTuple_CheckExact",
    "PyDict_CheckExact", "PySet_CheckExact", "PyBool_Check",
    "PyLong_Check", "PyFloat_Check", "PyUnicode_Check", "PyList_Check",
    "PyTuple_Check", "PyDict_Check", "PyType_Check", "PyFunction_Check",
    "PyCFunction_CheckExact", "PyMethod_Check", "PySlice_Check",
    "PyTuple_GET_ITEM", "PyList_GET_ITEM", "PyTuple_GET_SIZE",
    "PyList_GET_SIZE", "PyTuple_SET_ITEM", "PyList_SET_ITEM",
    "PyFloat_AS_DOUBLE", "PyUnicode_GET_LENGTH", "_PyLong_IsCompact",
    "PyMethod_GET_SELF", "PyMethod_GET_FUNCTION", "PyCell_GET", "PyCell_SET",
    "PyExceptionInstance_Check", "PyExceptionClass_Check",
    "_PyLong_CompactValue", "_PyLong_IsNonNegativeCompact",
    # Stack references: conversions and tests that never free anything.
    "PyStackRef_AsPyObjectBorrow", "PyStackRef_AsPyObjectSteal",
    "PyStackRef_AsPyObjectNew", "PyStackRef_FromPyObjectSteal",
    "PyStackRef_FromPyObjectNew", "PyStackRef_FromPyObjectBorrow",
    "PyStackRef_FromPyObjectImmortal", "PyStackRef_IsNull",
    "PyStackRef_IsNone", "PyStackRef_IsTrue", "PyStackRef_IsFalse",
    "PyStackRef_Is", "PyStackRef_DUP", "PyStackRef_Borrow",
    "PyStackRef_TagInt", "PyStackRef_UntagInt", "PyStackRef_IsTaggedInt",
    "PyStackRef_TYPE", "PyStackRef_IsValid", "PyStackRef_IsError",
    "PyStackRef_MakeHeapSafe", "PyStackRef_IsHeapSafe",
    # Closing what cannot run code when freed (exact int, float, str).
    "PyStackRef_CLOSE_INERT",
    # Arithmetic on exact ints, floats and strs: allocation and C only
    # (a failed allocation raises, which is not an escape).
    "_PyLong_FromSmallInt", "_PyLong_BothAreCompact", "_PyLong_FromCompactResult",
    "_PyLong_Add", "_PyLong_Subtract", "_PyLong_Multiply", "_PyLong_IsZero",
    "_PyFloat_ResultFromOperands", "PyUnicode_Concat", "_PyUnicode_Equal",
    # Dict entries and instance dicts read in place (identity compares).
    "DK_ENTRIES", "_PyDict_EntryAtHint", "_PyObject_InlineDictAt", "PyModule_CheckExact",
    # One character of a str; the one-character str (cached for Latin-1).
    "PyUnicode_READ_CHAR", "PyUnicode_FromOrdinal",
    # Raising UnboundLocalError formats a name: no code of anyone's runs.
    "_PyEval_FormatExcCheckArg", "PyTuple_GetItem",
})

# Families of cheap helpers, matched by the start of the name.
NON_ESCAPING_PREFIXES = (
    "_Py_atomic_",
    "FT_ATOMIC_",
)

# Words followed by "(" that are not calls at all.
C_KEYWORDS = frozenset({
    "if", "while", "for", "switch", "return", "do", "else", "case",
    "sizeof", "_Alignof", "alignof", "typeof", "__typeof__", "defined",
    "_Generic",
})


def is_escaping_call(name: str) -> bool:
    """True if calling ``name`` may run arbitrary code."""
    if name in NON_ESCAPING_FUNCTIONS or name in C_KEYWORDS:
        return False
    return not name.startswith(NON_ESCAPING_PREFIXES)
