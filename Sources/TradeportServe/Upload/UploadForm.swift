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

        // multipart-kit 4.7.1 traps on a header-name byte of 0x80 or more, and it reads a name
        // across line breaks until a ':', so no check short of its own parse can tell which bytes
        // it will take for a name (fuzz/regressions/multipart: two such bodies took serve down).
        // Until the parser is fixed or replaced, a body holding any byte past ASCII is refused:
        // the uploads it takes are DSX exports, which are ASCII.
        if let at = body.firstIndex(where: { $0 >= 0x80 }) {
            throw Malformed(description: "the body holds a byte that is not ASCII (0x\(String(body[at], radix: 16, uppercase: true)) at byte \(at)), which this server's multipart reader cannot take safely")
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
