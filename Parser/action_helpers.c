/* Helpers used by the grammar actions in Parser/parser.c: converting
   expressions to assignment targets, naming nodes in error messages,
   making identifiers and numeric constants. */

#include "Python.h"
#include "pegen.h"
#include "pycore_unicodedata.h"

#include <string.h>

asdl_generic_seq *
_PyPegen_seq_from_array(Parser *p, void **items, Py_ssize_t n)
{
    asdl_generic_seq *seq = _Py_asdl_generic_seq_new(n, p->arena);
    Py_ssize_t i;
    if (seq == NULL) {
        p->error_indicator = 1;
        return NULL;
    }
    for (i = 0; i < n; i++) {
        seq->typed_elements[i] = items[i];
    }
    return seq;
}

static asdl_expr_seq *
elts_with_context(Parser *p, asdl_expr_seq *elts, expr_context_ty ctx)
{
    Py_ssize_t i, n = asdl_seq_LEN(elts);
    asdl_expr_seq *out = _Py_asdl_expr_seq_new(n, p->arena);
    if (out == NULL) {
        p->error_indicator = 1;
        return NULL;
    }
    for (i = 0; i < n; i++) {
        expr_ty e = _PyPegen_set_expr_context(p, asdl_seq_GET(elts, i), ctx);
        if (e == NULL) {
            return NULL;
        }
        asdl_seq_SET(out, i, e);
    }
    return out;
}

/* Return a copy of `e` with the given context.  Nodes may be shared with
   memoised results, so they are never modified in place. */
expr_ty
_PyPegen_set_expr_context(Parser *p, expr_ty e, expr_context_ty ctx)
{
    expr_ty r = NULL;
    asdl_expr_seq *elts;
    expr_ty inner;

#define POS e->lineno, e->col_offset, e->end_lineno, e->end_col_offset, \
            p->arena
    switch (e->kind) {
    case Name_kind:
        r = _PyAST_Name(e->v.Name.id, ctx, POS);
        break;
    case Tuple_kind:
        elts = elts_with_context(p, e->v.Tuple.elts, ctx);
        if (elts == NULL && asdl_seq_LEN(e->v.Tuple.elts) >= 0
            && p->error_indicator) {
            return NULL;
        }
        r = _PyAST_Tuple(elts, ctx, POS);
        break;
    case List_kind:
        elts = elts_with_context(p, e->v.List.elts, ctx);
        if (elts == NULL && p->error_indicator) {
            return NULL;
        }
        r = _PyAST_List(elts, ctx, POS);
        break;
    case Subscript_kind:
        r = _PyAST_Subscript(e->v.Subscript.value, e->v.Subscript.slice, ctx,
                             POS);
        break;
    case Attribute_kind:
        r = _PyAST_Attribute(e->v.Attribute.value, e->v.Attribute.attr, ctx,
                             POS);
        break;
    case Starred_kind:
        inner = _PyPegen_set_expr_context(p, e->v.Starred.value, ctx);
        if (inner == NULL) {
            return NULL;
        }
        r = _PyAST_Starred(inner, ctx, POS);
        break;
    default:
        return e;
    }
#undef POS
    if (r == NULL) {
        p->error_indicator = 1;
    }
    return r;
}

/* How an expression is called in "cannot assign to ..." messages. */
const char *
_PyPegen_expr_name(expr_ty e)
{
    switch (e->kind) {
    case Attribute_kind: return "attribute";
    case Subscript_kind: return "subscript";
    case Starred_kind: return "starred";
    case Name_kind: return "name";
    case List_kind: return "list";
    case Tuple_kind: return "tuple";
    case Lambda_kind: return "lambda";
    case Call_kind: return "function call";
    case BoolOp_kind: case BinOp_kind: case UnaryOp_kind:
        return "expression";
    case GeneratorExp_kind: return "generator expression";
    case Yield_kind: case YieldFrom_kind: return "yield expression";
    case Await_kind: return "await expression";
    case ListComp_kind: return "list comprehension";
    case SetComp_kind: return "set comprehension";
    case DictComp_kind: return "dict comprehension";
    case Dict_kind: return "dict literal";
    case Set_kind: return "set display";
    case JoinedStr_kind: case FormattedValue_kind:
        return "f-string expression";
    case TemplateStr_kind: case Interpolation_kind:
        return "t-string expression";
    case Constant_kind: {
        PyObject *v = e->v.Constant.value;
        if (v == Py_None) {
            return "None";
        }
        if (v == Py_False) {
            return "False";
        }
        if (v == Py_True) {
            return "True";
        }
        if (v == Py_Ellipsis) {
            return "ellipsis";
        }
        return "literal";
    }
    case Compare_kind: return "comparison";
    case IfExp_kind: return "conditional expression";
    case NamedExpr_kind: return "named expression";
    case Slice_kind: return "slice";
    }
    return "expression";
}

