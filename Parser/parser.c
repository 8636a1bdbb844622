/* The Python 3.14 grammar as a hand-written recursive-descent parser.

   Each rule is a function `static T rule(Parser *p)`.  On success it
   returns a node and leaves p->mark after the consumed tokens; on failure
   it returns NULL with p->mark restored (callers reset it anyway when they
   try another alternative).  If p->error_indicator is set an exception is
   pending and every caller returns NULL immediately.

   Positions follow CPython: a node spans from the start of its first token
   to the end of its last token, except where noted.

   Rules whose names start with `invalid_` only run in the second pass
   (p->call_invalid_rules) and exist to raise specific SyntaxErrors. */

#include "Python.h"
#include "pycore_parser.h"
#include "pegen.h"
#include "string_parser.h"

#include <string.h>

#ifndef Py_single_input
#define Py_single_input 256
#define Py_file_input 257
#define Py_eval_input 258
#endif
#ifndef Py_func_type_input
#define Py_func_type_input 345
#endif

/* Memo keys. */
enum {
    M_PRIMARY = 1, M_DISJUNCTION, M_STRINGS, M_TARGET_STAR_ATOM,
    M_SIMPLE_STMT, M_BLOCK, M_INVALID_NAMED, M_CLOSED_PATTERN,
    M_BITWISE_OR, M_STAR_EXPRESSION, M_EXPRESSION, M_ARGS_GENEXP
};

/* Kinds of target for error messages. */
enum { STAR_TARGETS, DEL_TARGETS, FOR_TARGETS };

#define ERR() (p->error_indicator)
#define PEEK() _PyPegen_peek(p)
#define EXPECT(t) _PyPegen_expect(p, (t))
#define KW(k) _PyPegen_expect_kw(p, (k))
#define LAST() _PyPegen_last(p)
#define START_POS(t) (t)->lineno, (t)->col_offset
/* Nodes end at the last token that is not NEWLINE/INDENT/DEDENT, so a
   compound statement ends with its last statement, not the line break. */
#define EXTRA_FROM(t) (t)->lineno, (t)->col_offset, \
                      last_nonws(p)->end_lineno, \
                      last_nonws(p)->end_col_offset, p->arena
#define NODE_POS(a, b) (a)->lineno, (a)->col_offset, (b)->end_lineno, \
                       (b)->end_col_offset, p->arena

static Token *
last_nonws(Parser *p)
{
    int i = p->mark - 1;
    while (i > 0 && ISWHITESPACE(p->tokens[i]->type)) {
        i--;
    }
    return p->tokens[i < 0 ? 0 : i];
}

/* Check the result of a node constructor. */
#define CHECK(x) check_node(p, (void *)(x))

static void *
check_node(Parser *p, void *node)
{
    if (node == NULL) {
        p->error_indicator = 1;
    }
    return node;
}

static void *
stack_overflow(Parser *p)
{
    p->error_indicator = 1;
    if (!PyErr_Occurred()) {
        PyErr_SetString(PyExc_RecursionError,
                        "Parser stack overflowed - Python source too "
                        "complex to parse");
    }
    return NULL;
}

#define ENTER() do { if (++p->level > MAXSTACK) { p->level--; \
                         return stack_overflow(p); } } while (0)
#define LEAVE(r) do { p->level--; return (r); } while (0)

static int
at_type(Parser *p, int type)
{
    Token *t = PEEK();
    return t != NULL && t->type == type;
}

static int
at_kw(Parser *p, int kw)
{
    Token *t = PEEK();
    return t != NULL && t->type == NAME && t->kw == kw;
}

static int
at_type_ahead(Parser *p, int offset, int type)
{
    Token *t = _PyPegen_peek_at(p, offset);
    return t != NULL && t->type == type;
}

/* Forward declarations. */
static expr_ty expression(Parser *p);
static expr_ty named_expression(Parser *p);
static expr_ty star_expressions(Parser *p);
static expr_ty star_expression(Parser *p);
static expr_ty star_named_expression(Parser *p);
static expr_ty disjunction(Parser *p);
static expr_ty bitwise_or(Parser *p);
static expr_ty primary(Parser *p);
static expr_ty yield_expr(Parser *p);
static expr_ty slices(Parser *p);
static expr_ty star_targets(Parser *p);
static expr_ty star_target(Parser *p);
static expr_ty del_target_fn(Parser *p);
static expr_ty strings(Parser *p);
static expr_ty lambdef(Parser *p);
static asdl_comprehension_seq *for_if_clauses(Parser *p);
static asdl_stmt_seq *block(Parser *p, const char *what, int lineno);
static asdl_stmt_seq *statements(Parser *p);
static arguments_ty params(Parser *p, int is_lambda);
static asdl_type_param_seq *type_params(Parser *p);
static int call_args(Parser *p, Token *open, asdl_expr_seq **args,
                     asdl_keyword_seq **kwargs);
static void invalid_named_expression(Parser *p);
static void invalid_expression(Parser *p);
static expr_ty annotated_rhs(Parser *p);

/* ---------------------------------------------------------------------- */
/* Small helpers                                                           */

static PyObject *
token_identifier(Parser *p, Token *t)
{
    return _PyPegen_new_identifier(p, p->tok->buf + t->start,
                                   t->end - t->start);
}

/* NAME that is not a hard keyword, as an identifier. */
static PyObject *
name_id(Parser *p, Token **out)
{
    Token *t = EXPECT(NAME);
    if (t == NULL) {
        return NULL;
    }
    if (out != NULL) {
        *out = t;
    }
    return token_identifier(p, t);
}

static expr_ty
name_expr(Parser *p, expr_context_ty ctx)
{
    Token *t;
    PyObject *id = name_id(p, &t);
    if (id == NULL) {
        return NULL;
    }
    return CHECK(_PyAST_Name(id, ctx, t->lineno, t->col_offset, t->end_lineno,
                             t->end_col_offset, p->arena));
}

static void *
vec_seq(Parser *p, PtrVec *v)
{
    void *s = _PyPegen_vec_to_seq(p, v);
    if (s == NULL) {
        p->error_indicator = 1;
    }
    return s;
}

static int
vec_push(Parser *p, PtrVec *v, void *x)
{
    if (_PyPegen_vec_push(v, x) < 0) {
        p->error_indicator = 1;
        return -1;
    }
    return 0;
}

static void *
empty_seq(Parser *p)
{
    return CHECK(_Py_asdl_generic_seq_new(0, p->arena));
}

static void *
singleton_seq(Parser *p, void *x)
{
    asdl_generic_seq *s = _Py_asdl_generic_seq_new(1, p->arena);
    if (s == NULL) {
        p->error_indicator = 1;
        return NULL;
    }
    s->typed_elements[0] = x;
    return s;
}

/* Is `e` (or something inside it) not assignable?  Returns the offending
   node or NULL. */
static expr_ty
invalid_target(expr_ty e, int kind)
{
    Py_ssize_t i;
    if (e == NULL) {
        return NULL;
    }
    switch (e->kind) {
    case List_kind:
    case Tuple_kind: {
        asdl_expr_seq *elts = e->kind == List_kind ? e->v.List.elts
                                                   : e->v.Tuple.elts;
        for (i = 0; i < asdl_seq_LEN(elts); i++) {
            expr_ty r = invalid_target(asdl_seq_GET(elts, i), kind);
            if (r != NULL) {
                return r;
            }
        }
        return NULL;
    }
    case Starred_kind:
        if (kind == DEL_TARGETS) {
            return e;
        }
        return invalid_target(e->v.Starred.value, kind);
    case Compare_kind:
        /* "for x in y" parsed as one comparison: blame the left side. */
        if (kind == FOR_TARGETS
            && asdl_seq_GET(e->v.Compare.ops, 0) == In) {
            return invalid_target(e->v.Compare.left, kind);
        }
        return e;
    case Name_kind:
    case Subscript_kind:
    case Attribute_kind:
        return NULL;
    default:
        return e;
    }
}

static void *
raise_invalid_target(Parser *p, int kind, expr_ty e)
{
    expr_ty bad = invalid_target(e, kind);
    if (bad == NULL) {
        return _PyPegen_raise_error(p, PyExc_SyntaxError, 0,
                                    "invalid syntax");
    }
    return _PyPegen_error_at_node(
        p, bad, bad, kind == DEL_TARGETS ? "cannot delete %s"
                                         : "cannot assign to %s",
        _PyPegen_expr_name(bad));
}

/* ':' that ends a compound statement header.  In the second pass a
   missing colon before the end of the line is reported. */
static Token *
expect_colon(Parser *p, int forced)
{
    Token *t = EXPECT(COLON);
    if (t != NULL || ERR()) {
        return t;
    }
    if (forced || (p->call_invalid_rules && at_type(p, NEWLINE))) {
        Token *cur = PEEK();
        if (cur != NULL) {
            _PyPegen_error_at_token(p, cur, "expected ':'");
        }
    }
    return NULL;
}

static arguments_ty
empty_arguments(Parser *p)
{
    asdl_arg_seq *a = _Py_asdl_arg_seq_new(0, p->arena);
    asdl_arg_seq *b = _Py_asdl_arg_seq_new(0, p->arena);
    asdl_arg_seq *c = _Py_asdl_arg_seq_new(0, p->arena);
    asdl_expr_seq *d = _Py_asdl_expr_seq_new(0, p->arena);
    asdl_expr_seq *e = _Py_asdl_expr_seq_new(0, p->arena);
    if (!a || !b || !c || !d || !e) {
        p->error_indicator = 1;
        return NULL;
    }
    return CHECK(_PyAST_arguments(a, b, NULL, c, d, NULL, e, p->arena));
}

/* ---------------------------------------------------------------------- */
/* Strings and f-strings                                                   */

static expr_ty fstring_replacement_field(Parser *p, int raw, int is_t);

/* Pieces of a format spec up to (not including) the closing '}'. */
static expr_ty
fstring_format_spec(Parser *p, Token *colon, int raw)
{
    PtrVec v;
    asdl_expr_seq *values;
    _PyPegen_vec_init(&v);
    for (;;) {
        Token *t = PEEK();
        expr_ty piece;
        if (t == NULL) {
            goto fail;
        }
        if (t->type == FSTRING_MIDDLE || t->type == TSTRING_MIDDLE) {
            p->mark++;
            piece = _PyPegen_fstring_middle(p, t, raw, 1);
        }
        else if (t->type == LBRACE) {
            /* Fields nested in a spec are formatted eagerly, even in a
               t-string: the Interpolation receives the finished spec. */
            piece = fstring_replacement_field(p, raw, 0);
            if (piece != NULL && piece->kind == JoinedStr_kind) {
                /* "{x=}" gives the debug text and the value */
                if (vec_push(p, &v, asdl_seq_GET(piece->v.JoinedStr.values,
                                                  0)) < 0) {
                    goto fail;
                }
                piece = asdl_seq_GET(piece->v.JoinedStr.values, 1);
            }
        }
        else {
            break;
        }
        if (piece == NULL || vec_push(p, &v, piece) < 0) {
            goto fail;
        }
    }
    values = _PyPegen_join_pieces(p, v.items, v.n);
    _PyPegen_vec_free(&v);
    if (values == NULL) {
        p->error_indicator = 1;
        return NULL;
    }
    return CHECK(_PyAST_JoinedStr(values, EXTRA_FROM(colon)));
fail:
    _PyPegen_vec_free(&v);
    return NULL;
}

static expr_ty
fstring_replacement_field(Parser *p, int raw, int is_t)
{
    Token *lbrace = EXPECT(LBRACE), *eq, *after, *rbrace;
    expr_ty value, spec = NULL, debug = NULL;
    int conversion = -1;
    const char *what = is_t ? "t-string" : "f-string";

    if (lbrace == NULL) {
        return NULL;
    }
    value = annotated_rhs(p);
    if (value == NULL) {
        if (!ERR() && p->call_invalid_rules) {
            Token *t = PEEK();
            if (t != NULL && (t->type == RBRACE || t->type == EXCLAMATION
                              || t->type == COLON || t->type == EQUAL)) {
                _PyPegen_error_at_token(
                    p, t, "%s: valid expression required before '%c'",
                    what, p->tok->buf[t->start]);
            }
        }
        return NULL;
    }
    eq = EXPECT(EQUAL);
    after = PEEK();
    if (after == NULL) {
        return NULL;
    }
    if (EXPECT(EXCLAMATION)) {
        Token *n = PEEK();
        if (n == NULL) {
            return NULL;
        }
        if (n->type != NAME || n->lineno != LAST()->end_lineno
            || n->col_offset != LAST()->end_col_offset) {
            if (p->call_invalid_rules) {
                _PyPegen_error_at_token(p, n, "%s: missing conversion "
                                        "character", what);
            }
            return NULL;
        }
        p->mark++;
        if (n->end - n->start == 1 && strchr("sra", p->tok->buf[n->start])) {
            conversion = (unsigned char)p->tok->buf[n->start];
        }
        else {
            PyObject *s = _PyPegen_token_text(p, n);
            if (s == NULL) {
                p->error_indicator = 1;
                return NULL;
            }
            _PyPegen_error_at_token(
                p, n, "%s: invalid conversion character %R: expected 's', "
                "'r', or 'a'", what, s);
            Py_DECREF(s);
            return NULL;
        }
    }
    {
        Token *colon = EXPECT(COLON);
        if (colon != NULL) {
            spec = fstring_format_spec(p, colon, raw);
            if (spec == NULL) {
                return NULL;
            }
        }
    }
    rbrace = EXPECT(RBRACE);
    if (rbrace == NULL) {
        if (p->call_invalid_rules && !ERR()) {
            Token *t = PEEK();
            if (t != NULL) {
                _PyPegen_error_at_token(p, t, "%s: expecting '}'", what);
            }
        }
        return NULL;
    }
    if (eq != NULL) {
        /* "{expr=}": the source text up to the next token is kept. */
        Py_ssize_t s = lbrace->end, e = after->start;
        PyObject *text = PyUnicode_DecodeUTF8(p->tok->buf + s, e - s, NULL);
        if (text == NULL || _PyPegen_add_object(p, text) < 0) {
            p->error_indicator = 1;
            return NULL;
        }
        debug = CHECK(_PyAST_Constant(text, NULL, lbrace->end_lineno,
                                      lbrace->end_col_offset, after->lineno,
                                      after->col_offset, p->arena));
        if (debug == NULL) {
            return NULL;
        }
        if (conversion == -1 && spec == NULL) {
            conversion = 'r';
        }
    }
    if (is_t) {
        Py_ssize_t s = lbrace->end, e = (eq ? eq : after)->start;
        PyObject *text;
        /* As in CPython 3.14, the text keeps the whitespace after '{' but
           not the whitespace before the closing '=', '!', ':' or '}'. */
        while (e > s && (p->tok->buf[e - 1] == ' '
                         || p->tok->buf[e - 1] == '\n')) {
            e--;
        }
        text = PyUnicode_DecodeUTF8(p->tok->buf + s, e - s, NULL);
        if (text == NULL || _PyPegen_add_object(p, text) < 0) {
            p->error_indicator = 1;
            return NULL;
        }
        value = CHECK(_PyAST_Interpolation(value, text, conversion, spec,
                                           EXTRA_FROM(lbrace)));
    }
    else {
        value = CHECK(_PyAST_FormattedValue(value, conversion, spec,
                                            EXTRA_FROM(lbrace)));
    }
    if (value == NULL) {
        return NULL;
    }
    if (debug != NULL) {
        /* Both nodes are returned through a two-element JoinedStr that
           the caller flattens. */
        asdl_expr_seq *pair = _Py_asdl_expr_seq_new(2, p->arena);
        if (pair == NULL) {
            p->error_indicator = 1;
            return NULL;
        }
        asdl_seq_SET(pair, 0, debug);
        asdl_seq_SET(pair, 1, value);
        return CHECK(_PyAST_JoinedStr(pair, NODE_POS(value, value)));
    }
    return value;
}

/* FSTRING_START (pieces) FSTRING_END */
static int
fstring(Parser *p, StringPart *part)
{
    Token *start = PEEK(), *end;
    const char *s;
    int raw = 0, is_t = start->type == TSTRING_START;
    int mid = is_t ? TSTRING_MIDDLE : FSTRING_MIDDLE;
    PtrVec v;

    p->mark++;
    for (s = p->tok->buf + start->start; *s != '\'' && *s != '"'; s++) {
        if (*s == 'r' || *s == 'R') {
            raw = 1;
        }
    }
    _PyPegen_vec_init(&v);
    for (;;) {
        Token *t = PEEK();
        expr_ty piece;
        if (t == NULL) {
            goto fail;
        }
        if (t->type == mid) {
            p->mark++;
            piece = _PyPegen_fstring_middle(p, t, raw, 0);
            if (piece == NULL || vec_push(p, &v, piece) < 0) {
                goto fail;
            }
        }
        else if (t->type == LBRACE) {
            piece = fstring_replacement_field(p, raw, is_t);
            if (piece == NULL) {
                goto fail;
            }
            if (piece->kind == JoinedStr_kind) {
                /* debug text + value */
                if (vec_push(p, &v, asdl_seq_GET(piece->v.JoinedStr.values,
                                                  0)) < 0
                    || vec_push(p, &v, asdl_seq_GET(
                                    piece->v.JoinedStr.values, 1)) < 0) {
                    goto fail;
                }
            }
            else if (vec_push(p, &v, piece) < 0) {
                goto fail;
            }
        }
        else {
            break;
        }
    }
    end = EXPECT(is_t ? TSTRING_END : FSTRING_END);
    if (end == NULL) {
        if (p->call_invalid_rules && !ERR()) {
            Token *t = PEEK();
            if (t != NULL) {
                _PyPegen_error_at_token(p, t, "%s: expecting '}'",
                                        is_t ? "t-string" : "f-string");
            }
        }
        goto fail;
    }
    part->first = start;
    part->last = end;
    part->kind = is_t ? STRPART_TSTRING : STRPART_FSTRING;
    part->values = (asdl_expr_seq *)vec_seq(p, &v);
    return part->values != NULL ? 0 : -1;
fail:
    _PyPegen_vec_free(&v);
    return -1;
}

