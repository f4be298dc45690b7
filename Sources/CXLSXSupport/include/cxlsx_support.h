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
/// The first error's message (empty when none), its line, and whether it was a refusal (DTD, entity).
const char *cx_xml_parser_error_message(const cx_xml_parser *parser);
int cx_xml_parser_error_line(const cx_xml_parser *parser);
int cx_xml_parser_error_is_refusal(const cx_xml_parser *parser);
void cx_xml_parser_free(cx_xml_parser *parser);

/// A worksheet's rows, read by a SAX2 push parser whose callbacks stay in C: the parser fills a
/// batch of rows (cells as column, type, style and bytes) and hands it over when it is full.
enum cx_cell_type {
    CX_NUMBER = 0, CX_SHARED = 1, CX_INLINE = 2, CX_FORMULA_STRING = 3, CX_BOOLEAN = 4, CX_ERROR = 5, CX_ISO_DATE = 6
};

typedef struct {
    int32_t column;       // 0-based
    int32_t style;        // the `s` attribute, -1 when none
    uint32_t offset;      // into the batch's bytes; for CX_SHARED, the shared string's index
    uint32_t length;      // 0 for CX_SHARED
    uint8_t type;         // enum cx_cell_type
} cx_cell;

typedef struct {
    int64_t number;       // 1-based row number
    uint32_t cells_end;   // end of the row's cells in `cells`
} cx_row;

typedef struct {
    cx_row *rows;
    uint32_t row_count;
    cx_cell *cells;
    uint32_t cell_count;
    unsigned char *bytes;
    uint32_t byte_count;
} cx_sheet_batch;

/// Receives a full batch (and the last one); returns 0 to stop reading. The batch is reused after.
typedef int (*cx_batch_fn)(void *context, const cx_sheet_batch *batch);

typedef struct cx_sheet_parser cx_sheet_parser;

/// `shared_count` bounds shared-string indexes; a batch is handed over at `rows_per_batch` rows.
cx_sheet_parser *cx_sheet_parser_create(void *context, cx_batch_fn on_batch, uint32_t shared_count, uint32_t rows_per_batch);
/// Feeds the next bytes; `is_last` ends the document (and hands over the last batch). Returns 0;
/// CX_SHEET_REPLAY when the part must be fed again from its first byte (the parser's own scanner
/// gave up on something outside the subset it reads, and libxml2 now reads the part, skipping the
/// rows already handed over; this happens at most once); or another non-zero value on a malformed
/// or refused document, or once `on_batch` asked to stop.
int cx_sheet_parser_feed(cx_sheet_parser *parser, const char *bytes, int length, int is_last);
#define CX_SHEET_REPLAY 2
/// Before the first feed: 0 to read with libxml2 only (the scanner is the default). Returns
/// whether the scanner is used (-1: out of memory).
int cx_sheet_parser_use_scanner(cx_sheet_parser *parser, int use);
/// Whether parsing ended because `on_batch` asked to stop.
int cx_sheet_parser_stopped(const cx_sheet_parser *parser);
/// The first error's message (empty when none), its line, and whether it was a refusal (DTD, entity).
const char *cx_sheet_parser_error_message(const cx_sheet_parser *parser);
int cx_sheet_parser_error_line(const cx_sheet_parser *parser);
int cx_sheet_parser_error_is_refusal(const cx_sheet_parser *parser);
void cx_sheet_parser_free(cx_sheet_parser *parser);

/// Decodes OOXML's `_xHHHH_` escapes (a UTF-16 unit each; `_x005F_` is `_`) in the `count` bytes at
/// `bytes`, in place; returns the new length.
uint32_t cx_unescape(unsigned char *bytes, uint32_t count);

/// zlib's CRC-32 over `length` bytes, continuing from `crc` (0 to start).
uint32_t cx_crc32(uint32_t crc, const unsigned char *bytes, size_t length);

/// A raw deflate stream (a ZIP entry's data) inflated by zlib, input and output given piece by piece.
typedef struct cx_inflater cx_inflater;

/// A new inflater, or NULL when there is no memory.
cx_inflater *cx_inflater_new(void);
void cx_inflater_free(cx_inflater *inflater);

/// Inflates from `input` (`input_length` bytes) into `output` (`output_length` bytes): sets how
/// many input bytes were used and how many output bytes made. Returns 1 at the stream's end,
/// 0 when it needs more input or output room, -1 when the data is not deflate data.
int cx_inflate(cx_inflater *inflater, const unsigned char *input, size_t input_length, size_t *input_used,
               unsigned char *output, size_t output_length, size_t *output_made);

#endif
