import CXLSXSupport
import Foundation
import TradeportPrimitives

/// An XLSX workbook opened for reading: its sheets (found through `workbook.xml` and its
/// relationships), its date system, and each sheet's rows streamed one at a time.
///
/// Memory holds the shared strings and a row; a sheet is inflated and parsed in chunks while its
/// rows are handed over. Nothing is fetched from the network, no DTD is read, and inflation is
/// bounded by `XLSXLimits`.
public final class XLSXWorkbook {
    /// A sheet as the workbook lists it.
    public struct Sheet: Sendable, Hashable {
        public let name: String
        /// 0-based position in the workbook.
        public let index: Int
        /// `visible`, `hidden` or `veryHidden`.
        public let state: String
        /// The archive entry holding the sheet.
        public let part: String
    }

    /// Which date serials a workbook uses.
    public enum DateSystem: Sendable {
        /// Day 1 is 1900-01-01, with Lotus's phantom 1900-02-29 as day 60.
        case from1900
        /// Day 0 is 1904-01-01.
        case from1904
    }

    public let path: String
    public let sheets: [Sheet]
    public let dateSystem: DateSystem

    private let package: XLSXPackage
    private var loadedStrings: SharedStrings??
    private var loadedDateStyles: [Bool]?

    /// Opens the workbook at `path`: checks it is one, reads its sheet list and date system.
    public init(path: String, limits: XLSXLimits = .default) throws {
        self.path = path
        package = try XLSXPackage(path: path, limits: limits)

        var workbookPart = "xl/workbook.xml"
        if package.has("_rels/.rels") {
            let rels = try Self.parse(package, "_rels/.rels", RelationshipsHandler())
            if let target = rels.target(ofKind: "officeDocument") { workbookPart = Self.resolve(target, from: "") }
        }
        guard package.has(workbookPart) else {
            throw XLSXError(.notAWorkbook, "a ZIP archive without a workbook part (\(workbookPart)); not an XLSX workbook")
        }
        let workbook = try Self.parse(package, workbookPart, WorkbookHandler(part: workbookPart))
        dateSystem = workbook.uses1904 ? .from1904 : .from1900

        let folder = Self.folder(of: workbookPart)
        let relsPart = folder + "_rels/" + String(workbookPart.split(separator: "/").last!) + ".rels"
        var relationships: [String: String] = [:]
        var rels: RelationshipsHandler?
        if package.has(relsPart) {
            let handler = try Self.parse(package, relsPart, RelationshipsHandler())
            for r in handler.relationships where !r.isExternal {
                relationships[r.id] = Self.resolve(r.target, from: folder)
            }
            rels = handler
        }
        var sheets: [Sheet] = []
        for (i, entry) in workbook.sheets.enumerated() {
            guard let part = relationships[entry.relationshipId] else {
                throw XLSXError(
                    .malformed, "sheet '\(entry.name)' names relationship \(entry.relationshipId), which \(relsPart) does not have", part: workbookPart)
            }
            sheets.append(Sheet(name: entry.name, index: i, state: entry.state ?? "visible", part: part))
        }
        self.sheets = sheets
        sharedStringsPart = rels?.target(ofKind: "sharedStrings").map { Self.resolve($0, from: folder) }
        stylesPart = rels?.target(ofKind: "styles").map { Self.resolve($0, from: folder) }
    }

    private let sharedStringsPart: String?
    private let stylesPart: String?

    /// Why a file whose first bytes are `head` (8 are enough) cannot be an XLSX workbook, or nil
    /// when it starts as one (a ZIP archive; opening it tells the rest). An OLE compound file is an
    /// encrypted workbook (`.encrypted`) or an old `.xls` (`.legacyExcel`): told apart by reading
    /// the file at `path` (which can take a while for a big one), and called either without it.
    public static func signatureProblem(head: [UInt8], path: String?) -> XLSXError? {
        XLSXPackage.signatureProblem(head: head, path: path)
    }

