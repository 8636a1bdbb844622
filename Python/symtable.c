/* Symbol table construction and scope analysis.

   Pass 1 walks the AST once, creating an entry for every scope and
   recording, for each name, how the scope uses it (bound, used, declared
   global/nonlocal, parameter, ...).  Pass 2 (analysis) decides for every
   name in every scope whether it is local, global, free or a cell, working
   from the module down with the sets of names visible from enclosing
   function scopes, and inlines list/set/dict comprehensions (PEP 709) into
   their parent scope. */

#include "Python.h"
#include "pycore_ast.h"
#include "pycore_future.h"
#include "pycore_symtable.h"
#include "pycore_pyerrors.h"

#define GLOBAL_PARAM "name '%U' is parameter and global"
#define NONLOCAL_PARAM "name '%U' is parameter and nonlocal"
#define GLOBAL_AFTER_ASSIGN "name '%U' is assigned to before global declaration"
#define NONLOCAL_AFTER_ASSIGN "name '%U' is assigned to before nonlocal declaration"
#define GLOBAL_AFTER_USE "name '%U' is used prior to global declaration"
#define NONLOCAL_AFTER_USE "name '%U' is used prior to nonlocal declaration"
#define GLOBAL_ANNOT "annotated name '%U' can't be global"
#define NONLOCAL_ANNOT "annotated name '%U' can't be nonlocal"
#define IMPORT_STAR_WARNING "import * only allowed at module level"
#define NAMED_EXPR_COMP_IN_CLASS \
    "assignment expression within a comprehension cannot be used in a class body"
#define NAMED_EXPR_COMP_CONFLICT \
    "assignment expression cannot rebind comprehension iteration variable '%U'"
#define NAMED_EXPR_COMP_INNER_LOOP_CONFLICT \
    "comprehension inner loop cannot rebind assignment expression target '%U'"
#define NAMED_EXPR_COMP_ITER_EXPR \
    "assignment expression cannot be used in a comprehension iterable expression"
#define ANNOTATION_NOT_ALLOWED "%s cannot be used within an annotation"
#define TYPEPARAM_NOT_ALLOWED "%s cannot be used within the definition of a generic"
#define TYPEALIAS_NOT_ALLOWED "%s cannot be used within a type alias"
#define TYPEVAR_BOUND_NOT_ALLOWED "%s cannot be used within a TypeVar bound"
#define DUPLICATE_TYPE_PARAM "duplicate type parameter '%U'"

#define LOC(x) ((_Py_STLocation){(x)->lineno, (x)->col_offset, (x)->end_lineno, (x)->end_col_offset})

static int visit_stmt(struct symtable *st, stmt_ty s);
static int visit_expr(struct symtable *st, expr_ty e);
static int visit_pattern(struct symtable *st, pattern_ty p);
static int visit_annotation(struct symtable *st, expr_ty annotation, void *key);

/* ---- Errors ------------------------------------------------------------- */

static int
raise_error_obj(struct symtable *st, PyObject *msg, _Py_STLocation loc)
{
    if (msg == NULL) {
        return 0;
    }
    _PyErr_RaiseSyntaxError(msg, st->st_filename, loc.lineno, loc.col_offset,
                            loc.end_lineno, loc.end_col_offset);
    Py_DECREF(msg);
    return 0;
}

static int
raise_error(struct symtable *st, _Py_STLocation loc, const char *fmt, PyObject *name)
{
    PyObject *msg = name ? PyUnicode_FromFormat(fmt, name) : PyUnicode_FromString(fmt);
    return raise_error_obj(st, msg, loc);
}

static int
enter_recursion(struct symtable *st)
{
    if (++st->st_cur_depth > st->st_max_depth) {
        PyErr_SetString(PyExc_RecursionError,
                        "maximum recursion depth exceeded during compilation");
        return 0;
    }
    return 1;
}

/* ---- Entries ------------------------------------------------------------ */

static PySTEntryObject *
ste_new(struct symtable *st, PyObject *name, _Py_block_ty block, void *key,
        _Py_STLocation loc)
{
    PySTEntryObject *ste = PyMem_Calloc(1, sizeof(PySTEntryObject));
    if (ste == NULL) {
        PyErr_NoMemory();
        return NULL;
    }
    ste->ste_table = st;
    ste->ste_id = PyLong_FromVoidPtr(key);
    ste->ste_name = Py_NewRef(name);
    ste->ste_symbols = PyDict_New();
    ste->ste_varnames = PyList_New(0);
    ste->ste_directives = PyDict_New();
    ste->ste_type = block;
    ste->ste_loc = loc;
    ste->ste_parent = st->st_cur;
    if (st->st_cur != NULL &&
        (st->st_cur->ste_nested || _PyST_IsFunctionLike(st->st_cur))) {
        ste->ste_nested = 1;
    }
    if (st->st_cur != NULL && st->st_cur->ste_type == ClassBlock && block == FunctionBlock) {
        ste->ste_method = 1;
    }
    if (ste->ste_id == NULL || ste->ste_symbols == NULL ||
        ste->ste_varnames == NULL || ste->ste_directives == NULL) {
        goto error;
    }
    if (st->st_nentries == st->st_entries_cap) {
        Py_ssize_t cap = st->st_entries_cap ? st->st_entries_cap * 2 : 16;
        PySTEntryObject **p = PyMem_Realloc(st->st_entries, cap * sizeof(*p));
        if (p == NULL) {
            PyErr_NoMemory();
            goto error;
        }
        st->st_entries = p;
        st->st_entries_cap = cap;
    }
    PyObject *idx = PyLong_FromSsize_t(st->st_nentries);
    if (idx == NULL) {
        goto error;
    }
    int r = PyDict_SetItem(st->st_blocks, ste->ste_id, idx);
    Py_DECREF(idx);
    if (r < 0) {
        goto error;
    }
    st->st_entries[st->st_nentries++] = ste;
    return ste;
error:
    Py_XDECREF(ste->ste_id);
    Py_XDECREF(ste->ste_name);
    Py_XDECREF(ste->ste_symbols);
    Py_XDECREF(ste->ste_varnames);
    Py_XDECREF(ste->ste_directives);
    PyMem_Free(ste);
    return NULL;
}

static void
ste_free(PySTEntryObject *ste)
{
    Py_XDECREF(ste->ste_id);
    Py_XDECREF(ste->ste_name);
    Py_XDECREF(ste->ste_symbols);
    Py_XDECREF(ste->ste_varnames);
    Py_XDECREF(ste->ste_directives);
    Py_XDECREF(ste->ste_mangled_names);
    PyMem_Free(ste->ste_children);
    PyMem_Free(ste);
}

static int
ste_add_child(PySTEntryObject *parent, PySTEntryObject *child)
{
    if (parent->ste_nchildren == parent->ste_children_cap) {
        Py_ssize_t cap = parent->ste_children_cap ? parent->ste_children_cap * 2 : 4;
        PySTEntryObject **p = PyMem_Realloc(parent->ste_children, cap * sizeof(*p));
        if (p == NULL) {
            PyErr_NoMemory();
            return 0;
        }
        parent->ste_children = p;
        parent->ste_children_cap = cap;
    }
    parent->ste_children[parent->ste_nchildren++] = child;
    return 1;
}

int
_PyST_IsFunctionLike(PySTEntryObject *ste)
{
    return ste->ste_type == FunctionBlock
        || ste->ste_type == AnnotationBlock
        || ste->ste_type == TypeVariableBlock
        || ste->ste_type == TypeAliasBlock
        || ste->ste_type == TypeParametersBlock;
}

long
_PyST_GetSymbol(PySTEntryObject *ste, PyObject *name)
{
    PyObject *v = PyDict_GetItemWithError(ste->ste_symbols, name);
    if (v == NULL) {
        return 0;
    }
    return PyLong_AsLong(v);
}

int
_PyST_GetScope(PySTEntryObject *ste, PyObject *name)
{
    return SYMBOL_TO_SCOPE(_PyST_GetSymbol(ste, name));
}

PySTEntryObject *
_PySymtable_Lookup(struct symtable *st, void *key)
{
    PyObject *k = PyLong_FromVoidPtr(key);
    if (k == NULL) {
        return NULL;
    }
    PyObject *v = PyDict_GetItemWithError(st->st_blocks, k);
    Py_DECREF(k);
    if (v == NULL) {
        if (!PyErr_Occurred()) {
            PyErr_SetString(PyExc_SystemError, "unknown symbol table entry");
        }
        return NULL;
    }
    return st->st_entries[PyLong_AsSsize_t(v)];
}

/* ---- Mangling ----------------------------------------------------------- */

PyObject *
_Py_Mangle(PyObject *privateobj, PyObject *ident)
{
    if (privateobj == NULL || !PyUnicode_Check(privateobj) || !PyUnicode_Check(ident)) {
        return Py_NewRef(ident);
    }
    Py_ssize_t nlen = PyUnicode_GET_LENGTH(ident);
    if (nlen < 2 || PyUnicode_READ_CHAR(ident, 0) != '_' ||
        PyUnicode_READ_CHAR(ident, 1) != '_') {
        return Py_NewRef(ident);
    }
    /* dunder names and dotted names (imports) are left alone */
    if (nlen >= 4 && PyUnicode_READ_CHAR(ident, nlen - 1) == '_' &&
        PyUnicode_READ_CHAR(ident, nlen - 2) == '_') {
        return Py_NewRef(ident);
    }
    if (PyUnicode_FindChar(ident, '.', 0, nlen, 1) != -1) {
        return Py_NewRef(ident);
    }
    Py_ssize_t plen = PyUnicode_GET_LENGTH(privateobj);
    Py_ssize_t start = 0;
    while (start < plen && PyUnicode_READ_CHAR(privateobj, start) == '_') {
        start++;
    }
    if (start == plen) {
        return Py_NewRef(ident);   /* class name made only of underscores */
    }
    PyObject *stripped = PyUnicode_Substring(privateobj, start, plen);
    if (stripped == NULL) {
        return NULL;
    }
    PyObject *res = PyUnicode_FromFormat("_%U%U", stripped, ident);
    Py_DECREF(stripped);
    return res;
}

