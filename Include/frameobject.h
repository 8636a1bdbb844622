/* Kept for source compatibility: the frame API is in pyframe.h. */
#ifndef Py_FRAMEOBJECT_H
#define Py_FRAMEOBJECT_H
#include "Python.h"
#endif
