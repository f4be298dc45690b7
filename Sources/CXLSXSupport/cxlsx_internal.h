// What the two parsers of this target share: not part of its public header.
#ifndef CXLSX_INTERNAL_H
#define CXLSX_INTERNAL_H

#include <libxml/parser.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

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

/// Grows `*buffer` of `*capacity` elements of `size` bytes (doubling, from 256) to hold `needed`;
/// 0 when out of memory or past what 32-bit counts hold.
static inline int cx_grow(void **buffer, uint32_t *capacity, uint64_t needed, size_t size) {
    if (needed <= *capacity) return 1;
    if (needed > 0xFFFFFFF0u / size) return 0;
    uint64_t c = *capacity ? *capacity : 256;
    while (c < needed) c *= 2;
    if (c > 0xFFFFFFF0u / size) c = 0xFFFFFFF0u / size;
    void *grown = realloc(*buffer, (size_t)c * size);
    if (grown == NULL) return 0;
    *buffer = grown;
    *capacity = (uint32_t)c;
    return 1;
}

/// Writes scalar `v` (at most U+10FFFF) as UTF-8 at `out`; returns its length.
static inline uint32_t cx_put_utf8(unsigned char *out, uint32_t v) {
    if (v < 0x80) { out[0] = (unsigned char)v; return 1; }
    if (v < 0x800) { out[0] = (unsigned char)(0xC0 | v >> 6); out[1] = (unsigned char)(0x80 | (v & 0x3F)); return 2; }
    if (v < 0x10000) {
        out[0] = (unsigned char)(0xE0 | v >> 12); out[1] = (unsigned char)(0x80 | (v >> 6 & 0x3F));
        out[2] = (unsigned char)(0x80 | (v & 0x3F));
        return 3;
    }
    out[0] = (unsigned char)(0xF0 | v >> 18); out[1] = (unsigned char)(0x80 | (v >> 12 & 0x3F));
    out[2] = (unsigned char)(0x80 | (v >> 6 & 0x3F)); out[3] = (unsigned char)(0x80 | (v & 0x3F));
    return 4;
}

// The worksheet scanner (sheet_scanner.c): reads a sheet without libxml2 while it keeps to the
// subset spreadsheet writers produce, and gives up at anything else.
enum { CX_SCAN_OK = 0, CX_SCAN_BAIL = 1, CX_SCAN_HANDLER = 2, CX_SCAN_INCOMPLETE = 3 };
#define CX_SCAN_MAX_DEPTH 64
#define CX_SCAN_MAX_NAME 256
#define CX_SCAN_MAX_ATTRIBUTES 32
#define CX_SCAN_MAX_NAMESPACES 64
// Bytes of one unfinished token (a text, a tag) kept for the next chunk; past it, libxml2 reads.
#define CX_SCAN_MAX_CARRY (4u << 20)

/// Where the scanner's events go: libxml2's SAX2 element events, with local names, attribute
/// quintuples (local name, prefix and URI NULL, value start and end) and text.
typedef struct {
    void *owner;
    void (*start)(void *owner, const unsigned char *local, int attribute_count, const unsigned char **attributes);
    void (*end)(void *owner, const unsigned char *local);
    void (*characters)(void *owner, const unsigned char *text, int length);
    /// Set by a handler that failed or stopped: the scan returns CX_SCAN_HANDLER.
    const int *failed;
} cx_scan_events;

typedef struct {
    unsigned char *carry;
    uint32_t carry_length, carry_capacity;
    unsigned char *scratch;
    uint32_t scratch_capacity;
    int started, root_seen, depth;
    /// The open elements' names as written (NUL-terminated; the local name from `open_local`).
    unsigned char open[CX_SCAN_MAX_DEPTH][CX_SCAN_MAX_NAME + 1];
    uint16_t open_length[CX_SCAN_MAX_DEPTH];
    uint16_t open_local[CX_SCAN_MAX_DEPTH];
    struct { uint16_t offset, length, depth; } ns[CX_SCAN_MAX_NAMESPACES];
    int ns_count;
    size_t prefixes_length;
    unsigned char prefixes[2048];
    unsigned char attribute_names[CX_SCAN_MAX_ATTRIBUTES][CX_SCAN_MAX_NAME + 1];
} cx_scanner;

void cx_scanner_init(cx_scanner *scanner);
void cx_scanner_free(cx_scanner *scanner);
/// Scans the next bytes: CX_SCAN_OK, CX_SCAN_BAIL (libxml2 must read the part), or CX_SCAN_HANDLER.
int cx_scanner_feed(cx_scanner *scanner, const unsigned char *bytes, size_t length, int is_last, const cx_scan_events *events);

#endif
