/* The abstract object layer: operators, item access, iteration,
   conversions to int and float, isinstance/issubclass, format().

   Binary operators follow the language reference's dispatch: try the
   left operand's slot, then the right's; a right operand whose type is a
   proper subclass of the left's goes first.  Slots return NotImplemented
   for operand pairs they do not handle.  Sequences get a second chance
   at + and * through sq_concat and sq_repeat. */
#include "Python.h"
#include "pycore_abstract.h"
#include "pycore_call.h"
#include "pycore_ceval.h"
#include "pycore_object.h"
#include "pycore_pystate.h"
#include "pycore_typeobject.h"
#include "pycore_unicodeobject.h"
#include "pycore_identifiers.h"

static PyObject *
type_error(const char *msg, PyObject *obj)
{
    PyErr_Format(PyExc_TypeError, msg, Py_TYPE(obj)->tp_name);
    return NULL;
}

static PyObject *
null_error(void)
{
    if (!PyErr_Occurred()) {
        PyErr_SetString(PyExc_SystemError, "null argument to internal routine");
    }
    return NULL;
}

/* ---- Generic object operations ---------------------------------------------------- */

PyObject *
PyObject_Type(PyObject *o)
{
    if (o == NULL) {
        return null_error();
    }
    return Py_NewRef(Py_TYPE(o));
}

/* len() through the protocol slots.  `sq_first` says which of the two
   length slots is the one asked for; the other only changes the error:
   a mapping is "not a sequence" for PySequence_Size and the other way
   round.  PyObject_Size accepts either (wrong_kind NULL). */
static Py_ssize_t
length_through_slots(PyObject *o, int sq_first, const char *wrong_kind)
{
    if (o == NULL) {
        null_error();
        return -1;
    }
    PyTypeObject *tp = Py_TYPE(o);
    lenfunc sq_len = tp->tp_as_sequence != NULL ? tp->tp_as_sequence->sq_length : NULL;
    lenfunc mp_len = tp->tp_as_mapping != NULL ? tp->tp_as_mapping->mp_length : NULL;
    lenfunc wanted = sq_first ? sq_len : mp_len;
    lenfunc other = sq_first ? mp_len : sq_len;
    if (wanted != NULL) {
        return wanted(o);
    }
    if (other != NULL && wrong_kind == NULL) {
        return other(o);
    }
    type_error(other != NULL ? wrong_kind : "object of type '%.200s' has no len()", o);
    return -1;
}

Py_ssize_t
PyObject_Size(PyObject *o)
{
    return length_through_slots(o, 1, NULL);
}

int
_PyObject_HasLen(PyObject *o)
{
    PyTypeObject *tp = Py_TYPE(o);
    return (tp->tp_as_sequence != NULL && tp->tp_as_sequence->sq_length != NULL) ||
           (tp->tp_as_mapping != NULL && tp->tp_as_mapping->mp_length != NULL);
}

/* What o.__length_hint__() says, or `fallback` when o has no such method,
   it raises TypeError or returns NotImplemented.  -1 on other errors and
   for results that are not non-negative ints. */
static Py_ssize_t
ask_length_hint(PyObject *o, Py_ssize_t fallback)
{
    PyObject *method = _PyObject_LookupSpecial(o, _Py_ID(__length_hint__));
    if (method == NULL) {
        return PyErr_Occurred() ? -1 : fallback;
    }
    PyObject *answer = _PyObject_CallNoArgs(method);
    Py_DECREF(method);
    if (answer == NULL || answer == Py_NotImplemented) {
        if (answer != NULL || PyErr_ExceptionMatches(PyExc_TypeError)) {
            Py_XDECREF(answer);
            PyErr_Clear();
            return fallback;
        }
        return -1;
    }
    Py_ssize_t hint = -1;
    if (!PyLong_Check(answer)) {
        PyErr_Format(PyExc_TypeError, "__length_hint__ must be an integer, not %.100s",
                     Py_TYPE(answer)->tp_name);
    }
    else {
        hint = PyLong_AsSsize_t(answer);
        if (hint < 0 && !PyErr_Occurred()) {
            PyErr_SetString(PyExc_ValueError, "__length_hint__() should return >= 0");
        }
    }
    Py_DECREF(answer);
    return hint < 0 ? -1 : hint;
}

/* len(o) if o has one, else o.__length_hint__(), else the default: how
   big a container to preallocate.  A len() raising TypeError counts as
   having none. */
Py_ssize_t
PyObject_LengthHint(PyObject *o, Py_ssize_t defaultvalue)
{
    if (_PyObject_HasLen(o)) {
        Py_ssize_t exact = PyObject_Size(o);
        if (exact >= 0) {
            return exact;
        }
        if (!PyErr_ExceptionMatches(PyExc_TypeError)) {
            return -1;
        }
        PyErr_Clear();
    }
    return ask_length_hint(o, defaultvalue);
}

/* cls[key] for a class without a mapping slot: type[int] is built in, any
   other class answers through its __class_getitem__ (PEP 560). */
static PyObject *
subscript_class(PyObject *cls, PyObject *key)
{
    if (cls == (PyObject *)&PyType_Type) {
        return Py_GenericAlias(cls, key);
    }
    PyObject *hook = NULL;
    int found = PyObject_GetOptionalAttr(cls, _Py_ID(__class_getitem__), &hook);
    if (found < 0) {
        return NULL;
    }
    if (hook == NULL || hook == Py_None) {
        Py_XDECREF(hook);
        return PyErr_Format(PyExc_TypeError, "type '%.200s' is not subscriptable",
                            ((PyTypeObject *)cls)->tp_name);
    }
    PyObject *alias = PyObject_CallOneArg(hook, key);
    Py_DECREF(hook);
    return alias;
}

PyObject *
PyObject_GetItem(PyObject *o, PyObject *key)
{
    if (o == NULL || key == NULL) {
        return null_error();
    }
    PyTypeObject *tp = Py_TYPE(o);
    /* A mapping's subscript takes any key; a sequence's item an index. */
    binaryfunc subscript = tp->tp_as_mapping ? tp->tp_as_mapping->mp_subscript : NULL;
    if (subscript != NULL) {
        return subscript(o, key);
    }
    int is_sequence = tp->tp_as_sequence != NULL && tp->tp_as_sequence->sq_item != NULL;
    if (is_sequence && !_PyIndex_Check(key)) {
        return type_error("sequence index must be integer, not '%.200s'", key);
    }
    if (is_sequence) {
        Py_ssize_t index = PyNumber_AsSsize_t(key, PyExc_IndexError);
        return index == -1 && PyErr_Occurred() ? NULL : PySequence_GetItem(o, index);
    }
    /* list[int] and friends: classes subscript through __class_getitem__. */
    return PyType_Check(o) ? subscript_class(o, key)
                           : type_error("'%.200s' object is not subscriptable", o);
}

/* 1 and *result = o[key]; 0 and *result = NULL when the key is missing
   (KeyError swallowed); -1 on other errors. */
int
PyMapping_GetOptionalItem(PyObject *obj, PyObject *key, PyObject **result)
{
    if (PyDict_CheckExact(obj)) {
        return PyDict_GetItemRef(obj, key, result); /* no KeyError to raise and clear */
    }
    PyObject *value = PyObject_GetItem(obj, key);
    *result = value;
    if (value == NULL && PyErr_ExceptionMatches(PyExc_KeyError)) {
        PyErr_Clear();
        return 0;
    }
    return value == NULL ? -1 : 1;
}

/* o[key] = value, or del o[key] when value is NULL: the mapping slot takes
   any key, the sequence slot an index. */
static inline int
store_or_delete_item(PyObject *o, PyObject *key, PyObject *value, const char *unsupported)
{
    PyTypeObject *tp = Py_TYPE(o);
    if (tp->tp_as_mapping != NULL && tp->tp_as_mapping->mp_ass_subscript != NULL) {
        return tp->tp_as_mapping->mp_ass_subscript(o, key, value);
    }
    if (tp->tp_as_sequence == NULL || tp->tp_as_sequence->sq_ass_item == NULL) {
        type_error(unsupported, o);
        return -1;
    }
    if (!_PyIndex_Check(key)) {
        type_error("sequence index must be integer, not '%.200s'", key);
        return -1;
    }
    Py_ssize_t position = PyNumber_AsSsize_t(key, PyExc_IndexError);
    if (position == -1 && PyErr_Occurred()) {
        return -1;
    }
    return value != NULL ? PySequence_SetItem(o, position, value) : PySequence_DelItem(o, position);
}

