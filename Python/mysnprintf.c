/* PyOS_snprintf and PyOS_vsnprintf: the C library's formatted print into a
   buffer, with two promises the C API makes on every platform: the result
   is always NUL-terminated (even when the buffer is too small or the
   format fails), and a zero-size buffer is never written. */

#include "Python.h"
#include <stdarg.h>
#include <stdio.h>

int
PyOS_vsnprintf(char *str, size_t size, const char *format, va_list va)
{
    if (size == 0) {
        /* nothing may be written; still report the length C would need */
        return vsnprintf(NULL, 0, format, va);
    }
    int written = vsnprintf(str, size, format, va);
    if (written < 0) {
        str[0] = '\0';
    }
    str[size - 1] = '\0';
    return written;
}

int
PyOS_snprintf(char *str, size_t size, const char *format, ...)
{
    va_list va;
    va_start(va, format);
    int written = PyOS_vsnprintf(str, size, format, va);
    va_end(va);
    return written;
}
