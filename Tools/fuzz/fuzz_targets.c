/* libFuzzer entry points for the runtime.  One file, one binary per
   target: FUZZ_TARGET names the target (see TARGETS below and
   Doc/fuzzing.md).  Each target hands the fuzzer's bytes to one part of
   the runtime through the C API; any Python exception is a fine answer
   to bad input, so errors are cleared.  What is not fine - a crash, a
   sanitizer report, a hang - is what libFuzzer looks for.

   Checks beyond "does not crash", which abort() so libFuzzer keeps the
   input:
     - compile: every code object the compiler makes passes the code
       validator (code.replace() runs it), so the validator accepts all
       compiler output;
     - code: a code object the validator accepts marshals and loads back. */

#include "Python.h"
#include "marshal.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef FUZZ_TARGET
#  error "compile with -DFUZZ_TARGET=name"
#endif

#define FUZZ_STR_(x) #x
#define FUZZ_STR(x) FUZZ_STR_(x)

/* Objects the targets look up once. */
static PyObject *builtin_compile, *builtin_exec, *json_loads, *re_compile, *marshal_dumps,
    *marshal_loads, *tokenizer_iter, *code_pool, *format_args, *format_kwargs;
/* 1 for the opcodes that jump backward (from the opcode module). */
static char backward_ops[256];

static PyObject *
import_attr(const char *module, const char *name)
{
    PyObject *m = PyImport_ImportModule(module);
    if (m == NULL) {
        return NULL;
    }
    PyObject *attr = PyObject_GetAttrString(m, name);
    Py_DECREF(m);
    return attr;
}

static void
die(const char *what)
{
    fprintf(stderr, "fuzz_%s: %s\n", FUZZ_STR(FUZZ_TARGET), what);
    if (PyErr_Occurred()) {
        PyErr_Print();
    }
    abort();
}

/* ---- tokenizer and parser ---------------------------------------------- */

/* The first byte picks the mode and flags; the rest is the source, as
   bytes, so the tokenizer also decodes it (coding cookies, BOMs). */
static int
fuzz_ast(const uint8_t *data, size_t size)
{
    static const char *const modes[] = {"exec", "eval", "single", "func_type"};
    if (size < 1) {
        return 0;
    }
    int flags = 0x400; /* PyCF_ONLY_AST */
    if (data[0] & 4) {
        flags |= 0x1000; /* PyCF_TYPE_COMMENTS */
    }
    PyObject *tree = PyObject_CallFunction(builtin_compile, "y#ssi", data + 1,
                                           (Py_ssize_t)size - 1, "<fuzz>", modes[data[0] & 3],
                                           flags);
    Py_XDECREF(tree);
    PyErr_Clear();
    /* The tokenize module's tokenizer too (a separate entry into it). */
    PyObject *src = PyUnicode_DecodeUTF8((const char *)data + 1, (Py_ssize_t)size - 1, "replace");
    if (src != NULL) {
        PyObject *readline = PyObject_GetAttrString(src, "splitlines");
        PyObject *lines = readline ? PyObject_CallFunction(readline, "O", Py_True) : NULL;
        PyObject *it = lines ? PyObject_GetIter(lines) : NULL;
        PyObject *next = it ? PyObject_GetAttrString(it, "__next__") : NULL;
        PyObject *toks = NULL;
        if (next != NULL) {
            PyObject *kw = Py_BuildValue("{s:O}", "extra_tokens", Py_True);
            PyObject *args = PyTuple_Pack(1, next);
            if (kw && args) {
                toks = PyObject_Call(tokenizer_iter, args, kw);
            }
            Py_XDECREF(kw);
            Py_XDECREF(args);
        }
        for (PyObject *tok; toks && (tok = PyIter_Next(toks)) != NULL;) {
            Py_DECREF(tok);
        }
        Py_XDECREF(toks);
        Py_XDECREF(next);
        Py_XDECREF(it);
        Py_XDECREF(lines);
        Py_XDECREF(readline);
        Py_DECREF(src);
    }
    PyErr_Clear();
    return 0;
}

/* ---- compiler ---------------------------------------------------------- */