PyObject *
_Py_MaybeMangle(PyObject *privateobj, PySTEntryObject *ste, PyObject *name)
{
    if (ste != NULL && ste->ste_mangled_names != NULL) {
        int r = PySet_Contains(ste->ste_mangled_names, name);
        if (r < 0) {
            return NULL;
        }
        if (r == 0) {
            return Py_NewRef(name);
        }
    }
    return _Py_Mangle(privateobj, name);
}

/* ---- Pass 1: collecting names ------------------------------------------- */

static int
enter_block(struct symtable *st, PyObject *name, _Py_block_ty block, void *key,
            _Py_STLocation loc)
{
    PySTEntryObject *ste = ste_new(st, name, block, key, loc);
    if (ste == NULL) {
        return 0;
    }
    if (st->st_cur != NULL) {
        if (st->st_cur->ste_comp_iter_expr > 0) {
            /* lambdas/genexps inside a comprehension's iterable still see
               the enclosing scope; nothing special to record */
        }
        if (!ste_add_child(st->st_cur, ste)) {
            return 0;
        }
    }
    if (block == ModuleBlock) {
        st->st_global = ste->ste_symbols;
        st->st_top = ste;
    }
    st->st_cur = ste;
    if (block == AnnotationBlock) {
        return 1;
    }
    return 1;
}

static int
enter_existing_block(struct symtable *st, PySTEntryObject *ste)
{
    st->st_cur = ste;
    return 1;
}

static void
exit_block(struct symtable *st)
{
    st->st_cur = st->st_cur->ste_parent;
}

static int
record_directive(struct symtable *st, PyObject *name, _Py_STLocation loc)
{
    PyObject *mangled = _Py_MaybeMangle(st->st_private, st->st_cur, name);
    if (mangled == NULL) {
        return 0;
    }
    PyObject *t = PyTuple_New(4);
    if (t == NULL) {
        Py_DECREF(mangled);
        return 0;
    }
    int parts[4] = {loc.lineno, loc.col_offset, loc.end_lineno, loc.end_col_offset};
    for (int i = 0; i < 4; i++) {
        PyObject *v = PyLong_FromLong(parts[i]);
        if (v == NULL) {
            Py_DECREF(t);
            Py_DECREF(mangled);
            return 0;
        }
        PyTuple_SET_ITEM(t, i, v);
    }
    int r = PyDict_SetItem(st->st_cur->ste_directives, mangled, t);
    Py_DECREF(t);
    Py_DECREF(mangled);
    return r == 0;
}

static int
add_def_to(struct symtable *st, PyObject *name, int flag, PySTEntryObject *ste,
           _Py_STLocation loc)
{
    PyObject *mangled = _Py_MaybeMangle(st->st_private, ste, name);
    if (mangled == NULL) {
        return 0;
    }
    long val = 0;
    PyObject *o = PyDict_GetItemWithError(ste->ste_symbols, mangled);
    if (o == NULL && PyErr_Occurred()) {
        goto error;
    }
    if (o != NULL) {
        val = PyLong_AsLong(o);
        if ((flag & DEF_PARAM) && (val & DEF_PARAM)) {
            raise_error(st, loc, "duplicate argument '%U' in function definition", name);
            goto error;
        }
        if ((flag & DEF_TYPE_PARAM) && (val & DEF_TYPE_PARAM)) {
            raise_error(st, loc, DUPLICATE_TYPE_PARAM, name);
            goto error;
        }
    }
    val |= flag;
    if (ste->ste_comp_iter_target) {
        /* an iteration variable of a comprehension */
        if (val & (DEF_GLOBAL | DEF_NONLOCAL)) {
            raise_error(st, loc, NAMED_EXPR_COMP_INNER_LOOP_CONFLICT, name);
            goto error;
        }
        val |= DEF_COMP_ITER;
    }
    o = PyLong_FromLong(val);
    if (o == NULL || PyDict_SetItem(ste->ste_symbols, mangled, o) < 0) {
        Py_XDECREF(o);
        goto error;
    }
    Py_DECREF(o);
    if (flag & DEF_PARAM) {
        if (PyList_Append(ste->ste_varnames, mangled) < 0) {
            goto error;
        }
    }
    else if (flag & DEF_GLOBAL) {
        /* record the declaration in the module's table as well */
        long gval = flag;
        o = PyDict_GetItemWithError(st->st_global, mangled);
        if (o != NULL) {
            gval |= PyLong_AsLong(o);
        }
        else if (PyErr_Occurred()) {
            goto error;
        }
        o = PyLong_FromLong(gval);
        if (o == NULL || PyDict_SetItem(st->st_global, mangled, o) < 0) {
            Py_XDECREF(o);
            goto error;
        }
        Py_DECREF(o);
    }
    Py_DECREF(mangled);
    return 1;
error:
    Py_DECREF(mangled);
    return 0;
}

static int
add_def(struct symtable *st, PyObject *name, int flag, _Py_STLocation loc)
{
    return add_def_to(st, name, flag, st->st_cur, loc);
}

static long
lookup_in(struct symtable *st, PySTEntryObject *ste, PyObject *name)
{
    PyObject *mangled = _Py_MaybeMangle(st->st_private, ste, name);
    if (mangled == NULL) {
        return -1;
    }
    long r = _PyST_GetSymbol(ste, mangled);
    Py_DECREF(mangled);
    if (r == 0 && PyErr_Occurred()) {
        return -1;
    }
    return r;
}

static int
check_debug_name(struct symtable *st, PyObject *name, expr_context_ty ctx, _Py_STLocation loc)
{
    if (ctx == Load) {
        return 1;
    }
    if (PyUnicode_Check(name) && PyUnicode_CompareWithASCIIString(name, "__debug__") == 0) {
        return raise_error(st, loc, ctx == Del ? "cannot delete __debug__"
                                               : "cannot assign to __debug__", NULL);
    }
    return 1;
}

#define VISIT(KIND, V) do { if (!visit_##KIND(st, (V))) { return 0; } } while (0)
#define VISIT_OPT(KIND, V) do { if ((V) != NULL && !visit_##KIND(st, (V))) { return 0; } } while (0)
#define VISIT_SEQ(KIND, SEQ) do { \
        Py_ssize_t n_ = asdl_seq_LEN(SEQ); \
        for (Py_ssize_t i_ = 0; i_ < n_; i_++) { \
            if (!visit_##KIND(st, asdl_seq_GET((SEQ), i_))) { return 0; } \
        } \
    } while (0)
#define VISIT_SEQ_WITH_NULL(KIND, SEQ) do { \
        Py_ssize_t n_ = asdl_seq_LEN(SEQ); \
        for (Py_ssize_t i_ = 0; i_ < n_; i_++) { \
            void *e_ = asdl_seq_GET((SEQ), i_); \
            if (e_ != NULL && !visit_##KIND(st, e_)) { return 0; } \
        } \
    } while (0)

static int
visit_params(struct symtable *st, asdl_arg_seq *args)
{
    for (Py_ssize_t i = 0; i < asdl_seq_LEN(args); i++) {
        arg_ty a = asdl_seq_GET(args, i);
        if (!check_debug_name(st, a->arg, Store, LOC(a))) {
            return 0;
        }
        if (!add_def(st, a->arg, DEF_PARAM, LOC(a))) {
            return 0;
        }
    }
    return 1;
}

static int
visit_arguments(struct symtable *st, arguments_ty a)
{
    if (!visit_params(st, a->posonlyargs) || !visit_params(st, a->args) ||
        !visit_params(st, a->kwonlyargs)) {
        return 0;
    }
    if (a->vararg) {
        if (!check_debug_name(st, a->vararg->arg, Store, LOC(a->vararg)) ||
            !add_def(st, a->vararg->arg, DEF_PARAM, LOC(a->vararg))) {
            return 0;
        }
        st->st_cur->ste_varargs = 1;
    }
    if (a->kwarg) {
        if (!check_debug_name(st, a->kwarg->arg, Store, LOC(a->kwarg)) ||
            !add_def(st, a->kwarg->arg, DEF_PARAM, LOC(a->kwarg))) {
            return 0;
        }
        st->st_cur->ste_varkeywords = 1;
    }
    return 1;
}

/* With stringified annotations the expression is never evaluated, but
   yield, await and := are still rejected. */
