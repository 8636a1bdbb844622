/* The compiler driver: builds the symbol table, runs the code generator
   (codegen.c) over each scope, and turns each finished instruction
   sequence into a code object through the control-flow graph optimiser
   (flowgraph.c) and the assembler (assemble.c).

   This file also owns the per-scope bookkeeping the code generator relies
   on: the stack of compiler units, the constant/name/local tables and the
   qualified names. */

#define _PY_COMPILER_INTERNALS
#include "Python.h"
#include "pycore_initconfig.h"
#include "pycore_ast.h"
#include "pycore_code.h"
#include "pycore_compile.h"
#include "pycore_pyerrors.h"
#include "opcode_ids.h"
#include "pycore_opcode_utils.h"
#include "pycore_opcode_metadata.h"

#include <float.h>

/* ---- Constants -------------------------------------------------------- */

/* A key under which equal constants of the same type collapse but 0, 0.0,
   -0.0, False and 0j stay distinct. */
PyObject *
_PyCompile_ConstKey(PyObject *op)
{
    if (op == Py_None || op == Py_Ellipsis || PyBool_Check(op) ||
        PyLong_CheckExact(op) || PyUnicode_CheckExact(op) || PyBytes_CheckExact(op) ||
        PyCode_Check(op)) {
        if (PyCode_Check(op)) {
            PyObject *id = PyLong_FromVoidPtr(op);
            if (id == NULL) {
                return NULL;
            }
            PyObject *k = PyTuple_Pack(2, (PyObject *)Py_TYPE(op), id);
            Py_DECREF(id);
            return k;
        }
        return PyTuple_Pack(2, (PyObject *)Py_TYPE(op), op);
    }
    if (PyFloat_CheckExact(op)) {
        double d = PyFloat_AS_DOUBLE(op);
        PyObject *b = PyBytes_FromStringAndSize((const char *)&d, sizeof(d));
        if (b == NULL) {
            return NULL;
        }
        PyObject *k = PyTuple_Pack(2, (PyObject *)Py_TYPE(op), b);
        Py_DECREF(b);
        return k;
    }
    if (PyComplex_CheckExact(op)) {
        Py_complex z = PyComplex_AsCComplex(op);
        PyObject *b = PyBytes_FromStringAndSize((const char *)&z, sizeof(z));
        if (b == NULL) {
            return NULL;
        }
        PyObject *k = PyTuple_Pack(2, (PyObject *)Py_TYPE(op), b);
        Py_DECREF(b);
        return k;
    }
    if (PyTuple_CheckExact(op)) {
        Py_ssize_t n = PyTuple_GET_SIZE(op);
        PyObject *items = PyTuple_New(n);
        if (items == NULL) {
            return NULL;
        }
        for (Py_ssize_t i = 0; i < n; i++) {
            PyObject *ik = _PyCompile_ConstKey(PyTuple_GET_ITEM(op, i));
            if (ik == NULL) {
                Py_DECREF(items);
                return NULL;
            }
            PyTuple_SET_ITEM(items, i, ik);
        }
        PyObject *k = PyTuple_Pack(2, (PyObject *)Py_TYPE(op), items);
        Py_DECREF(items);
        return k;
    }
    if (PyFrozenSet_CheckExact(op)) {
        PyObject *set = PySet_New(NULL);
        if (set == NULL) {
            return NULL;
        }
        PyObject *it = PyObject_GetIter(op), *item;
        if (it == NULL) {
            Py_DECREF(set);
            return NULL;
        }
        while ((item = PyIter_Next(it)) != NULL) {
            PyObject *ik = _PyCompile_ConstKey(item);
            Py_DECREF(item);
            if (ik == NULL || PySet_Add(set, ik) < 0) {
                Py_XDECREF(ik);
                Py_DECREF(it);
                Py_DECREF(set);
                return NULL;
            }
            Py_DECREF(ik);
        }
        Py_DECREF(it);
        if (PyErr_Occurred()) {
            Py_DECREF(set);
            return NULL;
        }
        PyObject *fs = PyFrozenSet_New(set);
        Py_DECREF(set);
        if (fs == NULL) {
            return NULL;
        }
        PyObject *k = PyTuple_Pack(2, (PyObject *)Py_TYPE(op), fs);
        Py_DECREF(fs);
        return k;
    }
    /* anything else (slices...) by identity */
    PyObject *id = PyLong_FromVoidPtr(op);
    if (id == NULL) {
        return NULL;
    }
    PyObject *k = PyTuple_Pack(2, id, op);
    Py_DECREF(id);
    return k;
}

