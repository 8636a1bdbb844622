/* Checks code words handed to _sre.compile before any matching: every
   skip lands inside its enclosing block, every operand is in range, and
   blocks end with the word the matcher expects there.  Code from
   re._compiler always passes; anything else raises RuntimeError instead
   of sending the matcher off the end of the buffer. */

#include "sre_engine.h"

typedef struct {
    const SreCode *code;
    Py_ssize_t groups;
} Checker;

static int check_block(const Checker *k, Py_ssize_t pc, Py_ssize_t end);

/* A skip word at p: the index it names, or -1 when outside (p, end]. */
static Py_ssize_t
target_of(const Checker *k, Py_ssize_t p, Py_ssize_t end)
{
    if (p >= end) {
        return -1;
    }
    Py_ssize_t t = p + (Py_ssize_t)k->code[p];
    return (t > p && t <= end) ? t : -1;
}

static int
check_bigcharset(const SreCode *code, Py_ssize_t p, Py_ssize_t end, Py_ssize_t *next)
{
    if (p + 65 > end) {
        return -1;
    }
    Py_ssize_t blocks = code[p];
    const unsigned char *index = (const unsigned char *)(code + p + 1);
    for (int i = 0; i < 256; i++) {
        if (index[i] >= blocks) {
            return -1;
        }
    }
    if (blocks > (end - p - 65) / 8) {
        return -1;
    }
    *next = p + 65 + blocks * 8;
    return 0;
}

/* A charset in [p, end) whose last word is FAILURE. */
static int
check_charset(const Checker *k, Py_ssize_t p, Py_ssize_t end)
{
    const SreCode *code = k->code;
    while (p < end) {
        SreCode op = code[p++];
        switch (op) {
        case SOP_FAILURE:
            return p == end ? 0 : -1;
        case SOP_NEGATE:
            break;
        case SOP_LITERAL:
            p += 1;
            break;
        case SOP_CATEGORY:
            if (p >= end || code[p] > SCAT_UNI_NOT_LINEBREAK) {
                return -1;
            }
            p += 1;
            break;
        case SOP_RANGE:
        case SOP_RANGE_UNI_IGNORE:
            if (p + 2 > end || code[p] > code[p + 1]) {
                return -1;
            }
            p += 2;
            break;
        case SOP_CHARSET:
            p += 8;
            break;
        case SOP_BIGCHARSET:
            if (check_bigcharset(code, p, end, &p) < 0) {
                return -1;
            }
            break;
        default:
            return -1;
        }
    }
    return -1;
}

/* The one-character item of a *_REPEAT_ONE: exactly [pc, end). */
static int
check_item(const Checker *k, Py_ssize_t pc, Py_ssize_t end)
{
    if (pc >= end) {
        return -1;
    }
    Py_ssize_t width = _PySre_CharOpWidth(k->code, pc);
    if (width == 0 || pc + width != end) {
        return -1;
    }
    return check_block(k, pc, end);
}

/* [op, skip, min, max, body..., closer]: the index after closer. */
static Py_ssize_t
check_repeat(const Checker *k, Py_ssize_t pc, Py_ssize_t end, int single)
{
    const SreCode *code = k->code;
    Py_ssize_t t = target_of(k, pc + 1, end);
    if (t < 0 || pc + 4 > t || code[pc + 2] > code[pc + 3]) {
        return -1;
    }
    SreCode op = code[pc];
    if (single) {
        if (code[t - 1] != SOP_SUCCESS || check_item(k, pc + 4, t - 1) < 0) {
            return -1;
        }
        return t;
    }
    if (t >= end) {
        return -1;
    }
    SreCode closer = code[t];
    int ok = op == SOP_POSSESSIVE_REPEAT ? closer == SOP_SUCCESS
                                         : (closer == SOP_MAX_UNTIL || closer == SOP_MIN_UNTIL);
    if (!ok || check_block(k, pc + 4, t) < 0) {
        return -1;
    }
    return t + 1;
}

/* BRANCH: alternatives each ending in a JUMP to one common place. */
static Py_ssize_t
check_branch(const Checker *k, Py_ssize_t pc, Py_ssize_t end)
{
    const SreCode *code = k->code;
    Py_ssize_t p = pc + 1, after = -1;
    while (p < end && code[p] != 0) {
        Py_ssize_t next = target_of(k, p, end);
        if (next < 0 || next - p < 3 || code[next - 2] != SOP_JUMP) {
            return -1;
        }
        Py_ssize_t to = target_of(k, next - 1, end);
        if (to < 0 || (after >= 0 && to != after) || check_block(k, p + 1, next - 2) < 0) {
            return -1;
        }
        after = to;
        p = next;
    }
    if (p >= end || after < 0 || after != p + 1) {
        return -1;
    }
    return after;
}

/* GROUPREF_EXISTS g: a yes part, optionally "JUMP" and a no part. */
static Py_ssize_t
check_groupref_exists(const Checker *k, Py_ssize_t pc, Py_ssize_t end)
{
    const SreCode *code = k->code;
    if (pc + 3 > end || code[pc + 1] >= (SreCode)k->groups) {
        return -1;
    }
    /* the yes part's skip counts from the group word, not from itself */
    Py_ssize_t t = pc + 1 + (Py_ssize_t)code[pc + 2];
    if (t < pc + 3 || t > end) {
        return -1;
    }
    if (t - 2 >= pc + 3 && code[t - 2] == SOP_JUMP) {
        Py_ssize_t after = target_of(k, t - 1, end);
        if (after >= 0 && check_block(k, pc + 3, t - 2) == 0 && check_block(k, t, after) == 0) {
            return after;
        }
    }
    return check_block(k, pc + 3, t) < 0 ? -1 : t;
}

