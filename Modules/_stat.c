/* The _stat module: the S_* file mode constants and tests, the BSD file
   flags, the ST_* stat_result indices, and filemode().  The stdlib's
   stat.py defines all of these in Python and then imports ours over them. */

#include "Python.h"
#include <sys/stat.h>

/* Modes are C mode_t values: an int from 0 to UINT_MAX. */
static int
mode_arg(PyObject *obj, mode_t *mode)
{
    if (!PyLong_Check(obj)) {
        PyErr_SetString(PyExc_TypeError, "an integer is required");
        return -1;
    }
    int overflow;
    long long v = PyLong_AsLongLongAndOverflow(obj, &overflow);
    if (v == -1 && PyErr_Occurred()) {
        return -1;
    }
    if (overflow < 0 || v < 0) {
        PyErr_SetString(PyExc_OverflowError, "can't convert negative value to unsigned int");
        return -1;
    }
    if (overflow > 0 || v > (long long)UINT_MAX) {
        PyErr_SetString(PyExc_OverflowError, "mode out of range");
        return -1;
    }
    *mode = (mode_t)v;
    return 0;
}

/* Which file type bits each S_IS*() function tests for; 0 means a type
   Linux has no such file for (doors, event ports, whiteouts). */
#define TYPE_TEST(fname, bits)                                                                  \
    static PyObject *stat_##fname(PyObject *m, PyObject *arg)                                   \
    {                                                                                           \
        mode_t mode;                                                                            \
        if (mode_arg(arg, &mode) < 0) {                                                         \
            return NULL;                                                                        \
        }                                                                                       \
        return PyBool_FromLong((bits) != 0 && (mode & S_IFMT) == (bits));                       \
    }

TYPE_TEST(S_ISDIR, S_IFDIR)
TYPE_TEST(S_ISCHR, S_IFCHR)
TYPE_TEST(S_ISBLK, S_IFBLK)
TYPE_TEST(S_ISREG, S_IFREG)
TYPE_TEST(S_ISFIFO, S_IFIFO)
TYPE_TEST(S_ISLNK, S_IFLNK)
TYPE_TEST(S_ISSOCK, S_IFSOCK)
TYPE_TEST(S_ISDOOR, 0)
TYPE_TEST(S_ISPORT, 0)
TYPE_TEST(S_ISWHT, 0)
#undef TYPE_TEST

static PyObject *
stat_S_IMODE(PyObject *m, PyObject *arg)
{
    mode_t mode;
    if (mode_arg(arg, &mode) < 0) {
        return NULL;
    }
    return PyLong_FromUnsignedLong((unsigned long)(mode & 07777));
}

static PyObject *
stat_S_IFMT(PyObject *m, PyObject *arg)
{
    mode_t mode;
    if (mode_arg(arg, &mode) < 0) {
        return NULL;
    }
    return PyLong_FromUnsignedLong((unsigned long)(mode & S_IFMT));
}

/* The ls -l letter for a file type. */
static char
type_letter(mode_t mode)
{
    switch (mode & S_IFMT) {
    case S_IFLNK: return 'l';
    case S_IFSOCK: return 's';
    case S_IFREG: return '-';
    case S_IFBLK: return 'b';
    case S_IFDIR: return 'd';
    case S_IFCHR: return 'c';
    case S_IFIFO: return 'p';
    default: return '?';
    }
}

/* One rwx triple; `special` is the set-id or sticky bit shown in the x
   place (lower case when x is also set, upper case when not). */
static void
permission_triple(char *out, mode_t mode, int shift, mode_t special, char special_letter)
{
    out[0] = (mode & (S_IROTH << shift)) ? 'r' : '-';
    out[1] = (mode & (S_IWOTH << shift)) ? 'w' : '-';
    int exec = (mode & (S_IXOTH << shift)) != 0;
    if (mode & special) {
        out[2] = exec ? special_letter : (char)(special_letter - 'a' + 'A');
    }
    else {
        out[2] = exec ? 'x' : '-';
    }
}

static PyObject *
stat_filemode(PyObject *m, PyObject *arg)
{
    mode_t mode;
    if (mode_arg(arg, &mode) < 0) {
        return NULL;
    }
    char text[10];
    text[0] = type_letter(mode);
    permission_triple(text + 1, mode, 6, S_ISUID, 's');
    permission_triple(text + 4, mode, 3, S_ISGID, 's');
    permission_triple(text + 7, mode, 0, S_ISVTX, 't');
    return PyUnicode_FromStringAndSize(text, 10);
}