Py_ssize_t
_PyCompile_DictAddObj(PyObject *dict, PyObject *o)
{
    PyObject *v = PyDict_GetItemWithError(dict, o);
    if (v != NULL) {
        return PyLong_AsSsize_t(v);
    }
    if (PyErr_Occurred()) {
        return -1;
    }
    Py_ssize_t arg = PyDict_GET_SIZE(dict);
    v = PyLong_FromSsize_t(arg);
    if (v == NULL) {
        return -1;
    }
    if (PyDict_SetItem(dict, o, v) < 0) {
        Py_DECREF(v);
        return -1;
    }
    Py_DECREF(v);
    return arg;
}

/* The consts dict maps key -> index; the keys' second item is the value
   (or, for code objects, the first item of the key is the type). */
Py_ssize_t
_PyCompile_AddConst(compiler *c, PyObject *o)
{
    if (PyUnicode_CheckExact(o)) {
        Py_INCREF(o);
        PyUnicode_InternInPlace(&o);
    }
    else {
        Py_INCREF(o);
    }
    PyObject *key = _PyCompile_ConstKey(o);
    if (key == NULL) {
        Py_DECREF(o);
        return -1;
    }
    /* Remember the object itself next to its key so the assembler can
       rebuild the tuple. */
    PyObject *cached = PyDict_GetItemWithError(c->c_const_cache, key);
    if (cached == NULL) {
        if (PyErr_Occurred() || PyDict_SetItem(c->c_const_cache, key, o) < 0) {
            Py_DECREF(key);
            Py_DECREF(o);
            return -1;
        }
    }
    Py_DECREF(o);
    Py_ssize_t r = _PyCompile_DictAddObj(c->u->u_metadata.u_consts, key);
    Py_DECREF(key);
    return r;
}

/* ---- Scopes ------------------------------------------------------------ */

/* Names of `symbols` whose scope is `scope_type` or that carry `flag`,
   sorted, numbered from `offset`. */
static PyObject *
dict_by_type(PyObject *symbols, int scope_type, int flag, Py_ssize_t offset)
{
    PyObject *names = PyList_New(0);
    if (names == NULL) {
        return NULL;
    }
    PyObject *k, *v;
    Py_ssize_t pos = 0;
    while (PyDict_Next(symbols, &pos, &k, &v)) {
        long flags = PyLong_AsLong(v);
        if (SYMBOL_TO_SCOPE(flags) == scope_type || (flags & flag)) {
            if (PyList_Append(names, k) < 0) {
                Py_DECREF(names);
                return NULL;
            }
        }
    }
    if (PyList_Sort(names) < 0) {
        Py_DECREF(names);
        return NULL;
    }
    PyObject *dest = PyDict_New();
    if (dest == NULL) {
        Py_DECREF(names);
        return NULL;
    }
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(names); i++) {
        PyObject *idx = PyLong_FromSsize_t(i + offset);
        if (idx == NULL || PyDict_SetItem(dest, PyList_GET_ITEM(names, i), idx) < 0) {
            Py_XDECREF(idx);
            Py_DECREF(names);
            Py_DECREF(dest);
            return NULL;
        }
        Py_DECREF(idx);
    }
    Py_DECREF(names);
    return dest;
}

static PyObject *
list_to_dict(PyObject *list)
{
    PyObject *dict = PyDict_New();
    if (dict == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(list); i++) {
        if (_PyCompile_DictAddObj(dict, PyList_GET_ITEM(list, i)) < 0) {
            Py_DECREF(dict);
            return NULL;
        }
    }
    return dict;
}

static void
unit_free(struct compiler_unit *u)
{
    _PyInstructionSequence_Fini(&u->u_instr_sequence);
    Py_XDECREF(u->u_private);
    Py_XDECREF(u->u_static_attributes);
    Py_XDECREF(u->u_deferred_annotations);
    Py_XDECREF(u->u_conditional_annotation_indices);
    _PyCompile_CodeUnitMetadata *m = &u->u_metadata;
    Py_XDECREF(m->u_name);
    Py_XDECREF(m->u_qualname);
    Py_XDECREF(m->u_consts);
    Py_XDECREF(m->u_names);
    Py_XDECREF(m->u_varnames);
    Py_XDECREF(m->u_cellvars);
    Py_XDECREF(m->u_freevars);
    Py_XDECREF(m->u_fasthidden);
    PyMem_Free(u);
}