static void
check_code_tree(PyObject *code, int depth)
{
    if (depth > 200) {
        return;
    }
    PyObject *copy = PyObject_CallMethod(code, "replace", NULL);
    if (copy == NULL) {
        die("the validator rejects code the compiler made");
    }
    Py_DECREF(copy);
    PyObject *consts = PyObject_GetAttrString(code, "co_consts");
    if (consts == NULL) {
        die("no co_consts");
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(consts); i++) {
        if (PyCode_Check(PyTuple_GET_ITEM(consts, i))) {
            check_code_tree(PyTuple_GET_ITEM(consts, i), depth + 1);
        }
    }
    Py_DECREF(consts);
}

static int
fuzz_compile(const uint8_t *data, size_t size)
{
    static const char *const modes[] = {"exec", "eval", "single", "exec"};
    if (size < 1) {
        return 0;
    }
    /* optimize level -1, 0, 1, 2 from the first byte */
    PyObject *code = PyObject_CallFunction(builtin_compile, "y#ssiii", data + 1,
                                           (Py_ssize_t)size - 1, "<fuzz>", modes[data[0] & 3], 0,
                                           1, ((data[0] >> 2) & 3) - 1);
    if (code != NULL) {
        check_code_tree(code, 0);
        Py_DECREF(code);
    }
    PyErr_Clear();
    return 0;
}

/* ---- marshal ----------------------------------------------------------- */

static int
fuzz_marshal(const uint8_t *data, size_t size)
{
    PyObject *obj = PyMarshal_ReadObjectFromString((const char *)data, (Py_ssize_t)size);
    if (obj != NULL) {
        /* what loaded must dump again */
        PyObject *again = PyObject_CallFunction(marshal_dumps, "O", obj);
        Py_XDECREF(again);
        PyObject *r = PyObject_Repr(obj);
        Py_XDECREF(r);
        Py_DECREF(obj);
    }
    PyErr_Clear();
    return 0;
}

/* ---- _sre -------------------------------------------------------------- */

/* Byte 0: flags; then the pattern up to the first NUL, then the subject
   (kept short: backtracking is exponential by design). */
static int
fuzz_sre(const uint8_t *data, size_t size)
{
    /* re.IGNORECASE, LOCALE is bytes-only, MULTILINE, DOTALL, VERBOSE, ASCII */
    static const int flag_bits[] = {2, 8, 16, 64, 256};
    if (size < 2) {
        return 0;
    }
    int flags = 0;
    for (int i = 0; i < 5; i++) {
        if (data[0] & (1 << i)) {
            flags |= flag_bits[i];
        }
    }
    int as_bytes = (data[0] & 0x80) != 0;
    const uint8_t *pat = data + 1, *end = data + size;
    const uint8_t *nul = memchr(pat, 0, (size_t)(end - pat));
    const uint8_t *subj = nul ? nul + 1 : end;
    size_t patlen = (size_t)((nul ? nul : end) - pat), subjlen = (size_t)(end - subj);
    if (subjlen > 24 || patlen > 200) {
        return 0;
    }
    PyObject *p, *s;
    if (as_bytes) {
        p = PyBytes_FromStringAndSize((const char *)pat, (Py_ssize_t)patlen);
        s = PyBytes_FromStringAndSize((const char *)subj, (Py_ssize_t)subjlen);
    }
    else {
        p = PyUnicode_DecodeUTF8((const char *)pat, (Py_ssize_t)patlen, "replace");
        s = PyUnicode_DecodeUTF8((const char *)subj, (Py_ssize_t)subjlen, "replace");
    }
    PyObject *rx = p ? PyObject_CallFunction(re_compile, "Oi", p, flags) : NULL;
    if (rx != NULL && s != NULL) {
        static const char *const methods[] = {"match", "search", "fullmatch", "findall", "split"};
        for (size_t i = 0; i < Py_ARRAY_LENGTH(methods); i++) {
            PyObject *m = PyObject_CallMethod(rx, methods[i], "O", s);
            if (m != NULL && m != Py_None && i < 3) {
                PyObject *g = PyObject_CallMethod(m, "groups", NULL);
                Py_XDECREF(g);
                PyObject *sp = PyObject_CallMethod(m, "span", NULL);
                Py_XDECREF(sp);
            }
            Py_XDECREF(m);
            PyErr_Clear();
        }
        PyObject *sub = PyObject_CallMethod(rx, "sub", "OO", as_bytes ? s : s, s);
        Py_XDECREF(sub);
    }
    Py_XDECREF(rx);
    Py_XDECREF(p);
    Py_XDECREF(s);
    PyErr_Clear();
    return 0;
}

