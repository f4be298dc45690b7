// The worksheet reader's hot path: SAX2 callbacks that assemble rows in C, so that a sheet of
// millions of cells costs one call into Swift per batch of rows, not several per cell.
#include "cxlsx_support.h"
#include "cxlsx_internal.h"

#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct cx_sheet_parser {
    cx_common common;
    void *user;
    cx_batch_fn on_batch;
    uint32_t shared_count;
    uint32_t rows_per_batch;
    int stopped;

    cx_row *rows;
    uint32_t row_count, row_capacity;
    cx_cell *cells;
    uint32_t cell_count, cell_capacity;
    unsigned char *bytes;
    uint32_t byte_count, byte_capacity;

    int in_row;
    int64_t row_number;
    int32_t next_column;
    uint32_t row_cells_start;
    int in_cell;
    int32_t cell_column;
    int cell_type;
    int32_t cell_style;
    uint32_t value_start;
    int has_value;
    int collecting;
    int in_inline;
    int phonetic_depth;
    int seen_root;

    // Reading with the scanner (1), or with libxml2 (0: from the start, or again after the
    // scanner gave up, skipping the rows it had handed over).
    int fast;
    cx_scanner scanner;
    uint64_t delivered_rows;
    uint64_t skip_rows;
    uint32_t row_bytes_start;
};

#define CX_MAX_CELL_BYTES (1u << 20)

static cx_sheet_parser *owner(void *ctx) { return (cx_sheet_parser *)((xmlParserCtxtPtr)ctx)->_private; }

static void sheet_fail(cx_sheet_parser *p, const char *format, const char *text, int text_length, long long row) {
    char message[256];
    snprintf(message, sizeof message, format, text_length > 40 ? 40 : text_length, text, row);
    cx_fail(&p->common, message, xmlSAX2GetLineNumber(p->common.context));
}

// The value of attribute `name` (a one- or two-letter local name) among libxml2's quintuples.
static const xmlChar *attribute(const xmlChar **attributes, int count, const char *name, int *length) {
    for (int i = 0; i < count; i++) {
        const xmlChar *local = attributes[i * 5];
        if (strcmp((const char *)local, name) == 0) {
            *length = (int)(attributes[i * 5 + 4] - attributes[i * 5 + 3]);
            return attributes[i * 5 + 3];
        }
    }
    return NULL;
}

static int parse_uint(const xmlChar *text, int length, int64_t *value) {
    if (length <= 0 || length > 12) return 0;
    int64_t v = 0;
    for (int i = 0; i < length; i++) {
        unsigned d = (unsigned)(text[i] - '0');
        if (d > 9) return 0;
        v = v * 10 + d;
    }
    *value = v;
    return 1;
}

// The 0-based column of a reference like AB12 (letters A to XFD, a row number from 1), or -1.
static int32_t parse_column(const xmlChar *ref, int length) {
    int32_t column = 0;
    int i = 0;
    while (i < length) {
        unsigned c = ref[i] | 0x20;
        if (c < 'a' || c > 'z') break;
        if (++i > 3) return -1;
        column = column * 26 + (int32_t)(c - 'a' + 1);
    }
    if (i == 0 || column > 16384 || i == length) return -1;
    int64_t row = 0;
    for (; i < length; i++) {
        if ((unsigned)(ref[i] - '0') > 9) return -1;
        row = row * 10 + (ref[i] - '0');
        if (row > 1048576) return -1;
    }
    if (row < 1) return -1;
    return column - 1;
}

static void flush(cx_sheet_parser *p) {
    if (p->row_count == 0 || p->stopped) return;
    cx_sheet_batch batch = { p->rows, p->row_count, p->cells, p->cell_count, p->bytes, p->byte_count };
    p->delivered_rows += p->row_count;
    int more = p->on_batch(p->user, &batch);
    p->row_count = 0;
    p->cell_count = 0;
    p->byte_count = 0;
    if (!more) {
        p->stopped = 1;
        p->common.failed = 1;
        xmlStopParser(p->common.context);
    }
}