int
PyObject_SetItem(PyObject *o, PyObject *key, PyObject *value)
{
    if (o == NULL || key == NULL || value == NULL) {
        null_error();
        return -1;
    }
    return store_or_delete_item(o, key, value, "'%.200s' object does not support item assignment");
}

int
PyObject_DelItem(PyObject *o, PyObject *key)
{
    if (o == NULL || key == NULL) {
        null_error();
        return -1;
    }
    return store_or_delete_item(o, key, NULL, "'%.200s' object doesn't support item deletion");
}

/* format(obj, spec).  A NULL spec means "".  str and int with an empty
   spec (f"{x}") skip the __format__ call. */
PyObject *
PyObject_Format(PyObject *obj, PyObject *format_spec)
{
    if (format_spec != NULL && !PyUnicode_Check(format_spec)) {
        PyErr_Format(PyExc_SystemError, "Format specifier must be a string, not %.200s",
                     Py_TYPE(format_spec)->tp_name);
        return NULL;
    }
    int empty_spec = format_spec == NULL || PyUnicode_GET_LENGTH(format_spec) == 0;
    if (empty_spec && PyUnicode_CheckExact(obj)) {
        return Py_NewRef(obj);
    }
    if (empty_spec && PyLong_CheckExact(obj)) {
        return PyObject_Str(obj);
    }
    PyObject *formatter = _PyObject_LookupSpecial(obj, _Py_ID(__format__));
    if (formatter == NULL) {
        if (!PyErr_Occurred()) {
            PyErr_Format(PyExc_TypeError, "Type %.100s doesn't define __format__",
                         Py_TYPE(obj)->tp_name);
        }
        return NULL;
    }
    PyObject *text = PyObject_CallOneArg(formatter, format_spec ? format_spec : _PyUnicode_GetEmpty());
    Py_DECREF(formatter);
    if (text == NULL || PyUnicode_Check(text)) {
        return text;
    }
    PyErr_Format(PyExc_TypeError, "__format__ must return a str, not %.200s",
                 Py_TYPE(text)->tp_name);
    Py_DECREF(text);
    return NULL;
}

/* ---- Numbers ------------------------------------------------------------------------ */

int
PyNumber_Check(PyObject *o)
{
    if (o == NULL) {
        return 0;
    }
    PyNumberMethods *nb = Py_TYPE(o)->tp_as_number;
    return (nb != NULL && (nb->nb_index || nb->nb_int || nb->nb_float)) || PyComplex_Check(o);
}

#define NB_SLOT(x) offsetof(PyNumberMethods, x)

/* Number slots are looked up by their offset in PyNumberMethods.  They
   are read as a generic function pointer and cast to the binary or
   ternary signature at the call. */
typedef void (*number_slot)(void);

static inline number_slot
slot_at(PyTypeObject *tp, size_t offset)
{
    PyNumberMethods *nb = tp->tp_as_number;
    return nb == NULL ? NULL : *(number_slot *)((char *)nb + offset);
}

/* Which implementations of a binary operator to try, in order (the
   unused entries NULL): normally the left operand's slot, then the
   right's.  The right one is skipped when both operands share it, and
   goes first when its type is a proper subclass of the left's, so that
   subclasses can override their base's behaviour. */
static inline void
operator_candidates(PyObject *v, PyObject *w, size_t offset, number_slot order[2])
{
    number_slot left = slot_at(Py_TYPE(v), offset);
    number_slot right = NULL;
    if (!Py_IS_TYPE(w, Py_TYPE(v))) {
        right = slot_at(Py_TYPE(w), offset);
        if (right == left) {
            right = NULL;
        }
    }
    if (left != NULL && right != NULL && PyType_IsSubtype(Py_TYPE(w), Py_TYPE(v))) {
        order[0] = right;
        order[1] = left;
    }
    else if (left != NULL) {
        order[0] = left;
        order[1] = right;
    }
    else {
        order[0] = right;
        order[1] = NULL;
    }
}

/* Operands of different types: up to two implementations to ask. */
static Py_NO_INLINE PyObject *
mixed_binary_op(PyObject *v, PyObject *w, const size_t op_slot)
{
    number_slot order[2];
    operator_candidates(v, w, op_slot, order);
    for (int k = 0; k < 2 && order[k] != NULL; k++) {
        PyObject *outcome = ((binaryfunc)order[k])(v, w);
        if (outcome != Py_NotImplemented) {
            return outcome;
        }
        Py_DECREF(outcome);
    }
    Py_RETURN_NOTIMPLEMENTED;
}

/* v <op> w through the number slots; a new reference to NotImplemented
   when neither operand handles it. */
static PyObject *
binary_op1(PyObject *v, PyObject *w, const size_t op_slot)
{
    if (!Py_IS_TYPE(w, Py_TYPE(v))) {
        return mixed_binary_op(v, w, op_slot);
    }
    /* One type (int + int, the hot case): a single implementation, whose
       answer is final, NotImplemented included. */
    number_slot shared = slot_at(Py_TYPE(v), op_slot);
    if (shared == NULL) {
        Py_RETURN_NOTIMPLEMENTED;
    }
    return ((binaryfunc)shared)(v, w);
}
static PyObject *
binop_type_error(PyObject *v, PyObject *w, const char *op_name)
{
    PyErr_Format(PyExc_TypeError, "unsupported operand type(s) for %.100s: '%.100s' and '%.100s'",
                 op_name, Py_TYPE(v)->tp_name, Py_TYPE(w)->tp_name);
    return NULL;
}

static int
is_print_builtin(PyObject *v)
{
    return PyCFunction_CheckExact(v) &&
           strcmp(((PyCFunctionObject *)v)->m_ml->ml_name, "print") == 0;
}

static PyObject *
binary_op(PyObject *v, PyObject *w, const size_t op_slot, const char *op_name)
{
    PyObject *result = binary_op1(v, w, op_slot);
    if (result != Py_NotImplemented) {
        return result;
    }
    Py_DECREF(result);
    if (op_slot == NB_SLOT(nb_rshift) && is_print_builtin(v)) {
        /* Python 2's `print >> f, x`, a common mistake. */
        PyErr_Format(PyExc_TypeError,
                     "unsupported operand type(s) for %.100s: '%.100s' and '%.100s'. Did you "
                     "mean \"print(<message>, file=<output_stream>)\"?",
                     op_name, Py_TYPE(v)->tp_name, Py_TYPE(w)->tp_name);
        return NULL;
    }
    return binop_type_error(v, w, op_name);
}

/* pow(v, w, z): as for binary operators, plus a last chance for the
   modulus's own slot when it is yet another implementation. */
static PyObject *
ternary_op(PyObject *v, PyObject *w, PyObject *z, const size_t op_slot, const char *op_name)
{
    number_slot order[3];
    if (Py_IS_TYPE(w, Py_TYPE(v)) && (z == Py_None || Py_IS_TYPE(z, Py_TYPE(v)))) {
        /* x ** y, pow(x, y, m) on one type: only its own slot counts */
        order[0] = slot_at(Py_TYPE(v), op_slot);
        order[1] = order[2] = NULL;
    }
    else {
        operator_candidates(v, w, op_slot, order);
        number_slot third = slot_at(Py_TYPE(z), op_slot);
        order[2] = third == order[0] || third == order[1] ? NULL : third;
    }
    for (int k = 0; k < 3; k++) {
        if (order[k] == NULL) {
            continue; /* order[1] may be empty while order[2] is not */
        }
        PyObject *outcome = ((ternaryfunc)order[k])(v, w, z);
        if (outcome != Py_NotImplemented) {
            return outcome;
        }
        Py_DECREF(outcome);
    }
    if (z != Py_None) {
        PyErr_Format(PyExc_TypeError,
                     "unsupported operand type(s) for %.100s: '%.100s', '%.100s', '%.100s'",
                     op_name, Py_TYPE(v)->tp_name, Py_TYPE(w)->tp_name, Py_TYPE(z)->tp_name);
        return NULL;
    }
    return binop_type_error(v, w, op_name);
}

#define BINARY_FUNC(func, op, op_name)                   \
    PyObject *func(PyObject *v, PyObject *w)             \
    {                                                    \
        return binary_op(v, w, NB_SLOT(op), op_name);    \
    }