static expr_ty
strings_raw(Parser *p)
{
    StringPart small[8];
    StringPart *parts = small;
    Py_ssize_t n = 0, cap = 8;
    expr_ty res = NULL;

    for (;;) {
        Token *t = PEEK();
        if (t == NULL) {
            goto done;
        }
        if (t->type != STRING && t->type != FSTRING_START
            && t->type != TSTRING_START) {
            break;
        }
        if (n == cap) {
            StringPart *np;
            cap *= 2;
            if (parts == small) {
                np = (StringPart *)PyMem_Malloc(cap * sizeof(StringPart));
                if (np != NULL) {
                    memcpy(np, small, sizeof(small));
                }
            }
            else {
                np = (StringPart *)PyMem_Realloc(parts,
                                                 cap * sizeof(StringPart));
            }
            if (np == NULL) {
                PyErr_NoMemory();
                p->error_indicator = 1;
                goto done;
            }
            parts = np;
        }
        if (t->type == STRING) {
            p->mark++;
            parts[n].first = parts[n].last = t;
            parts[n].kind = _PyPegen_string_part_kind(p, t);
            parts[n].values = NULL;
        }
        else if (fstring(p, &parts[n]) < 0) {
            goto done;
        }
        n++;
    }
    if (n > 0) {
        res = _PyPegen_concatenate_strings(p, parts, n);
    }
done:
    if (parts != small) {
        PyMem_Free(parts);
    }
    return res;
}

static expr_ty
strings(Parser *p)
{
    int mark = p->mark;
    expr_ty res;
    if (_PyPegen_is_memoized(p, M_STRINGS, &res)) {
        return res;
    }
    res = strings_raw(p);
    if (ERR()) {
        return NULL;
    }
    if (res == NULL) {
        p->mark = mark;
    }
    _PyPegen_memoize(p, mark, M_STRINGS, res);
    return res;
}

/* ---------------------------------------------------------------------- */
/* Atoms and displays                                                      */

/* Comma-separated star_named_expressions after a first element, up to
   (not including) the closing bracket.  A trailing comma is allowed. */
static int
more_star_named(Parser *p, PtrVec *v)
{
    while (EXPECT(COMMA)) {
        int mark = p->mark;
        expr_ty e = star_named_expression(p);
        if (e == NULL) {
            if (ERR()) {
                return -1;
            }
            p->mark = mark;
            break;
        }
        if (vec_push(p, v, e) < 0) {
            return -1;
        }
    }
    return 0;
}

static void *
invalid_comprehension_starred(Parser *p, expr_ty e)
{
    if (p->call_invalid_rules) {
        return _PyPegen_error_at_node(
            p, e, e, "iterable unpacking cannot be used in comprehension");
    }
    return NULL;
}

/* '(' ... ')' : tuple, parenthesized expression or generator. */
static expr_ty
paren_atom(Parser *p)
{
    Token *open = EXPECT(LPAR);
    expr_ty first;
    PtrVec v;
    int mark;

    if (EXPECT(RPAR)) {
        asdl_expr_seq *empty = empty_seq(p);
        return empty ? CHECK(_PyAST_Tuple(empty, Load, EXTRA_FROM(open)))
                     : NULL;
    }
    mark = p->mark;
    if (at_kw(p, KW_yield)) {
        first = yield_expr(p);
        if (first == NULL) {
            return NULL;
        }
        if (EXPECT(RPAR)) {
            return first;
        }
        return NULL;
    }
    first = star_named_expression(p);
    if (first == NULL) {
        return NULL;
    }
    if (EXPECT(RPAR)) {
        if (first->kind == Starred_kind) {
            if (p->call_invalid_rules) {
                return _PyPegen_error_at_node(
                    p, first, first, "cannot use starred expression here");
            }
            return NULL;
        }
        return first;
    }
    if (at_kw(p, KW_for) || at_kw(p, KW_async)) {
        asdl_comprehension_seq *gens;
        if (first->kind == Starred_kind) {
            return invalid_comprehension_starred(p, first);
        }
        gens = for_if_clauses(p);
        if (gens == NULL || !EXPECT(RPAR)) {
            return NULL;
        }
        return CHECK(_PyAST_GeneratorExp(first, gens, EXTRA_FROM(open)));
    }
    if (!at_type(p, COMMA)) {
        (void)mark;
        return NULL;
    }
    _PyPegen_vec_init(&v);
    if (vec_push(p, &v, first) < 0 || more_star_named(p, &v) < 0
        || !EXPECT(RPAR)) {
        _PyPegen_vec_free(&v);
        return NULL;
    }
    {
        asdl_expr_seq *elts = vec_seq(p, &v);
        return elts ? CHECK(_PyAST_Tuple(elts, Load, EXTRA_FROM(open)))
                    : NULL;
    }
}

static expr_ty
list_atom(Parser *p)
{
    Token *open = EXPECT(LSQB);
    expr_ty first;
    PtrVec v;

    if (EXPECT(RSQB)) {
        asdl_expr_seq *empty = empty_seq(p);
        return empty ? CHECK(_PyAST_List(empty, Load, EXTRA_FROM(open)))
                     : NULL;
    }
    first = star_named_expression(p);
    if (first == NULL) {
        return NULL;
    }
    if (at_kw(p, KW_for) || at_kw(p, KW_async)) {
        asdl_comprehension_seq *gens;
        if (first->kind == Starred_kind) {
            return invalid_comprehension_starred(p, first);
        }
        gens = for_if_clauses(p);
        if (gens == NULL || !EXPECT(RSQB)) {
            return NULL;
        }
        return CHECK(_PyAST_ListComp(first, gens, EXTRA_FROM(open)));
    }
    _PyPegen_vec_init(&v);
    if (vec_push(p, &v, first) < 0 || more_star_named(p, &v) < 0
        || !EXPECT(RSQB)) {
        _PyPegen_vec_free(&v);
        return NULL;
    }
    {
        asdl_expr_seq *elts = vec_seq(p, &v);
        return elts ? CHECK(_PyAST_List(elts, Load, EXTRA_FROM(open))) : NULL;
    }
}

/* '**' bitwise_or | expression ':' expression; key is NULL for '**'. */
static int
dict_item(Parser *p, expr_ty *key, expr_ty *value)
{
    int mark = p->mark;
    if (EXPECT(DOUBLESTAR)) {
        *key = NULL;
        *value = bitwise_or(p);
        return *value != NULL ? 0 : -1;
    }
    *key = expression(p);
    if (*key == NULL || !EXPECT(COLON)) {
        p->mark = mark;
        return -1;
    }
    *value = expression(p);
    if (*value == NULL) {
        p->mark = mark;
        return -1;
    }
    return 0;
}

static expr_ty
dict_or_set_atom(Parser *p)
{
    Token *open = EXPECT(LBRACE);
    int mark = p->mark;
    expr_ty key, value, first;
    PtrVec keys, values;

    if (EXPECT(RBRACE)) {
        asdl_expr_seq *k = empty_seq(p), *vv = empty_seq(p);
        return k && vv ? CHECK(_PyAST_Dict(k, vv, EXTRA_FROM(open))) : NULL;
    }
    if (dict_item(p, &key, &value) == 0) {
        if (key != NULL && (at_kw(p, KW_for) || at_kw(p, KW_async))) {
            asdl_comprehension_seq *gens = for_if_clauses(p);
            if (gens == NULL || !EXPECT(RBRACE)) {
                return NULL;
            }
            return CHECK(_PyAST_DictComp(key, value, gens,
                                         EXTRA_FROM(open)));
        }
        _PyPegen_vec_init(&keys);
        _PyPegen_vec_init(&values);
        if (vec_push(p, &keys, key) < 0 || vec_push(p, &values, value) < 0) {
            goto dict_fail;
        }
        while (EXPECT(COMMA)) {
            int m = p->mark;
            if (dict_item(p, &key, &value) < 0) {
                if (ERR()) {
                    goto dict_fail;
                }
                p->mark = m;
                break;
            }
            if (vec_push(p, &keys, key) < 0
                || vec_push(p, &values, value) < 0) {
                goto dict_fail;
            }
        }
        if (!EXPECT(RBRACE)) {
            if (p->call_invalid_rules && !ERR()) {
                Token *t = PEEK();
                if (t != NULL && t->type == COLON && keys.n > 0) {
                    /* e.g. {a: b: c} */
                }
            }
            goto dict_fail;
        }
        {
            asdl_expr_seq *k = vec_seq(p, &keys);
            asdl_expr_seq *vv = vec_seq(p, &values);
            if (k == NULL || vv == NULL) {
                return NULL;
            }
            return CHECK(_PyAST_Dict(k, vv, EXTRA_FROM(open)));
        }
dict_fail:
        _PyPegen_vec_free(&keys);
        _PyPegen_vec_free(&values);
        if (ERR()) {
            return NULL;
        }
    }
    if (ERR()) {
        return NULL;
    }
    p->mark = mark;
    first = star_named_expression(p);
    if (first == NULL) {
        return NULL;
    }
    if (at_kw(p, KW_for) || at_kw(p, KW_async)) {
        asdl_comprehension_seq *gens;
        if (first->kind == Starred_kind) {
            return invalid_comprehension_starred(p, first);
        }
        gens = for_if_clauses(p);
        if (gens == NULL || !EXPECT(RBRACE)) {
            return NULL;
        }
        return CHECK(_PyAST_SetComp(first, gens, EXTRA_FROM(open)));
    }
    _PyPegen_vec_init(&values);
    if (vec_push(p, &values, first) < 0 || more_star_named(p, &values) < 0
        || !EXPECT(RBRACE)) {
        _PyPegen_vec_free(&values);
        return NULL;
    }
    {
        asdl_expr_seq *elts = vec_seq(p, &values);
        return elts ? CHECK(_PyAST_Set(elts, EXTRA_FROM(open))) : NULL;
    }
}

static expr_ty
atom(Parser *p)
{
    Token *t = PEEK();
    int mark = p->mark;
    expr_ty res;
    if (t == NULL) {
        return NULL;
    }
    switch (t->type) {
    case NAME:
        switch (t->kw) {
        case KW_True:
            p->mark++;
            return CHECK(_PyAST_Constant(Py_True, NULL, EXTRA_FROM(t)));
        case KW_False:
            p->mark++;
            return CHECK(_PyAST_Constant(Py_False, NULL, EXTRA_FROM(t)));
        case KW_None:
            p->mark++;
            return CHECK(_PyAST_Constant(Py_None, NULL, EXTRA_FROM(t)));
        }
        return name_expr(p, Load);
    case NUMBER:
        p->mark++;
        return _PyPegen_number(p, t);
    case STRING:
    case FSTRING_START:
    case TSTRING_START:
        return strings(p);
    case LPAR:
        ENTER();
        res = paren_atom(p);
        break;
    case LSQB:
        ENTER();
        res = list_atom(p);
        break;
    case LBRACE:
        ENTER();
        res = dict_or_set_atom(p);
        break;
    case ELLIPSIS:
        p->mark++;
        return CHECK(_PyAST_Constant(Py_Ellipsis, NULL, EXTRA_FROM(t)));
    default:
        return NULL;
    }
    p->level--;
    if (res == NULL) {
        p->mark = mark;
    }
    return res;
}

/* ---------------------------------------------------------------------- */
/* Primaries: calls, attributes, subscripts                                */

/* slice: [expression] ':' [expression] [':' [expression]] | named_expr */
static expr_ty
slice_item(Parser *p)
{
    Token *start = PEEK();
    int mark = p->mark;
    expr_ty lower = NULL, upper = NULL, step = NULL;

    if (start == NULL) {
        return NULL;
    }
    if (!at_type(p, COLON)) {
        lower = expression(p);
        if (lower == NULL && ERR()) {
            return NULL;
        }
    }
    if (EXPECT(COLON)) {
        if (!at_type(p, COLON) && !at_type(p, RSQB) && !at_type(p, COMMA)) {
            upper = expression(p);
            if (upper == NULL && ERR()) {
                return NULL;
            }
        }
        if (EXPECT(COLON)) {
            if (!at_type(p, RSQB) && !at_type(p, COMMA)) {
                step = expression(p);
                if (step == NULL && ERR()) {
                    return NULL;
                }
            }
        }
        return CHECK(_PyAST_Slice(lower, upper, step, EXTRA_FROM(start)));
    }
    p->mark = mark;
    if (at_type(p, STAR)) {
        Token *star = EXPECT(STAR);
        expr_ty e = bitwise_or(p);
        if (e == NULL) {
            p->mark = mark;
            return NULL;
        }
        return CHECK(_PyAST_Starred(e, Load, EXTRA_FROM(star)));
    }
    return named_expression(p);
}

static expr_ty
slices(Parser *p)
{
    Token *start = PEEK();
    expr_ty first = slice_item(p);
    PtrVec v;
    asdl_expr_seq *elts;

    if (first == NULL) {
        return NULL;
    }
    if (!at_type(p, COMMA) && first->kind != Starred_kind) {
        return first;
    }
    _PyPegen_vec_init(&v);
    if (vec_push(p, &v, first) < 0) {
        return NULL;
    }
    while (EXPECT(COMMA)) {
        int mark = p->mark;
        expr_ty e;
        if (at_type(p, RSQB)) {
            break;
        }
        e = slice_item(p);
        if (e == NULL) {
            if (ERR()) {
                _PyPegen_vec_free(&v);
                return NULL;
            }
            p->mark = mark;
            break;
        }
        if (vec_push(p, &v, e) < 0) {
            return NULL;
        }
    }
    elts = vec_seq(p, &v);
    return elts ? CHECK(_PyAST_Tuple(elts, Load, EXTRA_FROM(start))) : NULL;
}

/* '(' genexp-body ')' directly after a callee: f(x for x in y). */
static expr_ty assignment_expression(Parser *p);

static expr_ty
call_genexp(Parser *p)
{
    Token *open = EXPECT(LPAR);
    int mark = p->mark;
    expr_ty elt;
    asdl_comprehension_seq *gens;

    (void)mark;
    elt = assignment_expression(p);
    if (elt == NULL && !ERR()) {
        p->mark = mark;
        elt = expression(p);
        if (elt != NULL && at_type(p, COLONEQUAL)) {
            elt = NULL;
        }
    }
    if (elt == NULL || !(at_kw(p, KW_for) || at_kw(p, KW_async))) {
        return NULL;
    }
    gens = for_if_clauses(p);
    if (gens == NULL || !EXPECT(RPAR)) {
        return NULL;
    }
    return CHECK(_PyAST_GeneratorExp(elt, gens, EXTRA_FROM(open)));
}

static expr_ty
primary_raw(Parser *p)
{
    Token *start = PEEK();
    expr_ty a = atom(p);
    if (a == NULL) {
        return NULL;
    }
    for (;;) {
        Token *t = PEEK();
        int mark = p->mark;
        if (t == NULL) {
            return NULL;
        }
        if (t->type == DOT) {
            PyObject *attr;
            p->mark++;
            attr = name_id(p, NULL);
            if (attr == NULL) {
                p->mark = mark;
                break;
            }
            a = CHECK(_PyAST_Attribute(a, attr, Load, EXTRA_FROM(start)));
        }
        else if (t->type == LPAR) {
            expr_ty g = call_genexp(p);
            if (g != NULL) {
                asdl_expr_seq *args = singleton_seq(p, g);
                asdl_keyword_seq *kw = empty_seq(p);
                if (args == NULL || kw == NULL) {
                    return NULL;
                }
                a = CHECK(_PyAST_Call(a, args, kw, EXTRA_FROM(start)));
            }
            else {
                asdl_expr_seq *args;
                asdl_keyword_seq *kwargs;
                if (ERR()) {
                    return NULL;
                }
                p->mark = mark + 1;
                if (call_args(p, t, &args, &kwargs) < 0) {
                    p->mark = mark;
                    break;
                }
                a = CHECK(_PyAST_Call(a, args, kwargs, EXTRA_FROM(start)));
            }
        }
        else if (t->type == LSQB) {
            expr_ty s;
            p->mark++;
            s = slices(p);
            if (s == NULL || !EXPECT(RSQB)) {
                if (ERR()) {
                    return NULL;
                }
                p->mark = mark;
                break;
            }
            a = CHECK(_PyAST_Subscript(a, s, Load, EXTRA_FROM(start)));
        }
        else {
            break;
        }
        if (a == NULL) {
            return NULL;
        }
    }
    return a;
}

