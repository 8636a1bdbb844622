/* The traceback writer behind faulthandler: called from fatal-signal
   handlers, user-signal handlers and the watchdog thread, so everything
   here is async-signal-safe.  Text is assembled in a fixed buffer on the
   C stack and handed to write(2); nothing allocates, nothing takes a lock,
   and no Python object is created or has its reference count touched.

   The thread and frame lists are read while other threads may be
   changing them.  That race is accepted (the process is usually dying);
   each pointer is checked for NULL and the walks are bounded, so a torn
   list yields a short or odd dump rather than a loop.

   Lazy frames (Doc/frames.md) are printed from what the interpreter
   frame holds: calling the reifier here could allocate or run Python
   code, so the line of a lazy frame may be stale (Doc/faulthandler.md). */

#include "Python.h"
#include "pycore_code.h"
#include "pycore_faulthandler.h"
#include "pycore_frame.h"
#include "pycore_pystate.h"

#include <errno.h>
#include <unistd.h>

/* Bounds that keep a dump finite on a corrupted or very deep state. */
#define DUMP_MAX_FRAMES 100
#define DUMP_MAX_THREADS 100
#define DUMP_MAX_TEXT 500

/* ---- Output buffer --------------------------------------------------------------------- */

typedef struct {
    int fd;
    size_t used;
    char bytes[512];
} out_buffer;

static void
write_all(int fd, const char *data, size_t size)
{
    while (size > 0) {
        ssize_t n = write(fd, data, size);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            return; /* nowhere to report the failure */
        }
        data += n;
        size -= (size_t)n;
    }
}

void
_PyFaulthandler_WriteText(int fd, const char *text)
{
    write_all(fd, text, strlen(text));
}

static void
out_flush(out_buffer *out)
{
    write_all(out->fd, out->bytes, out->used);
    out->used = 0;
}

static void
out_char(out_buffer *out, char c)
{
    if (out->used == sizeof(out->bytes)) {
        out_flush(out);
    }
    out->bytes[out->used++] = c;
}

static void
out_text(out_buffer *out, const char *text)
{
    for (; *text != '\0'; text++) {
        out_char(out, *text);
    }
}

static void
out_decimal(out_buffer *out, unsigned long value)
{
    char digits[24];
    int n = 0;
    do {
        digits[n++] = (char)('0' + value % 10);
        value /= 10;
    } while (value != 0);
    while (n > 0) {
        out_char(out, digits[--n]);
    }
}

/* value in lower-case hex, zero-padded to at least width digits. */
static void
out_hex(out_buffer *out, unsigned long value, int width)
{
    static const char hexdigits[] = "0123456789abcdef";
    char digits[2 * sizeof(unsigned long)];
    int n = 0;
    do {
        digits[n++] = hexdigits[value & 0xf];
        value >>= 4;
    } while (value != 0);
    while (width > n) {
        out_char(out, '0');
        width--;
    }
    while (n > 0) {
        out_char(out, digits[--n]);
    }
}

/* A str's characters, printable ASCII as is and the rest as \x, \u or
   \U escapes; long names are cut with "...".  Reads the object's storage
   directly: no encoding, no allocation. */
static void
out_str_object(out_buffer *out, PyObject *str)
{
    if (str == NULL || !PyUnicode_Check(str)) {
        out_text(out, "???");
        return;
    }
    Py_ssize_t length = PyUnicode_GET_LENGTH(str);
    int kind = PyUnicode_KIND(str);
    const void *data = PyUnicode_DATA(str);
    Py_ssize_t shown = length > DUMP_MAX_TEXT ? DUMP_MAX_TEXT : length;
    for (Py_ssize_t i = 0; i < shown; i++) {
        Py_UCS4 ch = PyUnicode_READ(kind, data, i);
        if (ch >= 0x20 && ch < 0x7f) {
            out_char(out, (char)ch);
        }
        else if (ch < 0x100) {
            out_text(out, "\\x");
            out_hex(out, ch, 2);
        }
        else if (ch < 0x10000) {
            out_text(out, "\\u");
            out_hex(out, ch, 4);
        }
        else {
            out_text(out, "\\U");
            out_hex(out, ch, 8);
        }
    }
    if (shown < length) {
        out_text(out, "...");
    }
}

