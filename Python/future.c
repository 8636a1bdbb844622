/* Recognise `from __future__ import ...` statements at the start of a
   module and turn them into CO_FUTURE_* flags before compilation. */

#include "Python.h"
#include "pycore_ast.h"
#include "pycore_future.h"
#include "pycore_pyerrors.h"

static int
future_error(PyObject *filename, stmt_ty s, const char *msg, const char *arg)
{
    PyObject *m = arg ? PyUnicode_FromFormat(msg, arg) : PyUnicode_FromString(msg);
    if (m == NULL) {
        return -1;
    }
    _PyErr_RaiseSyntaxError(m, filename, s->lineno, s->col_offset,
                            s->end_lineno, s->end_col_offset);
    Py_DECREF(m);
    return -1;
}

static int
check_feature(PyFutureFeatures *ff, PyObject *filename, stmt_ty s, const char *name)
{
    static const struct {
        const char *name;
        int flag;
    } table[] = {
        {FUTURE_NESTED_SCOPES, 0},
        {FUTURE_GENERATORS, 0},
        {FUTURE_DIVISION, 0},
        {FUTURE_ABSOLUTE_IMPORT, 0},
        {FUTURE_WITH_STATEMENT, 0},
        {FUTURE_PRINT_FUNCTION, 0},
        {FUTURE_UNICODE_LITERALS, 0},
        {FUTURE_BARRY_AS_BDFL, CO_FUTURE_BARRY_AS_BDFL},
        {FUTURE_GENERATOR_STOP, 0},
        {FUTURE_ANNOTATIONS, CO_FUTURE_ANNOTATIONS},
    };
    for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
        if (strcmp(name, table[i].name) == 0) {
            ff->ff_features |= table[i].flag;
            return 0;
        }
    }
    if (strcmp(name, "braces") == 0) {
        return future_error(filename, s, "not a chance", NULL);
    }
    return future_error(filename, s, "future feature %.100s is not defined", name);
}

int
_PyFuture_FromAST(mod_ty mod, PyObject *filename, PyFutureFeatures *ff)
{
    memset(ff, 0, sizeof(*ff));
    ff->ff_lineno = -1;
    if (mod->kind != Module_kind && mod->kind != Interactive_kind) {
        return 0;
    }
    asdl_stmt_seq *body = mod->kind == Module_kind ? mod->v.Module.body
                                                   : mod->v.Interactive.body;
    Py_ssize_t n = asdl_seq_LEN(body);
    for (Py_ssize_t i = 0; i < n; i++) {
        stmt_ty s = asdl_seq_GET(body, i);
        if (i == 0 && s->kind == Expr_kind &&
            s->v.Expr.value->kind == Constant_kind &&
            PyUnicode_Check(s->v.Expr.value->v.Constant.value)) {
            continue;   /* docstring */
        }
        if (s->kind != ImportFrom_kind || s->v.ImportFrom.module == NULL ||
            s->v.ImportFrom.level != 0 ||
            !PyUnicode_Check(s->v.ImportFrom.module) ||
            PyUnicode_CompareWithASCIIString(s->v.ImportFrom.module, "__future__") != 0) {
            break;
        }
        asdl_alias_seq *names = s->v.ImportFrom.names;
        for (Py_ssize_t j = 0; j < asdl_seq_LEN(names); j++) {
            alias_ty a = asdl_seq_GET(names, j);
            const char *feature = PyUnicode_AsUTF8(a->name);
            if (feature == NULL) {
                return -1;
            }
            if (check_feature(ff, filename, s, feature) < 0) {
                return -1;
            }
        }
        ff->ff_lineno = s->lineno;
    }
    return 0;
}
