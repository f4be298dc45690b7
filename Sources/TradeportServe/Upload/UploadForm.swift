import Foundation
import MultipartKit
import NIOCore

/// The file of an upload: the part named `file` of a `multipart/form-data` body (RFC 7578), as the
/// original server's file upload takes it. The body is parsed by vapor/multipart-kit; what is left
/// here is reading the two header parameters it does not hand out (the boundary of the request's
/// `Content-Type`, the `filename` of the part's `Content-Disposition`).
public enum UploadForm {
    public struct File: Sendable {
        public var filename: String?
        public var bytes: [UInt8]
    }

    /// Why a body is not a form.
    public struct Malformed: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// The part named `file` of a multipart/form-data body; nil when the body has no such part.
    public static func file(contentType: String, body: [UInt8]) throws(Malformed) -> File? {
        guard contentType.lowercased().hasPrefix("multipart/form-data") else {
            throw Malformed(description: "the Content-Type is not multipart/form-data")
        }
        guard let boundary = parameter("boundary", in: contentType) else {
            throw Malformed(description: "the Content-Type names no boundary")
        }
        // RFC 2046: 1 to 70 characters.
        guard boundary.utf8.count <= 70 else { throw Malformed(description: "the boundary is longer than 70 characters") }

        // multipart-kit 4.7.1 traps on a header-name byte of 0x80 or more (it looks the byte up in
        // a 128-entry table): such a body is refused before the kit sees it. Content and header
        // values may hold any byte (a Cyrillic file, a UTF-8 filename).
        if let at = nonASCIIHeaderName(body, boundary: Array(boundary.utf8)) {
            throw Malformed(
                description: "a part's header name holds a byte that is not ASCII (0x\(String(body[at], radix: 16, uppercase: true)) at byte \(at))")
        }

        var found: File?
        var headers: [(String, String)] = []
        var content: [UInt8] = []
        var complete = false
        let parser = MultipartParser(boundary: boundary)
        parser.onHeader = { name, value in headers.append((name, value)) }
        parser.onBody = { buffer in
            // Only the first part named `file` is kept.
            if found == nil, isFile(headers) != nil { content += buffer.readableBytesView }
        }
        parser.onPartComplete = {
            if found == nil, let disposition = isFile(headers) {
                found = File(filename: parameter("filename", in: disposition), bytes: content)
            }
            headers = []
            content = []
            complete = true
        }
        do {
            try parser.execute(body)
        } catch {
            throw Malformed(description: "the parts are not separated as multipart/form-data requires")
        }
        guard complete else { throw Malformed(description: "no part ends with the boundary") }
        return found
    }

    /// The offset of a byte ≥ 0x80 where multipart-kit's parser could read a header name, else nil.
    ///
    /// The kit reads headers only after a boundary it matched, and every boundary it matches is
    /// the text `--BOUNDARY` (`\r\n--BOUNDARY` between parts, `--BOUNDARY` in the preamble). Its
    /// header block then ends at the first `\r\n\r\n`: a value runs to a CR (an LF alone is part of
    /// it), a CR must be followed by LF, and a name holds no CR. So every name it reads starts just
    /// after a `\r\n` between an occurrence of `--BOUNDARY` and the `\r\n\r\n` after it, and runs to
    /// a `:` or a CR. Those runs are checked: a superset of what the kit reads as names, exact for
    /// the body a client sends, whose content never holds `--BOUNDARY`.
    static func nonASCIIHeaderName(_ body: [UInt8], boundary: [UInt8]) -> Int? {
        let marker = [UInt8(ascii: "-"), UInt8(ascii: "-")] + boundary
        let cr: UInt8 = 0x0D
        let lf: UInt8 = 0x0A
        let colon = UInt8(ascii: ":")
        var from = 0
        while let start = find(marker, in: body, from: from) {
            var i = start + marker.count
            // The block: up to the first CR LF that an empty name follows.
            while i < body.count {
                if body[i] == cr, i + 1 < body.count, body[i + 1] == lf {
                    // A name starts after this CR LF (an empty one ends the block).
                    var j = i + 2
                    while j < body.count, body[j] != colon, body[j] != cr {
                        if body[j] >= 0x80 { return j }
                        j += 1
                    }
                    if j == i + 2 { break }
                    i = j
                } else {
                    i += 1
                }
            }
            // An occurrence that ends inside this block has its block inside this one: each byte is
            // looked at a bounded number of times, however many occurrences a body holds.
            from = max(start + 1, i - marker.count + 1)
        }
        return nil
    }

    /// The first offset at or after `from` where `needle` occurs in `haystack`.
    private static func find(_ needle: [UInt8], in haystack: [UInt8], from: Int) -> Int? {
        guard let first = needle.first, haystack.count >= needle.count else { return nil }
        var i = from
        let last = haystack.count - needle.count
        while i <= last {
            if haystack[i] == first, haystack[i..<i + needle.count].elementsEqual(needle) { return i }
            i += 1
        }
        return nil
    }

    /// The `Content-Disposition` value of a part named `file`, else nil.
    private static func isFile(_ headers: [(String, String)]) -> String? {
        for (name, value) in headers where name.lowercased() == "content-disposition" {
            return parameter("name", in: value) == "file" ? value : nil
        }
        return nil
    }

    /// A `key=value` or `key="value"` parameter of a header value (`form-data; name="file"`).
    static func parameter(_ key: String, in value: String) -> String? {
        for item in value.split(separator: ";").dropFirst() {
            let pair = item.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces).lowercased() == key else { continue }
            var text = pair[1].trimmingCharacters(in: .whitespaces)
            if text.hasPrefix("\""), text.hasSuffix("\""), text.count >= 2 { text = String(text.dropFirst().dropLast()) }
            return text.isEmpty ? nil : text
        }
        return nil
    }
}