static int
check_unevaluated_annotation(struct symtable *st, expr_ty e)
{
    if (e == NULL) {
        return 1;
    }
    if (!enter_recursion(st)) {
        return 0;
    }
    const char *what = NULL;
    switch (e->kind) {
    case Yield_kind:
    case YieldFrom_kind:
        what = "yield expression";
        break;
    case Await_kind:
        what = "await expression";
        break;
    case NamedExpr_kind:
        what = "named expression";
        break;
    default:
        break;
    }
    if (what != NULL) {
        return raise_error_obj(st, PyUnicode_FromFormat(ANNOTATION_NOT_ALLOWED, what), LOC(e));
    }
    int ok = 1;
    switch (e->kind) {
    case BoolOp_kind:
        for (Py_ssize_t i = 0; ok && i < asdl_seq_LEN(e->v.BoolOp.values); i++) {
            ok = check_unevaluated_annotation(st, asdl_seq_GET(e->v.BoolOp.values, i));
        }
        break;
    case BinOp_kind:
        ok = check_unevaluated_annotation(st, e->v.BinOp.left) &&
             check_unevaluated_annotation(st, e->v.BinOp.right);
        break;
    case UnaryOp_kind:
        ok = check_unevaluated_annotation(st, e->v.UnaryOp.operand);
        break;
    case IfExp_kind:
        ok = check_unevaluated_annotation(st, e->v.IfExp.test) &&
             check_unevaluated_annotation(st, e->v.IfExp.body) &&
             check_unevaluated_annotation(st, e->v.IfExp.orelse);
        break;
    case Compare_kind:
        ok = check_unevaluated_annotation(st, e->v.Compare.left);
        for (Py_ssize_t i = 0; ok && i < asdl_seq_LEN(e->v.Compare.comparators); i++) {
            ok = check_unevaluated_annotation(st, asdl_seq_GET(e->v.Compare.comparators, i));
        }
        break;
    case Call_kind:
        ok = check_unevaluated_annotation(st, e->v.Call.func);
        for (Py_ssize_t i = 0; ok && i < asdl_seq_LEN(e->v.Call.args); i++) {
            ok = check_unevaluated_annotation(st, asdl_seq_GET(e->v.Call.args, i));
        }
        for (Py_ssize_t i = 0; ok && i < asdl_seq_LEN(e->v.Call.keywords); i++) {
            ok = check_unevaluated_annotation(st, asdl_seq_GET(e->v.Call.keywords, i)->value);
        }
        break;
    case Attribute_kind:
        ok = check_unevaluated_annotation(st, e->v.Attribute.value);
        break;
    case Subscript_kind:
        ok = check_unevaluated_annotation(st, e->v.Subscript.value) &&
             check_unevaluated_annotation(st, e->v.Subscript.slice);
        break;
    case Starred_kind:
        ok = check_unevaluated_annotation(st, e->v.Starred.value);
        break;
    case Slice_kind:
        ok = check_unevaluated_annotation(st, e->v.Slice.lower) &&
             check_unevaluated_annotation(st, e->v.Slice.upper) &&
             check_unevaluated_annotation(st, e->v.Slice.step);
        break;
    case List_kind:
    case Tuple_kind:
    case Set_kind: {
        asdl_expr_seq *elts = e->kind == List_kind ? e->v.List.elts
                            : e->kind == Tuple_kind ? e->v.Tuple.elts : e->v.Set.elts;
        for (Py_ssize_t i = 0; ok && i < asdl_seq_LEN(elts); i++) {
            ok = check_unevaluated_annotation(st, asdl_seq_GET(elts, i));
        }
        break;
    }
    case Dict_kind:
        for (Py_ssize_t i = 0; ok && i < asdl_seq_LEN(e->v.Dict.values); i++) {
            ok = check_unevaluated_annotation(st, asdl_seq_GET(e->v.Dict.keys, i)) &&
                 check_unevaluated_annotation(st, asdl_seq_GET(e->v.Dict.values, i));
        }
        break;
    case JoinedStr_kind:
        for (Py_ssize_t i = 0; ok && i < asdl_seq_LEN(e->v.JoinedStr.values); i++) {
            ok = check_unevaluated_annotation(st, asdl_seq_GET(e->v.JoinedStr.values, i));
        }
        break;
    case FormattedValue_kind:
        ok = check_unevaluated_annotation(st, e->v.FormattedValue.value) &&
             check_unevaluated_annotation(st, e->v.FormattedValue.format_spec);
        break;
    default:
        break;
    }
    st->st_cur_depth--;
    return ok;
}

static int
future_annotations(struct symtable *st)
{
    return st->st_future != NULL && (st->st_future->ff_features & CO_FUTURE_ANNOTATIONS);
}

static int
visit_arg_annotations(struct symtable *st, asdl_arg_seq *args)
{
    for (Py_ssize_t i = 0; i < asdl_seq_LEN(args); i++) {
        arg_ty a = asdl_seq_GET(args, i);
        VISIT_OPT(expr, a->annotation);
    }
    return 1;
}

static int
has_arg_annotations(asdl_arg_seq *args)
{
    for (Py_ssize_t i = 0; i < asdl_seq_LEN(args); i++) {
        if (asdl_seq_GET(args, i)->annotation) {
            return 1;
        }
    }
    return 0;
}

int
_PySymtable_FunctionHasAnnotations(arguments_ty a, expr_ty returns)
{
    return returns != NULL || has_arg_annotations(a->posonlyargs) ||
           has_arg_annotations(a->args) || has_arg_annotations(a->kwonlyargs) ||
           (a->vararg && a->vararg->annotation) || (a->kwarg && a->kwarg->annotation);
}

/* PEP 649: a function's annotations are evaluated in their own
   `__annotate__` scope, a child of the scope containing the def. */
static int
visit_function_annotations(struct symtable *st, stmt_ty s, arguments_ty a, expr_ty returns)
{
    if (!_PySymtable_FunctionHasAnnotations(a, returns)) {
        return 1;
    }
    if (future_annotations(st)) {
        /* stringified by the compiler; never evaluated */
        int ok = 1;
        asdl_arg_seq *seqs[3] = {a->posonlyargs, a->args, a->kwonlyargs};
        for (int k = 0; k < 3 && ok; k++) {
            for (Py_ssize_t i = 0; ok && i < asdl_seq_LEN(seqs[k]); i++) {
                ok = check_unevaluated_annotation(st, asdl_seq_GET(seqs[k], i)->annotation);
            }
        }
        if (ok && a->vararg) {
            ok = check_unevaluated_annotation(st, a->vararg->annotation);
        }
        if (ok && a->kwarg) {
            ok = check_unevaluated_annotation(st, a->kwarg->annotation);
        }
        return ok && check_unevaluated_annotation(st, returns);
    }
    int in_class = st->st_cur->ste_type == ClassBlock || st->st_cur->ste_can_see_class_scope;
    PyObject *name = PyUnicode_InternFromString("__annotate__");
    if (name == NULL) {
        return 0;
    }
    int ok = enter_block(st, name, AnnotationBlock, (void *)a, LOC(s));
    Py_DECREF(name);
    if (!ok) {
        return 0;
    }
    PyObject *fmt = PyUnicode_InternFromString(".format");
    if (fmt == NULL || !add_def(st, fmt, DEF_PARAM, LOC(s))) {
        Py_XDECREF(fmt);
        return 0;
    }
    Py_DECREF(fmt);
    if (in_class) {
        st->st_cur->ste_can_see_class_scope = 1;
        PyObject *cd = PyUnicode_InternFromString("__classdict__");
        if (cd == NULL || !add_def(st, cd, USE, LOC(s))) {
            Py_XDECREF(cd);
            return 0;
        }
        Py_DECREF(cd);
    }
    if (!visit_arg_annotations(st, a->posonlyargs) || !visit_arg_annotations(st, a->args)) {
        return 0;
    }
    if (a->vararg) {
        VISIT_OPT(expr, a->vararg->annotation);
    }
    if (!visit_arg_annotations(st, a->kwonlyargs)) {
        return 0;
    }
    if (a->kwarg) {
        VISIT_OPT(expr, a->kwarg->annotation);
    }
    VISIT_OPT(expr, returns);
    exit_block(st);
    return 1;
}

static int
add_named_use(struct symtable *st, const char *name, int flag, _Py_STLocation loc)
{
    PyObject *n = PyUnicode_InternFromString(name);
    if (n == NULL) {
        return 0;
    }
    int r = add_def(st, n, flag, loc);
    Py_DECREF(n);
    return r;
}

static int
enter_type_param_block(struct symtable *st, PyObject *name, void *key,
                       int has_defaults, int has_kwdefaults, int is_class,
                       _Py_STLocation loc)
{
    _Py_block_ty current = st->st_cur->ste_type;
    int can_see_class = current == ClassBlock || st->st_cur->ste_can_see_class_scope;
    PyObject *bname = PyUnicode_FromFormat("<generic parameters of %U>", name);
    if (bname == NULL) {
        return 0;
    }
    int ok = enter_block(st, bname, TypeParametersBlock, key, loc);
    Py_DECREF(bname);
    if (!ok) {
        return 0;
    }
    if (can_see_class) {
        st->st_cur->ste_can_see_class_scope = 1;
        if (!add_named_use(st, "__classdict__", USE, loc)) {
            return 0;
        }
    }
    if (is_class) {
        if (!add_named_use(st, ".type_params", DEF_LOCAL, loc) ||
            !add_named_use(st, ".generic_base", DEF_LOCAL, loc)) {
            return 0;
        }
    }
    if (has_defaults && !add_named_use(st, ".defaults", DEF_PARAM, loc)) {
        return 0;
    }
    if (has_kwdefaults && !add_named_use(st, ".kwdefaults", DEF_PARAM, loc)) {
        return 0;
    }
    return 1;
}

static int
visit_type_param_bound_or_default(struct symtable *st, expr_ty e, PyObject *name, void *key)
{
    if (e == NULL) {
        return 1;
    }
    int can_see_class = st->st_cur->ste_can_see_class_scope;
    if (!enter_block(st, name, TypeVariableBlock, key, LOC(e))) {
        return 0;
    }
    if (!add_named_use(st, ".format", DEF_PARAM, LOC(e))) {
        return 0;
    }
    if (can_see_class) {
        st->st_cur->ste_can_see_class_scope = 1;
        if (!add_named_use(st, "__classdict__", USE, LOC(e))) {
            return 0;
        }
    }
    VISIT(expr, e);
    exit_block(st);
    return 1;
}

static int
visit_type_param(struct symtable *st, type_param_ty tp)
{
    if (!enter_recursion(st)) {
        return 0;
    }
    PyObject *name = NULL;
    expr_ty dflt = NULL;
    switch (tp->kind) {
    case TypeVar_kind:
        name = tp->v.TypeVar.name;
        dflt = tp->v.TypeVar.default_value;
        break;
    case ParamSpec_kind:
        name = tp->v.ParamSpec.name;
        dflt = tp->v.ParamSpec.default_value;
        break;
    case TypeVarTuple_kind:
        name = tp->v.TypeVarTuple.name;
        dflt = tp->v.TypeVarTuple.default_value;
        break;
    }
    if (st->st_cur->ste_mangled_names != NULL &&
        PySet_Add(st->st_cur->ste_mangled_names, name) < 0) {
        return 0;
    }
    if (!add_def(st, name, DEF_TYPE_PARAM | DEF_LOCAL, LOC(tp))) {
        return 0;
    }
    if (tp->kind == TypeVar_kind && tp->v.TypeVar.bound) {
        if (!visit_type_param_bound_or_default(st, tp->v.TypeVar.bound, name, (void *)tp)) {
            return 0;
        }
    }
    if (!visit_type_param_bound_or_default(st, dflt, name, (void *)((uintptr_t)tp + 1))) {
        return 0;
    }
    st->st_cur_depth--;
    return 1;
}

