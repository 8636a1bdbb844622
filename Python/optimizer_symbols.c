/* The optimizer's abstract values: what is known of the object a slot will
   hold when the trace runs.  See Include/internal/pycore_optimizer.h. */

#include "Python.h"

#ifdef _Py_TIER2

#include "pycore_optimizer.h"

static _PyAbstractValue *
fresh(_PyAbstractContext *ctx, uint8_t kind)
{
    if (ctx->value_count == AV_MAX_VALUES) {
        /* Out of room: one shared value that stays unknown. */
        ctx->overflow.kind = AV_UNKNOWN;
        ctx->overflow.type = NULL;
        ctx->overflow.constant = NULL;
        ctx->overflow.type_version = 0;
        return &ctx->overflow;
    }
    _PyAbstractValue *value = &ctx->values[ctx->value_count++];
    value->kind = kind;
    value->type = NULL;
    value->constant = NULL;
    value->type_version = 0;
    value->version_epoch = 0;
    return value;
}

static int
refinable(_PyAbstractContext *ctx, const _PyAbstractValue *value)
{
    return value != &ctx->overflow;
}

_PyAbstractValue *
av_unknown(_PyAbstractContext *ctx)
{
    return fresh(ctx, AV_UNKNOWN);
}

_PyAbstractValue *
av_null(_PyAbstractContext *ctx)
{
    return fresh(ctx, AV_NULL);
}

_PyAbstractValue *
av_object(_PyAbstractContext *ctx)
{
    return fresh(ctx, AV_OBJECT);
}

_PyAbstractValue *
av_of_type(_PyAbstractContext *ctx, PyTypeObject *type)
{
    _PyAbstractValue *value = fresh(ctx, AV_OBJECT);
    if (refinable(ctx, value)) {
        value->type = type;
    }
    return value;
}

_PyAbstractValue *
av_constant(_PyAbstractContext *ctx, PyObject *object)
{
    _PyAbstractValue *value = fresh(ctx, AV_CONSTANT);
    if (refinable(ctx, value)) {
        value->constant = object;
        value->type = Py_TYPE(object);
    }
    return value;
}

PyTypeObject *
av_type(const _PyAbstractValue *value)
{
    return value->type;
}

int
av_is_null(const _PyAbstractValue *value)
{
    return value->kind == AV_NULL;
}

int
av_is_not_null(const _PyAbstractValue *value)
{
    return value->kind == AV_OBJECT || value->kind == AV_CONSTANT;
}

PyObject *
av_constant_of(const _PyAbstractValue *value)
{
    return value->kind == AV_CONSTANT ? value->constant : NULL;
}

int
av_is_inert(const _PyAbstractValue *value)
{
    if (value->kind == AV_NULL) {
        return 1;
    }
    PyTypeObject *type = value->type;
    return type == &PyLong_Type || type == &PyFloat_Type || type == &PyUnicode_Type ||
           type == &PyBool_Type || type == Py_TYPE(Py_None);
}

int
av_drop_is_quiet(const _PyAbstractContext *ctx, const _PyAbstractValue *value)
{
    if (av_is_inert(value)) {
        return 1;
    }
    if (value == &ctx->overflow) {
        return 0;
    }
    for (int depth = 0; depth <= ctx->depth; depth++) {
        const _PyAbstractFrame *frame = &ctx->frames[depth];
        for (_PyAbstractValue **p = frame->locals; p < frame->stack_base; p++) {
            if (*p == value) {
                return 1;
            }
        }
    }
    return 0;
}

void
av_learn_not_null(_PyAbstractContext *ctx, _PyAbstractValue *value)
{
    if (refinable(ctx, value) && value->kind == AV_UNKNOWN) {
        value->kind = AV_OBJECT;
    }
}

/* Only the exact types of static types are learnt: an instance of a heap
   type can change class (`obj.__class__ = Other`) whenever code runs. */
void
av_learn_type(_PyAbstractContext *ctx, _PyAbstractValue *value, PyTypeObject *type)
{
    if (!refinable(ctx, value) || value->kind == AV_NULL || value->kind == AV_CONSTANT) {
        return;
    }
    value->kind = AV_OBJECT;
    if ((type->tp_flags & Py_TPFLAGS_HEAPTYPE) == 0) {
        value->type = type;
    }
}

int
av_has_type_version(_PyAbstractContext *ctx, const _PyAbstractValue *value, uint32_t version)
{
    return version != 0 && value->type_version == version &&
           value->version_epoch == ctx->epoch;
}

void
av_learn_type_version(_PyAbstractContext *ctx, _PyAbstractValue *value, uint32_t version)
{
    if (!refinable(ctx, value) || value->kind == AV_NULL) {
        return;
    }
    av_learn_not_null(ctx, value);
    value->type_version = version;
    value->version_epoch = ctx->epoch;
}

#endif /* _Py_TIER2 */
