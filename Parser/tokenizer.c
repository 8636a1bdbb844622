/* Tokenizer for Python source.

   Input is normalised once up front (encoding decoded to UTF-8, a BOM
   dropped, \r\n and \r turned into \n, a final newline supplied) so the
   lexer proper only ever sees '\n' line ends.  Interactive files are read
   one line at a time on demand, printing the prompts.

   Besides the classic tokens the lexer implements PEP 701 f-strings: an
   f-string produces FSTRING_START, then FSTRING_MIDDLE pieces of literal
   text and ordinary tokens for each replacement field, then FSTRING_END.
   A stack of modes (tok->modes) says whether the next token is f-string
   text or Python code inside a replacement field. */

#include "Python.h"
#include "pycore_token.h"
#include "tokenizer.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#ifndef EOF
#define EOF (-1)
#endif

#define TABSIZE 8

const char * const _PyParser_TokenNames[] = {
    "ENDMARKER", "NAME", "NUMBER", "STRING", "NEWLINE", "INDENT",
    "DEDENT", "LPAR", "RPAR", "LSQB", "RSQB", "COLON", "COMMA", "SEMI",
    "PLUS", "MINUS", "STAR", "SLASH", "VBAR", "AMPER", "LESS", "GREATER",
    "EQUAL", "DOT", "PERCENT", "LBRACE", "RBRACE", "EQEQUAL", "NOTEQUAL",
    "LESSEQUAL", "GREATEREQUAL", "TILDE", "CIRCUMFLEX", "LEFTSHIFT",
    "RIGHTSHIFT", "DOUBLESTAR", "PLUSEQUAL", "MINEQUAL", "STAREQUAL",
    "SLASHEQUAL", "PERCENTEQUAL", "AMPEREQUAL", "VBAREQUAL",
    "CIRCUMFLEXEQUAL", "LEFTSHIFTEQUAL", "RIGHTSHIFTEQUAL",
    "DOUBLESTAREQUAL", "DOUBLESLASH", "DOUBLESLASHEQUAL", "AT", "ATEQUAL",
    "RARROW", "ELLIPSIS", "COLONEQUAL", "EXCLAMATION", "OP", "TYPE_IGNORE",
    "TYPE_COMMENT", "SOFT_KEYWORD", "FSTRING_START", "FSTRING_MIDDLE",
    "FSTRING_END", "TSTRING_START", "TSTRING_MIDDLE", "TSTRING_END",
    "COMMENT", "NL", "ERRORTOKEN", "ENCODING", "N_TOKENS",
};

/* ---------------------------------------------------------------------- */
/* Operator tables                                                         */

int
_PyToken_OneChar(int c)
{
    switch (c) {
    case '!': return EXCLAMATION;
    case '%': return PERCENT;
    case '&': return AMPER;
    case '(': return LPAR;
    case ')': return RPAR;
    case '*': return STAR;
    case '+': return PLUS;
    case ',': return COMMA;
    case '-': return MINUS;
    case '.': return DOT;
    case '/': return SLASH;
    case ':': return COLON;
    case ';': return SEMI;
    case '<': return LESS;
    case '=': return EQUAL;
    case '>': return GREATER;
    case '@': return AT;
    case '[': return LSQB;
    case ']': return RSQB;
    case '^': return CIRCUMFLEX;
    case '{': return LBRACE;
    case '|': return VBAR;
    case '}': return RBRACE;
    case '~': return TILDE;
    }
    return OP;
}

int
_PyToken_TwoChars(int c1, int c2)
{
    switch (c1) {
    case '!': if (c2 == '=') { return NOTEQUAL; } break;
    case '%': if (c2 == '=') { return PERCENTEQUAL; } break;
    case '&': if (c2 == '=') { return AMPEREQUAL; } break;
    case '*':
        if (c2 == '*') { return DOUBLESTAR; }
        if (c2 == '=') { return STAREQUAL; }
        break;
    case '+': if (c2 == '=') { return PLUSEQUAL; } break;
    case '-':
        if (c2 == '=') { return MINEQUAL; }
        if (c2 == '>') { return RARROW; }
        break;
    case '/':
        if (c2 == '/') { return DOUBLESLASH; }
        if (c2 == '=') { return SLASHEQUAL; }
        break;
    case ':': if (c2 == '=') { return COLONEQUAL; } break;
    case '<':
        if (c2 == '<') { return LEFTSHIFT; }
        if (c2 == '=') { return LESSEQUAL; }
        if (c2 == '>') { return NOTEQUAL; }
        break;
    case '=': if (c2 == '=') { return EQEQUAL; } break;
    case '>':
        if (c2 == '=') { return GREATEREQUAL; }
        if (c2 == '>') { return RIGHTSHIFT; }
        break;
    case '@': if (c2 == '=') { return ATEQUAL; } break;
    case '^': if (c2 == '=') { return CIRCUMFLEXEQUAL; } break;
    case '|': if (c2 == '=') { return VBAREQUAL; } break;
    }
    return OP;
}

int
_PyToken_ThreeChars(int c1, int c2, int c3)
{
    if (c3 != '=') {
        if (c1 == '.' && c2 == '.' && c3 == '.') {
            return ELLIPSIS;
        }
        return OP;
    }
    if (c1 == '*' && c2 == '*') { return DOUBLESTAREQUAL; }
    if (c1 == '/' && c2 == '/') { return DOUBLESLASHEQUAL; }
    if (c1 == '<' && c2 == '<') { return LEFTSHIFTEQUAL; }
    if (c1 == '>' && c2 == '>') { return RIGHTSHIFTEQUAL; }
    return OP;
}

/* ---------------------------------------------------------------------- */
/* Buffer and line table                                                   */