static int
visit_function(struct symtable *st, stmt_ty s, int is_async)
{
    PyObject *name = is_async ? s->v.AsyncFunctionDef.name : s->v.FunctionDef.name;
    arguments_ty args = is_async ? s->v.AsyncFunctionDef.args : s->v.FunctionDef.args;
    asdl_stmt_seq *body = is_async ? s->v.AsyncFunctionDef.body : s->v.FunctionDef.body;
    asdl_expr_seq *decos = is_async ? s->v.AsyncFunctionDef.decorator_list
                                    : s->v.FunctionDef.decorator_list;
    expr_ty returns = is_async ? s->v.AsyncFunctionDef.returns : s->v.FunctionDef.returns;
    asdl_type_param_seq *tps = is_async ? s->v.AsyncFunctionDef.type_params
                                        : s->v.FunctionDef.type_params;
    if (!check_debug_name(st, name, Store, LOC(s)) || !add_def(st, name, DEF_LOCAL, LOC(s))) {
        return 0;
    }
    VISIT_SEQ(expr, args->defaults);
    VISIT_SEQ_WITH_NULL(expr, args->kw_defaults);
    VISIT_SEQ(expr, decos);
    int generic = asdl_seq_LEN(tps) > 0;
    if (generic) {
        int has_kwdefaults = 0;
        for (Py_ssize_t i = 0; i < asdl_seq_LEN(args->kw_defaults); i++) {
            if (asdl_seq_GET(args->kw_defaults, i)) {
                has_kwdefaults = 1;
            }
        }
        if (!enter_type_param_block(st, name, (void *)tps, asdl_seq_LEN(args->defaults) > 0,
                                    has_kwdefaults, 0, LOC(s))) {
            return 0;
        }
        VISIT_SEQ(type_param, tps);
    }
    if (!visit_function_annotations(st, s, args, returns)) {
        return 0;
    }
    if (!enter_block(st, name, FunctionBlock, (void *)s, LOC(s))) {
        return 0;
    }
    if (is_async) {
        st->st_cur->ste_coroutine = 1;
        st->st_cur->ste_function_async = 1;
    }
    if (asdl_seq_LEN(body) > 0) {
        stmt_ty first = asdl_seq_GET(body, 0);
        if (first->kind == Expr_kind && first->v.Expr.value->kind == Constant_kind &&
            PyUnicode_CheckExact(first->v.Expr.value->v.Constant.value)) {
            st->st_cur->ste_has_docstring = 1;
        }
    }
    if (!visit_arguments(st, args)) {
        return 0;
    }
    VISIT_SEQ(stmt, body);
    exit_block(st);
    if (generic) {
        exit_block(st);
    }
    return 1;
}

static int
visit_keyword(struct symtable *st, keyword_ty k)
{
    VISIT(expr, k->value);
    return 1;
}

static int
visit_class(struct symtable *st, stmt_ty s)
{
    PyObject *name = s->v.ClassDef.name;
    asdl_type_param_seq *tps = s->v.ClassDef.type_params;
    if (!check_debug_name(st, name, Store, LOC(s)) || !add_def(st, name, DEF_LOCAL, LOC(s))) {
        return 0;
    }
    VISIT_SEQ(expr, s->v.ClassDef.decorator_list);
    PyObject *saved_private = st->st_private;
    int generic = asdl_seq_LEN(tps) > 0;
    if (generic) {
        if (!enter_type_param_block(st, name, (void *)tps, 0, 0, 1, LOC(s))) {
            return 0;
        }
        st->st_private = name;
        /* only type parameter names are mangled in this scope */
        st->st_cur->ste_mangled_names = PySet_New(NULL);
        if (st->st_cur->ste_mangled_names == NULL) {
            return 0;
        }
        VISIT_SEQ(type_param, tps);
    }
    VISIT_SEQ(expr, s->v.ClassDef.bases);
    VISIT_SEQ(keyword, s->v.ClassDef.keywords);
    if (!enter_block(st, name, ClassBlock, (void *)s, LOC(s))) {
        return 0;
    }
    st->st_private = name;
    if (generic) {
        if (!add_named_use(st, ".type_params", USE, LOC(s)) ||
            !add_named_use(st, "__type_params__", DEF_LOCAL, LOC(s))) {
            return 0;
        }
    }
    VISIT_SEQ(stmt, s->v.ClassDef.body);
    exit_block(st);
    if (generic) {
        exit_block(st);
    }
    st->st_private = saved_private;
    return 1;
}

static int
visit_type_alias(struct symtable *st, stmt_ty s)
{
    expr_ty nameexpr = s->v.TypeAlias.name;
    PyObject *name = nameexpr->v.Name.id;
    VISIT(expr, nameexpr);
    asdl_type_param_seq *tps = s->v.TypeAlias.type_params;
    int generic = asdl_seq_LEN(tps) > 0;
    int is_in_class = st->st_cur->ste_type == ClassBlock;
    if (generic) {
        if (!enter_type_param_block(st, name, (void *)tps, 0, 0, 0, LOC(s))) {
            return 0;
        }
        VISIT_SEQ(type_param, tps);
    }
    if (!enter_block(st, name, TypeAliasBlock, (void *)s, LOC(s))) {
        return 0;
    }
    if (!add_named_use(st, ".format", DEF_PARAM, LOC(s))) {
        return 0;
    }
    st->st_cur->ste_can_see_class_scope = is_in_class;
    if (is_in_class && !add_named_use(st, "__classdict__", USE, LOC(s->v.TypeAlias.value))) {
        return 0;
    }
    VISIT(expr, s->v.TypeAlias.value);
    exit_block(st);
    if (generic) {
        exit_block(st);
    }
    return 1;
}

static int
visit_alias(struct symtable *st, alias_ty a)
{
    PyObject *store_name;
    PyObject *name = a->asname ? a->asname : a->name;
    Py_ssize_t dot = PyUnicode_FindChar(name, '.', 0, PyUnicode_GET_LENGTH(name), 1);
    if (dot == -2) {
        return 0;
    }
    if (dot != -1) {
        store_name = PyUnicode_Substring(name, 0, dot);
        if (store_name == NULL) {
            return 0;
        }
    }
    else {
        store_name = Py_NewRef(name);
    }
    int r;
    if (PyUnicode_CompareWithASCIIString(name, "*") != 0) {
        r = check_debug_name(st, store_name, Store, LOC(a)) &&
            add_def(st, store_name, DEF_IMPORT, LOC(a));
    }
    else if (st->st_cur->ste_type != ModuleBlock) {
        r = raise_error(st, LOC(a), IMPORT_STAR_WARNING, NULL);
    }
    else {
        r = 1;
    }
    Py_DECREF(store_name);
    return r;
}

static int
visit_excepthandler(struct symtable *st, excepthandler_ty eh)
{
    VISIT_OPT(expr, eh->v.ExceptHandler.type);
    if (eh->v.ExceptHandler.name) {
        if (!check_debug_name(st, eh->v.ExceptHandler.name, Store, LOC(eh)) ||
            !add_def(st, eh->v.ExceptHandler.name, DEF_LOCAL, LOC(eh))) {
            return 0;
        }
    }
    VISIT_SEQ(stmt, eh->v.ExceptHandler.body);
    return 1;
}

static int
visit_withitem(struct symtable *st, withitem_ty w)
{
    VISIT(expr, w->context_expr);
    VISIT_OPT(expr, w->optional_vars);
    return 1;
}

static int
visit_match_case(struct symtable *st, match_case_ty m)
{
    VISIT(pattern, m->pattern);
    VISIT_OPT(expr, m->guard);
    VISIT_SEQ(stmt, m->body);
    return 1;
}

static int
visit_global_or_nonlocal(struct symtable *st, stmt_ty s, int is_global)
{
    asdl_identifier_seq *names = is_global ? s->v.Global.names : s->v.Nonlocal.names;
    for (Py_ssize_t i = 0; i < asdl_seq_LEN(names); i++) {
        PyObject *name = asdl_seq_GET(names, i);
        long cur = lookup_in(st, st->st_cur, name);
        if (cur < 0) {
            return 0;
        }
        if (!is_global && st->st_cur->ste_type == ModuleBlock) {
            return raise_error(st, LOC(s), "nonlocal declaration not allowed at module level", NULL);
        }
        if (cur & (DEF_PARAM | DEF_LOCAL | USE | DEF_ANNOT)) {
            const char *msg;
            if (cur & DEF_PARAM) {
                msg = is_global ? GLOBAL_PARAM : NONLOCAL_PARAM;
            }
            else if (cur & USE) {
                msg = is_global ? GLOBAL_AFTER_USE : NONLOCAL_AFTER_USE;
            }
            else if (cur & DEF_ANNOT) {
                msg = is_global ? GLOBAL_ANNOT : NONLOCAL_ANNOT;
            }
            else {
                msg = is_global ? GLOBAL_AFTER_ASSIGN : NONLOCAL_AFTER_ASSIGN;
            }
            return raise_error(st, LOC(s), msg, name);
        }
        if (!is_global && (cur & DEF_TYPE_PARAM)) {
            return raise_error(st, LOC(s), "nonlocal binding not allowed for type parameter '%U'",
                               name);
        }
        if (!add_def(st, name, is_global ? DEF_GLOBAL : DEF_NONLOCAL, LOC(s))) {
            return 0;
        }
        if (!record_directive(st, name, LOC(s))) {
            return 0;
        }
    }
    return 1;
}

/* Annotated assignment at module or class level (or in a function, where
   the annotation is never evaluated). */
static int
visit_annassign(struct symtable *st, stmt_ty s)
{
    expr_ty target = s->v.AnnAssign.target;
    if (target->kind == Name_kind) {
        long cur = lookup_in(st, st->st_cur, target->v.Name.id);
        if (cur < 0) {
            return 0;
        }
        if ((cur & (DEF_GLOBAL | DEF_NONLOCAL)) && st->st_cur->ste_symbols != st->st_global &&
            s->v.AnnAssign.simple) {
            return raise_error(st, LOC(s), (cur & DEF_GLOBAL) ? GLOBAL_ANNOT : NONLOCAL_ANNOT,
                               target->v.Name.id);
        }
        if (!check_debug_name(st, target->v.Name.id, Store, LOC(target))) {
            return 0;
        }
        if (s->v.AnnAssign.simple) {
            if (!add_def(st, target->v.Name.id, DEF_ANNOT | DEF_LOCAL, LOC(target))) {
                return 0;
            }
        }
        else if (s->v.AnnAssign.value &&
                 !add_def(st, target->v.Name.id, DEF_LOCAL, LOC(target))) {
            return 0;
        }
    }
    else {
        VISIT(expr, target);
    }
    if (!visit_annotation(st, s->v.AnnAssign.annotation,
                          (void *)((uintptr_t)PyLong_AsVoidPtr(st->st_cur->ste_id) + 1))) {
        return 0;
    }
    VISIT_OPT(expr, s->v.AnnAssign.value);
    return 1;
}

