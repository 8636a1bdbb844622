/* Shared by the three files of the unicodedata module:
     unicodedata.c            the module, its UCD type and the property queries
     unicodedata_names.c      name() and lookup(), and \N{...} for the core
     unicodedata_normalize.c  decomposition(), normalize() and is_normalized()
   The tables themselves are generated at build time into build/gen by
   Tools/unicode/gen_unicodedata.py; Doc/unicode.md describes them. */

#ifndef Py_MODULES_UNICODEDATA_H
#define Py_MODULES_UNICODEDATA_H

#include "Python.h"
#include <stdint.h>

/* The properties of one character (many characters share one record). */
typedef struct {
    uint8_t category;   /* index into ucd_category_names */
    uint8_t bidi;       /* index into ucd_bidi_names ("" for none) */
    uint8_t combining;  /* canonical combining class */
    uint8_t digit;      /* digit value, when UCD_HAS_DIGIT */
    uint16_t flags;     /* UCD_* bits below, east asian width above them */
    uint16_t numeric;   /* index into ucd_numeric_values, 0 for none */
} ucd_record;

#define UCD_MIRRORED (1 << 0)
#define UCD_NEWER_THAN_3_2 (1 << 1)
#define UCD_HAS_DECIMAL (1 << 2)
#define UCD_HAS_DIGIT (1 << 3)
#define UCD_NFD_QC_NO (1 << 4)
#define UCD_NFKD_QC_NO (1 << 5)
#define UCD_NFC_QC_NOT_YES (1 << 6)
#define UCD_NFKC_QC_NOT_YES (1 << 7)
#define UCD_WIDTH_SHIFT 8

/* Hangul syllables are composed algorithmically (Unicode chapter 3.12). */
#define UCD_HANGUL_S_BASE 0xAC00
#define UCD_HANGUL_L_BASE 0x1100
#define UCD_HANGUL_V_BASE 0x1161
#define UCD_HANGUL_T_BASE 0x11A7
#define UCD_HANGUL_L_COUNT 19
#define UCD_HANGUL_V_COUNT 21
#define UCD_HANGUL_T_COUNT 28
#define UCD_HANGUL_N_COUNT (UCD_HANGUL_V_COUNT * UCD_HANGUL_T_COUNT)
#define UCD_HANGUL_S_COUNT (UCD_HANGUL_L_COUNT * UCD_HANGUL_N_COUNT)

/* `legacy` selects the ucd_3_2_0 view: characters assigned after Unicode
   3.2 look unassigned. */
const ucd_record *_PyUnicodeData_GetRecord(Py_UCS4 ch, int legacy);

/* Writes ch's name (NUL-terminated) into buf; returns its length, or 0 when
   ch has no name.  `size` must exceed _PyUnicodeData_LONGEST_NAME. */
#define _PyUnicodeData_LONGEST_NAME 128
Py_ssize_t _PyUnicodeData_GetName(Py_UCS4 ch, int legacy, char *buf, size_t size);

/* Finds a character, an alias or (when `sequences` is set) a named
   sequence by name.  Returns a new str, or NULL without an exception when
   there is no such name. */
PyObject *_PyUnicodeData_FindName(const char *name, Py_ssize_t len, int legacy,
                                  int sequences);

/* decomposition(): the mapping as "<tag> XXXX YYYY", or "" for none. */
PyObject *_PyUnicodeData_DecompositionString(Py_UCS4 ch, int legacy);

/* Normal forms: 'C', 'D', 'KC', 'KD' as flags. */
#define UCD_FORM_COMPAT 1
#define UCD_FORM_COMPOSE 2
PyObject *_PyUnicodeData_Normalize(PyObject *str, int form, int legacy);
int _PyUnicodeData_IsNormalized(PyObject *str, int form, int legacy);

#endif /* Py_MODULES_UNICODEDATA_H */
