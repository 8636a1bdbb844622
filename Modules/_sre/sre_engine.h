/* The regular-expression matcher behind the _sre module: shared types.

   The code words are the ones re._compiler emits (MAGIC 20230612); the
   opcode, AT and CATEGORY numbers below must follow re/_constants.py.
   The matcher backtracks over an explicit stack of entries (see
   sre_engine.c), so neither the text length nor the pattern's nesting
   ever turns into C recursion. */

#ifndef Py_SRE_ENGINE_H
#define Py_SRE_ENGINE_H

#include "Python.h"
#include <stdint.h>

typedef uint32_t SreCode;

#define SRE_MAGIC 20230612
#define SRE_MAXREPEAT ((SreCode)0xFFFFFFFFu)
#define SRE_MAXGROUPS ((Py_ssize_t)0x3FFFFFFF)

enum {
    SOP_FAILURE, SOP_SUCCESS, SOP_ANY, SOP_ANY_ALL, SOP_ASSERT,
    SOP_ASSERT_NOT, SOP_AT, SOP_BRANCH, SOP_CATEGORY, SOP_CHARSET,
    SOP_BIGCHARSET, SOP_GROUPREF, SOP_GROUPREF_EXISTS, SOP_IN, SOP_INFO,
    SOP_JUMP, SOP_LITERAL, SOP_MARK, SOP_MAX_UNTIL, SOP_MIN_UNTIL,
    SOP_NOT_LITERAL, SOP_NEGATE, SOP_RANGE, SOP_REPEAT, SOP_REPEAT_ONE,
    SOP_SUBPATTERN, SOP_MIN_REPEAT_ONE, SOP_ATOMIC_GROUP,
    SOP_POSSESSIVE_REPEAT, SOP_POSSESSIVE_REPEAT_ONE, SOP_GROUPREF_IGNORE,
    SOP_IN_IGNORE, SOP_LITERAL_IGNORE, SOP_NOT_LITERAL_IGNORE,
    SOP_GROUPREF_LOC_IGNORE, SOP_IN_LOC_IGNORE, SOP_LITERAL_LOC_IGNORE,
    SOP_NOT_LITERAL_LOC_IGNORE, SOP_GROUPREF_UNI_IGNORE, SOP_IN_UNI_IGNORE,
    SOP_LITERAL_UNI_IGNORE, SOP_NOT_LITERAL_UNI_IGNORE, SOP_RANGE_UNI_IGNORE,
};

enum {
    SAT_BEGINNING, SAT_BEGINNING_LINE, SAT_BEGINNING_STRING, SAT_BOUNDARY,
    SAT_NON_BOUNDARY, SAT_END, SAT_END_LINE, SAT_END_STRING,
    SAT_LOC_BOUNDARY, SAT_LOC_NON_BOUNDARY, SAT_UNI_BOUNDARY,
    SAT_UNI_NON_BOUNDARY,
};

enum {
    SCAT_DIGIT, SCAT_NOT_DIGIT, SCAT_SPACE, SCAT_NOT_SPACE, SCAT_WORD,
    SCAT_NOT_WORD, SCAT_LINEBREAK, SCAT_NOT_LINEBREAK, SCAT_LOC_WORD,
    SCAT_LOC_NOT_WORD, SCAT_UNI_DIGIT, SCAT_UNI_NOT_DIGIT, SCAT_UNI_SPACE,
    SCAT_UNI_NOT_SPACE, SCAT_UNI_WORD, SCAT_UNI_NOT_WORD,
    SCAT_UNI_LINEBREAK, SCAT_UNI_NOT_LINEBREAK,
};

/* INFO block flag bits. */
#define SRE_INFO_PREFIX 1
#define SRE_INFO_LITERAL 2
#define SRE_INFO_CHARSET 4

/* One backtracking-stack entry; `kind` says which fields mean what. */
typedef struct {
    int kind;
    Py_ssize_t pc;
    Py_ssize_t pos;
    Py_ssize_t active;      /* innermost open frame when pushed */
    Py_ssize_t rep;         /* current repeat context when pushed */
    Py_ssize_t a, b, c;
} SreEntry;

/* A REPEAT ... MAX_UNTIL/MIN_UNTIL loop in progress. */
typedef struct {
    Py_ssize_t count;
    Py_ssize_t last;        /* where the last iteration began */
    Py_ssize_t hdr;         /* index of the REPEAT opcode */
    Py_ssize_t prev;
} SreRepeat;

/* Everything one match or search needs.  The text is read through
   `data` with `charsize` bytes a character (1 for bytes). */
typedef struct {
    const void *data;
    int charsize;
    Py_ssize_t length;      /* of the whole subject */
    Py_ssize_t start;       /* where to begin (the pos argument) */
    Py_ssize_t end;         /* the endpos argument, clipped */
    const SreCode *code;
    Py_ssize_t codesize;
    int match_all;          /* fullmatch: must end at `end` */
    int must_advance;       /* an empty match at `start` is refused */
    Py_ssize_t nmarks;
    Py_ssize_t *marks;
    Py_ssize_t lastindex;
    SreEntry *stack;
    Py_ssize_t top, cap;
    SreRepeat *reps;
    Py_ssize_t nreps, repcap;
    Py_ssize_t match_start, match_end;
    unsigned long steps;
} SreState;

static inline Py_UCS4
sre_char(const SreState *st, Py_ssize_t i)
{
    switch (st->charsize) {
    case 1:
        return ((const Py_UCS1 *)st->data)[i];
    case 2:
        return ((const Py_UCS2 *)st->data)[i];
    default:
        return ((const Py_UCS4 *)st->data)[i];
    }
}

/* sre_charset.c */
Py_UCS4 _PySre_LowerAscii(Py_UCS4 ch);
Py_UCS4 _PySre_LowerUnicode(Py_UCS4 ch);
Py_UCS4 _PySre_UpperUnicode(Py_UCS4 ch);
Py_UCS4 _PySre_LowerLocale(Py_UCS4 ch);
Py_UCS4 _PySre_UpperLocale(Py_UCS4 ch);
int _PySre_IsCasedAscii(Py_UCS4 ch);
int _PySre_IsCasedUnicode(Py_UCS4 ch);
int _PySre_Category(SreCode cat, Py_UCS4 ch);
int _PySre_InSet(const SreCode *code, Py_ssize_t p, Py_ssize_t limit, Py_UCS4 ch);
int _PySre_CharOp(const SreCode *code, Py_ssize_t pc, Py_ssize_t limit, Py_UCS4 ch);
Py_ssize_t _PySre_CharOpWidth(const SreCode *code, Py_ssize_t pc);

/* sre_validate.c: 0, or -1 with RuntimeError for malformed code. */
int _PySre_Validate(const SreCode *code, Py_ssize_t n, Py_ssize_t groups);

/* sre_engine.c: 1 found (match_start/match_end and marks set), 0 not
   found, -1 with an exception set. */
int _PySre_StateInit(SreState *st, Py_ssize_t groups);
void _PySre_StateFree(SreState *st);
int _PySre_Match(SreState *st);
int _PySre_Search(SreState *st);

#endif