uint32_t cx_unescape(unsigned char *b, uint32_t count) {
    if (count < 7 || memchr(b, '_', count) == NULL) return count;
    uint32_t read = 0, write = 0, high = 0;
    while (read < count) {
        unsigned unit = 0;
        int ok = read + 7 <= count && b[read] == '_' && b[read + 1] == 'x' && b[read + 6] == '_';
        for (int k = 2; ok && k < 6; k++) {
            unsigned c = b[read + k], d;
            if (c >= '0' && c <= '9') d = c - '0';
            else if (c >= 'a' && c <= 'f') d = c - 'a' + 10;
            else if (c >= 'A' && c <= 'F') d = c - 'A' + 10;
            else { ok = 0; break; }
            unit = unit << 4 | d;
        }
        if (!ok) {
            if (high) {
                // The high surrogate's low half looked as if it followed but is not an escape:
                // the high half alone is U+FFFD (3 bytes written where its 7 were read).
                write += cx_put_utf8(b + write, 0xFFFD);
                high = 0;
            }
            b[write++] = b[read++];
            continue;
        }
        read += 7;
        unsigned scalar = unit;
        if (unit >= 0xD800 && unit < 0xDC00) {
            // A high surrogate: its low half should follow; alone, it becomes U+FFFD.
            int low_follows = read + 7 <= count && b[read] == '_' && b[read + 1] == 'x' && b[read + 6] == '_' &&
                              (b[read + 2] | 0x20) == 'd' && ((b[read + 3] | 0x20) >= 'c' && (b[read + 3] | 0x20) <= 'f');
            if (low_follows) { high = unit; continue; }
            scalar = 0xFFFD;
        } else if (unit >= 0xDC00 && unit < 0xE000) {
            scalar = high ? 0x10000 + ((high - 0xD800) << 10) + (unit - 0xDC00) : 0xFFFD;
        }
        high = 0;
        write += cx_put_utf8(b + write, scalar);
    }
    return write;
}

static void start_row(cx_sheet_parser *p, const xmlChar **attributes, int count) {
    if (p->in_row) {
        cx_fail(&p->common, "a <row> inside a <row>: not a well-formed worksheet", xmlSAX2GetLineNumber(p->common.context));
        return;
    }
    int length;
    const xmlChar *r = attribute(attributes, count, "r", &length);
    if (r != NULL) {
        int64_t number;
        if (!parse_uint(r, length, &number) || number < 1 || number > 1048576) {
            char message[256];
            snprintf(message, sizeof message, "row number '%.*s' is not a number from 1 to 1048576", length > 40 ? 40 : length, (const char *)r);
            cx_fail(&p->common, message, xmlSAX2GetLineNumber(p->common.context));
            return;
        }
        p->row_number = number;
    } else if (p->row_number >= 1048576) {
        // Rows without `r` count on from the last one; a sheet has 1048576 rows at most.
        cx_fail(&p->common, "a row past row 1048576, the last one a sheet can have", xmlSAX2GetLineNumber(p->common.context));
        return;
    } else {
        p->row_number += 1;
    }
    p->in_row = 1;
    p->next_column = 0;
    p->row_cells_start = p->cell_count;
    p->row_bytes_start = p->byte_count;
}