BINARY_FUNC(PyNumber_Or, nb_or, "|")
BINARY_FUNC(PyNumber_Xor, nb_xor, "^")
BINARY_FUNC(PyNumber_And, nb_and, "&")
BINARY_FUNC(PyNumber_Lshift, nb_lshift, "<<")
BINARY_FUNC(PyNumber_Rshift, nb_rshift, ">>")
BINARY_FUNC(PyNumber_Subtract, nb_subtract, "-")
BINARY_FUNC(PyNumber_Divmod, nb_divmod, "divmod()")
BINARY_FUNC(PyNumber_MatrixMultiply, nb_matrix_multiply, "@")
BINARY_FUNC(PyNumber_FloorDivide, nb_floor_divide, "//")
BINARY_FUNC(PyNumber_TrueDivide, nb_true_divide, "/")
BINARY_FUNC(PyNumber_Remainder, nb_remainder, "%")
#undef BINARY_FUNC

PyObject *
PyNumber_Add(PyObject *v, PyObject *w)
{
    PyObject *result = binary_op1(v, w, NB_SLOT(nb_add));
    if (result != Py_NotImplemented) {
        return result;
    }
    Py_DECREF(result);
    PySequenceMethods *m = Py_TYPE(v)->tp_as_sequence;
    if (m != NULL && m->sq_concat != NULL) {
        return m->sq_concat(v, w);
    }
    return binop_type_error(v, w, "+");
}

static PyObject *
sequence_repeat(ssizeargfunc repeatfunc, PyObject *seq, PyObject *n)
{
    if (!_PyIndex_Check(n)) {
        return type_error("can't multiply sequence by non-int of type '%.200s'", n);
    }
    Py_ssize_t count = PyNumber_AsSsize_t(n, PyExc_OverflowError);
    if (count == -1 && PyErr_Occurred()) {
        return NULL;
    }
    return repeatfunc(seq, count);
}

PyObject *
PyNumber_Multiply(PyObject *v, PyObject *w)
{
    PyObject *result = binary_op1(v, w, NB_SLOT(nb_multiply));
    if (result != Py_NotImplemented) {
        return result;
    }
    Py_DECREF(result);
    PySequenceMethods *mv = Py_TYPE(v)->tp_as_sequence;
    PySequenceMethods *mw = Py_TYPE(w)->tp_as_sequence;
    if (mv != NULL && mv->sq_repeat != NULL) {
        return sequence_repeat(mv->sq_repeat, v, w);
    }
    if (mw != NULL && mw->sq_repeat != NULL) {
        return sequence_repeat(mw->sq_repeat, w, v);
    }
    return binop_type_error(v, w, "*");
}

PyObject *
PyNumber_Power(PyObject *v, PyObject *w, PyObject *z)
{
    return ternary_op(v, w, z, NB_SLOT(nb_power), "** or pow()");
}

PyObject *
_PyNumber_PowerNoMod(PyObject *lhs, PyObject *rhs)
{
    return PyNumber_Power(lhs, rhs, Py_None);
}

/* In-place operators try the in-place slot of the left operand, then
   fall back to the plain operator. */
static PyObject *
binary_iop1(PyObject *v, PyObject *w, const size_t iop_slot, const size_t op_slot)
{
    number_slot in_place = slot_at(Py_TYPE(v), iop_slot);
    if (in_place != NULL) {
        PyObject *outcome = ((binaryfunc)in_place)(v, w);
        if (outcome != Py_NotImplemented) {
            return outcome;
        }
        Py_DECREF(outcome);
    }
    return binary_op1(v, w, op_slot);
}

static PyObject *
binary_iop(PyObject *v, PyObject *w, const size_t iop_slot, const size_t op_slot,
           const char *op_name)
{
    PyObject *result = binary_iop1(v, w, iop_slot, op_slot);
    if (result == Py_NotImplemented) {
        Py_DECREF(result);
        return binop_type_error(v, w, op_name);
    }
    return result;
}

static PyObject *
ternary_iop(PyObject *v, PyObject *w, PyObject *z, const size_t iop_slot, const size_t op_slot,
            const char *op_name)
{
    number_slot in_place = slot_at(Py_TYPE(v), iop_slot);
    PyObject *outcome = in_place ? ((ternaryfunc)in_place)(v, w, z) : Py_NewRef(Py_NotImplemented);
    if (outcome != Py_NotImplemented) {
        return outcome;
    }
    Py_DECREF(outcome);
    return ternary_op(v, w, z, op_slot, op_name);
}

#define INPLACE_BINOP(func, iop, op, op_name)                          \
    PyObject *func(PyObject *v, PyObject *w)                           \
    {                                                                  \
        return binary_iop(v, w, NB_SLOT(iop), NB_SLOT(op), op_name);   \
    }

INPLACE_BINOP(PyNumber_InPlaceOr, nb_inplace_or, nb_or, "|=")
INPLACE_BINOP(PyNumber_InPlaceXor, nb_inplace_xor, nb_xor, "^=")
INPLACE_BINOP(PyNumber_InPlaceAnd, nb_inplace_and, nb_and, "&=")
INPLACE_BINOP(PyNumber_InPlaceLshift, nb_inplace_lshift, nb_lshift, "<<=")
INPLACE_BINOP(PyNumber_InPlaceRshift, nb_inplace_rshift, nb_rshift, ">>=")
INPLACE_BINOP(PyNumber_InPlaceSubtract, nb_inplace_subtract, nb_subtract, "-=")
INPLACE_BINOP(PyNumber_InPlaceMatrixMultiply, nb_inplace_matrix_multiply, nb_matrix_multiply, "@=")
INPLACE_BINOP(PyNumber_InPlaceFloorDivide, nb_inplace_floor_divide, nb_floor_divide, "//=")
INPLACE_BINOP(PyNumber_InPlaceTrueDivide, nb_inplace_true_divide, nb_true_divide, "/=")
INPLACE_BINOP(PyNumber_InPlaceRemainder, nb_inplace_remainder, nb_remainder, "%=")
#undef INPLACE_BINOP

PyObject *
PyNumber_InPlaceAdd(PyObject *v, PyObject *w)
{
    PyObject *result = binary_iop1(v, w, NB_SLOT(nb_inplace_add), NB_SLOT(nb_add));
    if (result != Py_NotImplemented) {
        return result;
    }
    Py_DECREF(result);
    PySequenceMethods *m = Py_TYPE(v)->tp_as_sequence;
    if (m != NULL) {
        binaryfunc func = m->sq_inplace_concat != NULL ? m->sq_inplace_concat : m->sq_concat;
        if (func != NULL) {
            return func(v, w);
        }
    }
    return binop_type_error(v, w, "+=");
}

PyObject *
PyNumber_InPlaceMultiply(PyObject *v, PyObject *w)
{
    PyObject *result = binary_iop1(v, w, NB_SLOT(nb_inplace_multiply), NB_SLOT(nb_multiply));
    if (result != Py_NotImplemented) {
        return result;
    }
    Py_DECREF(result);
    PySequenceMethods *mv = Py_TYPE(v)->tp_as_sequence;
    PySequenceMethods *mw = Py_TYPE(w)->tp_as_sequence;
    if (mv != NULL) {
        ssizeargfunc f = mv->sq_inplace_repeat != NULL ? mv->sq_inplace_repeat : mv->sq_repeat;
        if (f != NULL) {
            return sequence_repeat(f, v, w);
        }
    }
    if (mw != NULL && mw->sq_repeat != NULL) {
        /* The right operand is not modified in place. */
        return sequence_repeat(mw->sq_repeat, w, v);
    }
    return binop_type_error(v, w, "*=");
}

PyObject *
PyNumber_InPlacePower(PyObject *v, PyObject *w, PyObject *z)
{
    return ternary_iop(v, w, z, NB_SLOT(nb_inplace_power), NB_SLOT(nb_power), "**=");
}

PyObject *
_PyNumber_InPlacePowerNoMod(PyObject *lhs, PyObject *rhs)
{
    return PyNumber_InPlacePower(lhs, rhs, Py_None);
}

#define UNARY_FUNC(func, slot, message)                                \
    PyObject *func(PyObject *o)                                        \
    {                                                                  \
        if (o == NULL) {                                               \
            return null_error();                                       \
        }                                                              \
        PyNumberMethods *m = Py_TYPE(o)->tp_as_number;                 \
        if (m != NULL && m->slot != NULL) {                            \
            return m->slot(o);                                         \
        }                                                              \
        return type_error(message, o);                                 \
    }