static int
buf_reserve(struct tok_state *tok, Py_ssize_t extra)
{
    Py_ssize_t need = tok->len + extra + 2;
    if (need > tok->cap) {
        Py_ssize_t cap = tok->cap ? tok->cap : 256;
        char *nb;
        while (cap < need) {
            cap *= 2;
        }
        nb = (char *)PyMem_Realloc(tok->buf, cap);
        if (nb == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        tok->buf = nb;
        tok->cap = cap;
    }
    return 0;
}

static int
add_line_start(struct tok_state *tok, Py_ssize_t off)
{
    if (tok->nlines == tok->lines_cap) {
        int cap = tok->lines_cap ? tok->lines_cap * 2 : 64;
        Py_ssize_t *nl = (Py_ssize_t *)PyMem_Realloc(
            tok->lines, (size_t)cap * sizeof(Py_ssize_t));
        if (nl == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        tok->lines = nl;
        tok->lines_cap = cap;
    }
    tok->lines[tok->nlines++] = off;
    return 0;
}

/* Append source text, normalising line ends and recording where lines
   start.  `*pending_cr` carries a trailing '\r' between calls. */
static int
append_text(struct tok_state *tok, const char *s, Py_ssize_t n)
{
    Py_ssize_t i;
    if (buf_reserve(tok, n) < 0) {
        return -1;
    }
    for (i = 0; i < n; i++) {
        char c = s[i];
        if (c == '\r') {
            if (i + 1 < n && s[i + 1] == '\n') {
                continue;
            }
            c = '\n';
        }
        tok->buf[tok->len++] = c;
        if (c == '\n' && add_line_start(tok, tok->len) < 0) {
            return -1;
        }
    }
    tok->buf[tok->len] = '\0';
    return 0;
}

Py_ssize_t
_PyTokenizer_LineStart(struct tok_state *tok, int lineno)
{
    if (lineno < 1) {
        return 0;
    }
    if (lineno > tok->nlines) {
        return tok->len;
    }
    return tok->lines[lineno - 1];
}

/* ---------------------------------------------------------------------- */
/* Error reporting                                                         */

PyObject *
_PyTokenizer_LineText(struct tok_state *tok, int lineno)
{
    Py_ssize_t s = _PyTokenizer_LineStart(tok, lineno);
    Py_ssize_t e = s;
    while (e < tok->len && tok->buf[e] != '\n') {
        e++;
    }
    if (e < tok->len) {
        e++;    /* keep the newline, like CPython's error text */
    }
    return PyUnicode_DecodeUTF8(tok->buf + s, e - s, "replace");
}

int
_PyTokenizer_CharOffset(struct tok_state *tok, int lineno, int col)
{
    Py_ssize_t s = _PyTokenizer_LineStart(tok, lineno);
    int i, chars = 0;
    for (i = 0; i < col && s + i < tok->len; i++) {
        unsigned char c = (unsigned char)tok->buf[s + i];
        if ((c & 0xC0) != 0x80) {
            chars++;
        }
    }
    /* Columns past the stored text (e.g. an implied newline) still count. */
    if (i < col) {
        chars += col - i;
    }
    return chars + 1;
}

int
_PyTokenizer_RaiseAt(struct tok_state *tok, PyObject *exc, int lineno,
                     int col, int end_lineno, int end_col,
                     const char *format, ...)
{
    va_list va;
    PyObject *msg, *text, *args;
    int offset, end_offset;

    if (exc == NULL) {
        exc = PyExc_SyntaxError;
    }
    va_start(va, format);
    msg = PyUnicode_FromFormatV(format, va);
    va_end(va);
    if (msg == NULL) {
        goto done;
    }
    text = _PyTokenizer_LineText(tok, lineno);
    if (text == NULL) {
        Py_DECREF(msg);
        goto done;
    }
    offset = col < 0 ? col : _PyTokenizer_CharOffset(tok, lineno, col);
    end_offset = end_col < 0 ? (end_col == -2 ? 0 : -1)
                 : _PyTokenizer_CharOffset(tok, end_lineno, end_col);
    args = Py_BuildValue("(O(OiiNii))", msg, tok->filename, lineno, offset,
                         text, end_lineno, end_offset);
    Py_DECREF(msg);
    if (args != NULL) {
        PyErr_SetObject(exc, args);
        Py_DECREF(args);
    }
done:
    tok->done = E_ERROR;
    return ERRORTOKEN;
}

/* The column of the next character, in bytes. */
static int
cur_col(struct tok_state *tok)
{
    return (int)(tok->cur - _PyTokenizer_LineStart(tok, tok->lineno));
}

/* Error at the current position with a zero-width range. */
static int
error_here(struct tok_state *tok, int back, const char *msg)
{
    int col = cur_col(tok) - back;
    if (col < 0) {
        col = 0;
    }
    return _PyTokenizer_RaiseAt(tok, NULL, tok->lineno, col, tok->lineno,
                                col, "%s", msg);
}

/* ---------------------------------------------------------------------- */
/* Reading characters                                                      */

/* Read one more line of interactive input.  Returns 0 at end of file. */
static int
underflow_interactive(struct tok_state *tok)
{
    const char *prompt;
    int got = 0, c;

    if (tok->fp == NULL || tok->fp_eof) {
        return 0;
    }
    prompt = tok->nlines <= 1 && tok->len == 0 ? tok->ps1 : tok->ps2;
    if (prompt != NULL) {
        fputs(prompt, stderr);
        fflush(stderr);
    }
    for (;;) {
        char ch;
        c = getc(tok->fp);
        if (c == EOF) {
            tok->fp_eof = 1;
            break;
        }
        if (c == '\0') {
            c = ' ';   /* cannot be represented in the buffer */
        }
        ch = (char)c;
        if (append_text(tok, &ch, 1) < 0) {
            return -1;
        }
        got = 1;
        if (c == '\n') {
            break;
        }
    }
    if (tok->fp_eof && got && tok->buf[tok->len - 1] != '\n') {
        if (append_text(tok, "\n", 1) < 0) {
            return -1;
        }
    }
    return got;
}

static int
tok_nextc(struct tok_state *tok)
{
    int c;
    if (tok->cur >= tok->len) {
        int r = underflow_interactive(tok);
        if (r < 0) {
            tok->done = E_ERROR;
            return EOF;
        }
        if (r == 0 || tok->cur >= tok->len) {
            if (tok->done == E_OK) {
                tok->done = E_EOF;
            }
            tok->hit_eof = 1;
            return EOF;
        }
    }
    c = (unsigned char)tok->buf[tok->cur++];
    if (c == '\n') {
        tok->lineno++;
    }
    return c;
}

static void
tok_backup(struct tok_state *tok, int c)
{
    if (c == EOF) {
        return;
    }
    tok->cur--;
    if (tok->buf[tok->cur] == '\n') {
        tok->lineno--;
    }
}

static int
tok_peek(struct tok_state *tok)
{
    int c = tok_nextc(tok);
    tok_backup(tok, c);
    return c;
}

/* ---------------------------------------------------------------------- */
/* Source preparation: encodings                                           */

/* Validate UTF-8; return the offset of the first bad byte or -1. */
static Py_ssize_t
find_invalid_utf8(const unsigned char *s, Py_ssize_t n)
{
    Py_ssize_t i = 0;
    while (i < n) {
        unsigned char c = s[i];
        int k, need;
        unsigned int cp;
        if (c < 0x80) {
            i++;
            continue;
        }
        if (c >= 0xC2 && c <= 0xDF) {
            need = 1;
            cp = c & 0x1F;
        }
        else if (c >= 0xE0 && c <= 0xEF) {
            need = 2;
            cp = c & 0x0F;
        }
        else if (c >= 0xF0 && c <= 0xF4) {
            need = 3;
            cp = c & 0x07;
        }
        else {
            return i;
        }
        if (i + need >= n) {
            return i;
        }
        for (k = 1; k <= need; k++) {
            if ((s[i + k] & 0xC0) != 0x80) {
                return i;
            }
            cp = (cp << 6) | (s[i + k] & 0x3F);
        }
        if ((need == 2 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF)))
            || (need == 3 && (cp < 0x10000 || cp > 0x10FFFF))) {
            return i;
        }
        i += need + 1;
    }
    return -1;
}

/* Look for a PEP 263 coding declaration on one line [s, e).  Stores a
   malloc'ed lower-case name in *name.  Returns 1 if the line is a comment
   or blank (so the next line may still hold the cookie), 0 otherwise. */
