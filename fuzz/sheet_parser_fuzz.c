// libFuzzer harness for the C worksheet parser (Sources/CXLSXSupport), called directly.
//
// Build (fuzz/run.sh sheet-parser does it):
//   clang -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
//     -I Sources/CXLSXSupport/include $(pkg-config --cflags libxml-2.0) \
//     fuzz/sheet_parser_fuzz.c Sources/CXLSXSupport/*.c $(pkg-config --libs libxml-2.0) -lz
//
// Input: one control byte, then the sheet XML. The sheet is read twice, with the parser's own
// scanner (and libxml2 after it when it gives up) and with libxml2 alone, and the two readings must
// hand over the same batches and end alike (see run_sheet_parser). The control byte chooses
//   bits 0-1  how the XML is fed: 0 whole, 1 fixed-size chunks, 2-3 chunks of varying sizes
//   bits 2-4  the chunk size parameter
//   bits 5-6  rows_per_batch - 1 (1 to 4 rows a batch)
//   bit  7    strict: only 4 shared strings (none when bit 5 is set too), and the batch callback asks
//             to stop after 2 batches
// Every chunk is copied into a buffer of its own exact size, so that reading past a chunk is caught.
// The batch callback walks every row and cell and abort()s on any broken invariant of the batch
// (see check_batch). The same bytes then go through the generic SAX parser (cx_xml_parser_*), a
// prefix of them through cx_unescape, and all of them through cx_crc32 (against a bitwise CRC-32).
#include "cxlsx_support.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FAIL(...)                                                     \
    do {                                                              \
        fprintf(stderr, "sheet_parser_fuzz: invariant broken: ");     \
        fprintf(stderr, __VA_ARGS__);                                 \
        fprintf(stderr, " (%s:%d)\n", __FILE__, __LINE__);            \
        abort();                                                      \
    } while (0)

// Keeps reads of every byte from being optimized away.
static volatile uint32_t sink;

typedef struct {
    uint32_t shared_count;
    int batches;
    int stop_after;  // 0: never ask to stop
    int asked_to_stop;
    int64_t last_row;  // rows may come in any order; kept for messages only
    // What was handed over, batch by batch, to hold the two readings equal.
    unsigned char *transcript;
    size_t transcript_length, transcript_capacity;
} sheet_state;

static void record(sheet_state *s, const void *bytes, size_t n) {
    if (s->transcript_length + n > s->transcript_capacity) {
        size_t c = s->transcript_capacity ? s->transcript_capacity : 4096;
        while (c < s->transcript_length + n) c *= 2;
        unsigned char *grown = realloc(s->transcript, c);
        if (grown == NULL) FAIL("out of memory for the transcript");
        s->transcript = grown;
        s->transcript_capacity = c;
    }
    memcpy(s->transcript + s->transcript_length, bytes, n);
    s->transcript_length += n;
}

static void record_batch(sheet_state *s, const cx_sheet_batch *b) {
    record(s, "B", 1);
    record(s, &b->row_count, sizeof b->row_count);
    uint32_t start = 0;
    for (uint32_t r = 0; r < b->row_count; r++) {
        record(s, &b->rows[r].number, sizeof b->rows[r].number);
        uint32_t cells = b->rows[r].cells_end - start;
        record(s, &cells, sizeof cells);
        for (uint32_t c = start; c < b->rows[r].cells_end; c++) {
            const cx_cell *cell = &b->cells[c];
            record(s, &cell->column, sizeof cell->column);
            record(s, &cell->style, sizeof cell->style);
            record(s, &cell->type, sizeof cell->type);
            record(s, &cell->length, sizeof cell->length);
            if (cell->type == CX_SHARED) record(s, &cell->offset, sizeof cell->offset);
            else record(s, b->bytes + cell->offset, cell->length);
        }
        start = b->rows[r].cells_end;
    }
}

