/* Context variables: contextvars.Context, ContextVar and Token.

   A Context is an immutable mapping from ContextVar to value; setting a
   variable replaces the thread's current Context by a new one that shares
   almost everything with the old.  The mapping is a persistent hash trie:
   each level takes 5 bits of the variable's hash and keeps only the
   occupied slots of its 32 (a bitmap says which), so an update copies
   one small node per level and copy_context() is O(1).  Two variables
   whose 64-bit hashes are equal end up in one "collision" node (bitmap
   0), searched linearly.

   Trie nodes are GC objects so that cycles through context values are
   found, and because they are shared between Contexts (a plain C struct
   shared by two owners would be counted twice by the collector).

   The current context lives in the thread state (tstate->context, NULL
   until first needed); tstate->context_ver changes with it. */

#include "Python.h"
#include "pycore_pystate.h"
#include "pycore_object.h"
#include "pycore_context.h"

/* ---- The trie --------------------------------------------------------------------------------- */

typedef struct {
    PyObject_VAR_HEAD /* ob_size: 2 * entries */
    uint32_t bitmap;  /* 0: a collision node */
    PyObject *slots[1]; /* per entry (key, value), or (NULL, child node) */
} trienode;

#define ENTRIES(n) (Py_SIZE(n) / 2)
#define MAX_SHIFT 60 /* below 64: the last level takes the remaining 4 bits */

static PyTypeObject TrieNode_Type;

static int
trienode_traverse(PyObject *op, visitproc visit, void *arg)
{
    for (Py_ssize_t i = 0; i < Py_SIZE(op); i++) {
        Py_VISIT(((trienode *)op)->slots[i]);
    }
    return 0;
}

static int
trienode_clear(PyObject *op)
{
    for (Py_ssize_t i = 0; i < Py_SIZE(op); i++) {
        Py_CLEAR(((trienode *)op)->slots[i]);
    }
    return 0;
}

static void
trienode_dealloc(PyObject *op)
{
    PyObject_GC_UnTrack(op);
    trienode_clear(op);
    PyObject_GC_Del(op);
}

static PyTypeObject TrieNode_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "context_trie_node",
    .tp_basicsize = offsetof(trienode, slots),
    .tp_itemsize = sizeof(PyObject *),
    .tp_dealloc = trienode_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_traverse = trienode_traverse,
    .tp_clear = trienode_clear,
};

/* A node with room for `entries` entries, slots zeroed, not yet tracked. */
static trienode *
node_alloc(Py_ssize_t entries, uint32_t bitmap)
{
    trienode *n = PyObject_GC_NewVar(trienode, &TrieNode_Type, 2 * entries);
    if (n != NULL) {
        n->bitmap = bitmap;
        memset(n->slots, 0, 2 * entries * sizeof(PyObject *));
    }
    return n;
}

static PyObject *
node_done(trienode *n)
{
    PyObject_GC_Track(n);
    return (PyObject *)n;
}

static unsigned
fragment(Py_hash_t hash, int shift)
{
    return (unsigned)(((uint64_t)hash >> shift) & 0x1F);
}

static Py_ssize_t
slot_index(uint32_t bitmap, uint32_t bit)
{
    return __builtin_popcount(bitmap & (bit - 1));
}

/* A copy of n with entry `at` replaced by (k, v), both borrowed. */
static PyObject *
node_replace(trienode *n, Py_ssize_t at, PyObject *k, PyObject *v)
{
    trienode *c = node_alloc(ENTRIES(n), n->bitmap);
    if (c == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < Py_SIZE(n); i++) {
        c->slots[i] = Py_XNewRef(n->slots[i]);
    }
    Py_XSETREF(c->slots[2 * at], Py_XNewRef(k));
    Py_XSETREF(c->slots[2 * at + 1], Py_NewRef(v));
    return node_done(c);
}

/* A copy of n with (k, v) inserted as entry `at` (or, for -1 `at`, entry
   `at` removed); `bitmap` is the copy's bitmap. */