static expr_ty
primary(Parser *p)
{
    int mark = p->mark;
    expr_ty res;
    if (_PyPegen_is_memoized(p, M_PRIMARY, &res)) {
        return res;
    }
    ENTER();
    res = primary_raw(p);
    p->level--;
    if (ERR()) {
        return NULL;
    }
    if (res == NULL) {
        p->mark = mark;
    }
    _PyPegen_memoize(p, mark, M_PRIMARY, res);
    return res;
}

/* ---------------------------------------------------------------------- */
/* Call arguments                                                          */

static int
is_kwarg_start(Parser *p)
{
    Token *t = PEEK();
    Token *n;
    if (t == NULL || t->type != NAME || (t->kw && t->kw <= KW_HARD_LAST)) {
        return 0;
    }
    n = _PyPegen_peek_at(p, 1);
    return n != NULL && n->type == EQUAL;
}

/* Arguments of a call or class bases after '(' up to and including ')'.
   Returns 0 on success, -1 on failure. */
static int
call_args(Parser *p, Token *open, asdl_expr_seq **pargs,
          asdl_keyword_seq **pkw)
{
    PtrVec args, kws;
    int seen_kw = 0, seen_dstar = 0;
    expr_ty gen_elt = NULL;

    (void)open;
    _PyPegen_vec_init(&args);
    _PyPegen_vec_init(&kws);
    while (!at_type(p, RPAR)) {
        Token *t = PEEK();
        if (t == NULL) {
            goto fail;
        }
        if (t->type == STAR) {
            expr_ty e;
            p->mark++;
            e = expression(p);
            if (e == NULL) {
                goto fail;
            }
            if (seen_dstar) {
                if (p->call_invalid_rules) {
                    _PyPegen_error_at_node(p, e, e, "iterable argument "
                                           "unpacking follows keyword "
                                           "argument unpacking");
                }
                goto fail;
            }
            e = CHECK(_PyAST_Starred(e, Load, EXTRA_FROM(t)));
            if (e == NULL || vec_push(p, &args, e) < 0) {
                goto fail;
            }
        }
        else if (t->type == DOUBLESTAR) {
            expr_ty e;
            keyword_ty k;
            p->mark++;
            e = expression(p);
            if (e == NULL) {
                goto fail;
            }
            k = CHECK(_PyAST_keyword(NULL, e, EXTRA_FROM(t)));
            if (k == NULL || vec_push(p, &kws, k) < 0) {
                goto fail;
            }
            seen_dstar = 1;
        }
        else if (is_kwarg_start(p)) {
            PyObject *id = name_id(p, NULL);
            expr_ty e;
            keyword_ty k;
            if (id == NULL) {
                goto fail;
            }
            p->mark++;  /* '=' */
            e = expression(p);
            if (e == NULL) {
                if (p->call_invalid_rules && !ERR()) {
                    Token *c = PEEK();
                    if (c != NULL && (c->type == COMMA || c->type == RPAR)) {
                        _PyPegen_raise_error_known_location(
                            p, PyExc_SyntaxError, t->lineno, t->col_offset,
                            LAST()->end_lineno, LAST()->end_col_offset,
                            "expected argument value expression");
                    }
                }
                goto fail;
            }
            k = CHECK(_PyAST_keyword(id, e, EXTRA_FROM(t)));
            if (k == NULL || vec_push(p, &kws, k) < 0) {
                goto fail;
            }
            seen_kw = 1;
        }
        else {
            expr_ty e = named_expression(p);
            if (e == NULL) {
                goto fail;
            }
            if (at_kw(p, KW_for) || at_kw(p, KW_async)) {
                /* A generator expression that is not the sole argument. */
                asdl_comprehension_seq *gens = for_if_clauses(p);
                if (gens == NULL) {
                    goto fail;
                }
                gen_elt = e;
                if (p->call_invalid_rules) {
                    _PyPegen_raise_error_known_location(
                        p, PyExc_SyntaxError, e->lineno, e->col_offset,
                        LAST()->end_lineno, LAST()->end_col_offset,
                        "Generator expression must be parenthesized");
                }
                goto fail;
            }
            if (at_type(p, EQUAL) && p->call_invalid_rules) {
                Token *eq = PEEK();
                _PyPegen_raise_error_known_location(
                    p, PyExc_SyntaxError, e->lineno, e->col_offset,
                    eq->end_lineno, eq->end_col_offset,
                    "expression cannot contain assignment, perhaps you "
                    "meant \"==\"?");
                goto fail;
            }
            if ((seen_kw || seen_dstar) && p->call_invalid_rules) {
                /* CPython points at the token after the argument. */
                Token *after = PEEK();
                if (after != NULL) {
                    _PyPegen_error_at_token(
                        p, after, seen_dstar ? "positional argument follows "
                        "keyword argument unpacking" : "positional argument "
                        "follows keyword argument");
                }
                goto fail;
            }
            if (seen_kw || seen_dstar) {
                goto fail;
            }
            if (vec_push(p, &args, e) < 0) {
                goto fail;
            }
        }
        if (!EXPECT(COMMA)) {
            break;
        }
    }
    (void)gen_elt;
    if (!EXPECT(RPAR)) {
        goto fail;
    }
    *pargs = (asdl_expr_seq *)vec_seq(p, &args);
    *pkw = (asdl_keyword_seq *)vec_seq(p, &kws);
    if (*pargs == NULL || *pkw == NULL) {
        return -1;
    }
    return 0;
fail:
    _PyPegen_vec_free(&args);
    _PyPegen_vec_free(&kws);
    return -1;
}

/* ---------------------------------------------------------------------- */
/* Operators                                                               */

static expr_ty
await_primary(Parser *p)
{
    Token *t = PEEK();
    if (t != NULL && t->type == NAME && t->kw == KW_await) {
        expr_ty e;
        p->mark++;
        e = primary(p);
        if (e == NULL) {
            p->mark--;
            return NULL;
        }
        return CHECK(_PyAST_Await(e, EXTRA_FROM(t)));
    }
    return primary(p);
}

static expr_ty factor(Parser *p);

static expr_ty
power(Parser *p)
{
    Token *start = PEEK();
    expr_ty a = await_primary(p);
    int mark = p->mark;
    if (a == NULL) {
        return NULL;
    }
    if (EXPECT(DOUBLESTAR)) {
        expr_ty b = factor(p);
        if (b == NULL) {
            if (ERR()) {
                return NULL;
            }
            p->mark = mark;
            return a;
        }
        return CHECK(_PyAST_BinOp(a, Pow, b, EXTRA_FROM(start)));
    }
    return a;
}

static expr_ty
factor(Parser *p)
{
    Token *t = PEEK();
    unaryop_ty op;
    expr_ty e;
    if (t == NULL) {
        return NULL;
    }
    switch (t->type) {
    case PLUS: op = UAdd; break;
    case MINUS: op = USub; break;
    case TILDE: op = Invert; break;
    default:
        return power(p);
    }
    ENTER();
    p->mark++;
    e = factor(p);
    if (e == NULL) {
        p->mark--;
        LEAVE(NULL);
    }
    LEAVE(CHECK(_PyAST_UnaryOp(op, e, EXTRA_FROM(t))));
}

/* Binary operator of the given precedence level at the current token. */
static int
binop_at(Parser *p, int level, operator_ty *op)
{
    Token *t = PEEK();
    if (t == NULL) {
        return 0;
    }
    switch (level) {
    case 0:
        switch (t->type) {
        case STAR: *op = Mult; return 1;
        case SLASH: *op = Div; return 1;
        case DOUBLESLASH: *op = FloorDiv; return 1;
        case PERCENT: *op = Mod; return 1;
        case AT: *op = MatMult; return 1;
        }
        return 0;
    case 1:
        if (t->type == PLUS) { *op = Add; return 1; }
        if (t->type == MINUS) { *op = Sub; return 1; }
        return 0;
    case 2:
        if (t->type == LEFTSHIFT) { *op = LShift; return 1; }
        if (t->type == RIGHTSHIFT) { *op = RShift; return 1; }
        return 0;
    case 3:
        if (t->type == AMPER) { *op = BitAnd; return 1; }
        return 0;
    case 4:
        if (t->type == CIRCUMFLEX) { *op = BitXor; return 1; }
        return 0;
    case 5:
        if (t->type == VBAR) { *op = BitOr; return 1; }
        return 0;
    }
    return 0;
}

/* Left-associative binary operators, level 0 (term) to 5 (bitwise or). */
static expr_ty
binary(Parser *p, int level)
{
    Token *start = PEEK();
    expr_ty a = level == 0 ? factor(p) : binary(p, level - 1);
    operator_ty op;
    if (a == NULL) {
        return NULL;
    }
    while (binop_at(p, level, &op)) {
        int mark = p->mark;
        expr_ty b;
        p->mark++;
        b = level == 0 ? factor(p) : binary(p, level - 1);
        if (b == NULL) {
            if (ERR()) {
                return NULL;
            }
            p->mark = mark;
            break;
        }
        a = CHECK(_PyAST_BinOp(a, op, b, EXTRA_FROM(start)));
        if (a == NULL) {
            return NULL;
        }
    }
    return a;
}

static expr_ty
bitwise_or(Parser *p)
{
    int mark = p->mark;
    expr_ty res;
    if (_PyPegen_is_memoized(p, M_BITWISE_OR, &res)) {
        return res;
    }
    res = binary(p, 5);
    if (ERR()) {
        return NULL;
    }
    if (res == NULL) {
        p->mark = mark;
    }
    _PyPegen_memoize(p, mark, M_BITWISE_OR, res);
    return res;
}

/* Comparison operator at the current token; consumes it. */
static int
compare_op(Parser *p, cmpop_ty *op)
{
    Token *t = PEEK();
    if (t == NULL) {
        return 0;
    }
    switch (t->type) {
    case EQEQUAL: *op = Eq; break;
    case NOTEQUAL:
        /* "<>" is only accepted with the Barry-as-FLUFL future. */
        if (p->tok->buf[t->start] == '<') {
            return 0;
        }
        *op = NotEq;
        break;
    case LESSEQUAL: *op = LtE; break;
    case LESS: *op = Lt; break;
    case GREATEREQUAL: *op = GtE; break;
    case GREATER: *op = Gt; break;
    case NAME:
        if (t->kw == KW_in) {
            *op = In;
            break;
        }
        if (t->kw == KW_not && at_type_ahead(p, 1, NAME)
            && _PyPegen_peek_at(p, 1)->kw == KW_in) {
            p->mark++;
            *op = NotIn;
            break;
        }
        if (t->kw == KW_is) {
            Token *n = _PyPegen_peek_at(p, 1);
            if (n != NULL && n->type == NAME && n->kw == KW_not) {
                p->mark++;
                *op = IsNot;
            }
            else {
                *op = Is;
            }
            break;
        }
        return 0;
    default:
        return 0;
    }
    p->mark++;
    return 1;
}

static expr_ty
comparison(Parser *p)
{
    Token *start = PEEK();
    expr_ty a = bitwise_or(p);
    PtrVec ops, vals;
    cmpop_ty op;
    asdl_int_seq *opseq;
    asdl_expr_seq *valseq;
    Py_ssize_t i;

    if (a == NULL) {
        return NULL;
    }
    _PyPegen_vec_init(&ops);
    _PyPegen_vec_init(&vals);
    for (;;) {
        int mark = p->mark;
        expr_ty b;
        if (!compare_op(p, &op)) {
            break;
        }
        b = bitwise_or(p);
        if (b == NULL) {
            if (ERR()) {
                goto fail;
            }
            p->mark = mark;
            break;
        }
        if (vec_push(p, &ops, (void *)(Py_ssize_t)op) < 0
            || vec_push(p, &vals, b) < 0) {
            goto fail;
        }
    }
    if (ops.n == 0) {
        return a;
    }
    opseq = _Py_asdl_int_seq_new(ops.n, p->arena);
    if (opseq == NULL) {
        p->error_indicator = 1;
        goto fail;
    }
    for (i = 0; i < ops.n; i++) {
        asdl_seq_SET(opseq, i, (int)(Py_ssize_t)ops.items[i]);
    }
    _PyPegen_vec_free(&ops);
    valseq = vec_seq(p, &vals);
    if (valseq == NULL) {
        return NULL;
    }
    return CHECK(_PyAST_Compare(a, opseq, valseq, EXTRA_FROM(start)));
fail:
    _PyPegen_vec_free(&ops);
    _PyPegen_vec_free(&vals);
    return NULL;
}

static expr_ty
inversion(Parser *p)
{
    Token *t = PEEK();
    expr_ty e;
    if (t != NULL && t->type == NAME && t->kw == KW_not) {
        ENTER();
        p->mark++;
        e = inversion(p);
        if (e == NULL) {
            p->mark--;
            LEAVE(NULL);
        }
        LEAVE(CHECK(_PyAST_UnaryOp(Not, e, EXTRA_FROM(t))));
    }
    return comparison(p);
}

/* conjunction (level 0, 'and') and disjunction (level 1, 'or'). */
static expr_ty
boolop(Parser *p, int is_or)
{
    Token *start = PEEK();
    expr_ty a = is_or ? boolop(p, 0) : inversion(p);
    PtrVec v;
    asdl_expr_seq *values;

    if (a == NULL) {
        return NULL;
    }
    if (!at_kw(p, is_or ? KW_or : KW_and)) {
        return a;
    }
    _PyPegen_vec_init(&v);
    if (vec_push(p, &v, a) < 0) {
        return NULL;
    }
    while (at_kw(p, is_or ? KW_or : KW_and)) {
        int mark = p->mark;
        expr_ty b;
        p->mark++;
        b = is_or ? boolop(p, 0) : inversion(p);
        if (b == NULL) {
            if (ERR()) {
                _PyPegen_vec_free(&v);
                return NULL;
            }
            p->mark = mark;
            break;
        }
        if (vec_push(p, &v, b) < 0) {
            return NULL;
        }
    }
    if (v.n == 1) {
        _PyPegen_vec_free(&v);
        return a;
    }
    values = vec_seq(p, &v);
    if (values == NULL) {
        return NULL;
    }
    return CHECK(_PyAST_BoolOp(is_or ? Or : And, values, EXTRA_FROM(start)));
}

static expr_ty
disjunction(Parser *p)
{
    int mark = p->mark;
    expr_ty res;
    if (_PyPegen_is_memoized(p, M_DISJUNCTION, &res)) {
        return res;
    }
    ENTER();
    res = boolop(p, 1);
    p->level--;
    if (ERR()) {
        return NULL;
    }
    if (res == NULL) {
        p->mark = mark;
    }
    _PyPegen_memoize(p, mark, M_DISJUNCTION, res);
    return res;
}

static expr_ty
expression_raw(Parser *p)
{
    Token *start = PEEK();
    expr_ty a, b, c;
    int mark;

    if (start == NULL) {
        return NULL;
    }
    if (p->call_invalid_rules) {
        invalid_expression(p);
        if (ERR()) {
            return NULL;
        }
    }
    if (start->type == NAME && start->kw == KW_lambda) {
        return lambdef(p);
    }
    a = disjunction(p);
    if (a == NULL) {
        return NULL;
    }
    mark = p->mark;
    if (KW(KW_if)) {
        b = disjunction(p);
        if (b != NULL && KW(KW_else)) {
            c = expression(p);
            if (c != NULL) {
                return CHECK(_PyAST_IfExp(b, a, c, EXTRA_FROM(start)));
            }
        }
        if (ERR()) {
            return NULL;
        }
        p->mark = mark;
    }
    return a;
}

static expr_ty
expression(Parser *p)
{
    int mark = p->mark;
    expr_ty res;
    if (_PyPegen_is_memoized(p, M_EXPRESSION, &res)) {
        return res;
    }
    ENTER();
    res = expression_raw(p);
    p->level--;
    if (ERR()) {
        return NULL;
    }
    if (res == NULL) {
        p->mark = mark;
    }
    _PyPegen_memoize(p, mark, M_EXPRESSION, res);
    return res;
}

/* NAME ':=' expression */
static expr_ty
assignment_expression(Parser *p)
{
    Token *t = PEEK();
    int mark = p->mark;
    expr_ty target, value;
    if (t == NULL || t->type != NAME || !at_type_ahead(p, 1, COLONEQUAL)) {
        return NULL;
    }
    target = name_expr(p, Store);
    if (target == NULL) {
        p->mark = mark;
        return NULL;
    }
    p->mark++;
    value = expression(p);
    if (value == NULL) {
        if (!ERR()) {
            p->mark = mark;
        }
        return NULL;
    }
    return CHECK(_PyAST_NamedExpr(target, value, EXTRA_FROM(t)));
}