    /// The sheet named `name` (exactly, else ignoring case).
    public func sheet(named name: String) throws -> Sheet {
        if let sheet = sheets.first(where: { $0.name == name }) ?? sheets.first(where: { $0.name.lowercased() == name.lowercased() }) {
            return sheet
        }
        throw XLSXError(.noSuchSheet, "no sheet named '\(name)'; the workbook has \(sheetList)")
    }

    /// The sheet at 0-based `index`.
    public func sheet(at index: Int) throws -> Sheet {
        guard sheets.indices.contains(index) else {
            throw XLSXError(.noSuchSheet, "no sheet \(index + 1); the workbook has \(sheetList)")
        }
        return sheets[index]
    }

    private var sheetList: String {
        sheets.isEmpty ? "no sheets" : sheets.map { "'\($0.name)'" }.joined(separator: ", ")
    }

    /// Streams the rows of `sheet` that have at least one non-empty cell, in sheet order. `body`
    /// returns false to stop early. A row and its cells are valid only during the call.
    public func readRows(of sheet: Sheet, _ body: (XLSXRow) throws -> Bool) throws {
        let strings = try sharedStrings()
        let dateStyles = try self.dateStyles()
        if let size = package.declaredSize(of: sheet.part), size <= inlineSheetBytes {
            return try readRowsInline(of: sheet, strings: strings, dateStyles: dateStyles, body)
        }
        // Inflating and parsing run on a thread of their own; rows come back here in batches.
        let channel = Handoff<RowBatch, any Error>(capacity: 4)
        let producer = SheetProducer(package: package, part: sheet.part, sharedStringCount: strings?.count ?? 0, channel: channel)
        let thread = Thread { producer.run() }
        thread.stackSize = 8 << 20
        thread.start()
        defer {
            channel.cancel()
            channel.waitUntilFinished()
        }
        var scratch: [XLSXCell] = []
        scratch.reserveCapacity(64)
        while let batch = try channel.receive() {
            if try !batch.forEachRow(&scratch, strings: strings, dateStyles: dateStyles, body) { return }
        }
    }

    /// A sheet that declares at most this many bytes inflated is inflated and parsed on the calling
    /// thread: for a small sheet, starting two threads costs more than their overlap saves (1 MiB;
    /// tests set it to read small sheets both ways).
    var inlineSheetBytes = 1 << 20

    /// `readRows` on the calling thread: each batch the parser hands over is read as it is made, in
    /// the parser's own buffers.
    private func readRowsInline(
        of sheet: Sheet, strings: SharedStrings?, dateStyles: [Bool],
        _ body: (XLSXRow) throws -> Bool
    ) throws {
        try withoutActuallyEscaping(body) { body in
            let reading = InlineRows(strings: strings, dateStyles: dateStyles, body: body)
            let context = Unmanaged.passUnretained(reading).toOpaque()
            guard
                let parser = cx_sheet_parser_create(
                    context,
                    { context, batch in
                        let reading = Unmanaged<InlineRows>.fromOpaque(context!).takeUnretainedValue()
                        do {
                            return try RowBatch.forEachRow(
                                in: batch!, &reading.scratch, strings: reading.strings,
                                dateStyles: reading.dateStyles, reading.body) ? 1 : 0
                        } catch {
                            reading.failure = error
                            return 0
                        }
                    }, UInt32(clamping: strings?.count ?? 0), UInt32(RowBatch.rowsPerBatch))
            else {
                throw XLSXError(.malformed, "cannot create an XML parser (out of memory)", part: sheet.part)
            }
            defer { cx_sheet_parser_free(parser) }
            struct Stopped: Error {}
            do {
                try Self.parse(parser, part: sheet.part) { chunk in
                    do {
                        try package.stream(sheet.part) { if try !chunk($0) { throw Stopped() } }
                    } catch is Stopped {}
                }
            } catch {
                // An error of the caller's `body` ends parsing too: it is the one to report.
                throw reading.failure ?? error
            }
            if let failure = reading.failure { throw failure }
        }
    }

