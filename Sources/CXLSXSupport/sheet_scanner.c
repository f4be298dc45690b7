// A worksheet's XML read without libxml2 while it keeps to what spreadsheet writers produce, which
// is most of a sheet reader's time (libxml2 was about 35% of a Tinkoff conversion's CPU, and its
// thread the one the others waited for).
//
// The subset: UTF-8 (with or without a byte order mark and an XML declaration that says so),
// elements and attributes with ASCII names, prefixes declared with absolute http-like URIs, the five
// predefined entities and character references, whitespace outside the root. Within it the scanner
// hands over exactly the events libxml2's SAX2 parser would: the same local names, the same
// attribute values (decoded and normalised as libxml2 2.9 does), the same text. At anything else — a
// comment, CDATA, a processing instruction, a DTD, another encoding, a construct it does not check
// as libxml2 does, any error, or a handler's error — it gives up (CX_SCAN_BAIL), and the sheet
// parser reads the part again from its start with libxml2, skipping the rows it already handed
// over: every error, its message and its line are still libxml2's. fuzz/sheet_parser_fuzz.c holds
// the two readings equal on every input.
#include "cxlsx_internal.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

// Byte classes for names, text and attribute values.
enum {
    K_NAME_START = 1,  // A-Z a-z _
    K_NAME = 2,        // A-Z a-z _ 0-9 . -
    K_SPACE = 4,       // space, tab, CR, LF
    K_TEXT_PLAIN = 8,  // a byte text can hold as it is: printable ASCII but & ] <, and tab, LF
    K_VALUE_PLAIN = 16 // a byte an attribute value can hold as it is: printable ASCII but & < and quotes
};

static unsigned char classes[256];
static pthread_once_t classes_once = PTHREAD_ONCE_INIT;

static void make_classes(void) {
    for (int c = 0; c < 256; c++) {
        unsigned char k = 0;
        if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_') k |= K_NAME_START | K_NAME;
        if ((c >= '0' && c <= '9') || c == '.' || c == '-') k |= K_NAME;
        if (c == ' ' || c == '\t' || c == '\r' || c == '\n') k |= K_SPACE;
        if ((c >= 0x20 && c < 0x7F && c != '&' && c != ']' && c != '<') || c == '\t' || c == '\n') k |= K_TEXT_PLAIN;
        if (c >= 0x20 && c < 0x7F && c != '&' && c != '<' && c != '"' && c != '\'') k |= K_VALUE_PLAIN;
        classes[c] = k;
    }
}

void cx_scanner_init(cx_scanner *s) {
    pthread_once(&classes_once, make_classes);
    memset(s, 0, sizeof *s);
}

void cx_scanner_free(cx_scanner *s) {
    free(s->carry);
    free(s->scratch);
    s->carry = NULL;
    s->scratch = NULL;
}

// The length of a well-formed UTF-8 sequence at `b` for a character XML allows (U+0080 to U+D7FF,
// U+E000 to U+FFFD, U+10000 to U+10FFFF), or 0. `n` bytes are available.
static size_t xml_utf8(const unsigned char *b, size_t n) {
    unsigned c = b[0];
    if (c >= 0xC2 && c <= 0xDF) return n >= 2 && (b[1] & 0xC0) == 0x80 ? 2 : 0;
    if (c >= 0xE0 && c <= 0xEF) {
        if (n < 3 || (b[1] & 0xC0) != 0x80 || (b[2] & 0xC0) != 0x80) return 0;
        unsigned v = (c & 0x0F) << 12 | (b[1] & 0x3F) << 6 | (b[2] & 0x3F);
        if (v < 0x800 || (v >= 0xD800 && v < 0xE000) || v >= 0xFFFE) return 0;
        return 3;
    }
    if (c >= 0xF0 && c <= 0xF4) {
        if (n < 4 || (b[1] & 0xC0) != 0x80 || (b[2] & 0xC0) != 0x80 || (b[3] & 0xC0) != 0x80) return 0;
        unsigned v = (c & 0x07) << 18 | (b[1] & 0x3F) << 12 | (b[2] & 0x3F) << 6 | (b[3] & 0x3F);
        if (v < 0x10000 || v > 0x10FFFF) return 0;
        return 4;
    }
    return 0;
}

