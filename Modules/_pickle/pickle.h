/* Shared declarations of the _pickle accelerator (Modules/_pickle/).

   The design notes live in Doc/pickle.md.  The files:

   memo.c         the two memo tables: the pickler's identity table
                  (object -> memo index) and the unpickler's index table
                  (memo index -> object), plus their Python-level proxies.
   registry.c     glue to the pure-Python side: copyreg's dispatch table and
                  extension registry, _compat_pickle's name mappings, and a
                  few callables (codecs.encode, getattr, functools.partial).
   picklebuffer.c the PickleBuffer type (protocol 5 out-of-band buffers).
   pickler.c      the Pickler type and its save_* writers.
   unpickler.c    the Unpickler type and its opcode loop.
   module.c       the module object: exceptions, dump(s)/load(s).

   Every helper follows the NULL / -1 with an exception convention.  */

#ifndef Py_PICKLE_INTERNAL_H
#define Py_PICKLE_INTERNAL_H

#include "Python.h"

/* ---- Opcodes (pickletools documents each one) ---------------------------- */

enum {
    OP_MARK = '(', OP_STOP = '.', OP_POP = '0', OP_POP_MARK = '1',
    OP_DUP = '2', OP_FLOAT = 'F', OP_INT = 'I', OP_BININT = 'J',
    OP_BININT1 = 'K', OP_LONG = 'L', OP_BININT2 = 'M', OP_NONE = 'N',
    OP_PERSID = 'P', OP_BINPERSID = 'Q', OP_REDUCE = 'R', OP_STRING = 'S',
    OP_BINSTRING = 'T', OP_SHORT_BINSTRING = 'U', OP_UNICODE = 'V',
    OP_BINUNICODE = 'X', OP_APPEND = 'a', OP_BUILD = 'b', OP_GLOBAL = 'c',
    OP_DICT = 'd', OP_EMPTY_DICT = '}', OP_APPENDS = 'e', OP_GET = 'g',
    OP_BINGET = 'h', OP_INST = 'i', OP_LONG_BINGET = 'j', OP_LIST = 'l',
    OP_EMPTY_LIST = ']', OP_OBJ = 'o', OP_PUT = 'p', OP_BINPUT = 'q',
    OP_LONG_BINPUT = 'r', OP_SETITEM = 's', OP_TUPLE = 't',
    OP_EMPTY_TUPLE = ')', OP_SETITEMS = 'u', OP_BINFLOAT = 'G',
    /* protocol 2 */
    OP_PROTO = 0x80, OP_NEWOBJ = 0x81, OP_EXT1 = 0x82, OP_EXT2 = 0x83,
    OP_EXT4 = 0x84, OP_TUPLE1 = 0x85, OP_TUPLE2 = 0x86, OP_TUPLE3 = 0x87,
    OP_NEWTRUE = 0x88, OP_NEWFALSE = 0x89, OP_LONG1 = 0x8a, OP_LONG4 = 0x8b,
    /* protocol 3 */
    OP_BINBYTES = 'B', OP_SHORT_BINBYTES = 'C',
    /* protocol 4 */
    OP_SHORT_BINUNICODE = 0x8c, OP_BINUNICODE8 = 0x8d, OP_BINBYTES8 = 0x8e,
    OP_EMPTY_SET = 0x8f, OP_ADDITEMS = 0x90, OP_FROZENSET = 0x91,
    OP_NEWOBJ_EX = 0x92, OP_STACK_GLOBAL = 0x93, OP_MEMOIZE = 0x94,
    OP_FRAME = 0x95,
    /* protocol 5 */
    OP_BYTEARRAY8 = 0x96, OP_NEXT_BUFFER = 0x97, OP_READONLY_BUFFER = 0x98,
};

#define PICKLE_HIGHEST_PROTOCOL 5
#define PICKLE_DEFAULT_PROTOCOL 5
/* A frame is closed once it holds at least this many bytes; payloads this
   large bypass frames altogether. */
#define PICKLE_FRAME_TARGET (64 * 1024)
/* Frames smaller than this are written without a FRAME header. */
#define PICKLE_FRAME_MIN 4
/* Bytes of a FRAME header: the opcode and an 8-byte length. */
#define PICKLE_FRAME_HEADER 9
/* Items per APPENDS / SETITEMS / ADDITEMS group. */
#define PICKLE_BATCH 1000

/* ---- Module-wide state (registry.c) --------------------------------------- */

typedef struct {
    PyObject *PickleError;
    PyObject *PicklingError;
    PyObject *UnpicklingError;
    /* Borrowed from copyreg / _compat_pickle and kept alive here; the
       dictionaries are the live ones, so registrations made later through
       copyreg are seen. */
    PyObject *dispatch_table;        /* copyreg.dispatch_table */
    PyObject *extension_registry;    /* (module, name) -> code */
    PyObject *inverted_registry;     /* code -> (module, name) */
    PyObject *extension_cache;       /* code -> object */
    PyObject *name_2to3;             /* _compat_pickle.NAME_MAPPING */
    PyObject *import_2to3;           /* _compat_pickle.IMPORT_MAPPING */
    PyObject *name_3to2;             /* REVERSE_NAME_MAPPING */
    PyObject *import_3to2;           /* REVERSE_IMPORT_MAPPING */
    PyObject *codecs_encode;         /* codecs.encode */
    PyObject *builtin_getattr;       /* getattr */
    PyObject *partial;               /* functools.partial */
    PyObject *escape_decode;         /* codecs.escape_decode */
    PyObject *str_latin1;            /* interned 'latin1' */
} _PyPickleState;