static PyObject *
node_resize(trienode *n, Py_ssize_t at, PyObject *k, PyObject *v, uint32_t bitmap, int insert)
{
    Py_ssize_t old = ENTRIES(n), size = insert ? old + 1 : old - 1;
    trienode *c = node_alloc(size, bitmap);
    if (c == NULL) {
        return NULL;
    }
    Py_ssize_t j = 0;
    for (Py_ssize_t i = 0; i <= old; i++) {
        if (i == at && insert) {
            c->slots[2 * j] = Py_XNewRef(k);
            c->slots[2 * j + 1] = Py_NewRef(v);
            j++;
        }
        if (i == old || (i == at && !insert)) {
            continue;
        }
        c->slots[2 * j] = Py_XNewRef(n->slots[2 * i]);
        c->slots[2 * j + 1] = Py_NewRef(n->slots[2 * i + 1]);
        j++;
    }
    return node_done(c);
}

static Py_hash_t var_hash(PyObject *var);

/* The node holding two different keys that share the path so far. */
static PyObject *
node_of_two(PyObject *k1, PyObject *v1, PyObject *k2, PyObject *v2, int shift)
{
    Py_hash_t h1 = var_hash(k1), h2 = var_hash(k2);
    if (shift > MAX_SHIFT || h1 == h2) {
        trienode *c = node_alloc(2, 0);
        if (c == NULL) {
            return NULL;
        }
        c->slots[0] = Py_NewRef(k1);
        c->slots[1] = Py_NewRef(v1);
        c->slots[2] = Py_NewRef(k2);
        c->slots[3] = Py_NewRef(v2);
        return node_done(c);
    }
    unsigned f1 = fragment(h1, shift), f2 = fragment(h2, shift);
    if (f1 == f2) {
        PyObject *child = node_of_two(k1, v1, k2, v2, shift + 5);
        if (child == NULL) {
            return NULL;
        }
        trienode *c = node_alloc(1, 1u << f1);
        if (c == NULL) {
            Py_DECREF(child);
            return NULL;
        }
        c->slots[1] = child;
        return node_done(c);
    }
    trienode *c = node_alloc(2, (1u << f1) | (1u << f2));
    if (c == NULL) {
        return NULL;
    }
    int first = f1 < f2 ? 0 : 2;
    c->slots[first] = Py_NewRef(k1);
    c->slots[first + 1] = Py_NewRef(v1);
    c->slots[2 - first] = Py_NewRef(k2);
    c->slots[3 - first] = Py_NewRef(v2);
    return node_done(c);
}

static Py_ssize_t
collision_find(trienode *n, PyObject *key)
{
    for (Py_ssize_t i = 0; i < ENTRIES(n); i++) {
        if (n->slots[2 * i] == key) {
            return i;
        }
    }
    return -1;
}

/* The value of key (borrowed), or NULL. */
static PyObject *
trie_find(PyObject *root, PyObject *key)
{
    Py_hash_t h = var_hash(key);
    trienode *n = (trienode *)root;
    for (int shift = 0; n != NULL; shift += 5) {
        if (n->bitmap == 0) {
            Py_ssize_t i = collision_find(n, key);
            return i < 0 ? NULL : n->slots[2 * i + 1];
        }
        uint32_t bit = 1u << fragment(h, shift);
        if (!(n->bitmap & bit)) {
            return NULL;
        }
        Py_ssize_t i = slot_index(n->bitmap, bit);
        if (n->slots[2 * i] != NULL) {
            return n->slots[2 * i] == key ? n->slots[2 * i + 1] : NULL;
        }
        n = (trienode *)n->slots[2 * i + 1];
    }
    return NULL;
}

/* A new trie: root with key set to value. */
static PyObject *
trie_set(PyObject *root, PyObject *key, PyObject *value, int shift)
{
    trienode *n = (trienode *)root;
    if (n == NULL) {
        trienode *c = node_alloc(1, 1u << fragment(var_hash(key), shift));
        if (c == NULL) {
            return NULL;
        }
        c->slots[0] = Py_NewRef(key);
        c->slots[1] = Py_NewRef(value);
        return node_done(c);
    }
    if (n->bitmap == 0) {
        Py_ssize_t i = collision_find(n, key);
        return i >= 0 ? node_replace(n, i, key, value)
                      : node_resize(n, ENTRIES(n), key, value, 0, 1);
    }
    uint32_t bit = 1u << fragment(var_hash(key), shift);
    Py_ssize_t i = slot_index(n->bitmap, bit);
    if (!(n->bitmap & bit)) {
        return node_resize(n, i, key, value, n->bitmap | bit, 1);
    }
    PyObject *k = n->slots[2 * i], *v = n->slots[2 * i + 1];
    if (k == key) {
        return node_replace(n, i, key, value);
    }
    PyObject *child = k == NULL ? trie_set(v, key, value, shift + 5)
                                : node_of_two(k, v, key, value, shift + 5);
    if (child == NULL) {
        return NULL;
    }
    PyObject *res = node_replace(n, i, NULL, child);
    Py_DECREF(child);
    return res;
}

