/* Parser driver: entry points, the token buffer, memoisation and syntax
   error reporting.  The grammar itself is in Parser/parser.c. */

#include "Python.h"
#include "pycore_parser.h"
#include "pegen.h"

#include <stdarg.h>
#include <string.h>

#ifndef PyCF_IGNORE_COOKIE
#define PyCF_IGNORE_COOKIE 0x0800
#endif

/* ---------------------------------------------------------------------- */
/* Tokens                                                                  */

static const struct {
    const char *name;
    int kw;
} keywords[] = {
    {"False", KW_False}, {"None", KW_None}, {"True", KW_True},
    {"and", KW_and}, {"as", KW_as}, {"assert", KW_assert},
    {"async", KW_async}, {"await", KW_await}, {"break", KW_break},
    {"class", KW_class}, {"continue", KW_continue}, {"def", KW_def},
    {"del", KW_del}, {"elif", KW_elif}, {"else", KW_else},
    {"except", KW_except}, {"finally", KW_finally}, {"for", KW_for},
    {"from", KW_from}, {"global", KW_global}, {"if", KW_if},
    {"import", KW_import}, {"in", KW_in}, {"is", KW_is},
    {"lambda", KW_lambda}, {"nonlocal", KW_nonlocal}, {"not", KW_not},
    {"or", KW_or}, {"pass", KW_pass}, {"raise", KW_raise},
    {"return", KW_return}, {"try", KW_try}, {"while", KW_while},
    {"with", KW_with}, {"yield", KW_yield},
    {"match", KW_match}, {"case", KW_case}, {"type", KW_type},
    {"_", KW__},
    {NULL, 0}
};

static int
keyword_id(const char *s, Py_ssize_t n)
{
    int i;
    if (n < 1 || n > 8) {
        return KW_NONE;
    }
    for (i = 0; keywords[i].name != NULL; i++) {
        if ((Py_ssize_t)strlen(keywords[i].name) == n
            && memcmp(keywords[i].name, s, (size_t)n) == 0) {
            return keywords[i].kw;
        }
    }
    return KW_NONE;
}

/* Pull one more token from the tokenizer into p->tokens. */
static int
fill_token(Parser *p)
{
    _PyToken raw;
    Token *t;
    int type;

    if (p->fill == p->size) {
        int size = p->size ? p->size * 2 : 256;
        Token **nt = (Token **)PyMem_Realloc(p->tokens,
                                             (size_t)size * sizeof(Token *));
        if (nt == NULL) {
            PyErr_NoMemory();
            p->error_indicator = 1;
            return -1;
        }
        p->tokens = nt;
        p->size = size;
    }
    memset(&raw, 0, sizeof(raw));
    type = _PyTokenizer_Get(p->tok, &raw);
    if (type == ERRORTOKEN && PyErr_Occurred()) {
        p->error_indicator = 1;
        return -1;
    }
    t = (Token *)_PyArena_Malloc(p->arena, sizeof(Token));
    if (t == NULL) {
        p->error_indicator = 1;
        return -1;
    }
    t->type = type;
    t->kw = KW_NONE;
    t->start = raw.start;
    t->end = raw.end;
    t->lineno = raw.lineno;
    t->col_offset = raw.col_offset;
    t->end_lineno = raw.end_lineno;
    t->end_col_offset = raw.end_col_offset;
    t->level = raw.level;
    t->memo = NULL;
    if (type == NAME) {
        t->kw = keyword_id(p->tok->buf + t->start, t->end - t->start);
    }
    p->tokens[p->fill++] = t;
    return 0;
}

Token *
_PyPegen_peek(Parser *p)
{
    if (p->mark == p->fill) {
        /* Never read past the end of input. */
        if (p->fill > 0 && (p->tokens[p->fill - 1]->type == ENDMARKER
                            || p->tokens[p->fill - 1]->type == ERRORTOKEN)) {
            p->mark = p->fill - 1;
            return p->tokens[p->mark];
        }
        if (fill_token(p) < 0) {
            return NULL;
        }
    }
    return p->tokens[p->mark];
}