/* Statements that make later annotations conditional in a class body. */
static int
visit_conditional_body(struct symtable *st, asdl_stmt_seq *body)
{
    unsigned saved = st->st_cur->ste_in_conditional_block;
    st->st_cur->ste_in_conditional_block = 1;
    VISIT_SEQ(stmt, body);
    st->st_cur->ste_in_conditional_block = saved;
    return 1;
}

/* `async for`/`async with` at the top level (allowed by
   PyCF_ALLOW_TOP_LEVEL_AWAIT) make the module code a coroutine. */
static void
maybe_module_coroutine(struct symtable *st, stmt_ty s)
{
    if ((s->kind == AsyncFor_kind || s->kind == AsyncWith_kind) &&
        st->st_cur->ste_type == ModuleBlock && st->st_future &&
        (st->st_future->ff_features & PyCF_ALLOW_TOP_LEVEL_AWAIT)) {
        st->st_cur->ste_coroutine = 1;
    }
}

static int
visit_stmt(struct symtable *st, stmt_ty s)
{
    if (!enter_recursion(st)) {
        return 0;
    }
    switch (s->kind) {
    case FunctionDef_kind:
        if (!visit_function(st, s, 0)) {
            return 0;
        }
        break;
    case AsyncFunctionDef_kind:
        if (!visit_function(st, s, 1)) {
            return 0;
        }
        break;
    case ClassDef_kind:
        if (!visit_class(st, s)) {
            return 0;
        }
        break;
    case Return_kind:
        if (s->v.Return.value) {
            VISIT(expr, s->v.Return.value);
            st->st_cur->ste_returns_value = 1;
        }
        break;
    case Delete_kind:
        VISIT_SEQ(expr, s->v.Delete.targets);
        break;
    case Assign_kind:
        VISIT_SEQ(expr, s->v.Assign.targets);
        VISIT(expr, s->v.Assign.value);
        break;
    case TypeAlias_kind:
        if (!visit_type_alias(st, s)) {
            return 0;
        }
        break;
    case AugAssign_kind:
        VISIT(expr, s->v.AugAssign.target);
        VISIT(expr, s->v.AugAssign.value);
        break;
    case AnnAssign_kind:
        if (!visit_annassign(st, s)) {
            return 0;
        }
        break;
    case For_kind:
    case AsyncFor_kind:
        maybe_module_coroutine(st, s);
        VISIT(expr, s->v.For.target);
        VISIT(expr, s->v.For.iter);
        if (!visit_conditional_body(st, s->v.For.body) ||
            !visit_conditional_body(st, s->v.For.orelse)) {
            return 0;
        }
        break;
    case While_kind:
        VISIT(expr, s->v.While.test);
        if (!visit_conditional_body(st, s->v.While.body) ||
            !visit_conditional_body(st, s->v.While.orelse)) {
            return 0;
        }
        break;
    case If_kind:
        VISIT(expr, s->v.If.test);
        if (!visit_conditional_body(st, s->v.If.body) ||
            !visit_conditional_body(st, s->v.If.orelse)) {
            return 0;
        }
        break;
    case With_kind:
    case AsyncWith_kind:
        maybe_module_coroutine(st, s);
        VISIT_SEQ(withitem, s->v.With.items);
        if (!visit_conditional_body(st, s->v.With.body)) {
            return 0;
        }
        break;
    case Match_kind:
        VISIT(expr, s->v.Match.subject);
        {
            unsigned saved = st->st_cur->ste_in_conditional_block;
            st->st_cur->ste_in_conditional_block = 1;
            VISIT_SEQ(match_case, s->v.Match.cases);
            st->st_cur->ste_in_conditional_block = saved;
        }
        break;
    case Raise_kind:
        VISIT_OPT(expr, s->v.Raise.exc);
        VISIT_OPT(expr, s->v.Raise.cause);
        break;
    case Try_kind:
    case TryStar_kind:
        {
            unsigned saved = st->st_cur->ste_in_conditional_block;
            st->st_cur->ste_in_conditional_block = 1;
            VISIT_SEQ(stmt, s->v.Try.body);
            VISIT_SEQ(excepthandler, s->v.Try.handlers);
            VISIT_SEQ(stmt, s->v.Try.orelse);
            VISIT_SEQ(stmt, s->v.Try.finalbody);
            st->st_cur->ste_in_conditional_block = saved;
        }
        break;
    case Assert_kind:
        VISIT(expr, s->v.Assert.test);
        VISIT_OPT(expr, s->v.Assert.msg);
        break;
    case Import_kind:
        VISIT_SEQ(alias, s->v.Import.names);
        break;
    case ImportFrom_kind:
        VISIT_SEQ(alias, s->v.ImportFrom.names);
        break;
    case Global_kind:
        if (!visit_global_or_nonlocal(st, s, 1)) {
            return 0;
        }
        break;
    case Nonlocal_kind:
        if (!visit_global_or_nonlocal(st, s, 0)) {
            return 0;
        }
        break;
    case Expr_kind:
        VISIT(expr, s->v.Expr.value);
        break;
    case Pass_kind:
    case Break_kind:
    case Continue_kind:
        break;
    }
    st->st_cur_depth--;
    return 1;
}

/* ---- Expressions -------------------------------------------------------- */

static const char *
comprehension_kind_name(_Py_comprehension_ty k)
{
    switch (k) {
    case ListComprehension: return "list comprehension";
    case SetComprehension: return "set comprehension";
    case DictComprehension: return "dict comprehension";
    default: return "generator expression";
    }
}

/* yield, await and := are not allowed in annotation and type scopes. */
static int
check_forbidden_in_special_scope(struct symtable *st, expr_ty e)
{
    const char *what;
    switch (e->kind) {
    case Yield_kind: what = "yield expression"; break;
    case YieldFrom_kind: what = "yield expression"; break;
    case Await_kind: what = "await expression"; break;
    case NamedExpr_kind: what = "named expression"; break;
    default: return 1;
    }
    const char *fmt;
    switch (st->st_cur->ste_type) {
    case AnnotationBlock: fmt = ANNOTATION_NOT_ALLOWED; break;
    case TypeVariableBlock: fmt = TYPEVAR_BOUND_NOT_ALLOWED; break;
    case TypeAliasBlock: fmt = TYPEALIAS_NOT_ALLOWED; break;
    case TypeParametersBlock: fmt = TYPEPARAM_NOT_ALLOWED; break;
    default: return 1;
    }
    if (st->st_cur->ste_in_unevaluated_annotation) {
        return 1;
    }
    return raise_error_obj(st, PyUnicode_FromFormat(fmt, what), LOC(e));
}

static int
handle_namedexpr_target(struct symtable *st, expr_ty e)
{
    expr_ty target = e->v.NamedExpr.target;
    if (target->kind != Name_kind) {
        VISIT(expr, target);
        return 1;
    }
    PyObject *name = target->v.Name.id;
    if (!check_debug_name(st, name, Store, LOC(target))) {
        return 0;
    }
    if (st->st_cur->ste_comprehension == NoComprehension) {
        VISIT(expr, target);
        return 1;
    }
    /* The target binds in the nearest enclosing non-comprehension scope. */
    for (PySTEntryObject *ste = st->st_cur; ste != NULL; ste = ste->ste_parent) {
        if (ste->ste_comprehension != NoComprehension) {
            long flags = lookup_in(st, ste, name);
            if (flags < 0) {
                return 0;
            }
            if (flags & DEF_COMP_ITER) {
                return raise_error(st, LOC(target), NAMED_EXPR_COMP_CONFLICT, name);
            }
            continue;
        }
        if (_PyST_IsFunctionLike(ste)) {
            long flags = lookup_in(st, ste, name);
            if (flags < 0) {
                return 0;
            }
            if (flags & DEF_GLOBAL) {
                if (!add_def(st, name, DEF_GLOBAL, LOC(target))) {
                    return 0;
                }
            }
            else {
                if (!add_def(st, name, DEF_NONLOCAL, LOC(target))) {
                    return 0;
                }
            }
            if (!record_directive(st, name, LOC(target))) {
                return 0;
            }
            return add_def_to(st, name, DEF_LOCAL, ste, LOC(target));
        }
        if (ste->ste_type == ModuleBlock) {
            if (!add_def(st, name, DEF_GLOBAL, LOC(target)) ||
                !record_directive(st, name, LOC(target))) {
                return 0;
            }
            return add_def_to(st, name, DEF_GLOBAL, ste, LOC(target));
        }
        if (ste->ste_type == ClassBlock) {
            return raise_error(st, LOC(target), NAMED_EXPR_COMP_IN_CLASS, NULL);
        }
    }
    PyErr_SetString(PyExc_SystemError, "no enclosing scope for assignment expression");
    return 0;
}

static int
visit_comprehension_generators(struct symtable *st, asdl_comprehension_seq *gens)
{
    comprehension_ty outermost = asdl_seq_GET(gens, 0);
    st->st_cur->ste_comp_iter_target = 1;
    VISIT(expr, outermost->target);
    st->st_cur->ste_comp_iter_target = 0;
    VISIT_SEQ(expr, outermost->ifs);
    for (Py_ssize_t i = 1; i < asdl_seq_LEN(gens); i++) {
        comprehension_ty g = asdl_seq_GET(gens, i);
        st->st_cur->ste_comp_iter_target = 1;
        VISIT(expr, g->target);
        st->st_cur->ste_comp_iter_target = 0;
        st->st_cur->ste_comp_iter_expr++;
        int ok = visit_expr(st, g->iter);
        st->st_cur->ste_comp_iter_expr--;
        if (!ok) {
            return 0;
        }
        VISIT_SEQ(expr, g->ifs);
        if (g->is_async) {
            st->st_cur->ste_coroutine = 1;
        }
    }
    return 1;
}

