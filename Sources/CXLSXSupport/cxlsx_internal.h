// What the two parsers of this target share: not part of its public header.
#ifndef CXLSX_INTERNAL_H
#define CXLSX_INTERNAL_H

#include <libxml/parser.h>

/// First in each parser, so the safety callbacks serve both.
typedef struct {
    xmlParserCtxtPtr context;
    int failed;
    int refusal;
    int error_line;
    char error[256];
} cx_common;

/// A push parser context with the safety callbacks (no DTD, no entities) and the given handlers.
xmlParserCtxtPtr cx_create_context(void *owner, startElementNsSAX2Func start, endElementNsSAX2Func end,
                                   charactersSAXFunc characters);
/// Feeds bytes; non-zero once the document failed or was stopped.
int cx_feed(cx_common *p, const char *bytes, int length, int is_last);
void cx_free_context(xmlParserCtxtPtr context);
/// Records the first error and stops the parser.
void cx_fail(cx_common *p, const char *message, int line);

#endif
