/* The _locale module: the C library's locale support (setlocale,
   localeconv, nl_langinfo, strcoll, strxfrm) for locale.py.

   Strings coming from the C library are in the locale's encoding and are
   decoded with PyUnicode_DecodeLocale. */

#include "Python.h"

#include <locale.h>
#include <langinfo.h>
#include <limits.h>
#include <wchar.h>


static PyObject *
decode_c(const char *s)
{
    return PyUnicode_DecodeLocale(s, "surrogateescape");
}

/* ---- setlocale ---------------------------------------------------------------------- */

static PyObject *
locale_setlocale(PyObject *module, PyObject *args)
{
    int category;
    const char *name = NULL;
    if (!PyArg_ParseTuple(args, "i|z:setlocale", &category, &name)) {
        return NULL;
    }
    const char *res = setlocale(category, name);
    if (res == NULL) {
        /* locale.Error is kept in the module, not in a C global. */
        PyObject *error = PyObject_GetAttrString(module, "Error");
        if (error != NULL) {
            PyErr_SetString(error, name == NULL ? "locale query failed"
                                                : "unsupported locale setting");
            Py_DECREF(error);
        }
        return NULL;
    }
    return decode_c(res);
}

/* ---- localeconv ------------------------------------------------------------------------ */

/* A grouping string as a list: its values up to and including the 0 or
   CHAR_MAX that ends it ([] for an empty string). */
static PyObject *
grouping_list(const char *g)
{
    PyObject *list = PyList_New(0);
    for (const char *p = g; list != NULL && *g != '\0'; p++) {
        PyObject *v = PyLong_FromLong((unsigned char)*p);
        if (v == NULL || PyList_Append(list, v) < 0) {
            Py_CLEAR(list);
        }
        Py_XDECREF(v);
        if (*p == '\0' || *p == CHAR_MAX) {
            break;
        }
    }
    return list;
}

static int
put(PyObject *dict, const char *key, PyObject *value)
{
    if (value == NULL) {
        return -1;
    }
    int r = PyDict_SetItemString(dict, key, value);
    Py_DECREF(value);
    return r;
}

static PyObject *
locale_localeconv(PyObject *module, PyObject *Py_UNUSED(ignored))
{
    const struct lconv *lc = localeconv();
    PyObject *d = PyDict_New();
    if (d == NULL) {
        return NULL;
    }
    const struct {
        const char *key;
        const char *value;
    } texts[] = {
        {"decimal_point", lc->decimal_point},     {"thousands_sep", lc->thousands_sep},
        {"int_curr_symbol", lc->int_curr_symbol}, {"currency_symbol", lc->currency_symbol},
        {"mon_decimal_point", lc->mon_decimal_point},
        {"mon_thousands_sep", lc->mon_thousands_sep},
        {"positive_sign", lc->positive_sign},     {"negative_sign", lc->negative_sign},
    };
    const struct {
        const char *key;
        char value;
    } numbers[] = {
        {"int_frac_digits", lc->int_frac_digits}, {"frac_digits", lc->frac_digits},
        {"p_cs_precedes", lc->p_cs_precedes},     {"p_sep_by_space", lc->p_sep_by_space},
        {"n_cs_precedes", lc->n_cs_precedes},     {"n_sep_by_space", lc->n_sep_by_space},
        {"p_sign_posn", lc->p_sign_posn},         {"n_sign_posn", lc->n_sign_posn},
    };
    for (size_t i = 0; i < Py_ARRAY_LENGTH(texts); i++) {
        if (put(d, texts[i].key, decode_c(texts[i].value)) < 0) {
            goto error;
        }
    }
    for (size_t i = 0; i < Py_ARRAY_LENGTH(numbers); i++) {
        if (put(d, numbers[i].key, PyLong_FromLong(numbers[i].value)) < 0) {
            goto error;
        }
    }
    if (put(d, "grouping", grouping_list(lc->grouping)) < 0 ||
        put(d, "mon_grouping", grouping_list(lc->mon_grouping)) < 0) {
        goto error;
    }
    return d;
error:
    Py_DECREF(d);
    return NULL;
}

/* ---- Collation --------------------------------------------------------------------------- */

static PyObject *
locale_strcoll(PyObject *module, PyObject *args)
{
    PyObject *a, *b;
    if (!PyArg_ParseTuple(args, "UU:strcoll", &a, &b)) {
        return NULL;
    }
    wchar_t *wa = PyUnicode_AsWideCharString(a, NULL);
    wchar_t *wb = wa ? PyUnicode_AsWideCharString(b, NULL) : NULL;
    PyObject *res = wb ? PyLong_FromLong(wcscoll(wa, wb)) : NULL;
    PyMem_Free(wa);
    PyMem_Free(wb);
    return res;
}

static PyObject *
locale_strxfrm(PyObject *module, PyObject *arg)
{
    if (!PyUnicode_Check(arg)) {
        PyErr_Format(PyExc_TypeError, "strxfrm() argument must be str, not %.50s",
                     Py_TYPE(arg)->tp_name);
        return NULL;
    }
    Py_ssize_t len;
    wchar_t *src = PyUnicode_AsWideCharString(arg, &len);
    if (src == NULL) {
        return NULL;
    }
    if ((size_t)len != wcslen(src)) {
        PyMem_Free(src);
        PyErr_SetString(PyExc_ValueError, "embedded null character");
        return NULL;
    }
    /* Ask for the size first, then transform into a buffer that fits. */
    size_t need = wcsxfrm(NULL, src, 0);
    PyObject *res = NULL;
    wchar_t *dst = PyMem_New(wchar_t, need + 1);
    if (dst == NULL) {
        PyErr_NoMemory();
    }
    else {
        size_t got = wcsxfrm(dst, src, need + 1);
        res = PyUnicode_FromWideChar(dst, (Py_ssize_t)(got <= need ? got : need));
        PyMem_Free(dst);
    }
    PyMem_Free(src);
    return res;
}