UNARY_FUNC(PyNumber_Negative, nb_negative, "bad operand type for unary -: '%.200s'")
UNARY_FUNC(PyNumber_Positive, nb_positive, "bad operand type for unary +: '%.200s'")
UNARY_FUNC(PyNumber_Invert, nb_invert, "bad operand type for unary ~: '%.200s'")
UNARY_FUNC(PyNumber_Absolute, nb_absolute, "bad operand type for abs(): '%.200s'")
#undef UNARY_FUNC

int
PyIndex_Check(PyObject *obj)
{
    return _PyIndex_Check(obj);
}

/* An exact int with the value of an int subclass instance.  Relies on
   int's nb_int returning an exact int for subclasses. */
static PyObject *
exact_int_copy(PyObject *v)
{
    return PyLong_Type.tp_as_number->nb_int(v);
}

/* __index__, __int__ and __float__ must return an exact int (float).  A
   strict subclass instance is still accepted, with a DeprecationWarning;
   anything else is a TypeError.  Takes the reference to `result`; returns
   it, or NULL.  `owner` names the converted object's type in the float
   messages (NULL for the int ones, which only name the result's type). */
static PyObject *
vet_conversion_result(PyObject *result, PyTypeObject *expected, PyObject *owner,
                      const char *wrong_type_fmt, const char *deprecated_fmt)
{
    if (result == NULL || Py_IS_TYPE(result, expected)) {
        return result;
    }
    const char *first = owner ? Py_TYPE(owner)->tp_name : Py_TYPE(result)->tp_name;
    const char *second = Py_TYPE(result)->tp_name;
    if (!PyObject_TypeCheck(result, expected)) {
        PyErr_Format(PyExc_TypeError, wrong_type_fmt, first, second);
    }
    else if (PyErr_WarnFormat(PyExc_DeprecationWarning, 1, deprecated_fmt, first, second) == 0) {
        return result;
    }
    Py_DECREF(result);
    return NULL;
}

#define STRICT_SUBCLASS_DEPRECATED(what)                                                   \
    ".  The ability to return an instance of a strict subclass of " what " is deprecated, " \
    "and may be removed in a future version of Python."

PyObject *
_PyNumber_Index(PyObject *item)
{
    if (item == NULL) {
        return null_error();
    }
    if (PyLong_Check(item)) {
        return Py_NewRef(item); /* subclasses included: callers that need exact ints convert */
    }
    if (!_PyIndex_Check(item)) {
        return type_error("'%.200s' object cannot be interpreted as an integer", item);
    }
    return vet_conversion_result(Py_TYPE(item)->tp_as_number->nb_index(item), &PyLong_Type, NULL,
                                 "__index__ returned non-int (type %.200s)",
                                 "__index__ returned non-int (type %.200s)"
                                 STRICT_SUBCLASS_DEPRECATED("int"));
}

PyObject *
PyNumber_Index(PyObject *item)
{
    PyObject *result = _PyNumber_Index(item);
    if (result != NULL && !PyLong_CheckExact(result)) {
        Py_SETREF(result, exact_int_copy(result));
    }
    return result;
}

Py_ssize_t
PyNumber_AsSsize_t(PyObject *item, PyObject *err)
{
    PyObject *value = _PyNumber_Index(item);
    if (value == NULL) {
        return -1;
    }
    Py_ssize_t result = PyLong_AsSsize_t(value);
    if (result != -1 || !PyErr_Occurred()) {
        Py_DECREF(value);
        return result;
    }
    if (!PyErr_ExceptionMatches(PyExc_OverflowError)) {
        Py_DECREF(value);
        return -1;
    }
    PyErr_Clear();
    if (err == NULL) {
        /* No exception type given: clip to the nearest bound. */
        result = _PyLong_Sign(value) < 0 ? PY_SSIZE_T_MIN : PY_SSIZE_T_MAX;
    }
    else {
        PyErr_Format(err, "cannot fit '%.200s' into an index-sized integer",
                     Py_TYPE(item)->tp_name);
        result = -1;
    }
    Py_DECREF(value);
    return result;
}

/* int(b"12"): the text of a bytes-like object, whole or not at all. */
static PyObject *
long_from_bytes(PyObject *orig, const char *s, Py_ssize_t len, int base)
{
    char *end = NULL;
    PyObject *result = NULL;
    if (strlen(s) == (size_t)len) {
        result = PyLong_FromString(s, &end, base);
        if (result == NULL && !PyErr_ExceptionMatches(PyExc_ValueError)) {
            return NULL;
        }
    }
    if (result == NULL || end != s + len) {
        Py_XDECREF(result);
        PyErr_Clear();
        PyErr_Format(PyExc_ValueError, "invalid literal for int() with base %d: %R", base, orig);
        return NULL;
    }
    return result;
}

PyObject *
PyNumber_Long(PyObject *o)
{
    if (o == NULL) {
        return null_error();
    }
    if (PyLong_CheckExact(o)) {
        return Py_NewRef(o);
    }
    PyNumberMethods *nb = Py_TYPE(o)->tp_as_number;
    if (nb != NULL && nb->nb_int != NULL) {
        PyObject *value = vet_conversion_result(nb->nb_int(o), &PyLong_Type, NULL,
                                                "__int__ returned non-int (type %.200s)",
                                                "__int__ returned non-int (type %.200s)"
                                                STRICT_SUBCLASS_DEPRECATED("int"));
        if (value != NULL && !PyLong_CheckExact(value)) {
            Py_SETREF(value, exact_int_copy(value));
        }
        return value;
    }
    if (nb != NULL && nb->nb_index != NULL) {
        return PyNumber_Index(o);
    }
    /* text: int("12"), int(b"12") */
    if (PyUnicode_Check(o)) {
        return PyLong_FromUnicodeObject(o, 10);
    }
    if (PyBytes_Check(o) || PyByteArray_Check(o)) {
        int is_bytes = PyBytes_Check(o);
        return long_from_bytes(o, is_bytes ? PyBytes_AS_STRING(o) : PyByteArray_AS_STRING(o),
                               is_bytes ? PyBytes_GET_SIZE(o) : PyByteArray_GET_SIZE(o), 10);
    }
    return type_error("int() argument must be a string, a bytes-like object or a real number, "
                      "not '%.200s'",
                      o);
}

PyObject *
PyNumber_Float(PyObject *o)
{
    if (o == NULL) {
        return null_error();
    }
    if (PyFloat_CheckExact(o)) {
        return Py_NewRef(o);
    }
    PyNumberMethods *nb = Py_TYPE(o)->tp_as_number;
    double value;
    if (nb != NULL && nb->nb_float != NULL) {
        PyObject *converted = vet_conversion_result(
            nb->nb_float(o), &PyFloat_Type, o, "%.50s.__float__ returned non-float (type %.50s)",
            "%.50s.__float__ returned non-float (type %.50s)" STRICT_SUBCLASS_DEPRECATED("float"));
        if (converted == NULL || PyFloat_CheckExact(converted)) {
            return converted;
        }
        value = PyFloat_AS_DOUBLE(converted); /* rebuilt below as an exact float */
        Py_DECREF(converted);
    }
    else if (nb != NULL && nb->nb_index != NULL) {
        PyObject *integer = PyNumber_Index(o);
        if (integer == NULL) {
            return NULL;
        }
        value = PyLong_AsDouble(integer);
        Py_DECREF(integer);
        if (value == -1.0 && PyErr_Occurred()) {
            return NULL;
        }
    }
    else if (PyFloat_Check(o)) {
        value = PyFloat_AS_DOUBLE(o); /* a float subclass without __float__ */
    }
    else {
        return PyFloat_FromString(o);
    }
    return PyFloat_FromDouble(value);
}

PyObject *
PyNumber_ToBase(PyObject *n, int base)
{
    switch (base) {
    case 2:
    case 8:
    case 10:
    case 16:
        break;
    default:
        PyErr_SetString(PyExc_SystemError, "PyNumber_ToBase: base must be 2, 8, 10 or 16");
        return NULL;
    }
    PyObject *integer = _PyNumber_Index(n);
    if (integer == NULL) {
        return NULL;
    }
    PyObject *text = _PyLong_Format(integer, base);
    Py_DECREF(integer);
    return text;
}

/* ---- Sequences ------------------------------------------------------------------------ */

int
PySequence_Check(PyObject *s)
{
    if (PyDict_Check(s)) {
        return 0;
    }
    return Py_TYPE(s)->tp_as_sequence != NULL && Py_TYPE(s)->tp_as_sequence->sq_item != NULL;
}