/* A new trie without key: *out is the new root (NULL when empty); returns
   0 if key was absent (then *out is root itself, a new reference), 1 if
   removed, -1 on error. */
static int
trie_delete(PyObject *root, PyObject *key, int shift, PyObject **out)
{
    trienode *n = (trienode *)root;
    *out = NULL;
    if (n == NULL) {
        return 0;
    }
    Py_ssize_t i;
    uint32_t bit = 0;
    if (n->bitmap == 0) {
        i = collision_find(n, key);
    }
    else {
        bit = 1u << fragment(var_hash(key), shift);
        i = (n->bitmap & bit) ? slot_index(n->bitmap, bit) : -1;
    }
    if (i < 0 || (n->slots[2 * i] != NULL && n->slots[2 * i] != key)) {
        *out = Py_NewRef(root);
        return 0;
    }
    if (n->slots[2 * i] == NULL) {
        PyObject *child;
        int r = trie_delete(n->slots[2 * i + 1], key, shift + 5, &child);
        if (r <= 0) {
            if (r == 0) {
                Py_DECREF(child);
                *out = Py_NewRef(root);
            }
            return r;
        }
        if (child != NULL) {
            *out = node_replace(n, i, NULL, child);
            Py_DECREF(child);
            return *out == NULL ? -1 : 1;
        }
    }
    if (ENTRIES(n) == 1) {
        return 1;
    }
    *out = node_resize(n, i, NULL, NULL, n->bitmap & ~bit, 0);
    return *out == NULL ? -1 : 1;
}

/* Call fn(key, value, arg) for every entry; stops at a nonzero result. */
typedef int (*entry_func)(PyObject *key, PyObject *value, void *arg);

static int
trie_each(PyObject *root, entry_func fn, void *arg)
{
    trienode *n = (trienode *)root;
    if (n == NULL) {
        return 0;
    }
    for (Py_ssize_t i = 0; i < ENTRIES(n); i++) {
        PyObject *k = n->slots[2 * i], *v = n->slots[2 * i + 1];
        int r = k == NULL ? trie_each(v, fn, arg) : fn(k, v, arg);
        if (r != 0) {
            return r;
        }
    }
    return 0;
}

/* ---- Objects ---------------------------------------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    PyObject *prev;      /* the context current before this one was entered */
    PyObject *vars;      /* trie root, NULL when empty */
    Py_ssize_t count;
    int entered;
    PyObject *weakreflist;
} ContextObject;

typedef struct {
    PyObject_HEAD
    PyObject *name;
    PyObject *default_value; /* NULL: none */
    Py_hash_t hash;
} ContextVarObject;

typedef struct {
    PyObject_HEAD
    PyObject *context;
    PyObject *var;
    PyObject *old_value; /* NULL: the variable had no value */
    int used;
} TokenObject;

#define CTX(o) ((ContextObject *)(o))
#define VAR(o) ((ContextVarObject *)(o))
#define TOK(o) ((TokenObject *)(o))

static Py_hash_t
var_hash(PyObject *var)
{
    return VAR(var)->hash;
}

static PyObject *
context_alloc(PyObject *vars, Py_ssize_t count)
{
    ContextObject *ctx = PyObject_GC_New(ContextObject, &PyContext_Type);
    if (ctx == NULL) {
        Py_XDECREF(vars);
        return NULL;
    }
    ctx->prev = NULL;
    ctx->vars = vars; /* stolen */
    ctx->count = count;
    ctx->entered = 0;
    ctx->weakreflist = NULL;
    PyObject_GC_Track(ctx);
    return (PyObject *)ctx;
}

/* The thread's current context (borrowed), created empty on first use. */
static PyObject *
current_context(void)
{
    PyThreadState *ts = _PyThreadState_GET();
    if (ts->context == NULL) {
        ts->context = context_alloc(NULL, 0);
        ts->context_ver++;
    }
    return ts->context;
}

