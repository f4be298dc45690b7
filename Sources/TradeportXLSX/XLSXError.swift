/// Why a workbook, or a part of it, cannot be read: what kind of failure, which part, which line.
public struct XLSXError: Error, Sendable, CustomStringConvertible, Equatable {
    /// The kind of failure (new kinds may be added).
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        let name: String
        public var description: String { name }

        /// Not an XLSX workbook at all (another kind of file, or a ZIP without a workbook).
        public static let notAWorkbook = Kind(name: "not a workbook")
        /// An old binary Excel workbook (`.xls`, BIFF in an OLE container).
        public static let legacyExcel = Kind(name: "legacy .xls workbook")
        /// A password-protected workbook (an OLE container holding an `EncryptedPackage`).
        public static let encrypted = Kind(name: "encrypted workbook")
        /// A truncated or damaged ZIP archive, or an entry that fails to inflate or its CRC.
        public static let corruptArchive = Kind(name: "corrupt archive")
        /// Refused for safety: the inflated size or the inflate ratio passed its limit, or a part
        /// holds a DTD or an entity.
        public static let unsafe = Kind(name: "refused")
        /// A part that is not well-formed XML, or not what its place in the workbook requires.
        public static let malformed = Kind(name: "malformed part")
        /// The sheet asked for is not in the workbook.
        public static let noSuchSheet = Kind(name: "no such sheet")
    }

    public let kind: Kind
    public let message: String
    /// The archive entry the failure is in, when there is one (`xl/worksheets/sheet1.xml`).
    public let part: String?
    /// The XML line in `part`, when known.
    public let line: Int?

    public init(_ kind: Kind, _ message: String, part: String? = nil, line: Int? = nil) {
        self.kind = kind
        self.message = message
        self.part = part
        self.line = line
    }

    public var description: String {
        var where_ = ""
        if let part {
            where_ = line.map { "\(part), line \($0): " } ?? "\(part): "
        }
        return where_ + message
    }
}

/// Bounds on what reading a workbook may inflate, against ZIP bombs.
public struct XLSXLimits: Sendable {
    /// Most bytes any one entry may inflate to.
    public var maxEntryBytes: Int
    /// Most bytes all entries together may inflate to.
    public var maxTotalBytes: Int
    /// Largest inflated-to-compressed ratio of an entry, checked once it has inflated more than
    /// `ratioGrace` bytes (spreadsheet XML compresses 10 to 100 times; a bomb about 1000 times).
    public var maxRatio: Int
    public var ratioGrace: Int
    /// Most bytes a small part (workbook, relationships, styles) may inflate to.
    public var maxSmallPartBytes: Int

    public init(
        maxEntryBytes: Int = 4 << 30, maxTotalBytes: Int = 8 << 30, maxRatio: Int = 400,
        ratioGrace: Int = 8 << 20, maxSmallPartBytes: Int = 64 << 20
    ) {
        self.maxEntryBytes = maxEntryBytes
        self.maxTotalBytes = maxTotalBytes
        self.maxRatio = maxRatio
        self.ratioGrace = ratioGrace
        self.maxSmallPartBytes = maxSmallPartBytes
    }

    public static let `default` = XLSXLimits()
}
