/* Character tests for the regular-expression matcher: case folding in
   the ASCII, locale and Unicode flavours, the \d \s \w categories, and
   the charset sub-programs that IN and the INFO block carry. */

#include "sre_engine.h"
#include <ctype.h>

Py_UCS4
_PySre_LowerAscii(Py_UCS4 ch)
{
    return (ch >= 'A' && ch <= 'Z') ? ch + 32 : ch;
}

Py_UCS4
_PySre_LowerUnicode(Py_UCS4 ch)
{
    return _PyUnicode_ToLowercase(ch);
}

Py_UCS4
_PySre_UpperUnicode(Py_UCS4 ch)
{
    return _PyUnicode_ToUppercase(ch);
}

/* The C library only knows single bytes; wider characters keep their
   case under LOCALE. */
Py_UCS4
_PySre_LowerLocale(Py_UCS4 ch)
{
    return ch < 256 ? (Py_UCS4)tolower((int)ch) : ch;
}

Py_UCS4
_PySre_UpperLocale(Py_UCS4 ch)
{
    return ch < 256 ? (Py_UCS4)toupper((int)ch) : ch;
}

int
_PySre_IsCasedAscii(Py_UCS4 ch)
{
    return ch < 128 && ((ch | 0x20) >= 'a' && (ch | 0x20) <= 'z');
}

int
_PySre_IsCasedUnicode(Py_UCS4 ch)
{
    return _PyUnicode_ToLowercase(ch) != ch || _PyUnicode_ToUppercase(ch) != ch;
}

static int
ascii_word(Py_UCS4 ch)
{
    return ch < 128 && (isalnum((int)ch) || ch == '_');
}

static int
unicode_word(Py_UCS4 ch)
{
    return ch == '_' || _PyUnicode_IsAlpha(ch) || _PyUnicode_IsDecimalDigit(ch) ||
           _PyUnicode_IsDigit(ch) || _PyUnicode_IsNumeric(ch);
}

static int
ascii_space(Py_UCS4 ch)
{
    return ch == ' ' || (ch >= '\t' && ch <= '\r');
}

/* Odd category numbers are the negations of the even ones before them. */
int
_PySre_Category(SreCode cat, Py_UCS4 ch)
{
    int yes;
    switch (cat & ~1u) {
    case SCAT_DIGIT:
        yes = ch >= '0' && ch <= '9';
        break;
    case SCAT_SPACE:
        yes = ascii_space(ch);
        break;
    case SCAT_WORD:
        yes = ascii_word(ch);
        break;
    case SCAT_LINEBREAK:
        yes = ch == '\n';
        break;
    case SCAT_LOC_WORD:
        yes = ch < 256 && (isalnum((int)ch) || ch == '_');
        break;
    case SCAT_UNI_DIGIT:
        yes = _PyUnicode_IsDecimalDigit(ch);
        break;
    case SCAT_UNI_SPACE:
        yes = _PyUnicode_IsWhitespace(ch);
        break;
    case SCAT_UNI_WORD:
        yes = unicode_word(ch);
        break;
    case SCAT_UNI_LINEBREAK:
        yes = _PyUnicode_IsLinebreak(ch);
        break;
    default:
        return 0;
    }
    return (cat & 1) ? !yes : yes;
}

static int
bit_set(const SreCode *words, Py_UCS4 low)
{
    return (words[low >> 5] >> (low & 31)) & 1;
}

/* Is ch in the set whose members start at code[p]?  The set ends with
   FAILURE; `limit` bounds every read so that bad code cannot run off. */
int
_PySre_InSet(const SreCode *code, Py_ssize_t p, Py_ssize_t limit, Py_UCS4 ch)
{
    int inverted = 0;
    while (p < limit) {
        SreCode op = code[p++];
        int hit = 0;
        switch (op) {
        case SOP_FAILURE:
            return inverted;
        case SOP_NEGATE:
            inverted = !inverted;
            continue;
        case SOP_LITERAL:
            hit = p < limit && ch == code[p];
            p += 1;
            break;
        case SOP_CATEGORY:
            hit = p < limit && _PySre_Category(code[p], ch);
            p += 1;
            break;
        case SOP_RANGE:
            hit = p + 1 < limit && code[p] <= ch && ch <= code[p + 1];
            p += 2;
            break;
        case SOP_RANGE_UNI_IGNORE: {
            if (p + 1 >= limit) {
                return 0;
            }
            Py_UCS4 up = _PySre_UpperUnicode(ch);
            hit = (code[p] <= ch && ch <= code[p + 1]) ||
                  (code[p] <= up && up <= code[p + 1]);
            p += 2;
            break;
        }
        case SOP_CHARSET:
            hit = p + 8 <= limit && ch < 256 && bit_set(code + p, ch);
            p += 8;
            break;
        case SOP_BIGCHARSET: {
            /* count, 256 one-byte block numbers, then the 256-bit blocks */
            if (p + 65 > limit) {
                return 0;
            }
            Py_ssize_t blocks = code[p];
            const unsigned char *index = (const unsigned char *)(code + p + 1);
            if (ch < 65536) {
                Py_ssize_t at = p + 65 + (Py_ssize_t)index[ch >> 8] * 8;
                hit = at + 8 <= limit && bit_set(code + at, ch & 255);
            }
            p += 65 + blocks * 8;
            break;
        }
        default:
            return 0;
        }
        if (hit) {
            return !inverted;
        }
    }
    return 0;
}