    /// What `readRowsInline` keeps while the parser calls back.
    private final class InlineRows {
        let strings: SharedStrings?
        let dateStyles: [Bool]
        let body: (XLSXRow) throws -> Bool
        var scratch: [XLSXCell] = []
        var failure: (any Error)?

        init(strings: SharedStrings?, dateStyles: [Bool], body: @escaping (XLSXRow) throws -> Bool) {
            self.strings = strings
            self.dateStyles = dateStyles
            self.body = body
            scratch.reserveCapacity(64)
        }
    }

    /// What a sheet parser asks for after a chunk.
    fileprivate enum Fed {
        /// The next chunk.
        case more
        /// Nothing more: the reading side asked it to stop (or the failure of that side, kept by
        /// the caller, stopped it).
        case stop
        /// The part again from its first byte: the parser's own scanner gave up on something
        /// outside the subset it reads, and libxml2 reads the part now, skipping the rows already
        /// handed over (`CX_SHEET_REPLAY`; once at most).
        case replay
    }

    /// Feeds a sheet `part` to `parser` from `stream`, which streams the part from its first byte,
    /// handing each chunk to its body until that returns false; and once more when the parser's
    /// scanner gave up.
    fileprivate static func parse(
        _ parser: OpaquePointer, part: String,
        stream: (_ chunk: (UnsafeRawBufferPointer) throws -> Bool) throws -> Void
    ) throws {
        for _ in 0..<2 {
            var fed = Fed.more
            try stream { bytes in
                fed = try feed(parser, bytes, last: false, part: part)
                return fed == .more
            }
            if fed == .more { fed = try feed(parser, UnsafeRawBufferPointer(start: nil, count: 0), last: true, part: part) }
            if fed != .replay { return }
        }
    }

    /// Feeds `bytes` (at most a chunk) to a sheet parser and says what it asks for next; throws what
    /// the parser found malformed or refused.
    fileprivate static func feed(_ parser: OpaquePointer, _ bytes: UnsafeRawBufferPointer, last: Bool, part: String) throws -> Fed {
        let status = cx_sheet_parser_feed(
            parser, bytes.baseAddress?.assumingMemoryBound(to: CChar.self),
            Int32(bytes.count), last ? 1 : 0)
        if status == 0 { return .more }
        if status == CX_SHEET_REPLAY { return .replay }
        if cx_sheet_parser_stopped(parser) != 0 { return .stop }
        let message = String(cString: cx_sheet_parser_error_message(parser))
        let refused = cx_sheet_parser_error_is_refusal(parser) != 0
        throw XLSXError(
            refused ? .unsafe : .malformed, refused ? message : "not a well-formed sheet: \(message)",
            part: part, line: Int(cx_sheet_parser_error_line(parser)))
    }

    private func sharedStrings() throws -> SharedStrings? {
        if let loadedStrings { return loadedStrings }
        var strings: SharedStrings?
        if let part = sharedStringsPart, package.has(part) {
            let handler = SharedStringsHandler()
            let parser = try XMLPushParser(handler: handler, part: part)
            try package.stream(part) { try parser.feed($0) }
            try parser.finish()
            strings = handler.strings
        }
        loadedStrings = .some(strings)
        return strings
    }

    private func dateStyles() throws -> [Bool] {
        if let loadedDateStyles { return loadedDateStyles }
        var styles: [Bool] = []
        if let part = stylesPart, package.has(part) {
            styles = try Self.parse(package, part, StylesHandler()).dateStyles
        }
        loadedDateStyles = styles
        return styles
    }

