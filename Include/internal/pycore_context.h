/* Internal interface of Python/context.c. */
#ifndef Py_INTERNAL_CONTEXT_H
#define Py_INTERNAL_CONTEXT_H
#ifndef Py_BUILD_CORE
#  error "this header requires Py_BUILD_CORE define"
#endif

/* Ready Context, ContextVar and Token (and Token.MISSING); idempotent. */
PyAPI_FUNC(int) _PyContext_InitTypes(void);

#endif /* !Py_INTERNAL_CONTEXT_H */