extern _PyPickleState _PyPickle_State;

/* Fill _PyPickle_State from copyreg and friends (once). */
int _PyPickle_InitState(void);
/* Drop every reference the state holds (the module is going away). */
void _PyPickle_ClearState(void);

/* Import `module` and walk the dotted `name` on it (a list of the parts in
   `parts`, or NULL to split it here).  New reference. */
PyObject *_PyPickle_ImportModule(PyObject *module);
PyObject *_PyPickle_GetDotted(PyObject *root, PyObject *parts);

/* Setter of the persistent_id / persistent_load attributes: *slot takes a
   callable; deletion and non-callables are TypeError. */
int _PyPickle_StoreHook(PyObject **slot, PyObject *value, const char *what);

/* ---- Memo tables (memo.c) -------------------------------------------------- */

/* The pickler's memo: open addressing on object identity.  Keys are owned
   (the memo keeps transient objects alive so that identities stay unique
   for the life of the pickler). */
typedef struct {
    PyObject *key;
    Py_ssize_t index;
} _PyPickleMemoSlot;

typedef struct {
    size_t mask;                /* capacity - 1 (capacity a power of 2) */
    Py_ssize_t used;
    _PyPickleMemoSlot *slots;
} _PyPickleMemo;

int _PyPickleMemo_Init(_PyPickleMemo *m);
void _PyPickleMemo_Clear(_PyPickleMemo *m);
void _PyPickleMemo_Free(_PyPickleMemo *m);
/* Index of `key`, or -1 when absent (never raises). */
Py_ssize_t _PyPickleMemo_Lookup(const _PyPickleMemo *m, PyObject *key);
/* Record key -> index (key must be absent). */
int _PyPickleMemo_Insert(_PyPickleMemo *m, PyObject *key, Py_ssize_t index);
/* {id(obj): (index, obj)} as the pure-Python pickler keeps it. */
PyObject *_PyPickleMemo_AsDict(const _PyPickleMemo *m);
/* Replace the contents from such a dict. */
int _PyPickleMemo_FromDict(_PyPickleMemo *m, PyObject *dict);
int _PyPickleMemo_Traverse(_PyPickleMemo *m, visitproc visit, void *arg);

/* The unpickler's memo: a dense array for the indices a well-behaved pickle
   uses (0, 1, 2, ...), a dict for stray large ones so that a hostile index
   cannot make us allocate gigabytes. */
typedef struct {
    PyObject **items;
    Py_ssize_t size;            /* allocated length of items */
    Py_ssize_t count;           /* entries set (what MEMOIZE numbers by) */
    PyObject *sparse;           /* dict int -> obj, or NULL */
} _PyUnpickleMemo;

/* Borrowed reference, NULL (no exception) when absent. */
PyObject *_PyUnpickleMemo_Get(_PyUnpickleMemo *m, size_t index);
int _PyUnpickleMemo_Put(_PyUnpickleMemo *m, size_t index, PyObject *value);
void _PyUnpickleMemo_Clear(_PyUnpickleMemo *m);
PyObject *_PyUnpickleMemo_AsDict(_PyUnpickleMemo *m);
int _PyUnpickleMemo_FromDict(_PyUnpickleMemo *m, PyObject *dict);
int _PyUnpickleMemo_Traverse(_PyUnpickleMemo *m, visitproc visit, void *arg);

/* Proxies returned by the `memo` properties: copy() / clear() /
   __reduce__ on the owner's table. */
extern PyTypeObject _PyPickle_PicklerMemoProxyType;
extern PyTypeObject _PyPickle_UnpicklerMemoProxyType;
PyObject *_PyPickle_NewMemoProxy(PyTypeObject *type, PyObject *owner);
/* The owner of a proxy, or NULL if `obj` is not one of `type` (borrowed). */
PyObject *_PyPickle_MemoProxyOwner(PyTypeObject *type, PyObject *obj);

/* ---- Types ------------------------------------------------------------------ */

extern PyTypeObject _PyPickle_PicklerType;
extern PyTypeObject _PyPickle_UnpicklerType;
extern PyTypeObject _PyPickle_PickleBufferType;

_PyPickleMemo *_PyPickle_PicklerMemo(PyObject *pickler);
_PyUnpickleMemo *_PyPickle_UnpicklerMemo(PyObject *unpickler);

/* PickleBuffer: borrow the wrapped view (NULL + ValueError once released). */
const Py_buffer *_PyPickleBuffer_GetView(PyObject *obj);

/* Entry points used by the module functions. */
PyObject *_PyPickle_Dumps(PyObject *obj, PyObject *file, PyObject *protocol,
                          int fix_imports, PyObject *buffer_callback);
PyObject *_PyPickle_Loads(PyObject *data, PyObject *file, int fix_imports,
                          const char *encoding, const char *errors,
                          PyObject *buffers);

#endif /* Py_PICKLE_INTERNAL_H */
