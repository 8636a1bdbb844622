/* Internal interface shared by the parser's source files.

   The parser is hand-written recursive descent with PEG semantics: each
   grammar rule is a C function that either consumes tokens and returns a
   node, or returns NULL and leaves p->mark where it was, so the caller can
   try its next alternative.  Tokens are pulled from the tokenizer lazily
   into p->tokens; backtracking just moves p->mark.  A few rules cache
   their result per start token (Memo) so repeated attempts stay cheap.

   Errors: a rule that detects a definite error raises it and sets
   p->error_indicator; every caller then unwinds.  A plain failure of the
   whole parse is re-run once with p->call_invalid_rules set, which enables
   checks that produce CPython's specific messages; if none fires, a
   generic "invalid syntax" is reported at the furthest token examined. */

#ifndef Py_PEGEN_H
#define Py_PEGEN_H

#include "Python.h"
#include "pycore_ast.h"
#include "pycore_token.h"
#include "tokenizer.h"

/* Keyword ids carried by NAME tokens (0: not a keyword). */
enum {
    KW_NONE = 0,
    KW_False, KW_None, KW_True, KW_and, KW_as, KW_assert, KW_async,
    KW_await, KW_break, KW_class, KW_continue, KW_def, KW_del, KW_elif,
    KW_else, KW_except, KW_finally, KW_for, KW_from, KW_global, KW_if,
    KW_import, KW_in, KW_is, KW_lambda, KW_nonlocal, KW_not, KW_or,
    KW_pass, KW_raise, KW_return, KW_try, KW_while, KW_with, KW_yield,
    KW_HARD_LAST = KW_yield,
    /* Soft keywords: names everywhere except where they introduce a
       statement or pattern. */
    KW_match, KW_case, KW_type, KW__
};

typedef struct _memo {
    int type;
    void *node;
    int mark;
    struct _memo *next;
} Memo;

typedef struct {
    int type;
    int kw;
    Py_ssize_t start;       /* text: p->tok->buf[start:end] */
    Py_ssize_t end;
    int lineno;
    int col_offset;
    int end_lineno;
    int end_col_offset;
    int level;
    Memo *memo;
} Token;

typedef struct {
    struct tok_state *tok;
    Token **tokens;
    int mark;
    int fill;
    int size;
    PyArena *arena;
    int start_rule;
    int error_indicator;
    int level;              /* recursion depth */
    int call_invalid_rules;
    int flags;
    int feature_version;
    int in_fstring_spec;
} Parser;

#define MAXSTACK 3000

/* pegen.c: token access, memo, errors */
extern Token *_PyPegen_peek(Parser *p);
extern Token *_PyPegen_peek_at(Parser *p, int offset);
extern Token *_PyPegen_expect(Parser *p, int type);
extern Token *_PyPegen_expect_kw(Parser *p, int kw);
extern Token *_PyPegen_expect_soft(Parser *p, int kw);
extern Token *_PyPegen_last(Parser *p);
extern int _PyPegen_is_memoized(Parser *p, int type, void *pres);
extern int _PyPegen_memoize(Parser *p, int mark, int type, void *node);
extern void *_PyPegen_raise_error(Parser *p, PyObject *exc, int use_mark,
                                  const char *fmt, ...);
extern void *_PyPegen_raise_error_known_location(
    Parser *p, PyObject *exc, int lineno, int col, int end_lineno,
    int end_col, const char *fmt, ...);
extern void *_PyPegen_error_at_token(Parser *p, Token *t, const char *fmt,
                                     ...);
extern void *_PyPegen_error_at_node(Parser *p, expr_ty a, expr_ty b,
                                    const char *fmt, ...);
extern void _PyPegen_set_syntax_error(Parser *p);
extern PyObject *_PyPegen_token_text(Parser *p, Token *t);
extern int _PyPegen_add_object(Parser *p, PyObject *o);

/* parser.c: start rules */
extern void *_PyPegen_parse(Parser *p);

/* action_helpers.c */
extern expr_ty _PyPegen_set_expr_context(Parser *p, expr_ty e,
                                         expr_context_ty ctx);
extern const char *_PyPegen_expr_name(expr_ty e);
extern asdl_generic_seq *_PyPegen_seq_from_array(Parser *p, void **items,
                                                 Py_ssize_t n);
extern PyObject *_PyPegen_new_identifier(Parser *p, const char *s,
                                         Py_ssize_t n);
extern expr_ty _PyPegen_number(Parser *p, Token *t);


/* A growable array of pointers used while collecting sequences. */
typedef struct {
    void **items;
    Py_ssize_t n;
    Py_ssize_t cap;
    void *small[16];
} PtrVec;

extern void _PyPegen_vec_init(PtrVec *v);
extern int _PyPegen_vec_push(PtrVec *v, void *item);
extern void _PyPegen_vec_free(PtrVec *v);
extern void *_PyPegen_vec_to_seq(Parser *p, PtrVec *v);

#endif /* !Py_PEGEN_H */