Py_ssize_t
PySequence_Size(PyObject *s)
{
    return length_through_slots(s, 1, "%.200s is not a sequence");
}

/* For PySequence_Concat/Repeat on classes that implement + and * only
   through nb_add / nb_multiply (classes written in Python): the number
   protocol's answer when s (and o, if o_too) look like sequences, else
   NULL with the TypeError built from `complaint`. */
static PyObject *
sequence_op_via_numbers(PyObject *s, PyObject *o, size_t op_slot, int o_too,
                        const char *complaint)
{
    if (PySequence_Check(s) && (!o_too || PySequence_Check(o))) {
        PyObject *outcome = binary_op1(s, o, op_slot);
        if (outcome != Py_NotImplemented) {
            return outcome;
        }
        Py_DECREF(outcome);
    }
    return type_error(complaint, s);
}

PyObject *
PySequence_Concat(PyObject *s, PyObject *o)
{
    if (s == NULL || o == NULL) {
        return null_error();
    }
    PySequenceMethods *sq = Py_TYPE(s)->tp_as_sequence;
    binaryfunc concat = sq != NULL ? sq->sq_concat : NULL;
    if (concat != NULL) {
        return concat(s, o);
    }
    return sequence_op_via_numbers(s, o, NB_SLOT(nb_add), 1,
                                   "'%.200s' object can't be concatenated");
}

PyObject *
PySequence_Repeat(PyObject *o, Py_ssize_t count)
{
    if (o == NULL) {
        return null_error();
    }
    PySequenceMethods *sq = Py_TYPE(o)->tp_as_sequence;
    ssizeargfunc repeat = sq != NULL ? sq->sq_repeat : NULL;
    if (repeat != NULL) {
        return repeat(o, count);
    }
    PyObject *times = PyLong_FromSsize_t(count);
    if (times == NULL) {
        return NULL;
    }
    /* only o need be a sequence: the count is an int */
    PyObject *outcome = sequence_op_via_numbers(o, times, NB_SLOT(nb_multiply), 0,
                                                "'%.200s' object can't be repeated");
    Py_DECREF(times);
    return outcome;
}

PyObject *
PySequence_InPlaceConcat(PyObject *s, PyObject *o)
{
    if (s == NULL || o == NULL) {
        return null_error();
    }
    PySequenceMethods *m = Py_TYPE(s)->tp_as_sequence;
    if (m != NULL && m->sq_inplace_concat != NULL) {
        return m->sq_inplace_concat(s, o);
    }
    if (m != NULL && m->sq_concat != NULL) {
        return m->sq_concat(s, o);
    }
    if (PySequence_Check(s) && PySequence_Check(o)) {
        PyObject *result = binary_iop1(s, o, NB_SLOT(nb_inplace_add), NB_SLOT(nb_add));
        if (result != Py_NotImplemented) {
            return result;
        }
        Py_DECREF(result);
    }
    return type_error("'%.200s' object can't be concatenated", s);
}

/* Negative indexes count from the end, for sequences that know their
   length. */
static int
adjust_index(PyObject *s, PySequenceMethods *m, Py_ssize_t *i)
{
    if (*i < 0 && m->sq_length != NULL) {
        Py_ssize_t l = m->sq_length(s);
        if (l < 0) {
            return -1;
        }
        *i += l;
    }
    return 0;
}

PyObject *
PySequence_GetItem(PyObject *s, Py_ssize_t i)
{
    if (s == NULL) {
        return null_error();
    }
    PySequenceMethods *m = Py_TYPE(s)->tp_as_sequence;
    if (m != NULL && m->sq_item != NULL) {
        if (adjust_index(s, m, &i) < 0) {
            return NULL;
        }
        return m->sq_item(s, i);
    }
    if (Py_TYPE(s)->tp_as_mapping != NULL && Py_TYPE(s)->tp_as_mapping->mp_subscript != NULL) {
        return type_error("%.200s is not a sequence", s);
    }
    return type_error("'%.200s' object does not support indexing", s);
}

/* s[i1:i2] through the mapping slot with a slice object (sequences have
   no slicing slot of their own). */
PyObject *
PySequence_GetSlice(PyObject *s, Py_ssize_t i1, Py_ssize_t i2)
{
    if (s == NULL) {
        return null_error();
    }
    PyMappingMethods *mp = Py_TYPE(s)->tp_as_mapping;
    if (mp == NULL || mp->mp_subscript == NULL) {
        return type_error("'%.200s' object is unsliceable", s);
    }
    PyObject *bounds = _PySlice_FromIndices(i1, i2);
    PyObject *part = bounds != NULL ? mp->mp_subscript(s, bounds) : NULL;
    Py_XDECREF(bounds);
    return part;
}

int
PySequence_SetItem(PyObject *s, Py_ssize_t i, PyObject *o)
{
    if (s == NULL) {
        null_error();
        return -1;
    }
    PySequenceMethods *m = Py_TYPE(s)->tp_as_sequence;
    if (m != NULL && m->sq_ass_item != NULL) {
        if (adjust_index(s, m, &i) < 0) {
            return -1;
        }
        return m->sq_ass_item(s, i, o);
    }
    if (Py_TYPE(s)->tp_as_mapping != NULL && Py_TYPE(s)->tp_as_mapping->mp_ass_subscript != NULL) {
        type_error("%.200s is not a sequence", s);
        return -1;
    }
    type_error("'%.200s' object does not support item assignment", s);
    return -1;
}

int
PySequence_DelItem(PyObject *s, Py_ssize_t i)
{
    if (s == NULL) {
        null_error();
        return -1;
    }
    PySequenceMethods *m = Py_TYPE(s)->tp_as_sequence;
    if (m != NULL && m->sq_ass_item != NULL) {
        if (adjust_index(s, m, &i) < 0) {
            return -1;
        }
        return m->sq_ass_item(s, i, NULL);
    }
    if (Py_TYPE(s)->tp_as_mapping != NULL && Py_TYPE(s)->tp_as_mapping->mp_ass_subscript != NULL) {
        type_error("%.200s is not a sequence", s);
        return -1;
    }
    type_error("'%.200s' object doesn't support item deletion", s);
    return -1;
}

PyObject *
PySequence_List(PyObject *v)
{
    if (v == NULL) {
        return null_error();
    }
    PyObject *fresh = PyList_New(0);
    if (fresh != NULL && PyList_Extend(fresh, v) < 0) {
        Py_CLEAR(fresh);
    }
    return fresh;
}

PyObject *
PySequence_Tuple(PyObject *v)
{
    if (v == NULL) {
        return null_error();
    }
    if (PyTuple_CheckExact(v)) {
        return Py_NewRef(v); /* immutable: share it */
    }
    /* Anything else is first collected into a list, whose items are then
       copied; a list is taken as it is. */
    PyObject *items = PyList_CheckExact(v) ? Py_NewRef(v) : PySequence_List(v);
    if (items == NULL) {
        return NULL;
    }
    PyObject *tuple = PyList_AsTuple(items);
    Py_DECREF(items);
    return tuple;
}

/* v itself when it is an exact list or tuple, else a list of its items.
   When v is not iterable at all, the TypeError says `m`. */
PyObject *
PySequence_Fast(PyObject *v, const char *m)
{
    if (v == NULL) {
        return null_error();
    }
    if (PyTuple_CheckExact(v) || PyList_CheckExact(v)) {
        return Py_NewRef(v);
    }
    PyObject *iterator = PyObject_GetIter(v);
    if (iterator != NULL) {
        PyObject *items = PySequence_List(iterator);
        Py_DECREF(iterator);
        return items;
    }
    if (PyErr_ExceptionMatches(PyExc_TypeError)) {
        PyErr_SetString(PyExc_TypeError, m);
    }
    return NULL;
}

