/* _ctypes_test: a shared library of small C functions for CPython's ctypes
   tests to call (they load it with CDLL(_ctypes_test.__file__)).  It is
   also an (empty) Python module so that `import _ctypes_test` finds the
   file.  Each function does what the tests that call it expect; the names
   are the tests'. */

#include "Python.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#define EXPORT(T) __attribute__((visibility("default"))) T

/* ---- tf_X: store the argument, return a third of it ---------------------------- */

EXPORT(long long) last_tf_arg_s = 0;
EXPORT(unsigned long long) last_tf_arg_u = 0;

#define THIRD_SIGNED(NAME, T)                                              \
    EXPORT(T) NAME(T c) { last_tf_arg_s = (long long)c; return c / 3; }    \
    EXPORT(T) NAME##_b(signed char x, T c)                                 \
    {                                                                      \
        (void)x;                                                           \
        last_tf_arg_s = (long long)c;                                      \
        return c / 3;                                                      \
    }
#define THIRD_UNSIGNED(NAME, T)                                            \
    EXPORT(T) NAME(T c) { last_tf_arg_u = (unsigned long long)c; return c / 3; } \
    EXPORT(T) NAME##_b(signed char x, T c)                                 \
    {                                                                      \
        (void)x;                                                           \
        last_tf_arg_u = (unsigned long long)c;                             \
        return c / 3;                                                      \
    }

THIRD_SIGNED(tf_b, signed char)
THIRD_UNSIGNED(tf_B, unsigned char)
THIRD_SIGNED(tf_h, short)
THIRD_UNSIGNED(tf_H, unsigned short)
THIRD_SIGNED(tf_i, int)
THIRD_UNSIGNED(tf_I, unsigned int)
THIRD_SIGNED(tf_l, long)
THIRD_UNSIGNED(tf_L, unsigned long)
THIRD_SIGNED(tf_q, long long)
THIRD_UNSIGNED(tf_Q, unsigned long long)
THIRD_SIGNED(tf_f, float)
THIRD_SIGNED(tf_d, double)
THIRD_SIGNED(tf_D, long double)

/* The tests spell the two-argument forms tf_bX. */
#define ALIAS(NEW, T, OLD) EXPORT(T) NEW(signed char x, T c) { return OLD(x, c); }
ALIAS(tf_bb, signed char, tf_b_b)
ALIAS(tf_bB, unsigned char, tf_B_b)
ALIAS(tf_bh, short, tf_h_b)
ALIAS(tf_bH, unsigned short, tf_H_b)
ALIAS(tf_bi, int, tf_i_b)
ALIAS(tf_bI, unsigned int, tf_I_b)
ALIAS(tf_bl, long, tf_l_b)
ALIAS(tf_bL, unsigned long, tf_L_b)
ALIAS(tf_bq, long long, tf_q_b)
ALIAS(tf_bQ, unsigned long long, tf_Q_b)
ALIAS(tf_bf, float, tf_f_b)
ALIAS(tf_bd, double, tf_d_b)
ALIAS(tf_bD, long double, tf_D_b)

EXPORT(void) tv_i(int c) { last_tf_arg_s = c; }

/* ---- Sums of mixed arguments --------------------------------------------------- */

EXPORT(int) _testfunc_i_bhilfd(signed char b, short h, int i, long l, float f, double d)
{
    return (int)(b + h + i + l + f + d);
}

EXPORT(float) _testfunc_f_bhilfd(signed char b, short h, int i, long l, float f, double d)
{
    return (float)(b + h + i + l + f + d);
}

EXPORT(double) _testfunc_d_bhilfd(signed char b, short h, int i, long l, float f, double d)
{
    return b + h + i + l + f + d;
}

EXPORT(long double) _testfunc_D_bhilfD(signed char b, short h, int i, long l, float f,
                                       long double d)
{
    return b + h + i + l + f + d;
}

EXPORT(long long) _testfunc_q_bhilfd(signed char b, short h, int i, long l, float f,
                                     double d)
{
    return (long long)(b + h + i + l + f + d);
}

EXPORT(long long) _testfunc_q_bhilfdq(signed char b, short h, int i, long l, float f,
                                      double d, long long q)
{
    return (long long)(b + h + i + l + f + d + q);
}

EXPORT(void) _testfunc_v(int a, int b, int *presult) { *presult = a + b; }