/* PEP 3131: non-ASCII identifiers are compared in NFKC form (the tables
   are the unicodedata module's, linked in).  Steals `id`. */
static PyObject *
nfkc_normalize(PyObject *id)
{
    PyObject *res = _PyUnicode_NormalizeNFKC(id);
    Py_DECREF(id);
    return res;
}

PyObject *
_PyPegen_new_identifier(Parser *p, const char *s, Py_ssize_t n)
{
    PyObject *id;
    char small[64];
    char *buf = small;
    Py_ssize_t i;
    int ascii = 1;

    for (i = 0; i < n; i++) {
        if ((unsigned char)s[i] >= 128) {
            ascii = 0;
            break;
        }
    }
    if (ascii) {
        /* Interning needs a NUL-terminated copy. */
        if (n >= (Py_ssize_t)sizeof(small)) {
            buf = (char *)PyMem_Malloc((size_t)n + 1);
            if (buf == NULL) {
                PyErr_NoMemory();
                p->error_indicator = 1;
                return NULL;
            }
        }
        memcpy(buf, s, (size_t)n);
        buf[n] = '\0';
        id = PyUnicode_InternFromString(buf);
        if (buf != small) {
            PyMem_Free(buf);
        }
    }
    else {
        id = PyUnicode_DecodeUTF8(s, n, NULL);
        if (id != NULL) {
            id = nfkc_normalize(id);
        }
        if (id != NULL) {
            PyUnicode_InternInPlace(&id);
        }
    }
    if (id == NULL) {
        p->error_indicator = 1;
        return NULL;
    }
    if (_PyPegen_add_object(p, id) < 0) {
        return NULL;
    }
    return id;
}

/* Value of a NUMBER token: int, float or imaginary complex. */
static PyObject *
parse_number_text(const char *s, Py_ssize_t n)
{
    char small[128];
    char *buf = small;
    Py_ssize_t i, k = 0;
    PyObject *res = NULL;
    int imag = 0, is_float = 0;

    if (n + 1 > (Py_ssize_t)sizeof(small)) {
        buf = (char *)PyMem_Malloc((size_t)n + 1);
        if (buf == NULL) {
            return PyErr_NoMemory();
        }
    }
    for (i = 0; i < n; i++) {
        if (s[i] != '_') {
            buf[k++] = s[i];
        }
    }
    buf[k] = '\0';
    if (k > 0 && (buf[k - 1] == 'j' || buf[k - 1] == 'J')) {
        imag = 1;
        buf[--k] = '\0';
    }
    if (!(k > 1 && buf[0] == '0' && strchr("xXoObB", buf[1]) != NULL)) {
        for (i = 0; i < k; i++) {
            if (buf[i] == '.' || buf[i] == 'e' || buf[i] == 'E') {
                is_float = 1;
            }
        }
    }
    if (imag || is_float) {
        double d = PyOS_string_to_double(buf, NULL, NULL);
        if (!(d == -1.0 && PyErr_Occurred())) {
            res = imag ? PyComplex_FromDoubles(0.0, d) : PyFloat_FromDouble(d);
        }
    }
    else if (k > 1 && buf[0] == '0' && (buf[1] == 'x' || buf[1] == 'X')) {
        res = PyLong_FromString(buf + 2, NULL, 16);
    }
    else if (k > 1 && buf[0] == '0' && (buf[1] == 'o' || buf[1] == 'O')) {
        res = PyLong_FromString(buf + 2, NULL, 8);
    }
    else if (k > 1 && buf[0] == '0' && (buf[1] == 'b' || buf[1] == 'B')) {
        res = PyLong_FromString(buf + 2, NULL, 2);
    }
    else {
        /* Strip leading zeros: "000" is a valid literal for 0. */
        char *q = buf;
        while (q[0] == '0' && q[1] != '\0') {
            q++;
        }
        res = PyLong_FromString(q, NULL, 10);
    }
    if (buf != small) {
        PyMem_Free(buf);
    }
    return res;
}

expr_ty
_PyPegen_number(Parser *p, Token *t)
{
    PyObject *v = parse_number_text(p->tok->buf + t->start,
                                    t->end - t->start);
    if (v == NULL) {
        if (PyErr_ExceptionMatches(PyExc_ValueError)) {
            /* e.g. an integer too long to convert: report it as CPython
               does, as a SyntaxError at the literal. */
            PyObject *type, *value, *tb;
            PyErr_Fetch(&type, &value, &tb);
            Py_XDECREF(type);
            Py_XDECREF(tb);
            _PyPegen_error_at_token(p, t, "%S", value ? value : Py_None);
            Py_XDECREF(value);
            return NULL;
        }
        p->error_indicator = 1;
        return NULL;
    }
    if (_PyPegen_add_object(p, v) < 0) {
        return NULL;
    }
    return _PyAST_Constant(v, NULL, t->lineno, t->col_offset, t->end_lineno,
                           t->end_col_offset, p->arena);
}