/* [op, skip, (back,) body..., SUCCESS] */
static Py_ssize_t
check_sub_body(const Checker *k, Py_ssize_t pc, Py_ssize_t end, Py_ssize_t head)
{
    Py_ssize_t t = target_of(k, pc + 1, end);
    if (t < 0 || pc + head >= t || k->code[t - 1] != SOP_SUCCESS) {
        return -1;
    }
    return check_block(k, pc + head, t - 1) < 0 ? -1 : t;
}

/* [INFO, skip, flags, min, max, prefix or charset...] ending at t. */
static int
check_info(const Checker *k, Py_ssize_t pc, Py_ssize_t t)
{
    const SreCode *code = k->code;
    if (t < pc + 5 || code[pc + 3] > code[pc + 4]) {
        return -1;
    }
    if (code[pc + 2] & SRE_INFO_PREFIX) {
        if (t < pc + 7) {
            return -1;
        }
        Py_ssize_t len = code[pc + 5];
        if (code[pc + 6] > code[pc + 5] || len > (t - pc - 7) / 2) {
            return -1;
        }
        return 0;
    }
    if (code[pc + 2] & SRE_INFO_CHARSET) {
        return check_charset(k, pc + 5, t);
    }
    return 0;
}

/* The index after the op at pc, or -1 when the op is not well formed. */
static Py_ssize_t
check_op(const Checker *k, Py_ssize_t pc, Py_ssize_t end)
{
    const SreCode *code = k->code;
    SreCode op = code[pc];
    Py_ssize_t t;
    switch (op) {
    case SOP_FAILURE:
    case SOP_SUCCESS:
    case SOP_ANY:
    case SOP_ANY_ALL:
        return pc + 1;
    case SOP_AT:
        return pc + 2 <= end && code[pc + 1] <= SAT_UNI_NON_BOUNDARY ? pc + 2 : -1;
    case SOP_CATEGORY:
        return pc + 2 <= end && code[pc + 1] <= SCAT_UNI_NOT_LINEBREAK ? pc + 2 : -1;
    case SOP_LITERAL:
    case SOP_NOT_LITERAL:
    case SOP_LITERAL_IGNORE:
    case SOP_NOT_LITERAL_IGNORE:
    case SOP_LITERAL_UNI_IGNORE:
    case SOP_NOT_LITERAL_UNI_IGNORE:
    case SOP_LITERAL_LOC_IGNORE:
    case SOP_NOT_LITERAL_LOC_IGNORE:
        return pc + 2 <= end ? pc + 2 : -1;
    case SOP_MARK:
        return pc + 2 <= end && code[pc + 1] < (SreCode)(2 * k->groups) ? pc + 2 : -1;
    case SOP_GROUPREF:
    case SOP_GROUPREF_IGNORE:
    case SOP_GROUPREF_UNI_IGNORE:
    case SOP_GROUPREF_LOC_IGNORE:
        return pc + 2 <= end && code[pc + 1] < (SreCode)k->groups ? pc + 2 : -1;
    case SOP_IN:
    case SOP_IN_IGNORE:
    case SOP_IN_UNI_IGNORE:
    case SOP_IN_LOC_IGNORE:
        t = target_of(k, pc + 1, end);
        return t >= 0 && check_charset(k, pc + 2, t) == 0 ? t : -1;
    case SOP_INFO:
        t = target_of(k, pc + 1, end);
        return t >= 0 && check_info(k, pc, t) == 0 ? t : -1;
    case SOP_BRANCH:
        return check_branch(k, pc, end);
    case SOP_REPEAT_ONE:
    case SOP_MIN_REPEAT_ONE:
    case SOP_POSSESSIVE_REPEAT_ONE:
        return check_repeat(k, pc, end, 1);
    case SOP_REPEAT:
    case SOP_POSSESSIVE_REPEAT:
        return check_repeat(k, pc, end, 0);
    case SOP_GROUPREF_EXISTS:
        return check_groupref_exists(k, pc, end);
    case SOP_ASSERT:
    case SOP_ASSERT_NOT:
        return check_sub_body(k, pc, end, 3);
    case SOP_ATOMIC_GROUP:
        return check_sub_body(k, pc, end, 2);
    default:
        return -1;
    }
}

static int
check_block(const Checker *k, Py_ssize_t pc, Py_ssize_t end)
{
    while (pc < end) {
        pc = check_op(k, pc, end);
        if (pc < 0) {
            return -1;
        }
    }
    return 0;
}

int
_PySre_Validate(const SreCode *code, Py_ssize_t n, Py_ssize_t groups)
{
    Checker k = {code, groups};
    if (n == 0 || code[n - 1] != SOP_SUCCESS || check_block(&k, 0, n - 1) < 0) {
        PyErr_SetString(PyExc_RuntimeError, "invalid SRE code");
        return -1;
    }
    return 0;
}