Token *
_PyPegen_peek_at(Parser *p, int offset)
{
    int save = p->mark, i;
    Token *t = NULL;
    for (i = 0; i <= offset; i++) {
        t = _PyPegen_peek(p);
        if (t == NULL) {
            p->mark = save;
            return NULL;
        }
        if (t->type == ENDMARKER || t->type == ERRORTOKEN) {
            break;
        }
        if (i < offset) {
            p->mark++;
        }
    }
    p->mark = save;
    return t;
}

Token *
_PyPegen_expect(Parser *p, int type)
{
    Token *t = _PyPegen_peek(p);
    if (t == NULL || t->type != type) {
        return NULL;
    }
    if (type == NAME && t->kw != KW_NONE && t->kw <= KW_HARD_LAST) {
        return NULL;
    }
    p->mark++;
    return t;
}

Token *
_PyPegen_expect_kw(Parser *p, int kw)
{
    Token *t = _PyPegen_peek(p);
    if (t == NULL || t->type != NAME || t->kw != kw) {
        return NULL;
    }
    p->mark++;
    return t;
}

Token *
_PyPegen_expect_soft(Parser *p, int kw)
{
    return _PyPegen_expect_kw(p, kw);
}

Token *
_PyPegen_last(Parser *p)
{
    return p->tokens[p->mark > 0 ? p->mark - 1 : 0];
}

PyObject *
_PyPegen_token_text(Parser *p, Token *t)
{
    return PyUnicode_DecodeUTF8(p->tok->buf + t->start, t->end - t->start,
                                NULL);
}

int
_PyPegen_add_object(Parser *p, PyObject *o)
{
    if (_PyArena_AddPyObject(p->arena, o) < 0) {
        Py_DECREF(o);
        p->error_indicator = 1;
        return -1;
    }
    return 0;
}

/* ---------------------------------------------------------------------- */
/* Memo                                                                    */

int
_PyPegen_is_memoized(Parser *p, int type, void *pres)
{
    Token *t = _PyPegen_peek(p);
    Memo *m;
    if (t == NULL) {
        *(void **)pres = NULL;
        return 1;
    }
    /* Results computed with and without the error rules differ. */
    type = type * 2 + (p->call_invalid_rules ? 1 : 0);
    for (m = t->memo; m != NULL; m = m->next) {
        if (m->type == type) {
            p->mark = m->mark;
            *(void **)pres = m->node;
            return 1;
        }
    }
    return 0;
}

int
_PyPegen_memoize(Parser *p, int mark, int type, void *node)
{
    Token *t = p->tokens[mark];
    Memo *m = (Memo *)_PyArena_Malloc(p->arena, sizeof(Memo));
    if (m == NULL) {
        p->error_indicator = 1;
        return -1;
    }
    m->type = type * 2 + (p->call_invalid_rules ? 1 : 0);
    m->node = node;
    m->mark = p->mark;
    m->next = t->memo;
    t->memo = m;
    return 0;
}

static void
clear_memos(Parser *p)
{
    int i;
    for (i = 0; i < p->fill; i++) {
        p->tokens[i]->memo = NULL;
    }
}

/* ---------------------------------------------------------------------- */
/* Growable pointer vectors                                                */

void
_PyPegen_vec_init(PtrVec *v)
{
    v->items = v->small;
    v->n = 0;
    v->cap = (Py_ssize_t)(sizeof(v->small) / sizeof(v->small[0]));
}