/* ---- nl_langinfo ---------------------------------------------------------------------------- */

#define ITEM(name) {#name, name}
static const struct {
    const char *name;
    nl_item item;
} langinfo_items[] = {
    ITEM(CODESET), ITEM(D_T_FMT), ITEM(D_FMT), ITEM(T_FMT), ITEM(T_FMT_AMPM),
    ITEM(AM_STR), ITEM(PM_STR),
    ITEM(DAY_1), ITEM(DAY_2), ITEM(DAY_3), ITEM(DAY_4), ITEM(DAY_5), ITEM(DAY_6), ITEM(DAY_7),
    ITEM(ABDAY_1), ITEM(ABDAY_2), ITEM(ABDAY_3), ITEM(ABDAY_4), ITEM(ABDAY_5), ITEM(ABDAY_6),
    ITEM(ABDAY_7),
    ITEM(MON_1), ITEM(MON_2), ITEM(MON_3), ITEM(MON_4), ITEM(MON_5), ITEM(MON_6),
    ITEM(MON_7), ITEM(MON_8), ITEM(MON_9), ITEM(MON_10), ITEM(MON_11), ITEM(MON_12),
    ITEM(ABMON_1), ITEM(ABMON_2), ITEM(ABMON_3), ITEM(ABMON_4), ITEM(ABMON_5), ITEM(ABMON_6),
    ITEM(ABMON_7), ITEM(ABMON_8), ITEM(ABMON_9), ITEM(ABMON_10), ITEM(ABMON_11),
    ITEM(ABMON_12),
    ITEM(RADIXCHAR), ITEM(THOUSEP), ITEM(YESEXPR), ITEM(NOEXPR), ITEM(CRNCYSTR),
    ITEM(ERA), ITEM(ERA_D_FMT), ITEM(ERA_D_T_FMT), ITEM(ERA_T_FMT), ITEM(ALT_DIGITS),
};
#undef ITEM

static PyObject *
locale_nl_langinfo(PyObject *module, PyObject *args)
{
    int key;
    if (!PyArg_ParseTuple(args, "i:nl_langinfo", &key)) {
        return NULL;
    }
    for (size_t i = 0; i < Py_ARRAY_LENGTH(langinfo_items); i++) {
        if ((int)langinfo_items[i].item == key) {
            const char *s = nl_langinfo(langinfo_items[i].item);
            return decode_c(s != NULL ? s : "");
        }
    }
    PyErr_SetString(PyExc_ValueError, "unsupported langinfo constant");
    return NULL;
}

static PyObject *
locale_getencoding(PyObject *module, PyObject *Py_UNUSED(ignored))
{
    const char *codeset = nl_langinfo(CODESET);
    return decode_c(codeset != NULL && codeset[0] != '\0' ? codeset : "utf-8");
}

/* ---- The module ---------------------------------------------------------------------------- */

static PyMethodDef locale_functions[] = {
    {"setlocale", locale_setlocale, METH_VARARGS,
     "setlocale(category[, locale]): set the locale, or query it when locale is None."},
    {"localeconv", locale_localeconv, METH_NOARGS, "Number and currency conventions as a dict."},
    {"strcoll", locale_strcoll, METH_VARARGS, "Compare two strings by the LC_COLLATE rules."},
    {"strxfrm", locale_strxfrm, METH_O,
     "A key string that compares like strcoll() compares the original."},
    {"nl_langinfo", locale_nl_langinfo, METH_VARARGS, "One item of locale information."},
    {"getencoding", locale_getencoding, METH_NOARGS,
     "The encoding of the current LC_CTYPE locale (UTF-8 mode does not matter here)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef locale_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_locale",
    .m_doc = "Locale support from the C library.",
    .m_size = -1,
    .m_methods = locale_functions,
};

static int
add_constants(PyObject *mod)
{
    const struct {
        const char *name;
        int value;
    } categories[] = {
        {"LC_CTYPE", LC_CTYPE},       {"LC_COLLATE", LC_COLLATE}, {"LC_TIME", LC_TIME},
        {"LC_MONETARY", LC_MONETARY}, {"LC_NUMERIC", LC_NUMERIC}, {"LC_ALL", LC_ALL},
        {"LC_MESSAGES", LC_MESSAGES}, {"CHAR_MAX", CHAR_MAX},
    };
    for (size_t i = 0; i < Py_ARRAY_LENGTH(categories); i++) {
        if (PyModule_AddIntConstant(mod, categories[i].name, categories[i].value) < 0) {
            return -1;
        }
    }
    for (size_t i = 0; i < Py_ARRAY_LENGTH(langinfo_items); i++) {
        if (PyModule_AddIntConstant(mod, langinfo_items[i].name, (long)langinfo_items[i].item) < 0) {
            return -1;
        }
    }
    return 0;
}

PyObject *
PyInit__locale(void)
{
    PyObject *mod = PyModule_Create(&locale_module);
    if (mod == NULL) {
        return NULL;
    }
    if (PyModule_Add(mod, "Error", PyErr_NewException("locale.Error", NULL, NULL)) < 0 ||
        add_constants(mod) < 0) {
        Py_DECREF(mod);
        return NULL;
    }
    return mod;
}