static int legal_char(unsigned long v) {
    return v == 0x9 || v == 0xA || v == 0xD || (v >= 0x20 && v <= 0xD7FF) || (v >= 0xE000 && v <= 0xFFFD) ||
           (v >= 0x10000 && v <= 0x10FFFF);
}

// A reference at b[0] == '&' within `n` bytes: its length (through ';') and its character, or 0.
static size_t reference(const unsigned char *b, size_t n, unsigned long *value) {
    size_t k = 1;
    if (k < n && b[k] == '#') {
        k++;
        int hex = k < n && b[k] == 'x';
        if (hex) k++;
        size_t digits = 0;
        unsigned long v = 0;
        for (; k < n && b[k] != ';'; k++, digits++) {
            unsigned c = b[k], d;
            if (c >= '0' && c <= '9') d = c - '0';
            else if (hex && (c | 0x20) >= 'a' && (c | 0x20) <= 'f') d = (c | 0x20) - 'a' + 10;
            else return 0;
            if (digits >= 8) return 0;
            v = v * (hex ? 16 : 10) + d;
        }
        if (k >= n || digits == 0 || !legal_char(v)) return 0;
        *value = v;
        return k + 1;
    }
    static const struct { const char *name; size_t length; unsigned char value; } predefined[] = {
        {"amp;", 4, '&'}, {"lt;", 3, '<'}, {"gt;", 3, '>'}, {"quot;", 5, '"'}, {"apos;", 5, '\''}};
    for (size_t i = 0; i < sizeof predefined / sizeof predefined[0]; i++) {
        if (n - 1 >= predefined[i].length && memcmp(b + 1, predefined[i].name, predefined[i].length) == 0) {
            *value = predefined[i].value;
            return 1 + predefined[i].length;
        }
    }
    return 0;
}

// Checks text (element content, `value` 0) or an attribute value (`value` 1) and says whether it
// must be decoded: references, CR, and in a value whitespace other than a space. 0 when it is not
// well-formed text, 1 when it can go as it is, 2 when it must be decoded.
static int check_text(const unsigned char *b, size_t n, int value) {
    int decode = 0;
    unsigned char plain = value ? K_VALUE_PLAIN : K_TEXT_PLAIN;
    size_t i = 0;
    while (i < n) {
        unsigned c = b[i];
        if (classes[c] & plain) { i++; continue; }
        if (c >= 0x80) {
            size_t k = xml_utf8(b + i, n - i);
            if (k == 0) return 0;
            i += k;
            continue;
        }
        switch (c) {
        case '&': {
            unsigned long v;
            size_t k = reference(b + i, n - i, &v);
            if (k == 0) return 0;
            decode = 1;
            i += k;
            continue;
        }
        case '\r': decode = 1; break;
        case '\t': case '\n': if (value) decode = 1; else return 0; break;  // text: plain already
        case ']':  // in text only: "]]>" is not allowed there
            if (i + 2 < n && b[i + 1] == ']' && b[i + 2] == '>') return 0;
            break;
        case '"': case '\'': break;  // in a value: the other quote (the closing one ended it)
        default: return 0;  // '<', and control characters
        }
        i++;
    }
    return decode ? 2 : 1;
}