int
_PyPegen_vec_push(PtrVec *v, void *item)
{
    if (v->n == v->cap) {
        Py_ssize_t cap = v->cap * 2;
        void **ni;
        if (v->items == v->small) {
            ni = (void **)PyMem_Malloc((size_t)cap * sizeof(void *));
            if (ni != NULL) {
                memcpy(ni, v->small, sizeof(v->small));
            }
        }
        else {
            ni = (void **)PyMem_Realloc(v->items,
                                        (size_t)cap * sizeof(void *));
        }
        if (ni == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        v->items = ni;
        v->cap = cap;
    }
    v->items[v->n++] = item;
    return 0;
}

void
_PyPegen_vec_free(PtrVec *v)
{
    if (v->items != v->small) {
        PyMem_Free(v->items);
    }
    _PyPegen_vec_init(v);
}

void *
_PyPegen_vec_to_seq(Parser *p, PtrVec *v)
{
    asdl_generic_seq *seq = _PyPegen_seq_from_array(p, v->items, v->n);
    _PyPegen_vec_free(v);
    return seq;
}

/* ---------------------------------------------------------------------- */
/* Errors                                                                  */

static void *
raise_va(Parser *p, PyObject *exc, int lineno, int col, int end_lineno,
         int end_col, const char *fmt, va_list va)
{
    PyObject *msg, *text, *args;
    int offset, end_offset;

    p->error_indicator = 1;
    if (PyErr_Occurred()) {
        /* Keep the first error (e.g. one raised by the tokenizer). */
        return NULL;
    }
    msg = PyUnicode_FromFormatV(fmt, va);
    if (msg == NULL) {
        return NULL;
    }
    text = _PyTokenizer_LineText(p->tok, lineno);
    if (text == NULL) {
        Py_DECREF(msg);
        return NULL;
    }
    offset = col < 0 ? col : _PyTokenizer_CharOffset(p->tok, lineno, col);
    if (end_col == -2) {
        end_offset = 0;
    }
    else if (end_col < 0) {
        end_offset = -1;
    }
    else {
        end_offset = _PyTokenizer_CharOffset(p->tok, end_lineno, end_col);
    }
    args = Py_BuildValue("(O(OiiNii))", msg, p->tok->filename, lineno,
                         offset, text, end_lineno, end_offset);
    Py_DECREF(msg);
    if (args != NULL) {
        PyErr_SetObject(exc, args);
        Py_DECREF(args);
    }
    return NULL;
}

void *
_PyPegen_raise_error_known_location(Parser *p, PyObject *exc, int lineno,
                                    int col, int end_lineno, int end_col,
                                    const char *fmt, ...)
{
    va_list va;
    va_start(va, fmt);
    raise_va(p, exc, lineno, col, end_lineno, end_col, fmt, va);
    va_end(va);
    return NULL;
}

void *
_PyPegen_error_at_token(Parser *p, Token *t, const char *fmt, ...)
{
    va_list va;
    va_start(va, fmt);
    raise_va(p, PyExc_SyntaxError, t->lineno, t->col_offset, t->end_lineno,
             t->end_col_offset, fmt, va);
    va_end(va);
    return NULL;
}

void *
_PyPegen_error_at_node(Parser *p, expr_ty a, expr_ty b, const char *fmt, ...)
{
    va_list va;
    if (b == NULL) {
        b = a;
    }
    va_start(va, fmt);
    raise_va(p, PyExc_SyntaxError, a->lineno, a->col_offset, b->end_lineno,
             b->end_col_offset, fmt, va);
    va_end(va);
    return NULL;
}

/* Error located at the current token (use_mark) or the furthest token
   read so far. */
void *
_PyPegen_raise_error(Parser *p, PyObject *exc, int use_mark,
                     const char *fmt, ...)
{
    va_list va;
    Token *t;
    if (p->fill == 0) {
        va_start(va, fmt);
        raise_va(p, exc, 1, 0, 1, 0, fmt, va);
        va_end(va);
        return NULL;
    }
    t = p->tokens[use_mark && p->mark < p->fill ? p->mark : p->fill - 1];
    va_start(va, fmt);
    raise_va(p, exc, t->lineno, t->col_offset, t->end_lineno,
             t->end_col_offset, fmt, va);
    va_end(va);
    return NULL;
}

static void
raise_unclosed_bracket(Parser *p)
{
    struct tok_state *tok = p->tok;
    int i = tok->level - 1;
    _PyPegen_raise_error_known_location(
        p, PyExc_SyntaxError, tok->parenlinenostack[i],
        tok->parencolstack[i], tok->parenlinenostack[i], -2,
        "'%c' was never closed", tok->parenstack[i]);
}

/* If the rest of the input holds a tokenizer error, it is more useful
   than a generic "invalid syntax" earlier on: report that instead. */
static void
check_rest_of_source(Parser *p)
{
    PyObject *type, *value, *tb;
    _PyToken t;
    int r;

    if (p->fill > 0 && (p->tokens[p->fill - 1]->type == ENDMARKER
                        || p->tokens[p->fill - 1]->type == ERRORTOKEN)) {
        return;
    }
    PyErr_Fetch(&type, &value, &tb);
    for (;;) {
        r = _PyTokenizer_Get(p->tok, &t);
        if (r == ERRORTOKEN || r == ENDMARKER) {
            break;
        }
    }
    if (r == ERRORTOKEN && PyErr_Occurred()) {
        Py_XDECREF(type);
        Py_XDECREF(value);
        Py_XDECREF(tb);
    }
    else {
        PyErr_Restore(type, value, tb);
    }
}

void
_PyPegen_set_syntax_error(Parser *p)
{
    Token *last;
    if (PyErr_Occurred()) {
        return;
    }
    if (p->fill == 0) {
        _PyPegen_raise_error(p, PyExc_SyntaxError, 0,
                             "error at start before reading any input");
        return;
    }
    last = p->tokens[p->fill - 1];
    if (last->type == ERRORTOKEN && p->tok->done == E_EOF) {
        if (p->tok->level > 0) {
            raise_unclosed_bracket(p);
        }
        else {
            _PyPegen_raise_error(p, PyExc_SyntaxError, 0,
                                 "unexpected EOF while parsing");
        }
        return;
    }
    if (last->type == INDENT) {
        _PyPegen_raise_error_known_location(
            p, PyExc_IndentationError, last->lineno,
            last->end_col_offset > 0 ? last->end_col_offset - 1 : 0,
            last->lineno, -1, "unexpected indent");
        return;
    }
    if (last->type == DEDENT) {
        _PyPegen_raise_error_known_location(
            p, PyExc_IndentationError, last->lineno, last->col_offset,
            last->lineno, -1, "unexpected unindent");
        return;
    }
    _PyPegen_error_at_token(p, last, "invalid syntax");
    check_rest_of_source(p);
}

/* ---------------------------------------------------------------------- */
/* Incomplete input (PyCF_ALLOW_INCOMPLETE_INPUT)

   codeop and the interactive loops compile what has been typed so far
   and need to know whether more lines could still make it valid.  The
   input "ran out" when the failure happened at its end:

   - the tokenizer raised while reading past the end (an unterminated
     triple-quoted string, a backslash continuation at the end, an
     f-string still open);
   - the furthest token the grammar asked for is the ENDMARKER, a DEDENT
     made by the end of text, or the bracket-still-open marker the
     tokenizer returns at the end;
   - in 'single' mode, the furthest token sits on the newline the
     tokenizer added to text that did not end with one ("1 +");
   - in 'single' mode with PyCF_DONT_IMPLY_DEDENT, text without its
     final newline that parses as a compound statement: it waits for
     the empty line that ends it ("def f():\n  return 1", "if x: pass"),
     since an elif, else, except or another body line may follow.

   Such a failure is reported as _IncompleteInputError instead. */

static int
token_at_added_newline(Parser *p, Token *t)
{
    Py_ssize_t nl = p->tok->implicit_newline;
    return nl >= 0 && t->start >= nl;
}

static int
failure_ran_out(Parser *p, int first_fill, int raised_in_first_pass)
{
    Token *last;
    if (raised_in_first_pass) {
        return p->tok->hit_eof
               && (first_fill == 0
                   || p->tokens[first_fill - 1]->type != ENDMARKER);
    }
    if (first_fill == 0) {
        return 1;
    }
    last = p->tokens[first_fill - 1];
    if (last->type == ENDMARKER || last->start >= p->tok->len
        || (last->type == ERRORTOKEN && p->tok->done == E_EOF)) {
        return 1;
    }
    return p->start_rule == Py_single_input
           && token_at_added_newline(p, last);
}

static int
is_compound(stmt_ty st)
{
    switch (st->kind) {
    case If_kind: case For_kind: case AsyncFor_kind: case While_kind:
    case With_kind: case AsyncWith_kind: case FunctionDef_kind:
    case AsyncFunctionDef_kind: case ClassDef_kind: case Try_kind:
    case TryStar_kind: case Match_kind:
        return 1;
    default:
        return 0;
    }
}

static int
success_needs_more(Parser *p, mod_ty res)
{
    asdl_stmt_seq *body;
    Py_ssize_t n;
    if (p->start_rule != Py_single_input
        || !(p->flags & PyCF_DONT_IMPLY_DEDENT)
        || p->tok->implicit_newline < 0 || res->kind != Interactive_kind) {
        return 0;
    }
    /* A compound statement waits for its empty line: an else, elif,
       except or another indented line may still follow. */
    body = res->v.Interactive.body;
    n = asdl_seq_LEN(body);
    return n > 0 && is_compound((stmt_ty)asdl_seq_GET(body, n - 1));
}

static void
raise_incomplete(Parser *p)
{
    PyObject *exc = PyErr_GetRaisedException();
    Py_XDECREF(exc);
    _PyPegen_raise_error(p, PyExc__IncompleteInputError, 0,
                         "incomplete input");
}

/* ---------------------------------------------------------------------- */
/* Entry points                                                            */

static mod_ty
run_parser(struct tok_state *tok, int mode, PyCompilerFlags *flags,
           PyArena *arena)
{
    Parser parser;
    Parser *p = &parser;
    mod_ty res;
    int first_fill;

    memset(p, 0, sizeof(*p));
    p->tok = tok;
    p->arena = arena;
    p->start_rule = mode;
    if (flags != NULL) {
        p->flags = flags->cf_flags;
        p->feature_version = flags->cf_feature_version;
    }
    res = (mod_ty)_PyPegen_parse(p);
    first_fill = p->fill;
    if (p->flags & PyCF_ALLOW_INCOMPLETE_INPUT) {
        int ran_out = res != NULL ? success_needs_more(p, res)
                      : failure_ran_out(p, first_fill, PyErr_Occurred() != NULL);
        if (ran_out) {
            raise_incomplete(p);
            PyMem_Free(p->tokens);
            return NULL;
        }
    }
    if (res == NULL && !PyErr_Occurred()) {
        /* Second pass: enable the rules that diagnose specific errors. */
        clear_memos(p);
        p->mark = 0;
        p->level = 0;
        p->error_indicator = 0;
        p->call_invalid_rules = 1;
        (void)_PyPegen_parse(p);
        if (!PyErr_Occurred()) {
            p->fill = first_fill;
            _PyPegen_set_syntax_error(p);
        }
        res = NULL;
    }
    else if (res == NULL) {
        /* An error raised during the parse; make sure its kind is right
           for an unclosed bracket at end of input. */
    }
    PyMem_Free(p->tokens);
    return res;
}

static PyObject *
default_filename(PyObject *filename)
{
    if (filename != NULL) {
        Py_INCREF(filename);
        return filename;
    }
    return PyUnicode_FromString("<string>");
}

mod_ty
_PyParser_ASTFromString(const char *str, PyObject *filename, int mode,
                        PyCompilerFlags *flags, PyArena *arena)
{
    struct tok_state *tok;
    mod_ty res;
    PyObject *fn = default_filename(filename);
    int ignore_cookie = flags != NULL
                        && (flags->cf_flags & PyCF_IGNORE_COOKIE) != 0;
    if (fn == NULL) {
        return NULL;
    }
    tok = _PyTokenizer_FromString(str, ignore_cookie, fn);
    Py_DECREF(fn);
    if (tok == NULL) {
        return NULL;
    }
    res = run_parser(tok, mode, flags, arena);
    _PyTokenizer_Free(tok);
    return res;
}

mod_ty
_PyParser_ASTFromFile(FILE *fp, PyObject *filename, const char *enc,
                      int mode, const char *ps1, const char *ps2,
                      PyCompilerFlags *flags, int *errcode, PyArena *arena)
{
    struct tok_state *tok;
    mod_ty res;
    PyObject *fn = default_filename(filename);
    if (fn == NULL) {
        return NULL;
    }
    tok = _PyTokenizer_FromFile(fp, enc, ps1, ps2, fn);
    Py_DECREF(fn);
    if (tok == NULL) {
        if (errcode != NULL) {
            *errcode = E_ERROR;
        }
        return NULL;
    }
    res = run_parser(tok, mode, flags, arena);
    if (res == NULL && errcode != NULL) {
        /* Let an interactive loop tell "no more input" from an error. */
        *errcode = tok->done == E_EOF && tok->len == 0 ? E_EOF : E_ERROR;
    }
    _PyTokenizer_Free(tok);
    return res;
}