static expr_ty
named_expression(Parser *p)
{
    int mark = p->mark;
    expr_ty e = assignment_expression(p);
    if (e != NULL || ERR()) {
        return e;
    }
    p->mark = mark;
    if (p->call_invalid_rules) {
        invalid_named_expression(p);
        if (ERR()) {
            return NULL;
        }
    }
    e = expression(p);
    if (e == NULL) {
        return NULL;
    }
    if (at_type(p, COLONEQUAL)) {
        p->mark = mark;
        return NULL;
    }
    return e;
}

static expr_ty
star_expression(Parser *p)
{
    Token *t = PEEK();
    if (t != NULL && t->type == STAR) {
        expr_ty e;
        p->mark++;
        e = bitwise_or(p);
        if (e == NULL) {
            p->mark--;
            return NULL;
        }
        return CHECK(_PyAST_Starred(e, Load, EXTRA_FROM(t)));
    }
    return expression(p);
}

static expr_ty
star_named_expression(Parser *p)
{
    Token *t = PEEK();
    if (t != NULL && t->type == STAR) {
        expr_ty e;
        p->mark++;
        e = bitwise_or(p);
        if (e == NULL) {
            p->mark--;
            return NULL;
        }
        return CHECK(_PyAST_Starred(e, Load, EXTRA_FROM(t)));
    }
    return named_expression(p);
}

/* item (',' item)* [','] -> item or Tuple; item_fn parses one item. */
static expr_ty
tuple_of(Parser *p, expr_ty (*item_fn)(Parser *))
{
    Token *start = PEEK();
    expr_ty first = item_fn(p);
    PtrVec v;
    asdl_expr_seq *elts;

    if (first == NULL) {
        return NULL;
    }
    if (!at_type(p, COMMA)) {
        return first;
    }
    _PyPegen_vec_init(&v);
    if (vec_push(p, &v, first) < 0) {
        return NULL;
    }
    while (EXPECT(COMMA)) {
        int mark = p->mark;
        expr_ty e = item_fn(p);
        if (e == NULL) {
            if (ERR()) {
                _PyPegen_vec_free(&v);
                return NULL;
            }
            p->mark = mark;
            break;
        }
        if (vec_push(p, &v, e) < 0) {
            return NULL;
        }
    }
    elts = vec_seq(p, &v);
    return elts ? CHECK(_PyAST_Tuple(elts, Load, EXTRA_FROM(start))) : NULL;
}

static expr_ty
star_expressions(Parser *p)
{
    return tuple_of(p, star_expression);
}

static expr_ty
expressions(Parser *p)
{
    return tuple_of(p, expression);
}

static expr_ty
yield_expr(Parser *p)
{
    Token *t = KW(KW_yield);
    expr_ty e = NULL;
    if (t == NULL) {
        return NULL;
    }
    if (KW(KW_from)) {
        e = expression(p);
        if (e == NULL) {
            p->mark--;
            p->mark--;
            return NULL;
        }
        return CHECK(_PyAST_YieldFrom(e, EXTRA_FROM(t)));
    }
    {
        int mark = p->mark;
        e = star_expressions(p);
        if (e == NULL) {
            if (ERR()) {
                return NULL;
            }
            p->mark = mark;
        }
    }
    return CHECK(_PyAST_Yield(e, EXTRA_FROM(t)));
}

/* yield_expr | star_expressions */
static expr_ty
annotated_rhs(Parser *p)
{
    if (at_kw(p, KW_yield)) {
        return yield_expr(p);
    }
    return star_expressions(p);
}

static expr_ty
lambdef(Parser *p)
{
    Token *t = KW(KW_lambda);
    arguments_ty args;
    expr_ty body;
    if (t == NULL) {
        return NULL;
    }
    if (at_type(p, COLON)) {
        args = empty_arguments(p);
    }
    else {
        args = params(p, 1);
    }
    if (args == NULL) {
        return NULL;
    }
    if (!EXPECT(COLON)) {
        return NULL;
    }
    body = expression(p);
    if (body == NULL) {
        return NULL;
    }
    return CHECK(_PyAST_Lambda(args, body, EXTRA_FROM(t)));
}

/* ('async'? 'for' star_targets 'in' disjunction ('if' disjunction)*)+ */
static asdl_comprehension_seq *
for_if_clauses(Parser *p)
{
    PtrVec v;
    _PyPegen_vec_init(&v);
    for (;;) {
        int mark = p->mark, is_async = 0;
        expr_ty target, iter;
        PtrVec ifs;
        asdl_expr_seq *ifseq;
        comprehension_ty c;

        if (KW(KW_async)) {
            is_async = 1;
        }
        if (!KW(KW_for)) {
            p->mark = mark;
            break;
        }
        target = star_targets(p);
        if (target == NULL || !KW(KW_in)) {
            if (!ERR() && p->call_invalid_rules) {
                int m2 = p->mark;
                expr_ty bad;
                p->mark = mark + 1 + is_async;
                bad = star_expressions(p);
                if (bad != NULL && invalid_target(bad, FOR_TARGETS)) {
                    raise_invalid_target(p, FOR_TARGETS, bad);
                }
                if (!ERR()) {
                    p->mark = m2;
                }
            }
            goto fail;
        }
        iter = disjunction(p);
        if (iter == NULL) {
            goto fail;
        }
        _PyPegen_vec_init(&ifs);
        while (at_kw(p, KW_if)) {
            int m = p->mark;
            expr_ty cond;
            p->mark++;
            cond = disjunction(p);
            if (cond == NULL) {
                if (ERR()) {
                    _PyPegen_vec_free(&ifs);
                    goto fail;
                }
                p->mark = m;
                break;
            }
            if (vec_push(p, &ifs, cond) < 0) {
                goto fail;
            }
        }
        ifseq = vec_seq(p, &ifs);
        if (ifseq == NULL) {
            goto fail;
        }
        c = CHECK(_PyAST_comprehension(target, iter, ifseq, is_async,
                                       p->arena));
        if (c == NULL || vec_push(p, &v, c) < 0) {
            goto fail;
        }
    }
    if (v.n == 0) {
        return NULL;
    }
    return (asdl_comprehension_seq *)vec_seq(p, &v);
fail:
    _PyPegen_vec_free(&v);
    return NULL;
}

/* ---------------------------------------------------------------------- */
/* Assignment and deletion targets                                         */

static int
at_t_lookahead(Parser *p)
{
    Token *t = PEEK();
    return t != NULL && (t->type == LPAR || t->type == LSQB
                         || t->type == DOT);
}

/* A primary that is an attribute or subscript, converted to ctx. */
static expr_ty
subscript_attribute_target(Parser *p, expr_context_ty ctx, int allow_name)
{
    int mark = p->mark;
    expr_ty e = primary(p);
    if (e == NULL) {
        return NULL;
    }
    if (e->kind == Attribute_kind || e->kind == Subscript_kind
        || (allow_name && e->kind == Name_kind)) {
        /* primary() only returns a Name for a bare NAME or "(NAME)". */
        return _PyPegen_set_expr_context(p, e, ctx);
    }
    p->mark = mark;
    return NULL;
}

/* star_atom: '(' target ')' | '(' [tuple-seq] ')' | '[' [list-seq] ']' */
static expr_ty
star_atom_brackets(Parser *p, expr_context_ty ctx)
{
    Token *open = PEEK();
    int close = open->type == LPAR ? RPAR : RSQB;
    PtrVec v;
    expr_ty first;
    asdl_expr_seq *elts;

    p->mark++;
    _PyPegen_vec_init(&v);
    if (!EXPECT(close)) {
        first = ctx == Del ? del_target_fn(p) : star_target(p);
        if (first == NULL) {
            return NULL;
        }
        if (close == RPAR && EXPECT(RPAR)) {
            if (first->kind == Starred_kind) {
                return NULL;
            }
            return first;  /* a parenthesized single target */
        }
        if (vec_push(p, &v, first) < 0) {
            return NULL;
        }
        if (close == RPAR && !at_type(p, COMMA)) {
            _PyPegen_vec_free(&v);
            return NULL;
        }
        while (EXPECT(COMMA)) {
            int mark = p->mark;
            expr_ty e;
            if (at_type(p, close)) {
                break;
            }
            e = ctx == Del ? del_target_fn(p) : star_target(p);
            if (e == NULL) {
                if (ERR()) {
                    _PyPegen_vec_free(&v);
                    return NULL;
                }
                p->mark = mark;
                break;
            }
            if (vec_push(p, &v, e) < 0) {
                return NULL;
            }
        }
        if (!EXPECT(close)) {
            _PyPegen_vec_free(&v);
            return NULL;
        }
    }
    elts = vec_seq(p, &v);
    if (elts == NULL) {
        return NULL;
    }
    if (close == RPAR) {
        return CHECK(_PyAST_Tuple(elts, ctx, EXTRA_FROM(open)));
    }
    return CHECK(_PyAST_List(elts, ctx, EXTRA_FROM(open)));
}

static expr_ty
target_with_star_atom_raw(Parser *p)
{
    int mark = p->mark;
    Token *t = PEEK();
    if (t == NULL) {
        return NULL;
    }
    if (t->type == LPAR || t->type == LSQB) {
        expr_ty e = star_atom_brackets(p, Store);
        if (e != NULL && !at_t_lookahead(p)) {
            return e;
        }
        if (ERR()) {
            return NULL;
        }
        p->mark = mark;
    }
    return subscript_attribute_target(p, Store, 1);
}

static expr_ty
target_with_star_atom(Parser *p)
{
    int mark = p->mark;
    expr_ty res;
    if (_PyPegen_is_memoized(p, M_TARGET_STAR_ATOM, &res)) {
        return res;
    }
    ENTER();
    res = target_with_star_atom_raw(p);
    p->level--;
    if (ERR()) {
        return NULL;
    }
    if (res == NULL) {
        p->mark = mark;
    }
    _PyPegen_memoize(p, mark, M_TARGET_STAR_ATOM, res);
    return res;
}

static expr_ty
star_target(Parser *p)
{
    Token *t = PEEK();
    if (t != NULL && t->type == STAR) {
        expr_ty e;
        p->mark++;
        if (at_type(p, STAR)) {
            p->mark--;
            return NULL;
        }
        ENTER();
        e = star_target(p);
        p->level--;
        if (e == NULL) {
            p->mark--;
            return NULL;
        }
        return CHECK(_PyAST_Starred(e, Store, EXTRA_FROM(t)));
    }
    return target_with_star_atom(p);
}

static expr_ty
star_targets(Parser *p)
{
    Token *start = PEEK();
    expr_ty first = star_target(p);
    PtrVec v;
    asdl_expr_seq *elts;

    if (first == NULL) {
        return NULL;
    }
    if (!at_type(p, COMMA)) {
        return first;
    }
    _PyPegen_vec_init(&v);
    if (vec_push(p, &v, first) < 0) {
        return NULL;
    }
    while (EXPECT(COMMA)) {
        int mark = p->mark;
        expr_ty e = star_target(p);
        if (e == NULL) {
            if (ERR()) {
                _PyPegen_vec_free(&v);
                return NULL;
            }
            p->mark = mark;
            break;
        }
        if (vec_push(p, &v, e) < 0) {
            return NULL;
        }
    }
    elts = vec_seq(p, &v);
    return elts ? CHECK(_PyAST_Tuple(elts, Store, EXTRA_FROM(start))) : NULL;
}

/* single_target: attribute/subscript | NAME | '(' single_target ')' */
static expr_ty
single_target(Parser *p)
{
    int mark = p->mark;
    Token *t = PEEK();
    expr_ty e;
    if (t == NULL) {
        return NULL;
    }
    e = subscript_attribute_target(p, Store, 0);
    if (e != NULL || ERR()) {
        return e;
    }
    p->mark = mark;
    if (t->type == NAME) {
        return name_expr(p, Store);
    }
    if (t->type == LPAR) {
        p->mark++;
        ENTER();
        e = single_target(p);
        p->level--;
        if (e != NULL && EXPECT(RPAR)) {
            return e;
        }
        p->mark = mark;
    }
    return NULL;
}

static expr_ty
del_target_fn(Parser *p)
{
    int mark = p->mark;
    Token *t = PEEK();
    expr_ty e;
    if (t == NULL) {
        return NULL;
    }
    if (t->type == LPAR || t->type == LSQB) {
        ENTER();
        e = star_atom_brackets(p, Del);
        p->level--;
        if (e != NULL && !at_t_lookahead(p)) {
            return e;
        }
        if (ERR()) {
            return NULL;
        }
        p->mark = mark;
    }
    return subscript_attribute_target(p, Del, 1);
}

/* ','.del_target+ [','] */
static asdl_expr_seq *
del_targets(Parser *p)
{
    PtrVec v;
    expr_ty e = del_target_fn(p);
    if (e == NULL) {
        return NULL;
    }
    _PyPegen_vec_init(&v);
    if (vec_push(p, &v, e) < 0) {
        return NULL;
    }
    while (EXPECT(COMMA)) {
        int mark = p->mark;
        e = del_target_fn(p);
        if (e == NULL) {
            if (ERR()) {
                _PyPegen_vec_free(&v);
                return NULL;
            }
            p->mark = mark;
            break;
        }
        if (vec_push(p, &v, e) < 0) {
            return NULL;
        }
    }
    return (asdl_expr_seq *)vec_seq(p, &v);
}

/* ---------------------------------------------------------------------- */
/* Error rules for expressions (second pass only)                          */

static int
is_legacy_print(Parser *p, expr_ty e)
{
    const char *s;
    if (e->kind != Name_kind) {
        return 0;
    }
    s = PyUnicode_AsUTF8(e->v.Name.id);
    if (s == NULL) {
        PyErr_Clear();
        return 0;
    }
    return strcmp(s, "print") == 0 || strcmp(s, "exec") == 0;
}

static void
invalid_expression(Parser *p)
{
    int mark = p->mark;
    Token *t = PEEK();
    expr_ty a, b;

    if (t == NULL) {
        return;
    }
    /* NAME STRING and soft keywords are valid in some places. */
    if (!(t->type == NAME && (at_type_ahead(p, 1, STRING)
                              || at_type_ahead(p, 1, FSTRING_START)
                              || t->kw >= KW_match))) {
        a = disjunction(p);
        if (a != NULL) {
            Token *n = PEEK();
            int inner = p->mark;
            int ok = n != NULL && !(n->type == NAME && n->kw != KW_NONE
                                    && n->kw <= KW_HARD_LAST
                                    && n->kw != KW_not && n->kw != KW_lambda
                                    && n->kw != KW_await && n->kw != KW_None
                                    && n->kw != KW_True
                                    && n->kw != KW_False);
            if (ok) {
                int save = p->call_invalid_rules;
                p->call_invalid_rules = 0;
                b = expression(p);
                p->call_invalid_rules = save;
                if (b != NULL && !is_legacy_print(p, a)
                    && p->tokens[p->mark - 1]->level != 0) {
                    _PyPegen_error_at_node(p, a, b, "invalid syntax. "
                                           "Perhaps you forgot a comma?");
                    return;
                }
                if (ERR()) {
                    return;
                }
            }
            p->mark = inner;
            if (KW(KW_if)) {
                b = disjunction(p);
                if (b != NULL && !at_kw(p, KW_else) && !at_type(p, COLON)) {
                    _PyPegen_error_at_node(p, a, b, "expected 'else' after "
                                           "'if' expression");
                    return;
                }
            }
        }
        if (ERR()) {
            return;
        }
        p->mark = mark;
    }
    /* print "x" */
    if (t->type == NAME && !at_type_ahead(p, 1, LPAR)) {
        a = name_expr(p, Load);
        if (a != NULL && is_legacy_print(p, a)) {
            int save = p->call_invalid_rules;
            p->call_invalid_rules = 0;
            b = star_expressions(p);
            p->call_invalid_rules = save;
            if (b != NULL) {
                _PyPegen_error_at_node(
                    p, a, b, "Missing parentheses in call to '%U'. Did you "
                    "mean %U(...)?", a->v.Name.id, a->v.Name.id);
                return;
            }
        }
        if (ERR()) {
            return;
        }
    }
    p->mark = mark;
}

