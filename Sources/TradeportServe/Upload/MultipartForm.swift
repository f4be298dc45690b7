import Foundation

/// The parts of a `multipart/form-data` body (RFC 7578), as the original server's file upload takes
/// them: a part's name and its bytes.
struct MultipartForm {
    struct Part {
        var name: String?
        var filename: String?
        var body: ArraySlice<UInt8>
    }

    let parts: [Part]

    /// Why a body is not a form.
    struct Malformed: Error, CustomStringConvertible {
        let description: String
    }

    /// The boundary of a `Content-Type: multipart/form-data; boundary=…` header.
    static func boundary(contentType: String) -> String? {
        guard contentType.lowercased().hasPrefix("multipart/form-data") else { return nil }
        for parameter in contentType.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces).lowercased() == "boundary" else { continue }
            var value = pair[1].trimmingCharacters(in: .whitespaces)
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = String(value.dropFirst().dropLast()) }
            return value.isEmpty ? nil : value
        }
        return nil
    }

    init(body: [UInt8], boundary: String) throws {
        let delimiter = Array(("--" + boundary).utf8)
        var parts: [Part] = []
        guard var start = Self.find(delimiter, in: body, from: 0) else { throw Malformed(description: "no part starts with the boundary") }
        while true {
            var cursor = start + delimiter.count
            // "--" after a delimiter ends the form.
            if body.count >= cursor + 2, body[cursor] == UInt8(ascii: "-"), body[cursor + 1] == UInt8(ascii: "-") { break }
            guard let headersEnd = Self.find(Array("\r\n\r\n".utf8), in: body, from: cursor) else {
                throw Malformed(description: "a part's headers do not end")
            }
            let headers = String(decoding: body[cursor..<headersEnd], as: UTF8.self)
            cursor = headersEnd + 4
            guard let next = Self.find(Array("\r\n".utf8) + delimiter, in: body, from: cursor) else {
                throw Malformed(description: "a part does not end with the boundary")
            }
            var part = Part(name: nil, filename: nil, body: body[cursor..<next])
            for line in headers.split(separator: "\r\n") where line.lowercased().hasPrefix("content-disposition:") {
                part.name = Self.parameter("name", in: line)
                part.filename = Self.parameter("filename", in: line)
            }
            parts.append(part)
            start = next + 2
        }
        self.parts = parts
    }

    private static func parameter(_ name: String, in line: Substring) -> String? {
        for item in line.split(separator: ";").dropFirst() {
            let pair = item.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces) == name else { continue }
            var value = pair[1].trimmingCharacters(in: .whitespaces)
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = String(value.dropFirst().dropLast()) }
            return value
        }
        return nil
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8], from: Int) -> Int? {
        guard !needle.isEmpty, haystack.count >= needle.count else { return nil }
        var i = from
        let last = haystack.count - needle.count
        while i <= last {
            if haystack[i] == needle[0] && haystack[i..<(i + needle.count)].elementsEqual(needle) { return i }
            i += 1
        }
        return nil
    }
}
