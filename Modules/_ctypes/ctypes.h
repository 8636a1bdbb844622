/* _ctypes: what the files of Modules/_ctypes/ share.

   The module gives Python objects that are views on C memory, typed by
   their classes.  Every ctypes class (c_int, a Structure subclass, an
   array type, a pointer type, a function pointer type) is an instance of
   one of six metatypes; the metatype keeps a TypeInfo record beside the
   type object (see CTYPE_INFO) that says how big an instance is, how it is
   aligned, how libffi passes it and how to read and write one.  Instances
   share one layout, CDataObject: a pointer to their memory, which is either
   an inline buffer, a malloc'ed block, or a slice of another object's
   memory (then `base` keeps that owner alive).

   Files: simple.c (format codes, c_int & co), cfield.c (CField
   descriptors, bitfields), struct.c (Structure/Union and their layout via
   ctypes._layout), array.c, pointer.c, funcptr.c (CFuncPtr and the call
   path into libffi), callback.c (Python callables as C function
   pointers), module.c (CData basics, byref, sizeof and friends, dlopen). */

#ifndef LAZYPY_CTYPES_H
#define LAZYPY_CTYPES_H

#include "Python.h"
#include <ffi.h>
#include <stddef.h>

/* ---- Reading and writing one C value ---------------------------------------- */

/* Read a value of `size` bytes at `ptr` as a Python object. */
typedef PyObject *(*ct_getter)(void *ptr, Py_ssize_t size);
/* Store `value` at `ptr`: returns the object the memory now refers to
   and that must stay alive (often Py_None), new reference, or NULL with an
   exception. */
typedef PyObject *(*ct_setter)(void *ptr, PyObject *value, Py_ssize_t size);

/* One simple format code (simple.c). */
typedef struct {
    char code;
    Py_ssize_t size;
    Py_ssize_t align;
    ffi_type *ffi;
    ct_getter get;
    ct_setter set;
    int is_int;         /* integer code: bitfields allowed */
    int is_signed;
    int swapped;        /* stored in the other byte order */
} FormatCode;

const FormatCode *_PyCtypes_FindFormat(char code);
/* The entry of `code` in the non-native byte order, or NULL. */
const FormatCode *_PyCtypes_FindSwappedFormat(char code);

/* ---- Per-type information -------------------------------------------------- */

enum ct_kind {
    CT_SIMPLE = 1,
    CT_STRUCT,
    CT_UNION,
    CT_ARRAY,
    CT_POINTER,
    CT_FUNCPTR,
};

typedef struct TypeInfo {
    int kind;
    int final;                  /* _fields_ set or instances made: layout fixed */
    int abstract;               /* _abstract_ in the class body: no instances */
    Py_ssize_t size;
    Py_ssize_t align;
    Py_ssize_t length;          /* arrays: element count */
    ffi_type ffi;               /* by-value type for libffi */
    ffi_type **ffi_elements;    /* aggregate element list (owned) */
    const FormatCode *fmt;      /* simple types */
    PyObject *proto;            /* simple: format str; array/pointer: item type */
    PyObject *fields;           /* struct/union: tuple of CField */
    char *format;               /* PEP 3118 format (owned) */
    int ndim;
    Py_ssize_t *shape;          /* owned, ndim entries */
    Py_ssize_t *strides;        /* arrays: C-contiguous strides (owned, ndim) */
    Py_ssize_t base_itemsize;   /* arrays: size of the innermost non-array item */
    /* function pointer types */
    PyObject *argtypes;         /* tuple or NULL */
    PyObject *converters;       /* tuple of from_param callables or NULL */
    PyObject *restype;          /* NULL: c_int, Py_None: void */
    PyObject *errcheck;
    int flags;
    int has_pointer;            /* struct: contains pointers (for keepalive) */
    int has_bitfield;
    int has_union;
} TypeInfo;

/* The metatypes' instance layout: a heap type plus our record. */
typedef struct {
    PyHeapTypeObject ht;
    TypeInfo *info;
} CTypeObject;