static int
find_cookie_in_line(const char *s, const char *e, char **name)
{
    const char *p = s;
    while (p < e && (*p == ' ' || *p == '\t' || *p == '\f')) {
        p++;
    }
    if (p == e || *p == '\n') {
        return 1;
    }
    if (*p != '#') {
        return 0;
    }
    for (; p + 6 < e; p++) {
        if (memcmp(p, "coding", 6) == 0 && (p[6] == ':' || p[6] == '=')) {
            const char *q = p + 7, *start;
            size_t len, i;
            while (q < e && (*q == ' ' || *q == '\t')) {
                q++;
            }
            start = q;
            while (q < e && (isalnum((unsigned char)*q) || *q == '-'
                             || *q == '_' || *q == '.')) {
                q++;
            }
            len = (size_t)(q - start);
            if (len == 0) {
                continue;
            }
            *name = (char *)PyMem_Malloc(len + 1);
            if (*name == NULL) {
                return -1;
            }
            for (i = 0; i < len; i++) {
                char c = (char)tolower((unsigned char)start[i]);
                (*name)[i] = c == '_' ? '-' : c;
            }
            (*name)[len] = '\0';
            return 0;
        }
    }
    return 1;
}

static int
name_is(const char *name, const char *base)
{
    size_t n = strlen(base);
    return strncmp(name, base, n) == 0 && (name[n] == '\0' || name[n] == '-');
}

/* 0 = utf-8, 1 = latin-1, 2 = something else. */
static int
classify_encoding(const char *name)
{
    if (name_is(name, "utf-8") || strcmp(name, "utf8") == 0) {
        return 0;
    }
    if (name_is(name, "latin-1") || name_is(name, "iso-8859-1")
        || name_is(name, "iso-latin-1")) {
        return 1;
    }
    return 2;
}

static int
encoding_error(struct tok_state *tok, int lineno, const char *fmt,
               const char *arg)
{
    PyObject *msg = PyUnicode_FromFormat(fmt, arg);
    PyObject *args;
    if (msg == NULL) {
        return -1;
    }
    args = Py_BuildValue("(O(OiiOii))", msg, tok->filename, lineno, 0,
                         Py_None, lineno, 0);
    Py_DECREF(msg);
    if (args != NULL) {
        PyErr_SetObject(PyExc_SyntaxError, args);
        Py_DECREF(args);
    }
    return -1;
}