static int
check_context(PyObject *ctx)
{
    if (!PyContext_CheckExact(ctx)) {
        PyErr_Format(PyExc_TypeError, "an instance of Context was expected, got %.100R", ctx);
        return -1;
    }
    return 0;
}

static int
check_var(PyObject *var)
{
    if (!PyContextVar_CheckExact(var)) {
        PyErr_Format(PyExc_TypeError, "an instance of ContextVar was expected, got %.100R", var);
        return -1;
    }
    return 0;
}

PyObject *
PyContext_New(void)
{
    return context_alloc(NULL, 0);
}

PyObject *
PyContext_Copy(PyObject *ctx)
{
    if (check_context(ctx) < 0) {
        return NULL;
    }
    return context_alloc(Py_XNewRef(CTX(ctx)->vars), CTX(ctx)->count);
}

PyObject *
PyContext_CopyCurrent(void)
{
    PyObject *ctx = current_context();
    return ctx == NULL ? NULL : PyContext_Copy(ctx);
}

int
PyContext_Enter(PyObject *ctx)
{
    if (check_context(ctx) < 0) {
        return -1;
    }
    if (CTX(ctx)->entered) {
        PyErr_Format(PyExc_RuntimeError, "cannot enter context: %R is already entered", ctx);
        return -1;
    }
    PyThreadState *ts = _PyThreadState_GET();
    if (current_context() == NULL) {
        return -1;
    }
    CTX(ctx)->prev = ts->context; /* the reference moves */
    CTX(ctx)->entered = 1;
    ts->context = Py_NewRef(ctx);
    ts->context_ver++;
    return 0;
}

int
PyContext_Exit(PyObject *ctx)
{
    if (check_context(ctx) < 0) {
        return -1;
    }
    PyThreadState *ts = _PyThreadState_GET();
    if (!CTX(ctx)->entered) {
        PyErr_Format(PyExc_RuntimeError, "cannot exit context: %R has not been entered", ctx);
        return -1;
    }
    if (ts->context != ctx) {
        PyErr_SetString(PyExc_RuntimeError, "cannot exit context: thread state references a "
                                            "different context object");
        return -1;
    }
    ts->context = CTX(ctx)->prev;
    CTX(ctx)->prev = NULL;
    CTX(ctx)->entered = 0;
    ts->context_ver++;
    Py_DECREF(ctx);
    return 0;
}

/* Replace the current context's mapping: contexts are immutable from
   the outside, but the current one is updated in place by set/reset so
   that code holding it (Context.run) sees the change. */
static void
context_install(ContextObject *ctx, PyObject *vars, Py_ssize_t count)
{
    Py_XSETREF(ctx->vars, vars);
    ctx->count = count;
    _PyThreadState_GET()->context_ver++;
}

/* ---- ContextVar ---------------------------------------------------------------------------- */

PyObject *
PyContextVar_New(const char *name, PyObject *def)
{
    PyObject *pyname = PyUnicode_FromString(name);
    if (pyname == NULL) {
        return NULL;
    }
    ContextVarObject *var = PyObject_GC_New(ContextVarObject, &PyContextVar_Type);
    if (var == NULL) {
        Py_DECREF(pyname);
        return NULL;
    }
    var->name = pyname;
    var->default_value = Py_XNewRef(def);
    /* Mix the name's hash with the address: equal names stay distinct. */
    Py_hash_t h = PyObject_Hash(pyname) ^ _Py_HashPointer(var);
    var->hash = h == -1 ? -2 : h;
    PyObject_GC_Track(var);
    return (PyObject *)var;
}

int
PyContextVar_Get(PyObject *var, PyObject *default_value, PyObject **value)
{
    *value = NULL;
    if (check_var(var) < 0) {
        return -1;
    }
    PyObject *ctx = current_context();
    if (ctx == NULL) {
        return -1;
    }
    PyObject *found = trie_find(CTX(ctx)->vars, var);
    if (found == NULL) {
        found = default_value != NULL ? default_value : VAR(var)->default_value;
    }
    *value = Py_XNewRef(found);
    return 0;
}