extern PyTypeObject PyCSimpleType_Type;
extern PyTypeObject PyCStructType_Type;
extern PyTypeObject UnionType_Type;
extern PyTypeObject PyCArrayType_Type;
extern PyTypeObject PyCPointerType_Type;
extern PyTypeObject PyCFuncPtrType_Type;

extern PyTypeObject PyCData_Type;       /* _CData (abstract) */
extern PyTypeObject Simple_Type;
extern PyTypeObject Struct_Type;
extern PyTypeObject Union_Type;
extern PyTypeObject PyCArray_Type;
extern PyTypeObject PyCPointer_Type;
extern PyTypeObject PyCFuncPtr_Type;
extern PyTypeObject PyCField_Type;
extern PyTypeObject PyCArg_Type;

extern PyObject *_PyCtypes_ArgumentError;

int _PyCtypes_IsCType(PyObject *type);
/* The TypeInfo of a ctypes class (or the class of an instance), NULL
   without an exception when it has none (abstract bases, other objects). */
TypeInfo *_PyCtypes_Info(PyObject *type);
TypeInfo *_PyCtypes_InfoOfObject(PyObject *obj);
/* Same, with a TypeError naming the object when there is none. */
TypeInfo *_PyCtypes_RequireInfo(PyObject *type_or_obj);
TypeInfo *_PyCtypes_NewInfo(PyObject *type, int kind);
int _PyCtypes_MetaInit(PyTypeObject *meta);
void _PyCtypes_InfoFree(TypeInfo *info);
int _PyCtypes_SetFormat(TypeInfo *info, const char *fmt);

/* ---- Instances ------------------------------------------------------------- */

#define CT_INLINE_SIZE 16

typedef struct CDataObject {
    PyObject_HEAD
    char *ptr;                  /* the C memory */
    int owns;                   /* ptr was malloc'ed by us */
    struct CDataObject *base;   /* owner of ptr, or NULL */
    Py_ssize_t size;
    Py_ssize_t index;           /* slot in base's keep dict */
    PyObject *keep;             /* dict of objects kept alive, or NULL */
    PyObject *weakrefs;
    union {
        char b[CT_INLINE_SIZE];
        long double ld;
        void *p;
        long long q;
    } inline_buf;
} CDataObject;

#define CDATA(o) ((CDataObject *)(o))
int _PyCtypes_IsCData(PyObject *obj);
/* from_param's fallback for the metatypes: when value has an
   _as_parameter_, convert that instead with `convert` (under the recursion
   guard: it may have one in turn).  1 with *result set (a new reference,
   or NULL with an error) when it did; 0, nothing set, when value has no
   _as_parameter_; -1 when looking it up failed. */
int _PyCtypes_RetryAsParameter(PyObject *type, PyObject *value,
                               PyObject *(*convert)(PyObject *, PyObject *), PyObject **result);

/* A fresh instance of `type` with zeroed memory of its own. */
PyObject *_PyCtypes_NewOwned(PyTypeObject *type);
/* An instance of `type` viewing memory at `ptr`, owned by `base` (may be
   NULL: foreign memory, as from_address). */
PyObject *_PyCtypes_NewView(PyTypeObject *type, PyObject *base, Py_ssize_t index, char *ptr);
/* dlerror()'s message (or `fallback`) as an exception of `type`; returns NULL. */
PyObject *_PyCtypes_SetDlError(PyObject *type, const char *fallback);
/* Keep `obj` (stolen) alive as long as `self`'s memory: under key `index`
   of the root owner's keep dict. */
int _PyCtypes_KeepRef(CDataObject *self, Py_ssize_t index, PyObject *obj);
/* Read the object of `type` at ptr: a Python value for fundamental simple
   types, else a view instance. */
PyObject *_PyCtypes_GetValue(PyObject *type, PyObject *base, Py_ssize_t index, char *ptr,
                             Py_ssize_t size);