EXPORT(void *) _testfunc_p_p(void *p) { return p; }

EXPORT(char *) _testfunc_c_p_p(int *argcp, char **argv) { return argv[*argcp - 1]; }

EXPORT(int *) _testfunc_ai8(int a[8]) { return a; }

/* ---- Callbacks ------------------------------------------------------------------- */

/* Call func with value, value/2, ... down to 0 and sum the results. */
EXPORT(int) _testfunc_callback_i_if(int value, int (*func)(int))
{
    int sum = 0;
    for (; value != 0; value /= 2) {
        sum += func(value);
    }
    return sum;
}

EXPORT(long long) _testfunc_callback_q_qf(long long value, long long (*func)(long long))
{
    long long sum = 0;
    for (; value != 0; value /= 2) {
        sum += func(value);
    }
    return sum;
}

EXPORT(int) _testfunc_callback_with_pointer(int (*func)(int *))
{
    static int numbers[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
    return func(numbers);
}

EXPORT(int) _testfunc_cbk_reg_int(int a, int b, int c, int d, int e,
                                  int (*func)(int, int, int, int, int))
{
    return func(a * a, b * b, c * c, d * d, e * e);
}

EXPORT(double) _testfunc_cbk_reg_double(double a, double b, double c, double d, double e,
                                        double (*func)(double, double, double, double,
                                                       double))
{
    return func(a * a, b * b, c * c, d * d, e * e);
}

typedef struct {
    unsigned long first, second, third;
} three_longs;

EXPORT(void) _testfunc_cbk_large_struct(three_longs in, void (*func)(three_longs))
{
    func(in);
}

/* The midpoint rule over nstep slices. */
EXPORT(double) integrate(double a, double b, double (*f)(double), long nstep)
{
    double width = (b - a) / (double)nstep, sum = 0.0;
    for (long k = 0; k < nstep; k++) {
        sum += f(a + (k + 0.5) * width);
    }
    return sum * width;
}

/* ---- Structures by value ----------------------------------------------------------- */

typedef struct {
    int x, y;
} point;

EXPORT(int) _testfunc_byval(point in, point *pout)
{
    if (pout != NULL) {
        *pout = in;
    }
    return in.x + in.y;
}

typedef struct {
    short x, y;
} two_shorts;

EXPORT(two_shorts) ret_2h_func(two_shorts in)
{
    in.x *= 2;
    in.y *= 3;
    return in;
}

typedef struct {
    int v[8];
} eight_ints;

EXPORT(eight_ints) ret_8i_func(eight_ints in)
{
    for (int k = 0; k < 8; k++) {
        in.v[k] *= k + 2;
    }
    return in;
}

/* Structures passed by value: the callee changes its copy only. */
EXPORT(void) _testfunc_large_struct_update_value(three_longs in)
{
    in.first = in.second = in.third = 0x0badf00d;
    (void)in;
}

typedef struct {
    unsigned long first, second;
} two_longs;

EXPORT(two_longs) last_tfrsuv_arg = {0, 0};

EXPORT(void) _testfunc_reg_struct_update_value(two_longs in)
{
    last_tfrsuv_arg = in;
    in.first = in.second = 0x0badf00d;
    (void)in;
}

typedef struct {
    unsigned char data[16];
} sixteen_bytes;

EXPORT(int) _testfunc_array_in_struct1(sixteen_bytes in)
{
    int sum = 0;
    for (int k = 0; k < 16; k++) {
        sum += in.data[k];
    }
    memset(in.data, 0, sizeof(in.data));
    return sum;
}

typedef struct {
    double data[2];
} two_doubles;

EXPORT(double) _testfunc_array_in_struct2(two_doubles in)
{
    double sum = in.data[0] + in.data[1];
    in.data[0] = in.data[1] = 0.0;
    return sum;
}

typedef struct {
    float data[2];
    float more_data[2];
} four_floats;

EXPORT(double) _testfunc_array_in_struct2a(four_floats in)
{
    double sum = (double)in.data[0] + in.data[1] + in.more_data[0] + in.more_data[1];
    memset(&in, 0, sizeof(in));
    return sum;
}

/* ---- Bitfields ------------------------------------------------------------------ */

struct bits {
    signed int A : 1, B : 2, C : 3, D : 4, E : 5, F : 6, G : 7, H : 8, I : 9;
    signed short M : 1, N : 2, O : 3, P : 4, Q : 5, R : 6, S : 7;
};

EXPORT(long long) unpack_bitfields(struct bits *b, char name)
{
    switch (name) {
    case 'A': return b->A;
    case 'B': return b->B;
    case 'C': return b->C;
    case 'D': return b->D;
    case 'E': return b->E;
    case 'F': return b->F;
    case 'G': return b->G;
    case 'H': return b->H;
    case 'I': return b->I;
    case 'M': return b->M;
    case 'N': return b->N;
    case 'O': return b->O;
    case 'P': return b->P;
    case 'Q': return b->Q;
    case 'R': return b->R;
    case 'S': return b->S;
    }
    return 999;
}

/* ---- Thin wrappers of libc ------------------------------------------------------- */

EXPORT(double) my_sqrt(double x) { return sqrt(x); }

EXPORT(void) my_qsort(void *base, size_t n, size_t size, int (*cmp)(const void *,
                                                                     const void *))
{
    qsort(base, n, size, cmp);
}

EXPORT(char *) my_strchr(const char *s, int c) { return strchr(s, c); }

EXPORT(char *) my_strtok(char *s, const char *delim) { return strtok(s, delim); }

EXPORT(char *) my_strdup(const char *s) { return strdup(s); }

EXPORT(void) my_free(void *p) { free(p); }

EXPORT(wchar_t *) my_wcsdup(const wchar_t *s)
{
    size_t n = wcslen(s) + 1;
    wchar_t *copy = malloc(n * sizeof(wchar_t));
    if (copy != NULL) {
        memcpy(copy, s, n * sizeof(wchar_t));
    }
    return copy;
}

EXPORT(size_t) my_wcslen(const wchar_t *s) { return wcslen(s); }

typedef char *(*strchr_fn)(const char *, int);

EXPORT(strchr_fn) get_strchr(void) { return my_strchr; }

EXPORT(int) an_integer = 42;

EXPORT(int) get_an_integer(void) { return an_integer; }

/* ---- A rectangle and a point by value and by reference -------------------------
   test_win32's Structures test reads the corners from the globals, builds a
   rect_l from them and passes it (and a point inside it) every way the
   calling convention allows; rect_returned gives back the argument chosen
   by `which` when every argument arrived intact, a zeroed rect otherwise. */

typedef struct {
    long left, top, right, bottom;
} rect_l;

typedef struct {
    long x, y;
} point_l;

EXPORT(long) left = 10;
EXPORT(long) top = 20;
EXPORT(long) right = 30;
EXPORT(long) bottom = 40;

static int
rect_is_the_globals(const rect_l *r)
{
    return r != NULL && r->left == left && r->top == top && r->right == right &&
           r->bottom == bottom;
}

static int
point_is_inside(const rect_l *r, point_l p)
{
    return r->left <= p.x && p.x <= r->right && r->top <= p.y && p.y <= r->bottom;
}

EXPORT(int) PointInRect(rect_l *r, point_l p)
{
    return r != NULL && point_is_inside(r, p);
}

EXPORT(rect_l) ReturnRect(int which, rect_l a, rect_l *b, point_l p, rect_l c, rect_l *d,
                          point_l q, rect_l e)
{
    rect_l zero = {0, 0, 0, 0};
    const rect_l *all[] = {&a, b, &c, d, &e};
    for (size_t k = 0; k < sizeof all / sizeof all[0]; k++) {
        if (!rect_is_the_globals(all[k])) {
            return zero;
        }
    }
    if (!point_is_inside(&a, p) || !point_is_inside(&a, q) || which < 0 || which > 4) {
        return zero;
    }
    return *all[which];
}

/* ---- Calls that need the interpreter (loaded with PyDLL) -------------------------- */

EXPORT(int) _testfunc_pylist_append(PyObject *list, PyObject *item)
{
    return PyList_Append(list, item);
}

/* ---- The Python module ---------------------------------------------------------- */

static struct PyModuleDef ctypes_test_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_ctypes_test",
    .m_doc = "C functions for the ctypes tests to call.",
    .m_size = -1,
};

PyMODINIT_FUNC
PyInit__ctypes_test(void)
{
    return PyModule_Create(&ctypes_test_module);
}