static int
var_assign(PyObject *var, PyObject *value)
{
    ContextObject *ctx = CTX(current_context());
    if (ctx == NULL) {
        return -1;
    }
    if (value != NULL) {
        int fresh = trie_find(ctx->vars, var) == NULL;
        PyObject *vars = trie_set(ctx->vars, var, value, 0);
        if (vars == NULL) {
            return -1;
        }
        context_install(ctx, vars, ctx->count + fresh);
        return 0;
    }
    PyObject *vars;
    int r = trie_delete(ctx->vars, var, 0, &vars);
    if (r < 0) {
        return -1;
    }
    context_install(ctx, vars, ctx->count - r);
    return 0;
}

static PyObject *
token_new(PyObject *ctx, PyObject *var, PyObject *old_value)
{
    TokenObject *tok = PyObject_GC_New(TokenObject, &PyContextToken_Type);
    if (tok == NULL) {
        return NULL;
    }
    tok->context = Py_NewRef(ctx);
    tok->var = Py_NewRef(var);
    tok->old_value = Py_XNewRef(old_value);
    tok->used = 0;
    PyObject_GC_Track(tok);
    return (PyObject *)tok;
}

PyObject *
PyContextVar_Set(PyObject *var, PyObject *value)
{
    if (check_var(var) < 0) {
        return NULL;
    }
    PyObject *ctx = current_context();
    if (ctx == NULL) {
        return NULL;
    }
    PyObject *token = token_new(ctx, var, trie_find(CTX(ctx)->vars, var));
    if (token != NULL && var_assign(var, value) < 0) {
        Py_CLEAR(token);
    }
    return token;
}

int
PyContextVar_Reset(PyObject *var, PyObject *token)
{
    if (check_var(var) < 0) {
        return -1;
    }
    if (!PyContextToken_CheckExact(token)) {
        PyErr_Format(PyExc_TypeError, "expected an instance of Token, got %.100R", token);
        return -1;
    }
    TokenObject *tok = TOK(token);
    if (tok->used) {
        PyErr_Format(PyExc_RuntimeError, "%R has already been used once", token);
        return -1;
    }
    if (tok->var != var) {
        PyErr_Format(PyExc_ValueError, "%R was created by a different ContextVar", token);
        return -1;
    }
    PyObject *ctx = current_context();
    if (ctx == NULL) {
        return -1;
    }
    if (tok->context != ctx) {
        PyErr_Format(PyExc_ValueError, "%R was created in a different Context", token);
        return -1;
    }
    tok->used = 1;
    return var_assign(var, tok->old_value);
}

static PyObject *
var_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = {"", "default", NULL};
    PyObject *name, *def = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|$O:ContextVar", kwlist, &name, &def)) {
        return NULL;
    }
    if (!PyUnicode_Check(name)) {
        PyErr_SetString(PyExc_TypeError, "context variable name must be a str");
        return NULL;
    }
    const char *utf8 = PyUnicode_AsUTF8(name);
    if (utf8 == NULL) {
        return NULL;
    }
    PyObject *var = PyContextVar_New(utf8, def);
    if (var != NULL) {
        Py_SETREF(VAR(var)->name, Py_NewRef(name)); /* keep the very object */
    }
    return var;
}

static int
var_traverse(PyObject *op, visitproc visit, void *arg)
{
    Py_VISIT(VAR(op)->name);
    Py_VISIT(VAR(op)->default_value);
    return 0;
}

static int
var_clear(PyObject *op)
{
    Py_CLEAR(VAR(op)->name);
    Py_CLEAR(VAR(op)->default_value);
    return 0;
}

static void
var_dealloc(PyObject *op)
{
    PyObject_GC_UnTrack(op);
    var_clear(op);
    PyObject_GC_Del(op);
}

static Py_hash_t
var_tp_hash(PyObject *op)
{
    return VAR(op)->hash;
}

static PyObject *
var_repr(PyObject *op)
{
    ContextVarObject *var = VAR(op);
    if (var->default_value == NULL) {
        return PyUnicode_FromFormat("<ContextVar name=%R at %p>", var->name, op);
    }
    return PyUnicode_FromFormat("<ContextVar name=%R default=%R at %p>", var->name,
                                var->default_value, op);
}

static PyObject *
var_get(PyObject *op, PyObject *const *args, Py_ssize_t nargs)
{
    if (!_PyArg_CheckPositional("get", nargs, 0, 1)) {
        return NULL;
    }
    PyObject *value;
    if (PyContextVar_Get(op, nargs ? args[0] : NULL, &value) < 0) {
        return NULL;
    }
    if (value == NULL) {
        PyErr_SetObject(PyExc_LookupError, op);
    }
    return value;
}