/* ---- json -------------------------------------------------------------- */

static int
fuzz_json(const uint8_t *data, size_t size)
{
    PyObject *b = PyBytes_FromStringAndSize((const char *)data, (Py_ssize_t)size);
    if (b != NULL) {
        PyObject *v = PyObject_CallFunction(json_loads, "O", b);
        Py_XDECREF(v);
        Py_DECREF(b);
    }
    PyErr_Clear();
    return 0;
}

/* ---- int(str), float(str) ---------------------------------------------- */

static int
fuzz_number(const uint8_t *data, size_t size)
{
    if (size < 1) {
        return 0;
    }
    PyObject *s = PyUnicode_DecodeUTF8((const char *)data + 1, (Py_ssize_t)size - 1, "replace");
    if (s == NULL) {
        PyErr_Clear();
        return 0;
    }
    int base = data[0] % 38;
    if (base == 1) {
        base = 10;
    }
    else if (base == 37) {
        base = 0;
    }
    PyObject *i = PyLong_FromUnicodeObject(s, base);
    Py_XDECREF(i);
    PyErr_Clear();
    PyObject *f = PyFloat_FromString(s);
    Py_XDECREF(f);
    PyErr_Clear();
    PyObject *b = PyUnicode_AsUTF8String(s);
    if (b != NULL) {
        /* int(bytes, base) parses the same digits from bytes */
        PyObject *i2 = PyLong_FromString(PyBytes_AS_STRING(b), NULL, base);
        Py_XDECREF(i2);
        Py_DECREF(b);
    }
    PyErr_Clear();
    Py_DECREF(s);
    return 0;
}

/* ---- str.format, format() and % ---------------------------------------- */

/* A run of many digits asks for a huge width or precision: a MemoryError
   or a legitimately huge string, not something to fuzz for. */
static int
has_long_digit_run(const uint8_t *data, size_t size)
{
    int run = 0;
    for (size_t i = 0; i < size; i++) {
        run = (data[i] >= '0' && data[i] <= '9') ? run + 1 : 0;
        if (run > 5) {
            return 1;
        }
    }
    return 0;
}

static int
fuzz_format(const uint8_t *data, size_t size)
{
    if (size < 1 || has_long_digit_run(data, size) || memchr(data, '*', size) != NULL) {
        return 0;
    }
    PyObject *fmt = PyUnicode_DecodeUTF8((const char *)data + 1, (Py_ssize_t)size - 1, "replace");
    if (fmt == NULL) {
        PyErr_Clear();
        return 0;
    }
    Py_ssize_t nargs = PyTuple_GET_SIZE(format_args);
    PyObject *meth = PyObject_GetAttrString(fmt, "format");
    if (meth != NULL) {
        PyObject *r = PyObject_Call(meth, format_args, format_kwargs);
        Py_XDECREF(r);
        Py_DECREF(meth);
    }
    PyErr_Clear();
    /* the same string as a format spec for one value */
    PyObject *r = PyObject_Format(PyTuple_GET_ITEM(format_args, data[0] % nargs), fmt);
    Py_XDECREF(r);
    PyErr_Clear();
    /* % with a tuple of a chosen length, and with a mapping */
    Py_ssize_t take = (data[0] >> 4) % (nargs + 1);
    PyObject *part = PyTuple_GetSlice(format_args, 0, take);
    if (part != NULL) {
        r = PyUnicode_Format(fmt, part);
        Py_XDECREF(r);
        Py_DECREF(part);
    }
    PyErr_Clear();
    r = PyUnicode_Format(fmt, format_kwargs);
    Py_XDECREF(r);
    PyErr_Clear();
    PyObject *bfmt = PyUnicode_AsUTF8String(fmt);
    if (bfmt != NULL) {
        r = PyNumber_Remainder(bfmt, format_kwargs);
        Py_XDECREF(r);
        Py_DECREF(bfmt);
    }
    PyErr_Clear();
    Py_DECREF(fmt);
    return 0;
}