// Decodes checked text into `out` (never longer than `b`): references to their characters, CR LF
// and a lone CR to LF; in a value, tab, LF and CR to a space, and '&' (from &amp; or &#38;) as
// libxml2 2.9 hands it over without entity substitution: "&#38;".
static size_t decode(const unsigned char *b, size_t n, int value, unsigned char *out) {
    size_t w = 0;
    for (size_t i = 0; i < n;) {
        unsigned c = b[i];
        if (c == '&') {
            unsigned long v = 0;
            size_t k = reference(b + i, n - i, &v);
            i += k;
            if (value && v == '&') { memcpy(out + w, "&#38;", 5); w += 5; }  // k >= 5 ("&amp;", "&#38;")
            else w += cx_put_utf8(out + w, (uint32_t)v);
            continue;
        }
        if (c == '\r') {
            i += i + 1 < n && b[i + 1] == '\n' ? 2 : 1;
            out[w++] = value ? ' ' : '\n';
            continue;
        }
        if (value && (c == '\t' || c == '\n')) c = ' ';
        out[w++] = (unsigned char)c;
        i++;
    }
    return w;
}

// An NCName or a QName of ASCII letters at b[0]: its length, where its colon is (-1: none), or 0
// when it is not one (or runs to the end of the bytes: `*incomplete`).
static size_t qname(const unsigned char *b, size_t n, int *colon, int *incomplete) {
    *colon = -1;
    *incomplete = 0;
    if (n == 0) { *incomplete = 1; return 0; }
    if (!(classes[b[0]] & K_NAME_START)) return 0;
    size_t i = 1;
    for (;;) {
        while (i < n && (classes[b[i]] & K_NAME)) i++;
        if (i >= n) { *incomplete = 1; return 0; }
        if (b[i] != ':') break;
        if (*colon >= 0) return 0;
        *colon = (int)i;
        i++;
        if (i >= n) { *incomplete = 1; return 0; }
        if (!(classes[b[i]] & K_NAME_START)) return 0;
        i++;
    }
    if (i > CX_SCAN_MAX_NAME || (b[i] >= 0x80)) return 0;  // a longer name, or a name going on past ASCII
    return i;
}

// Names are short: a loop, not a call.
static inline void copy_name(unsigned char *to, const unsigned char *from, size_t n) {
    for (size_t i = 0; i < n; i++) to[i] = from[i];
    to[n] = 0;
}

static inline int same_name(const unsigned char *a, const unsigned char *b, size_t n) {
    for (size_t i = 0; i < n; i++) if (a[i] != b[i]) return 0;
    return 1;
}

static int same(const unsigned char *a, size_t a_length, const char *b) {
    size_t n = strlen(b);
    return a_length == n && memcmp(a, b, n) == 0;
}

// A namespace URI the scanner takes without checking it as libxml2 does: scheme://host/path in
// plain characters, and not one of the two names XML reserves.
static int plain_uri(const unsigned char *b, size_t n) {
    size_t i = 0;
    if (n == 0 || !((b[0] | 0x20) >= 'a' && (b[0] | 0x20) <= 'z')) return 0;
    while (i < n && (((b[i] | 0x20) >= 'a' && (b[i] | 0x20) <= 'z') || (b[i] >= '0' && b[i] <= '9'))) i++;
    if (n - i < 3 || memcmp(b + i, "://", 3) != 0) return 0;
    for (i += 3; i < n; i++) {
        unsigned c = b[i];
        if (!((c | 0x20) >= 'a' && (c | 0x20) <= 'z') && !(c >= '0' && c <= '9') && c != '.' && c != '-' && c != '_' && c != '/')
            return 0;
    }
    if (same(b, n, "http://www.w3.org/XML/1998/namespace") || same(b, n, "http://www.w3.org/2000/xmlns/")) return 0;
    return 1;
}

static int declared(const cx_scanner *s, const unsigned char *prefix, size_t length) {
    if (same(prefix, length, "xml")) return 1;
    for (int i = s->ns_count - 1; i >= 0; i--)
        if (s->ns[i].length == length && memcmp(s->prefixes + s->ns[i].offset, prefix, length) == 0) return 1;
    return 0;
}