static void
invalid_named_expression(Parser *p)
{
    int mark = p->mark;
    Token *t = PEEK();
    expr_ty a, b;
    int save = p->call_invalid_rules;
    void *memo;

    if (t == NULL) {
        return;
    }
    if (_PyPegen_is_memoized(p, M_INVALID_NAMED, &memo)) {
        p->mark = mark;
        return;
    }
    p->call_invalid_rules = 0;
    /* expression ':=' expression */
    a = expression(p);
    if (a != NULL && at_type(p, COLONEQUAL)) {
        p->mark++;
        b = expression(p);
        if (b != NULL) {
            p->call_invalid_rules = save;
            _PyPegen_error_at_node(p, a, a, "cannot use assignment "
                                   "expressions with %s",
                                   _PyPegen_expr_name(a));
            return;
        }
    }
    p->mark = mark;
    /* NAME '=' bitwise_or !('='|':=') */
    if (t->type == NAME && at_type_ahead(p, 1, EQUAL)) {
        a = name_expr(p, Load);
        if (a != NULL) {
            p->mark++;
            b = bitwise_or(p);
            if (b != NULL && !at_type(p, EQUAL) && !at_type(p, COLONEQUAL)) {
                p->call_invalid_rules = save;
                _PyPegen_error_at_node(p, a, b, "invalid syntax. Maybe you "
                                       "meant '==' or ':=' instead of '='?");
                return;
            }
        }
        p->mark = mark;
    }
    /* !(list|tuple|genexp|True|None|False) bitwise_or '=' bitwise_or */
    if (!(t->type == LSQB || t->type == LPAR
          || (t->type == NAME && (t->kw == KW_True || t->kw == KW_None
                                  || t->kw == KW_False)))) {
        a = bitwise_or(p);
        if (a != NULL && EXPECT(EQUAL)) {
            b = bitwise_or(p);
            if (b != NULL && !at_type(p, EQUAL) && !at_type(p, COLONEQUAL)) {
                p->call_invalid_rules = save;
                _PyPegen_error_at_node(p, a, a, "cannot assign to %s here. "
                                       "Maybe you meant '==' instead of '='?",
                                       _PyPegen_expr_name(a));
                return;
            }
        }
    }
    p->call_invalid_rules = save;
    p->mark = mark;
    if (!ERR()) {
        _PyPegen_memoize(p, mark, M_INVALID_NAMED, NULL);
        p->mark = mark;
    }
}

/* ---------------------------------------------------------------------- */
/* Simple statements                                                       */

static int
augassign_op(Parser *p, operator_ty *op)
{
    Token *t = PEEK();
    if (t == NULL) {
        return 0;
    }
    switch (t->type) {
    case PLUSEQUAL: *op = Add; break;
    case MINEQUAL: *op = Sub; break;
    case STAREQUAL: *op = Mult; break;
    case ATEQUAL: *op = MatMult; break;
    case SLASHEQUAL: *op = Div; break;
    case PERCENTEQUAL: *op = Mod; break;
    case AMPEREQUAL: *op = BitAnd; break;
    case VBAREQUAL: *op = BitOr; break;
    case CIRCUMFLEXEQUAL: *op = BitXor; break;
    case LEFTSHIFTEQUAL: *op = LShift; break;
    case RIGHTSHIFTEQUAL: *op = RShift; break;
    case DOUBLESTAREQUAL: *op = Pow; break;
    case DOUBLESLASHEQUAL: *op = FloorDiv; break;
    default:
        return 0;
    }
    p->mark++;
    return 1;
}

static void
invalid_assignment(Parser *p)
{
    int mark = p->mark;
    expr_ty a;
    operator_ty op;

    /* Annotation of a tuple/list, or of something that is no target. */
    a = star_named_expression(p);
    if (ERR()) {
        return;
    }
    if (a != NULL) {
        if (at_type(p, COMMA)) {
            int m = p->mark;
            PtrVec v;
            _PyPegen_vec_init(&v);
            (void)more_star_named(p, &v);
            _PyPegen_vec_free(&v);
            if (ERR()) {
                return;
            }
            if (EXPECT(COLON) && expression(p) != NULL) {
                _PyPegen_error_at_node(p, a, a, "only single target (not "
                                       "tuple) can be annotated");
                return;
            }
            p->mark = m;
        }
        else if (at_type(p, COLON)) {
            p->mark++;
            if (expression(p) != NULL) {
                if (a->kind == List_kind || a->kind == Tuple_kind) {
                    _PyPegen_error_at_node(p, a, a, "only single target (not "
                                           "%s) can be annotated",
                                           a->kind == List_kind ? "list"
                                                                : "tuple");
                }
                else {
                    _PyPegen_error_at_node(p, a, a, "illegal target for "
                                           "annotation");
                }
                return;
            }
        }
        if (ERR()) {
            return;
        }
    }
    p->mark = mark;
    /* (star_targets '=')* (star_expressions | yield_expr) '=' */
    for (;;) {
        int m = p->mark;
        expr_ty t = star_targets(p);
        if (t != NULL && EXPECT(EQUAL)) {
            continue;
        }
        if (ERR()) {
            return;
        }
        p->mark = m;
        if (at_kw(p, KW_yield)) {
            a = yield_expr(p);
            if (a != NULL && at_type(p, EQUAL)) {
                _PyPegen_error_at_node(p, a, a, "assignment to yield "
                                       "expression not possible");
                return;
            }
        }
        else {
            a = star_expressions(p);
            if (a != NULL && at_type(p, EQUAL)) {
                raise_invalid_target(p, STAR_TARGETS, a);
                return;
            }
        }
        break;
    }
    if (ERR()) {
        return;
    }
    p->mark = mark;
    a = star_expressions(p);
    if (a != NULL && augassign_op(p, &op)) {
        if (annotated_rhs(p) != NULL) {
            _PyPegen_error_at_node(p, a, a, "'%s' is an illegal expression "
                                   "for augmented assignment",
                                   _PyPegen_expr_name(a));
            return;
        }
    }
    if (!ERR()) {
        p->mark = mark;
    }
}

static stmt_ty
ann_assign_rest(Parser *p, Token *start, expr_ty target, int simple)
{
    expr_ty ann, value = NULL;
    if (!EXPECT(COLON)) {
        return NULL;
    }
    ann = expression(p);
    if (ann == NULL) {
        return NULL;
    }
    if (EXPECT(EQUAL)) {
        value = annotated_rhs(p);
        if (value == NULL) {
            return NULL;
        }
    }
    return CHECK(_PyAST_AnnAssign(target, ann, value, simple,
                                  EXTRA_FROM(start)));
}

static stmt_ty
assignment(Parser *p)
{
    Token *start = PEEK();
    int mark = p->mark;
    expr_ty target, value;
    stmt_ty s;
    operator_ty op;
    PtrVec targets;

    if (start == NULL) {
        return NULL;
    }
    /* NAME ':' expression ['=' annotated_rhs] */
    if (start->type == NAME && at_type_ahead(p, 1, COLON)) {
        target = name_expr(p, Store);
        if (target != NULL) {
            s = ann_assign_rest(p, start, target, 1);
            if (s != NULL || ERR()) {
                return s;
            }
        }
        if (ERR()) {
            return NULL;
        }
        p->mark = mark;
    }
    /* ('(' single_target ')' | subscript/attribute) ':' ... */
    if (start->type == LPAR) {
        p->mark++;
        target = single_target(p);
        if (target != NULL && EXPECT(RPAR) && at_type(p, COLON)) {
            s = ann_assign_rest(p, start, target, 0);
            if (s != NULL || ERR()) {
                return s;
            }
        }
        if (ERR()) {
            return NULL;
        }
        p->mark = mark;
    }
    target = subscript_attribute_target(p, Store, 0);
    if (target != NULL && at_type(p, COLON)) {
        s = ann_assign_rest(p, start, target, 0);
        if (s != NULL || ERR()) {
            return s;
        }
    }
    if (ERR()) {
        return NULL;
    }
    p->mark = mark;
    /* (star_targets '=')+ (yield_expr | star_expressions) !'=' */
    _PyPegen_vec_init(&targets);
    for (;;) {
        int m = p->mark;
        expr_ty t = star_targets(p);
        if (t == NULL || !EXPECT(EQUAL)) {
            if (ERR()) {
                _PyPegen_vec_free(&targets);
                return NULL;
            }
            p->mark = m;
            break;
        }
        if (vec_push(p, &targets, t) < 0) {
            return NULL;
        }
    }
    if (targets.n > 0) {
        value = annotated_rhs(p);
        if (value != NULL && !at_type(p, EQUAL)) {
            asdl_expr_seq *ts = vec_seq(p, &targets);
            if (ts == NULL) {
                return NULL;
            }
            return CHECK(_PyAST_Assign(ts, value, NULL, EXTRA_FROM(start)));
        }
        _PyPegen_vec_free(&targets);
        if (ERR()) {
            return NULL;
        }
    }
    p->mark = mark;
    /* single_target augassign ~ (yield_expr | star_expressions) */
    target = single_target(p);
    if (target != NULL && augassign_op(p, &op)) {
        value = annotated_rhs(p);
        if (value == NULL) {
            return NULL;
        }
        return CHECK(_PyAST_AugAssign(target, op, value, EXTRA_FROM(start)));
    }
    if (ERR()) {
        return NULL;
    }
    p->mark = mark;
    if (p->call_invalid_rules) {
        invalid_assignment(p);
    }
    return NULL;
}

/* dotted_name: NAME ('.' NAME)* as one identifier "a.b.c". */
static PyObject *
dotted_name(Parser *p)
{
    Token *first = PEEK();
    Token *last;
    int mark = p->mark;
    if (!EXPECT(NAME)) {
        return NULL;
    }
    last = first;
    while (at_type(p, DOT) && at_type_ahead(p, 1, NAME)) {
        Token *n = _PyPegen_peek_at(p, 1);
        if (n->kw != KW_NONE && n->kw <= KW_HARD_LAST) {
            break;
        }
        p->mark += 2;
        last = n;
    }
    if (first == last) {
        return token_identifier(p, first);
    }
    {
        /* Rebuild the name without any whitespace around the dots. */
        PtrVec v;
        Py_ssize_t total = 0, i, pos = 0;
        char *buf;
        PyObject *id;
        int k;
        _PyPegen_vec_init(&v);
        for (k = mark; k < p->mark; k += 2) {
            Token *t = p->tokens[k];
            if (vec_push(p, &v, t) < 0) {
                return NULL;
            }
            total += t->end - t->start + 1;
        }
        buf = (char *)PyMem_Malloc((size_t)total + 1);
        if (buf == NULL) {
            _PyPegen_vec_free(&v);
            PyErr_NoMemory();
            p->error_indicator = 1;
            return NULL;
        }
        for (i = 0; i < v.n; i++) {
            Token *t = (Token *)v.items[i];
            if (i > 0) {
                buf[pos++] = '.';
            }
            memcpy(buf + pos, p->tok->buf + t->start,
                   (size_t)(t->end - t->start));
            pos += t->end - t->start;
        }
        _PyPegen_vec_free(&v);
        id = _PyPegen_new_identifier(p, buf, pos);
        PyMem_Free(buf);
        return id;
    }
}

/* name ['as' NAME] for import aliases; dotted when `dotted`. */
static alias_ty
import_alias(Parser *p, int dotted)
{
    Token *start = PEEK();
    PyObject *name, *asname = NULL;
    if (start == NULL) {
        return NULL;
    }
    name = dotted ? dotted_name(p) : name_id(p, NULL);
    if (name == NULL) {
        return NULL;
    }
    if (KW(KW_as)) {
        asname = name_id(p, NULL);
        if (asname == NULL) {
            if (p->call_invalid_rules && !ERR()) {
                Token *t = PEEK();
                if (t != NULL) {
                    _PyPegen_error_at_token(p, t, "invalid syntax");
                }
            }
            return NULL;
        }
    }
    return CHECK(_PyAST_alias(name, asname, EXTRA_FROM(start)));
}

static asdl_alias_seq *
alias_list(Parser *p, int dotted, int allow_trailing)
{
    PtrVec v;
    alias_ty a = import_alias(p, dotted);
    if (a == NULL) {
        return NULL;
    }
    _PyPegen_vec_init(&v);
    if (vec_push(p, &v, a) < 0) {
        return NULL;
    }
    while (at_type(p, COMMA)) {
        int mark = p->mark;
        p->mark++;
        a = import_alias(p, dotted);
        if (a == NULL) {
            if (ERR()) {
                _PyPegen_vec_free(&v);
                return NULL;
            }
            p->mark = allow_trailing ? mark + 1 : mark;
            break;
        }
        if (vec_push(p, &v, a) < 0) {
            return NULL;
        }
    }
    return (asdl_alias_seq *)vec_seq(p, &v);
}

static stmt_ty
import_stmt(Parser *p)
{
    Token *start = PEEK();
    if (KW(KW_import)) {
        asdl_alias_seq *names = alias_list(p, 1, 0);
        if (names == NULL) {
            return NULL;
        }
        return CHECK(_PyAST_Import(names, EXTRA_FROM(start)));
    }
    if (KW(KW_from)) {
        int level = 0;
        PyObject *module = NULL;
        asdl_alias_seq *names;
        for (;;) {
            if (EXPECT(DOT)) {
                level++;
            }
            else if (EXPECT(ELLIPSIS)) {
                level += 3;
            }
            else {
                break;
            }
        }
        if (!at_kw(p, KW_import)) {
            module = dotted_name(p);
            if (module == NULL) {
                return NULL;
            }
        }
        else if (level == 0) {
            return NULL;
        }
        if (!KW(KW_import)) {
            return NULL;
        }
        if (at_type(p, STAR)) {
            Token *star = EXPECT(STAR);
            PyObject *id = _PyPegen_new_identifier(p, "*", 1);
            alias_ty a;
            if (id == NULL) {
                return NULL;
            }
            a = CHECK(_PyAST_alias(id, NULL, EXTRA_FROM(star)));
            names = a ? singleton_seq(p, a) : NULL;
        }
        else if (EXPECT(LPAR)) {
            names = alias_list(p, 0, 1);
            if (names == NULL || !EXPECT(RPAR)) {
                return NULL;
            }
        }
        else {
            names = alias_list(p, 0, 0);
            if (names != NULL && at_type(p, COMMA)) {
                if (p->call_invalid_rules) {
                    Token *after = _PyPegen_peek_at(p, 1);
                    if (after != NULL) {
                        _PyPegen_error_at_token(p, after, "trailing comma not "
                                                "allowed without surrounding "
                                                "parentheses");
                    }
                }
                return NULL;
            }
        }
        if (names == NULL) {
            return NULL;
        }
        return CHECK(_PyAST_ImportFrom(module, names, level,
                                       EXTRA_FROM(start)));
    }
    return NULL;
}

static asdl_identifier_seq *
name_list(Parser *p)
{
    PtrVec v;
    PyObject *id = name_id(p, NULL);
    if (id == NULL) {
        return NULL;
    }
    _PyPegen_vec_init(&v);
    if (vec_push(p, &v, id) < 0) {
        return NULL;
    }
    while (at_type(p, COMMA)) {
        p->mark++;
        id = name_id(p, NULL);
        if (id == NULL) {
            _PyPegen_vec_free(&v);
            return NULL;
        }
        if (vec_push(p, &v, id) < 0) {
            return NULL;
        }
    }
    return (asdl_identifier_seq *)vec_seq(p, &v);
}

static stmt_ty
type_alias(Parser *p)
{
    Token *start = PEEK();
    Token *nt;
    PyObject *id;
    expr_ty name, value;
    asdl_type_param_seq *tps = NULL;

    if (!_PyPegen_expect_soft(p, KW_type)) {
        return NULL;
    }
    id = name_id(p, &nt);
    if (id == NULL) {
        return NULL;
    }
    name = CHECK(_PyAST_Name(id, Store, nt->lineno, nt->col_offset,
                             nt->end_lineno, nt->end_col_offset, p->arena));
    if (name == NULL) {
        return NULL;
    }
    if (at_type(p, LSQB)) {
        tps = type_params(p);
        if (tps == NULL) {
            return NULL;
        }
    }
    if (!EXPECT(EQUAL)) {
        return NULL;
    }
    value = expression(p);
    if (value == NULL) {
        return NULL;
    }
    if (tps == NULL) {
        tps = empty_seq(p);
        if (tps == NULL) {
            return NULL;
        }
    }
    return CHECK(_PyAST_TypeAlias(name, tps, value, EXTRA_FROM(start)));
}

