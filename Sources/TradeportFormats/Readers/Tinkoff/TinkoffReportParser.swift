import TradeportCore
import TradeportPrimitives
import TradeportXLSX

/// Walks the report's rows: the sections, their header rows and page footers, and hands each data
/// row to the section that reads it — section 1 (deals) in `+Deals`, section 2 (cash and the
/// currency balances) in `+Cash`, sections 3.1 and 4.1 (positions and securities) in
/// `+Securities`, and the positions' changes without money in `+Movements`; the balances the report prints (section 2's summary, 3.1) are gathered as
/// `StatedBalance`s, which the conversion checks the operations against.
///
/// The securities (section 4.1: ISINs, nominals, names) and the positions come after the deals
/// and the cash, so rows are held while the sheet streams by — a deal as its trade, a cash row as
/// its cells, the raw text of both as bytes in one chunked buffer — and finished and emitted at
/// the end, in row order.
final class TinkoffReportParser {
    enum Section {
        case preamble
        case executedTrades, pendingTrades, terminatedTrades, repoChanges
        case cash
        case positions
        case securities
        case reference(String)
    }

    /// What is held until the end of the sheet: a record already made, a deal read while the
    /// sheet streams by and finished at the end (its ISIN, a bond's nominal, a repo's other leg), a
    /// cash row kept as its cells, or a position of 3.1. A record and a deal keep their row's raw
    /// text in `rawTexts`, up to `rawEnd`: it is made into a string only when a reject or a
    /// conflict shows it.
    ///
    /// Every held row has one `HeldEntry` in `heldEntries`, in row order; the kinds that are rare
    /// or bounded (a record, a deal on the heap, a position) wait in lists of their own, in the
    /// same order, and are taken from them as their entries come.
    enum HeldKind: UInt8 {
        case record, deal, spooledDeal, cashRow, position
    }

    /// A held row's entry: its kind, and for the common kinds where their bytes are. Written as
    /// `size` bytes to `heldEntries` (a scratch file as it grows), so that holding a large
    /// report's rows until its end costs no memory as it grows.
    struct HeldEntry {
        static let size = 32
        var kind: HeldKind
        /// A spooled deal's start in `heldDeals`, a cash row's in `heldCashRows`.
        var start = 0
        /// A spooled deal's trade bytes (its code's follow them), a cash row's bytes.
        var length: UInt32 = 0
        /// A spooled deal's code length + 1 (0: no code); a cash row's map in `cashMaps`.
        private var detail: UInt32 = 0
        /// A spooled deal's `rawEnd`; a cash row's currency in `cashCurrencies`.
        private var extra = 0

        init(kind: HeldKind) { self.kind = kind }

        static func spooledDeal(start: Int, tradeBytes: Int, codeBytes: Int?, rawEnd: Int) -> HeldEntry {
            var entry = HeldEntry(kind: .spooledDeal)
            entry.start = start
            entry.length = UInt32(tradeBytes)
            entry.detail = codeBytes.map { UInt32($0 + 1) } ?? 0
            entry.extra = rawEnd
            return entry
        }

        static func cashRow(start: Int, bytes: Int, map: Int, currency: Int) -> HeldEntry {
            var entry = HeldEntry(kind: .cashRow)
            entry.start = start
            entry.length = UInt32(bytes)
            entry.detail = UInt32(map)
            entry.extra = currency
            return entry
        }

        var codeBytes: Int? { detail == 0 ? nil : Int(detail) - 1 }
        var rawEnd: Int { extra }
        var map: Int { Int(detail) }
        var currency: Int { extra }

        func append(to spool: Spool) {
            withUnsafeTemporaryAllocation(byteCount: Self.size, alignment: 8) { buffer in
                buffer.initializeMemory(as: UInt8.self, repeating: 0)
                buffer[0] = kind.rawValue
                buffer.storeBytes(of: Int64(start).littleEndian, toByteOffset: 8, as: Int64.self)
                buffer.storeBytes(of: length.littleEndian, toByteOffset: 16, as: UInt32.self)
                buffer.storeBytes(of: detail.littleEndian, toByteOffset: 20, as: UInt32.self)
                buffer.storeBytes(of: Int64(extra).littleEndian, toByteOffset: 24, as: Int64.self)
                spool.append(contentsOf: UnsafeRawBufferPointer(buffer))
            }
        }

