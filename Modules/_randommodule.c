/* _random: the Mersenne Twister (MT19937) behind the random module.

   The generator keeps 624 words of 32 bits.  Each time they are used up,
   all of them are regenerated at once ("twist"); every output word is then
   one state word passed through a fixed bit-mixing ("tempering").  The
   algorithm and its seeding procedures (seeding from one word, and from
   an array of words) are as published by Matsumoto and Nishimura (1998),
   and seeding an int splits its absolute value into 32-bit words, least
   significant first, so seeded sequences are the same as CPython's.

   random.py builds everything else (randrange, choice, gauss, ...) on
   random(), getrandbits(), seed(), getstate() and setstate(). */

#include "Python.h"
#include "pycore_long.h"
#include "pycore_modsupport.h"
#include "pycore_object.h"
#include <fcntl.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#define MT_WORDS 624
#define MT_SHIFT 397          /* the word that is mixed in from further on */
#define MT_TWIST 0x9908b0dfu  /* XORed in when the low bit is set */
#define MT_HIGH_BIT 0x80000000u

typedef struct {
    PyObject_HEAD
    int pos; /* next word to hand out; MT_WORDS means "twist first" */
    uint32_t words[MT_WORDS];
} RandomObject;

static PyTypeObject Random_Type;

/* ---- The generator -------------------------------------------------------- */

/* Regenerate all words from the previous ones. */
static void
twist(RandomObject *r)
{
    uint32_t *w = r->words;
    for (int i = 0; i < MT_WORDS; i++) {
        uint32_t joined = (w[i] & MT_HIGH_BIT) | (w[(i + 1) % MT_WORDS] & ~MT_HIGH_BIT);
        uint32_t mixed = joined >> 1;
        if (joined & 1) {
            mixed ^= MT_TWIST;
        }
        w[i] = w[(i + MT_SHIFT) % MT_WORDS] ^ mixed;
    }
    r->pos = 0;
}

static uint32_t
next_word(RandomObject *r)
{
    if (r->pos >= MT_WORDS) {
        twist(r);
    }
    uint32_t y = r->words[r->pos++];
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    y ^= y >> 18;
    return y;
}

/* The state that one 32-bit seed determines. */
static void
seed_word(RandomObject *r, uint32_t s)
{
    r->words[0] = s;
    for (uint32_t i = 1; i < MT_WORDS; i++) {
        uint32_t prev = r->words[i - 1];
        r->words[i] = 1812433253u * (prev ^ (prev >> 30)) + i;
    }
    r->pos = MT_WORDS;
}

/* Seeding from an array of words: two passes over the state, mixing in
   the key words (cycled) in the first and the word index in the second. */
static void
seed_array(RandomObject *r, const uint32_t *key, size_t nkey)
{
    uint32_t *w = r->words;
    seed_word(r, 19650218u);
    size_t i = 1, j = 0;
    for (size_t n = MT_WORDS > nkey ? MT_WORDS : nkey; n > 0; n--) {
        uint32_t prev = w[i - 1];
        w[i] = (w[i] ^ ((prev ^ (prev >> 30)) * 1664525u)) + key[j] + (uint32_t)j;
        if (++i >= MT_WORDS) {
            w[0] = w[MT_WORDS - 1];
            i = 1;
        }
        if (++j >= nkey) {
            j = 0;
        }
    }
    for (size_t n = MT_WORDS - 1; n > 0; n--) {
        uint32_t prev = w[i - 1];
        w[i] = (w[i] ^ ((prev ^ (prev >> 30)) * 1566083941u)) - (uint32_t)i;
        if (++i >= MT_WORDS) {
            w[0] = w[MT_WORDS - 1];
            i = 1;
        }
    }
    w[0] = MT_HIGH_BIT; /* the state is never all zeros */
    r->pos = MT_WORDS;
}

/* ---- Seeding ----------------------------------------------------------------- */

/* Fill buf from the operating system's random source; -1 if none works. */
static int
os_random_bytes(void *buf, size_t n)
{
    unsigned char *p = buf;
    while (n > 0) {
        ssize_t got = getrandom(p, n, GRND_NONBLOCK);
        if (got < 0) {
            if (errno == EINTR) {
                continue;
            }
            break;
        }
        p += got;
        n -= (size_t)got;
    }
    if (n == 0) {
        return 0;
    }
    int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        return -1;
    }
    while (n > 0) {
        ssize_t got = read(fd, p, n);
        if (got <= 0) {
            if (got < 0 && errno == EINTR) {
                continue;
            }
            break;
        }
        p += got;
        n -= (size_t)got;
    }
    close(fd);
    return n == 0 ? 0 : -1;
}

/* seed(None): a full key of fresh randomness, or the time and process id
   when the system has no random source. */
