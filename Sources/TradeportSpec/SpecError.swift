/// Where something is in a spec file: 1-based line and column.
public struct SpecLocation: Sendable, Hashable, CustomStringConvertible {
    public let file: String
    public let line: Int
    public let column: Int

    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    public var description: String { "\(file):\(line):\(column)" }
}

/// One problem with a spec: the file, line and column, the key (`columns[2].type`) and what is wrong,
/// printed as compilers print theirs, so editors and `swift build` can jump to it.
public struct SpecError: Error, Sendable, Hashable, CustomStringConvertible {
    public let location: SpecLocation
    public let key: String
    public let message: String

    public init(_ location: SpecLocation, key: String, _ message: String) {
        self.location = location
        self.key = key
        self.message = message
    }

    public var description: String {
        "\(location): error: \(key.isEmpty ? "" : key + ": ")\(message)"
    }
}

/// Every problem found in a spec (loading goes on after the first one, so all are reported at once).
public struct SpecErrors: Error, Sendable, CustomStringConvertible {
    public let errors: [SpecError]

    public init(_ errors: [SpecError]) { self.errors = errors }

    public var description: String { errors.map(\.description).joined(separator: "\n") }
}
