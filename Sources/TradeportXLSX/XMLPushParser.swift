import CXLSXSupport

/// Receives the events of a `XMLPushParser`. Element names are local names (any prefix and
/// namespace dropped, so transitional, strict and prefixed documents read alike).
class XMLEventHandler {
    func startElement(_ name: UnsafePointer<CChar>, _ attributes: XMLAttributes) {}
    func endElement(_ name: UnsafePointer<CChar>) {}
    func characters(_ text: UnsafeRawBufferPointer) {}

    /// Set by a handler to end parsing with an error.
    final var failure: XLSXError?
    fileprivate final var parser: OpaquePointer?

    /// Ends parsing from inside a callback; `feed` then throws `error`.
    final func stop(_ error: XLSXError) {
        if failure == nil { failure = error }
        if let parser { cx_xml_parser_stop(parser) }
    }
}

/// The attributes of a start tag, as libxml2 hands them over (five pointers each).
struct XMLAttributes {
    let count: Int
    let pointers: UnsafePointer<UnsafePointer<CChar>?>?

    /// The value of the attribute with local name `name`, as bytes valid during the callback.
    @inline(__always)
    func value(_ name: StaticString) -> UnsafeRawBufferPointer? {
        guard let pointers else { return nil }
        for i in 0..<count {
            let base = i * 5
            if let local = pointers[base], XMLName.equals(local, name) {
                let start = UnsafeRawPointer(pointers[base + 3]!)
                let end = UnsafeRawPointer(pointers[base + 4]!)
                return UnsafeRawBufferPointer(start: start, count: end - start)
            }
        }
        return nil
    }

    /// The value of attribute `name` whose namespace URI ends with `uriSuffix`.
    func value(_ name: StaticString, namespaceEndingWith uriSuffix: String) -> UnsafeRawBufferPointer? {
        guard let pointers else { return nil }
        for i in 0..<count {
            let base = i * 5
            guard let local = pointers[base], XMLName.equals(local, name), let uri = pointers[base + 2],
                String(cString: uri).hasSuffix(uriSuffix)
            else { continue }
            let start = UnsafeRawPointer(pointers[base + 3]!)
            let end = UnsafeRawPointer(pointers[base + 4]!)
            return UnsafeRawBufferPointer(start: start, count: end - start)
        }
        return nil
    }

    func string(_ name: StaticString) -> String? {
        value(name).map { String(decoding: $0, as: UTF8.self) }
    }
}

enum XMLName {
    /// Whether the NUL-terminated `name` is `expected`.
    @inline(__always)
    static func equals(_ name: UnsafePointer<CChar>, _ expected: StaticString) -> Bool {
        let e = expected.utf8Start
        let n = expected.utf8CodeUnitCount
        for i in 0..<n where UInt8(bitPattern: name[i]) != e[i] { return false }
        return name[n] == 0
    }
}

/// libxml2's SAX2 push parser, fed chunk by chunk: memory stays flat whatever the document's size.
/// DTDs, entity declarations and non-predefined entities are refused; nothing is fetched.
final class XMLPushParser {
    private let parser: OpaquePointer
    private let handler: XMLEventHandler
    private let part: String

    init(handler: XMLEventHandler, part: String) throws {
        let context = Unmanaged.passUnretained(handler).toOpaque()
        guard
            let parser = cx_xml_parser_create(
                context,
                // The parser holds the handler; no retain and release per event.
                { context, name, _, count, attributes in
                    Unmanaged<XMLEventHandler>.fromOpaque(context!)._withUnsafeGuaranteedRef {
                        $0.startElement(name!, XMLAttributes(count: Int(count), pointers: attributes))
                    }
                },
                { context, name in
                    Unmanaged<XMLEventHandler>.fromOpaque(context!)._withUnsafeGuaranteedRef { $0.endElement(name!) }
                },
                { context, text, length in
                    Unmanaged<XMLEventHandler>.fromOpaque(context!)._withUnsafeGuaranteedRef {
                        $0.characters(UnsafeRawBufferPointer(start: text, count: Int(length)))
                    }
                }
            )
        else { throw XLSXError(.malformed, "cannot create an XML parser (out of memory)", part: part) }
        self.parser = parser
        self.handler = handler
        self.part = part
        handler.parser = parser
    }

    deinit {
        handler.parser = nil
        cx_xml_parser_free(parser)
    }

    /// Parses the next bytes (a chunk of `XLSXPackage.stream`, at most its chunk size); `last`
    /// ends the document.
    func feed(_ bytes: UnsafeRawBufferPointer, last: Bool = false) throws {
        let base = bytes.baseAddress?.assumingMemoryBound(to: CChar.self)
        guard cx_xml_parser_feed(parser, base, Int32(bytes.count), last ? 1 : 0) != 0 else { return }
        if let failure = handler.failure { throw failure }
        let message = String(cString: cx_xml_parser_error_message(parser))
        if message.isEmpty { throw XLSXError(.malformed, "parsing stopped", part: part) }
        let refused = cx_xml_parser_error_is_refusal(parser) != 0
        throw XLSXError(
            refused ? .unsafe : .malformed, refused ? message : "not well-formed XML: \(message)",
            part: part, line: Int(cx_xml_parser_error_line(parser)))
    }

    func finish() throws {
        try feed(UnsafeRawBufferPointer(start: nil, count: 0), last: true)
    }
}