static void
seed_from_system(RandomObject *r)
{
    uint32_t key[MT_WORDS];
    if (os_random_bytes(key, sizeof(key)) == 0) {
        seed_array(r, key, MT_WORDS);
        return;
    }
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    uint32_t fallback[4] = {(uint32_t)ts.tv_sec, (uint32_t)((uint64_t)ts.tv_sec >> 32),
                            (uint32_t)ts.tv_nsec, (uint32_t)getpid()};
    seed_array(r, fallback, 4);
}

/* seed(n) for an int: |n| as 32-bit words, least significant first (one
   zero word for 0). */
static int
seed_from_int(RandomObject *r, PyObject *n)
{
    PyObject *mag = PyNumber_Absolute(n);
    if (mag == NULL) {
        return -1;
    }
    int64_t bits = _PyLong_NumBits(mag);
    size_t nwords = bits <= 0 ? 1 : (size_t)((bits + 31) / 32);
    uint32_t *key = PyMem_Calloc(nwords, sizeof(uint32_t));
    unsigned char *bytes = PyMem_Calloc(nwords, 4);
    int rc = -1;
    if (key == NULL || bytes == NULL) {
        PyErr_NoMemory();
    }
    else if (_PyLong_AsByteArray((PyLongObject *)mag, bytes, nwords * 4, 1, 0, 1) == 0) {
        for (size_t k = 0; k < nwords; k++) {
            const unsigned char *b = bytes + 4 * k;
            key[k] = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
                     (uint32_t)b[3] << 24;
        }
        seed_array(r, key, nwords);
        rc = 0;
    }
    PyMem_Free(key);
    PyMem_Free(bytes);
    Py_DECREF(mag);
    return rc;
}

/* Any other object seeds through its hash, read as an unsigned word. */
static int
reseed(RandomObject *r, PyObject *arg)
{
    if (arg == NULL || arg == Py_None) {
        seed_from_system(r);
        return 0;
    }
    if (PyLong_Check(arg)) {
        return seed_from_int(r, arg);
    }
    Py_hash_t h = PyObject_Hash(arg);
    if (h == -1 && PyErr_Occurred()) {
        return -1;
    }
    PyObject *n = PyLong_FromSize_t((size_t)h);
    if (n == NULL) {
        return -1;
    }
    int rc = seed_from_int(r, n);
    Py_DECREF(n);
    return rc;
}

/* ---- Methods ------------------------------------------------------------------- */

/* 53 random bits: 27 from one word and 26 from the next. */
static PyObject *
random_random(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    RandomObject *r = (RandomObject *)self;
    uint32_t hi = next_word(r) >> 5;
    uint32_t lo = next_word(r) >> 6;
    double x = ((double)hi * 67108864.0 + (double)lo) / 9007199254740992.0;
    return PyFloat_FromDouble(x);
}