static void check_batch(sheet_state *s, const cx_sheet_batch *b) {
    if (b == NULL) FAIL("a NULL batch");
    if (b->row_count == 0) FAIL("an empty batch was handed over");
    if (b->rows == NULL) FAIL("rows is NULL with %u rows", b->row_count);
    if (b->cell_count > 0 && b->cells == NULL) FAIL("cells is NULL with %u cells", b->cell_count);
    if (b->byte_count > 0 && b->bytes == NULL) FAIL("bytes is NULL with %u bytes", b->byte_count);
    uint32_t previous_end = 0;
    uint64_t previous_byte_end = 0;
    uint32_t acc = 0;
    for (uint32_t r = 0; r < b->row_count; r++) {
        const cx_row *row = &b->rows[r];
        if (row->number < 1) FAIL("row %u has number %lld", r, (long long)row->number);
        if (row->cells_end > b->cell_count) FAIL("row %u ends at cell %u of %u", r, row->cells_end, b->cell_count);
        if (row->cells_end <= previous_end) FAIL("row %u (number %lld) has no cells (%u..<%u)", r, (long long)row->number, previous_end, row->cells_end);
        for (uint32_t c = previous_end; c < row->cells_end; c++) {
            const cx_cell *cell = &b->cells[c];
            if (cell->column < 0 || cell->column > 16383) FAIL("cell %u in row %lld has column %d", c, (long long)row->number, cell->column);
            if (cell->style < -1) FAIL("cell %u has style %d", c, cell->style);
            if (cell->type > CX_ISO_DATE) FAIL("cell %u has type %u", c, cell->type);
            if (cell->type == CX_SHARED) {
                if (cell->length != 0) FAIL("shared cell %u has length %u", c, cell->length);
                if (cell->offset >= s->shared_count) FAIL("shared cell %u has index %u of %u", c, cell->offset, s->shared_count);
                continue;
            }
            uint64_t end = (uint64_t)cell->offset + cell->length;
            if (end > b->byte_count) FAIL("cell %u bytes %u+%u past byte_count %u", c, cell->offset, cell->length, b->byte_count);
            // Cells' bytes are appended one after the other: never overlapping, never going back.
            if (cell->offset < previous_byte_end) FAIL("cell %u starts at %u, before the previous cell's end %llu", c, cell->offset, (unsigned long long)previous_byte_end);
            previous_byte_end = end;
            if ((cell->type == CX_NUMBER || cell->type == CX_FORMULA_STRING || cell->type == CX_INLINE) && cell->length == 0)
                FAIL("cell %u of type %u is empty but was kept", c, cell->type);
            for (uint32_t k = 0; k < cell->length; k++) acc = acc * 31 + b->bytes[cell->offset + k];
        }
        previous_end = row->cells_end;
        s->last_row = row->number;
    }
    if (previous_end != b->cell_count) FAIL("the rows end at cell %u, the batch has %u", previous_end, b->cell_count);
    if (previous_byte_end > b->byte_count) FAIL("cells end at %llu past %u", (unsigned long long)previous_byte_end, b->byte_count);
    sink += acc;
}

static int on_batch(void *context, const cx_sheet_batch *batch) {
    sheet_state *s = context;
    if (s->asked_to_stop) FAIL("a batch arrived after the callback asked to stop");
    check_batch(s, batch);
    record_batch(s, batch);
    s->batches++;
    if (s->stop_after && s->batches >= s->stop_after) {
        s->asked_to_stop = 1;
        return 0;
    }
    return 1;
}

// The chunk sizes: a deterministic sequence per input.
typedef struct {
    int mode;
    int parameter;
    uint32_t rng;
} chunker;

static size_t next_chunk(chunker *c, size_t remaining) {
    static const size_t fixed[8] = {1, 2, 3, 5, 8, 13, 64, 1000};
    size_t n;
    switch (c->mode) {
    case 0: n = remaining; break;
    case 1: n = fixed[c->parameter]; break;
    default:
        c->rng = c->rng * 1103515245u + 12345u;
        n = 1 + (c->rng >> 8) % ((size_t)4 << c->parameter);
        break;
    }
    if (n > remaining) n = remaining;
    return n;
}

