/* Declarations shared by the files of the _io module (Modules/_io/).

   Every io object starts with IO_HEAD: the instance dict (io objects take
   arbitrary attributes, e.g. TextIOWrapper.mode set by open()), the weak
   reference list, and two flags the _IOBase methods use.  Sharing one head
   lets the base-class methods in iobase.c work on every concrete type. */
#ifndef Py_IO_IOMODULE_H
#define Py_IO_IOMODULE_H

#include "Python.h"
#include <sys/types.h>

#define IO_DEFAULT_BUFFER_SIZE (128 * 1024)

#define IO_HEAD            \
    PyObject_HEAD          \
    PyObject *dict;        \
    PyObject *weakreflist; \
    char base_closed;      \
    char finalizing;

typedef struct {
    IO_HEAD
} _PyIO_Object;

#define IO_OBJ(op) ((_PyIO_Object *)(op))

extern PyTypeObject _PyIO_IOBase_Type;
extern PyTypeObject _PyIO_RawIOBase_Type;
extern PyTypeObject _PyIO_BufferedIOBase_Type;
extern PyTypeObject _PyIO_TextIOBase_Type;
extern PyTypeObject _PyIO_FileIO_Type;
extern PyTypeObject _PyIO_BytesIO_Type;
extern PyTypeObject _PyIO_StringIO_Type;
extern PyTypeObject _PyIO_BufferedReader_Type;
extern PyTypeObject _PyIO_BufferedWriter_Type;
extern PyTypeObject _PyIO_BufferedRandom_Type;
extern PyTypeObject _PyIO_BufferedRWPair_Type;
extern PyTypeObject _PyIO_TextIOWrapper_Type;
extern PyTypeObject _PyIO_NewlineDecoder_Type;

/* io.UnsupportedOperation (subclass of OSError and ValueError). */
extern PyObject *_PyIO_UnsupportedOperation;

/* Raise UnsupportedOperation(msg); returns NULL. */
PyObject *_PyIO_Unsupported(const char *msg);
/* Raise ValueError(msg), msg defaulting to the closed-file message. */
PyObject *_PyIO_ClosedError(const char *msg);
/* -1 with ValueError when obj.closed is true, 0 when open. */
int _PyIO_CheckClosed(PyObject *obj);
/* Truth value of obj.closed, -1 on error. */
int _PyIO_IsClosed(PyObject *obj);
/* Parse a size argument: NULL or None means -1, else an index. */
int _PyIO_SizeArg(PyObject *arg, Py_ssize_t *out);
/* Parse an offset argument (an index) into an off_t. */
int _PyIO_OffsetArg(PyObject *arg, off_t *out);
/* The generic iterator step: readline(), StopIteration on "". */
PyObject *_PyIO_IterNext(PyObject *self);
/* tp_finalize shared by all io types: close() if still open. */
void _PyIO_Finalize(PyObject *self);
/* Dealloc helper: the dict and weakrefs of the head. */
void _PyIO_ClearHead(PyObject *self);
int _PyIO_TraverseHead(PyObject *self, visitproc visit, void *arg);
/* Shared getset entry for __dict__. */
extern PyGetSetDef _PyIO_DictGetSet;
/* repr() helper "name=..." part: appends " name=%R" when self.name exists. */
PyObject *_PyIO_ReprWithName(PyObject *self, const char *tail_fmt, PyObject *tail);

/* Direct access to a FileIO's descriptor, used by the buffered classes to
   skip a method call: returns bytes done, -1 on error, -2 would block. */
Py_ssize_t _PyIO_FileIO_RawRead(PyObject *self, char *buf, Py_ssize_t n);
Py_ssize_t _PyIO_FileIO_RawWrite(PyObject *self, const char *buf, Py_ssize_t n);

/* The universal-newline layer shared by TextIOWrapper, StringIO and
   IncrementalNewlineDecoder (textio.c). */
#define IO_SEEN_LF 1
#define IO_SEEN_CR 2
#define IO_SEEN_CRLF 4

typedef struct {
    int translate;  /* turn \r and \r\n into \n */
    int pendingcr;  /* a trailing \r held back for the next call */
    int seennl;     /* IO_SEEN_* bits */
} _PyIO_NewlineState;

/* Feed decoded text through the newline layer; returns a new str. */
PyObject *_PyIO_NewlineFeed(_PyIO_NewlineState *st, PyObject *text, int final);
/* The .newlines value for the IO_SEEN_* bits. */
PyObject *_PyIO_NewlinesValue(int seennl);
/* Find the end of the first line in text[start:]: the index after its line
   ending, or -1.  universal: any of \r, \n, \r\n ends a line (a final \r
   only counts at eof); else readnl (NULL meaning "\n") does. */
Py_ssize_t _PyIO_FindLineEnd(PyObject *text, Py_ssize_t start, int universal, PyObject *readnl,
                             int at_eof);
/* Check a newline argument (None or one of '', '\n', '\r', '\r\n'). */
int _PyIO_CheckNewline(PyObject *newline, const char *what);

/* The locale encoding name used for encoding="locale" and None. */
PyObject *_PyIO_LocaleEncoding(void);

#endif /* !Py_IO_IOMODULE_H */
