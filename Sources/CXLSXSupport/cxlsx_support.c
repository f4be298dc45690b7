#include "cxlsx_support.h"
#include "cxlsx_internal.h"

#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/xmlerror.h>
#include <libxml/globals.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

struct cx_xml_parser {
    cx_common common;
    void *user;
    cx_start_element_fn start;
    cx_end_element_fn end;
    cx_characters_fn characters;
};

// Records the first error; the parse ends when the chunk being fed returns.
static void cx_record(cx_common *p, const char *message, int line) {
    if (p->failed) return;
    p->failed = 1;
    p->error_line = line;
    snprintf(p->error, sizeof p->error, "%s", message);
}

void cx_fail(cx_common *p, const char *message, int line) {
    if (p->failed) return;
    cx_record(p, message, line);
    xmlStopParser(p->context);
}

static void cx_refuse(cx_common *p, const char *message, int line) {
    if (p->failed) return;
    p->refusal = 1;
    cx_fail(p, message, line);
}

static void on_start(void *ctx, const xmlChar *local_name, const xmlChar *prefix, const xmlChar *uri,
                     int namespace_count, const xmlChar **namespaces, int attribute_count, int defaulted,
                     const xmlChar **attributes) {
    (void)prefix; (void)namespace_count; (void)namespaces; (void)defaulted;
    cx_xml_parser *p = (cx_xml_parser *)((xmlParserCtxtPtr)ctx)->_private;
    if (p->common.failed) return;
    p->start(p->user, (const char *)local_name, (const char *)uri, attribute_count, (const char *const *)attributes);
}

static void on_end(void *ctx, const xmlChar *local_name, const xmlChar *prefix, const xmlChar *uri) {
    (void)prefix; (void)uri;
    cx_xml_parser *p = (cx_xml_parser *)((xmlParserCtxtPtr)ctx)->_private;
    if (p->common.failed) return;
    p->end(p->user, (const char *)local_name);
}

static void on_characters(void *ctx, const xmlChar *text, int length) {
    cx_xml_parser *p = (cx_xml_parser *)((xmlParserCtxtPtr)ctx)->_private;
    if (p->common.failed) return;
    p->characters(p->user, (const char *)text, length);
}

// An OOXML part never has a DTD; refusing it at `<!DOCTYPE` stops entity declarations (billion
// laughs) and external entities before libxml2 reads them.
static void on_internal_subset(void *ctx, const xmlChar *name, const xmlChar *external_id, const xmlChar *system_id) {
    (void)name; (void)external_id; (void)system_id;
    xmlParserCtxtPtr c = (xmlParserCtxtPtr)ctx;
    cx_refuse((cx_common *)c->_private, "a DTD (<!DOCTYPE>) is not allowed in a workbook part", xmlSAX2GetLineNumber(ctx));
}

static void on_entity_decl(void *ctx, const xmlChar *name, int type, const xmlChar *public_id, const xmlChar *system_id,
                           xmlChar *content) {
    (void)name; (void)type; (void)public_id; (void)system_id; (void)content;
    xmlParserCtxtPtr c = (xmlParserCtxtPtr)ctx;
    cx_refuse((cx_common *)c->_private, "an entity declaration is not allowed in a workbook part", xmlSAX2GetLineNumber(ctx));
}

static xmlEntityPtr on_get_entity(void *ctx, const xmlChar *name) {
    (void)name;
    xmlParserCtxtPtr c = (xmlParserCtxtPtr)ctx;
    cx_refuse((cx_common *)c->_private, "an entity reference other than &amp; &lt; &gt; &quot; &apos; is not allowed",
              xmlSAX2GetLineNumber(ctx));
    return NULL;
}

static void on_structured_error(void *user, xmlErrorPtr error) {
    xmlParserCtxtPtr c = (xmlParserCtxtPtr)user;
    if (c == NULL || error == NULL || error->level < XML_ERR_ERROR) return;
    cx_common *p = (cx_common *)c->_private;
    char message[240];
    snprintf(message, sizeof message, "%s", error->message ? error->message : "malformed XML");
    size_t n = strlen(message);
    while (n > 0 && (message[n - 1] == '\n' || message[n - 1] == ' ')) message[--n] = 0;
    // Not stopped from here: libxml2 reports some errors (an encoding it cannot convert) from
    // inside its input handling, where halting the parser under it crashes libxml2 2.9. A fatal
    // error ends the parse by itself; the feed stops at the recorded error when the chunk returns.
    cx_record(p, message, error->line);
}

// A push parser context with the safety callbacks and the given element and text callbacks.
xmlParserCtxtPtr cx_create_context(void *owner, startElementNsSAX2Func start, endElementNsSAX2Func end,
                                          charactersSAXFunc characters) {
    xmlSAXHandler sax;
    memset(&sax, 0, sizeof sax);
    sax.initialized = XML_SAX2_MAGIC;
    sax.startElementNs = start;
    sax.endElementNs = end;
    sax.characters = characters;
    sax.cdataBlock = characters;
    sax.internalSubset = on_internal_subset;
    sax.externalSubset = on_internal_subset;
    sax.entityDecl = on_entity_decl;
    sax.getEntity = on_get_entity;
    sax.getParameterEntity = on_get_entity;
    sax.serror = on_structured_error;

    xmlParserCtxtPtr context = xmlCreatePushParserCtxt(&sax, NULL, NULL, 0, NULL);
    if (context == NULL) return NULL;
    context->_private = owner;
    // No network, no DTD loading, no entity substitution (XML_PARSE_NOENT is never set).
    xmlCtxtUseOptions(context, XML_PARSE_NONET | XML_PARSE_NOCDATA | XML_PARSE_COMPACT);
    context->replaceEntities = 0;
    context->loadsubset = 0;
    context->validate = 0;
    return context;
}