static PyObject *
var_set(PyObject *op, PyObject *value)
{
    return PyContextVar_Set(op, value);
}

static PyObject *
var_reset(PyObject *op, PyObject *token)
{
    if (PyContextVar_Reset(op, token) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyMethodDef var_methods[] = {
    {"get", _PyCFunction_CAST(var_get), METH_FASTCALL,
     "get([default]): the value in the current context, else default, else the "
     "variable's default; LookupError if none."},
    {"set", var_set, METH_O, "Set the value in the current context; returns a Token."},
    {"reset", var_reset, METH_O, "Restore the value the Token recorded before its set()."},
    {NULL, NULL, 0, NULL},
};

static PyMemberDef var_members[] = {
    {"name", _Py_T_OBJECT, offsetof(ContextVarObject, name), Py_READONLY, NULL},
    {NULL, 0, 0, 0, NULL},
};

PyTypeObject PyContextVar_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "_contextvars.ContextVar",
    .tp_basicsize = sizeof(ContextVarObject),
    .tp_dealloc = var_dealloc,
    .tp_repr = var_repr,
    .tp_hash = var_tp_hash,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "ContextVar(name, *, default): a variable whose value depends on the context.",
    .tp_traverse = var_traverse,
    .tp_clear = var_clear,
    .tp_methods = var_methods,
    .tp_members = var_members,
    .tp_new = var_new,
};

/* ---- Token ---------------------------------------------------------------------------------- */

/* Token.MISSING: the old_value of a token whose variable had no value. */
static PyObject *missing_object; /* created with the types */

static PyObject *
missing_repr(PyObject *op)
{
    return PyUnicode_FromString("<Token.MISSING>");
}

static PyTypeObject Missing_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "Token.MISSING",
    .tp_basicsize = sizeof(PyObject),
    .tp_repr = missing_repr,
    .tp_flags = Py_TPFLAGS_DEFAULT,
};

static int
token_traverse(PyObject *op, visitproc visit, void *arg)
{
    Py_VISIT(TOK(op)->context);
    Py_VISIT(TOK(op)->var);
    Py_VISIT(TOK(op)->old_value);
    return 0;
}

static int
token_clear(PyObject *op)
{
    Py_CLEAR(TOK(op)->context);
    Py_CLEAR(TOK(op)->var);
    Py_CLEAR(TOK(op)->old_value);
    return 0;
}

static void
token_dealloc(PyObject *op)
{
    PyObject_GC_UnTrack(op);
    token_clear(op);
    PyObject_GC_Del(op);
}

static PyObject *
token_repr(PyObject *op)
{
    return PyUnicode_FromFormat("<Token%s var=%R at %p>", TOK(op)->used ? " used" : "",
                                TOK(op)->var, op);
}

static PyObject *
token_var_get(PyObject *op, void *closure)
{
    return Py_NewRef(TOK(op)->var);
}

static PyObject *
token_old_value_get(PyObject *op, void *closure)
{
    return Py_NewRef(TOK(op)->old_value != NULL ? TOK(op)->old_value : missing_object);
}

static PyObject *
token_enter(PyObject *op, PyObject *Py_UNUSED(ignored))
{
    return Py_NewRef(op);
}

static PyObject *
token_exit(PyObject *op, PyObject *args)
{
    return var_reset(TOK(op)->var, op);
}

static PyGetSetDef token_getset[] = {
    {"var", token_var_get, NULL, "The ContextVar this token was created by.", NULL},
    {"old_value", token_old_value_get, NULL,
     "The value before the set() (Token.MISSING if there was none).", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyMethodDef token_methods[] = {
    {"__enter__", token_enter, METH_NOARGS, NULL},
    {"__exit__", token_exit, METH_VARARGS, "Reset the variable to its value before set()."},
    {NULL, NULL, 0, NULL},
};

static PyObject *
token_tp_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    PyErr_SetString(PyExc_RuntimeError, "Tokens can only be created by ContextVars");
    return NULL;
}

PyTypeObject PyContextToken_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "_contextvars.Token",
    .tp_basicsize = sizeof(TokenObject),
    .tp_dealloc = token_dealloc,
    .tp_repr = token_repr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_traverse = token_traverse,
    .tp_clear = token_clear,
    .tp_methods = token_methods,
    .tp_getset = token_getset,
    .tp_new = token_tp_new,
};

