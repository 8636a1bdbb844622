/* Tokenizer interface: turns UTF-8 Python source into a stream of tokens.

   The whole input (or, for interactive files, every line read so far) is
   kept in one buffer; tokens refer to their text by byte offsets into that
   buffer, so the buffer may grow while tokens are alive. */

#ifndef Py_TOKENIZER_H
#define Py_TOKENIZER_H
#ifdef __cplusplus
extern "C" {
#endif

#include "Python.h"
#include "pycore_token.h"

#include <stdio.h>

#define MAXINDENT 100       /* deepest indentation stack */
#define MAXLEVEL 200        /* deepest bracket nesting */
#define MAXFSTRINGLEVEL 150 /* deepest nesting of f-strings */
#define MAXFIELDLEVEL 8     /* replacement fields open in one f-string */

/* Tokenizer completion states (tok->done). */
#define E_OK 10
#define E_EOF 11
#define E_ERROR 17  /* an exception has been set */

typedef struct {
    int type;
    Py_ssize_t start;       /* byte offset of the text in tok->buf */
    Py_ssize_t end;         /* one past the last byte */
    int lineno;
    int col_offset;         /* UTF-8 byte column of the first byte */
    int end_lineno;
    int end_col_offset;
    int level;              /* bracket depth at the token */
} _PyToken;

/* One f-string (or t-string) being tokenized. */
typedef struct {
    char quote;
    int quote_size;         /* 1 or 3 */
    int raw;
    int is_tstring;
    int start_lineno;
    int start_col;
    int nfields;            /* replacement fields currently open */
    int field_level[MAXFIELDLEVEL];   /* tok->level inside each '{' */
    int field_in_spec[MAXFIELDLEVEL]; /* lexing its format spec? */
} _PyFStringMode;

struct tok_state {
    char *buf;              /* NUL-terminated UTF-8 source read so far */
    Py_ssize_t len;
    Py_ssize_t cap;
    Py_ssize_t cur;         /* offset of the next character */
    int lineno;             /* line of the next character (1-based) */
    Py_ssize_t *lines;      /* lines[i]: offset where line i+1 starts */
    int nlines;
    int lines_cap;

    FILE *fp;               /* interactive input, read line by line */
    const char *ps1;
    const char *ps2;
    int fp_eof;
    int interactive;

    int indstack[MAXINDENT];    /* columns, tabs to multiples of 8 */
    int altindstack[MAXINDENT]; /* columns, tabs counting as 1 */
    int indent;
    int pendin;             /* >0: INDENTs to emit, <0: DEDENTs */
    int atbol;              /* at the beginning of a logical line */
    int cont_line;          /* after a backslash continuation */

    int level;
    char parenstack[MAXLEVEL];
    int parenlinenostack[MAXLEVEL];
    int parencolstack[MAXLEVEL];

    _PyFStringMode modes[MAXFSTRINGLEVEL];
    int nmodes;

    int done;
    PyObject *filename;

    /* Extra-tokens mode, for the tokenize module only (the parser never
       sets it): comments become COMMENT tokens, blank lines and newlines
       inside brackets become NL, an empty format spec yields an empty
       FSTRING_MIDDLE. */
    int extra_tokens;
    int blankline;          /* the current line holds no code */
    int spec_gap_sent;      /* empty format-spec middle already returned */
    Py_ssize_t implicit_newline; /* offset of the '\n' we added, or -1 */
    int hit_eof;            /* a read ran past the end of the input: the
                               parser tells "incomplete input" with it */
};

/* Both constructors return NULL with an exception set on failure.
   `ignore_cookie`: the text is known to be UTF-8 (compile() of a str). */
extern struct tok_state *_PyTokenizer_FromString(const char *str,
                                                 int ignore_cookie,
                                                 PyObject *filename);
extern struct tok_state *_PyTokenizer_FromFile(FILE *fp, const char *enc,
                                               const char *ps1,
                                               const char *ps2,
                                               PyObject *filename);
extern void _PyTokenizer_Free(struct tok_state *tok);

/* Fill *t with the next token and return its type.  ERRORTOKEN means an
   exception (SyntaxError and friends) has been set and tok->done is
   E_ERROR. */
extern int _PyTokenizer_Get(struct tok_state *tok, _PyToken *t);

/* Raise `exc` (SyntaxError if NULL) located at the given 0-based byte
   columns of the given lines.  end_col < 0 is passed through as the
   end offset unchanged (CPython uses -1 / 0 for "no end").  Always
   returns ERRORTOKEN. */
extern int _PyTokenizer_RaiseAt(struct tok_state *tok, PyObject *exc,
                                int lineno, int col, int end_lineno,
                                int end_col, const char *format, ...);

/* Source line `lineno` (with its newline) as a new str, or NULL. */
extern PyObject *_PyTokenizer_LineText(struct tok_state *tok, int lineno);

/* Byte offset where line `lineno` (1-based) starts. */
extern Py_ssize_t _PyTokenizer_LineStart(struct tok_state *tok, int lineno);

/* 1-based character offset of byte column `col` on line `lineno`. */
extern int _PyTokenizer_CharOffset(struct tok_state *tok, int lineno,
                                   int col);

#ifdef __cplusplus
}
#endif
#endif /* !Py_TOKENIZER_H */