static PyObject *
random_seed(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (!_PyArg_CheckPositional("seed", nargs, 0, 1)) {
        return NULL;
    }
    if (reseed((RandomObject *)self, nargs ? args[0] : NULL) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
random_getstate(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    RandomObject *r = (RandomObject *)self;
    PyObject *state = PyTuple_New(MT_WORDS + 1);
    if (state == NULL) {
        return NULL;
    }
    for (int i = 0; i <= MT_WORDS; i++) {
        PyObject *v = i < MT_WORDS ? PyLong_FromUnsignedLong(r->words[i]) : PyLong_FromLong(r->pos);
        if (v == NULL) {
            Py_DECREF(state);
            return NULL;
        }
        PyTuple_SET_ITEM(state, i, v);
    }
    return state;
}

/* One state word: any int from 0 to 2**64-1, kept modulo 2**32. */
static int
state_word(PyObject *item, uint32_t *out)
{
    if (!PyLong_Check(item)) {
        PyErr_SetString(PyExc_TypeError, "an integer is required");
        return -1;
    }
    if (_PyLong_Sign(item) < 0) {
        PyErr_SetString(PyExc_OverflowError, "can't convert negative value to unsigned int");
        return -1;
    }
    unsigned long v = PyLong_AsUnsignedLong(item);
    if (v == (unsigned long)-1 && PyErr_Occurred()) {
        return -1;
    }
    *out = (uint32_t)v;
    return 0;
}

static PyObject *
random_setstate(PyObject *self, PyObject *state)
{
    if (!PyTuple_Check(state)) {
        PyErr_SetString(PyExc_TypeError, "state vector must be a tuple");
        return NULL;
    }
    if (PyTuple_GET_SIZE(state) != MT_WORDS + 1) {
        PyErr_SetString(PyExc_ValueError, "state vector is the wrong size");
        return NULL;
    }
    uint32_t words[MT_WORDS];
    for (int i = 0; i < MT_WORDS; i++) {
        if (state_word(PyTuple_GET_ITEM(state, i), &words[i]) < 0) {
            return NULL;
        }
    }
    int pos = PyLong_AsInt(PyTuple_GET_ITEM(state, MT_WORDS));
    if (pos == -1 && PyErr_Occurred()) {
        return NULL;
    }
    if (pos < 0 || pos > MT_WORDS) {
        PyErr_SetString(PyExc_ValueError, "invalid state");
        return NULL;
    }
    RandomObject *r = (RandomObject *)self;
    memcpy(r->words, words, sizeof(words));
    r->pos = pos;
    Py_RETURN_NONE;
}

/* k random bits: one word per 32 bits, the first word the least
   significant, the last one cut to what is left. */
static PyObject *
random_getrandbits(PyObject *self, PyObject *arg)
{
    RandomObject *r = (RandomObject *)self;
    PyObject *index = PyNumber_Index(arg);
    if (index == NULL) {
        return NULL;
    }
    Py_ssize_t k = PyLong_AsSsize_t(index);
    Py_DECREF(index);
    if (k == -1 && PyErr_Occurred()) {
        return NULL;
    }
    if (k < 0) {
        PyErr_SetString(PyExc_ValueError, "number of bits must be non-negative");
        return NULL;
    }
    if (k <= 32) {
        return PyLong_FromUnsignedLong(k == 0 ? 0 : next_word(r) >> (32 - k));
    }
    Py_ssize_t nwords = (k + 31) / 32;
    unsigned char *bytes = PyMem_Malloc((size_t)nwords * 4);
    if (bytes == NULL) {
        return PyErr_NoMemory();
    }
    for (Py_ssize_t i = 0; i < nwords; i++) {
        uint32_t w = next_word(r);
        Py_ssize_t left = k - 32 * i;
        if (left < 32) {
            w >>= 32 - left;
        }
        for (int b = 0; b < 4; b++) {
            bytes[4 * i + b] = (unsigned char)(w >> (8 * b));
        }
    }
    PyObject *result = _PyLong_FromByteArray(bytes, (size_t)nwords * 4, 1, 0);
    PyMem_Free(bytes);
    return result;
}

/* ---- The type ------------------------------------------------------------------- */

/* Random(seed=None).  A subclass may take other arguments in its own
   __init__; an instance that was never seeded has an all-zero state. */
static int
random_init(PyObject *self, PyObject *args, PyObject *kwargs)
{
    if (Py_IS_TYPE(self, &Random_Type) && kwargs != NULL && PyDict_GET_SIZE(kwargs) != 0) {
        PyErr_SetString(PyExc_TypeError, "Random() takes no keyword arguments");
        return -1;
    }
    if (PyTuple_GET_SIZE(args) > 1) {
        PyErr_SetString(PyExc_TypeError, "Random() requires 0 or 1 argument");
        return -1;
    }
    return reseed((RandomObject *)self, PyTuple_GET_SIZE(args) ? PyTuple_GET_ITEM(args, 0) : NULL);
}

static PyObject *
random_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    RandomObject *r = (RandomObject *)type->tp_alloc(type, 0);
    if (r != NULL) {
        memset(r->words, 0, sizeof(r->words));
        r->pos = 0;
    }
    return (PyObject *)r;
}

static PyMethodDef random_methods[] = {
    {"random", random_random, METH_NOARGS,
     "random($self, /)\n--\n\nA float uniformly chosen from [0.0, 1.0)."},
    {"seed", _PyCFunction_CAST(random_seed), METH_FASTCALL,
     "seed($self, n=None, /)\n--\n\n"
     "Restart the sequence from an int, from another object's hash, or from\n"
     "the system's randomness (None)."},
    {"getstate", random_getstate, METH_NOARGS,
     "getstate($self, /)\n--\n\nThe generator state as a tuple of 625 ints."},
    {"setstate", random_setstate, METH_O,
     "setstate($self, state, /)\n--\n\nRestore a state that getstate() returned."},
    {"getrandbits", random_getrandbits, METH_O,
     "getrandbits($self, k, /)\n--\n\nA non-negative int of k random bits."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject Random_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "_random.Random",
    .tp_basicsize = sizeof(RandomObject),
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "Random(seed=None)\n--\n\nA Mersenne Twister random number generator.",
    .tp_methods = random_methods,
    .tp_init = random_init,
    .tp_alloc = PyType_GenericAlloc,
    .tp_new = random_new,
    .tp_free = PyObject_Free,
};

static struct PyModuleDef randommodule = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_random",
    .m_doc = "The Mersenne Twister generator that the random module is built on.",
    .m_size = -1,
};

PyObject *
PyInit__random(void)
{
    if (_PyStaticType_InitBuiltin(&Random_Type) < 0) {
        return NULL;
    }
    PyObject *m = PyModule_Create(&randommodule);
    if (m != NULL && PyModule_AddObjectRef(m, "Random", (PyObject *)&Random_Type) < 0) {
        Py_CLEAR(m);
    }
    return m;
}