static PyMethodDef stat_methods[] = {
    {"S_ISDIR", stat_S_ISDIR, METH_O, "Whether the mode is a directory's."},
    {"S_ISCHR", stat_S_ISCHR, METH_O, "Whether the mode is a character device's."},
    {"S_ISBLK", stat_S_ISBLK, METH_O, "Whether the mode is a block device's."},
    {"S_ISREG", stat_S_ISREG, METH_O, "Whether the mode is a regular file's."},
    {"S_ISFIFO", stat_S_ISFIFO, METH_O, "Whether the mode is a named pipe's."},
    {"S_ISLNK", stat_S_ISLNK, METH_O, "Whether the mode is a symbolic link's."},
    {"S_ISSOCK", stat_S_ISSOCK, METH_O, "Whether the mode is a socket's."},
    {"S_ISDOOR", stat_S_ISDOOR, METH_O, "Whether the mode is a door's (never, here)."},
    {"S_ISPORT", stat_S_ISPORT, METH_O, "Whether the mode is an event port's (never, here)."},
    {"S_ISWHT", stat_S_ISWHT, METH_O, "Whether the mode is a whiteout's (never, here)."},
    {"S_IMODE", stat_S_IMODE, METH_O, "The permission bits of a mode (what chmod() sets)."},
    {"S_IFMT", stat_S_IFMT, METH_O, "The file type bits of a mode."},
    {"filemode", stat_filemode, METH_O, "A mode as ls -l shows it, e.g. '-rwxr-xr-x'."},
    {NULL, NULL, 0, NULL},
};

typedef struct {
    const char *name;
    unsigned long value;
} stat_constant;

static const stat_constant stat_constants[] = {
    {"S_IFDIR", S_IFDIR}, {"S_IFCHR", S_IFCHR}, {"S_IFBLK", S_IFBLK}, {"S_IFREG", S_IFREG},
    {"S_IFIFO", S_IFIFO}, {"S_IFLNK", S_IFLNK}, {"S_IFSOCK", S_IFSOCK},
    {"S_IFDOOR", 0}, {"S_IFPORT", 0}, {"S_IFWHT", 0},
    {"S_ISUID", S_ISUID}, {"S_ISGID", S_ISGID}, {"S_ENFMT", S_ISGID}, {"S_ISVTX", S_ISVTX},
    {"S_IREAD", S_IRUSR}, {"S_IWRITE", S_IWUSR}, {"S_IEXEC", S_IXUSR},
    {"S_IRWXU", S_IRWXU}, {"S_IRUSR", S_IRUSR}, {"S_IWUSR", S_IWUSR}, {"S_IXUSR", S_IXUSR},
    {"S_IRWXG", S_IRWXG}, {"S_IRGRP", S_IRGRP}, {"S_IWGRP", S_IWGRP}, {"S_IXGRP", S_IXGRP},
    {"S_IRWXO", S_IRWXO}, {"S_IROTH", S_IROTH}, {"S_IWOTH", S_IWOTH}, {"S_IXOTH", S_IXOTH},
    /* BSD and macOS file flags (st_flags), which Linux lacks but chflags users name. */
    {"UF_SETTABLE", 0x0000ffff}, {"UF_NODUMP", 0x00000001}, {"UF_IMMUTABLE", 0x00000002},
    {"UF_APPEND", 0x00000004}, {"UF_OPAQUE", 0x00000008}, {"UF_NOUNLINK", 0x00000010},
    {"UF_COMPRESSED", 0x00000020}, {"UF_TRACKED", 0x00000040}, {"UF_DATAVAULT", 0x00000080},
    {"UF_HIDDEN", 0x00008000},
    {"SF_SETTABLE", 0xffff0000}, {"SF_ARCHIVED", 0x00010000}, {"SF_IMMUTABLE", 0x00020000},
    {"SF_APPEND", 0x00040000}, {"SF_NOUNLINK", 0x00100000}, {"SF_SNAPSHOT", 0x00200000},
    {"SF_FIRMLINK", 0x00800000}, {"SF_DATALESS", 0x40000000},
    /* Positions in os.stat_result. */
    {"ST_MODE", 0}, {"ST_INO", 1}, {"ST_DEV", 2}, {"ST_NLINK", 3}, {"ST_UID", 4},
    {"ST_GID", 5}, {"ST_SIZE", 6}, {"ST_ATIME", 7}, {"ST_MTIME", 8}, {"ST_CTIME", 9},
    {NULL, 0},
};

static struct PyModuleDef statmodule = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_stat",
    .m_doc = "File mode constants and tests for stat() results (see the stat module).",
    .m_size = -1,
    .m_methods = stat_methods,
};

PyObject *
PyInit__stat(void)
{
    PyObject *m = PyModule_Create(&statmodule);
    if (m == NULL) {
        return NULL;
    }
    for (const stat_constant *c = stat_constants; c->name != NULL; c++) {
        if (PyModule_Add(m, c->name, PyLong_FromUnsignedLong(c->value)) < 0) {
            Py_DECREF(m);
            return NULL;
        }
    }
    return m;
}