/* ---- Context ----------------------------------------------------------------------------------- */

static int
context_traverse(PyObject *op, visitproc visit, void *arg)
{
    Py_VISIT(CTX(op)->prev);
    Py_VISIT(CTX(op)->vars);
    return 0;
}

static int
context_clear(PyObject *op)
{
    Py_CLEAR(CTX(op)->prev);
    Py_CLEAR(CTX(op)->vars);
    CTX(op)->count = 0;
    return 0;
}

static void
context_dealloc(PyObject *op)
{
    PyObject_GC_UnTrack(op);
    if (CTX(op)->weakreflist != NULL) {
        PyObject_ClearWeakRefs(op);
    }
    context_clear(op);
    PyObject_GC_Del(op);
}

static PyObject *
context_tp_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    if (PyTuple_GET_SIZE(args) != 0 || (kwargs != NULL && PyDict_GET_SIZE(kwargs) != 0)) {
        PyErr_SetString(PyExc_TypeError, "Context() does not accept any arguments");
        return NULL;
    }
    return PyContext_New();
}

static PyObject *
context_run(PyObject *op, PyObject *const *args, Py_ssize_t nargsf, PyObject *kwnames)
{
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    if (nargs < 1) {
        PyErr_SetString(PyExc_TypeError, "run() missing 1 required positional argument");
        return NULL;
    }
    if (PyContext_Enter(op) < 0) {
        return NULL;
    }
    PyObject *res = PyObject_Vectorcall(args[0], args + 1, nargs - 1, kwnames);
    if (PyContext_Exit(op) < 0) {
        Py_CLEAR(res);
    }
    return res;
}

static PyObject *
context_copy(PyObject *op, PyObject *Py_UNUSED(ignored))
{
    return PyContext_Copy(op);
}

static PyObject *
context_lookup(ContextObject *ctx, PyObject *key)
{
    if (!PyContextVar_CheckExact(key)) {
        PyErr_Format(PyExc_TypeError, "a ContextVar key was expected, got %.100R", key);
        return NULL;
    }
    return trie_find(ctx->vars, key);
}

static PyObject *
context_subscript(PyObject *op, PyObject *key)
{
    PyObject *v = context_lookup(CTX(op), key);
    if (v == NULL && !PyErr_Occurred()) {
        PyErr_SetObject(PyExc_KeyError, key);
    }
    return Py_XNewRef(v);
}

static int
context_contains(PyObject *op, PyObject *key)
{
    PyObject *v = context_lookup(CTX(op), key);
    return v != NULL ? 1 : PyErr_Occurred() ? -1 : 0;
}

static Py_ssize_t
context_length(PyObject *op)
{
    return CTX(op)->count;
}

static PyObject *
context_get(PyObject *op, PyObject *const *args, Py_ssize_t nargs)
{
    if (!_PyArg_CheckPositional("get", nargs, 1, 2)) {
        return NULL;
    }
    PyObject *v = context_lookup(CTX(op), args[0]);
    if (v == NULL && PyErr_Occurred()) {
        return NULL;
    }
    return Py_NewRef(v != NULL ? v : nargs == 2 ? args[1] : Py_None);
}

/* What to collect from each entry: 0 keys, 1 values, 2 (key, value). */
static int
collect_entry(PyObject *key, PyObject *value, void *arg)
{
    PyObject **state = arg;
    int what = (int)PyLong_AsLong(state[1]);
    PyObject *item = what == 0 ? Py_NewRef(key) : what == 1 ? Py_NewRef(value)
                                                           : PyTuple_Pack(2, key, value);
    if (item == NULL) {
        return -1;
    }
    int r = PyList_Append(state[0], item);
    Py_DECREF(item);
    return r;
}

static PyObject *
context_collect(PyObject *op, int what)
{
    PyObject *state[2] = {PyList_New(0), PyLong_FromLong(what)};
    if (state[0] == NULL || state[1] == NULL || trie_each(CTX(op)->vars, collect_entry, state) < 0) {
        Py_XDECREF(state[0]);
        Py_XDECREF(state[1]);
        return NULL;
    }
    Py_DECREF(state[1]);
    return state[0];
}