Py_ssize_t
_PySequence_IterSearch(PyObject *seq, PyObject *obj, int operation)
{
    if (seq == NULL || obj == NULL) {
        null_error();
        return -1;
    }
    PyObject *it = PyObject_GetIter(seq);
    if (it == NULL) {
        if (PyErr_ExceptionMatches(PyExc_TypeError)) {
            PyErr_Clear();
            type_error("argument of type '%.200s' is not a container or iterable", seq);
        }
        return -1;
    }
    Py_ssize_t n = 0;
    int wrapped = 0;
    for (;;) {
        PyObject *item = PyIter_Next(it);
        if (item == NULL) {
            if (PyErr_Occurred()) {
                goto fail;
            }
            break;
        }
        int cmp = PyObject_RichCompareBool(item, obj, Py_EQ);
        Py_DECREF(item);
        if (cmp < 0) {
            goto fail;
        }
        if (cmp > 0) {
            switch (operation) {
            case PY_ITERSEARCH_COUNT:
                if (n == PY_SSIZE_T_MAX) {
                    PyErr_SetString(PyExc_OverflowError, "count exceeds C integer size");
                    goto fail;
                }
                ++n;
                break;
            case PY_ITERSEARCH_INDEX:
                if (wrapped) {
                    PyErr_SetString(PyExc_OverflowError, "index exceeds C integer size");
                    goto fail;
                }
                goto done;
            default:
                n = 1;
                goto done;
            }
        }
        if (operation == PY_ITERSEARCH_INDEX) {
            if (n == PY_SSIZE_T_MAX) {
                wrapped = 1;
            }
            ++n;
        }
    }
    if (operation == PY_ITERSEARCH_INDEX) {
        PyErr_SetString(PyExc_ValueError, "sequence.index(x): x not in sequence");
        goto fail;
    }
done:
    Py_DECREF(it);
    return n;
fail:
    Py_DECREF(it);
    return -1;
}

Py_ssize_t
PySequence_Count(PyObject *s, PyObject *o)
{
    return _PySequence_IterSearch(s, o, PY_ITERSEARCH_COUNT);
}

int
PySequence_Contains(PyObject *seq, PyObject *ob)
{
    PySequenceMethods *sqm = Py_TYPE(seq)->tp_as_sequence;
    if (sqm != NULL && sqm->sq_contains != NULL) {
        int res = sqm->sq_contains(seq, ob);
        return res;
    }
    Py_ssize_t result = _PySequence_IterSearch(seq, ob, PY_ITERSEARCH_CONTAINS);
    return (int)result;
}

Py_ssize_t
PySequence_Index(PyObject *s, PyObject *o)
{
    return _PySequence_IterSearch(s, o, PY_ITERSEARCH_INDEX);
}

/* ---- Mappings ---------------------------------------------------------------------------- */

int
PyMapping_Check(PyObject *o)
{
    return o != NULL && Py_TYPE(o)->tp_as_mapping != NULL &&
           Py_TYPE(o)->tp_as_mapping->mp_subscript != NULL;
}

Py_ssize_t
PyMapping_Size(PyObject *o)
{
    return length_through_slots(o, 0, "%.200s is not a mapping");
}

/* The *String variants take a C string key, made into a str here. */
static PyObject *
key_from_cstring(const char *key)
{
    return key == NULL ? null_error() : PyUnicode_FromString(key);
}

PyObject *
PyMapping_GetItemString(PyObject *o, const char *key)
{
    PyObject *str_key = key_from_cstring(key);
    if (str_key == NULL) {
        return NULL;
    }
    PyObject *value = PyObject_GetItem(o, str_key);
    Py_DECREF(str_key);
    return value;
}

int
PyMapping_SetItemString(PyObject *o, const char *key, PyObject *value)
{
    PyObject *str_key = key_from_cstring(key);
    if (str_key == NULL) {
        return -1;
    }
    int status = PyObject_SetItem(o, str_key, value);
    Py_DECREF(str_key);
    return status;
}

/* o.keys() (or values/items) as a list, for mappings that are not dicts:
   the method may return any iterable. */
static PyObject *
method_output_as_list(PyObject *o, PyObject *meth)
{
    PyObject *returned = PyObject_CallMethodNoArgs(o, meth);
    if (returned == NULL || PyList_CheckExact(returned)) {
        return returned;
    }
    PyObject *iterator = PyObject_GetIter(returned);
    PyObject *items = NULL;
    if (iterator != NULL) {
        items = PySequence_List(iterator);
        Py_DECREF(iterator);
    }
    else if (PyErr_ExceptionMatches(PyExc_TypeError)) {
        /* name the method in the message, not just the returned type */
        PyErr_Format(PyExc_TypeError, "%.200s.%U() returned a non-iterable (type %.200s)",
                     Py_TYPE(o)->tp_name, meth, Py_TYPE(returned)->tp_name);
    }
    Py_DECREF(returned);
    return items;
}

PyObject *
PyMapping_Keys(PyObject *o)
{
    if (o == NULL) {
        return null_error();
    }
    if (PyDict_CheckExact(o)) {
        return PyDict_Keys(o);
    }
    return method_output_as_list(o, _Py_ID(keys));
}

PyObject *
PyMapping_Items(PyObject *o)
{
    if (o == NULL) {
        return null_error();
    }
    if (PyDict_CheckExact(o)) {
        return PyDict_Items(o);
    }
    return method_output_as_list(o, _Py_ID(items));
}

PyObject *
PyMapping_Values(PyObject *o)
{
    if (o == NULL) {
        return null_error();
    }
    if (PyDict_CheckExact(o)) {
        return PyDict_Values(o);
    }
    return method_output_as_list(o, _Py_ID(values));
}

/* ---- isinstance / issubclass --------------------------------------------------------------

   Classes need not be types: anything with a __bases__ tuple takes part
   (the "abstract" protocol), and metaclasses may override the checks
   with __instancecheck__ / __subclasscheck__. */

/* cls.__bases__ when it is a tuple (new reference); NULL otherwise, with
   an exception only when the lookup itself failed other than by
   AttributeError.  Having such a tuple is what makes an object a class
   for the abstract protocol. */
static PyObject *
abstract_get_bases(PyObject *cls)
{
    PyObject *bases = NULL;
    if (PyObject_GetOptionalAttr(cls, _Py_ID(__bases__), &bases) > 0 && !PyTuple_Check(bases)) {
        Py_CLEAR(bases);
    }
    return bases;
}

/* Is `derived` cls or does one of its __bases__ chains reach cls?  Walks
   single-base chains iteratively; only multiple bases recurse (under
   the recursion guard: a crafted __bases__ may nest deeply). */
static int
abstract_issubclass(PyObject *derived, PyObject *cls)
{
    PyObject *bases = NULL; /* of the current `derived` */
    while (derived != cls) {
        Py_XSETREF(bases, abstract_get_bases(derived));
        if (bases == NULL) {
            return PyErr_Occurred() ? -1 : 0;
        }
        if (PyTuple_GET_SIZE(bases) != 1) {
            break;
        }
        derived = PyTuple_GET_ITEM(bases, 0); /* kept alive by `bases` */
    }
    if (derived == cls) {
        Py_XDECREF(bases);
        return 1;
    }
    int found = 0;
    for (Py_ssize_t k = 0; found == 0 && k < PyTuple_GET_SIZE(bases); k++) {
        if (Py_EnterRecursiveCall(" in __issubclass__")) {
            found = -1;
            break;
        }
        found = abstract_issubclass(PyTuple_GET_ITEM(bases, k), cls);
        Py_LeaveRecursiveCall();
    }
    Py_DECREF(bases);
    return found;
}

static int
check_class(PyObject *cls, const char *error)
{
    PyObject *bases = abstract_get_bases(cls);
    if (bases == NULL) {
        if (!PyErr_Occurred()) {
            PyErr_SetString(PyExc_TypeError, error);
        }
        return 0;
    }
    Py_DECREF(bases);
    return 1;
}

/* inst.__class__ when it is worth consulting: 1 and a new reference in
   *claimed when the attribute exists, 0 (NULL) when it doesn't, -1 on
   error. */
static int
claimed_class(PyObject *inst, PyObject **claimed)
{
    return PyObject_GetOptionalAttr(inst, _Py_ID(__class__), claimed);
}

/* isinstance() without the __instancecheck__ hook.  For a type, the real
   type decides, and failing that a different type claimed by __class__
   (proxies do this).  For an abstract class (one with __bases__), the
   __class__ attribute's bases decide. */
int
_PyObject_RealIsInstance(PyObject *inst, PyObject *cls)
{
    PyObject *claimed;
    int verdict;
    if (!PyType_Check(cls)) {
        if (!check_class(cls, "isinstance() arg 2 must be a type, a tuple of types, or a union")) {
            return -1;
        }
        verdict = claimed_class(inst, &claimed);
        if (verdict > 0) {
            verdict = abstract_issubclass(claimed, cls);
            Py_DECREF(claimed);
        }
        return verdict;
    }
    if (PyObject_TypeCheck(inst, (PyTypeObject *)cls)) {
        return 1;
    }
    verdict = claimed_class(inst, &claimed);
    if (verdict <= 0) {
        return verdict;
    }
    int other_type = claimed != (PyObject *)Py_TYPE(inst) && PyType_Check(claimed);
    verdict = other_type && PyType_IsSubtype((PyTypeObject *)claimed, (PyTypeObject *)cls);
    Py_DECREF(claimed);
    return verdict;
}

