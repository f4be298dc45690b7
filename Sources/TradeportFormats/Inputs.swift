import TradeportCore

/// One input to convert: its path (`-` for standard input) and its format's id when it is named
/// (else it is detected).
public struct InputRequest: Sendable, Hashable {
    public var path: String
    public var format: String?

    public init(path: String, format: String? = nil) {
        self.path = path
        self.format = format
    }
}

/// An input opened and given its reader, ready to be converted.
public struct PreparedInput {
    public let input: SourceInput
    public let reader: any FormatReader

    public init(input: SourceInput, reader: any FormatReader) {
        self.input = input
        self.reader = reader
    }
}

/// Turning inputs into canonical operations: what `convert`, `push`, `serve`'s uploads and the
/// test kit all do, written once. Every input is opened and given its reader before any is read,
/// so a bad input stops the run before anything is written.
public enum Inputs {
    /// Opens `path` (`-` for standard input), refusing a missing file, a directory or an empty file.
    public static func open(_ path: String) throws(InputError) -> SourceInput {
        let input: SourceInput
        do {
            input = try SourceInput(path: path)
        } catch let error as InputError {
            throw error
        } catch {
            throw InputError(path: path, message: "\(error)")
        }
        if input.isEmpty { throw InputError(.empty, path: path, message: "the file is empty; there is nothing to convert") }
        return input
    }

    /// The reader named `id`, or a problem listing the known ones.
    public static func reader(named id: String, in registry: FormatRegistry) throws(InputError) -> any FormatReader {
        guard let reader = registry.reader(id: id) else {
            throw InputError(.unknownFormat, path: "", message: "unknown format '\(id)'; known formats: \(registry.ids.joined(separator: ", "))")
        }
        return reader
    }

    /// The reader for `input`: the one named, or the one detection finds.
    public static func reader(for input: SourceInput, named id: String?, in registry: FormatRegistry) throws(InputError) -> any FormatReader {
        if let id { return try reader(named: id, in: registry) }
        switch registry.detect(input.probe) {
        case .detected(let reader):
            return reader
        case .none:
            throw InputError(.notRecognized, path: input.path, message: registry.unrecognized(input.probe, path: input.path))
        case .ambiguous(let ids):
            throw InputError(.ambiguous, path: input.path, message: "more than one format matches (\(ids.joined(separator: ", "))); name one with --format")
        }
    }

    /// The values `--param NAME=VALUE` gives, checked against what the inputs' formats take:
    /// each name must be a parameter of one of them.
    public static func parameters(_ given: [String], for inputs: [PreparedInput]) throws(InputError) -> [String: String] {
        var out: [String: String] = [:]
        let declared = inputs.compactMap { $0.reader.specReader }.flatMap(\.spec.parameters)
        for item in given {
            guard let eq = item.firstIndex(of: "="), eq != item.startIndex else {
                throw InputError(.unknownParameter, path: "", message: "--param \(item): expected NAME=VALUE")
            }
            let name = String(item[..<eq])
            guard declared.contains(where: { $0.name == name }) else {
                let known = Set(declared.map(\.name)).sorted()
                throw InputError(
                    .unknownParameter, path: "",
                    message: "--param \(name): no input's format takes it (\(known.isEmpty ? "they take none" : "they take " + known.joined(separator: ", ")))")
            }
            out[name] = String(item[item.index(after: eq)...])
        }
        return out
    }

    /// Read options for a zone named by the user (`--timezone`), or each format's own default.
    public static func readOptions(timezone: String?) throws(InputError) -> ReadOptions {
        var read = ReadOptions()
        if let timezone {
            guard let zone = SourceTimeZone(identifier: timezone) else {
                throw InputError(.unknownTimeZone, path: "", message: "unknown time zone '\(timezone)' (use an IANA name like Europe/Moscow or UTC)")
            }
            read.timeZone = zone
        }
        return read
    }

    /// Opens every input and gives it its reader; named formats are checked before any file is opened.
    public static func prepare(_ requests: [InputRequest], registry: FormatRegistry) throws(InputError) -> [PreparedInput] {
        for request in requests { if let id = request.format { _ = try reader(named: id, in: registry) } }
        var prepared: [PreparedInput] = []
        for request in requests {
            let input = try open(request.path)
            prepared.append(PreparedInput(input: input, reader: try reader(for: input, named: request.format, in: registry)))
        }
        return prepared
    }

    /// Converts prepared inputs into `sink`, in order. Throws what stops a source as a whole (an
    /// `InputError`, an `OutputError`, the sink's error).
    @discardableResult
    public static func convert<Sink: ConversionSink>(_ inputs: [PreparedInput], options: ConversionOptions, into sink: Sink) throws -> ConversionReport {
        let conversion = Conversion(options: options, sink: sink)
        conversion.reserveCapacity(operations: inputs.reduce(0) { $0 + $1.input.estimatedRows })
        for prepared in inputs { try conversion.add(prepared.input, reader: prepared.reader) }
        return try conversion.finish()
    }

    /// Converts inputs into a document in memory, as `convert` would write it: for inputs that fit
    /// in memory (a push, an upload, a test).
    public static func document(_ inputs: [PreparedInput], options: ConversionOptions) throws -> (CanonicalDocument, ConversionReport) {
        let collector = DocumentCollector()
        let report = try convert(inputs, options: options, into: collector)
        return (collector.document, report)
    }

    /// Prepares and converts `requests` into a document in memory.
    public static func document(
        _ requests: [InputRequest], options: ConversionOptions, registry: FormatRegistry
    ) throws -> (CanonicalDocument, ConversionReport) {
        try document(try prepare(requests, registry: registry), options: options)
    }
}