/* ---- code.replace ------------------------------------------------------ */

/* Byte 0 picks a code object from the pool; then records of a field byte
   and its value change it: new co_code or co_exceptiontable or
   co_linetable bytes (a length byte, then that many bytes), a small int
   for co_stacksize/co_flags/co_argcount, or a count to cut co_consts,
   co_names or co_varnames to.  What the validator accepts is marshalled
   and loaded back, then run when it has no backward jump (so it ends),
   with no builtins. */
static int
fuzz_code(const uint8_t *data, size_t size)
{
    static const char *const byte_fields[] = {"co_code", "co_exceptiontable", "co_linetable"};
    static const char *const int_fields[] = {"co_stacksize", "co_flags", "co_argcount",
                                             "co_kwonlyargcount", "co_firstlineno"};
    static const char *const tuple_fields[] = {"co_consts", "co_names", "co_varnames",
                                               "co_freevars", "co_cellvars"};
    if (size < 1) {
        return 0;
    }
    PyObject *code = PyList_GET_ITEM(code_pool, data[0] % PyList_GET_SIZE(code_pool));
    PyObject *kw = PyDict_New();
    if (kw == NULL) {
        die("no memory");
    }
    size_t i = 1;
    while (i + 1 < size) {
        int field = data[i++] % 3, which = data[i++];
        PyObject *value = NULL;
        const char *name;
        if (field == 0) {
            name = byte_fields[which % 3];
            size_t len = i < size ? data[i++] : 0;
            if (which & 8) {
                len *= 2;
            }
            if (len > size - i) {
                len = size - i;
            }
            value = PyBytes_FromStringAndSize((const char *)data + i, (Py_ssize_t)len);
            i += len;
        }
        else if (field == 1) {
            name = int_fields[which % 5];
            int v = i < size ? data[i++] : 0;
            if (which % 5 == 1) {
                v |= (which & 0xf0) << 4;
            }
            value = PyLong_FromLong(v);
        }
        else {
            name = tuple_fields[which % 5];
            PyObject *old = PyObject_GetAttrString(code, name);
            if (old == NULL) {
                die("no such field");
            }
            Py_ssize_t keep = i < size ? data[i++] : 0;
            value = PyTuple_GetSlice(old, 0, keep);
            Py_DECREF(old);
        }
        if (value == NULL || PyDict_SetItemString(kw, name, value) < 0) {
            die("building the arguments failed");
        }
        Py_DECREF(value);
    }
    PyObject *args = PyTuple_New(0);
    PyObject *replace = PyObject_GetAttrString(code, "replace");
    PyObject *made = (args && replace) ? PyObject_Call(replace, args, kw) : NULL;
    Py_XDECREF(args);
    Py_XDECREF(replace);
    Py_DECREF(kw);
    if (made == NULL) {
        PyErr_Clear();
        return 0;
    }
    PyObject *dumped = PyObject_CallFunction(marshal_dumps, "O", made);
    if (dumped == NULL) {
        die("an accepted code object does not marshal");
    }
    PyObject *loaded = PyObject_CallFunction(marshal_loads, "O", dumped);
    if (loaded == NULL) {
        die("an accepted code object does not load back");
    }
    Py_DECREF(loaded);
    Py_DECREF(dumped);
    PyObject *bytes = PyObject_GetAttrString(made, "co_code");
    int loops = 0;
    for (Py_ssize_t k = 0; bytes && k + 1 < PyBytes_GET_SIZE(bytes); k += 2) {
        loops |= backward_ops[(uint8_t)PyBytes_AS_STRING(bytes)[k]];
    }
    Py_XDECREF(bytes);
    PyObject *frees = PyObject_GetAttrString(made, "co_freevars");
    if (!loops && frees != NULL && PyTuple_GET_SIZE(frees) == 0) {
        PyObject *globals = Py_BuildValue("{s:{}}", "__builtins__");
        PyObject *r = globals ? PyObject_CallFunction(builtin_exec, "OO", made, globals) : NULL;
        if (r != NULL && PyIter_Check(r)) {
            PyObject *n = PyIter_Next(r);
            Py_XDECREF(n);
        }
        Py_XDECREF(r);
        Py_XDECREF(globals);
    }
    Py_XDECREF(frees);
    Py_DECREF(made);
    PyErr_Clear();
    return 0;
}