static int
set_qualname(compiler *c)
{
    struct compiler_unit *u = c->u;
    struct compiler_unit *parent = u->u_parent;
    PyObject *base = NULL;
    if (parent != NULL && parent->u_scope_type == COMPILE_SCOPE_TYPEPARAMS) {
        parent = parent->u_parent;
        if (parent != NULL && parent->u_scope_type == COMPILE_SCOPE_MODULE) {
            parent = NULL;
        }
    }
    if (parent != NULL && parent->u_scope_type != COMPILE_SCOPE_MODULE) {
        int force_global = 0;
        if (u->u_scope_type == COMPILE_SCOPE_FUNCTION ||
            u->u_scope_type == COMPILE_SCOPE_ASYNC_FUNCTION ||
            u->u_scope_type == COMPILE_SCOPE_CLASS) {
            PyObject *mangled = _Py_Mangle(parent->u_private, u->u_metadata.u_name);
            if (mangled == NULL) {
                return -1;
            }
            int scope = _PyST_GetScope(parent->u_ste, mangled);
            Py_DECREF(mangled);
            if (scope == GLOBAL_EXPLICIT) {
                force_global = 1;
            }
        }
        if (!force_global) {
            if (parent->u_scope_type == COMPILE_SCOPE_FUNCTION ||
                parent->u_scope_type == COMPILE_SCOPE_ASYNC_FUNCTION ||
                parent->u_scope_type == COMPILE_SCOPE_LAMBDA) {
                base = PyUnicode_FromFormat("%U.<locals>", parent->u_metadata.u_qualname);
                if (base == NULL) {
                    return -1;
                }
            }
            else {
                base = Py_NewRef(parent->u_metadata.u_qualname);
            }
        }
    }
    PyObject *name;
    if (base != NULL) {
        name = PyUnicode_FromFormat("%U.%U", base, u->u_metadata.u_name);
        Py_DECREF(base);
        if (name == NULL) {
            return -1;
        }
    }
    else {
        name = Py_NewRef(u->u_metadata.u_name);
    }
    u->u_metadata.u_qualname = name;
    return 0;
}

static int
add_implicit_cell(PyObject *cellvars, const char *name)
{
    PyObject *n = PyUnicode_InternFromString(name);
    if (n == NULL) {
        return -1;
    }
    Py_ssize_t r = _PyCompile_DictAddObj(cellvars, n);
    Py_DECREF(n);
    return r < 0 ? -1 : 0;
}

