/* String literal decoding and concatenation (Parser/string_parser.c). */

#ifndef Py_STRING_PARSER_H
#define Py_STRING_PARSER_H

#include "pegen.h"

enum { STRPART_STR, STRPART_BYTES, STRPART_FSTRING, STRPART_TSTRING };

/* One literal of an implicit concatenation. */
typedef struct {
    Token *first;           /* the STRING token, or FSTRING_START */
    Token *last;            /* the STRING token, or FSTRING_END */
    int kind;               /* STRPART_* */
    asdl_expr_seq *values;  /* f/t-strings: literal pieces and fields */
} StringPart;

extern PyObject *_PyPegen_decode_literal(Parser *p, const char *s,
                                         Py_ssize_t n, int raw, int is_bytes,
                                         int collapse_braces, Token *t);
extern int _PyPegen_string_part_kind(Parser *p, Token *t);
extern expr_ty _PyPegen_concatenate_strings(Parser *p, StringPart *parts,
                                            Py_ssize_t n);
extern expr_ty _PyPegen_fstring_middle(Parser *p, Token *t, int raw,
                                       int in_spec);
extern asdl_expr_seq *_PyPegen_join_pieces(Parser *p, void **items,
                                           Py_ssize_t n);

#endif /* !Py_STRING_PARSER_H */
