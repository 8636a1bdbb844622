/* Entry points of the parser: source text to AST.

   Both functions return the module node, allocated in `arena`, or NULL
   with an exception set (SyntaxError, IndentationError or TabError for bad
   source; MemoryError; RecursionError for input nested too deeply).

   `filename` is a str used in error messages (NULL means "<string>").
   `mode` is Py_file_input, Py_eval_input, Py_single_input or
   Py_func_type_input and selects Module, Expression, Interactive or
   FunctionType as the result.  `flags` may be NULL; PyCF_IGNORE_COOKIE in
   flags->cf_flags means the text is already UTF-8 and any coding
   declaration is ignored. */

#ifndef Py_INTERNAL_PARSER_H
#define Py_INTERNAL_PARSER_H
#ifdef __cplusplus
extern "C" {
#endif

#ifndef Py_BUILD_CORE
#  error "this header requires Py_BUILD_CORE define"
#endif

#include <stdio.h>
#include "pycore_ast.h"

/* Parse a NUL-terminated string.  Without PyCF_IGNORE_COOKIE a BOM or a
   PEP 263 coding declaration selects the text's encoding. */
extern mod_ty _PyParser_ASTFromString(const char *str, PyObject *filename,
                                      int mode, PyCompilerFlags *flags,
                                      PyArena *arena);

/* Parse the contents of an open file.  `enc` forces an encoding when the
   file declares none (may be NULL).  When ps1 or ps2 is not NULL the file
   is read line by line as the parser needs input, writing ps1 before the
   first line and ps2 before continuation lines to stderr (interactive
   mode).  On failure *errcode (if errcode is not NULL) is set to E_EOF
   (11) when interactive input ended before any statement, otherwise to
   E_ERROR (17). */
extern mod_ty _PyParser_ASTFromFile(FILE *fp, PyObject *filename,
                                    const char *enc, int mode,
                                    const char *ps1, const char *ps2,
                                    PyCompilerFlags *flags, int *errcode,
                                    PyArena *arena);

#ifdef __cplusplus
}
#endif
#endif /* !Py_INTERNAL_PARSER_H */