        /// The entry `append` wrote; nil for bytes it did not write.
        init?(_ bytes: UnsafeRawBufferPointer) {
            guard bytes.count == Self.size, let kind = HeldKind(rawValue: bytes[0]) else { return nil }
            self.kind = kind
            start = Int(Int64(littleEndian: bytes.loadUnaligned(fromByteOffset: 8, as: Int64.self)))
            length = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: 16, as: UInt32.self))
            detail = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: 20, as: UInt32.self))
            extra = Int(Int64(littleEndian: bytes.loadUnaligned(fromByteOffset: 24, as: Int64.self)))
        }
    }

    /// A deal of section 1.1 as read, waiting for what later sections say of it.
    struct HeldDeal {
        var trade: Trade
        /// The code as the report prints it (what 4.1 and 3.1 name the security by).
        var code: String?
        /// A repo's leg (1 or 2), read as a trade but accounted as financing.
        var repoLeg: UInt8?
        var rawEnd: Int
        var row: Int { trade.source.row }
    }

    /// A row's cells copied out of the sheet's buffers, as bytes: the row's number (8 bytes), its
    /// cell count (4), each cell's column (8), kind (1) and length (4), then the cells' bytes one
    /// after another. Held as it is, or appended to a scratch file (a cash row's `HeldEntry`).
    struct HeldRow {
        var bytes: [UInt8] = []

        init(_ row: XLSXRow) {
            Self.encode(row, into: &bytes)
        }

        /// Replaces `out`'s contents with the row's bytes.
        static func encode(_ row: XLSXRow, into out: inout [UInt8]) {
            out.removeAll(keepingCapacity: true)
            func put<T: FixedWidthInteger>(_ value: T) {
                withUnsafeBytes(of: value.littleEndian) { out.append(contentsOf: $0) }
            }
            put(Int64(row.number))
            put(UInt32(row.cells.count))
            for cell in row.cells {
                put(Int64(cell.column))
                out.append(cell.kind.rawValue)
                put(UInt32(cell.bytes.count))
            }
            for cell in row.cells { out.append(contentsOf: cell.bytes) }
        }

        /// The row as the sheet gave it, for reading with the same code as a live row.
        func withRow<R>(_ body: (XLSXRow) throws -> R) rethrows -> R {
            var cells: [XLSXCell] = []
            return try bytes.withUnsafeBytes { try Self.withRow(in: $0, cells: &cells, body) }
        }

        /// The row `encode` wrote in `bytes`; `cells` is scratch space.
        static func withRow<R>(in bytes: UnsafeRawBufferPointer, cells: inout [XLSXCell], _ body: (XLSXRow) throws -> R) rethrows -> R {
            func get<T: FixedWidthInteger>(_: T.Type, at offset: Int) -> T {
                T(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: T.self))
            }
            let number = Int(get(Int64.self, at: 0))
            let count = Int(get(UInt32.self, at: 8))
            cells.removeAll(keepingCapacity: true)
            var header = 12
            var data = 12 + 13 * count
            for _ in 0..<count {
                let length = Int(get(UInt32.self, at: header + 9))
                // A kind `encode` wrote: always one of `XLSXCell.Kind`'s.
                cells.append(
                    XLSXCell(
                        column: Int(get(Int64.self, at: header)), kind: XLSXCell.Kind(rawValue: bytes[header + 8]) ?? .string,
                        bytes: UnsafeRawBufferPointer(rebasing: bytes[data..<(data + length)])))
                header += 13
                data += length
            }
            return try cells.withUnsafeBufferPointer { try body(XLSXRow(number: number, cells: $0)) }
        }
    }

    var locations: RowLocations
    var zone: SourceTimeZone.Converter
    let dateSystem: XLSXWorkbook.DateSystem
    let codes = AssetCodeCache()

    var section = Section.preamble
    /// Why a row of the current reference section (3.2, 4.2, 5, …) is skipped, naming the section.
    var referenceSkipReason = ""
    var tradeMapIndex: Int?
    var cashMapIndex: Int?
    var tradeMaps: [TableMap] = []
    var cashMaps: [TableMap] = []
    var tradeLayouts: [[Layout]: Int] = [:]
    var cashLayouts: [[Layout]: Int] = [:]
    var tradeMap: TableMap? { tradeMapIndex.map { tradeMaps[$0] } }
    var cashMap: TableMap? { cashMapIndex.map { cashMaps[$0] } }
    /// Section 2's balance summary: its header's map while its rows are read.
    var balanceMap: TableMap?
    /// A row holding just a currency code, not yet known to be a block's heading (a header row
    /// follows) or a summary row without balances (the 2021 templates print those).
    var pendingCurrency: (row: HeldRow, code: AssetCode)?
    /// The columns of the summary's header row: a balance line's cells stand under them.
    var balanceHeaderColumns: Set<Int> = []
    /// Operation rows with no header row over them, while they last (`+CashLayout`).
    var headerless: HeaderlessBlock?
    /// The runs of operation rows printed with no currency label, whose currency the balances decide.
    var unlabelledRuns: [UnlabelledRun] = []
    var currency: AssetCode?
    var positionMap: TableMap?
    var securitiesMap: TableMap?
    /// The folded texts of the current reference table's header row (empty for a cell that is not text).
    var referenceHeader: [[UInt8]]?
    /// A cell's folded text, reused from row to row.
    var folded: [UInt8] = []

    /// Every held row's `HeldEntry`, in row order, in a scratch file as it grows.
    var heldEntries = Spool()
    /// The held records, deals on the heap and positions, each in row order (in chunks, so that
    /// holding them never needs twice their memory).
    var heldRecords = ChunkedList<(record: SourceRecord, rawEnd: Int)>()
    var dealsOnHeapHeld = ChunkedList<HeldDeal>()
    var heldPositions = ChunkedList<HeldPosition>()
    /// The positions of 3.1 again, for finding the securities printed under a ticker and under
    /// their ISIN before any is emitted (`+Rekeyed`): few, one a security and place of custody.
    var positionsSeen: [HeldPosition] = []
    /// Those securities, by ISIN, found at the end.
    var rekeyed: [String: Rekeyed] = [:]
    /// The currencies of the held cash rows (a cash row's entry names one by its place here), and
    /// the place of the last one used.
    var cashCurrencies: [AssetCode] = []
    var lastCashCurrency: (code: AssetCode, index: Int)?
    /// The raw text of the held records and deals: their cells joined by tabs, one after another,
    /// in a scratch file as it grows (read again only for a reject or a conflict).
    var rawTexts = Spool()
    /// The held deals past `dealsOnHeapLimit`: their trades as `RecordBytes`, in a scratch file as
    /// they grow. Reading them back costs time at the end, when nothing else runs beside it (a
    /// tenth of a second for 100,000), so the first ones stay on the heap.
    var heldDeals = Spool()
    var dealsOnHeap = 0
    /// How many deals stay on the heap (`TinkoffReportReader.dealsOnHeap`).
    let dealsOnHeapLimit: Int
    /// A deal's or a cash row's bytes on their way to a scratch file, reused from row to row.
    var scratch: [UInt8] = []
    /// The held cash rows' cells (`HeldRow`'s bytes, named by their entries), in a scratch file as they grow.
    var heldCashRows = Spool()
    /// A repo's legs by deal number, as read: the one that comes second nets them.
    var repoLegs: [String: [HeldDeal]] = [:]
    /// Set while the held rows are read and emitted at the end.
    var emit: RecordHandler?

    // What later sections tell earlier rows.
    var isinByCode: [String: String] = [:]
    var tickerByIsin: [String: String] = [:]
    var tickerByName: [String: String] = [:]
    var nominalByCode: [String: ExactDecimal] = [:]
    var codeBySecurityName: [String: String] = [:]
    var codeByDealName: [String: String] = [:]
    /// The last day of the report's period (its title), which dates what 3.1 alone says moved.
    var periodEnd: CalendarDate?
    /// While the held rows are emitted: the units of the trades emitted so far, per asset, and the
    /// full redemptions read from section 2, by their security's code and ISIN (see `+Movements`).
    var dealUnits: [AssetCode: DealUnits] = [:]
    var redemptions: [String: [Redemption]] = [:]
    /// The balances the report prints, in its order: per currency (section 2's summary) and per
    /// security and place of custody (3.1), a position under its code (what the deals' assets are).
    var balances: [StatedBalance] = []

    /// Whether the sheet had a section tradeport reads (1.1 or 2): a workbook without one is not
    /// a report of this kind, whatever its title says.
    private(set) var sawOperationsSection = false

    init(locations: RowLocations, zone: SourceTimeZone, dateSystem: XLSXWorkbook.DateSystem, dealsOnHeap: Int) {
        self.dealsOnHeapLimit = dealsOnHeap
        self.locations = locations
        self.zone = zone.makeConverter()
        self.dateSystem = dateSystem
    }

    // MARK: - Structure

    func handle(_ row: XLSXRow) throws {
        if row.cells.count <= 3 && Self.isFooter(row) { return }
        if row.cells.count == 1, let heading = Self.sectionNumber(row.cells[0]) {
            try enter(section: heading, title: row.cells[0].text)
            return
        }
        switch section {
        case .preamble:
            // The title block (broker, dates, investor) is one text cell a line; anything else
            // before the first section is a layout tradeport does not know, and said so.
            if row.cells.count == 1 && row.cells[0].kind == .string {
                if periodEnd == nil { periodEnd = Self.periodEnd(row.cells[0].text) }
                return
            }
            try reject(
                row,
                [
                    FieldError(
                        column: nil, field: nil,
                        message:
                            "a row before any section heading (1.1 Информация о совершенных и исполненных сделках…, 2. Операции с денежными средствами, …): the layout is not one tradeport knows"
                    )
                ])
        case .executedTrades, .pendingTrades, .terminatedTrades, .repoChanges:
            if Self.has(row, Self.dealNumberHeader) {
                tradeMapIndex = mapIndex(row, DealColumn.table, &tradeMaps, &tradeLayouts)
                return
            }
            try dealRow(row)
        case .cash:
            try cashSectionRow(row)
        case .positions:
            try positionRow(row)
        case .securities:
            try securityRow(row)
        case .reference(let number):
            try referenceRow(row, section: number)
        }
    }

    /// A header row's texts and columns: pages repeat a few layouts, each mapped once.
    struct Layout: Hashable {
        let column: Int
        let text: [UInt8]
    }

    /// The index in `maps` of the map of header `row` (a layout seen before keeps its map, and the
    /// header row messages name is the first one with that layout).
    func mapIndex(_ row: XLSXRow, _ fields: [TableField], _ maps: inout [TableMap], _ known: inout [[Layout]: Int]) -> Int {
        let texts = TinkoffHeader.foldedTexts(row)
        let layout = texts.map { Layout(column: $0.column, text: $0.text) }
        if let index = known[layout] { return index }
        maps.append(TableMap(fields: fields, headerRow: row.number, texts: texts))
        known[layout] = maps.count - 1
        return maps.count - 1
    }

    private func enter(section number: String, title: String) throws {
        try settlePendingCurrency()
        if number == "1.1" || number == "2" { sawOperationsSection = true }
        tradeMapIndex = nil
        cashMapIndex = nil
        balanceMap = nil
        headerless = nil
        currency = nil
        referenceHeader = nil
        positionMap = nil
        securitiesMap = nil
        switch number {
        case "1.1": section = .executedTrades
        case "1.2": section = .pendingTrades
        case "1.3": section = .terminatedTrades
        case "1.4": section = .repoChanges
        case "2": section = .cash
        // 2020's report has one section 3 with the positions; since 2021 it is 3.1.
        case "3" where Self.folded(title).contains("движениефинансовыхактивов".utf8), "3.1": section = .positions
        case "4.1": section = .securities
        default:
            section = .reference(number)
            let shown = title.count > 60 ? String(title.prefix(60)) + "…" : title
            referenceSkipReason = "not an operation: a row of section \(shown.trimmedOfSpaces)"
        }
    }

    /// A page footer: `N из ` (the page count sits in another cell).
    static func isFooter(_ row: XLSXRow) -> Bool {
        row.cells.contains { cell in
            guard cell.kind == .string else { return false }
            let b = TinkoffValues.trimmed(cell.bytes)
            var i = 0
            while i < b.count, b[i] &- 48 < 10 { i += 1 }
            guard i > 0, i < b.count, b[i] == 0x20 else { return false }
            // "из" in UTF-8, then only spaces.
            guard i + 5 <= b.count, b[i + 1] == 0xD0, b[i + 2] == 0xB8, b[i + 3] == 0xD0, b[i + 4] == 0xB7 else { return false }
            return b[(i + 5)...].allSatisfy { $0 == 0x20 }
        }
    }

    /// The number of a section heading (`1.1 Информация…` → `1.1`, `2. Операции…` → `2`), with
    /// the line breaks the 2021 templates put around it.
    static func sectionNumber(_ cell: XLSXCell) -> String? {
        guard cell.kind == .string, cell.column == 0 else { return nil }
        let text = String(decoding: TinkoffValues.trimmed(cell.bytes), as: UTF8.self)
        guard let first = text.utf8.first, first &- 48 < 10 else { return nil }
        let number = text.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
        let rest = text.dropFirst(number.count)
        guard rest.first == " ", let letter = rest.dropFirst().first(where: { $0 != " " }), letter.isUppercase else { return nil }
        var n = String(number)
        if n.hasSuffix(".") { n.removeLast() }
        let parts = n.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), parts.allSatisfy({ (1...2).contains($0.count) }) else { return nil }
        return n
    }

    static let dealNumberHeader = Array("номерсделки".utf8)

    static func folded(_ text: String) -> [UInt8] { HeaderText.fold(text) }

    /// Whether a string cell of `row` is the header text `folded`.
    static func has(_ row: XLSXRow, _ folded: [UInt8]) -> Bool {
        row.cells.contains { $0.kind == .string && $0.bytes.count < 3 * folded.count + 8 && HeaderText.matches($0.bytes, folded) }
    }

    // MARK: - Records

    func at(_ row: XLSXRow) -> SourceLocation { locations.at(row.number) }
    func at(row number: Int) -> SourceLocation { locations.at(number) }

    /// Hands a record on: held with its raw text while the sheet is read, emitted at the end.
    func output(_ record: SourceRecord, _ row: XLSXRow) throws {
        if let emit {
            try emit(record) { row.text }
            return
        }
        heldRecords.append((record, keepRaw(row)))
        HeldEntry(kind: .record).append(to: heldEntries)
    }

    /// Keeps the row's cells joined by tabs, for the raw text a reject or a conflict shows; returns
    /// where it ends in `rawTexts`.
    func keepRaw(_ row: XLSXRow) -> Int {
        for (i, cell) in row.cells.enumerated() {
            if i > 0 { rawTexts.append(0x09) }
            rawTexts.append(contentsOf: cell.bytes)
        }
        return rawTexts.count
    }

    func rawText(_ range: Range<Int>) -> String {
        do {
            return String(decoding: try rawTexts.bytes(from: range.lowerBound, count: range.count), as: UTF8.self)
        } catch {
            return "(the row's text cannot be read back: \(error))"
        }
    }

    func skip(_ row: XLSXRow, _ reason: String) throws {
        try output(.skipped(SkippedRow(source: at(row), reason: reason)), row)
    }

    func reject(_ row: XLSXRow, _ errors: [FieldError]) throws {
        try output(.rejected(RejectedRow(source: at(row), raw: row.text, errors: errors)), row)
    }

    /// Reads the held rows, now that the securities are known, and emits the report's balances
    /// and every record in row order.
    func finish(emit: RecordHandler) throws {
        try settlePendingCurrency()
        try withoutActuallyEscaping(emit) { emit in
            self.emit = emit
            defer { self.emit = nil }
            let warnings = try decideUnlabelledRuns()
            findRekeyed()
            for var statement in balances {
                // One security, one asset: a position under its ISIN counts with its ticker's.
                if statement.kind == .position, let r = rekeyed[statement.asset.text] { statement.asset = r.asset }
                try emit(.statement(statement)) { "" }
            }
            for warning in warnings {
                try emit(.warning(warning)) { "" }
            }
            var rawStart = 0
            var dealCursor = Spool.Cursor()
            var cashCursor = Spool.Cursor()
            var cashCells: [XLSXCell] = []
            func emitDeal(_ deal: HeldDeal) throws {
                let range = rawStart..<deal.rawEnd
                rawStart = deal.rawEnd
                let record = finished(deal) { self.rawText(range) }
                noteDealUnits(record)
                try emit(record) { self.rawText(range) }
            }
            // Taken out of `self` first: what reads the rows may touch the reader, never the lists.
            let entries = heldEntries
            var records = heldRecords
            var deals = dealsOnHeapHeld
            var positions = heldPositions
            heldEntries = Spool()
            heldRecords = ChunkedList()
            dealsOnHeapHeld = ChunkedList()
            heldPositions = ChunkedList()
            var entryCursor = Spool.Cursor()
            // Each kind's list holds exactly the rows its entries name, in the same order.
            func missing(_ what: String) -> Never {
                preconditionFailure("the held rows have no \(what) for its entry")
            }
            for offset in stride(from: 0, to: entries.count, by: HeldEntry.size) {
                guard let entry = try entryCursor.withBytes(of: entries, from: offset, count: HeldEntry.size, { HeldEntry($0) }) else {
                    missing("entry")
                }
                switch entry.kind {
                case .record:
                    guard let (record, rawEnd) = records.popFirst() else { missing("record") }
                    let range = rawStart..<rawEnd
                    rawStart = rawEnd
                    try emit(record) { self.rawText(range) }
                case .deal:
                    guard let deal = deals.popFirst() else { missing("deal") }
                    try emitDeal(deal)
                case .spooledDeal:
                    let tradeBytes = Int(entry.length)
                    let (trade, code) = try dealCursor.withBytes(of: heldDeals, from: entry.start, count: tradeBytes + (entry.codeBytes ?? 0)) { bytes in
                        (
                            try RecordBytes.read(Trade.self, from: UnsafeRawBufferPointer(rebasing: bytes[..<tradeBytes])),
                            entry.codeBytes.map { _ in String(decoding: UnsafeRawBufferPointer(rebasing: bytes[tradeBytes...]), as: UTF8.self) }
                        )
                    }
                    try emitDeal(HeldDeal(trade: trade, code: code, repoLeg: nil, rawEnd: entry.rawEnd))
                case .cashRow:
                    try cashCursor.withBytes(of: heldCashRows, from: entry.start, count: Int(entry.length)) {
                        try HeldRow.withRow(in: $0, cells: &cashCells) { row in
                            guard entry.currency < 0 else { return try readCash(row, cashMaps[entry.map], cashCurrencies[entry.currency]) }
                            let run = unlabelledRuns[-entry.currency - 1]
                            guard let code = run.currency else {
                                return try reject(row, [FieldError(column: nil, field: "asset", message: run.problem ?? "its currency was not decided")])
                            }
                            try readCash(row, cashMaps[entry.map], code)
                        }
                    }
                case .position:
                    guard let position = positions.popFirst() else { missing("position") }
                    let range = rawStart..<position.rawEnd
                    rawStart = position.rawEnd
                    try emit(rekeyedPositionRecord(position)) { self.rawText(range) }
                }
            }
            rawTexts = Spool()
            heldDeals = Spool()
            heldCashRows = Spool()
        }
    }
}

extension StringProtocol {
    /// Without leading and trailing spaces (plain or no-break) and line breaks.
    var trimmedOfSpaces: String {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\u{A0}" || f == "\n" || f == "\r" || f == "\r\n" || f == "\t" { s.removeFirst() }
        while let l = s.last, l == " " || l == "\u{A0}" || l == "\n" || l == "\r" || l == "\r\n" || l == "\t" { s.removeLast() }
        return String(s)
    }
}
