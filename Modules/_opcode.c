/* The `_opcode` module: facts about our instruction set for the stdlib's
   `opcode` and `dis` modules.  Everything comes from the metadata the
   cases generator writes from Python/bytecodes.c, so `dis` describes the
   instructions this interpreter really runs. */

#include "Python.h"
#include "pycore_opcode_metadata.h"
#include "pycore_opcode_utils.h"

/* A real or pseudo instruction that compiled code may contain (the
   specialized forms only appear at run time). */
static int
is_generic_opcode(int opcode)
{
    if (!IS_VALID_OPCODE(opcode)) {
        return 0;
    }
    return IS_PSEUDO_INSTR(opcode) || _PyOpcode_Deopt[opcode] == opcode;
}

static int
opcode_arg(PyObject *arg, int *opcode)
{
    int value = PyLong_AsInt(arg);
    if (value == -1 && PyErr_Occurred()) {
        return -1;
    }
    *opcode = value;
    return 0;
}

static PyObject *
opcode_stack_effect(PyObject *module, PyObject *args, PyObject *kwargs)
{
    static const char *const kwlist[] = {"opcode", "oparg", "jump", NULL};
    int opcode;
    PyObject *oparg_obj = Py_None, *jump = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "i|O$O:stack_effect", (char **)kwlist, &opcode,
                                     &oparg_obj, &jump)) {
        return NULL;
    }
    if (!is_generic_opcode(opcode)) {
        PyErr_SetString(PyExc_ValueError, "invalid opcode or oparg");
        return NULL;
    }
    /* As CPython: a missing oparg counts as 0, and one given to an
       instruction that ignores it is ignored too. */
    int oparg = 0;
    if (oparg_obj != Py_None && opcode_arg(oparg_obj, &oparg) < 0) {
        return NULL;
    }
    if (jump != Py_None && !PyBool_Check(jump)) {
        PyErr_SetString(PyExc_ValueError, "stack_effect: jump must be False, True or None");
        return NULL;
    }
    /* Our stack effects are the same whether or not a jump is taken: an
       instruction's outputs are declared once, in the DSL. */
    int popped = _PyOpcode_num_popped(opcode, oparg);
    int pushed = _PyOpcode_num_pushed(opcode, oparg);
    if (popped < 0 || pushed < 0) {
        PyErr_SetString(PyExc_ValueError, "invalid opcode or oparg");
        return NULL;
    }
    return PyLong_FromLong(pushed - popped);
}

/* The has_*() predicates share one shape: a valid opcode and a flag. */
static PyObject *
opcode_flag(PyObject *arg, int flag)
{
    int opcode;
    if (opcode_arg(arg, &opcode) < 0) {
        return NULL;
    }
    int set = IS_VALID_OPCODE(opcode) && (_PyOpcode_opcode_metadata[opcode].flags & flag);
    return PyBool_FromLong(set);
}

static PyObject *
opcode_is_valid(PyObject *module, PyObject *arg)
{
    int opcode;
    if (opcode_arg(arg, &opcode) < 0) {
        return NULL;
    }
    return PyBool_FromLong(IS_VALID_OPCODE(opcode));
}

static PyObject *
opcode_has_arg(PyObject *module, PyObject *arg)
{
    return opcode_flag(arg, HAS_ARG_FLAG);
}

static PyObject *
opcode_has_const(PyObject *module, PyObject *arg)
{
    return opcode_flag(arg, HAS_CONST_FLAG);
}

static PyObject *
opcode_has_name(PyObject *module, PyObject *arg)
{
    return opcode_flag(arg, HAS_NAME_FLAG);
}

static PyObject *
opcode_has_jump(PyObject *module, PyObject *arg)
{
    return opcode_flag(arg, HAS_JUMP_FLAG);
}

static PyObject *
opcode_has_free(PyObject *module, PyObject *arg)
{
    return opcode_flag(arg, HAS_FREE_FLAG);
}

static PyObject *
opcode_has_local(PyObject *module, PyObject *arg)
{
    return opcode_flag(arg, HAS_LOCAL_FLAG);
}

/* Instructions with an exception-table entry of their own: the
   pseudo-instructions that set up handlers. */
static PyObject *
opcode_has_exc(PyObject *module, PyObject *arg)
{
    int opcode;
    if (opcode_arg(arg, &opcode) < 0) {
        return NULL;
    }
    int sets_handler = opcode == SETUP_FINALLY || opcode == SETUP_CLEANUP || opcode == SETUP_WITH;
    return PyBool_FromLong(IS_VALID_OPCODE(opcode) && sets_handler);
}

static PyObject *
str_list(const char *const *names, size_t count)
{
    PyObject *list = PyList_New((Py_ssize_t)count);
    for (size_t i = 0; list != NULL && i < count; i++) {
        PyObject *s = PyUnicode_FromString(names[i]);
        if (s == NULL) {
            Py_CLEAR(list);
            break;
        }
        PyList_SET_ITEM(list, (Py_ssize_t)i, s);
    }
    return list;
}

