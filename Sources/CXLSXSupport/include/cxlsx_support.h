// The XLSX reader's window onto libxml2 and zlib: an API of our own, free of libxml2's and ICU's
// headers, because importing libxml2 into Swift clashes with the toolchain's ICU module in debug
// builds (see swift-linux-notes.md).
#ifndef CXLSX_SUPPORT_H
#define CXLSX_SUPPORT_H

#include <stddef.h>
#include <stdint.h>

/// Called at each start tag. `attributes` holds `attribute_count` groups of five pointers:
/// local name, prefix, namespace URI, value start, value end (the value is not NUL-terminated).
typedef void (*cx_start_element_fn)(void *context, const char *local_name, const char *namespace_uri,
                                    int attribute_count, const char *const *attributes);
typedef void (*cx_end_element_fn)(void *context, const char *local_name);
typedef void (*cx_characters_fn)(void *context, const char *text, int length);

typedef struct cx_xml_parser cx_xml_parser;

/// A SAX2 push parser that refuses DTDs (no entity expansion, no external entities, no network).
/// Returns NULL when out of memory.
cx_xml_parser *cx_xml_parser_create(void *context, cx_start_element_fn start, cx_end_element_fn end,
                                    cx_characters_fn characters);
/// Feeds the next bytes; `is_last` ends the document. Returns 0, or non-zero once the document is
/// found malformed or the parser was stopped.
int cx_xml_parser_feed(cx_xml_parser *parser, const char *bytes, int length, int is_last);
/// Stops parsing from inside a callback; the next feed returns non-zero.
void cx_xml_parser_stop(cx_xml_parser *parser);
/// The first error's message (empty when none), and its line.
const char *cx_xml_parser_error_message(const cx_xml_parser *parser);
int cx_xml_parser_error_line(const cx_xml_parser *parser);
void cx_xml_parser_free(cx_xml_parser *parser);

/// zlib's CRC-32 over `length` bytes, continuing from `crc` (0 to start).
uint32_t cx_crc32(uint32_t crc, const unsigned char *bytes, size_t length);

#endif