/* isinstance() and issubclass() share their two ways of delegating:
   a tuple of classes means "any of them" (recursing through nested
   tuples under the recursion guard, since a tuple may nest deeply), and
   a metaclass hook (__instancecheck__ / __subclasscheck__) decides by
   the truth of its result. */
typedef int (*class_check_func)(PyThreadState *, PyObject *, PyObject *);

static int
check_any_in_tuple(PyThreadState *tstate, PyObject *obj, PyObject *classes,
                   class_check_func check, const char *where)
{
    if (_Py_EnterRecursiveCallTstate(tstate, where)) {
        return -1;
    }
    int r = 0;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(classes); i++) {
        r = check(tstate, obj, PyTuple_GET_ITEM(classes, i));
        if (r != 0) {
            break;
        }
    }
    _Py_LeaveRecursiveCallTstate(tstate);
    return r;
}

/* The truth of checker(obj), a metaclass's __instancecheck__ or
   __subclasscheck__ bound to the class; -1 on error.  Steals the
   reference to checker. */
static int
call_check_hook(PyThreadState *tstate, PyObject *checker, PyObject *obj, const char *where)
{
    PyObject *answer = NULL;
    if (!_Py_EnterRecursiveCallTstate(tstate, where)) {
        answer = PyObject_CallOneArg(checker, obj);
        _Py_LeaveRecursiveCallTstate(tstate);
    }
    Py_DECREF(checker);
    int truth = answer != NULL ? PyObject_IsTrue(answer) : -1;
    Py_XDECREF(answer);
    return truth;
}

static int
object_recursive_isinstance(PyThreadState *tstate, PyObject *inst, PyObject *cls)
{
    if (Py_IS_TYPE(inst, (PyTypeObject *)cls)) {
        return 1;
    }
    if (PyType_CheckExact(cls)) {
        return _PyObject_RealIsInstance(inst, cls);
    }
    if (PyTuple_Check(cls)) {
        return check_any_in_tuple(tstate, inst, cls, object_recursive_isinstance, " in __instancecheck__");
    }
    PyObject *checker = _PyObject_LookupSpecial(cls, _Py_ID(__instancecheck__));
    if (checker != NULL) {
        return call_check_hook(tstate, checker, inst, " in __instancecheck__");
    }
    if (PyErr_Occurred()) {
        return -1;
    }
    return _PyObject_RealIsInstance(inst, cls);
}

int
PyObject_IsInstance(PyObject *inst, PyObject *cls)
{
    return object_recursive_isinstance(_PyThreadState_GET(), inst, cls);
}

/* issubclass() without the __subclasscheck__ hook. */
int
_PyObject_RealIsSubclass(PyObject *derived, PyObject *cls)
{
    int both_types = PyType_Check(cls) && PyType_Check(derived);
    if (both_types) {
        return PyType_IsSubtype((PyTypeObject *)derived, (PyTypeObject *)cls);
    }
    /* abstract classes: both must at least have a __bases__ tuple */
    int classes = check_class(derived, "issubclass() arg 1 must be a class") &&
                  check_class(cls, "issubclass() arg 2 must be a class, a tuple of classes, or a union");
    return classes ? abstract_issubclass(derived, cls) : -1;
}

static int
object_issubclass(PyThreadState *tstate, PyObject *derived, PyObject *cls)
{
    if (PyType_CheckExact(cls)) {
        if (derived == cls) {
            return 1;
        }
        return _PyObject_RealIsSubclass(derived, cls);
    }
    if (PyTuple_Check(cls)) {
        return check_any_in_tuple(tstate, derived, cls, object_issubclass, " in __subclasscheck__");
    }
    PyObject *checker = _PyObject_LookupSpecial(cls, _Py_ID(__subclasscheck__));
    if (checker != NULL) {
        return call_check_hook(tstate, checker, derived, " in __subclasscheck__");
    }
    if (PyErr_Occurred()) {
        return -1;
    }
    return _PyObject_RealIsSubclass(derived, cls);
}

int
PyObject_IsSubclass(PyObject *derived, PyObject *cls)
{
    return object_issubclass(_PyThreadState_GET(), derived, cls);
}

/* ---- Iteration ----------------------------------------------------------------------------- */

int
PyIter_Check(PyObject *obj)
{
    return Py_TYPE(obj)->tp_iternext != NULL;
}

int
PyAIter_Check(PyObject *obj)
{
    PyAsyncMethods *am = Py_TYPE(obj)->tp_as_async;
    return am != NULL && am->am_anext != NULL;
}

/* iter(o): tp_iter, or the old sequence protocol (__getitem__ from 0). */
PyObject *
PyObject_GetIter(PyObject *o)
{
    getiterfunc make_iterator = Py_TYPE(o)->tp_iter;
    if (make_iterator == NULL) {
        return PySequence_Check(o) ? PySeqIter_New(o)
                                   : type_error("'%.200s' object is not iterable", o);
    }
    PyObject *iterator = make_iterator(o);
    if (iterator == NULL || PyIter_Check(iterator)) {
        return iterator;
    }
    PyErr_Format(PyExc_TypeError, "iter() returned non-iterator of type '%.100s'",
                 Py_TYPE(iterator)->tp_name);
    Py_DECREF(iterator);
    return NULL;
}

PyObject *
PyObject_GetAIter(PyObject *o)
{
    PyAsyncMethods *am = Py_TYPE(o)->tp_as_async;
    if (am == NULL || am->am_aiter == NULL) {
        return type_error("'%.200s' object is not an async iterable", o);
    }
    PyObject *it = am->am_aiter(o);
    if (it != NULL && !PyAIter_Check(it)) {
        PyErr_Format(PyExc_TypeError, "aiter() returned not an async iterator of type '%.100s'",
                     Py_TYPE(it)->tp_name);
        Py_SETREF(it, NULL);
    }
    return it;
}

PyObject *
_PyIter_NextGuarded(PyObject *it)
{
    PyThreadState *tstate = _PyThreadState_GET();
    if (_Py_EnterRecursiveCallTstate(tstate, " while getting the next item")) {
        return NULL;
    }
    PyObject *item = Py_TYPE(it)->tp_iternext(it);
    _Py_LeaveRecursiveCallTstate(tstate);
    return item;
}

PyObject *
PyIter_Next(PyObject *iter)
{
    PyObject *result = _PyIter_NextGuarded(iter);
    if (result == NULL && PyErr_Occurred() && PyErr_ExceptionMatches(PyExc_StopIteration)) {
        PyErr_Clear();
    }
    return result;
}

int
PyIter_NextItem(PyObject *iter, PyObject **item)
{
    iternextfunc tp_iternext = Py_TYPE(iter)->tp_iternext;
    if (tp_iternext == NULL) {
        *item = NULL;
        PyErr_Format(PyExc_TypeError, "expected an iterator, got '%.100s'",
                     Py_TYPE(iter)->tp_name);
        return -1;
    }
    *item = _PyIter_NextGuarded(iter);
    if (*item != NULL) {
        return 1;
    }
    if (!PyErr_Occurred()) {
        return 0;
    }
    if (PyErr_ExceptionMatches(PyExc_StopIteration)) {
        PyErr_Clear();
        return 0;
    }
    return -1;
}

/* send() for any iterator: am_send when the type has it, else next() or
   .send(arg), with StopIteration turned into PYGEN_RETURN. */
PySendResult
PyIter_Send(PyObject *iter, PyObject *arg, PyObject **result)
{
    PyAsyncMethods *am = Py_TYPE(iter)->tp_as_async;
    if (am != NULL && am->am_send != NULL) {
        return am->am_send(iter, arg, result);
    }
    if (arg == Py_None && PyIter_Check(iter)) {
        *result = _PyIter_NextGuarded(iter);
    }
    else {
        *result = PyObject_CallMethodOneArg(iter, _Py_ID(send), arg);
    }
    if (*result != NULL) {
        return PYGEN_NEXT;
    }
    if (!PyErr_Occurred()) {
        *result = Py_NewRef(Py_None);
        return PYGEN_RETURN;
    }
    if (!PyErr_ExceptionMatches(PyExc_StopIteration)) {
        return PYGEN_ERROR;
    }
    PyObject *exc = PyErr_GetRaisedException();
    PyObject *value = ((PyStopIterationObject *)exc)->value;
    *result = Py_NewRef(value == NULL ? Py_None : value);
    Py_DECREF(exc);
    return PYGEN_RETURN;
}

