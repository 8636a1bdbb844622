/* Shared declarations of the pyexpat module (Modules/pyexpat/).

   The module is split by concept:
     module.c     the module object, its submodules, ParserCreate and the
                  ExpatError factory;
     xmlparser.c  the xmlparser type: methods and attributes;
     callbacks.c  the C functions expat calls, which turn each event into a
                  call of the Python handler, plus character-data buffering.
   See Doc/xml.md for the design. */

#ifndef PYEXPAT_INTERNAL_H
#define PYEXPAT_INTERNAL_H

#include "Python.h"
#include <expat.h>

/* The handler slots, in the order their attributes are listed.  The enum
   and ExpatHandlerNames in callbacks.c must stay in step. */
typedef enum {
    EH_START_ELEMENT,
    EH_END_ELEMENT,
    EH_PROCESSING_INSTRUCTION,
    EH_CHARACTER_DATA,
    EH_UNPARSED_ENTITY_DECL,
    EH_NOTATION_DECL,
    EH_START_NAMESPACE_DECL,
    EH_END_NAMESPACE_DECL,
    EH_COMMENT,
    EH_START_CDATA_SECTION,
    EH_END_CDATA_SECTION,
    EH_DEFAULT,
    EH_DEFAULT_EXPAND,
    EH_NOT_STANDALONE,
    EH_EXTERNAL_ENTITY_REF,
    EH_START_DOCTYPE_DECL,
    EH_END_DOCTYPE_DECL,
    EH_ENTITY_DECL,
    EH_XML_DECL,
    EH_ELEMENT_DECL,
    EH_ATTLIST_DECL,
    EH_SKIPPED_ENTITY,
    EH_COUNT
} ExpatHandlerSlot;

typedef struct {
    PyObject_HEAD
    XML_Parser parser;
    PyObject *handlers[EH_COUNT];   /* NULL where no handler is set */
    PyObject *intern;               /* dict of interned names, or NULL */
    PyObject *parent;               /* for an external-entity parser: the
                                       parser it was made from, which expat
                                       needs to outlive it */
    char *text;                     /* buffer_text storage, NULL when off */
    int text_size;                  /* buffer_size */
    int text_used;                  /* buffer_used */
    int ordered_attributes;
    int specified_attributes;
    int namespace_prefixes;
    int handler_failed;             /* a handler raised: stop delivering */
    int parsing;                    /* inside Parse/ParseFile */
    int reparse_deferral;           /* as last set (expat >= 2.6 honours it) */
} ExpatParserObject;

extern PyTypeObject _PyExpat_ParserType;
extern const char *const _PyExpat_HandlerNames[EH_COUNT];

/* module.c */
PyObject *_PyExpat_SetError(ExpatParserObject *self, enum XML_Error code);
PyObject *_PyExpat_NewParser(const char *encoding, const char *separator,
                             PyObject *intern);

/* xmlparser.c */
void _PyExpat_FillHandlerNames(void);

/* callbacks.c */
void _PyExpat_InstallHandler(ExpatParserObject *self, int slot, int on);
void _PyExpat_InstallFixedHandlers(ExpatParserObject *self);
int _PyExpat_FlushText(ExpatParserObject *self);
void _PyExpat_DropHandlers(ExpatParserObject *self);

/* The default character buffer size (buffer_size). */
#define EXPAT_TEXT_BUFFER_DEFAULT 8192

#endif /* PYEXPAT_INTERNAL_H */
