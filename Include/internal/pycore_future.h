/* `from __future__ import ...` handling: the features named at the top of
   a module, found before compilation. */
#ifndef Py_INTERNAL_FUTURE_H
#define Py_INTERNAL_FUTURE_H
#ifndef Py_BUILD_CORE
#  error "this header requires Py_BUILD_CORE define"
#endif

#include "pycore_ast.h"

typedef struct _PyFutureFeatures {
    int ff_features;        /* CO_FUTURE_... flags */
    int ff_lineno;          /* line of the last future statement */
    int ff_location_col;    /* unused by callers; kept for errors */
} PyFutureFeatures;

#define FUTURE_NESTED_SCOPES "nested_scopes"
#define FUTURE_GENERATORS "generators"
#define FUTURE_DIVISION "division"
#define FUTURE_ABSOLUTE_IMPORT "absolute_import"
#define FUTURE_WITH_STATEMENT "with_statement"
#define FUTURE_PRINT_FUNCTION "print_function"
#define FUTURE_UNICODE_LITERALS "unicode_literals"
#define FUTURE_BARRY_AS_BDFL "barry_as_FLUFL"
#define FUTURE_GENERATOR_STOP "generator_stop"
#define FUTURE_ANNOTATIONS "annotations"

/* Scan the module's leading future imports into *ff (zeroed first).
   Returns 0, or -1 with SyntaxError set. */
extern int _PyFuture_FromAST(mod_ty mod, PyObject *filename, PyFutureFeatures *ff);

#endif /* !Py_INTERNAL_FUTURE_H */