static void check_message(const char *message, const char *what) {
    if (message == NULL) FAIL("%s: NULL error message", what);
    size_t n = strnlen(message, 1024);
    if (n >= 256) FAIL("%s: the error message is not terminated within its 256 bytes", what);
    for (size_t i = 0; i < n; i++) sink += (unsigned char)message[i];
}

// One reading of the sheet: with the scanner (and libxml2 again from the start when it gives up)
// or with libxml2 alone. Ends with what the reading said in the transcript.
static void read_sheet(const uint8_t *xml, size_t size, uint8_t control, int scanner, sheet_state *state) {
    int strict = control >> 7;
    state->shared_count = strict ? ((control >> 5) & 1 ? 0 : 4) : (1u << 20);
    state->stop_after = strict ? 2 : 0;
    uint32_t rows_per_batch = 1 + ((control >> 5) & 3);
    cx_sheet_parser *p = cx_sheet_parser_create(state, on_batch, state->shared_count, rows_per_batch);
    if (p == NULL) FAIL("out of memory for a parser");
    if (cx_sheet_parser_use_scanner(p, scanner) != scanner) FAIL("use_scanner(%d) before the first feed did not take", scanner);
    chunker c = {control & 3, (control >> 2) & 7, 0x9E3779B9u ^ (uint32_t)size ^ control};
    size_t offset = 0;
    int status = 0, replays = 0;
    for (;;) {
        while (offset < size) {
            size_t n = next_chunk(&c, size - offset);
            char *chunk = malloc(n);
            if (chunk == NULL) FAIL("out of memory for a chunk");
            memcpy(chunk, xml + offset, n);
            status = cx_sheet_parser_feed(p, chunk, (int)n, 0);
            free(chunk);
            offset += n;
            if (status != 0) break;
        }
        if (status == 0) status = cx_sheet_parser_feed(p, NULL, 0, 1);
        if (status != CX_SHEET_REPLAY) break;
        if (!scanner) FAIL("libxml2 alone asked for the part again");
        if (++replays > 1) FAIL("the part was asked for a second time");
        // Fed again in the same chunks as libxml2 alone is (it may stop at an error elsewhere
        // in other chunks), as the reader streams the part again from its start.
        c = (chunker){control & 3, (control >> 2) & 7, 0x9E3779B9u ^ (uint32_t)size ^ control};
        offset = 0;
        status = 0;
    }
    int stopped = cx_sheet_parser_stopped(p);
    const char *message = cx_sheet_parser_error_message(p);
    check_message(message, "sheet parser");
    if (status == 0) {
        if (stopped) FAIL("the parser says it stopped, but feeding succeeded");
        if (message[0] != 0) FAIL("feeding succeeded with an error message: %s", message);
        if (state->asked_to_stop) FAIL("the callback asked to stop, but feeding succeeded");
    } else {
        if (state->asked_to_stop != stopped) FAIL("asked to stop: %d, parser stopped: %d", state->asked_to_stop, stopped);
        if (!stopped && message[0] == 0) FAIL("feeding failed without an error message");
        if (cx_sheet_parser_error_line(p) < 0) FAIL("negative error line %d", cx_sheet_parser_error_line(p));
        // Once failed or stopped, the parser stays so, and hands over nothing more.
        int batches = state->batches;
        static const char more[] = "<row r=\"1\"><c><v>1</v></c></row>";
        if (cx_sheet_parser_feed(p, more, (int)sizeof more - 1, 0) == 0) FAIL("a feed after a failure succeeded");
        if (cx_sheet_parser_feed(p, NULL, 0, 1) == 0) FAIL("the last feed after a failure succeeded");
        if (state->batches != batches) FAIL("a batch was handed over after a failure");
    }
    int line = cx_sheet_parser_error_line(p), refusal = cx_sheet_parser_error_is_refusal(p), failed = status != 0;
    record(state, "E", 1);
    record(state, &failed, sizeof failed);
    record(state, &stopped, sizeof stopped);
    record(state, &line, sizeof line);
    record(state, &refusal, sizeof refusal);
    record(state, message, strlen(message));
    cx_sheet_parser_free(p);
}