typedef struct {
    const unsigned char *name;
    size_t length;
    int colon;
    /// The name past its prefix.
    const unsigned char *local;
    size_t local_length;
    const unsigned char *value;
    size_t value_length;
} raw_attribute;

// An element ends: its namespace declarations go with it.
static void close_element(cx_scanner *s) {
    s->depth--;
    while (s->ns_count > 0 && s->ns[s->ns_count - 1].depth > s->depth) s->prefixes_length = s->ns[--s->ns_count].offset;
}

// A start tag at b[0] == '<': its length, or 0 with `*status` CX_SCAN_INCOMPLETE or CX_SCAN_BAIL.
// Hands the element over (and its end, for an empty element).
static size_t start_tag(cx_scanner *s, const unsigned char *b, size_t n, const cx_scan_events *events, int *status) {
    int incomplete, colon;
    *status = CX_SCAN_BAIL;
    size_t i = 1;
    size_t name_length = qname(b + i, n - i, &colon, &incomplete);
    if (name_length == 0) { if (incomplete) *status = CX_SCAN_INCOMPLETE; return 0; }
    const unsigned char *name = b + i;
    int name_colon = colon;
    i += name_length;

    raw_attribute attributes[CX_SCAN_MAX_ATTRIBUTES];
    int count = 0, empty = 0;
    for (;;) {
        size_t space = i;
        while (i < n && (classes[b[i]] & K_SPACE)) i++;
        if (i >= n) { *status = CX_SCAN_INCOMPLETE; return 0; }
        if (b[i] == '>') { i++; break; }
        if (b[i] == '/') {
            if (i + 1 >= n) { *status = CX_SCAN_INCOMPLETE; return 0; }
            if (b[i + 1] != '>') return 0;
            i += 2;
            empty = 1;
            break;
        }
        if (i == space || count == CX_SCAN_MAX_ATTRIBUTES) return 0;
        raw_attribute *a = &attributes[count];
        a->name = b + i;
        a->length = qname(b + i, n - i, &a->colon, &incomplete);
        if (a->length == 0) { if (incomplete) *status = CX_SCAN_INCOMPLETE; return 0; }
        a->local = a->name + (a->colon + 1);
        a->local_length = a->length - (size_t)(a->colon + 1);
        i += a->length;
        while (i < n && (classes[b[i]] & K_SPACE)) i++;
        if (i >= n) { *status = CX_SCAN_INCOMPLETE; return 0; }
        if (b[i] != '=') return 0;
        i++;
        while (i < n && (classes[b[i]] & K_SPACE)) i++;
        if (i >= n) { *status = CX_SCAN_INCOMPLETE; return 0; }
        unsigned char quote = b[i];
        if (quote != '"' && quote != '\'') return 0;
        i++;
        const unsigned char *close = memchr(b + i, quote, n - i);
        if (close == NULL) { *status = CX_SCAN_INCOMPLETE; return 0; }
        a->value = b + i;
        a->value_length = (size_t)(close - (b + i));
        i = (size_t)(close - b) + 1;
        count++;
    }
    if (s->depth == CX_SCAN_MAX_DEPTH || (s->depth == 0 && s->root_seen)) return 0;

    // Two attributes of one local name: the same name twice, which libxml2 refuses, or two
    // prefixes whose namespaces libxml2 compares; either way the scanner leaves them to it. (A
    // declaration's local name is its prefix: `xmlns:r` beside `r` is left to libxml2 too.)
    for (int k = 1; k < count; k++) {
        const raw_attribute *a = &attributes[k];
        for (int m = 0; m < k; m++) {
            const raw_attribute *o = &attributes[m];
            if (o->local_length == a->local_length && o->local[0] == a->local[0] && memcmp(o->local, a->local, a->local_length) == 0)
                return 0;
        }
    }
    // Namespace declarations first (an element may use the prefix it declares), then the names.
    const unsigned char *locals[CX_SCAN_MAX_ATTRIBUTES * 5];
    int kept = 0;
    for (int k = 0; k < count; k++) {
        raw_attribute *a = &attributes[k];
        int xmlns = a->length >= 5 && a->name[0] == 'x' && memcmp(a->name, "xmlns", 5) == 0;
        int is_default = xmlns && a->length == 5;
        int is_prefix = xmlns && a->colon == 5;
        if (is_default || is_prefix) {
            if (!plain_uri(a->value, a->value_length)) return 0;
            if (is_prefix) {
                if (same(a->local, a->local_length, "xml") || same(a->local, a->local_length, "xmlns")) return 0;
                if (s->ns_count == CX_SCAN_MAX_NAMESPACES || s->prefixes_length + a->local_length > sizeof s->prefixes) return 0;
                memcpy(s->prefixes + s->prefixes_length, a->local, a->local_length);
                s->ns[s->ns_count].offset = (uint16_t)s->prefixes_length;
                s->ns[s->ns_count].length = (uint16_t)a->local_length;
                s->ns[s->ns_count].depth = (uint16_t)(s->depth + 1);
                s->ns_count++;
                s->prefixes_length += a->local_length;
            }
            continue;
        }
        attributes[kept++] = *a;  // its prefix is checked once every declaration is in
    }
    if (name_colon >= 0) {
        if (same(name, (size_t)name_colon, "xml") || same(name, (size_t)name_colon, "xmlns") || !declared(s, name, (size_t)name_colon)) return 0;
    }
    size_t scratch_used = 0;
    for (int k = 0; k < kept; k++) {
        raw_attribute *a = &attributes[k];
        if (a->colon >= 0 && (same(a->name, (size_t)a->colon, "xmlns") || !declared(s, a->name, (size_t)a->colon))) return 0;
        int checked = check_text(a->value, a->value_length, 1);
        if (checked == 0) return 0;
        copy_name(s->attribute_names[k], a->local, a->local_length);
        const unsigned char *value = a->value;
        size_t value_length = a->value_length;
        if (checked == 2) {
            unsigned char *out = s->scratch + scratch_used;
            value_length = decode(a->value, a->value_length, 1, out);
            value = out;
            scratch_used += value_length;
        }
        locals[k * 5] = s->attribute_names[k];
        locals[k * 5 + 1] = NULL;
        locals[k * 5 + 2] = NULL;
        locals[k * 5 + 3] = value;
        locals[k * 5 + 4] = value + value_length;
    }

    // Handed over by its name where it is kept open (NUL-terminated there).
    copy_name(s->open[s->depth], name, name_length);
    s->open_length[s->depth] = (uint16_t)name_length;
    s->open_local[s->depth] = (uint16_t)(name_colon + 1);
    const unsigned char *local = s->open[s->depth] + (name_colon + 1);
    s->depth++;
    s->root_seen = 1;
    events->start(events->owner, local, kept, locals);
    if (*events->failed) { *status = CX_SCAN_HANDLER; return 0; }
    if (empty) {
        events->end(events->owner, local);
        if (*events->failed) { *status = CX_SCAN_HANDLER; return 0; }
        close_element(s);
    }
    *status = CX_SCAN_OK;
    return i;
}