/* Decode `data` per its BOM/cookie and store it normalised in tok. */
static int
load_source(struct tok_state *tok, const char *data, Py_ssize_t n,
            int ignore_cookie, const char *forced_enc, int from_file)
{
    char *cookie = NULL;
    int bom = 0, kind = 0, cookie_line = 1;
    Py_ssize_t bad;

    if (n >= 3 && memcmp(data, "\xEF\xBB\xBF", 3) == 0) {
        data += 3;
        n -= 3;
        bom = 1;
    }
    if (!ignore_cookie) {
        const char *e1 = memchr(data, '\n', (size_t)n);
        const char *end1 = e1 ? e1 + 1 : data + n;
        int r = find_cookie_in_line(data, end1, &cookie);
        if (r < 0) {
            return -1;
        }
        if (r == 1 && cookie == NULL && e1 != NULL) {
            const char *e2 = memchr(end1, '\n', (size_t)(data + n - end1));
            cookie_line = 2;
            if (find_cookie_in_line(end1, e2 ? e2 + 1 : data + n,
                                    &cookie) < 0) {
                return -1;
            }
        }
    }
    if (forced_enc != NULL && cookie == NULL) {
        size_t l = strlen(forced_enc), i;
        cookie = (char *)PyMem_Malloc(l + 1);
        if (cookie == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        for (i = 0; i <= l; i++) {
            char c = (char)tolower((unsigned char)forced_enc[i]);
            cookie[i] = c == '_' ? '-' : c;
        }
    }
    if (cookie != NULL) {
        kind = classify_encoding(cookie);
        if (bom && !name_is(cookie, "utf-8")) {
            encoding_error(tok, cookie_line, "encoding problem: %s with BOM",
                           cookie);
            PyMem_Free(cookie);
            return -1;
        }
    }
    if (kind == 1) {
        /* Latin-1: every byte is its own code point. */
        Py_ssize_t i;
        int rc = 0;
        for (i = 0; i < n && rc == 0; i++) {
            unsigned char c = (unsigned char)data[i];
            char two[2];
            if (c < 0x80) {
                rc = append_text(tok, (const char *)&data[i], 1);
            }
            else {
                two[0] = (char)(0xC0 | (c >> 6));
                two[1] = (char)(0x80 | (c & 0x3F));
                rc = append_text(tok, two, 2);
            }
        }
        PyMem_Free(cookie);
        return rc;
    }
    if (kind == 2) {
        PyObject *u = PyUnicode_Decode(data, n, cookie, NULL);
        const char *s;
        Py_ssize_t sn;
        int rc;
        if (u == NULL) {
            if (PyErr_ExceptionMatches(PyExc_LookupError)) {
                PyErr_Clear();
                encoding_error(tok, cookie_line, "unknown encoding: %s",
                               cookie);
            }
            PyMem_Free(cookie);
            return -1;
        }
        PyMem_Free(cookie);
        s = PyUnicode_AsUTF8AndSize(u, &sn);
        if (s == NULL) {
            Py_DECREF(u);
            return -1;
        }
        rc = append_text(tok, s, sn);
        Py_DECREF(u);
        return rc;
    }
    PyMem_Free(cookie);
    bad = find_invalid_utf8((const unsigned char *)data, n);
    if (bad >= 0) {
        int lineno = 1;
        Py_ssize_t i;
        char hex[8];
        for (i = 0; i < bad; i++) {
            lineno += data[i] == '\n';
        }
        snprintf(hex, sizeof(hex), "%.2x", (unsigned char)data[bad]);
        if (from_file) {
            PyObject *msg = PyUnicode_FromFormat(
                "Non-UTF-8 code starting with '\\x%s' in file %U on line "
                "%i, but no encoding declared; see "
                "https://peps.python.org/pep-0263/ for details",
                hex, tok->filename, lineno);
            if (msg != NULL) {
                PyObject *args = Py_BuildValue("(O(OiiOii))", msg,
                                               tok->filename, lineno, 0,
                                               Py_None, lineno, 0);
                Py_DECREF(msg);
                if (args != NULL) {
                    PyErr_SetObject(PyExc_SyntaxError, args);
                    Py_DECREF(args);
                }
            }
            return -1;
        }
        return encoding_error(tok, lineno,
                              "(unicode error) 'utf-8' codec can't decode "
                              "byte 0x%s: invalid utf-8", hex);
    }
    return append_text(tok, data, n);
}

static struct tok_state *
tok_new(PyObject *filename)
{
    struct tok_state *tok = (struct tok_state *)PyMem_Calloc(
        1, sizeof(struct tok_state));
    if (tok == NULL) {
        PyErr_NoMemory();
        return NULL;
    }
    tok->lineno = 1;
    tok->atbol = 1;
    tok->done = E_OK;
    tok->implicit_newline = -1;
    tok->filename = filename;
    Py_XINCREF(filename);
    if (add_line_start(tok, 0) < 0 || buf_reserve(tok, 0) < 0) {
        _PyTokenizer_Free(tok);
        return NULL;
    }
    tok->buf[0] = '\0';
    return tok;
}

/* Make sure the text ends with a newline so the last logical line gets
   its NEWLINE token like every other. */
static int
finish_source(struct tok_state *tok)
{
    if (tok->len > 0 && tok->buf[tok->len - 1] != '\n') {
        tok->implicit_newline = tok->len;
        return append_text(tok, "\n", 1);
    }
    return 0;
}

struct tok_state *
_PyTokenizer_FromString(const char *str, int ignore_cookie,
                        PyObject *filename)
{
    struct tok_state *tok = tok_new(filename);
    if (tok == NULL) {
        return NULL;
    }
    if (load_source(tok, str, (Py_ssize_t)strlen(str), ignore_cookie, NULL,
                    0) < 0
        || finish_source(tok) < 0) {
        _PyTokenizer_Free(tok);
        return NULL;
    }
    return tok;
}

struct tok_state *
_PyTokenizer_FromFile(FILE *fp, const char *enc, const char *ps1,
                      const char *ps2, PyObject *filename)
{
    struct tok_state *tok = tok_new(filename);
    char *data = NULL;
    Py_ssize_t n = 0, cap = 0;
    int c;

    if (tok == NULL) {
        return NULL;
    }
    if (ps1 != NULL || ps2 != NULL) {
        /* Interactive: lines are read as the tokenizer needs them. */
        tok->fp = fp;
        tok->ps1 = ps1;
        tok->ps2 = ps2;
        tok->interactive = 1;
        return tok;
    }
    while ((c = getc(fp)) != EOF) {
        if (n + 1 >= cap) {
            Py_ssize_t ncap = cap ? cap * 2 : 4096;
            char *nd = (char *)PyMem_Realloc(data, (size_t)ncap);
            if (nd == NULL) {
                PyMem_Free(data);
                _PyTokenizer_Free(tok);
                PyErr_NoMemory();
                return NULL;
            }
            data = nd;
            cap = ncap;
        }
        if (c == '\0') {
            PyMem_Free(data);
            encoding_error(tok, 1, "%s",
                           "source code cannot contain null bytes");
            _PyTokenizer_Free(tok);
            return NULL;
        }
        data[n++] = (char)c;
    }
    if (load_source(tok, data ? data : "", n, 0, enc, 1) < 0
        || finish_source(tok) < 0) {
        PyMem_Free(data);
        _PyTokenizer_Free(tok);
        return NULL;
    }
    PyMem_Free(data);
    return tok;
}

void
_PyTokenizer_Free(struct tok_state *tok)
{
    if (tok == NULL) {
        return;
    }
    PyMem_Free(tok->buf);
    PyMem_Free(tok->lines);
    Py_XDECREF(tok->filename);
    PyMem_Free(tok);
}

/* ---------------------------------------------------------------------- */
/* Token construction                                                      */

static void
set_token_start(struct tok_state *tok, _PyToken *t)
{
    t->start = tok->cur;
    t->lineno = tok->lineno;
    t->col_offset = cur_col(tok);
}

static int
finish_token(struct tok_state *tok, _PyToken *t, int type)
{
    t->type = type;
    t->end = tok->cur;
    t->end_lineno = tok->lineno;
    t->end_col_offset = cur_col(tok);
    t->level = tok->level;
    return type;
}

static int
is_ident_start(int c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'
           || c >= 128;
}

static int
is_ident_char(int c)
{
    return is_ident_start(c) || (c >= '0' && c <= '9');
}

/* Decode the UTF-8 character at buf[off] for error messages. */
static unsigned int
code_point_at(struct tok_state *tok, Py_ssize_t off, int *nbytes)
{
    const unsigned char *s = (const unsigned char *)tok->buf + off;
    unsigned int cp = s[0];
    int n = 1, i;
    if (cp >= 0xF0) {
        n = 4;
        cp &= 0x07;
    }
    else if (cp >= 0xE0) {
        n = 3;
        cp &= 0x0F;
    }
    else if (cp >= 0xC0) {
        n = 2;
        cp &= 0x1F;
    }
    for (i = 1; i < n && off + i < tok->len; i++) {
        cp = (cp << 6) | (s[i] & 0x3F);
    }
    *nbytes = n;
    return cp;
}

static int
invalid_character(struct tok_state *tok, Py_ssize_t off)
{
    int nb, col = (int)(off - _PyTokenizer_LineStart(tok, tok->lineno));
    unsigned int cp = code_point_at(tok, off, &nb);
    PyObject *ch;
    int printable;

    ch = PyUnicode_FromOrdinal((int)cp);
    if (ch == NULL) {
        tok->done = E_ERROR;
        return ERRORTOKEN;
    }
    printable = Py_UNICODE_ISPRINTABLE((Py_UCS4)cp) ? 1 : 0;
    if (printable) {
        _PyTokenizer_RaiseAt(tok, NULL, tok->lineno, col, tok->lineno, col,
                             "invalid character '%U' (U+%04X)", ch, cp);
    }
    else {
        _PyTokenizer_RaiseAt(tok, NULL, tok->lineno, col, tok->lineno, col,
                             "invalid non-printable character U+%04X", cp);
    }
    Py_DECREF(ch);
    return ERRORTOKEN;
}

/* An identifier with non-ASCII characters must be a valid Unicode
   identifier; report the first character that is not. */
static int
verify_identifier(struct tok_state *tok, _PyToken *t)
{
    PyObject *s = PyUnicode_DecodeUTF8(tok->buf + t->start,
                                       tok->cur - t->start, NULL);
    Py_ssize_t off;
    if (s == NULL) {
        PyErr_Clear();
        return invalid_character(tok, t->start);
    }
    if (PyUnicode_IsIdentifier(s)) {
        Py_DECREF(s);
        return 0;
    }
    Py_DECREF(s);
    /* Find the longest valid prefix to blame the next character. */
    for (off = t->start; off < tok->cur;) {
        int nb;
        PyObject *pre;
        int ok;
        code_point_at(tok, off, &nb);
        pre = PyUnicode_DecodeUTF8(tok->buf + t->start,
                                   off + nb - t->start, NULL);
        if (pre == NULL) {
            PyErr_Clear();
            break;
        }
        ok = PyUnicode_IsIdentifier(pre);
        Py_DECREF(pre);
        if (!ok) {
            break;
        }
        off += nb;
    }
    if (off >= tok->cur) {
        off = t->start;
    }
    return invalid_character(tok, off);
}

/* ---------------------------------------------------------------------- */
/* Numbers                                                                 */

/* "invalid ... literal" located `back` bytes before the cursor. */
static int
number_error_back(struct tok_state *tok, int back, const char *kind)
{
    int col = cur_col(tok) - back;
    if (col < 0) {
        col = 0;
    }
    return _PyTokenizer_RaiseAt(tok, NULL, tok->lineno, col, tok->lineno,
                                col, "invalid %s literal", kind);
}

static int
number_error(struct tok_state *tok, _PyToken *t, const char *kind)
{
    (void)t;
    return number_error_back(tok, 1, kind);
}

/* Keywords that may directly follow a number ("1if x else y"). */
static int
keyword_follows(struct tok_state *tok)
{
    static const char *const words[] = {
        "and", "else", "for", "if", "in", "is", "not", "or", NULL
    };
    const char *p = tok->buf + tok->cur;
    int i;
    for (i = 0; words[i] != NULL; i++) {
        size_t n = strlen(words[i]);
        if (strncmp(p, words[i], n) == 0) {
            return 1;
        }
    }
    return 0;
}

/* After a numeric literal, the next character must not continue it. */
static int
verify_end_of_number(struct tok_state *tok, _PyToken *t, int c,
                     const char *kind)
{
    /* tokenize lets a name follow a number ("1if", "0x1for") */
    if (is_ident_start(c) && !tok->extra_tokens) {
        tok_backup(tok, c);
        if (keyword_follows(tok)) {
            return 0;
        }
        tok_nextc(tok);
        if (kind[0] == 'd') {
            /* CPython points at the start of a decimal literal. */
            return _PyTokenizer_RaiseAt(tok, NULL, t->lineno, t->col_offset,
                                        t->lineno, t->col_offset,
                                        "invalid decimal literal");
        }
        return number_error(tok, t, kind);
    }
    tok_backup(tok, c);
    return 0;
}

/* Digits with single underscores between them.  Returns the first char
   after them; *ok is 0 on a misplaced underscore. */
static int
read_digits(struct tok_state *tok, int (*isdig)(int), int c, int *ok)
{
    *ok = 1;
    for (;;) {
        while (isdig(c)) {
            c = tok_nextc(tok);
        }
        if (c != '_') {
            break;
        }
        c = tok_nextc(tok);
        if (!isdig(c)) {
            tok_backup(tok, c);
            *ok = 0;
            return c;
        }
    }
    return c;
}

static int is_dec(int c) { return c >= '0' && c <= '9'; }
static int is_hex(int c) { return isxdigit(c) != 0 && c < 128; }
static int is_oct(int c) { return c >= '0' && c <= '7'; }
static int is_bin(int c) { return c == '0' || c == '1'; }

static int
lex_fraction_and_exponent(struct tok_state *tok, _PyToken *t, int c,
                          int seen_dot)
{
    int ok;
    if (!seen_dot && c == '.') {
        c = tok_nextc(tok);
        seen_dot = 1;
        if (is_dec(c)) {
            c = read_digits(tok, is_dec, c, &ok);
            if (!ok) {
                return number_error(tok, t, "decimal");
            }
        }
    }
    if (c == 'e' || c == 'E') {
        int e = c;
        c = tok_nextc(tok);
        if (c == '+' || c == '-') {
            c = tok_nextc(tok);
            if (!is_dec(c)) {
                tok_backup(tok, c);
                return number_error(tok, t, "decimal");
            }
        }
        else if (!is_dec(c)) {
            tok_backup(tok, c);
            if (tok->extra_tokens) {
                /* tokenize: the number stops before the 'e' */
                tok_backup(tok, e);
                return finish_token(tok, t, NUMBER);
            }
            return number_error_back(tok, 2, "decimal");
        }
        c = read_digits(tok, is_dec, c, &ok);
        if (!ok) {
            return number_error(tok, t, "decimal");
        }
    }
    if (c == 'j' || c == 'J') {
        c = tok_nextc(tok);
    }
    if (verify_end_of_number(tok, t, c, "decimal") == ERRORTOKEN) {
        return ERRORTOKEN;
    }
    return finish_token(tok, t, NUMBER);
}

static int
lex_radix(struct tok_state *tok, _PyToken *t, int (*isdig)(int),
          const char *kind)
{
    int c = tok_nextc(tok), ok;
    do {
        if (c == '_') {
            c = tok_nextc(tok);
        }
        if (!isdig(c)) {
            if (is_dec(c) && isdig != is_hex) {
                char msg[64];
                snprintf(msg, sizeof(msg),
                              "invalid digit '%c' in %s literal", c, kind);
                return error_here(tok, 1, msg);
            }
            tok_backup(tok, c);
            return number_error(tok, t, kind);
        }
        c = read_digits(tok, isdig, c, &ok);
        if (!ok) {
            return number_error(tok, t, kind);
        }
    } while (c == '_');
    if (is_dec(c)) {
        char msg[64];
        snprintf(msg, sizeof(msg), "invalid digit '%c' in %s literal",
                      c, kind);
        return error_here(tok, 1, msg);
    }
    if (verify_end_of_number(tok, t, c, kind) == ERRORTOKEN) {
        return ERRORTOKEN;
    }
    return finish_token(tok, t, NUMBER);
}

/* The first character `c` (a digit, or '.' followed by a digit) has been
   consumed. */
static int
lex_number(struct tok_state *tok, _PyToken *t, int c)
{
    int ok;
    if (c == '.') {
        c = read_digits(tok, is_dec, tok_nextc(tok), &ok);
        if (!ok) {
            return number_error(tok, t, "decimal");
        }
        return lex_fraction_and_exponent(tok, t, c, 1);
    }
    if (c == '0') {
        int nonzero = 0;
        c = tok_nextc(tok);
        if (c == 'x' || c == 'X') {
            return lex_radix(tok, t, is_hex, "hexadecimal");
        }
        if (c == 'o' || c == 'O') {
            return lex_radix(tok, t, is_oct, "octal");
        }
        if (c == 'b' || c == 'B') {
            return lex_radix(tok, t, is_bin, "binary");
        }
        /* "0", "00_0", or a float/imaginary such as "012.5", "09j". */
        for (;;) {
            while (c == '0') {
                c = tok_nextc(tok);
            }
            if (c == '_') {
                c = tok_nextc(tok);
                if (!is_dec(c)) {
                    tok_backup(tok, c);
                    return number_error(tok, t, "decimal");
                }
                continue;
            }
            break;
        }
        if (is_dec(c)) {
            nonzero = 1;
            c = read_digits(tok, is_dec, c, &ok);
            if (!ok) {
                return number_error(tok, t, "decimal");
            }
        }
        if (c == '.' || c == 'e' || c == 'E' || c == 'j' || c == 'J') {
            return lex_fraction_and_exponent(tok, t, c, 0);
        }
        if (nonzero && !tok->extra_tokens) {
            int col = t->col_offset;
            tok_backup(tok, c);
            return _PyTokenizer_RaiseAt(
                tok, NULL, t->lineno, col, t->lineno, col + 1,
                "leading zeros in decimal integer literals are not "
                "permitted; use an 0o prefix for octal integers");
        }
        if (verify_end_of_number(tok, t, c, "decimal") == ERRORTOKEN) {
            return ERRORTOKEN;
        }
        return finish_token(tok, t, NUMBER);
    }
    c = read_digits(tok, is_dec, c, &ok);
    if (!ok) {
        return number_error(tok, t, "decimal");
    }
    return lex_fraction_and_exponent(tok, t, c, 0);
}

/* ---------------------------------------------------------------------- */
/* Strings                                                                 */

static int
unterminated(struct tok_state *tok, int lineno, int col, int triple,
             const char *what)
{
    /* The line reported as "detected at" is the last line seen. */
    int detected = tok->lineno;
    if (tok->cur > 0 && tok->cur == tok->len
        && tok->buf[tok->len - 1] == '\n' && detected > 1) {
        detected--;
    }
    return _PyTokenizer_RaiseAt(
        tok, NULL, lineno, col, lineno, col,
        "unterminated %s%s literal (detected at line %d)",
        triple ? "triple-quoted " : "", what, detected);
}

/* The opening quote `quote` has been consumed. */
static int
lex_string(struct tok_state *tok, _PyToken *t, int quote)
{
    int quote_size = 1, end_quotes = 0, c;
    int start_col = cur_col(tok) - 1;
    int start_line = tok->lineno;

    c = tok_nextc(tok);
    if (c == quote) {
        c = tok_nextc(tok);
        if (c == quote) {
            quote_size = 3;
        }
        else {
            end_quotes = 2;   /* empty string */
        }
    }
    if (end_quotes == 2) {
        tok_backup(tok, c);
        return finish_token(tok, t, STRING);
    }
    if (quote_size == 1) {
        tok_backup(tok, c);
    }
    while (end_quotes != quote_size) {
        c = tok_nextc(tok);
        if (c == EOF || (quote_size == 1 && c == '\n')) {
            if (tok->done == E_ERROR) {
                return ERRORTOKEN;
            }
            tok_backup(tok, c);
            if (tok->nmodes > 0 && tok->modes[tok->nmodes - 1].nfields > 0) {
                /* The quote most likely meant to close the f-string. */
                return _PyTokenizer_RaiseAt(
                    tok, NULL, start_line, start_col, start_line, start_col,
                    tok->modes[tok->nmodes - 1].is_tstring
                        ? "t-string: expecting '}'" : "f-string: expecting '}'");
            }
            return unterminated(tok, start_line, start_col, quote_size == 3,
                                "string");
        }
        if (c == quote) {
            end_quotes++;
        }
        else {
            end_quotes = 0;
            if (c == '\\') {
                int d = tok_nextc(tok);
                if (d == EOF) {
                    return unterminated(tok, start_line, start_col,
                                        quote_size == 3, "string");
                }
            }
        }
    }
    return finish_token(tok, t, STRING);
}

static _PyFStringMode *
top_mode(struct tok_state *tok)
{
    return tok->nmodes > 0 ? &tok->modes[tok->nmodes - 1] : NULL;
}

/* The prefix (containing f/F or t/T) is consumed, the opening quote is
   the next character. */
static int
lex_fstring_start(struct tok_state *tok, _PyToken *t, int raw, int is_t)
{
    int quote = tok_nextc(tok);
    int quote_size = 1;
    _PyFStringMode *m;

    if (tok_peek(tok) == quote) {
        tok_nextc(tok);
        if (tok_peek(tok) == quote) {
            tok_nextc(tok);
            quote_size = 3;
        }
        else {
            tok_backup(tok, quote);
        }
    }
    if (tok->nmodes >= MAXFSTRINGLEVEL) {
        return error_here(tok, 0, "too many nested f-strings");
    }
    m = &tok->modes[tok->nmodes++];
    memset(m, 0, sizeof(*m));
    m->quote = (char)quote;
    m->quote_size = quote_size;
    m->raw = raw;
    m->is_tstring = is_t;
    m->start_lineno = t->lineno;
    m->start_col = t->col_offset;
    return finish_token(tok, t, is_t ? TSTRING_START : FSTRING_START);
}

/* Does the text at the cursor close the current f-string? */
static int
at_closing_quote(struct tok_state *tok, _PyFStringMode *m)
{
    int i;
    for (i = 0; i < m->quote_size; i++) {
        if (tok->cur + i >= tok->len || tok->buf[tok->cur + i] != m->quote) {
            return 0;
        }
    }
    return 1;
}

static int
open_field(struct tok_state *tok, _PyToken *t, _PyFStringMode *m)
{
    if (m->nfields >= MAXFIELDLEVEL || tok->level >= MAXLEVEL) {
        return error_here(tok, 0, "f-string: expressions nested too deeply");
    }
    tok_nextc(tok);
    tok->parenstack[tok->level] = '{';
    tok->parenlinenostack[tok->level] = t->lineno;
    tok->parencolstack[tok->level] = t->col_offset;
    tok->level++;
    m->field_level[m->nfields] = tok->level;
    m->field_in_spec[m->nfields] = 0;
    m->nfields++;
    return finish_token(tok, t, LBRACE);
}

static int
close_field(struct tok_state *tok, _PyToken *t, _PyFStringMode *m)
{
    tok_nextc(tok);
    tok->level--;
    m->nfields--;
    return finish_token(tok, t, RBRACE);
}

/* Lex literal text of an f-string, or of a format spec when the innermost
   open replacement field is in its spec. */
/* The message for a replacement field left open in mode `m`. */
#define EXPECTING_BRACE(m) \
    ((m)->is_tstring ? "t-string: expecting '}'" : "f-string: expecting '}'")

static int
lex_fstring_text(struct tok_state *tok, _PyToken *t, _PyFStringMode *m)
{
    int in_spec = m->nfields > 0;
    int middle = m->is_tstring ? TSTRING_MIDDLE : FSTRING_MIDDLE;

    set_token_start(tok, t);
    if (at_closing_quote(tok, m)) {
        if (in_spec) {
            return error_here(tok, 0, EXPECTING_BRACE(m));
        }
        tok->cur += m->quote_size;
        tok->nmodes--;
        return finish_token(tok, t, m->is_tstring ? TSTRING_END
                                                  : FSTRING_END);
    }
    for (;;) {
        int c = tok_peek(tok);
        if (c == EOF) {
            if (tok->done == E_ERROR) {
                return ERRORTOKEN;
            }
            if (in_spec) {
                return error_here(tok, 0, EXPECTING_BRACE(m));
            }
            return unterminated(tok, m->start_lineno, m->start_col,
                                m->quote_size == 3,
                                m->is_tstring ? "t-string" : "f-string");
        }
        if (at_closing_quote(tok, m)) {
            break;
        }
        if (c == '\n' && m->quote_size == 1) {
            if (in_spec) {
                return error_here(tok, 0,
                                  "f-string: newlines are not allowed in "
                                  "format specifiers for single quoted "
                                  "f-strings");
            }
            return unterminated(tok, m->start_lineno, m->start_col, 0,
                                m->is_tstring ? "t-string" : "f-string");
        }
        if (c == '{') {
            if (!in_spec && tok->cur + 1 < tok->len
                && tok->buf[tok->cur + 1] == '{') {
                tok->cur += 2;
                continue;
            }
            if (tok->cur > t->start) {
                break;
            }
            return open_field(tok, t, m);
        }
        if (c == '}') {
            if (in_spec) {
                if (tok->cur > t->start) {
                    break;
                }
                if (tok->extra_tokens && !tok->spec_gap_sent) {
                    /* tokenize shows an empty spec as an empty middle */
                    tok->spec_gap_sent = 1;
                    break;
                }
                tok->spec_gap_sent = 0;
                return close_field(tok, t, m);
            }
            if (tok->cur + 1 < tok->len && tok->buf[tok->cur + 1] == '}') {
                tok->cur += 2;
                continue;
            }
            return error_here(tok, 0,
                              "f-string: single '}' is not allowed");
        }
        tok_nextc(tok);
        if (c == '\\' && m->raw) {
            /* In raw strings a backslash still keeps a quote (or another
               backslash) from being special. */
            int d = tok_peek(tok);
            if (d == m->quote || d == '\\') {
                tok_nextc(tok);
            }
        }
        else if (c == '\\') {
            int d = tok_peek(tok);
            if (d == 'N' && tok->cur + 1 < tok->len
                && tok->buf[tok->cur + 1] == '{') {
                /* \N{NAME}: the braces belong to the escape. */
                while ((d = tok_nextc(tok)) != EOF && d != '}'
                       && d != '\n') {
                }
                if (d == '\n') {
                    tok_backup(tok, d);
                }
            }
            else if (d != '{' && d != '}' && d != EOF) {
                tok_nextc(tok);
            }
        }
    }
    if (in_spec) {
        tok->spec_gap_sent = 1;
    }
    return finish_token(tok, t, middle);
}

/* ---------------------------------------------------------------------- */
/* Indentation                                                             */

/* At the beginning of a logical line: measure its indentation and queue
   INDENT/DEDENT tokens.  Returns ERRORTOKEN on an error, 1 for a line
   that is blank or only a comment (it must not produce NEWLINE), else 0. */
static int
handle_indentation(struct tok_state *tok)
{
    int col = 0, altcol = 0, c, blank = 0;

    for (;;) {
        c = tok_nextc(tok);
        if (c == ' ') {
            col++;
            altcol++;
        }
        else if (c == '\t') {
            col = (col / TABSIZE + 1) * TABSIZE;
            altcol++;
        }
        else if (c == '\f') {
            col = altcol = 0;
        }
        else {
            break;
        }
    }
    tok_backup(tok, c);
    if (c == '#' || c == '\n' || c == '\\') {
        /* Blank or comment-only lines do not affect indentation; in
           interactive mode an empty line at level 0 ends a statement. */
        if (tok->interactive && c == '\n' && col == 0 && tok->level == 0) {
            blank = 0;
        }
        else if (tok->interactive && tok->lineno == 1) {
            blank = 0;
            col = altcol = 0;
        }
        else if (c == '\\') {
            blank = 0;
        }
        else {
            blank = 1;
        }
    }
    if (c == EOF) {
        if (tok->done == E_ERROR) {
            return ERRORTOKEN;
        }
        col = altcol = 0;
    }
    if (blank) {
        return 1;
    }
    if (tok->level != 0) {
        return 0;
    }
    if (col == tok->indstack[tok->indent]) {
        if (altcol != tok->altindstack[tok->indent]) {
            goto tab_error;
        }
    }
    else if (col > tok->indstack[tok->indent]) {
        if (tok->indent + 1 >= MAXINDENT) {
            return _PyTokenizer_RaiseAt(tok, PyExc_IndentationError,
                                        tok->lineno, 0, tok->lineno, -2,
                                        "too many levels of indentation");
        }
        if (altcol <= tok->altindstack[tok->indent]) {
            goto tab_error;
        }
        tok->pendin++;
        tok->indent++;
        tok->indstack[tok->indent] = col;
        tok->altindstack[tok->indent] = altcol;
    }
    else {
        while (tok->indent > 0 && col < tok->indstack[tok->indent]) {
            tok->pendin--;
            tok->indent--;
        }
        if (col != tok->indstack[tok->indent]) {
            /* CPython points just past the end of the line. */
            Py_ssize_t e = tok->cur;
            int bytes;
            while (e < tok->len && tok->buf[e] != '\n') {
                e++;
            }
            bytes = (int)(e - _PyTokenizer_LineStart(tok, tok->lineno));
            return _PyTokenizer_RaiseAt(
                tok, PyExc_IndentationError, tok->lineno, bytes,
                tok->lineno, -1,
                "unindent does not match any outer indentation level");
        }
        if (altcol != tok->altindstack[tok->indent]) {
            goto tab_error;
        }
    }
    return 0;

tab_error:
    return _PyTokenizer_RaiseAt(tok, PyExc_TabError, tok->lineno, 0,
                                tok->lineno, -2,
                                "inconsistent use of tabs and spaces in "
                                "indentation");
}

/* ---------------------------------------------------------------------- */
/* Brackets                                                                */

static int
open_bracket(struct tok_state *tok, _PyToken *t, int c)
{
    if (tok->level >= MAXLEVEL) {
        return error_here(tok, 1, "too many nested parentheses");
    }
    tok->parenstack[tok->level] = (char)c;
    tok->parenlinenostack[tok->level] = t->lineno;
    tok->parencolstack[tok->level] = t->col_offset;
    tok->level++;
    return 0;
}

static int
close_bracket(struct tok_state *tok, _PyToken *t, int c)
{
    int open, col = t->col_offset;
    if (tok->extra_tokens) {
        /* tokenize reports stray brackets as plain operators */
        if (tok->level > 0) {
            tok->level--;
        }
        return 0;
    }
    if (tok->level == 0) {
        return _PyTokenizer_RaiseAt(tok, NULL, t->lineno, col, t->lineno,
                                    col, "unmatched '%c'", c);
    }
    open = tok->parenstack[tok->level - 1];
    if (!((open == '(' && c == ')') || (open == '[' && c == ']')
          || (open == '{' && c == '}'))) {
        int oline = tok->parenlinenostack[tok->level - 1];
        if (oline != t->lineno) {
            return _PyTokenizer_RaiseAt(
                tok, NULL, t->lineno, col, t->lineno, col,
                "closing parenthesis '%c' does not match opening "
                "parenthesis '%c' on line %d", c, open, oline);
        }
        return _PyTokenizer_RaiseAt(
            tok, NULL, t->lineno, col, t->lineno, col,
            "closing parenthesis '%c' does not match opening "
            "parenthesis '%c'", c, open);
    }
    tok->level--;
    return 0;
}

/* ---------------------------------------------------------------------- */
/* The main lexer                                                          */

/* Read a name; if it is a string prefix directly followed by a quote,
   lex the string instead. */
static int
lex_name_or_string(struct tok_state *tok, _PyToken *t, int c)
{
    int saw_b = 0, saw_r = 0, saw_u = 0, saw_f = 0, saw_t = 0;
    int nonascii = 0;

    for (;;) {
        if (!(saw_b || saw_u || saw_f || saw_t) && (c == 'b' || c == 'B')) {
            saw_b = 1;
        }
        else if (!(saw_b || saw_u || saw_r || saw_f || saw_t)
                 && (c == 'u' || c == 'U')) {
            saw_u = 1;
        }
        else if (!(saw_r || saw_u) && (c == 'r' || c == 'R')) {
            saw_r = 1;
        }
        else if (!(saw_f || saw_b || saw_u || saw_t)
                 && (c == 'f' || c == 'F')) {
            saw_f = 1;
        }
        else if (!(saw_f || saw_b || saw_u || saw_t)
                 && (c == 't' || c == 'T')) {
            saw_t = 1;
        }
        else {
            break;
        }
        c = tok_nextc(tok);
        if (c == '"' || c == '\'') {
            if (saw_f || saw_t) {
                tok_backup(tok, c);
                return lex_fstring_start(tok, t, saw_r, saw_t);
            }
            return lex_string(tok, t, c);
        }
    }
    while (is_ident_char(c)) {
        if (c >= 128) {
            nonascii = 1;
        }
        c = tok_nextc(tok);
    }
    tok_backup(tok, c);
    if (nonascii && verify_identifier(tok, t) == ERRORTOKEN) {
        return ERRORTOKEN;
    }
    return finish_token(tok, t, NAME);
}

/* The '\n' just read ends a line: a NEWLINE, or in extra-tokens mode
   possibly an NL. */
static int
line_end_token(struct tok_state *tok, _PyToken *t, int type)
{
    t->start = tok->cur - 1;
    t->end = tok->cur;
    t->lineno = t->end_lineno = tok->lineno - 1;
    t->col_offset = (int)(t->start - _PyTokenizer_LineStart(tok, t->lineno));
    t->end_col_offset = t->col_offset + 1;
    t->level = type == NEWLINE ? 0 : tok->level;
    t->type = type;
    return type;
}

static int
lex_normal(struct tok_state *tok, _PyToken *t)
{
    int c;
    _PyFStringMode *m;

nextline:
    if (tok->atbol) {
        int r;
        tok->atbol = 0;
        tok->cont_line = 0;
        r = handle_indentation(tok);
        if (r == ERRORTOKEN) {
            return ERRORTOKEN;
        }
        tok->blankline = r;
    }
    set_token_start(tok, t);
    if (tok->pendin != 0) {
        if (tok->pendin < 0) {
            tok->pendin++;
            /* DEDENTs sit at the first character of the line. */
            while (tok->buf[tok->cur] == ' ' || tok->buf[tok->cur] == '\t'
                   || tok->buf[tok->cur] == '\f') {
                tok->cur++;
            }
            set_token_start(tok, t);
            return finish_token(tok, t, DEDENT);
        }
        tok->pendin--;
        t->col_offset = 0;
        t->start = _PyTokenizer_LineStart(tok, tok->lineno);
        while (tok->buf[tok->cur] == ' ' || tok->buf[tok->cur] == '\t'
               || tok->buf[tok->cur] == '\f') {
            tok->cur++;
        }
        return finish_token(tok, t, INDENT);
    }

again:
    do {
        c = tok_nextc(tok);
    } while (c == ' ' || c == '\t' || c == '\f');
    tok_backup(tok, c);
    set_token_start(tok, t);
    c = tok_nextc(tok);

    if (c == '#') {
        /* A comment runs to the end of the line, which is then handled
           like any other line end. */
        while (c != EOF && c != '\n') {
            c = tok_nextc(tok);
        }
        if (tok->extra_tokens) {
            tok_backup(tok, c);
            return finish_token(tok, t, COMMENT);
        }
    }
    if (c == EOF) {
        if (tok->done == E_ERROR) {
            return ERRORTOKEN;
        }
        m = top_mode(tok);
        if (m != NULL) {
            if (m->nfields > 0) {
                return error_here(tok, 0, EXPECTING_BRACE(m));
            }
            return unterminated(tok, m->start_lineno, m->start_col,
                                m->quote_size == 3, "f-string");
        }
        t->start = t->end = tok->cur;
        t->lineno = t->end_lineno = tok->lineno;
        t->col_offset = t->end_col_offset = 0;
        t->level = tok->level;
        if (tok->level > 0) {
            /* End of input inside brackets: an error token without an
               exception; the parser reports the unclosed bracket. */
            t->type = ERRORTOKEN;
            return ERRORTOKEN;
        }
        t->type = ENDMARKER;
        return ENDMARKER;
    }

    if (is_ident_start(c)) {
        return lex_name_or_string(tok, t, c);
    }

    if (c == '\n') {
        if (tok->level > 0) {
            /* Implicit line joining inside brackets. */
            tok->cont_line = 0;
            if (tok->extra_tokens) {
                return line_end_token(tok, t, NL);
            }
            goto again;
        }
        tok->atbol = 1;
        if (tok->blankline) {
            if (tok->extra_tokens) {
                return line_end_token(tok, t, NL);
            }
            goto nextline;
        }
        tok->cont_line = 0;
        return line_end_token(tok, t, NEWLINE);
    }

    if (c == '.') {
        int d = tok_nextc(tok);
        if (is_dec(d)) {
            tok_backup(tok, d);
            return lex_number(tok, t, '.');
        }
        if (d == '.') {
            int e = tok_nextc(tok);
            if (e == '.') {
                return finish_token(tok, t, ELLIPSIS);
            }
            tok_backup(tok, e);
        }
        tok_backup(tok, d);
        return finish_token(tok, t, DOT);
    }

    if (is_dec(c)) {
        return lex_number(tok, t, c);
    }

    if (c == '\'' || c == '"') {
        return lex_string(tok, t, c);
    }

    if (c == '\\') {
        c = tok_nextc(tok);
        if (c != '\n') {
            int col = cur_col(tok) - 1;
            tok_backup(tok, c);
            if (c == EOF && tok->done == E_ERROR) {
                return ERRORTOKEN;
            }
            return _PyTokenizer_RaiseAt(
                tok, NULL, tok->lineno, col, tok->lineno, -2,
                "unexpected character after line continuation character");
        }
        c = tok_peek(tok);
        if (c == EOF) {
            if (tok->done == E_ERROR) {
                return ERRORTOKEN;
            }
            return _PyTokenizer_RaiseAt(
                tok, NULL, tok->lineno - 1,
                (int)(tok->cur - _PyTokenizer_LineStart(tok, tok->lineno - 1)) - 1,
                tok->lineno - 1, -1, tok->extra_tokens
                ? "unexpected EOF in multi-line statement"
                : "unexpected EOF while parsing");
        }
        tok->cont_line = 1;
        goto again;
    }

    m = top_mode(tok);
    if (m != NULL && m->nfields > 0) {
        /* Python code inside a replacement field. */
        int flevel = m->field_level[m->nfields - 1];
        if (c == '}' && tok->level == flevel) {
            tok->level--;
            m->nfields--;
            tok->spec_gap_sent = 0;
            return finish_token(tok, t, RBRACE);
        }
        if (c == ':' && tok->level == flevel) {
            m->field_in_spec[m->nfields - 1] = 1;
            tok->spec_gap_sent = 0;
            return finish_token(tok, t, COLON);
        }
    }

    {
        int c2 = tok_nextc(tok);
        int type = _PyToken_TwoChars(c, c2);
        if (type != OP) {
            int c3 = tok_nextc(tok);
            int type3 = _PyToken_ThreeChars(c, c2, c3);
            if (type3 != OP) {
                return finish_token(tok, t, type3);
            }
            tok_backup(tok, c3);
            return finish_token(tok, t, type);
        }
        tok_backup(tok, c2);
    }

    switch (c) {
    case '(': case '[': case '{':
        if (open_bracket(tok, t, c) == ERRORTOKEN) {
            return ERRORTOKEN;
        }
        break;
    case ')': case ']': case '}':
        if (close_bracket(tok, t, c) == ERRORTOKEN) {
            return ERRORTOKEN;
        }
        break;
    }

    if (_PyToken_OneChar(c) == OP || (c >= 128)) {
        if (c >= 128) {
            return invalid_character(tok, tok->cur - 1);
        }
        if (c == '$' || c == '?' || c == '`' || c < 32 || c == 127) {
            if (c < 32 || c == 127) {
                return invalid_character(tok, tok->cur - 1);
            }
            /* Not a Python operator: the parser reports it. */
            return finish_token(tok, t, OP);
        }
        return invalid_character(tok, tok->cur - 1);
    }
    return finish_token(tok, t, _PyToken_OneChar(c));
}

int
_PyTokenizer_Get(struct tok_state *tok, _PyToken *t)
{
    _PyFStringMode *m;
    int type;

    if (tok->done == E_ERROR) {
        t->type = ERRORTOKEN;
        return ERRORTOKEN;
    }
    m = top_mode(tok);
    if (m != NULL && (m->nfields == 0
                      || m->field_in_spec[m->nfields - 1])) {
        type = lex_fstring_text(tok, t, m);
    }
    else {
        type = lex_normal(tok, t);
    }
    if (type == ERRORTOKEN) {
        t->type = ERRORTOKEN;
        if (tok->done != E_EOF) {
            tok->done = E_ERROR;
        }
    }
    return type;
}