static void start_cell(cx_sheet_parser *p, const xmlChar **attributes, int count) {
    // One pass over the attributes for r, t and s.
    const xmlChar *r = NULL, *t = NULL, *s = NULL;
    int r_length = 0, t_length = 0, s_length = 0;
    for (int i = 0; i < count; i++) {
        const xmlChar *local = attributes[i * 5];
        if (local[0] == 0 || local[1] != 0) continue;
        int value_length = (int)(attributes[i * 5 + 4] - attributes[i * 5 + 3]);
        switch (local[0]) {
        case 'r': r = attributes[i * 5 + 3]; r_length = value_length; break;
        case 't': t = attributes[i * 5 + 3]; t_length = value_length; break;
        case 's': s = attributes[i * 5 + 3]; s_length = value_length; break;
        default: break;
        }
    }
    int length = r_length;
    if (r != NULL) {
        int32_t column = parse_column(r, length);
        if (column < 0) {
            sheet_fail(p, "cell reference '%.*s' in row %lld is not like A1 to XFD1048576", (const char *)r, length, p->row_number);
            return;
        }
        p->cell_column = column;
    } else {
        if (p->next_column > 16383) {
            char message[160];
            snprintf(message, sizeof message, "row %lld has a cell past column XFD, the last one a sheet can have", (long long)p->row_number);
            cx_fail(&p->common, message, xmlSAX2GetLineNumber(p->common.context));
            return;
        }
        p->cell_column = p->next_column;
    }
    p->cell_type = CX_NUMBER;
    length = t_length;
    if (t != NULL && length > 0) {
        if (length == 1 && t[0] == 's') p->cell_type = CX_SHARED;
        else if (length == 1 && t[0] == 'n') p->cell_type = CX_NUMBER;
        else if (length == 1 && t[0] == 'b') p->cell_type = CX_BOOLEAN;
        else if (length == 1 && t[0] == 'e') p->cell_type = CX_ERROR;
        else if (length == 1 && t[0] == 'd') p->cell_type = CX_ISO_DATE;
        else if (length == 3 && memcmp(t, "str", 3) == 0) p->cell_type = CX_FORMULA_STRING;
        else if (length == 9 && memcmp(t, "inlineStr", 9) == 0) p->cell_type = CX_INLINE;
        else {
            sheet_fail(p, "cell type '%.*s' in row %lld is not one of s, n, b, e, d, str, inlineStr", (const char *)t, length, p->row_number);
            return;
        }
    }
    p->cell_style = -1;
    int64_t style;
    if (s != NULL && parse_uint(s, s_length, &style) && style < 0x7FFFFFFF) p->cell_style = (int32_t)style;
    p->in_cell = 1;
    p->has_value = 0;
    p->value_start = p->byte_count;
}

static void end_cell(cx_sheet_parser *p) {
    p->in_cell = 0;
    p->in_inline = 0;
    p->collecting = 0;
    p->next_column = p->cell_column + 1;
    if (!p->has_value) {
        p->byte_count = p->value_start;
        return;
    }
    cx_cell cell = { p->cell_column, p->cell_style, p->value_start, p->byte_count - p->value_start, (uint8_t)p->cell_type };
    switch (p->cell_type) {
    case CX_SHARED: {
        int64_t index;
        if (!parse_uint(p->bytes + p->value_start, (int)cell.length, &index) || index >= p->shared_count) {
            char message[256];
            if (p->shared_count == 0)
                snprintf(message, sizeof message, "row %lld refers to shared string '%.*s', but the workbook has no shared strings part",
                         (long long)p->row_number, (int)(cell.length > 40 ? 40 : cell.length), (const char *)(p->bytes + p->value_start));
            else
                snprintf(message, sizeof message, "shared string index '%.*s' in row %lld is not one of the %u shared strings",
                         (int)(cell.length > 40 ? 40 : cell.length), (const char *)(p->bytes + p->value_start),
                         (long long)p->row_number, p->shared_count);
            cx_fail(&p->common, message, xmlSAX2GetLineNumber(p->common.context));
            return;
        }
        p->byte_count = p->value_start;
        cell.offset = (uint32_t)index;
        cell.length = 0;
        break;
    }
    case CX_INLINE:
        cell.length = cx_unescape(p->bytes + p->value_start, cell.length);
        p->byte_count = p->value_start + cell.length;
        if (cell.length == 0) return;
        break;
    case CX_NUMBER:
    case CX_FORMULA_STRING:
        if (cell.length == 0) return;
        break;
    default:
        break;
    }
    if (!cx_grow((void **)&p->cells, &p->cell_capacity, (uint64_t)p->cell_count + 1, sizeof(cx_cell))) {
        cx_fail(&p->common, "out of memory", 0);
        return;
    }
    p->cells[p->cell_count++] = cell;
}