// An end tag at b[0..1] == "</".
static size_t end_tag(cx_scanner *s, const unsigned char *b, size_t n, const cx_scan_events *events, int *status) {
    int incomplete, colon;
    *status = CX_SCAN_BAIL;
    size_t i = 2;
    size_t length = qname(b + i, n - i, &colon, &incomplete);
    if (length == 0) { if (incomplete) *status = CX_SCAN_INCOMPLETE; return 0; }
    if (s->depth == 0) return 0;
    int top = s->depth - 1;
    if (s->open_length[top] != length || !same_name(s->open[top], b + i, length)) return 0;
    i += length;
    while (i < n && (classes[b[i]] & K_SPACE)) i++;
    if (i >= n) { *status = CX_SCAN_INCOMPLETE; return 0; }
    if (b[i] != '>') return 0;
    i++;
    events->end(events->owner, s->open[top] + s->open_local[top]);
    if (*events->failed) { *status = CX_SCAN_HANDLER; return 0; }
    close_element(s);
    *status = CX_SCAN_OK;
    return i;
}

// The XML declaration at the document's start, when it says version 1.0 and, if anything,
// encoding UTF-8 and standalone yes or no, in that order.
static size_t declaration(const unsigned char *b, size_t n, int *status) {
    *status = CX_SCAN_BAIL;
    const unsigned char *end = NULL;
    for (size_t k = 0; k + 1 < n; k++) {
        if (b[k] == '?' && b[k + 1] == '>') { end = b + k; break; }
        if (b[k] == '<' && k > 0) return 0;
    }
    if (end == NULL) { if (n < 256) *status = CX_SCAN_INCOMPLETE; return 0; }
    size_t length = (size_t)(end - b);
    static const char *const names[] = {"version", "encoding", "standalone"};
    size_t i = 5;  // "<?xml"
    int next = 0;
    for (;;) {
        size_t space = i;
        while (i < length && (classes[b[i]] & K_SPACE)) i++;
        if (i == length) break;
        if (i == space) return 0;
        int which = -1;
        for (int k = next; k < 3; k++) {
            size_t l = strlen(names[k]);
            if (length - i > l && memcmp(b + i, names[k], l) == 0) { which = k; i += l; break; }
        }
        if (which < 0 || (next == 0 && which != 0)) return 0;
        next = which + 1;
        while (i < length && (classes[b[i]] & K_SPACE)) i++;
        if (i >= length || b[i] != '=') return 0;
        i++;
        while (i < length && (classes[b[i]] & K_SPACE)) i++;
        if (i >= length || (b[i] != '"' && b[i] != '\'')) return 0;
        unsigned char quote = b[i++];
        size_t start = i;
        while (i < length && b[i] != quote) i++;
        if (i >= length) return 0;
        const unsigned char *v = b + start;
        size_t l = i - start;
        i++;
        if (which == 0 && !same(v, l, "1.0")) return 0;
        if (which == 1 && !(l == 5 && (v[0] | 0x20) == 'u' && (v[1] | 0x20) == 't' && (v[2] | 0x20) == 'f' && v[3] == '-' && v[4] == '8'))
            return 0;
        if (which == 2 && !same(v, l, "yes") && !same(v, l, "no")) return 0;
    }
    if (next == 0) return 0;
    *status = CX_SCAN_OK;
    return length + 2;
}