static stmt_ty
simple_stmt_raw(Parser *p)
{
    Token *t = PEEK();
    int mark = p->mark;
    stmt_ty s;
    expr_ty e, e2;

    if (t == NULL) {
        return NULL;
    }
    if (t->type == NAME && t->kw != KW_NONE && t->kw <= KW_HARD_LAST) {
        switch (t->kw) {
        case KW_return:
            p->mark++;
            e = NULL;
            if (!at_type(p, NEWLINE) && !at_type(p, SEMI)) {
                e = star_expressions(p);
                if (e == NULL) {
                    return NULL;
                }
            }
            return CHECK(_PyAST_Return(e, EXTRA_FROM(t)));
        case KW_import:
        case KW_from:
            return import_stmt(p);
        case KW_raise:
            p->mark++;
            e = e2 = NULL;
            if (!at_type(p, NEWLINE) && !at_type(p, SEMI)) {
                e = expression(p);
                if (e == NULL) {
                    return NULL;
                }
                if (KW(KW_from)) {
                    e2 = expression(p);
                    if (e2 == NULL) {
                        return NULL;
                    }
                }
            }
            return CHECK(_PyAST_Raise(e, e2, EXTRA_FROM(t)));
        case KW_pass:
            p->mark++;
            return CHECK(_PyAST_Pass(EXTRA_FROM(t)));
        case KW_break:
            p->mark++;
            return CHECK(_PyAST_Break(EXTRA_FROM(t)));
        case KW_continue:
            p->mark++;
            return CHECK(_PyAST_Continue(EXTRA_FROM(t)));
        case KW_del: {
            asdl_expr_seq *targets;
            p->mark++;
            targets = del_targets(p);
            if (targets != NULL && (at_type(p, NEWLINE) || at_type(p, SEMI))) {
                return CHECK(_PyAST_Delete(targets, EXTRA_FROM(t)));
            }
            if (!ERR() && p->call_invalid_rules) {
                p->mark = mark + 1;
                e = star_expressions(p);
                if (e != NULL) {
                    raise_invalid_target(p, DEL_TARGETS, e);
                }
            }
            return NULL;
        }
        case KW_yield:
            e = yield_expr(p);
            if (e == NULL) {
                return NULL;
            }
            if (at_type(p, EQUAL)) {
                break;  /* let assignment() diagnose it */
            }
            return CHECK(_PyAST_Expr(e, EXTRA_FROM(t)));
        case KW_assert:
            p->mark++;
            e = expression(p);
            if (e == NULL) {
                return NULL;
            }
            e2 = NULL;
            if (EXPECT(COMMA)) {
                e2 = expression(p);
                if (e2 == NULL) {
                    return NULL;
                }
            }
            return CHECK(_PyAST_Assert(e, e2, EXTRA_FROM(t)));
        case KW_global:
        case KW_nonlocal: {
            asdl_identifier_seq *names;
            p->mark++;
            names = name_list(p);
            if (names == NULL) {
                return NULL;
            }
            if (t->kw == KW_global) {
                return CHECK(_PyAST_Global(names, EXTRA_FROM(t)));
            }
            return CHECK(_PyAST_Nonlocal(names, EXTRA_FROM(t)));
        }
        case KW_not: case KW_lambda: case KW_await: case KW_None:
        case KW_True: case KW_False:
            break;
        default:
            /* No simple statement starts with this keyword. */
            return NULL;
        }
        p->mark = mark;
    }
    s = assignment(p);
    if (s != NULL || ERR()) {
        return s;
    }
    p->mark = mark;
    if (t->type == NAME && t->kw == KW_type && at_type_ahead(p, 1, NAME)) {
        s = type_alias(p);
        if (s != NULL || ERR()) {
            return s;
        }
        p->mark = mark;
    }
    e = star_expressions(p);
    if (e == NULL) {
        return NULL;
    }
    return CHECK(_PyAST_Expr(e, EXTRA_FROM(t)));
}

static stmt_ty
simple_stmt(Parser *p)
{
    int mark = p->mark;
    stmt_ty res;
    if (_PyPegen_is_memoized(p, M_SIMPLE_STMT, &res)) {
        return res;
    }
    res = simple_stmt_raw(p);
    if (ERR()) {
        return NULL;
    }
    if (res == NULL) {
        p->mark = mark;
    }
    _PyPegen_memoize(p, mark, M_SIMPLE_STMT, res);
    return res;
}

/* simple_stmt (';' simple_stmt)* [';'] NEWLINE */
static asdl_stmt_seq *
simple_stmts(Parser *p)
{
    int mark = p->mark;
    PtrVec v;
    stmt_ty s = simple_stmt(p);
    if (s == NULL) {
        return NULL;
    }
    _PyPegen_vec_init(&v);
    if (vec_push(p, &v, s) < 0) {
        return NULL;
    }
    while (EXPECT(SEMI)) {
        if (at_type(p, NEWLINE)) {
            break;
        }
        s = simple_stmt(p);
        if (s == NULL || vec_push(p, &v, s) < 0) {
            _PyPegen_vec_free(&v);
            p->mark = mark;
            return NULL;
        }
    }
    if (!EXPECT(NEWLINE)) {
        _PyPegen_vec_free(&v);
        p->mark = mark;
        return NULL;
    }
    return (asdl_stmt_seq *)vec_seq(p, &v);
}

/* ---------------------------------------------------------------------- */
/* Blocks                                                                  */

/* NEWLINE INDENT statements DEDENT | simple_stmts.  `what` names the
   statement for "expected an indented block after ..." errors. */
static asdl_stmt_seq *
block_raw(Parser *p, const char *what, int lineno)
{
    int mark = p->mark;
    if (EXPECT(NEWLINE)) {
        asdl_stmt_seq *body;
        if (!EXPECT(INDENT)) {
            if (p->call_invalid_rules && !ERR()) {
                Token *t = PEEK();
                if (t != NULL) {
                    _PyPegen_raise_error_known_location(
                        p, PyExc_IndentationError, t->lineno, t->col_offset,
                        t->end_lineno, t->end_col_offset,
                        "expected an indented block after %s on line %d",
                        what, lineno);
                }
            }
            p->mark = mark;
            return NULL;
        }
        body = statements(p);
        if (body == NULL || !EXPECT(DEDENT)) {
            p->mark = mark;
            return NULL;
        }
        return body;
    }
    return simple_stmts(p);
}

static asdl_stmt_seq *
block(Parser *p, const char *what, int lineno)
{
    int mark = p->mark;
    asdl_stmt_seq *res;
    if (_PyPegen_is_memoized(p, M_BLOCK, &res)) {
        return res;
    }
    ENTER();
    res = block_raw(p, what, lineno);
    p->level--;
    if (ERR()) {
        return NULL;
    }
    if (res == NULL) {
        p->mark = mark;
    }
    _PyPegen_memoize(p, mark, M_BLOCK, res);
    return res;
}

/* 'else' ':' block */
static asdl_stmt_seq *
else_block(Parser *p)
{
    Token *t = KW(KW_else);
    if (t == NULL) {
        return NULL;
    }
    if (!expect_colon(p, 1)) {
        return NULL;
    }
    return block(p, "'else' statement", t->lineno);
}

/* ---------------------------------------------------------------------- */
/* Parameters                                                              */

static arg_ty
param(Parser *p, int is_lambda, int star_annotation)
{
    Token *t;
    PyObject *id = name_id(p, &t);
    expr_ty ann = NULL;
    if (id == NULL) {
        return NULL;
    }
    if (!is_lambda && EXPECT(COLON)) {
        ann = star_annotation ? star_expression(p) : expression(p);
        if (ann == NULL) {
            return NULL;
        }
    }
    return CHECK(_PyAST_arg(id, ann, NULL, EXTRA_FROM(t)));
}

static void *
param_error(Parser *p, Token *t, const char *msg)
{
    if (p->call_invalid_rules && !ERR()) {
        _PyPegen_error_at_token(p, t, "%s", msg);
    }
    return NULL;
}

/* The parameter list of a def (up to ')') or lambda (up to ':'). */
static arguments_ty
params(Parser *p, int is_lambda)
{
    int end = is_lambda ? COLON : RPAR;
    PtrVec posonly, args, defaults, kwonly, kwdefaults;
    arg_ty vararg = NULL, kwarg = NULL;
    int seen_slash = 0, seen_star = 0, seen_default = 0, bare_star = 0;
    Token *star_tok = NULL;
    arguments_ty res = NULL;
    Py_ssize_t i;

    _PyPegen_vec_init(&posonly);
    _PyPegen_vec_init(&args);
    _PyPegen_vec_init(&defaults);
    _PyPegen_vec_init(&kwonly);
    _PyPegen_vec_init(&kwdefaults);
    for (;;) {
        Token *t = PEEK();
        if (t == NULL || t->type == end) {
            break;
        }
        if (kwarg != NULL) {
            param_error(p, t, "arguments cannot follow var-keyword argument");
            goto done;
        }
        if (t->type == SLASH) {
            if (seen_slash) {
                param_error(p, t, "/ may appear only once");
                goto done;
            }
            if (seen_star) {
                param_error(p, t, "/ must be ahead of *");
                goto done;
            }
            if (args.n == 0) {
                param_error(p, t, "at least one argument must precede /");
                goto done;
            }
            p->mark++;
            seen_slash = 1;
            for (i = 0; i < args.n; i++) {
                if (vec_push(p, &posonly, args.items[i]) < 0) {
                    goto done;
                }
            }
            args.n = 0;
        }
        else if (t->type == STAR) {
            if (seen_star) {
                param_error(p, t, "* argument may appear only once");
                goto done;
            }
            p->mark++;
            seen_star = 1;
            star_tok = t;
            if (at_type(p, COMMA) || at_type(p, end)) {
                bare_star = 1;
            }
            else {
                vararg = param(p, is_lambda, 1);
                if (vararg == NULL) {
                    goto done;
                }
                if (at_type(p, EQUAL)) {
                    param_error(p, PEEK(), "var-positional argument cannot "
                                "have default value");
                    goto done;
                }
            }
        }
        else if (t->type == DOUBLESTAR) {
            p->mark++;
            kwarg = param(p, is_lambda, 0);
            if (kwarg == NULL) {
                goto done;
            }
            if (at_type(p, EQUAL)) {
                param_error(p, PEEK(), "var-keyword argument cannot have "
                            "default value");
                goto done;
            }
        }
        else {
            arg_ty a = param(p, is_lambda, 0);
            expr_ty dflt = NULL;
            if (a == NULL) {
                goto done;
            }
            if (EXPECT(EQUAL)) {
                dflt = expression(p);
                if (dflt == NULL) {
                    if (p->call_invalid_rules && !ERR()) {
                        Token *c = PEEK();
                        if (c != NULL && (c->type == COMMA
                                          || c->type == end)) {
                            _PyPegen_error_at_token(
                                p, c, "expected default value expression");
                        }
                    }
                    goto done;
                }
            }
            if (seen_star) {
                if (vec_push(p, &kwonly, a) < 0
                    || vec_push(p, &kwdefaults, dflt) < 0) {
                    goto done;
                }
            }
            else {
                if (dflt != NULL) {
                    seen_default = 1;
                    if (vec_push(p, &defaults, dflt) < 0) {
                        goto done;
                    }
                }
                else if (seen_default) {
                    if (p->call_invalid_rules && !ERR()) {
                        _PyPegen_raise_error_known_location(
                            p, PyExc_SyntaxError, a->lineno, a->col_offset,
                            a->end_lineno, a->end_col_offset,
                            "parameter without a default follows parameter "
                            "with a default");
                    }
                    goto done;
                }
                if (vec_push(p, &args, a) < 0) {
                    goto done;
                }
            }
        }
        if (!EXPECT(COMMA)) {
            break;
        }
    }
    if (!at_type(p, end)) {
        goto done;
    }
    if (bare_star && kwonly.n == 0) {
        param_error(p, star_tok, "named arguments must follow bare *");
        goto done;
    }
    {
        asdl_arg_seq *po = vec_seq(p, &posonly);
        asdl_arg_seq *a = vec_seq(p, &args);
        asdl_arg_seq *ko = vec_seq(p, &kwonly);
        asdl_expr_seq *kd = vec_seq(p, &kwdefaults);
        asdl_expr_seq *d = vec_seq(p, &defaults);
        if (!po || !a || !ko || !kd || !d) {
            return NULL;
        }
        return CHECK(_PyAST_arguments(po, a, vararg, ko, kd, kwarg, d,
                                      p->arena));
    }
done:
    _PyPegen_vec_free(&posonly);
    _PyPegen_vec_free(&args);
    _PyPegen_vec_free(&defaults);
    _PyPegen_vec_free(&kwonly);
    _PyPegen_vec_free(&kwdefaults);
    return res;
}

/* '[' type_param (',' type_param)* [','] ']' */
static asdl_type_param_seq *
type_params(Parser *p)
{
    PtrVec v;
    if (!EXPECT(LSQB)) {
        return NULL;
    }
    _PyPegen_vec_init(&v);
    while (!at_type(p, RSQB)) {
        Token *t = PEEK();
        Token *nt;
        PyObject *id;
        expr_ty bound = NULL, dflt = NULL;
        type_param_ty tp;
        int kind = 0;  /* 0 TypeVar, 1 TypeVarTuple, 2 ParamSpec */
        if (t == NULL) {
            goto fail;
        }
        if (EXPECT(STAR)) {
            kind = 1;
        }
        else if (EXPECT(DOUBLESTAR)) {
            kind = 2;
        }
        id = name_id(p, &nt);
        if (id == NULL) {
            goto fail;
        }
        if (kind == 0 && EXPECT(COLON)) {
            bound = expression(p);
            if (bound == NULL) {
                goto fail;
            }
        }
        if (EXPECT(EQUAL)) {
            dflt = kind == 1 ? star_expression(p) : expression(p);
            if (dflt == NULL) {
                goto fail;
            }
        }
        if (kind == 0) {
            tp = _PyAST_TypeVar(id, bound, dflt, EXTRA_FROM(t));
        }
        else if (kind == 1) {
            tp = _PyAST_TypeVarTuple(id, dflt, EXTRA_FROM(t));
        }
        else {
            tp = _PyAST_ParamSpec(id, dflt, EXTRA_FROM(t));
        }
        if (CHECK(tp) == NULL || vec_push(p, &v, tp) < 0) {
            goto fail;
        }
        if (!EXPECT(COMMA)) {
            break;
        }
    }
    if (v.n == 0 || !EXPECT(RSQB)) {
        goto fail;
    }
    return (asdl_type_param_seq *)vec_seq(p, &v);
fail:
    _PyPegen_vec_free(&v);
    return NULL;
}

/* ---------------------------------------------------------------------- */
/* Compound statements                                                     */

static asdl_expr_seq *
decorators(Parser *p)
{
    PtrVec v;
    _PyPegen_vec_init(&v);
    while (EXPECT(AT)) {
        expr_ty e = named_expression(p);
        if (e == NULL || !EXPECT(NEWLINE) || vec_push(p, &v, e) < 0) {
            _PyPegen_vec_free(&v);
            return NULL;
        }
    }
    return (asdl_expr_seq *)vec_seq(p, &v);
}

static stmt_ty
function_def(Parser *p, asdl_expr_seq *decos)
{
    Token *start = PEEK();
    Token *def;
    int is_async = 0;
    PyObject *name;
    asdl_type_param_seq *tps = NULL;
    arguments_ty args;
    expr_ty returns = NULL;
    asdl_stmt_seq *body;

    if (KW(KW_async)) {
        is_async = 1;
    }
    def = KW(KW_def);
    if (def == NULL) {
        return NULL;
    }
    name = name_id(p, NULL);
    if (name == NULL) {
        return NULL;
    }
    if (at_type(p, LSQB)) {
        tps = type_params(p);
        if (tps == NULL) {
            return NULL;
        }
    }
    else {
        tps = empty_seq(p);
    }
    if (!EXPECT(LPAR)) {
        if (p->call_invalid_rules && !ERR()) {
            Token *t = PEEK();
            if (t != NULL) {
                _PyPegen_error_at_token(p, t, "expected '('");
            }
        }
        return NULL;
    }
    args = at_type(p, RPAR) ? empty_arguments(p) : params(p, 0);
    if (args == NULL || !EXPECT(RPAR)) {
        return NULL;
    }
    if (EXPECT(RARROW)) {
        returns = expression(p);
        if (returns == NULL) {
            return NULL;
        }
    }
    if (!expect_colon(p, 0)) {
        return NULL;
    }
    body = block(p, "function definition", def->lineno);
    if (body == NULL) {
        return NULL;
    }
    if (decos == NULL) {
        decos = empty_seq(p);
        if (decos == NULL) {
            return NULL;
        }
    }
    if (is_async) {
        return CHECK(_PyAST_AsyncFunctionDef(name, args, body, decos, returns,
                                             NULL, tps, EXTRA_FROM(start)));
    }
    return CHECK(_PyAST_FunctionDef(name, args, body, decos, returns, NULL,
                                    tps, EXTRA_FROM(start)));
}

static stmt_ty
class_def(Parser *p, asdl_expr_seq *decos)
{
    Token *start = KW(KW_class);
    PyObject *name;
    asdl_type_param_seq *tps;
    asdl_expr_seq *bases = NULL;
    asdl_keyword_seq *keywords = NULL;
    asdl_stmt_seq *body;

    if (start == NULL) {
        return NULL;
    }
    name = name_id(p, NULL);
    if (name == NULL) {
        return NULL;
    }
    if (at_type(p, LSQB)) {
        tps = type_params(p);
        if (tps == NULL) {
            return NULL;
        }
    }
    else {
        tps = empty_seq(p);
    }
    {
        Token *open = EXPECT(LPAR);
        if (open != NULL && call_args(p, open, &bases, &keywords) < 0) {
            return NULL;
        }
    }
    if (!expect_colon(p, 0)) {
        return NULL;
    }
    body = block(p, "class definition", start->lineno);
    if (body == NULL) {
        return NULL;
    }
    if (bases == NULL) {
        bases = empty_seq(p);
        keywords = empty_seq(p);
    }
    if (decos == NULL) {
        decos = empty_seq(p);
    }
    if (bases == NULL || keywords == NULL || decos == NULL) {
        return NULL;
    }
    return CHECK(_PyAST_ClassDef(name, bases, keywords, body, decos, tps,
                                 EXTRA_FROM(start)));
}