// The scanner's reading and libxml2's must hand over the same batches and end the same way: the
// same error, line and refusal, or the same stop.
static void run_sheet_parser(const uint8_t *xml, size_t size, uint8_t control) {
    sheet_state fast = {0}, reference = {0};
    read_sheet(xml, size, control, 1, &fast);
    read_sheet(xml, size, control, 0, &reference);
    if (fast.transcript_length != reference.transcript_length ||
        memcmp(fast.transcript, reference.transcript, fast.transcript_length) != 0) {
        size_t k = 0;
        while (k < fast.transcript_length && k < reference.transcript_length && fast.transcript[k] == reference.transcript[k]) k++;
        FAIL("the scanner's reading differs from libxml2's at transcript byte %zu (%zu and %zu bytes; %d and %d batches)", k,
             fast.transcript_length, reference.transcript_length, fast.batches, reference.batches);
    }
    free(fast.transcript);
    free(reference.transcript);
}

// The generic SAX parser: its callbacks check what libxml2 hands over through it.
typedef struct {
    int depth;
    int elements;
    int stop_at;  // stop from a callback at this element (0: never)
    int stopped;
    cx_xml_parser *parser;
} xml_state;

static void on_start(void *context, const char *local_name, const char *namespace_uri, int attribute_count,
                     const char *const *attributes) {
    xml_state *s = context;
    if (s->stopped) FAIL("a start callback after cx_xml_parser_stop");
    if (local_name == NULL) FAIL("a start tag without a name");
    if (attribute_count < 0) FAIL("attribute_count %d", attribute_count);
    if (attribute_count > 0 && attributes == NULL) FAIL("%d attributes but no array", attribute_count);
    uint32_t acc = (uint32_t)strlen(local_name);
    if (namespace_uri) acc += (uint32_t)strlen(namespace_uri);
    for (int i = 0; i < attribute_count; i++) {
        const char *name = attributes[i * 5], *start = attributes[i * 5 + 3], *end = attributes[i * 5 + 4];
        if (name == NULL) FAIL("attribute %d has no name", i);
        acc += (uint32_t)strlen(name);
        if (start == NULL || end == NULL || end < start) FAIL("attribute %d value %p..%p", i, (const void *)start, (const void *)end);
        for (const char *q = start; q < end; q++) acc = acc * 31 + (unsigned char)*q;
    }
    sink += acc;
    s->depth++;
    s->elements++;
    if (s->stop_at && s->elements == s->stop_at) {
        cx_xml_parser_stop(s->parser);
        s->stopped = 1;
    }
}

static void on_end(void *context, const char *local_name) {
    xml_state *s = context;
    if (s->stopped) FAIL("an end callback after cx_xml_parser_stop");
    if (local_name == NULL) FAIL("an end tag without a name");
    if (--s->depth < 0) FAIL("more end tags than start tags");
}

static void on_characters(void *context, const char *text, int length) {
    xml_state *s = context;
    if (s->stopped) FAIL("a characters callback after cx_xml_parser_stop");
    if (length < 0 || (length > 0 && text == NULL)) FAIL("characters %p, %d", (const void *)text, length);
    uint32_t acc = 0;
    for (int i = 0; i < length; i++) acc = acc * 31 + (unsigned char)text[i];
    sink += acc;
}

