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

        if let problem = nonASCIIHeaderName(in: body, boundary: Array(("--" + boundary).utf8)) { throw Malformed(description: problem) }

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

    /// Why the body's part headers cannot be handed to multipart-kit, or nil. multipart-kit 4.7.1
    /// reads a header name's byte from a 128-entry table and traps on a byte of 0x80 or more,
    /// which took the whole server down (found by fuzzing `fuzz/run.sh multipart`). Every place
    /// a delimiter could start is checked (more than the parser will take for one): each line of
    /// the header block after it, up to its first ':', must be ASCII.
    static func nonASCIIHeaderName(in body: [UInt8], boundary delimiter: [UInt8]) -> String? {
        guard !delimiter.isEmpty, body.count >= delimiter.count else { return nil }
        var i = 0
        let last = body.count - delimiter.count
        while i <= last {
            guard body[i] == delimiter[0], body[i..<(i + delimiter.count)].elementsEqual(delimiter) else { i += 1; continue }
            // The delimiter line, then header lines until an empty one.
            var j = i + delimiter.count
            var inName = true
            var lineLength = 0
            while j < body.count {
                let b = body[j]
                if b == 0x0A {
                    if lineLength == 0 || (lineLength == 1 && body[j - 1] == 0x0D) { if j > i + delimiter.count + 1 { break } }
                    inName = true
                    lineLength = 0
                } else {
                    if b == UInt8(ascii: ":") { inName = false }
                    if inName && b >= 0x80 { return "a part's header name holds a byte that is not ASCII (0x\(String(b, radix: 16, uppercase: true)))" }
                    lineLength += 1
                }
                j += 1
            }
            i += delimiter.count
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