static void end_row(cx_sheet_parser *p) {
    p->in_row = 0;
    if (p->cell_count == p->row_cells_start) return;
    if (p->skip_rows > 0) {
        // Read again by libxml2 after the scanner gave up: this row was handed over already.
        p->skip_rows--;
        p->cell_count = p->row_cells_start;
        p->byte_count = p->row_bytes_start;
        return;
    }
    if (!cx_grow((void **)&p->rows, &p->row_capacity, (uint64_t)p->row_count + 1, sizeof(cx_row))) {
        cx_fail(&p->common, "out of memory", 0);
        return;
    }
    p->rows[p->row_count].number = p->row_number;
    p->rows[p->row_count].cells_end = p->cell_count;
    p->row_count++;
    if (p->row_count >= p->rows_per_batch || p->byte_count >= (1u << 20)) flush(p);
}

// The element and text events, from libxml2 or the scanner alike.
static void sheet_start(void *owner, const xmlChar *name, int attribute_count, const xmlChar **attributes) {
    cx_sheet_parser *p = owner;
    if (p->common.failed) return;
    if (!p->seen_root) {
        p->seen_root = 1;
        if (strcmp((const char *)name, "worksheet") != 0) {
            char message[200];
            snprintf(message, sizeof message, "the part is a <%.60s>, not a <worksheet>", (const char *)name);
            cx_fail(&p->common, message, xmlSAX2GetLineNumber(p->common.context));
            return;
        }
    }
    switch (name[0]) {
    case 'c':
        if (name[1] == 0 && p->in_row) start_cell(p, attributes, attribute_count);
        break;
    case 'v':
        if (name[1] == 0 && p->in_cell) { p->collecting = 1; p->has_value = 1; }
        break;
    case 't':
        if (name[1] == 0 && p->in_inline && p->phonetic_depth == 0) { p->collecting = 1; p->has_value = 1; }
        break;
    case 'i':
        if (name[1] == 's' && name[2] == 0 && p->in_cell) p->in_inline = 1;
        break;
    case 'r':
        if (strcmp((const char *)name, "row") == 0) start_row(p, attributes, attribute_count);
        else if (strcmp((const char *)name, "rPh") == 0) p->phonetic_depth++;
        break;
    default:
        break;
    }
}

static void sheet_end(void *owner, const xmlChar *name) {
    cx_sheet_parser *p = owner;
    if (p->common.failed) return;
    switch (name[0]) {
    case 'c':
        if (name[1] == 0 && p->in_cell) end_cell(p);
        break;
    case 'v':
    case 't':
        if (name[1] == 0) p->collecting = 0;
        break;
    case 'i':
        if (name[1] == 's' && name[2] == 0) p->in_inline = 0;
        break;
    case 'r':
        if (strcmp((const char *)name, "row") == 0) end_row(p);
        else if (strcmp((const char *)name, "rPh") == 0) p->phonetic_depth--;
        break;
    default:
        break;
    }
}

static void sheet_characters(void *owner, const xmlChar *text, int length) {
    cx_sheet_parser *p = owner;
    if (p->common.failed || !p->collecting || length <= 0) return;
    // Excel holds at most 32,767 characters a cell; a megabyte of text in one is not a spreadsheet's.
    if ((uint64_t)p->byte_count - p->value_start + (uint64_t)length > CX_MAX_CELL_BYTES) {
        char message[200];
        snprintf(message, sizeof message, "a cell in row %lld holds more than %u bytes of text (Excel's limit is 32,767 characters)",
                 (long long)p->row_number, (unsigned)CX_MAX_CELL_BYTES);
        cx_fail(&p->common, message, xmlSAX2GetLineNumber(p->common.context));
        return;
    }
    if (!cx_grow((void **)&p->bytes, &p->byte_capacity, (uint64_t)p->byte_count + (uint64_t)length, 1)) {
        cx_fail(&p->common, "a row holds more text than tradeport can hold", xmlSAX2GetLineNumber(p->common.context));
        return;
    }
    memcpy(p->bytes + p->byte_count, text, (size_t)length);
    p->byte_count += (uint32_t)length;
}