// Scans b[0..<n) as far as whole tokens go; `*consumed` says how far.
static int scan(cx_scanner *s, const unsigned char *b, size_t n, int is_last, const cx_scan_events *events, size_t *consumed) {
    size_t i = 0;
    int status = CX_SCAN_OK;
    if (!s->started) {
        if (n < 6 && !is_last) { *consumed = 0; return CX_SCAN_OK; }
        if (n >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF) i = 3;
        if (n - i >= 5 && memcmp(b + i, "<?xml", 5) == 0 && (n - i == 5 || (classes[b[i + 5]] & K_SPACE) || b[i + 5] == '?')) {
            size_t k = declaration(b + i, n - i, &status);
            if (k == 0) {
                if (status == CX_SCAN_INCOMPLETE && !is_last) { *consumed = 0; return CX_SCAN_OK; }
                return CX_SCAN_BAIL;
            }
            i += k;
        }
        s->started = 1;
    }
    while (i < n) {
        if (b[i] != '<') {
            const unsigned char *lt = memchr(b + i, '<', n - i);
            if (lt == NULL && !is_last) break;  // text goes on in the next bytes
            size_t end = lt ? (size_t)(lt - b) : n;
            if (s->depth == 0) {
                // Outside the root only whitespace.
                for (size_t k = i; k < end; k++) if (!(classes[b[k]] & K_SPACE)) return CX_SCAN_BAIL;
            } else {
                int checked = check_text(b + i, end - i, 0);
                if (checked == 0) return CX_SCAN_BAIL;
                const unsigned char *text = b + i;
                size_t length = end - i;
                if (checked == 2) {
                    length = decode(b + i, end - i, 0, s->scratch);
                    text = s->scratch;
                }
                if (length > 0) {
                    events->characters(events->owner, text, (int)length);
                    if (*events->failed) return CX_SCAN_HANDLER;
                }
            }
            i = end;
            continue;
        }
        if (i + 1 >= n) { status = CX_SCAN_INCOMPLETE; break; }
        size_t k;
        if (b[i + 1] == '/') k = end_tag(s, b + i, n - i, events, &status);
        else if (b[i + 1] == '!' || b[i + 1] == '?') return CX_SCAN_BAIL;  // comments, CDATA, DTDs, PIs
        else k = start_tag(s, b + i, n - i, events, &status);
        if (status != CX_SCAN_OK) break;
        i += k;
    }
    *consumed = i;
    if (status == CX_SCAN_INCOMPLETE) status = CX_SCAN_OK;
    if (status != CX_SCAN_OK) return status;
    if (is_last && (i < n || s->depth != 0 || !s->root_seen)) return CX_SCAN_BAIL;
    return CX_SCAN_OK;
}