static stmt_ty
if_stmt(Parser *p, int is_elif)
{
    Token *start = KW(is_elif ? KW_elif : KW_if);
    expr_ty test;
    asdl_stmt_seq *body, *orelse = NULL;

    if (start == NULL) {
        return NULL;
    }
    test = named_expression(p);
    if (test == NULL || !expect_colon(p, 0)) {
        if (test != NULL || ERR()) {
            return NULL;
        }
        return NULL;
    }
    body = block(p, is_elif ? "'elif' statement" : "'if' statement",
                 start->lineno);
    if (body == NULL) {
        return NULL;
    }
    if (at_kw(p, KW_elif)) {
        stmt_ty s = if_stmt(p, 1);
        if (s == NULL) {
            return NULL;
        }
        orelse = singleton_seq(p, s);
    }
    else if (at_kw(p, KW_else)) {
        orelse = else_block(p);
    }
    else {
        orelse = empty_seq(p);
    }
    if (orelse == NULL) {
        return NULL;
    }
    return CHECK(_PyAST_If(test, body, orelse, EXTRA_FROM(start)));
}

static asdl_stmt_seq *
optional_else(Parser *p)
{
    if (at_kw(p, KW_else)) {
        return else_block(p);
    }
    return empty_seq(p);
}

static stmt_ty
while_stmt(Parser *p)
{
    Token *start = KW(KW_while);
    expr_ty test;
    asdl_stmt_seq *body, *orelse;
    if (start == NULL) {
        return NULL;
    }
    test = named_expression(p);
    if (test == NULL || !expect_colon(p, 0)) {
        return NULL;
    }
    body = block(p, "'while' statement", start->lineno);
    if (body == NULL) {
        return NULL;
    }
    orelse = optional_else(p);
    if (orelse == NULL) {
        return NULL;
    }
    return CHECK(_PyAST_While(test, body, orelse, EXTRA_FROM(start)));
}

static stmt_ty
for_stmt(Parser *p)
{
    Token *start = PEEK();
    Token *kw;
    int is_async = KW(KW_async) != NULL;
    expr_ty target, iter;
    asdl_stmt_seq *body, *orelse;
    int mark;

    kw = KW(KW_for);
    if (kw == NULL) {
        return NULL;
    }
    mark = p->mark;
    target = star_targets(p);
    if (target == NULL || !KW(KW_in)) {
        if (!ERR() && p->call_invalid_rules) {
            expr_ty bad;
            p->mark = mark;
            bad = star_expressions(p);
            if (bad != NULL && invalid_target(bad, FOR_TARGETS)) {
                raise_invalid_target(p, FOR_TARGETS, bad);
            }
        }
        return NULL;
    }
    iter = star_expressions(p);
    if (iter == NULL || !expect_colon(p, 0)) {
        return NULL;
    }
    body = block(p, "'for' statement", kw->lineno);
    if (body == NULL) {
        return NULL;
    }
    orelse = optional_else(p);
    if (orelse == NULL) {
        return NULL;
    }
    if (is_async) {
        return CHECK(_PyAST_AsyncFor(target, iter, body, orelse, NULL,
                                     EXTRA_FROM(start)));
    }
    return CHECK(_PyAST_For(target, iter, body, orelse, NULL,
                            EXTRA_FROM(start)));
}

/* expression ['as' star_target &(',' | ')' | ':')] */
static withitem_ty
with_item(Parser *p)
{
    expr_ty e = expression(p), target = NULL;
    int mark;
    if (e == NULL) {
        return NULL;
    }
    mark = p->mark;
    if (KW(KW_as)) {
        target = star_target(p);
        if (target == NULL || !(at_type(p, COMMA) || at_type(p, RPAR)
                                || at_type(p, COLON))) {
            if (ERR()) {
                return NULL;
            }
            if (p->call_invalid_rules) {
                expr_ty bad;
                p->mark = mark + 1;
                bad = expression(p);
                if (bad != NULL && invalid_target(bad, STAR_TARGETS)
                    && (at_type(p, COMMA) || at_type(p, RPAR)
                        || at_type(p, COLON))) {
                    raise_invalid_target(p, STAR_TARGETS, bad);
                    return NULL;
                }
            }
            p->mark = mark;
            target = NULL;
        }
    }
    return CHECK(_PyAST_withitem(e, target, p->arena));
}

static asdl_withitem_seq *
with_items(Parser *p, int parenthesized)
{
    PtrVec v;
    _PyPegen_vec_init(&v);
    for (;;) {
        withitem_ty w = with_item(p);
        if (w == NULL || vec_push(p, &v, w) < 0) {
            _PyPegen_vec_free(&v);
            return NULL;
        }
        if (!at_type(p, COMMA)) {
            break;
        }
        p->mark++;
        if (parenthesized && at_type(p, RPAR)) {
            break;
        }
    }
    return (asdl_withitem_seq *)vec_seq(p, &v);
}

static stmt_ty
with_stmt(Parser *p)
{
    Token *start = PEEK();
    Token *kw;
    int is_async = KW(KW_async) != NULL;
    asdl_withitem_seq *items = NULL;
    asdl_stmt_seq *body;
    int mark;

    kw = KW(KW_with);
    if (kw == NULL) {
        return NULL;
    }
    mark = p->mark;
    if (EXPECT(LPAR)) {
        items = with_items(p, 1);
        if (items == NULL || !EXPECT(RPAR) || !at_type(p, COLON)) {
            if (ERR()) {
                return NULL;
            }
            items = NULL;
            p->mark = mark;
        }
    }
    if (items == NULL) {
        items = with_items(p, 0);
        if (items == NULL) {
            return NULL;
        }
    }
    if (!expect_colon(p, 0)) {
        return NULL;
    }
    body = block(p, "'with' statement", kw->lineno);
    if (body == NULL) {
        return NULL;
    }
    if (is_async) {
        return CHECK(_PyAST_AsyncWith(items, body, NULL, EXTRA_FROM(start)));
    }
    return CHECK(_PyAST_With(items, body, NULL, EXTRA_FROM(start)));
}

/* 'except' ['*'] [expression ['as' NAME] | expressions] ':' block */
static excepthandler_ty
except_block(Parser *p, int *star)
{
    Token *start = KW(KW_except);
    expr_ty type = NULL;
    PyObject *name = NULL;
    asdl_stmt_seq *body;
    int is_star = 0;

    if (start == NULL) {
        return NULL;
    }
    if (EXPECT(STAR)) {
        is_star = 1;
    }
    if (!at_type(p, COLON)) {
        int mark = p->mark;
        type = expression(p);
        if (type == NULL) {
            return NULL;
        }
        if (KW(KW_as)) {
            name = name_id(p, NULL);
            if (name == NULL) {
                if (p->call_invalid_rules && !ERR()) {
                    expr_ty bad;
                    int m = p->mark;
                    bad = expression(p);
                    if (bad != NULL) {
                        _PyPegen_error_at_node(p, bad, bad, "cannot use %s "
                                               "as exception target",
                                               _PyPegen_expr_name(bad));
                    }
                    (void)m;
                }
                return NULL;
            }
        }
        else if (at_type(p, COMMA)) {
            /* PEP 758: except A, B: */
            p->mark = mark;
            type = expressions(p);
            if (type == NULL) {
                return NULL;
            }
            if (at_kw(p, KW_as)) {
                if (p->call_invalid_rules) {
                    _PyPegen_error_at_node(p, type, type, "multiple "
                                           "exception types must be "
                                           "parenthesized when using 'as'");
                }
                return NULL;
            }
        }
    }
    else if (is_star) {
        if (p->call_invalid_rules) {
            _PyPegen_raise_error(p, PyExc_SyntaxError, 1,
                                 "expected one or more exception types");
        }
        return NULL;
    }
    if (!expect_colon(p, 0)) {
        return NULL;
    }
    body = block(p, is_star ? "'except*' statement" : "'except' statement",
                 start->lineno);
    if (body == NULL) {
        return NULL;
    }
    *star = is_star;
    return CHECK(_PyAST_ExceptHandler(type, name, body, EXTRA_FROM(start)));
}

static stmt_ty
try_stmt(Parser *p)
{
    Token *start = KW(KW_try);
    asdl_stmt_seq *body, *orelse = NULL, *finalbody = NULL;
    PtrVec handlers;
    int kind = -1;

    if (start == NULL) {
        return NULL;
    }
    if (!expect_colon(p, 1)) {
        return NULL;
    }
    body = block(p, "'try' statement", start->lineno);
    if (body == NULL) {
        return NULL;
    }
    _PyPegen_vec_init(&handlers);
    while (at_kw(p, KW_except)) {
        int star;
        excepthandler_ty h = except_block(p, &star);
        if (h == NULL) {
            goto fail;
        }
        if (kind != -1 && kind != star) {
            if (p->call_invalid_rules) {
                _PyPegen_raise_error_known_location(
                    p, PyExc_SyntaxError, h->lineno, h->col_offset,
                    h->lineno, h->col_offset + 6,
                    "cannot have both 'except' and 'except*' on the same "
                    "'try'");
            }
            goto fail;
        }
        kind = star;
        if (vec_push(p, &handlers, h) < 0) {
            goto fail;
        }
    }
    if (handlers.n > 0 && at_kw(p, KW_else)) {
        orelse = else_block(p);
        if (orelse == NULL) {
            goto fail;
        }
    }
    if (at_kw(p, KW_finally)) {
        Token *f = KW(KW_finally);
        if (!expect_colon(p, 1)) {
            goto fail;
        }
        finalbody = block(p, "'finally' statement", f->lineno);
        if (finalbody == NULL) {
            goto fail;
        }
    }
    if (handlers.n == 0 && finalbody == NULL) {
        if (p->call_invalid_rules && !ERR()) {
            _PyPegen_raise_error(p, PyExc_SyntaxError, 1,
                                 "expected 'except' or 'finally' block");
        }
        goto fail;
    }
    {
        asdl_excepthandler_seq *hs = vec_seq(p, &handlers);
        if (hs == NULL) {
            return NULL;
        }
        if (orelse == NULL) {
            orelse = empty_seq(p);
        }
        if (finalbody == NULL) {
            finalbody = empty_seq(p);
        }
        if (orelse == NULL || finalbody == NULL) {
            return NULL;
        }
        if (kind == 1) {
            return CHECK(_PyAST_TryStar(body, hs, orelse, finalbody,
                                        EXTRA_FROM(start)));
        }
        return CHECK(_PyAST_Try(body, hs, orelse, finalbody,
                                EXTRA_FROM(start)));
    }
fail:
    _PyPegen_vec_free(&handlers);
    return NULL;
}

/* ---------------------------------------------------------------------- */
/* Match statements and patterns                                           */

static pattern_ty pattern(Parser *p);
static pattern_ty closed_pattern(Parser *p);

#define PEXTRA(t) EXTRA_FROM(t)

/* NUMBER or '-' NUMBER */
static expr_ty
signed_number(Parser *p)
{
    Token *t = PEEK();
    if (t == NULL) {
        return NULL;
    }
    if (t->type == NUMBER) {
        p->mark++;
        return _PyPegen_number(p, t);
    }
    if (t->type == MINUS && at_type_ahead(p, 1, NUMBER)) {
        expr_ty n;
        p->mark++;
        n = _PyPegen_number(p, PEEK());
        if (n == NULL) {
            return NULL;
        }
        p->mark++;
        return CHECK(_PyAST_UnaryOp(USub, n, EXTRA_FROM(t)));
    }
    return NULL;
}

/* Literal values usable in patterns and mapping keys. */
static expr_ty
literal_expr(Parser *p)
{
    Token *t = PEEK();
    int mark = p->mark;
    expr_ty a;
    if (t == NULL) {
        return NULL;
    }
    if (t->type == STRING || t->type == FSTRING_START
        || t->type == TSTRING_START) {
        return strings(p);
    }
    if (t->type == NAME) {
        if (t->kw == KW_None || t->kw == KW_True || t->kw == KW_False) {
            return atom(p);
        }
        return NULL;
    }
    a = signed_number(p);
    if (a == NULL) {
        return NULL;
    }
    if (at_type(p, PLUS) || at_type(p, MINUS)) {
        /* complex: real +/- imaginary */
        Token *op = PEEK();
        Token *n = _PyPegen_peek_at(p, 1);
        expr_ty b;
        if (n == NULL || n->type != NUMBER) {
            p->mark = mark;
            return NULL;
        }
        p->mark += 2;
        b = _PyPegen_number(p, n);
        if (b == NULL) {
            return NULL;
        }
        return CHECK(_PyAST_BinOp(a, op->type == PLUS ? Add : Sub, b,
                                  EXTRA_FROM(t)));
    }
    return a;
}

/* NAME ('.' NAME)* */
static expr_ty
name_or_attr(Parser *p)
{
    Token *start = PEEK();
    expr_ty e = name_expr(p, Load);
    if (e == NULL) {
        return NULL;
    }
    while (at_type(p, DOT) && at_type_ahead(p, 1, NAME)) {
        PyObject *id;
        p->mark++;
        id = name_id(p, NULL);
        if (id == NULL) {
            p->mark--;
            break;
        }
        e = CHECK(_PyAST_Attribute(e, id, Load, EXTRA_FROM(start)));
        if (e == NULL) {
            return NULL;
        }
    }
    return e;
}

/* NAME that may bind in a pattern: not '_' and not followed by . ( = */
static PyObject *
capture_target(Parser *p)
{
    Token *t = PEEK();
    if (t == NULL || t->type != NAME || t->kw == KW__
        || (t->kw != KW_NONE && t->kw <= KW_HARD_LAST)) {
        return NULL;
    }
    if (at_type_ahead(p, 1, DOT) || at_type_ahead(p, 1, LPAR)
        || at_type_ahead(p, 1, EQUAL)) {
        return NULL;
    }
    p->mark++;
    return token_identifier(p, t);
}

static pattern_ty
star_pattern(Parser *p)
{
    Token *t = EXPECT(STAR);
    PyObject *id = NULL;
    if (t == NULL) {
        return NULL;
    }
    if (at_kw(p, KW__)) {
        p->mark++;
    }
    else {
        id = capture_target(p);
        if (id == NULL) {
            p->mark--;
            return NULL;
        }
    }
    return CHECK(_PyAST_MatchStar(id, EXTRA_FROM(t)));
}

static pattern_ty
maybe_star_pattern(Parser *p)
{
    if (at_type(p, STAR)) {
        return star_pattern(p);
    }
    return pattern(p);
}

/* Comma-separated (maybe star) patterns until `close`. */
static asdl_pattern_seq *
pattern_list(Parser *p, int close, int *had_comma)
{
    PtrVec v;
    _PyPegen_vec_init(&v);
    *had_comma = 0;
    while (!at_type(p, close)) {
        pattern_ty pt = maybe_star_pattern(p);
        if (pt == NULL || vec_push(p, &v, pt) < 0) {
            _PyPegen_vec_free(&v);
            return NULL;
        }
        if (!EXPECT(COMMA)) {
            break;
        }
        *had_comma = 1;
    }
    return (asdl_pattern_seq *)vec_seq(p, &v);
}

static pattern_ty
mapping_pattern(Parser *p)
{
    Token *open = EXPECT(LBRACE);
    PtrVec keys, pats;
    PyObject *rest = NULL;

    _PyPegen_vec_init(&keys);
    _PyPegen_vec_init(&pats);
    while (!at_type(p, RBRACE)) {
        expr_ty key;
        pattern_ty value;
        if (EXPECT(DOUBLESTAR)) {
            rest = capture_target(p);
            if (rest == NULL) {
                goto fail;
            }
            EXPECT(COMMA);
            break;
        }
        key = literal_expr(p);
        if (key == NULL) {
            if (ERR()) {
                goto fail;
            }
            key = name_or_attr(p);
            if (key == NULL || key->kind != Attribute_kind) {
                goto fail;
            }
        }
        if (!EXPECT(COLON)) {
            goto fail;
        }
        value = pattern(p);
        if (value == NULL || vec_push(p, &keys, key) < 0
            || vec_push(p, &pats, value) < 0) {
            goto fail;
        }
        if (!EXPECT(COMMA)) {
            break;
        }
    }
    if (!EXPECT(RBRACE)) {
        goto fail;
    }
    {
        asdl_expr_seq *k = vec_seq(p, &keys);
        asdl_pattern_seq *v = vec_seq(p, &pats);
        if (k == NULL || v == NULL) {
            return NULL;
        }
        return CHECK(_PyAST_MatchMapping(k, v, rest, EXTRA_FROM(open)));
    }
fail:
    _PyPegen_vec_free(&keys);
    _PyPegen_vec_free(&pats);
    return NULL;
}