static int
visit_comprehension(struct symtable *st, expr_ty e, const char *scope_name,
                    _Py_comprehension_ty kind, asdl_comprehension_seq *gens,
                    expr_ty elt, expr_ty value)
{
    comprehension_ty outermost = asdl_seq_GET(gens, 0);
    st->st_cur->ste_comp_iter_expr++;
    int ok = visit_expr(st, outermost->iter);
    st->st_cur->ste_comp_iter_expr--;
    if (!ok) {
        return 0;
    }
    PyObject *name = PyUnicode_InternFromString(scope_name);
    if (name == NULL) {
        return 0;
    }
    ok = enter_block(st, name, FunctionBlock, (void *)e, LOC(e));
    Py_DECREF(name);
    if (!ok) {
        return 0;
    }
    PySTEntryObject *comp = st->st_cur;
    comp->ste_comprehension = kind;
    if (outermost->is_async) {
        comp->ste_coroutine = 1;
    }
    if (!add_named_use(st, ".0", DEF_PARAM, LOC(e))) {
        return 0;
    }
    if (!visit_comprehension_generators(st, gens)) {
        return 0;
    }
    if (value) {
        VISIT(expr, value);
    }
    VISIT(expr, elt);
    if (kind == GeneratorExpression) {
        comp->ste_generator = 1;
    }
    exit_block(st);
    if (comp->ste_coroutine && kind != GeneratorExpression) {
        PySTEntryObject *parent = st->st_cur;
        int allowed = parent->ste_function_async;
        if (parent->ste_type == ModuleBlock && st->st_future &&
            (st->st_future->ff_features & PyCF_ALLOW_TOP_LEVEL_AWAIT)) {
            parent->ste_coroutine = 1;
            allowed = 1;
        }
        if (parent->ste_comprehension != NoComprehension) {
            parent->ste_coroutine = 1;
            allowed = 1;
        }
        if (!allowed) {
            return raise_error(st, LOC(e),
                               "asynchronous comprehension outside of an asynchronous function",
                               NULL);
        }
    }
    return 1;
}

static int
visit_lambda(struct symtable *st, expr_ty e)
{
    arguments_ty a = e->v.Lambda.args;
    VISIT_SEQ(expr, a->defaults);
    VISIT_SEQ_WITH_NULL(expr, a->kw_defaults);
    PyObject *name = PyUnicode_InternFromString("<lambda>");
    if (name == NULL) {
        return 0;
    }
    int ok = enter_block(st, name, FunctionBlock, (void *)e, LOC(e));
    Py_DECREF(name);
    if (!ok || !visit_arguments(st, a)) {
        return 0;
    }
    VISIT(expr, e->v.Lambda.body);
    exit_block(st);
    return 1;
}

static int
visit_yield_like(struct symtable *st, expr_ty e)
{
    if (!_PyST_IsFunctionLike(st->st_cur)) {
        if (e->kind == Await_kind) {
            if (st->st_cur->ste_type == ModuleBlock && st->st_future &&
                (st->st_future->ff_features & PyCF_ALLOW_TOP_LEVEL_AWAIT)) {
                st->st_cur->ste_coroutine = 1;
                return 1;
            }
            return raise_error(st, LOC(e), "'await' outside function", NULL);
        }
        return raise_error(st, LOC(e), "'yield' outside function", NULL);
    }
    if (st->st_cur->ste_comprehension != NoComprehension && e->kind != Await_kind) {
        return raise_error_obj(st, PyUnicode_FromFormat("'yield' inside %s",
                               comprehension_kind_name(st->st_cur->ste_comprehension)), LOC(e));
    }
    if (e->kind == Await_kind) {
        if (st->st_cur->ste_comprehension != NoComprehension || st->st_cur->ste_function_async) {
            st->st_cur->ste_coroutine = 1;
        }
        return 1;
    }
    st->st_cur->ste_generator = 1;
    return 1;
}

static int
visit_expr(struct symtable *st, expr_ty e)
{
    if (!enter_recursion(st)) {
        return 0;
    }
    if (!check_forbidden_in_special_scope(st, e)) {
        return 0;
    }
    switch (e->kind) {
    case NamedExpr_kind:
        if (st->st_cur->ste_comp_iter_expr > 0) {
            return raise_error(st, LOC(e), NAMED_EXPR_COMP_ITER_EXPR, NULL);
        }
        VISIT(expr, e->v.NamedExpr.value);
        if (!handle_namedexpr_target(st, e)) {
            return 0;
        }
        break;
    case BoolOp_kind:
        VISIT_SEQ(expr, e->v.BoolOp.values);
        break;
    case BinOp_kind:
        VISIT(expr, e->v.BinOp.left);
        VISIT(expr, e->v.BinOp.right);
        break;
    case UnaryOp_kind:
        VISIT(expr, e->v.UnaryOp.operand);
        break;
    case Lambda_kind:
        if (!visit_lambda(st, e)) {
            return 0;
        }
        break;
    case IfExp_kind:
        VISIT(expr, e->v.IfExp.test);
        VISIT(expr, e->v.IfExp.body);
        VISIT(expr, e->v.IfExp.orelse);
        break;
    case Dict_kind:
        VISIT_SEQ_WITH_NULL(expr, e->v.Dict.keys);
        VISIT_SEQ(expr, e->v.Dict.values);
        break;
    case Set_kind:
        VISIT_SEQ(expr, e->v.Set.elts);
        break;
    case GeneratorExp_kind:
        if (!visit_comprehension(st, e, "<genexpr>", GeneratorExpression,
                                 e->v.GeneratorExp.generators, e->v.GeneratorExp.elt, NULL)) {
            return 0;
        }
        break;
    case ListComp_kind:
        if (!visit_comprehension(st, e, "<listcomp>", ListComprehension,
                                 e->v.ListComp.generators, e->v.ListComp.elt, NULL)) {
            return 0;
        }
        break;
    case SetComp_kind:
        if (!visit_comprehension(st, e, "<setcomp>", SetComprehension,
                                 e->v.SetComp.generators, e->v.SetComp.elt, NULL)) {
            return 0;
        }
        break;
    case DictComp_kind:
        if (!visit_comprehension(st, e, "<dictcomp>", DictComprehension,
                                 e->v.DictComp.generators, e->v.DictComp.key,
                                 e->v.DictComp.value)) {
            return 0;
        }
        break;
    case Yield_kind:
        VISIT_OPT(expr, e->v.Yield.value);
        if (!visit_yield_like(st, e)) {
            return 0;
        }
        break;
    case YieldFrom_kind:
        VISIT(expr, e->v.YieldFrom.value);
        if (!visit_yield_like(st, e)) {
            return 0;
        }
        break;
    case Await_kind:
        VISIT(expr, e->v.Await.value);
        if (!visit_yield_like(st, e)) {
            return 0;
        }
        break;
    case Compare_kind:
        VISIT(expr, e->v.Compare.left);
        VISIT_SEQ(expr, e->v.Compare.comparators);
        break;
    case Call_kind:
        VISIT(expr, e->v.Call.func);
        VISIT_SEQ(expr, e->v.Call.args);
        VISIT_SEQ(keyword, e->v.Call.keywords);
        break;
    case FormattedValue_kind:
        VISIT(expr, e->v.FormattedValue.value);
        VISIT_OPT(expr, e->v.FormattedValue.format_spec);
        break;
    case Interpolation_kind:
        VISIT(expr, e->v.Interpolation.value);
        VISIT_OPT(expr, e->v.Interpolation.format_spec);
        break;
    case JoinedStr_kind:
        VISIT_SEQ(expr, e->v.JoinedStr.values);
        break;
    case TemplateStr_kind:
        VISIT_SEQ(expr, e->v.TemplateStr.values);
        break;
    case Constant_kind:
        break;
    case Attribute_kind:
        VISIT(expr, e->v.Attribute.value);
        break;
    case Subscript_kind:
        VISIT(expr, e->v.Subscript.value);
        VISIT(expr, e->v.Subscript.slice);
        break;
    case Starred_kind:
        VISIT(expr, e->v.Starred.value);
        break;
    case Slice_kind:
        VISIT_OPT(expr, e->v.Slice.lower);
        VISIT_OPT(expr, e->v.Slice.upper);
        VISIT_OPT(expr, e->v.Slice.step);
        break;
    case Name_kind:
        if (!check_debug_name(st, e->v.Name.id, e->v.Name.ctx, LOC(e))) {
            return 0;
        }
        if (!add_def(st, e->v.Name.id, e->v.Name.ctx == Load ? USE : DEF_LOCAL, LOC(e))) {
            return 0;
        }
        /* zero-argument super() needs the __class__ cell */
        if (e->v.Name.ctx == Load && _PyST_IsFunctionLike(st->st_cur) &&
            PyUnicode_CompareWithASCIIString(e->v.Name.id, "super") == 0) {
            if (!add_named_use(st, "__class__", USE, LOC(e))) {
                return 0;
            }
        }
        break;
    case List_kind:
        VISIT_SEQ(expr, e->v.List.elts);
        break;
    case Tuple_kind:
        VISIT_SEQ(expr, e->v.Tuple.elts);
        break;
    }
    st->st_cur_depth--;
    return 1;
}

static int
visit_pattern(struct symtable *st, pattern_ty p)
{
    if (!enter_recursion(st)) {
        return 0;
    }
    switch (p->kind) {
    case MatchValue_kind:
        VISIT(expr, p->v.MatchValue.value);
        break;
    case MatchSingleton_kind:
        break;
    case MatchSequence_kind:
        VISIT_SEQ(pattern, p->v.MatchSequence.patterns);
        break;
    case MatchStar_kind:
        if (p->v.MatchStar.name && !add_def(st, p->v.MatchStar.name, DEF_LOCAL, LOC(p))) {
            return 0;
        }
        break;
    case MatchMapping_kind:
        VISIT_SEQ(expr, p->v.MatchMapping.keys);
        VISIT_SEQ(pattern, p->v.MatchMapping.patterns);
        if (p->v.MatchMapping.rest &&
            !add_def(st, p->v.MatchMapping.rest, DEF_LOCAL, LOC(p))) {
            return 0;
        }
        break;
    case MatchClass_kind:
        VISIT(expr, p->v.MatchClass.cls);
        VISIT_SEQ(pattern, p->v.MatchClass.patterns);
        VISIT_SEQ(pattern, p->v.MatchClass.kwd_patterns);
        break;
    case MatchAs_kind:
        VISIT_OPT(pattern, p->v.MatchAs.pattern);
        if (p->v.MatchAs.name && !add_def(st, p->v.MatchAs.name, DEF_LOCAL, LOC(p))) {
            return 0;
        }
        break;
    case MatchOr_kind:
        VISIT_SEQ(pattern, p->v.MatchOr.patterns);
        break;
    }
    st->st_cur_depth--;
    return 1;
}