static void run_xml_parser(const uint8_t *xml, size_t size, uint8_t control) {
    xml_state state = {0};
    state.stop_at = (control >> 7) ? 3 : 0;
    cx_xml_parser *p = cx_xml_parser_create(&state, on_start, on_end, on_characters);
    if (p == NULL) return;
    state.parser = p;
    // Chunks of another sequence than the sheet parser's.
    chunker c = {2, (control >> 2) & 7, 0x85EBCA6Bu ^ (uint32_t)size};
    size_t offset = 0;
    int status = 0;
    while (offset < size) {
        size_t n = next_chunk(&c, size - offset);
        char *chunk = malloc(n);
        if (chunk == NULL) break;
        memcpy(chunk, xml + offset, n);
        status = cx_xml_parser_feed(p, chunk, (int)n, 0);
        free(chunk);
        offset += n;
        if (status != 0) break;
    }
    if (status == 0) status = cx_xml_parser_feed(p, NULL, 0, 1);
    check_message(cx_xml_parser_error_message(p), "xml parser");
    if (state.stopped && status == 0) FAIL("stopped from a callback, but feeding succeeded");
    if (status != 0) {
        if (!state.stopped && cx_xml_parser_error_message(p)[0] == 0) FAIL("the XML parser failed without a message");
        if (cx_xml_parser_feed(p, "<a/>", 4, 1) == 0) FAIL("a feed after a failure succeeded");
    } else if (state.depth != 0) {
        FAIL("a well-formed document ended at depth %d", state.depth);
    }
    sink += cx_xml_parser_error_line(p) + cx_xml_parser_error_is_refusal(p);
    cx_xml_parser_free(p);
}

// Whether `b[0..<n]` is valid UTF-8 (no overlongs, no surrogates, at most U+10FFFF).
static int valid_utf8(const unsigned char *b, size_t n) {
    size_t i = 0;
    while (i < n) {
        unsigned c = b[i];
        if (c < 0x80) { i++; continue; }
        size_t len;
        unsigned min, scalar;
        if ((c & 0xE0) == 0xC0) { len = 2; min = 0x80; scalar = c & 0x1F; }
        else if ((c & 0xF0) == 0xE0) { len = 3; min = 0x800; scalar = c & 0x0F; }
        else if ((c & 0xF8) == 0xF0) { len = 4; min = 0x10000; scalar = c & 0x07; }
        else return 0;
        if (i + len > n) return 0;
        for (size_t k = 1; k < len; k++) {
            if ((b[i + k] & 0xC0) != 0x80) return 0;
            scalar = scalar << 6 | (b[i + k] & 0x3F);
        }
        if (scalar < min || scalar > 0x10FFFF || (scalar >= 0xD800 && scalar < 0xE000)) return 0;
        i += len;
    }
    return 1;
}

static void run_unescape(const uint8_t *bytes, size_t size) {
    size_t n = size > 4096 ? 4096 : size;
    unsigned char *b = malloc(n ? n : 1);
    if (b == NULL) return;
    memcpy(b, bytes, n);
    int was_valid = valid_utf8(b, n);
    int had_underscore = memchr(b, '_', n) != NULL;
    uint32_t m = cx_unescape(b, (uint32_t)n);
    if (m > n) FAIL("cx_unescape grew %zu bytes to %u", n, m);
    if (!had_underscore && (m != n || memcmp(b, bytes, n) != 0)) FAIL("cx_unescape changed text without an escape");
    if (was_valid && !valid_utf8(b, m)) FAIL("cx_unescape made invalid UTF-8 of valid UTF-8");
    for (uint32_t i = 0; i < m; i++) sink += b[i];
    free(b);
}

// cx_crc32 in two pieces against a bitwise CRC-32 of the same bytes.
static void run_crc32(const uint8_t *bytes, size_t size) {
    uint32_t reference = 0xFFFFFFFFu;
    for (size_t i = 0; i < size; i++) {
        reference ^= bytes[i];
        for (int k = 0; k < 8; k++) reference = (reference >> 1) ^ (0xEDB88320u & (0u - (reference & 1)));
    }
    reference ^= 0xFFFFFFFFu;
    size_t half = size / 2;
    uint32_t crc = cx_crc32(cx_crc32(0, bytes, half), bytes + half, size - half);
    if (crc != reference) FAIL("cx_crc32 gives %08x, a bitwise CRC-32 %08x", crc, reference);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1 || size > (1u << 24)) return 0;
    uint8_t control = data[0];
    const uint8_t *xml = data + 1;
    size_t length = size - 1;
    run_sheet_parser(xml, length, control);
    run_xml_parser(xml, length, control);
    run_unescape(xml, length);
    run_crc32(xml, length);
    return 0;
}