/* ---- The buffer protocol ------------------------------------------------- */

int
PyObject_CheckBuffer(PyObject *obj)
{
    PyBufferProcs *bp = Py_TYPE(obj)->tp_as_buffer;
    return bp != NULL && bp->bf_getbuffer != NULL;
}

int
PyObject_GetBuffer(PyObject *obj, Py_buffer *view, int flags)
{
    PyBufferProcs *bp = Py_TYPE(obj)->tp_as_buffer;
    if (bp == NULL || bp->bf_getbuffer == NULL) {
        PyErr_Format(PyExc_TypeError, "a bytes-like object is required, not '%.100s'",
                     Py_TYPE(obj)->tp_name);
        return -1;
    }
    return bp->bf_getbuffer(obj, view, flags);
}

void
PyBuffer_Release(Py_buffer *view)
{
    PyObject *obj = view->obj;
    if (obj == NULL) {
        return;
    }
    PyBufferProcs *bp = Py_TYPE(obj)->tp_as_buffer;
    if (bp != NULL && bp->bf_releasebuffer != NULL) {
        bp->bf_releasebuffer(obj, view);
    }
    view->obj = NULL;
    Py_DECREF(obj);
}

int
PyBuffer_FillInfo(Py_buffer *view, PyObject *obj, void *buf, Py_ssize_t len,
                  int readonly, int flags)
{
    if ((flags & PyBUF_WRITABLE) && readonly) {
        PyErr_SetString(PyExc_BufferError, "Object is not writable.");
        return -1;
    }
    view->obj = Py_XNewRef(obj);
    view->buf = buf;
    view->len = len;
    view->readonly = readonly;
    view->itemsize = 1;
    view->format = (flags & PyBUF_FORMAT) ? "B" : NULL;
    view->ndim = 1;
    view->shape = (flags & PyBUF_ND) ? &view->len : NULL;
    view->strides = ((flags & PyBUF_STRIDES) == PyBUF_STRIDES) ? &view->itemsize : NULL;
    view->suboffsets = NULL;
    view->internal = NULL;
    return 0;
}

/* ---- Contiguity and copies between layouts --------------------------------

   A view without strides is C-contiguous by definition; one without shape
   is a flat run of len bytes.  The copies walk the elements of the source
   in C (row-major) or Fortran (column-major) order, one item at a time:
   simple, and fast enough for the strided views that need it. */

/* Strides of a contiguous array of this shape, in C or Fortran order. */
static void
contiguous_strides(int ndim, const Py_ssize_t *shape, Py_ssize_t itemsize, char order,
                   Py_ssize_t *out)
{
    Py_ssize_t step = itemsize;
    for (int k = 0; k < ndim; k++) {
        int dim = order == 'F' ? k : ndim - 1 - k;
        out[dim] = step;
        step *= shape[dim];
    }
}

static int
has_order(const Py_buffer *view, char order)
{
    if (view->suboffsets != NULL) {
        return 0;
    }
    if (view->strides == NULL) {
        return order != 'F' || view->ndim <= 1;
    }
    if (view->len == 0) {
        return 1;
    }
    Py_ssize_t step = view->itemsize;
    for (int k = 0; k < view->ndim; k++) {
        int dim = order == 'F' ? k : view->ndim - 1 - k;
        if (view->shape[dim] > 1 && view->strides[dim] != step) {
            return 0;
        }
        step *= view->shape[dim];
    }
    return 1;
}

int
PyBuffer_IsContiguous(const Py_buffer *view, char order)
{
    switch (order) {
    case 'C':
        return has_order(view, 'C');
    case 'F':
        return has_order(view, 'F');
    case 'A':
        return has_order(view, 'C') || has_order(view, 'F');
    default:
        return 0;
    }
}

void *
PyBuffer_GetPointer(const Py_buffer *view, const Py_ssize_t *indices)
{
    char *p = view->buf;
    Py_ssize_t cstrides[PyBUF_MAX_NDIM];
    const Py_ssize_t *strides = view->strides;
    if (strides == NULL) {
        contiguous_strides(view->ndim, view->shape, view->itemsize, 'C', cstrides);
        strides = cstrides;
    }
    for (int k = 0; k < view->ndim; k++) {
        p += strides[k] * indices[k];
        if (view->suboffsets != NULL && view->suboffsets[k] >= 0) {
            p = *(char **)p + view->suboffsets[k];
        }
    }
    return p;
}

/* Step a multi-index to the next element in the given order; 0 after
   the last one. */
static int
next_index(Py_ssize_t *index, const Py_buffer *view, char order)
{
    for (int k = 0; k < view->ndim; k++) {
        int dim = order == 'F' ? k : view->ndim - 1 - k;
        if (++index[dim] < view->shape[dim]) {
            return 1;
        }
        index[dim] = 0;
    }
    return 0;
}

/* Copy between the view's memory and a contiguous buffer of len bytes:
   `to_view` 0 reads the view, 1 writes it. */
static int
copy_contiguous(Py_buffer *view, char *flat, Py_ssize_t len, char order, int to_view)
{
    if (len != view->len) {
        PyErr_SetString(PyExc_ValueError, "buffer sizes do not match");
        return -1;
    }
    if (order != 'F' && order != 'C' && order != 'A') {
        PyErr_SetString(PyExc_ValueError, "order must be 'C', 'F' or 'A'");
        return -1;
    }
    char walk = order == 'A' ? (has_order(view, 'F') && !has_order(view, 'C') ? 'F' : 'C')
                             : order;
    if (view->shape == NULL || has_order(view, walk)) {
        memmove(to_view ? view->buf : flat, to_view ? flat : view->buf, len);
        return 0;
    }
    if (view->len == 0) {
        return 0;
    }
    Py_ssize_t index[PyBUF_MAX_NDIM] = {0};
    Py_ssize_t item = view->itemsize;
    do {
        char *p = PyBuffer_GetPointer(view, index);
        memcpy(to_view ? p : flat, to_view ? flat : p, item);
        flat += item;
    } while (next_index(index, view, walk));
    return 0;
}

int
PyBuffer_ToContiguous(void *buf, const Py_buffer *view, Py_ssize_t len, char order)
{
    return copy_contiguous((Py_buffer *)view, buf, len, order, 0);
}

int
PyBuffer_FromContiguous(const Py_buffer *view, const void *buf, Py_ssize_t len, char order)
{
    return copy_contiguous((Py_buffer *)view, (char *)buf, len, order, 1);
}

void
PyBuffer_FillContiguousStrides(int ndim, Py_ssize_t *shape, Py_ssize_t *strides, int itemsize,
                               char order)
{
    contiguous_strides(ndim, shape, itemsize, order == 'F' ? 'F' : 'C', strides);
}

/* Copy src's bytes into dest, through a C-ordered temporary when the two
   layouts differ. */
int
PyObject_CopyData(PyObject *dest, PyObject *src)
{
    Py_buffer to, from;
    if (PyObject_GetBuffer(dest, &to, PyBUF_FULL) < 0) {
        return -1;
    }
    if (PyObject_GetBuffer(src, &from, PyBUF_FULL_RO) < 0) {
        PyBuffer_Release(&to);
        return -1;
    }
    int r = -1;
    if (to.len < from.len) {
        PyErr_SetString(PyExc_BufferError, "destination is too small to receive data from source");
    }
    else {
        char *tmp = PyMem_Malloc(from.len ? from.len : 1);
        if (tmp == NULL) {
            PyErr_NoMemory();
        }
        else {
            r = PyBuffer_ToContiguous(tmp, &from, from.len, 'C');
            if (r == 0 && to.len == from.len) {
                r = PyBuffer_FromContiguous(&to, tmp, from.len, 'C');
            }
            else if (r == 0) {
                memcpy(to.buf, tmp, from.len); /* a flat prefix of a bigger target */
            }
            PyMem_Free(tmp);
        }
    }
    PyBuffer_Release(&from);
    PyBuffer_Release(&to);
    return r;
}