/* ---- Frames and threads ---------------------------------------------------------------- */

/* The code object a frame runs, or NULL when the frame has none worth
   printing (the C-call entry frames, or something unrecognisable). */
static PyCodeObject *
frame_code(_PyInterpreterFrame *frame)
{
    if (frame->owner >= FRAME_OWNED_BY_INTERPRETER) {
        return NULL;
    }
    PyObject *executable = PyStackRef_AsPyObjectBorrow(frame->f_executable);
    if (executable == NULL) {
        return NULL;
    }
    if (PyUnstable_JITExecutable_Check(executable)) {
        return ((PyUnstable_JITExecutable *)executable)->je_code;
    }
    return PyCode_Check(executable) ? (PyCodeObject *)executable : NULL;
}

/* The frame's line from its instruction pointer through the line table
   (PyCode_Addr2Line walks the table in place and allocates nothing), or
   -1 when the pointer lies outside the code. */
static int
frame_line(_PyInterpreterFrame *frame, PyCodeObject *code)
{
    _Py_CODEUNIT *first = _PyCode_CODE(code);
    Py_ssize_t units = Py_SIZE(code);
    if (frame->instr_ptr < first || frame->instr_ptr >= first + units) {
        return -1;
    }
    int offset = (int)(frame->instr_ptr - first) * (int)sizeof(_Py_CODEUNIT);
    return PyCode_Addr2Line(code, offset);
}

static void
out_frame(out_buffer *out, _PyInterpreterFrame *frame, PyCodeObject *code)
{
    out_text(out, "  File \"");
    out_str_object(out, code->co_filename);
    out_text(out, "\", line ");
    int line = frame_line(frame, code);
    if (line >= 0) {
        out_decimal(out, (unsigned long)line);
    }
    else {
        out_text(out, "???");
    }
    out_text(out, " in ");
    out_str_object(out, code->co_name);
    out_char(out, '\n');
}

static void
out_stack(out_buffer *out, PyThreadState *tstate)
{
    int printed = 0;
    for (_PyInterpreterFrame *frame = tstate->current_frame; frame != NULL;
         frame = frame->previous) {
        PyCodeObject *code = frame_code(frame);
        if (code == NULL) {
            continue;
        }
        if (printed == DUMP_MAX_FRAMES) {
            out_text(out, "  ...\n");
            return;
        }
        out_frame(out, frame, code);
        printed++;
    }
    if (printed == 0) {
        out_text(out, "  <no Python frame>\n");
    }
}

static void
out_thread_header(out_buffer *out, PyThreadState *tstate, int is_current)
{
    out_text(out, is_current ? "Current thread 0x" : "Thread 0x");
    out_hex(out, tstate->thread_id, 2 * (int)sizeof(unsigned long));
    out_text(out, " (most recent call first):\n");
}

void
_PyFaulthandler_DumpStacks(int fd, PyInterpreterState *interp, PyThreadState *current,
                           int all_threads)
{
    out_buffer out = {.fd = fd, .used = 0};
    if (!all_threads) {
        if (current == NULL) {
            out_text(&out, "<no Python frame>\n");
        }
        else {
            out_text(&out, "Stack (most recent call first):\n");
            out_stack(&out, current);
        }
        out_flush(&out);
        return;
    }
    int count = 0;
    for (PyThreadState *t = interp == NULL ? NULL : interp->threads_head; t != NULL;
         t = t->next) {
        if (count == DUMP_MAX_THREADS) {
            out_text(&out, "...\n");
            break;
        }
        if (count > 0) {
            out_char(&out, '\n');
        }
        out_thread_header(&out, t, t == current);
        out_stack(&out, t);
        out_flush(&out);
        count++;
    }
    out_flush(&out);
}

PyThreadState *
_PyFaulthandler_FindCurrent(PyInterpreterState *interp)
{
    unsigned long self = PyThread_get_thread_ident();
    int steps = 0;
    for (PyThreadState *t = interp == NULL ? NULL : interp->threads_head;
         t != NULL && steps < 10 * DUMP_MAX_THREADS; t = t->next, steps++) {
        if (t->thread_id == self) {
            return t;
        }
    }
    return NULL;
}