int cx_scanner_feed(cx_scanner *s, const unsigned char *bytes, size_t length, int is_last, const cx_scan_events *events) {
    // Decoded text and attribute values are never longer than the bytes they come from.
    if (!cx_grow((void **)&s->scratch, &s->scratch_capacity, (uint64_t)s->carry_length + length + 1, 1)) return CX_SCAN_BAIL;
    size_t consumed = 0, offset = 0;
    int status;
    // A token left open by the last bytes: finished in the carry with a few of these bytes (all of
    // them if it needs them), and the rest scanned where it is, not copied.
    size_t appended = 0;
    while (s->carry_length > 0) {
        size_t open = s->carry_length;
        size_t take = length - appended;
        if (appended == 0 && take > 4096) take = 4096;
        if (!cx_grow((void **)&s->carry, &s->carry_capacity, (uint64_t)s->carry_length + take, 1)) return CX_SCAN_BAIL;
        if (take > 0) memcpy(s->carry + s->carry_length, bytes + appended, take);
        s->carry_length += take;
        appended += take;
        int last = is_last && appended == length;
        status = scan(s, s->carry, s->carry_length, last, events, &consumed);
        if (status != CX_SCAN_OK) return status;
        if (consumed >= open) {
            // Past what was carried: on from there in `bytes` itself.
            offset = appended - take + (consumed - open);
            s->carry_length = 0;
            if (last) return CX_SCAN_OK;
            break;
        }
        memmove(s->carry, s->carry + consumed, s->carry_length - consumed);
        s->carry_length -= consumed;
        if (appended == length) {
            if (s->carry_length > CX_SCAN_MAX_CARRY) return CX_SCAN_BAIL;
            return CX_SCAN_OK;
        }
    }
    const unsigned char *b = bytes + offset;
    size_t n = length - offset;
    status = scan(s, b, n, is_last, events, &consumed);
    if (status != CX_SCAN_OK) return status;
    size_t rest = n - consumed;
    if (rest > CX_SCAN_MAX_CARRY) return CX_SCAN_BAIL;
    if (rest > 0) {
        if (!cx_grow((void **)&s->carry, &s->carry_capacity, rest, 1)) return CX_SCAN_BAIL;
        memcpy(s->carry, b + consumed, rest);
    }
    s->carry_length = (uint32_t)rest;
    return CX_SCAN_OK;
}