/* ---- set-up ------------------------------------------------------------ */

/* The code objects fuzz_code starts from: functions of several shapes. */
static const char code_pool_source[] =
    "def f0():\n    return 'abc'\n"
    "def f1(a, b=2, *c, d, **e):\n    return a + b + len(c) + d + len(e)\n"
    "def f2(x):\n    try:\n        return x.y\n    except AttributeError as e:\n        return e\n"
    "def f3(n):\n    t = 0\n    for i in range(n):\n        t += i\n    return t\n"
    "def f4(x):\n    with x as y:\n        return [z for z in y if z]\n"
    "def f5():\n    yield 1\n    yield from (2, 3)\n"
    "async def f6(a):\n    async with a as b:\n        return await b\n"
    "def f7(x):\n    match x:\n        case [1, *r]: return r\n        case {'k': v}: return v\n"
    "        case _: return None\n"
    "def f8(a):\n    def g():\n        return a\n    return g\n"
    "def f9(s):\n    return f'{s!r:>{10}} {s=}'\n"
    "codes = [f.__code__ for f in (f0, f1, f2, f3, f4, f5, f6, f7, f8, f9)]\n"
    "codes.extend(c for c in f8.__code__.co_consts if hasattr(c, 'co_code'))\n"
    "codes.append(compile('x = 1\\nimport os\\nprint(x)', 'm', 'exec'))\n"
    "import opcode\n"
    "backward = bytes(1 if 'BACKWARD' in opcode.opname[i] else 0 for i in range(256))\n";

static void
setup(void)
{
    builtin_compile = import_attr("builtins", "compile");
    builtin_exec = import_attr("builtins", "exec");
    json_loads = import_attr("json", "loads");
    re_compile = import_attr("re", "compile");
    marshal_dumps = import_attr("marshal", "dumps");
    marshal_loads = import_attr("marshal", "loads");
    tokenizer_iter = import_attr("_tokenize", "TokenizerIter");
    PyObject *ns = PyDict_New();
    PyObject *r = ns ? PyRun_String(code_pool_source, Py_file_input, ns, ns) : NULL;
    if (r == NULL) {
        die("building the code pool failed");
    }
    Py_DECREF(r);
    code_pool = Py_XNewRef(PyDict_GetItemString(ns, "codes"));
    PyObject *backward = PyDict_GetItemString(ns, "backward");
    if (backward == NULL || !PyBytes_Check(backward) || PyBytes_GET_SIZE(backward) != 256) {
        die("no opcode table");
    }
    memcpy(backward_ops, PyBytes_AS_STRING(backward), 256);
    Py_DECREF(ns);
    format_args = Py_BuildValue("(iisdsy[ii]{si}OO)", 42, -7, "abc", -2.5, "\xc3\xa9t\xc3\xa9",
                                "by", 1, 2, "a", 1, Py_None, Py_True);
    format_kwargs = Py_BuildValue("{sisdsss[i]}", "a", 1, "b", 3.25, "c", "xyz", "d", 4);
    if (!builtin_compile || !builtin_exec || !json_loads || !re_compile || !marshal_dumps ||
        !marshal_loads || !tokenizer_iter || !code_pool || !format_args || !format_kwargs) {
        die("set-up failed");
    }
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    Py_InitializeEx(0);
    setup();
    return 0;
}

#define TARGET_FN_(name) fuzz_##name
#define TARGET_FN(name) TARGET_FN_(name)

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return TARGET_FN(FUZZ_TARGET)(data, size);
}