    /// Runs the parsing side of `readRows` on its own thread.
    private final class SheetProducer: @unchecked Sendable {
        let package: XLSXPackage
        let part: String
        /// Bounds the shared-string indexes the sheet may use (they are resolved on the reading side).
        let sharedStringCount: Int
        let channel: Handoff<RowBatch, any Error>

        init(package: XLSXPackage, part: String, sharedStringCount: Int, channel: Handoff<RowBatch, any Error>) {
            self.package = package
            self.part = part
            self.sharedStringCount = sharedStringCount
            self.channel = channel
        }

        func run() {
            let context = Unmanaged.passUnretained(self).toOpaque()
            guard
                let parser = cx_sheet_parser_create(
                    context,
                    { context, batch in
                        let producer = Unmanaged<SheetProducer>.fromOpaque(context!).takeUnretainedValue()
                        return producer.channel.send(RowBatch(batch!)) ? 1 : 0
                    }, UInt32(clamping: sharedStringCount), UInt32(RowBatch.rowsPerBatch))
            else {
                channel.finish(XLSXError(.malformed, "cannot create an XML parser (out of memory)", part: part))
                return
            }
            var failure: (any Error)?
            do {
                try XLSXWorkbook.parse(parser, part: part) { chunk in try inflate(chunk) }
            } catch {
                failure = error
            }
            cx_sheet_parser_free(parser)
            channel.finish(failure)
        }

        /// Inflates the part on one more thread, a few chunks ahead (each at most
        /// `XLSXPackage.chunkSize` bytes), handing them to `chunk` until it returns false. Returns
        /// only once the inflating thread has stopped, so that when `readRows` returns no thread is
        /// still reading the archive.
        private func inflate(_ chunk: (UnsafeRawBufferPointer) throws -> Bool) throws {
            let chunks = Handoff<Data, any Error>(capacity: 8)
            let inflater = Inflater(package: package, part: part, chunks: chunks)
            let thread = Thread { inflater.run() }
            thread.stackSize = 1 << 20
            thread.start()
            defer {
                chunks.cancel()
                chunks.waitUntilFinished()
            }
            while let data = try chunks.receive() {
                if try !data.withUnsafeBytes(chunk) { return }
            }
        }
    }

    /// Inflates a part in chunks and hands them over.
    private final class Inflater: @unchecked Sendable {
        let package: XLSXPackage
        let part: String
        let chunks: Handoff<Data, any Error>

        init(package: XLSXPackage, part: String, chunks: Handoff<Data, any Error>) {
            self.package = package
            self.part = part
            self.chunks = chunks
        }

        struct Stopped: Error {}

        func run() {
            do {
                // Each chunk is a buffer of its own, handed over as it is.
                try package.streamChunks(part) { chunk in
                    guard chunks.send(chunk) else { throw Stopped() }
                }
                chunks.finish(nil)
            } catch is Stopped {
                chunks.finish(nil)
            } catch {
                chunks.finish(error)
            }
        }
    }

    private static func parse<Handler: XMLEventHandler>(_ package: XLSXPackage, _ part: String, _ handler: Handler) throws -> Handler {
        let parser = try XMLPushParser(handler: handler, part: part)
        // Relationships, the workbook and the styles are small parts: their own, lower limit.
        try package.stream(part, limit: package.limits.maxSmallPartBytes) { try parser.feed($0) }
        try parser.finish()
        return handler
    }

    private static func folder(of part: String) -> String {
        guard let slash = part.lastIndex(of: "/") else { return "" }
        return String(part[...slash])
    }

    /// A relationship target resolved against the folder of its source part (`/xl/x.xml` is absolute).
    static func resolve(_ target: String, from folder: String) -> String {
        var components: [Substring] = target.hasPrefix("/") ? [] : folder.split(separator: "/")
        for component in target.split(separator: "/") {
            if component == ".." { if !components.isEmpty { components.removeLast() } } else if component != "." { components.append(component) }
        }
        return components.joined(separator: "/")
    }
}