static int
literal_loc_ignore(SreCode lit, Py_UCS4 ch)
{
    return ch == lit || _PySre_LowerLocale(ch) == lit || _PySre_UpperLocale(ch) == lit;
}

static int
literal_uni_ignore(SreCode lit, Py_UCS4 ch)
{
    return ch == lit || _PySre_LowerUnicode(ch) == lit || _PySre_UpperUnicode(ch) == lit;
}

/* Does the one-character op at code[pc] accept ch?  Used for the plain
   ops and for the items of the *_REPEAT_ONE loops. */
int
_PySre_CharOp(const SreCode *code, Py_ssize_t pc, Py_ssize_t limit, Py_UCS4 ch)
{
    SreCode arg = pc + 1 < limit ? code[pc + 1] : 0;
    switch (code[pc]) {
    case SOP_ANY:
        return ch != '\n';
    case SOP_ANY_ALL:
        return 1;
    case SOP_LITERAL:
        return ch == arg;
    case SOP_NOT_LITERAL:
        return ch != arg;
    case SOP_LITERAL_IGNORE:
        return _PySre_LowerAscii(ch) == arg;
    case SOP_NOT_LITERAL_IGNORE:
        return _PySre_LowerAscii(ch) != arg;
    case SOP_LITERAL_UNI_IGNORE:
        return literal_uni_ignore(arg, ch);
    case SOP_NOT_LITERAL_UNI_IGNORE:
        return !literal_uni_ignore(arg, ch);
    case SOP_LITERAL_LOC_IGNORE:
        return literal_loc_ignore(arg, ch);
    case SOP_NOT_LITERAL_LOC_IGNORE:
        return !literal_loc_ignore(arg, ch);
    case SOP_CATEGORY:
        return _PySre_Category(arg, ch);
    case SOP_IN:
        return _PySre_InSet(code, pc + 2, limit, ch);
    case SOP_IN_IGNORE:
        return _PySre_InSet(code, pc + 2, limit, _PySre_LowerAscii(ch));
    case SOP_IN_UNI_IGNORE:
        return _PySre_InSet(code, pc + 2, limit, _PySre_LowerUnicode(ch));
    case SOP_IN_LOC_IGNORE:
        return _PySre_InSet(code, pc + 2, limit, ch) ||
               _PySre_InSet(code, pc + 2, limit, _PySre_LowerLocale(ch)) ||
               _PySre_InSet(code, pc + 2, limit, _PySre_UpperLocale(ch));
    default:
        return 0;
    }
}

/* How many code words the one-character op at code[pc] takes; 0 if it
   is not one. */
Py_ssize_t
_PySre_CharOpWidth(const SreCode *code, Py_ssize_t pc)
{
    switch (code[pc]) {
    case SOP_ANY:
    case SOP_ANY_ALL:
        return 1;
    case SOP_LITERAL:
    case SOP_NOT_LITERAL:
    case SOP_LITERAL_IGNORE:
    case SOP_NOT_LITERAL_IGNORE:
    case SOP_LITERAL_UNI_IGNORE:
    case SOP_NOT_LITERAL_UNI_IGNORE:
    case SOP_LITERAL_LOC_IGNORE:
    case SOP_NOT_LITERAL_LOC_IGNORE:
    case SOP_CATEGORY:
        return 2;
    case SOP_IN:
    case SOP_IN_IGNORE:
    case SOP_IN_UNI_IGNORE:
    case SOP_IN_LOC_IGNORE:
        return 1 + (Py_ssize_t)code[pc + 1];
    default:
        return 0;
    }
}
