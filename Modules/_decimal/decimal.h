/* Shared declarations of the _decimal module (Doc/decimal.md).

   The module is split by concept: signals.c (the exception hierarchy,
   status bits and signal dicts), context.c (Context, the current context,
   localcontext), decimal_type.c (the Decimal type and its arithmetic),
   conversions.c (to and from other types, formatting) and module.c (the
   module object).  libmpdec does all the arithmetic; these files translate
   between Python objects and its mpd_t / mpd_context_t values. */

#ifndef Py_DECIMAL_INTERNAL_H
#define Py_DECIMAL_INTERNAL_H

#include "Python.h"
#include "pycore_object.h"      /* _PyStaticType_InitBuiltin */
#include <mpdecimal.h>

/* libmpdec has no FloatOperation condition; this otherwise unused bit of
   its status word carries it. */
#define DEC_FLOAT_OPERATION MPD_Not_implemented

/* Every status bit the flags and traps dicts can hold. */
#define DEC_ALL_SIGNAL_BITS (MPD_Max_status)

typedef struct {
    PyObject_HEAD
    Py_hash_t hash;             /* -1 until first computed */
    mpd_t *value;               /* owned; never NULL once constructed */
} PyDecObject;

/* A flags or traps mapping: a set of status bits shown as {signal: bool}. */
typedef struct {
    PyObject_HEAD
    uint32_t bits;
} PyDecSignalDictObject;

typedef struct {
    PyObject_HEAD
    mpd_context_t limits;       /* prec, emax, emin, round, clamp (status unused) */
    PyDecSignalDictObject *traps;
    PyDecSignalDictObject *flags;
    int capitals;
} PyDecContextObject;

extern PyTypeObject _PyDec_Type;
extern PyTypeObject _PyDecContext_Type;
extern PyTypeObject _PyDecContextManager_Type;
extern PyTypeObject _PyDecSignalDictMixin_Type;
/* The Python-level subclass that adds MutableMapping (built at import). */
extern PyTypeObject *_PyDecSignalDict_Type;
extern PyObject *_PyDec_DecimalTuple;
extern PyObject *_PyDec_DefaultContext;

#define PyDec_Check(op) PyObject_TypeCheck((op), &_PyDec_Type)
#define PyDecContext_Check(op) PyObject_TypeCheck((op), &_PyDecContext_Type)
#define DEC_VALUE(op) (((PyDecObject *)(op))->value)

/* Ready a static type once (the module may be initialised again after
   finalization). */
static inline int
_PyDec_ReadyStatic(PyTypeObject *type)
{
    if (type->tp_flags & Py_TPFLAGS_READY) {
        return 0;
    }
    return _PyStaticType_InitBuiltin(type);
}

/* signals.c */
int _PyDecSignals_Init(PyObject *module);
void _PyDecSignals_Fini(void);
PyObject *_PyDecSignals_NewDict(uint32_t bits);
int _PyDecSignals_BitsFromKey(PyObject *key, uint32_t *bits);
int _PyDecSignals_BitsFromArg(PyObject *arg, uint32_t *bits);
PyObject *_PyDecSignals_NamesList(uint32_t bits, int as_classes);
int _PyDecSignals_Raise(uint32_t trapped);

/* context.c */
int _PyDecContext_Init(PyObject *module);
void _PyDecContext_Fini(void);
PyObject *_PyDecContext_Current(void);  /* new reference, or NULL */
PyObject *_PyDecContext_Resolve(PyObject *arg);  /* None -> current; new ref */
PyObject *_PyDecContext_NewTemplate(const mpd_context_t *limits,
                                    uint32_t traps);
int _PyDecContext_Record(PyObject *ctx, uint32_t status);
int _PyDecContext_RoundingFromObject(PyObject *obj, int *round);

/* decimal_type.c */
int _PyDecType_Init(PyObject *module);
PyDecObject *_PyDec_Alloc(PyTypeObject *type);
PyObject *_PyDec_Convert(PyObject *v, PyObject *ctx, int not_implemented);
PyObject *_PyDec_ConvertRational(PyObject *v, PyObject *ctx);

/* conversions.c */
PyObject *_PyDec_FromObjectExact(PyTypeObject *type, PyObject *v, PyObject *ctx);
PyObject *_PyDec_FromObjectRounded(PyObject *v, PyObject *ctx);
PyObject *_PyDec_FromLongExact(PyTypeObject *type, PyObject *v, PyObject *ctx);
PyObject *_PyDec_FromFloatExact(PyTypeObject *type, PyObject *v, PyObject *ctx);
int _PyDec_SetFromLong(mpd_t *dst, PyObject *v, uint32_t *status);
PyObject *_PyDec_ToLong(PyObject *dec, int round);
PyObject *_PyDec_ToFloat(PyObject *dec);
PyObject *_PyDec_ToString(PyObject *dec, int eng, PyObject *ctx);
PyObject *_PyDec_AsTuple(PyObject *dec);
PyObject *_PyDec_AsIntegerRatio(PyObject *dec);
PyObject *_PyDec_Format(PyObject *dec, PyObject *args);
PyObject *_PyDec_Round(PyObject *dec, PyObject *args);

#endif /* Py_DECIMAL_INTERNAL_H */