static PyObject *
opcode_get_intrinsic1_descs(PyObject *module, PyObject *unused)
{
    static const char *const names[MAX_INTRINSIC_1 + 1] = {
        [INTRINSIC_1_INVALID] = "INTRINSIC_1_INVALID",
        [INTRINSIC_PRINT] = "INTRINSIC_PRINT",
        [INTRINSIC_IMPORT_STAR] = "INTRINSIC_IMPORT_STAR",
        [INTRINSIC_STOPITERATION_ERROR] = "INTRINSIC_STOPITERATION_ERROR",
        [INTRINSIC_ASYNC_GEN_WRAP] = "INTRINSIC_ASYNC_GEN_WRAP",
        [INTRINSIC_UNARY_POSITIVE] = "INTRINSIC_UNARY_POSITIVE",
        [INTRINSIC_LIST_TO_TUPLE] = "INTRINSIC_LIST_TO_TUPLE",
        [INTRINSIC_TYPEVAR] = "INTRINSIC_TYPEVAR",
        [INTRINSIC_PARAMSPEC] = "INTRINSIC_PARAMSPEC",
        [INTRINSIC_TYPEVARTUPLE] = "INTRINSIC_TYPEVARTUPLE",
        [INTRINSIC_SUBSCRIPT_GENERIC] = "INTRINSIC_SUBSCRIPT_GENERIC",
        [INTRINSIC_TYPEALIAS] = "INTRINSIC_TYPEALIAS",
    };
    return str_list(names, Py_ARRAY_LENGTH(names));
}

static PyObject *
opcode_get_intrinsic2_descs(PyObject *module, PyObject *unused)
{
    static const char *const names[MAX_INTRINSIC_2 + 1] = {
        [INTRINSIC_2_INVALID] = "INTRINSIC_2_INVALID",
        [INTRINSIC_PREP_RERAISE_STAR] = "INTRINSIC_PREP_RERAISE_STAR",
        [INTRINSIC_TYPEVAR_WITH_BOUND] = "INTRINSIC_TYPEVAR_WITH_BOUND",
        [INTRINSIC_TYPEVAR_WITH_CONSTRAINTS] = "INTRINSIC_TYPEVAR_WITH_CONSTRAINTS",
        [INTRINSIC_SET_FUNCTION_TYPE_PARAMS] = "INTRINSIC_SET_FUNCTION_TYPE_PARAMS",
        [INTRINSIC_SET_TYPEPARAM_DEFAULT] = "INTRINSIC_SET_TYPEPARAM_DEFAULT",
    };
    return str_list(names, Py_ARRAY_LENGTH(names));
}

static PyObject *
opcode_get_special_method_names(PyObject *module, PyObject *unused)
{
    static const char *const names[SPECIAL_MAX + 1] = {
        [SPECIAL___ENTER__] = "__enter__",
        [SPECIAL___EXIT__] = "__exit__",
        [SPECIAL___AENTER__] = "__aenter__",
        [SPECIAL___AEXIT__] = "__aexit__",
    };
    return str_list(names, Py_ARRAY_LENGTH(names));
}

