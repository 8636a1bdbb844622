/* The sys module's descriptions of the runtime: float_info, int_info,
   hash_info and thread_info, as struct sequences.  PyFloat_GetInfo and
   PyLong_GetInfo live here too, beside the other tables, rather than in
   their object files (Doc/startup.md lists where sys's parts are). */

#include "Python.h"
#include "pycore_long.h"
#include <float.h>

/* One struct sequence from C values: ints (kind 'i'), doubles ('d'),
   C strings ('s', NULL for None); `kinds` spells one letter a field. */
static PyObject *
make_info(PyTypeObject *type, PyStructSequence_Desc *desc, const char *kinds, ...)
{
    if (type->tp_name == NULL && PyStructSequence_InitType2(type, desc) < 0) {
        return NULL;
    }
    PyObject *info = PyStructSequence_New(type);
    if (info == NULL) {
        return NULL;
    }
    va_list va;
    va_start(va, kinds);
    for (int i = 0; kinds[i] != '\0'; i++) {
        PyObject *item;
        if (kinds[i] == 'i') {
            item = PyLong_FromLongLong(va_arg(va, long long));
        }
        else if (kinds[i] == 'd') {
            item = PyFloat_FromDouble(va_arg(va, double));
        }
        else {
            const char *s = va_arg(va, const char *);
            item = s ? PyUnicode_FromString(s) : Py_NewRef(Py_None);
        }
        if (item == NULL) {
            Py_CLEAR(info);
            break;
        }
        PyStructSequence_SetItem(info, i, item);
    }
    va_end(va);
    return info;
}

static PyTypeObject FloatInfoType;
static PyStructSequence_Field float_info_fields[] = {
    {"max", "largest finite float"},
    {"max_exp", "largest e such that radix**(e-1) is a finite float"},
    {"max_10_exp", "largest e such that 10**e is a finite float"},
    {"min", "smallest positive normalized float"},
    {"min_exp", "smallest e such that radix**(e-1) is a normalized float"},
    {"min_10_exp", "smallest e such that 10**e is a normalized float"},
    {"dig", "decimal digits a float always keeps"},
    {"mant_dig", "digits of the mantissa, in the radix"},
    {"epsilon", "the gap between 1.0 and the next float"},
    {"radix", "base of the exponent"},
    {"rounds", "rounding mode of float addition (FLT_ROUNDS)"},
    {NULL, NULL},
};
static PyStructSequence_Desc float_info_desc = {
    "sys.float_info", "The limits of the float type (the C double).", float_info_fields, 11,
};

PyObject *
PyFloat_GetInfo(void)
{
    return make_info(&FloatInfoType, &float_info_desc, "diidiiiidii", DBL_MAX,
                     (long long)DBL_MAX_EXP, (long long)DBL_MAX_10_EXP, DBL_MIN,
                     (long long)DBL_MIN_EXP, (long long)DBL_MIN_10_EXP, (long long)DBL_DIG,
                     (long long)DBL_MANT_DIG, DBL_EPSILON, (long long)FLT_RADIX,
                     (long long)FLT_ROUNDS);
}

static PyTypeObject IntInfoType;
static PyStructSequence_Field int_info_fields[] = {
    {"bits_per_digit", "bits held in each digit of an int"},
    {"sizeof_digit", "size in bytes of the C type of a digit"},
    {"default_max_str_digits", "the default limit of int <-> str conversions"},
    {"str_digits_check_threshold", "the lowest limit that may be set"},
    {NULL, NULL},
};
static PyStructSequence_Desc int_info_desc = {
    "sys.int_info", "How ints are stored.", int_info_fields, 4,
};

PyObject *
PyLong_GetInfo(void)
{
    return make_info(&IntInfoType, &int_info_desc, "iiii", (long long)PyLong_SHIFT,
                     (long long)sizeof(digit), (long long)_PY_LONG_DEFAULT_MAX_STR_DIGITS,
                     (long long)_PY_LONG_MAX_STR_DIGITS_THRESHOLD);
}

static PyTypeObject HashInfoType;
static PyStructSequence_Field hash_info_fields[] = {
    {"width", "bits in a hash value"},
    {"modulus", "the prime modulus of numeric hashes"},
    {"inf", "hash of positive infinity"},
    {"nan", "hash of a NaN (unused: NaNs hash by identity)"},
    {"imag", "multiplier of the imaginary part in complex hashes"},
    {"algorithm", "the algorithm hashing str and bytes"},
    {"hash_bits", "bits of the algorithm's output"},
    {"seed_bits", "bits of its key"},
    {"cutoff", "below this length short strings hash differently (0: never)"},
    {NULL, NULL},
};
static PyStructSequence_Desc hash_info_desc = {
    "sys.hash_info", "Parameters of the hash function.", hash_info_fields, 9,
};

static PyObject *
make_hash_info(void)
{
    return make_info(&HashInfoType, &hash_info_desc, "iiiiisiii", (long long)(8 * sizeof(Py_hash_t)),
                     (long long)PyHASH_MODULUS, (long long)PyHASH_INF, 0LL, (long long)PyHASH_IMAG,
                     "siphash13", 64LL, 128LL, 0LL);
}

static PyTypeObject ThreadInfoType;
static PyStructSequence_Field thread_info_fields[] = {
    {"name", "the thread implementation"},
    {"lock", "how locks are made"},
    {"version", "the thread library's version, or None"},
    {NULL, NULL},
};
static PyStructSequence_Desc thread_info_desc = {
    "sys.thread_info", "The thread implementation.", thread_info_fields, 3,
};

static PyObject *
make_thread_info(void)
{
    return make_info(&ThreadInfoType, &thread_info_desc, "sss", "pthread", "mutex+cond", NULL);
}

static int
set_item(PyObject *sysdict, const char *name, PyObject *value)
{
    int err = value == NULL ? -1 : PyDict_SetItemString(sysdict, name, value);
    Py_XDECREF(value);
    return err;
}

int
_PySys_AddInfo(PyObject *sysdict)
{
    if (set_item(sysdict, "float_info", PyFloat_GetInfo()) < 0 ||
        set_item(sysdict, "int_info", PyLong_GetInfo()) < 0 ||
        set_item(sysdict, "hash_info", make_hash_info()) < 0 ||
        set_item(sysdict, "thread_info", make_thread_info()) < 0) {
        return -1;
    }
    return set_item(sysdict, "float_repr_style", PyUnicode_FromString("short"));
}