int
_PyCompile_EnterScope(compiler *c, PyObject *name, int scope_type, void *key,
                      int lineno, PyObject *private_name,
                      _PyCompile_CodeUnitMetadata *umd)
{
    struct compiler_unit *u = PyMem_Calloc(1, sizeof(struct compiler_unit));
    if (u == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    u->u_scope_type = scope_type;
    if (umd != NULL) {
        u->u_metadata.u_argcount = umd->u_argcount;
        u->u_metadata.u_posonlyargcount = umd->u_posonlyargcount;
        u->u_metadata.u_kwonlyargcount = umd->u_kwonlyargcount;
    }
    u->u_ste = _PySymtable_Lookup(c->c_st, key);
    if (u->u_ste == NULL) {
        PyMem_Free(u);
        return -1;
    }
    _PyInstructionSequence_Init(&u->u_instr_sequence);
    u->u_metadata.u_name = Py_NewRef(name);
    u->u_metadata.u_varnames = list_to_dict(u->u_ste->ste_varnames);
    u->u_metadata.u_cellvars = dict_by_type(u->u_ste->ste_symbols, CELL, DEF_COMP_CELL, 0);
    if (u->u_metadata.u_varnames == NULL || u->u_metadata.u_cellvars == NULL) {
        unit_free(u);
        return -1;
    }
    if (u->u_ste->ste_needs_class_closure &&
        add_implicit_cell(u->u_metadata.u_cellvars, "__class__") < 0) {
        unit_free(u);
        return -1;
    }
    if (u->u_ste->ste_needs_classdict &&
        add_implicit_cell(u->u_metadata.u_cellvars, "__classdict__") < 0) {
        unit_free(u);
        return -1;
    }
    if (u->u_ste->ste_has_conditional_annotations && scope_type == COMPILE_SCOPE_CLASS &&
        add_implicit_cell(u->u_metadata.u_cellvars, "__conditional_annotations__") < 0) {
        unit_free(u);
        return -1;
    }
    u->u_metadata.u_freevars = dict_by_type(u->u_ste->ste_symbols, FREE, DEF_FREE_CLASS,
                                            PyDict_GET_SIZE(u->u_metadata.u_cellvars));
    u->u_metadata.u_fasthidden = PyDict_New();
    u->u_metadata.u_consts = PyDict_New();
    u->u_metadata.u_names = PyDict_New();
    if (!u->u_metadata.u_freevars || !u->u_metadata.u_fasthidden ||
        !u->u_metadata.u_consts || !u->u_metadata.u_names) {
        unit_free(u);
        return -1;
    }
    u->u_metadata.u_firstlineno = lineno;
    if (private_name == NULL && c->u != NULL) {
        private_name = c->u->u_private;   /* nested scopes mangle like their class */
    }
    u->u_private = Py_XNewRef(private_name);
    if (scope_type == COMPILE_SCOPE_CLASS) {
        u->u_static_attributes = PySet_New(NULL);
        if (u->u_static_attributes == NULL) {
            unit_free(u);
            return -1;
        }
    }
    u->u_parent = c->u;
    c->u = u;
    c->c_nestlevel++;
    if (scope_type != COMPILE_SCOPE_MODULE) {
        if (set_qualname(c) < 0) {
            return -1;   /* the unit is on the stack; exit_scope frees it */
        }
    }
    else {
        u->u_metadata.u_qualname = Py_NewRef(name);
    }
    _Py_SourceLocation loc = {lineno, lineno, 0, 0};
    if (scope_type == COMPILE_SCOPE_MODULE) {
        loc.lineno = 0;
        loc.end_lineno = 0;
    }
    return _PyInstructionSequence_Addop(&u->u_instr_sequence, RESUME, RESUME_AT_FUNC_START, loc);
}

void
_PyCompile_ExitScope(compiler *c)
{
    struct compiler_unit *u = c->u;
    c->u = u->u_parent;
    c->c_nestlevel--;
    unit_free(u);
}

/* ---- Code flags and assembly ------------------------------------------- */

int
_PyCompile_ComputeFlags(compiler *c)
{
    PySTEntryObject *ste = c->u->u_ste;
    int flags = 0;
    if (_PyST_IsFunctionLike(ste)) {
        flags |= CO_NEWLOCALS | CO_OPTIMIZED;
        if (ste->ste_nested) {
            flags |= CO_NESTED;
        }
        if (ste->ste_generator && !ste->ste_coroutine) {
            flags |= CO_GENERATOR;
        }
        if (ste->ste_generator && ste->ste_coroutine) {
            flags |= CO_ASYNC_GENERATOR;
        }
        if (ste->ste_varargs) {
            flags |= CO_VARARGS;
        }
        if (ste->ste_varkeywords) {
            flags |= CO_VARKEYWORDS;
        }
    }
    if (ste->ste_coroutine && !ste->ste_generator) {
        flags |= CO_COROUTINE;
    }
    if (c->u->u_has_docstring) {
        flags |= CO_HAS_DOCSTRING;
    }
    flags |= (c->c_flags.cf_flags & PyCF_MASK);
    return flags;
}

/* The consts dict (key -> index) as a list of the constant objects. */
static PyObject *
consts_dict_to_list(compiler *c, PyObject *dict)
{
    Py_ssize_t n = PyDict_GET_SIZE(dict);
    PyObject *list = PyList_New(n);
    if (list == NULL) {
        return NULL;
    }
    PyObject *k, *v;
    Py_ssize_t pos = 0;
    while (PyDict_Next(dict, &pos, &k, &v)) {
        Py_ssize_t i = PyLong_AsSsize_t(v);
        PyObject *o = PyDict_GetItemWithError(c->c_const_cache, k);
        if (o == NULL) {
            if (!PyErr_Occurred()) {
                PyErr_SetString(PyExc_SystemError, "constant missing from cache");
            }
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, Py_NewRef(o));
    }
    return list;
}

PyCodeObject *
_PyCompile_OptimizeAndAssemble(compiler *c, int add_none)
{
    struct compiler_unit *u = c->u;
    PyCodeObject *co = NULL;
    PyObject *consts = NULL;
    cfg_builder *g = NULL;
    _PyInstructionSequence optimized;
    _PyInstructionSequence_Init(&optimized);

    if (_PyCodegen_AddReturnAtEnd(c, add_none) < 0) {
        return NULL;
    }
    int code_flags = _PyCompile_ComputeFlags(c);
    consts = consts_dict_to_list(c, u->u_metadata.u_consts);
    if (consts == NULL) {
        goto done;
    }
    g = _PyCfg_FromInstructionSequence(&u->u_instr_sequence);
    if (g == NULL) {
        goto done;
    }
    int nlocals = (int)PyDict_GET_SIZE(u->u_metadata.u_varnames);
    int nparams = (int)PyList_GET_SIZE(u->u_ste->ste_varnames);
    if (_PyCfg_OptimizeCodeUnit(g, consts, c->c_const_cache, nlocals, nparams,
                                u->u_metadata.u_firstlineno) < 0) {
        goto done;
    }
    int stackdepth, nlocalsplus;
    if (_PyCfg_OptimizedCfgToInstructionSequence(g, &u->u_metadata, code_flags, &stackdepth,
                                                 &nlocalsplus, &optimized) < 0) {
        goto done;
    }
    co = _PyAssemble_MakeCodeObject(&u->u_metadata, c->c_const_cache, consts, stackdepth,
                                    &optimized, nlocalsplus, code_flags, c->c_filename);
done:
    _PyInstructionSequence_Fini(&optimized);
    if (g != NULL) {
        _PyCfgBuilder_Free(g);
    }
    Py_XDECREF(consts);
    return co;
}

/* ---- Entry point ------------------------------------------------------- */

static void
compiler_free(compiler *c)
{
    while (c->u != NULL) {
        _PyCompile_ExitScope(c);
    }
    if (c->c_st != NULL) {
        _PySymtable_Free(c->c_st);
    }
    Py_XDECREF(c->c_filename);
    Py_XDECREF(c->c_const_cache);
}

PyCodeObject *
_PyAST_Compile(mod_ty mod, PyObject *filename, PyCompilerFlags *flags, int optimize,
               PyArena *arena)
{
    compiler c;
    memset(&c, 0, sizeof(c));
    PyCodeObject *co = NULL;
    if (filename == NULL) {
        filename = PyUnicode_FromString("<string>");
        if (filename == NULL) {
            return NULL;
        }
        c.c_filename = filename;
    }
    else {
        c.c_filename = Py_NewRef(filename);
    }
    c.c_arena = arena;
    c.c_optimize = optimize < 0 ? _Py_Config.optimization_level : optimize;
    if (flags != NULL) {
        c.c_flags = *flags;
    }
    else {
        c.c_flags.cf_flags = 0;
        c.c_flags.cf_feature_version = 14;
    }
    c.c_const_cache = PyDict_New();
    if (c.c_const_cache == NULL) {
        goto done;
    }
    if (_PyFuture_FromAST(mod, c.c_filename, &c.c_future) < 0) {
        goto done;
    }
    int merged = c.c_future.ff_features | c.c_flags.cf_flags;
    c.c_future.ff_features = merged;
    c.c_flags.cf_flags = merged;
    c.c_st = _PySymtable_Build(mod, c.c_filename, &c.c_future);
    if (c.c_st == NULL) {
        if (!PyErr_Occurred()) {
            PyErr_SetString(PyExc_SystemError, "no symtable");
        }
        goto done;
    }
    c.c_interactive = mod->kind == Interactive_kind;
    if (_PyCodegen_Module(&c, mod) < 0) {
        goto done;
    }
    co = _PyCompile_OptimizeAndAssemble(&c, mod->kind != Expression_kind);
done:
    compiler_free(&c);
    return co;
}

/* ---- Public stack-effect queries (Include/compile.h) ------------------- */

static int
checked_stack_effect(int opcode, int oparg, int jump)
{
    if (opcode < 0 || opcode > MAX_PSEUDO_OPCODE ||
        (opcode > MAX_REAL_OPCODE && !IS_PSEUDO_INSTR(opcode) && opcode != RESUME)) {
        PyErr_SetString(PyExc_ValueError, "invalid opcode or oparg");
        return INT_MAX;
    }
    int effect = _PyCompile_StackEffect(opcode, oparg, jump);
    if (effect == INT_MAX) {
        PyErr_SetString(PyExc_ValueError, "invalid opcode or oparg");
    }
    return effect;
}

int
PyCompile_OpcodeStackEffectWithJump(int opcode, int oparg, int jump)
{
    /* jump > 0: effect when jumping; 0: when not; < 0: the maximum */
    return checked_stack_effect(opcode, oparg, jump > 0 ? 1 : jump == 0 ? 0 : -1);
}

int
PyCompile_OpcodeStackEffect(int opcode, int oparg)
{
    return checked_stack_effect(opcode, oparg, -1);
}