/* Module and class annotations share one `__annotate__` scope per body. */
static int
visit_annotation(struct symtable *st, expr_ty annotation, void *key)
{
    if (future_annotations(st)) {
        return check_unevaluated_annotation(st, annotation);
    }
    PySTEntryObject *parent = st->st_cur;
    if (parent->ste_type != ModuleBlock && parent->ste_type != ClassBlock) {
        return 1;   /* annotations of locals are never evaluated */
    }
    int unevaluated = 0;
    if (!parent->ste_has_conditional_annotations &&
        (parent->ste_type == ModuleBlock ||
         (parent->ste_type == ClassBlock && parent->ste_in_conditional_block))) {
        parent->ste_has_conditional_annotations = 1;
        if (!add_named_use(st, "__conditional_annotations__", USE, LOC(annotation))) {
            return 0;
        }
    }
    if (parent->ste_annotation_block == NULL) {
        PyObject *name = PyUnicode_InternFromString("__annotate__");
        if (name == NULL) {
            return 0;
        }
        int ok = enter_block(st, name, AnnotationBlock, key, LOC(annotation));
        Py_DECREF(name);
        if (!ok) {
            return 0;
        }
        parent->ste_annotation_block = st->st_cur;
        if (!add_named_use(st, ".format", DEF_PARAM, LOC(annotation))) {
            return 0;
        }
        if (parent->ste_type == ClassBlock) {
            st->st_cur->ste_can_see_class_scope = 1;
            if (!add_named_use(st, "__classdict__", USE, LOC(annotation))) {
                return 0;
            }
        }
    }
    else {
        enter_existing_block(st, parent->ste_annotation_block);
    }
    if (parent->ste_type == ClassBlock && parent->ste_has_conditional_annotations &&
        !add_named_use(st, "__conditional_annotations__", USE, LOC(annotation))) {
        st->st_cur = parent;
        return 0;
    }
    if (unevaluated) {
        st->st_cur->ste_in_unevaluated_annotation = 1;
    }
    int r = visit_expr(st, annotation);
    st->st_cur->ste_in_unevaluated_annotation = 0;
    st->st_cur = parent;
    return r;
}

/* ---- Pass 2: analysis --------------------------------------------------- */

static int
set_scope(PyObject *scopes, PyObject *name, int scope)
{
    PyObject *v = PyLong_FromLong(scope);
    if (v == NULL) {
        return 0;
    }
    int r = PyDict_SetItem(scopes, name, v);
    Py_DECREF(v);
    return r == 0;
}

static int
error_at_directive(PySTEntryObject *ste, PyObject *name, const char *fmt)
{
    _Py_STLocation loc = ste->ste_loc;
    PyObject *t = PyDict_GetItemWithError(ste->ste_directives, name);
    if (t != NULL && PyTuple_Check(t) && PyTuple_GET_SIZE(t) == 4) {
        loc.lineno = PyLong_AsLong(PyTuple_GET_ITEM(t, 0));
        loc.col_offset = PyLong_AsLong(PyTuple_GET_ITEM(t, 1));
        loc.end_lineno = PyLong_AsLong(PyTuple_GET_ITEM(t, 2));
        loc.end_col_offset = PyLong_AsLong(PyTuple_GET_ITEM(t, 3));
    }
    return raise_error(ste->ste_table, loc, fmt, name);
}

static int
set_update(PyObject *set, PyObject *other)
{
    return _PySet_Update(set, other);
}

static int
set_discard(PyObject *set, PyObject *key)
{
    return PySet_Discard(set, key) >= 0;
}

static int
analyze_name(PySTEntryObject *ste, PyObject *scopes, PyObject *name, long flags,
             PyObject *bound, PyObject *local, PyObject *free, PyObject *global,
             PyObject *type_params, PySTEntryObject *class_entry)
{
    if (flags & DEF_GLOBAL) {
        if (flags & DEF_NONLOCAL) {
            return error_at_directive(ste, name, "name '%U' is nonlocal and global");
        }
        if (!set_scope(scopes, name, GLOBAL_EXPLICIT) || PySet_Add(global, name) < 0) {
            return 0;
        }
        if (bound && !set_discard(bound, name)) {
            return 0;
        }
        return 1;
    }
    if (flags & DEF_NONLOCAL) {
        if (bound == NULL) {
            return error_at_directive(ste, name, "nonlocal declaration not allowed at module level");
        }
        int r = PySet_Contains(bound, name);
        if (r < 0) {
            return 0;
        }
        if (r == 0) {
            return error_at_directive(ste, name, "no binding for nonlocal '%U' found");
        }
        r = PySet_Contains(type_params, name);
        if (r < 0) {
            return 0;
        }
        if (r > 0) {
            return error_at_directive(ste, name,
                                      "nonlocal binding not allowed for type parameter '%U'");
        }
        return set_scope(scopes, name, FREE) && PySet_Add(free, name) == 0;
    }
    if (flags & DEF_BOUND) {
        if (!set_scope(scopes, name, LOCAL) || PySet_Add(local, name) < 0 ||
            !set_discard(global, name)) {
            return 0;
        }
        if (flags & DEF_TYPE_PARAM) {
            return PySet_Add(type_params, name) == 0;
        }
        return set_discard(type_params, name);
    }
    if (class_entry != NULL) {
        long cflags = _PyST_GetSymbol(class_entry, name);
        if (cflags == 0 && PyErr_Occurred()) {
            return 0;
        }
        if (cflags & DEF_GLOBAL) {
            return set_scope(scopes, name, GLOBAL_EXPLICIT);
        }
        if ((cflags & DEF_BOUND) && !(cflags & DEF_NONLOCAL)) {
            return set_scope(scopes, name, GLOBAL_IMPLICIT);
        }
    }
    if (bound) {
        int r = PySet_Contains(bound, name);
        if (r < 0) {
            return 0;
        }
        if (r > 0) {
            return set_scope(scopes, name, FREE) && PySet_Add(free, name) == 0;
        }
    }
    return set_scope(scopes, name, GLOBAL_IMPLICIT);
}

static int
is_free_in_any_child(PySTEntryObject *ste, PyObject *name)
{
    for (Py_ssize_t i = 0; i < ste->ste_nchildren; i++) {
        PySTEntryObject *child = ste->ste_children[i];
        long f = _PyST_GetSymbol(child, name);
        if (f == 0 && PyErr_Occurred()) {
            return -1;
        }
        if (SYMBOL_TO_SCOPE(f) == FREE) {
            return 1;
        }
    }
    return 0;
}

static int
inline_comprehension(PySTEntryObject *ste, PySTEntryObject *comp, PyObject *scopes,
                     PyObject *comp_free, PyObject *inlined_cells)
{
    PyObject *name, *v;
    Py_ssize_t pos = 0;
    while (PyDict_Next(comp->ste_symbols, &pos, &name, &v)) {
        long cflags = PyLong_AsLong(v);
        if (cflags & DEF_PARAM) {
            continue;   /* the implicit .0 argument disappears */
        }
        int scope = SYMBOL_TO_SCOPE(cflags);
        long only_flags = cflags & ~(long)SCOPE_MASK;
        if (scope == CELL || (only_flags & DEF_COMP_CELL)) {
            if (PySet_Add(inlined_cells, name) < 0) {
                return 0;
            }
        }
        PyObject *existing = PyDict_GetItemWithError(ste->ste_symbols, name);
        if (existing == NULL) {
            if (PyErr_Occurred()) {
                return 0;
            }
            if (scope == FREE && ste->ste_type == ClassBlock &&
                PyUnicode_CompareWithASCIIString(name, "__class__") == 0) {
                scope = GLOBAL_IMPLICIT;
                if (!set_discard(comp_free, name)) {
                    return 0;
                }
            }
            PyObject *nv = PyLong_FromLong(only_flags);
            if (nv == NULL) {
                return 0;
            }
            int r = PyDict_SetItem(ste->ste_symbols, name, nv);
            Py_DECREF(nv);
            if (r < 0 || !set_scope(scopes, name, scope)) {
                return 0;
            }
        }
        else {
            long pflags = PyLong_AsLong(existing);
            if ((pflags & DEF_BOUND) && ste->ste_type != ClassBlock) {
                int r = is_free_in_any_child(comp, name);
                if (r < 0) {
                    return 0;
                }
                if (!r && !set_discard(comp_free, name)) {
                    return 0;
                }
            }
        }
    }
    return 1;
}

static int
analyze_cells(PyObject *scopes, PyObject *free, PyObject *inlined_cells)
{
    PyObject *name, *v;
    Py_ssize_t pos = 0;
    PyObject *cell = PyLong_FromLong(CELL);
    if (cell == NULL) {
        return 0;
    }
    while (PyDict_Next(scopes, &pos, &name, &v)) {
        if (PyLong_AsLong(v) != LOCAL) {
            continue;
        }
        int r1 = PySet_Contains(free, name);
        int r2 = PySet_Contains(inlined_cells, name);
        if (r1 < 0 || r2 < 0) {
            Py_DECREF(cell);
            return 0;
        }
        if (!r1 && !r2) {
            continue;
        }
        /* replacing the value of an existing key does not disturb Next */
        if (PyDict_SetItem(scopes, name, cell) < 0 || !set_discard(free, name)) {
            Py_DECREF(cell);
            return 0;
        }
    }
    Py_DECREF(cell);
    return 1;
}

static int
drop_class_free(PySTEntryObject *ste, PyObject *free)
{
    static const char *names[] = {"__class__", "__classdict__", "__conditional_annotations__"};
    for (int i = 0; i < 3; i++) {
        PyObject *n = PyUnicode_InternFromString(names[i]);
        if (n == NULL) {
            return 0;
        }
        int r = PySet_Discard(free, n);
        Py_DECREF(n);
        if (r < 0) {
            return 0;
        }
        if (r == 1) {
            if (i == 0) {
                ste->ste_needs_class_closure = 1;
            }
            else if (i == 1) {
                ste->ste_needs_classdict = 1;
            }
            else {
                ste->ste_has_conditional_annotations = 1;
            }
        }
    }
    return 1;
}