/* Store `value` as a `type` at ptr (struct fields, array items, ...). */
int _PyCtypes_SetValue(CDataObject *owner, PyObject *type, Py_ssize_t index, char *ptr,
                       Py_ssize_t size, PyObject *value);
int _PyCtypes_IsFundamental(PyObject *type);
int _PyCtypes_ResizeBuffer(CDataObject *self, Py_ssize_t size);

/* ---- byref() results and call arguments ------------------------------------------ */

typedef union {
    char c;
    signed char b;
    short h;
    int i;
    long l;
    long long q;
    float f;
    double d;
    long double g;
    void *p;
    char raw[sizeof(long double) > 16 ? sizeof(long double) : 16];
} ArgValue;

typedef struct {
    PyObject_HEAD
    char tag;                   /* format code shown by repr */
    ffi_type *ffi;
    ArgValue value;
    PyObject *obj;              /* kept alive */
    Py_ssize_t offset;
} PyCArgObject;

PyCArgObject *_PyCtypes_NewArg(char tag, ffi_type *ffi, PyObject *obj);

/* ---- Fields (cfield.c) ----------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    PyObject *name;
    PyObject *type;
    Py_ssize_t byte_size;
    Py_ssize_t byte_offset;
    Py_ssize_t index;
    Py_ssize_t bit_size;        /* 0: not a bitfield */
    Py_ssize_t bit_offset;
    int anonymous;
} CFieldObject;

/* ---- Function pointers and calls ------------------------------------------- */

#define CT_MAX_ARGS 1024         /* CTYPES_MAX_ARGCOUNT */
#define CT_FLAG_CDECL 0x1
#define CT_FLAG_USE_ERRNO 0x8
#define CT_FLAG_USE_LASTERROR 0x10
#define CT_FLAG_PYTHONAPI 0x4

typedef struct {
    CDataObject cdata;          /* its memory holds the code address */
    PyObject *callable;         /* callbacks: the Python function */
    void *closure;              /* callbacks: ffi_closure */
    void *code;                 /* callbacks: executable address */
    ffi_cif *cif;               /* callbacks: owned cif */
    ffi_type **cif_types;
    PyObject *argtypes;         /* per-instance overrides, or NULL */
    PyObject *converters;
    PyObject *restype;
    PyObject *errcheck;
    PyObject *name;
    PyObject *paramflags;       /* tuple of (flag, name[, default]) or NULL */
    int has_restype;
} CFuncPtrObject;

PyObject *_PyCtypes_CallFunction(void *addr, PyObject *args, PyObject *argtypes,
                                 PyObject *converters, PyObject *restype, int flags,
                                 int has_restype);
int _PyCtypes_MakeCallback(CFuncPtrObject *self, PyObject *callable, PyObject *argtypes,
                           PyObject *restype, int flags);
void _PyCtypes_FreeCallback(CFuncPtrObject *self);
ffi_type *_PyCtypes_FFIType(PyObject *type);
PyObject *_PyCtypes_Converters(PyObject *argtypes);
int *_PyCtypes_ErrnoSlot(void);

/* ---- Helpers ------------------------------------------------------------- */

PyObject *_PyCtypes_ArrayType(PyObject *itemtype, Py_ssize_t length);
int _PyCtypes_StructUpdateFields(PyObject *type, PyObject *fields, int is_struct);
int _PyCtypes_StructInit(PyObject *self, PyObject *args, PyObject *kwds);
PyObject *_PyCtypes_SimpleFromParam(PyObject *type, PyObject *value);
PyObject *_PyCtypes_VoidPFromParam(PyObject *type, PyObject *value);
int _PyCtypes_ExportBuffer(PyObject *self, Py_buffer *view, int flags);
PyObject *_PyCtypes_TypeGet(PyObject *type, const char *name);
void _PyCtypes_ReadyCArg(void);

#endif /* LAZYPY_CTYPES_H */