static PyObject *
context_keys(PyObject *op, PyObject *Py_UNUSED(ignored))
{
    return context_collect(op, 0);
}

static PyObject *
context_values(PyObject *op, PyObject *Py_UNUSED(ignored))
{
    return context_collect(op, 1);
}

static PyObject *
context_items(PyObject *op, PyObject *Py_UNUSED(ignored))
{
    return context_collect(op, 2);
}

static PyObject *
context_iter(PyObject *op)
{
    PyObject *keys = context_collect(op, 0);
    if (keys == NULL) {
        return NULL;
    }
    PyObject *it = PyObject_GetIter(keys);
    Py_DECREF(keys);
    return it;
}

/* Entry of one context present with an equal value in the other (arg). */
static int
entry_matches(PyObject *key, PyObject *value, void *arg)
{
    PyObject *theirs = trie_find(CTX(arg)->vars, key);
    if (theirs == NULL) {
        return 1;
    }
    int eq = PyObject_RichCompareBool(value, theirs, Py_EQ);
    return eq < 0 ? -1 : !eq;
}

static PyObject *
context_richcompare(PyObject *a, PyObject *b, int op)
{
    if (!PyContext_CheckExact(b) || (op != Py_EQ && op != Py_NE)) {
        Py_RETURN_NOTIMPLEMENTED;
    }
    int eq = 1;
    if (a != b && CTX(a)->vars != CTX(b)->vars) {
        if (CTX(a)->count != CTX(b)->count) {
            eq = 0;
        }
        else {
            int r = trie_each(CTX(a)->vars, entry_matches, b);
            if (r < 0) {
                return NULL;
            }
            eq = r == 0;
        }
    }
    return PyBool_FromLong(op == Py_EQ ? eq : !eq);
}

static PyMethodDef context_methods[] = {
    {"run", _PyCFunction_CAST(context_run), METH_FASTCALL | METH_KEYWORDS,
     "run(callable, *args, **kwargs): call it with this context as the current one."},
    {"copy", context_copy, METH_NOARGS, "A shallow copy of the context."},
    {"get", _PyCFunction_CAST(context_get), METH_FASTCALL,
     "get(var[, default]): the variable's value here, else default."},
    {"keys", context_keys, METH_NOARGS, "The variables set in the context."},
    {"values", context_values, METH_NOARGS, "Their values."},
    {"items", context_items, METH_NOARGS, "(variable, value) pairs."},
    {NULL, NULL, 0, NULL},
};

static PySequenceMethods context_as_sequence = {
    .sq_contains = context_contains,
};

static PyMappingMethods context_as_mapping = {
    .mp_length = context_length,
    .mp_subscript = context_subscript,
};

PyTypeObject PyContext_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "_contextvars.Context",
    .tp_basicsize = sizeof(ContextObject),
    .tp_dealloc = context_dealloc,
    .tp_as_sequence = &context_as_sequence,
    .tp_as_mapping = &context_as_mapping,
    .tp_hash = PyObject_HashNotImplemented,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "Context(): a mapping of context variables to their values.",
    .tp_traverse = context_traverse,
    .tp_clear = context_clear,
    .tp_richcompare = context_richcompare,
    .tp_weaklistoffset = offsetof(ContextObject, weakreflist),
    .tp_iter = context_iter,
    .tp_methods = context_methods,
    .tp_new = context_tp_new,
};

/* Ready the types and give Token its MISSING attribute; called by the
   _contextvars module init (Modules/_contextvarsmodule.c). */
int
_PyContext_InitTypes(void)
{
    if (PyContext_Type.tp_flags & Py_TPFLAGS_READY) {
        return 0;
    }
    PyTypeObject *types[] = {&TrieNode_Type, &Missing_Type, &PyContextVar_Type,
                             &PyContextToken_Type, &PyContext_Type};
    for (size_t i = 0; i < Py_ARRAY_LENGTH(types); i++) {
        if (_PyStaticType_InitBuiltin(types[i]) < 0) {
            return -1;
        }
    }
    missing_object = PyObject_New(PyObject, &Missing_Type);
    if (missing_object == NULL) {
        return -1;
    }
    _Py_SetImmortal(missing_object); /* like the types, it lives as long as the process */
    return PyDict_SetItemString(PyContextToken_Type.tp_dict, "MISSING", missing_object);
}