/* BINARY_OP's oparg values: (name, operator as dis shows it). */
static PyObject *
opcode_get_nb_ops(PyObject *module, PyObject *unused)
{
    static const struct {
        const char *name, *symbol;
    } ops[NB_OPARG_LAST + 1] = {
        [NB_ADD] = {"NB_ADD", "+"},
        [NB_AND] = {"NB_AND", "&"},
        [NB_FLOOR_DIVIDE] = {"NB_FLOOR_DIVIDE", "//"},
        [NB_LSHIFT] = {"NB_LSHIFT", "<<"},
        [NB_MATRIX_MULTIPLY] = {"NB_MATRIX_MULTIPLY", "@"},
        [NB_MULTIPLY] = {"NB_MULTIPLY", "*"},
        [NB_REMAINDER] = {"NB_REMAINDER", "%"},
        [NB_OR] = {"NB_OR", "|"},
        [NB_POWER] = {"NB_POWER", "**"},
        [NB_RSHIFT] = {"NB_RSHIFT", ">>"},
        [NB_SUBTRACT] = {"NB_SUBTRACT", "-"},
        [NB_TRUE_DIVIDE] = {"NB_TRUE_DIVIDE", "/"},
        [NB_XOR] = {"NB_XOR", "^"},
        [NB_INPLACE_ADD] = {"NB_INPLACE_ADD", "+="},
        [NB_INPLACE_AND] = {"NB_INPLACE_AND", "&="},
        [NB_INPLACE_FLOOR_DIVIDE] = {"NB_INPLACE_FLOOR_DIVIDE", "//="},
        [NB_INPLACE_LSHIFT] = {"NB_INPLACE_LSHIFT", "<<="},
        [NB_INPLACE_MATRIX_MULTIPLY] = {"NB_INPLACE_MATRIX_MULTIPLY", "@="},
        [NB_INPLACE_MULTIPLY] = {"NB_INPLACE_MULTIPLY", "*="},
        [NB_INPLACE_REMAINDER] = {"NB_INPLACE_REMAINDER", "%="},
        [NB_INPLACE_OR] = {"NB_INPLACE_OR", "|="},
        [NB_INPLACE_POWER] = {"NB_INPLACE_POWER", "**="},
        [NB_INPLACE_RSHIFT] = {"NB_INPLACE_RSHIFT", ">>="},
        [NB_INPLACE_SUBTRACT] = {"NB_INPLACE_SUBTRACT", "-="},
        [NB_INPLACE_TRUE_DIVIDE] = {"NB_INPLACE_TRUE_DIVIDE", "/="},
        [NB_INPLACE_XOR] = {"NB_INPLACE_XOR", "^="},
        [NB_SUBSCR] = {"NB_SUBSCR", "[]"},
    };
    PyObject *list = PyList_New(Py_ARRAY_LENGTH(ops));
    for (Py_ssize_t i = 0; list != NULL && i < (Py_ssize_t)Py_ARRAY_LENGTH(ops); i++) {
        PyObject *pair = Py_BuildValue("(ss)", ops[i].name, ops[i].symbol);
        if (pair == NULL) {
            Py_CLEAR(list);
            break;
        }
        PyList_SET_ITEM(list, i, pair);
    }
    return list;
}

/* There is no tier 2 yet: the same answer as a CPython built without it. */
static PyObject *
opcode_get_executor(PyObject *module, PyObject *args, PyObject *kwargs)
{
    static const char *const kwlist[] = {"code", "offset", NULL};
    PyObject *code;
    int offset;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O!i:get_executor", (char **)kwlist,
                                     &PyCode_Type, &code, &offset)) {
        return NULL;
    }
    PyErr_SetString(PyExc_RuntimeError, "Executors are not available in this build");
    return NULL;
}

static PyMethodDef opcode_methods[] = {
    {"stack_effect", _PyCFunction_CAST(opcode_stack_effect), METH_VARARGS | METH_KEYWORDS,
     "Net change of the value-stack depth caused by an instruction."},
    {"is_valid", opcode_is_valid, METH_O, "Whether the number is an instruction."},
    {"has_arg", opcode_has_arg, METH_O, "Whether the instruction uses its oparg."},
    {"has_const", opcode_has_const, METH_O, "Whether the oparg indexes co_consts."},
    {"has_name", opcode_has_name, METH_O, "Whether the oparg indexes co_names."},
    {"has_jump", opcode_has_jump, METH_O, "Whether the oparg is a jump distance."},
    {"has_free", opcode_has_free, METH_O, "Whether the oparg names a cell or free variable."},
    {"has_local", opcode_has_local, METH_O, "Whether the oparg names a local variable."},
    {"has_exc", opcode_has_exc, METH_O, "Whether the instruction sets up an exception handler."},
    {"get_intrinsic1_descs", opcode_get_intrinsic1_descs, METH_NOARGS,
     "Names of the CALL_INTRINSIC_1 operations, by oparg."},
    {"get_intrinsic2_descs", opcode_get_intrinsic2_descs, METH_NOARGS,
     "Names of the CALL_INTRINSIC_2 operations, by oparg."},
    {"get_special_method_names", opcode_get_special_method_names, METH_NOARGS,
     "Method names LOAD_SPECIAL loads, by oparg."},
    {"get_nb_ops", opcode_get_nb_ops, METH_NOARGS,
     "BINARY_OP's operations, by oparg: (name, symbol) pairs."},
    {"get_executor", _PyCFunction_CAST(opcode_get_executor), METH_VARARGS | METH_KEYWORDS,
     "The tier-2 executor at an instruction (none exist in this build)."},
    {NULL, NULL, 0, NULL},
};

static int
opcode_exec(PyObject *module)
{
    if (PyModule_AddIntConstant(module, "ENABLE_SPECIALIZATION", 1) < 0) {
        return -1;
    }
    return PyModule_AddIntConstant(module, "ENABLE_SPECIALIZATION_FT", 0);
}

static PyModuleDef_Slot opcode_slots[] = {
    {Py_mod_exec, opcode_exec},
    {0, NULL},
};

static PyModuleDef opcode_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_opcode",
    .m_doc = "Facts about the instruction set, for the opcode and dis modules.",
    .m_methods = opcode_methods,
    .m_slots = opcode_slots,
};

PyObject *
PyInit__opcode(void)
{
    return PyModuleDef_Init(&opcode_module);
}