// libxml2 reports some errors without a parser context (an encoding it cannot convert, say)
// through its per-thread handlers, whose default prints to standard error. While a chunk is
// parsed they go to this part's handler instead, so they become its located error.
static void on_global_error(void *user, xmlErrorPtr error) {
    xmlParserCtxtPtr c = (xmlParserCtxtPtr)user;
    if (c == NULL || error == NULL) return;
    // Such errors carry no line: the parser's is where it stands.
    if (error->line == 0 && c->input != NULL) error->line = c->input->line;
    on_structured_error(user, error);
}

static void cx_silent_generic(void *user, const char *message, ...) {
    (void)user; (void)message;
}

int cx_feed(cx_common *p, const char *bytes, int length, int is_last) {
    if (p->failed) return 1;
    xmlStructuredErrorFunc previous = xmlStructuredError;
    void *previous_context = xmlStructuredErrorContext;
    xmlGenericErrorFunc previous_generic = xmlGenericError;
    void *previous_generic_context = xmlGenericErrorContext;
    xmlSetStructuredErrorFunc(p->context, on_global_error);
    xmlSetGenericErrorFunc(NULL, cx_silent_generic);
    int status = xmlParseChunk(p->context, bytes, length, is_last);
    xmlSetStructuredErrorFunc(previous_context, previous);
    xmlSetGenericErrorFunc(previous_generic_context, previous_generic);
    if (p->failed) return 1;
    if (status != 0) {
        const xmlError *e = xmlCtxtGetLastError(p->context);
        cx_fail(p, e && e->message ? e->message : "malformed XML", e ? e->line : 0);
        return 1;
    }
    return 0;
}

void cx_free_context(xmlParserCtxtPtr context) {
    if (context == NULL) return;
    if (context->myDoc != NULL) xmlFreeDoc(context->myDoc);
    xmlFreeParserCtxt(context);
}

cx_xml_parser *cx_xml_parser_create(void *context, cx_start_element_fn start, cx_end_element_fn end,
                                    cx_characters_fn characters) {
    cx_xml_parser *p = calloc(1, sizeof *p);
    if (p == NULL) return NULL;
    p->user = context;
    p->start = start;
    p->end = end;
    p->characters = characters;
    p->common.context = cx_create_context(p, on_start, on_end, on_characters);
    if (p->common.context == NULL) {
        free(p);
        return NULL;
    }
    return p;
}

int cx_xml_parser_feed(cx_xml_parser *p, const char *bytes, int length, int is_last) {
    return cx_feed(&p->common, bytes, length, is_last);
}

void cx_xml_parser_stop(cx_xml_parser *p) {
    if (p->common.failed) return;
    p->common.failed = 1;
    xmlStopParser(p->common.context);
}

const char *cx_xml_parser_error_message(const cx_xml_parser *p) { return p->common.error; }

int cx_xml_parser_error_line(const cx_xml_parser *p) { return p->common.error_line; }

int cx_xml_parser_error_is_refusal(const cx_xml_parser *p) { return p->common.refusal; }

void cx_xml_parser_free(cx_xml_parser *p) {
    if (p == NULL) return;
    cx_free_context(p->common.context);
    free(p);
}

uint32_t cx_crc32(uint32_t crc, const unsigned char *bytes, size_t length) {
    while (length > 0) {
        uInt chunk = length > 0x40000000u ? 0x40000000u : (uInt)length;
        crc = (uint32_t)crc32(crc, bytes, chunk);
        bytes += chunk;
        length -= chunk;
    }
    return crc;
}

struct cx_inflater {
    z_stream stream;
};

cx_inflater *cx_inflater_new(void) {
    cx_inflater *inflater = calloc(1, sizeof(cx_inflater));
    if (inflater == NULL) return NULL;
    // Negative window bits: raw deflate data, without a zlib header (as a ZIP entry holds it).
    if (inflateInit2(&inflater->stream, -MAX_WBITS) != Z_OK) {
        free(inflater);
        return NULL;
    }
    return inflater;
}

void cx_inflater_free(cx_inflater *inflater) {
    if (inflater == NULL) return;
    inflateEnd(&inflater->stream);
    free(inflater);
}

int cx_inflate(cx_inflater *inflater, const unsigned char *input, size_t input_length, size_t *input_used,
               unsigned char *output, size_t output_length, size_t *output_made) {
    z_stream *z = &inflater->stream;
    uInt in = input_length > 0x40000000u ? 0x40000000u : (uInt)input_length;
    uInt out = output_length > 0x40000000u ? 0x40000000u : (uInt)output_length;
    z->next_in = (Bytef *)input;
    z->avail_in = in;
    z->next_out = output;
    z->avail_out = out;
    int rc = inflate(z, Z_NO_FLUSH);
    *input_used = in - z->avail_in;
    *output_made = out - z->avail_out;
    if (rc == Z_STREAM_END) return 1;
    if (rc == Z_OK || rc == Z_BUF_ERROR) return 0;
    return -1;
}