static pattern_ty
class_pattern(Parser *p, Token *start, expr_ty cls)
{
    PtrVec pats, kwnames, kwpats;
    _PyPegen_vec_init(&pats);
    _PyPegen_vec_init(&kwnames);
    _PyPegen_vec_init(&kwpats);
    if (!EXPECT(LPAR)) {
        return NULL;
    }
    while (!at_type(p, RPAR)) {
        Token *t = PEEK();
        pattern_ty pt;
        if (t == NULL) {
            goto fail;
        }
        if (t->type == NAME && at_type_ahead(p, 1, EQUAL)) {
            PyObject *id = name_id(p, NULL);
            if (id == NULL) {
                goto fail;
            }
            p->mark++;
            pt = pattern(p);
            if (pt == NULL || vec_push(p, &kwnames, id) < 0
                || vec_push(p, &kwpats, pt) < 0) {
                goto fail;
            }
        }
        else {
            pt = pattern(p);
            if (pt == NULL) {
                goto fail;
            }
            if (kwnames.n > 0) {
                if (p->call_invalid_rules) {
                    _PyPegen_raise_error_known_location(
                        p, PyExc_SyntaxError, pt->lineno, pt->col_offset,
                        pt->end_lineno, pt->end_col_offset,
                        "positional patterns follow keyword patterns");
                }
                goto fail;
            }
            if (vec_push(p, &pats, pt) < 0) {
                goto fail;
            }
        }
        if (!EXPECT(COMMA)) {
            break;
        }
    }
    if (!EXPECT(RPAR)) {
        goto fail;
    }
    {
        asdl_pattern_seq *a = vec_seq(p, &pats);
        asdl_identifier_seq *b = vec_seq(p, &kwnames);
        asdl_pattern_seq *c = vec_seq(p, &kwpats);
        if (!a || !b || !c) {
            return NULL;
        }
        return CHECK(_PyAST_MatchClass(cls, a, b, c, EXTRA_FROM(start)));
    }
fail:
    _PyPegen_vec_free(&pats);
    _PyPegen_vec_free(&kwnames);
    _PyPegen_vec_free(&kwpats);
    return NULL;
}

static pattern_ty
closed_pattern_raw(Parser *p)
{
    Token *t = PEEK();
    int mark = p->mark;
    expr_ty e;
    if (t == NULL) {
        return NULL;
    }
    switch (t->type) {
    case NAME:
        if (t->kw == KW_None || t->kw == KW_True || t->kw == KW_False) {
            p->mark++;
            return CHECK(_PyAST_MatchSingleton(
                t->kw == KW_None ? Py_None : t->kw == KW_True ? Py_True
                                                              : Py_False,
                EXTRA_FROM(t)));
        }
        if (t->kw != KW_NONE && t->kw <= KW_HARD_LAST) {
            return NULL;
        }
        if (t->kw == KW__ && !at_type_ahead(p, 1, DOT)
            && !at_type_ahead(p, 1, LPAR)) {
            p->mark++;
            return CHECK(_PyAST_MatchAs(NULL, NULL, EXTRA_FROM(t)));
        }
        {
            PyObject *id = capture_target(p);
            if (id != NULL) {
                return CHECK(_PyAST_MatchAs(NULL, id, EXTRA_FROM(t)));
            }
            if (ERR()) {
                return NULL;
            }
        }
        e = name_or_attr(p);
        if (e == NULL) {
            return NULL;
        }
        if (at_type(p, LPAR)) {
            return class_pattern(p, t, e);
        }
        if (e->kind == Attribute_kind && !at_type(p, EQUAL)) {
            return CHECK(_PyAST_MatchValue(e, EXTRA_FROM(t)));
        }
        p->mark = mark;
        return NULL;
    case LPAR: {
        pattern_ty inner;
        asdl_pattern_seq *pats;
        int had_comma;
        p->mark++;
        if (EXPECT(RPAR)) {
            pats = empty_seq(p);
            return pats ? CHECK(_PyAST_MatchSequence(pats, EXTRA_FROM(t)))
                        : NULL;
        }
        inner = maybe_star_pattern(p);
        if (inner == NULL) {
            return NULL;
        }
        if (inner->kind != MatchStar_kind && EXPECT(RPAR)) {
            return inner;  /* group pattern */
        }
        p->mark = mark + 1;
        pats = pattern_list(p, RPAR, &had_comma);
        if (pats == NULL || !had_comma || !EXPECT(RPAR)) {
            return NULL;
        }
        return CHECK(_PyAST_MatchSequence(pats, EXTRA_FROM(t)));
    }
    case LSQB: {
        asdl_pattern_seq *pats;
        int had_comma;
        p->mark++;
        pats = pattern_list(p, RSQB, &had_comma);
        if (pats == NULL || !EXPECT(RSQB)) {
            return NULL;
        }
        return CHECK(_PyAST_MatchSequence(pats, EXTRA_FROM(t)));
    }
    case LBRACE:
        return mapping_pattern(p);
    default:
        e = literal_expr(p);
        if (e == NULL) {
            return NULL;
        }
        return CHECK(_PyAST_MatchValue(e, EXTRA_FROM(t)));
    }
}

static pattern_ty
closed_pattern(Parser *p)
{
    int mark = p->mark;
    pattern_ty res;
    if (_PyPegen_is_memoized(p, M_CLOSED_PATTERN, &res)) {
        return res;
    }
    ENTER();
    res = closed_pattern_raw(p);
    p->level--;
    if (ERR()) {
        return NULL;
    }
    if (res == NULL) {
        p->mark = mark;
    }
    _PyPegen_memoize(p, mark, M_CLOSED_PATTERN, res);
    return res;
}

/* or_pattern ['as' NAME] */
static pattern_ty
pattern(Parser *p)
{
    Token *start = PEEK();
    pattern_ty first = closed_pattern(p);
    PtrVec v;

    if (first == NULL) {
        return NULL;
    }
    if (at_type(p, VBAR)) {
        asdl_pattern_seq *alts;
        _PyPegen_vec_init(&v);
        if (vec_push(p, &v, first) < 0) {
            return NULL;
        }
        while (EXPECT(VBAR)) {
            pattern_ty alt = closed_pattern(p);
            if (alt == NULL || vec_push(p, &v, alt) < 0) {
                _PyPegen_vec_free(&v);
                return NULL;
            }
        }
        alts = vec_seq(p, &v);
        if (alts == NULL) {
            return NULL;
        }
        first = CHECK(_PyAST_MatchOr(alts, EXTRA_FROM(start)));
        if (first == NULL) {
            return NULL;
        }
    }
    if (at_kw(p, KW_as)) {
        int mark = p->mark;
        PyObject *id;
        p->mark++;
        id = capture_target(p);
        if (id == NULL) {
            if (p->call_invalid_rules && !ERR()) {
                Token *t = PEEK();
                if (t != NULL && t->kw == KW__) {
                    _PyPegen_error_at_token(p, t, "cannot use '_' as a "
                                            "target");
                }
            }
            p->mark = mark;
            return NULL;
        }
        return CHECK(_PyAST_MatchAs(first, id, EXTRA_FROM(start)));
    }
    return first;
}

/* patterns: open sequence (a, b) without brackets, or one pattern. */
static pattern_ty
patterns(Parser *p)
{
    Token *start = PEEK();
    pattern_ty first = maybe_star_pattern(p);
    PtrVec v;
    asdl_pattern_seq *pats;

    if (first == NULL) {
        return NULL;
    }
    if (!at_type(p, COMMA)) {
        if (first->kind == MatchStar_kind) {
            return NULL;
        }
        return first;
    }
    _PyPegen_vec_init(&v);
    if (vec_push(p, &v, first) < 0) {
        return NULL;
    }
    while (EXPECT(COMMA)) {
        pattern_ty pt;
        if (at_type(p, COLON) || at_kw(p, KW_if)) {
            break;
        }
        pt = maybe_star_pattern(p);
        if (pt == NULL || vec_push(p, &v, pt) < 0) {
            _PyPegen_vec_free(&v);
            return NULL;
        }
    }
    pats = vec_seq(p, &v);
    if (pats == NULL) {
        return NULL;
    }
    return CHECK(_PyAST_MatchSequence(pats, EXTRA_FROM(start)));
}

static match_case_ty
case_block(Parser *p)
{
    Token *kw = _PyPegen_expect_soft(p, KW_case);
    pattern_ty pat;
    expr_ty guard = NULL;
    asdl_stmt_seq *body;
    if (kw == NULL) {
        return NULL;
    }
    pat = patterns(p);
    if (pat == NULL) {
        return NULL;
    }
    if (KW(KW_if)) {
        guard = named_expression(p);
        if (guard == NULL) {
            return NULL;
        }
    }
    if (!expect_colon(p, 0)) {
        return NULL;
    }
    body = block(p, "'case' statement", kw->lineno);
    if (body == NULL) {
        return NULL;
    }
    return CHECK(_PyAST_match_case(pat, guard, body, p->arena));
}

static stmt_ty
match_stmt(Parser *p)
{
    Token *start = _PyPegen_expect_soft(p, KW_match);
    expr_ty subject;
    PtrVec cases;
    if (start == NULL) {
        return NULL;
    }
    {
        /* star_named_expression ',' star_named_expressions? | named_expr */
        Token *s = PEEK();
        expr_ty first = star_named_expression(p);
        if (first == NULL) {
            return NULL;
        }
        if (at_type(p, COMMA)) {
            PtrVec v;
            asdl_expr_seq *elts;
            _PyPegen_vec_init(&v);
            if (vec_push(p, &v, first) < 0 || more_star_named(p, &v) < 0) {
                _PyPegen_vec_free(&v);
                return NULL;
            }
            elts = vec_seq(p, &v);
            if (elts == NULL) {
                return NULL;
            }
            subject = CHECK(_PyAST_Tuple(elts, Load, EXTRA_FROM(s)));
        }
        else if (first->kind == Starred_kind) {
            return NULL;
        }
        else {
            subject = first;
        }
    }
    if (subject == NULL || !EXPECT(COLON)) {
        return NULL;
    }
    if (!EXPECT(NEWLINE)) {
        return NULL;
    }
    if (!EXPECT(INDENT)) {
        if (p->call_invalid_rules && !ERR()) {
            Token *t = PEEK();
            if (t != NULL) {
                _PyPegen_raise_error_known_location(
                    p, PyExc_IndentationError, t->lineno, t->col_offset,
                    t->end_lineno, t->end_col_offset,
                    "expected an indented block after 'match' statement on "
                    "line %d", start->lineno);
            }
        }
        return NULL;
    }
    _PyPegen_vec_init(&cases);
    while (at_kw(p, KW_case)) {
        match_case_ty c = case_block(p);
        if (c == NULL || vec_push(p, &cases, c) < 0) {
            _PyPegen_vec_free(&cases);
            return NULL;
        }
    }
    if (cases.n == 0 || !EXPECT(DEDENT)) {
        _PyPegen_vec_free(&cases);
        return NULL;
    }
    {
        asdl_match_case_seq *cs = vec_seq(p, &cases);
        if (cs == NULL) {
            return NULL;
        }
        return CHECK(_PyAST_Match(subject, cs, EXTRA_FROM(start)));
    }
}

/* ---------------------------------------------------------------------- */
/* Statements and start rules                                              */

static stmt_ty
compound_stmt(Parser *p)
{
    Token *t = PEEK();
    int mark = p->mark;
    if (t == NULL) {
        return NULL;
    }
    if (t->type == AT) {
        asdl_expr_seq *decos = decorators(p);
        stmt_ty s;
        if (decos == NULL) {
            return NULL;
        }
        if (at_kw(p, KW_class)) {
            s = class_def(p, decos);
        }
        else {
            s = function_def(p, decos);
        }
        if (s == NULL) {
            p->mark = mark;
        }
        return s;
    }
    if (t->type != NAME) {
        return NULL;
    }
    switch (t->kw) {
    case KW_def:
        return function_def(p, NULL);
    case KW_if:
        return if_stmt(p, 0);
    case KW_class:
        return class_def(p, NULL);
    case KW_with:
        return with_stmt(p);
    case KW_for:
        return for_stmt(p);
    case KW_try:
        return try_stmt(p);
    case KW_while:
        return while_stmt(p);
    case KW_async: {
        Token *n = _PyPegen_peek_at(p, 1);
        if (n == NULL || n->type != NAME) {
            return NULL;
        }
        if (n->kw == KW_def) {
            return function_def(p, NULL);
        }
        if (n->kw == KW_with) {
            return with_stmt(p);
        }
        if (n->kw == KW_for) {
            return for_stmt(p);
        }
        return NULL;
    }
    case KW_match: {
        stmt_ty s = match_stmt(p);
        if (s == NULL && !ERR()) {
            p->mark = mark;
        }
        return s;
    }
    }
    return NULL;
}

static asdl_stmt_seq *
statements(Parser *p)
{
    PtrVec v;
    _PyPegen_vec_init(&v);
    for (;;) {
        int mark = p->mark;
        stmt_ty s;
        ENTER();
        s = compound_stmt(p);
        p->level--;
        if (s != NULL) {
            if (vec_push(p, &v, s) < 0) {
                return NULL;
            }
            continue;
        }
        if (ERR()) {
            _PyPegen_vec_free(&v);
            return NULL;
        }
        p->mark = mark;
        {
            asdl_stmt_seq *ss = simple_stmts(p);
            Py_ssize_t i;
            if (ss == NULL) {
                if (ERR()) {
                    _PyPegen_vec_free(&v);
                    return NULL;
                }
                p->mark = mark;
                break;
            }
            for (i = 0; i < asdl_seq_LEN(ss); i++) {
                if (vec_push(p, &v, asdl_seq_GET(ss, i)) < 0) {
                    return NULL;
                }
            }
        }
    }
    if (v.n == 0) {
        _PyPegen_vec_free(&v);
        return NULL;
    }
    return (asdl_stmt_seq *)vec_seq(p, &v);
}

static mod_ty
file_rule(Parser *p)
{
    asdl_stmt_seq *body = NULL;
    asdl_type_ignore_seq *ignores;
    if (!at_type(p, ENDMARKER)) {
        body = statements(p);
        if (body == NULL) {
            return NULL;
        }
    }
    if (!EXPECT(ENDMARKER)) {
        return NULL;
    }
    if (body == NULL) {
        body = empty_seq(p);
    }
    ignores = empty_seq(p);
    if (body == NULL || ignores == NULL) {
        return NULL;
    }
    return CHECK(_PyAST_Module(body, ignores, p->arena));
}

static mod_ty
eval_rule(Parser *p)
{
    expr_ty e = expressions(p);
    if (e == NULL) {
        return NULL;
    }
    while (EXPECT(NEWLINE)) {
    }
    if (!EXPECT(ENDMARKER)) {
        return NULL;
    }
    return CHECK(_PyAST_Expression(e, p->arena));
}

static mod_ty
interactive_rule(Parser *p)
{
    asdl_stmt_seq *body;
    Token *t = PEEK();
    stmt_ty s;
    if (t == NULL) {
        return NULL;
    }
    if (t->type == NEWLINE) {
        p->mark++;
        s = CHECK(_PyAST_Pass(EXTRA_FROM(t)));
        body = s ? singleton_seq(p, s) : NULL;
    }
    else {
        s = compound_stmt(p);
        if (s != NULL) {
            /* The block already ended with NEWLINE ... DEDENT. */
            (void)EXPECT(NEWLINE);
            body = singleton_seq(p, s);
        }
        else {
            if (ERR()) {
                return NULL;
            }
            body = simple_stmts(p);
        }
    }
    if (body == NULL) {
        return NULL;
    }
    if (!p->tok->interactive) {
        /* compile(..., "single") takes exactly one statement. */
        Token *n;
        while (EXPECT(NEWLINE) || EXPECT(DEDENT)) {
        }
        n = PEEK();
        if (n == NULL) {
            return NULL;
        }
        if (n->type != ENDMARKER) {
            return _PyPegen_error_at_token(p, n, "multiple statements found "
                                           "while compiling a single "
                                           "statement");
        }
    }
    return CHECK(_PyAST_Interactive(body, p->arena));
}

static mod_ty
func_type_rule(Parser *p)
{
    PtrVec v;
    expr_ty returns;
    asdl_expr_seq *argtypes;
    if (!EXPECT(LPAR)) {
        return NULL;
    }
    _PyPegen_vec_init(&v);
    while (!at_type(p, RPAR)) {
        expr_ty e;
        if (EXPECT(STAR) || EXPECT(DOUBLESTAR)) {
            /* '*' and '**' entries are kept as plain expressions. */
        }
        e = expression(p);
        if (e == NULL || vec_push(p, &v, e) < 0) {
            _PyPegen_vec_free(&v);
            return NULL;
        }
        if (!EXPECT(COMMA)) {
            break;
        }
    }
    if (!EXPECT(RPAR) || !EXPECT(RARROW)) {
        _PyPegen_vec_free(&v);
        return NULL;
    }
    returns = expression(p);
    if (returns == NULL) {
        _PyPegen_vec_free(&v);
        return NULL;
    }
    while (EXPECT(NEWLINE)) {
    }
    if (!EXPECT(ENDMARKER)) {
        _PyPegen_vec_free(&v);
        return NULL;
    }
    argtypes = vec_seq(p, &v);
    if (argtypes == NULL) {
        return NULL;
    }
    return CHECK(_PyAST_FunctionType(argtypes, returns, p->arena));
}

void *
_PyPegen_parse(Parser *p)
{
    switch (p->start_rule) {
    case Py_file_input:
        return file_rule(p);
    case Py_eval_input:
        return eval_rule(p);
    case Py_single_input:
        return interactive_rule(p);
    case Py_func_type_input:
        return func_type_rule(p);
    }
    PyErr_Format(PyExc_SystemError, "invalid parser mode %d",
                 p->start_rule);
    p->error_indicator = 1;
    return NULL;
}