static void on_sheet_start(void *ctx, const xmlChar *name, const xmlChar *prefix, const xmlChar *uri, int namespace_count,
                           const xmlChar **namespaces, int attribute_count, int defaulted, const xmlChar **attributes) {
    (void)prefix; (void)uri; (void)namespace_count; (void)namespaces; (void)defaulted;
    sheet_start(owner(ctx), name, attribute_count, attributes);
}

static void on_sheet_end(void *ctx, const xmlChar *name, const xmlChar *prefix, const xmlChar *uri) {
    (void)prefix; (void)uri;
    sheet_end(owner(ctx), name);
}

static void on_sheet_characters(void *ctx, const xmlChar *text, int length) { sheet_characters(owner(ctx), text, length); }

// From here on libxml2 reads the part, from its first byte: the state of the scanner's reading
// goes, but for the count of rows it handed over, which are skipped.
static int begin_replay(cx_sheet_parser *p) {
    p->fast = 0;
    cx_scanner_free(&p->scanner);
    p->skip_rows = p->delivered_rows;
    p->row_count = p->cell_count = p->byte_count = 0;
    p->in_row = p->in_cell = p->has_value = p->collecting = p->in_inline = p->phonetic_depth = p->seen_root = 0;
    p->row_number = 0;
    p->next_column = 0;
    p->common.failed = p->common.refusal = p->common.error_line = 0;
    p->common.error[0] = 0;
    p->common.context = cx_create_context(p, on_sheet_start, on_sheet_end, on_sheet_characters);
    if (p->common.context == NULL) {
        p->common.failed = 1;
        snprintf(p->common.error, sizeof p->common.error, "out of memory");
        return 0;
    }
    return 1;
}

cx_sheet_parser *cx_sheet_parser_create(void *context, cx_batch_fn on_batch, uint32_t shared_count, uint32_t rows_per_batch) {
    cx_sheet_parser *p = calloc(1, sizeof *p);
    if (p == NULL) return NULL;
    p->user = context;
    p->on_batch = on_batch;
    p->shared_count = shared_count;
    p->rows_per_batch = rows_per_batch ? rows_per_batch : 512;
    // libxml2's context is made when it is needed: when the scanner gives up, or is turned off.
    p->fast = 1;
    cx_scanner_init(&p->scanner);
    return p;
}

int cx_sheet_parser_use_scanner(cx_sheet_parser *p, int use) {
    if (p->delivered_rows > 0 || p->row_count > 0 || p->common.failed || p->common.context != NULL) return 0;
    if (use) return p->fast;
    return begin_replay(p) ? 0 : -1;
}

int cx_sheet_parser_feed(cx_sheet_parser *p, const char *bytes, int length, int is_last) {
    if (p->fast) {
        if (p->common.failed) return 1;
        cx_scan_events events = { p, sheet_start, sheet_end, sheet_characters, &p->common.failed };
        int status = cx_scanner_feed(&p->scanner, (const unsigned char *)bytes, length > 0 ? (size_t)length : 0, is_last, &events);
        if (status != CX_SCAN_OK) {
            if (p->stopped) return 1;
            // Given up (or a handler's error, which libxml2 reports with its line): read again.
            return begin_replay(p) ? CX_SHEET_REPLAY : 1;
        }
    } else if (p->common.context == NULL || cx_feed(&p->common, bytes, length, is_last)) {
        return 1;
    }
    if (is_last) {
        flush(p);
        if (p->stopped) return 1;
    }
    return 0;
}

int cx_sheet_parser_stopped(const cx_sheet_parser *p) { return p->stopped; }

const char *cx_sheet_parser_error_message(const cx_sheet_parser *p) { return p->common.error; }

int cx_sheet_parser_error_line(const cx_sheet_parser *p) { return p->common.error_line; }

int cx_sheet_parser_error_is_refusal(const cx_sheet_parser *p) { return p->common.refusal; }

void cx_sheet_parser_free(cx_sheet_parser *p) {
    if (p == NULL) return;
    cx_scanner_free(&p->scanner);
    if (p->common.context != NULL) cx_free_context(p->common.context);
    free(p->rows);
    free(p->cells);
    free(p->bytes);
    free(p);
}