static int
update_symbols(PyObject *symbols, PyObject *scopes, PyObject *bound, PyObject *free,
               PyObject *inlined_cells, int is_class)
{
    PyObject *name, *v;
    Py_ssize_t pos = 0;
    while (PyDict_Next(symbols, &pos, &name, &v)) {
        long flags = PyLong_AsLong(v);
        PyObject *sc = PyDict_GetItemWithError(scopes, name);
        if (sc == NULL) {
            if (PyErr_Occurred()) {
                return 0;
            }
            continue;
        }
        int r = PySet_Contains(inlined_cells, name);
        if (r < 0) {
            return 0;
        }
        if (r) {
            flags |= DEF_COMP_CELL;
        }
        flags = (flags & ~(long)SCOPE_MASK) | (PyLong_AsLong(sc) << SCOPE_OFFSET);
        PyObject *nv = PyLong_FromLong(flags);
        if (nv == NULL) {
            return 0;
        }
        r = PyDict_SetItem(symbols, name, nv);
        Py_DECREF(nv);
        if (r < 0) {
            return 0;
        }
    }
    /* Free variables of children that this scope does not bind pass
       through it; a class that binds the name keeps its own binding but
       must still hand the outer cell to its methods. */
    PyObject *it = PyObject_GetIter(free);
    if (it == NULL) {
        return 0;
    }
    while ((name = PyIter_Next(it)) != NULL) {
        v = PyDict_GetItemWithError(symbols, name);
        if (v != NULL) {
            long flags = PyLong_AsLong(v);
            if (is_class && (flags & (DEF_BOUND | DEF_GLOBAL))) {
                PyObject *nv = PyLong_FromLong(flags | DEF_FREE_CLASS);
                if (nv == NULL || PyDict_SetItem(symbols, name, nv) < 0) {
                    Py_XDECREF(nv);
                    goto error;
                }
                Py_DECREF(nv);
            }
            Py_DECREF(name);
            continue;
        }
        if (PyErr_Occurred()) {
            goto error;
        }
        if (bound) {
            int r = PySet_Contains(bound, name);
            if (r < 0) {
                goto error;
            }
            if (r == 0) {
                Py_DECREF(name);
                continue;
            }
        }
        PyObject *nv = PyLong_FromLong((long)FREE << SCOPE_OFFSET);
        if (nv == NULL || PyDict_SetItem(symbols, name, nv) < 0) {
            Py_XDECREF(nv);
            goto error;
        }
        Py_DECREF(nv);
        Py_DECREF(name);
    }
    Py_DECREF(it);
    return !PyErr_Occurred();
error:
    Py_DECREF(name);
    Py_DECREF(it);
    return 0;
}

static int analyze_block(PySTEntryObject *ste, PyObject *bound, PyObject *free,
                         PyObject *global, PyObject *type_params,
                         PySTEntryObject *class_entry);

static int
analyze_child_block(PySTEntryObject *entry, PyObject *bound, PyObject *global,
                    PyObject *type_params, PySTEntryObject *class_entry,
                    PyObject *child_free)
{
    PyObject *tb = PySet_New(bound);
    PyObject *tg = PySet_New(global);
    PyObject *tt = PySet_New(type_params);
    int r = 0;
    if (tb && tg && tt) {
        r = analyze_block(entry, tb, child_free, tg, tt, class_entry);
    }
    Py_XDECREF(tb);
    Py_XDECREF(tg);
    Py_XDECREF(tt);
    return r;
}

static int
analyze_block(PySTEntryObject *ste, PyObject *bound, PyObject *free,
              PyObject *global, PyObject *type_params, PySTEntryObject *class_entry)
{
    PyObject *local = PySet_New(NULL), *scopes = PyDict_New();
    PyObject *newglobal = PySet_New(NULL), *newfree = PySet_New(NULL);
    PyObject *newbound = PySet_New(NULL), *inlined_cells = PySet_New(NULL);
    int ok = 0;
    if (!local || !scopes || !newglobal || !newfree || !newbound || !inlined_cells) {
        goto done;
    }
    if (ste->ste_type == ClassBlock) {
        if (set_update(newglobal, global) < 0) {
            goto done;
        }
        if (bound && set_update(newbound, bound) < 0) {
            goto done;
        }
    }
    PyObject *name, *v;
    Py_ssize_t pos = 0;
    while (PyDict_Next(ste->ste_symbols, &pos, &name, &v)) {
        if (!analyze_name(ste, scopes, name, PyLong_AsLong(v), bound, local, free,
                          global, type_params, class_entry)) {
            goto done;
        }
    }
    if (ste->ste_type != ClassBlock) {
        if (_PyST_IsFunctionLike(ste) && set_update(newbound, local) < 0) {
            goto done;
        }
        if (bound && set_update(newbound, bound) < 0) {
            goto done;
        }
        if (set_update(newglobal, global) < 0) {
            goto done;
        }
    }
    else {
        static const char *implicit[] = {"__class__", "__classdict__",
                                         "__conditional_annotations__"};
        for (int i = 0; i < 3; i++) {
            PyObject *n = PyUnicode_InternFromString(implicit[i]);
            if (n == NULL || PySet_Add(newbound, n) < 0) {
                Py_XDECREF(n);
                goto done;
            }
            Py_DECREF(n);
        }
    }
    for (Py_ssize_t i = 0; i < ste->ste_nchildren; i++) {
        PySTEntryObject *entry = ste->ste_children[i];
        PySTEntryObject *new_class_entry = NULL;
        if (entry->ste_can_see_class_scope) {
            if (ste->ste_type == ClassBlock) {
                new_class_entry = ste;
            }
            else if (class_entry) {
                new_class_entry = class_entry;
            }
        }
        int inline_comp = entry->ste_comprehension != NoComprehension &&
                          !entry->ste_generator && !ste->ste_can_see_class_scope;
        PyObject *child_free = PySet_New(NULL);
        if (child_free == NULL) {
            goto done;
        }
        if (!analyze_child_block(entry, newbound, newglobal, type_params,
                                 new_class_entry, child_free)) {
            Py_DECREF(child_free);
            goto done;
        }
        if (inline_comp) {
            if (!inline_comprehension(ste, entry, scopes, child_free, inlined_cells)) {
                Py_DECREF(child_free);
                goto done;
            }
            entry->ste_comp_inlined = 1;
        }
        int r = set_update(newfree, child_free);
        Py_DECREF(child_free);
        if (r < 0) {
            goto done;
        }
    }
    if (_PyST_IsFunctionLike(ste) || ste->ste_type == ModuleBlock) {
        if (!analyze_cells(scopes, newfree, inlined_cells)) {
            goto done;
        }
    }
    else if (ste->ste_type == ClassBlock) {
        if (!drop_class_free(ste, newfree)) {
            goto done;
        }
    }
    if (!update_symbols(ste->ste_symbols, scopes, bound, newfree, inlined_cells,
                        ste->ste_type == ClassBlock)) {
        goto done;
    }
    if (set_update(free, newfree) < 0) {
        goto done;
    }
    ok = 1;
done:
    Py_XDECREF(local);
    Py_XDECREF(scopes);
    Py_XDECREF(newglobal);
    Py_XDECREF(newfree);
    Py_XDECREF(newbound);
    Py_XDECREF(inlined_cells);
    return ok;
}

/* ---- Entry points ------------------------------------------------------- */

void
_PySymtable_Free(struct symtable *st)
{
    if (st == NULL) {
        return;
    }
    for (Py_ssize_t i = 0; i < st->st_nentries; i++) {
        ste_free(st->st_entries[i]);
    }
    PyMem_Free(st->st_entries);
    Py_XDECREF(st->st_blocks);
    Py_XDECREF(st->st_filename);
    PyMem_Free(st);
}

struct symtable *
_PySymtable_Build(mod_ty mod, PyObject *filename, PyFutureFeatures *future)
{
    struct symtable *st = PyMem_Calloc(1, sizeof(struct symtable));
    if (st == NULL) {
        PyErr_NoMemory();
        return NULL;
    }
    st->st_filename = Py_NewRef(filename);
    st->st_future = future;
    st->st_max_depth = _Py_COMPILE_MAX_DEPTH;
    st->st_blocks = PyDict_New();
    if (st->st_blocks == NULL) {
        goto error;
    }
    PyObject *top = PyUnicode_InternFromString("top");
    if (top == NULL) {
        goto error;
    }
    int ok = enter_block(st, top, ModuleBlock, (void *)mod, (_Py_STLocation){0, 0, 0, 0});
    Py_DECREF(top);
    if (!ok) {
        goto error;
    }
    switch (mod->kind) {
    case Module_kind:
        for (Py_ssize_t i = 0; i < asdl_seq_LEN(mod->v.Module.body); i++) {
            if (!visit_stmt(st, asdl_seq_GET(mod->v.Module.body, i))) {
                goto error;
            }
        }
        break;
    case Interactive_kind:
        for (Py_ssize_t i = 0; i < asdl_seq_LEN(mod->v.Interactive.body); i++) {
            if (!visit_stmt(st, asdl_seq_GET(mod->v.Interactive.body, i))) {
                goto error;
            }
        }
        break;
    case Expression_kind:
        if (!visit_expr(st, mod->v.Expression.body)) {
            goto error;
        }
        break;
    case FunctionType_kind:
        PyErr_SetString(PyExc_RuntimeError, "this compiler does not handle FunctionTypes");
        goto error;
    }
    st->st_cur = NULL;
    PyObject *free = PySet_New(NULL), *global = PySet_New(NULL), *tps = PySet_New(NULL);
    ok = free && global && tps && analyze_block(st->st_top, NULL, free, global, tps, NULL);
    Py_XDECREF(free);
    Py_XDECREF(global);
    Py_XDECREF(tps);
    if (!ok) {
        goto error;
    }
    return st;
error:
    _PySymtable_Free(st);
    return NULL;
}
