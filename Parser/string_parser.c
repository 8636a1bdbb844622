/* String literals: decoding escape sequences and joining adjacent
   literals ("a" 'b' f"{c}") into one Constant, JoinedStr or TemplateStr
   node. */

#include "Python.h"
#include "pegen.h"
#include "string_parser.h"
#include "pycore_unicodedata.h"

#include <string.h>

/* Output buffer for decoded text, always UTF-8 (surrogates allowed). */
typedef struct {
    char *data;
    Py_ssize_t n;
    Py_ssize_t cap;
    int surrogates;
} OutBuf;

static int
out_reserve(OutBuf *o, Py_ssize_t extra)
{
    if (o->n + extra > o->cap) {
        Py_ssize_t cap = o->cap ? o->cap : 64;
        char *nd;
        while (cap < o->n + extra) {
            cap *= 2;
        }
        nd = (char *)PyMem_Realloc(o->data, (size_t)cap);
        if (nd == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        o->data = nd;
        o->cap = cap;
    }
    return 0;
}

static int
out_byte(OutBuf *o, char c)
{
    if (out_reserve(o, 1) < 0) {
        return -1;
    }
    o->data[o->n++] = c;
    return 0;
}

static int
out_codepoint(OutBuf *o, unsigned int cp)
{
    if (out_reserve(o, 4) < 0) {
        return -1;
    }
    if (cp < 0x80) {
        o->data[o->n++] = (char)cp;
    }
    else if (cp < 0x800) {
        o->data[o->n++] = (char)(0xC0 | (cp >> 6));
        o->data[o->n++] = (char)(0x80 | (cp & 0x3F));
    }
    else if (cp < 0x10000) {
        if (cp >= 0xD800 && cp <= 0xDFFF) {
            o->surrogates = 1;
        }
        o->data[o->n++] = (char)(0xE0 | (cp >> 12));
        o->data[o->n++] = (char)(0x80 | ((cp >> 6) & 0x3F));
        o->data[o->n++] = (char)(0x80 | (cp & 0x3F));
    }
    else {
        o->data[o->n++] = (char)(0xF0 | (cp >> 18));
        o->data[o->n++] = (char)(0x80 | ((cp >> 12) & 0x3F));
        o->data[o->n++] = (char)(0x80 | ((cp >> 6) & 0x3F));
        o->data[o->n++] = (char)(0x80 | (cp & 0x3F));
    }
    return 0;
}

static int
hexval(int c)
{
    if (c >= '0' && c <= '9') {
        return c - '0';
    }
    if (c >= 'a' && c <= 'f') {
        return c - 'a' + 10;
    }
    if (c >= 'A' && c <= 'F') {
        return c - 'A' + 10;
    }
    return -1;
}

static void *
escape_error(Parser *p, Token *t, int is_bytes, Py_ssize_t pos,
             Py_ssize_t endpos, const char *what)
{
    return _PyPegen_error_at_token(
        p, t, "(unicode error) '%s' codec can't decode bytes in position "
        "%zd-%zd: %s", is_bytes ? "unicodeescape" : "unicodeescape",
        pos, endpos, what);
}

/* Decode the body of a literal.  `collapse_braces` turns "{{" and "}}"
   into single braces (f-string text).  Returns a new str or bytes. */
PyObject *
_PyPegen_decode_literal(Parser *p, const char *s, Py_ssize_t n, int raw,
                        int is_bytes, int collapse_braces, Token *t)
{
    OutBuf o = {NULL, 0, 0, 0};
    Py_ssize_t i = 0;
    PyObject *res = NULL;

    if (out_reserve(&o, n + 1) < 0) {
        goto error;
    }
    while (i < n) {
        unsigned char c = (unsigned char)s[i];
        if (is_bytes && c >= 0x80) {
            _PyPegen_error_at_token(
                p, t, "bytes can only contain ASCII literal characters");
            goto error;
        }
        if (collapse_braces && (c == '{' || c == '}') && i + 1 < n
            && s[i + 1] == (char)c) {
            if (out_byte(&o, (char)c) < 0) {
                goto error;
            }
            i += 2;
            continue;
        }
        if (c != '\\' || raw || i + 1 >= n) {
            if (out_byte(&o, (char)c) < 0) {
                goto error;
            }
            i++;
            continue;
        }
        /* An escape sequence. */
        {
            int e = (unsigned char)s[i + 1];
            Py_ssize_t start = i;
            int ok = 0;
            unsigned int cp = 0;
            i += 2;
            switch (e) {
            case '\n': ok = 1; break;
            case '\\': cp = '\\'; ok = 2; break;
            case '\'': cp = '\''; ok = 2; break;
            case '"': cp = '"'; ok = 2; break;
            case 'a': cp = 7; ok = 2; break;
            case 'b': cp = 8; ok = 2; break;
            case 'f': cp = 12; ok = 2; break;
            case 'n': cp = 10; ok = 2; break;
            case 'r': cp = 13; ok = 2; break;
            case 't': cp = 9; ok = 2; break;
            case 'v': cp = 11; ok = 2; break;
            case '0': case '1': case '2': case '3':
            case '4': case '5': case '6': case '7': {
                int k = 1;
                cp = (unsigned int)(e - '0');
                while (k < 3 && i < n && s[i] >= '0' && s[i] <= '7') {
                    cp = cp * 8 + (unsigned int)(s[i] - '0');
                    i++;
                    k++;
                }
                if (is_bytes) {
                    cp &= 0xFF;
                }
                ok = 2;
                break;
            }
            case 'x': case 'u': case 'U': {
                int digits = e == 'x' ? 2 : e == 'u' ? 4 : 8, k;
                if (is_bytes && e != 'x') {
                    break;  /* kept literally */
                }
                for (k = 0; k < digits; k++) {
                    int h = i < n ? hexval((unsigned char)s[i]) : -1;
                    if (h < 0) {
                        escape_error(p, t, is_bytes, start - 0,
                                     i - 1 < start ? start : i - 1,
                                     e == 'x' ? "truncated \\xXX escape"
                                     : e == 'u' ? "truncated \\uXXXX escape"
                                     : "truncated \\UXXXXXXXX escape");
                        goto error;
                    }
                    cp = cp * 16 + (unsigned int)h;
                    i++;
                }
                if (cp > 0x10FFFF) {
                    escape_error(p, t, is_bytes, start, i - 1,
                                 "illegal Unicode character");
                    goto error;
                }
                ok = 2;
                break;
            }
            case 'N':
                if (!is_bytes) {
                    /* \N{NAME}: names come from the unicodedata module. */
                    Py_ssize_t close = i;
                    Py_UCS4 named;
                    while (close < n && s[close] != '}') {
                        close++;
                    }
                    if (i >= n || s[i] != '{' || close >= n
                        || close == i + 1) {
                        /* The error spans the name read so far. */
                        escape_error(p, t, 0, start,
                                     i < n && s[i] == '{' ? close - 1 : i - 1,
                                     "malformed \\N character escape");
                        goto error;
                    }
                    if (!_PyUnicode_LookupCharName(s + i + 1, close - i - 1,
                                                   &named)) {
                        escape_error(p, t, 0, start, close,
                                     "unknown Unicode character name");
                        goto error;
                    }
                    cp = (unsigned int)named;
                    i = close + 1;
                    ok = 2;
                }
                break;
            }
            if (ok == 1) {
                continue;
            }
            if (ok == 2) {
                if (is_bytes || cp < 0x80) {
                    if (out_byte(&o, (char)cp) < 0) {
                        goto error;
                    }
                }
                else if (out_codepoint(&o, cp) < 0) {
                    goto error;
                }
                continue;
            }
            /* Unknown escape: keep the backslash and the character.
               TODO: CPython also emits a SyntaxWarning here. */
            i = start + 1;
            if (out_byte(&o, '\\') < 0) {
                goto error;
            }
        }
    }
    if (is_bytes) {
        res = PyBytes_FromStringAndSize(o.data, o.n);
    }
    else {
        res = PyUnicode_DecodeUTF8(o.data, o.n,
                                   o.surrogates ? "surrogatepass" : NULL);
    }
    PyMem_Free(o.data);
    if (res == NULL) {
        p->error_indicator = 1;
    }
    return res;

error:
    PyMem_Free(o.data);
    p->error_indicator = 1;
    return NULL;
}

/* Split a STRING token into prefix flags and body. */
static void
string_token_parts(Parser *p, Token *t, int *raw, int *is_bytes, int *is_u,
                   const char **body, Py_ssize_t *len)
{
    const char *s = p->tok->buf + t->start;
    const char *e = p->tok->buf + t->end;
    int q;
    *raw = *is_bytes = *is_u = 0;
    while (*s != '\'' && *s != '"') {
        switch (*s) {
        case 'r': case 'R': *raw = 1; break;
        case 'b': case 'B': *is_bytes = 1; break;
        case 'u': case 'U': *is_u = 1; break;
        }
        s++;
    }
    q = (e - s >= 6 && s[0] == s[1] && s[1] == s[2]) ? 3 : 1;
    *body = s + q;
    *len = (e - s) - 2 * q;
}

static int
string_token_kind(Parser *p, Token *t)
{
    int raw, is_bytes, is_u;
    const char *body;
    Py_ssize_t len;
    string_token_parts(p, t, &raw, &is_bytes, &is_u, &body, &len);
    return is_bytes ? STRPART_BYTES : STRPART_STR;
}

static PyObject *
decode_string_token(Parser *p, Token *t, int *is_u)
{
    int raw, is_bytes;
    const char *body;
    Py_ssize_t len;
    string_token_parts(p, t, &raw, &is_bytes, is_u, &body, &len);
    return _PyPegen_decode_literal(p, body, len, raw, is_bytes, 0, t);
}

int
_PyPegen_string_part_kind(Parser *p, Token *t)
{
    return string_token_kind(p, t);
}

/* Join the values of two adjacent str constants. */
static PyObject *
concat_str(Parser *p, PyObject *a, PyObject *b)
{
    PyObject *r = PyUnicode_Concat(a, b);
    if (r == NULL) {
        p->error_indicator = 1;
        return NULL;
    }
    if (_PyPegen_add_object(p, r) < 0) {
        return NULL;
    }
    return r;
}

static expr_ty
make_constant(Parser *p, PyObject *v, PyObject *kind, int lineno, int col,
              int end_lineno, int end_col)
{
    expr_ty e = _PyAST_Constant(v, kind, lineno, col, end_lineno, end_col,
                                p->arena);
    if (e == NULL) {
        p->error_indicator = 1;
    }
    return e;
}

static int
is_str_constant(expr_ty e)
{
    return e->kind == Constant_kind && PyUnicode_Check(e->v.Constant.value);
}

/* Append one piece to the JoinedStr/TemplateStr value list, merging it
   with a preceding literal and dropping empty literals. */
static int
push_piece(Parser *p, PtrVec *v, expr_ty e)
{
    if (is_str_constant(e)) {
        if (PyUnicode_GetLength(e->v.Constant.value) == 0) {
            return 0;
        }
        if (v->n > 0 && is_str_constant((expr_ty)v->items[v->n - 1])) {
            expr_ty prev = (expr_ty)v->items[v->n - 1];
            PyObject *joined = concat_str(p, prev->v.Constant.value,
                                          e->v.Constant.value);
            expr_ty m;
            if (joined == NULL) {
                return -1;
            }
            m = make_constant(p, joined, NULL, prev->lineno,
                              prev->col_offset, e->end_lineno,
                              e->end_col_offset);
            if (m == NULL) {
                return -1;
            }
            v->items[v->n - 1] = m;
            return 0;
        }
    }
    if (_PyPegen_vec_push(v, e) < 0) {
        p->error_indicator = 1;
        return -1;
    }
    return 0;
}

/* t-strings only concatenate with t-strings.  The error spans the two
   literals where the kind first changes, e.g. "b" t"c" in "a" "b" t"c". */
static expr_ty
mixed_tstring_error(Parser *p, StringPart *parts, Py_ssize_t n)
{
    int lead_t = parts[0].kind == STRPART_TSTRING;
    Py_ssize_t k = 1;
    while (k < n - 1 && (parts[k].kind == STRPART_TSTRING) == lead_t) {
        k++;
    }
    return _PyPegen_raise_error_known_location(
        p, PyExc_SyntaxError, parts[k - 1].first->lineno,
        parts[k - 1].first->col_offset, parts[k].last->end_lineno,
        parts[k].last->end_col_offset,
        "cannot mix t-string literals with string or bytes literals");
}

expr_ty
_PyPegen_concatenate_strings(Parser *p, StringPart *parts, Py_ssize_t n)
{
    Token *first = parts[0].first, *last = parts[n - 1].last;
    int nbytes = 0, nf = 0, nt = 0, is_u = 0;
    Py_ssize_t i;

    for (i = 0; i < n; i++) {
        switch (parts[i].kind) {
        case STRPART_BYTES: nbytes++; break;
        case STRPART_FSTRING: nf++; break;
        case STRPART_TSTRING: nt++; break;
        }
    }
    if (nt > 0 && nt != n) {
        return mixed_tstring_error(p, parts, n);
    }
    if (nbytes > 0 && nbytes != n) {
        return _PyPegen_raise_error_known_location(
            p, PyExc_SyntaxError, first->lineno, first->col_offset,
            last->end_lineno, last->end_col_offset,
            "cannot mix bytes and nonbytes literals");
    }
    if (nf == 0 && nt == 0) {
        /* Plain str or bytes: one Constant. */
        PyObject *acc = NULL;
        PyObject *kind = NULL;
        for (i = 0; i < n; i++) {
            int u;
            PyObject *v = decode_string_token(p, parts[i].first, &u);
            if (v == NULL) {
                Py_XDECREF(acc);
                return NULL;
            }
            if (i == 0) {
                is_u = u;
            }
            if (acc == NULL) {
                acc = v;
            }
            else {
                if (nbytes) {
                    PyBytes_ConcatAndDel(&acc, v);
                }
                else {
                    PyObject *r = PyUnicode_Concat(acc, v);
                    Py_DECREF(acc);
                    Py_DECREF(v);
                    acc = r;
                }
                if (acc == NULL) {
                    p->error_indicator = 1;
                    return NULL;
                }
            }
        }
        if (_PyPegen_add_object(p, acc) < 0) {
            return NULL;
        }
        if (is_u) {
            kind = _PyPegen_new_identifier(p, "u", 1);
            if (kind == NULL) {
                return NULL;
            }
        }
        return make_constant(p, acc, kind, first->lineno, first->col_offset,
                             last->end_lineno, last->end_col_offset);
    }
    {
        PtrVec v;
        asdl_expr_seq *values;
        expr_ty res;
        _PyPegen_vec_init(&v);
        for (i = 0; i < n; i++) {
            if (parts[i].kind == STRPART_STR) {
                int u;
                PyObject *s = decode_string_token(p, parts[i].first, &u);
                expr_ty c;
                Token *t = parts[i].first;
                if (s == NULL || _PyPegen_add_object(p, s) < 0) {
                    goto fail;
                }
                c = make_constant(p, s, NULL, t->lineno, t->col_offset,
                                  t->end_lineno, t->end_col_offset);
                if (c == NULL || push_piece(p, &v, c) < 0) {
                    goto fail;
                }
            }
            else {
                Py_ssize_t k;
                asdl_expr_seq *vals = parts[i].values;
                for (k = 0; k < asdl_seq_LEN(vals); k++) {
                    if (push_piece(p, &v, asdl_seq_GET(vals, k)) < 0) {
                        goto fail;
                    }
                }
            }
        }
        values = (asdl_expr_seq *)_PyPegen_vec_to_seq(p, &v);
        if (values == NULL) {
            return NULL;
        }
        if (nt > 0) {
            res = _PyAST_TemplateStr(values, first->lineno, first->col_offset,
                                     last->end_lineno, last->end_col_offset,
                                     p->arena);
        }
        else {
            res = _PyAST_JoinedStr(values, first->lineno, first->col_offset,
                                   last->end_lineno, last->end_col_offset,
                                   p->arena);
        }
        if (res == NULL) {
            p->error_indicator = 1;
        }
        return res;
fail:
        _PyPegen_vec_free(&v);
        return NULL;
    }
}

/* A Constant for one FSTRING_MIDDLE token (literal text of an f-string or
   of a format spec). */
expr_ty
_PyPegen_fstring_middle(Parser *p, Token *t, int raw, int in_spec)
{
    PyObject *v = _PyPegen_decode_literal(p, p->tok->buf + t->start,
                                          t->end - t->start, raw, 0,
                                          !in_spec, t);
    if (v == NULL || _PyPegen_add_object(p, v) < 0) {
        return NULL;
    }
    return make_constant(p, v, NULL, t->lineno, t->col_offset, t->end_lineno,
                         t->end_col_offset);
}

/* Merge adjacent literal pieces of a format spec. */
asdl_expr_seq *
_PyPegen_join_pieces(Parser *p, void **items, Py_ssize_t n)
{
    PtrVec v;
    Py_ssize_t i;
    _PyPegen_vec_init(&v);
    for (i = 0; i < n; i++) {
        if (push_piece(p, &v, (expr_ty)items[i]) < 0) {
            _PyPegen_vec_free(&v);
            return NULL;
        }
    }
    return (asdl_expr_seq *)_PyPegen_vec_to_seq(p, &v);
}
